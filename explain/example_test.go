package explain_test

import (
	"fmt"

	"github.com/peguri/rfc3986/explain"
)

func ExampleExplainer_Explain() {
	x, err := explain.New("rfc3986")
	if err != nil {
		fmt.Println(err)
		return
	}
	ex, _ := x.Explain("URI-reference", "http://[::1.2.3.4.5]/")
	f := ex.Failure
	fmt.Println(f.Rule, "could not continue at offset", f.Offset, "found", f.Found, "expected", f.Expected)
	fmt.Println(f.ABNF)
	fmt.Println(f.Source)

	ex, _ = x.Explain("", "http://1.2.3.4.5/")
	fmt.Println(ex.Hosts[0].Kind)
	// Output:
	// IPv4address could not continue at offset 17 found "." expected ["]" [0-9]]
	//    IPv4address   = dec-octet "." dec-octet "." dec-octet "." dec-octet
	// grammar/rfc3986.abnf:48:4
	// regname
}

func ExampleNew() {
	x, err := explain.New("rfc6874")
	if err != nil {
		fmt.Println(err)
		return
	}
	ex, _ := x.Explain("", "http://[fe80::1%eth0]/")
	fmt.Println(ex.Failure.Rule, ex.Failure.Offset, ex.Failure.Expected)
	// Output:
	// IPv6addrz 16 ["2"]
}

func ExampleExplainer_ABNF() {
	x, _ := explain.New("rfc6874")
	text, where := x.ABNF("ZoneID")
	fmt.Println(text)
	fmt.Println(where)
	// Output:
	// ZoneID = 1*( unreserved / pct-encoded )
	// grammar/ext/rfc6874.abnf:9:1
}

func ExampleGrammars() {
	fmt.Println(explain.Grammars())
	// Output: [rfc3986 rfc6874 rfc3987]
}

func ExampleExplainer_Parser() {
	x, _ := explain.New("rfc3987")
	fmt.Println(x.Parser().DefaultRule())
	// Output: IRI-reference
}

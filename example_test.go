package rfc3986_test

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/peguri/rfc3986"
)

func ExampleParse() {
	u, err := rfc3986.Parse("https://user@example.com:8443/a/b?q=1#top")
	if err != nil {
		panic(err)
	}
	fmt.Println(u.Scheme(), u.Userinfo(), u.Host(), u.Port(), u.Path(), u.Query(), u.Fragment())
	fmt.Println(u.HostKind())
	// Output:
	// https user example.com 8443 /a/b q=1 top
	// regname
}

func ExampleParse_undefinedVersusEmpty() {
	for _, s := range []string{"http://a", "http://a?", "http://a?#"} {
		u := rfc3986.MustParse(s)
		fmt.Printf("%-11q query defined: %-5v fragment defined: %v\n", u.String(), u.HasQuery(), u.HasFragment())
	}
	// Output:
	// "http://a"  query defined: false fragment defined: false
	// "http://a?" query defined: true  fragment defined: false
	// "http://a?#" query defined: true  fragment defined: true
}

func ExampleParse_hostKinds() {
	for _, s := range []string{"//1.2.3.4", "//1.2.3.4.5", "//[::1]", "//[v1.x]", "//example.com", "mailto:a@b"} {
		u := rfc3986.MustParse(s)
		fmt.Printf("%-14s %q %v\n", s, u.Host(), u.HostKind())
	}
	// Output:
	// //1.2.3.4      "1.2.3.4" ipv4
	// //1.2.3.4.5    "1.2.3.4.5" regname
	// //[::1]        "[::1]" ipv6
	// //[v1.x]       "[v1.x]" ipvfuture
	// //example.com  "example.com" regname
	// mailto:a@b     ""
}

func ExampleParse_error() {
	_, err := rfc3986.Parse("http://exa mple.com/")
	fmt.Println(err.(*rfc3986.Error).Offset)
	fmt.Println(err.(*rfc3986.Error).Caret())
	// Output:
	// 10
	// http://exa mple.com/
	//           ^
	// parse "http://exa mple.com/" as URI-reference: reg-name could not continue at offset 10: found " "; expected pct-encoded, unreserved, sub-delims, "#", "/", ":", "?", "@" or end of input
}

func ExampleParseURI() {
	_, err := rfc3986.ParseURI("//example.com/")
	fmt.Println(err)
	// Output: parse "//example.com/" as URI: URI could not continue at offset 0: found "/"; expected ALPHA
}

func ExampleParseAbsolute() {
	_, err := rfc3986.ParseAbsolute("http://example.com/#frag")
	fmt.Println(err != nil)
	u, _ := rfc3986.ParseAbsolute("http://example.com/?q")
	fmt.Println(u)
	// Output:
	// true
	// http://example.com/?q
}

func ExampleParseRelative() {
	u, err := rfc3986.ParseRelative("../a:b")
	fmt.Println(u.Path(), err)
	_, err = rfc3986.ParseRelative("a:b")
	fmt.Println(err != nil)
	// Output:
	// ../a:b <nil>
	// true
}

func ExampleMustParse() {
	u := rfc3986.MustParse("urn:example:animal:ferret:nose")
	fmt.Println(u.Scheme(), u.Path(), u.HasAuthority())
	// Output: urn example:animal:ferret:nose false
}

func ExampleValidate() {
	for _, s := range []string{"255", "256", "025"} {
		fmt.Println(s, rfc3986.Validate("dec-octet", s) == nil)
	}
	// Output:
	// 255 true
	// 256 false
	// 025 false
}

func ExampleURI_MarshalText() {
	u := rfc3986.MustParse("http://a/b?")
	b, _ := u.MarshalText()
	fmt.Println(string(b))
	var v rfc3986.URI
	_ = v.UnmarshalText([]byte("#frag"))
	fmt.Println(v.Fragment(), v.HasFragment())
	// Output:
	// http://a/b?
	// frag true
}

func ExampleURI_Parts() {
	p := rfc3986.MustParse("//h:80").Parts()
	fmt.Printf("%+v\n", p.Host)
	p.Port = "8080"
	fmt.Println(p)
	// Output:
	// h
	// //h:8080
}

func ExampleFromParts() {
	u, err := rfc3986.FromParts(rfc3986.Parts{Scheme: "https", HasScheme: true, HasAuthority: true, Host: "example.com", Path: "/a", Query: "q=1", HasQuery: true})
	fmt.Println(u, err)
	// A host without an authority is refused, not dropped.
	_, err = rfc3986.FromParts(rfc3986.Parts{Host: "h", Path: "/x"})
	fmt.Println(errors.Is(err, rfc3986.ErrUndefinedComponent))
	// A path that would read as an authority (§3.3) is refused.
	_, err = rfc3986.FromParts(rfc3986.Parts{Path: "//x"})
	fmt.Println(err)
	// Output:
	// https://example.com/a?q=1 <nil>
	// true
	// parse "//x" as URI-reference: the components recompose to text that parses into different components at offset 0
}

func ExampleErrTooLong() {
	_, err := rfc3986.Parse(strings.Repeat("a", rfc3986.MaxLength+1))
	fmt.Println(errors.Is(err, rfc3986.ErrTooLong))
	// Output: true
}

func ExampleErrUnknownRule() {
	err := rfc3986.Validate("no-such-rule", "x")
	fmt.Println(errors.Is(err, rfc3986.ErrUnknownRule))
	fmt.Println(err)
	// Output:
	// true
	// parser: no rule "no-such-rule" in rfc3986 (39 start rules, which Rules lists; gen peg and gen dfa make a rule of the grammar one with -start)
}

func ExampleHostKind() {
	for _, k := range []rfc3986.HostKind{rfc3986.HostNone, rfc3986.HostIPv4, rfc3986.HostIPv6, rfc3986.HostIPvFuture, rfc3986.HostRegName, 9} {
		fmt.Printf("%q ", k)
	}
	// Output: "" "ipv4" "ipv6" "ipvfuture" "regname" "HostKind(9)"
}

func ExampleURI_Set() {
	// *URI is a flag.Value: a flag that holds a URI reference, checked
	// when the command line is parsed.
	var base rfc3986.URI
	fs := flag.NewFlagSet("crawl", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var(&base, "base", "the base URI")
	fmt.Println(fs.Parse([]string{"-base", "http://example.com/a/"}), base.Host(), base.Path())
	fmt.Println(fs.Parse([]string{"-base", "http://a b/"}) != nil, base) // unchanged on failure
	// Output:
	// <nil> example.com /a/
	// true http://example.com/a/
}

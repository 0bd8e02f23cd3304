package rfc3987_test

import (
	"fmt"

	"github.com/peguri/rfc3986/parser/rfc3987"
)

func Example() {
	u, _ := rfc3987.Parser().Parse("IRI", "http://例え.jp/引き割り?q=ü#α")
	fmt.Println(u.Host(), u.Path(), u.Query(), u.Fragment())
	// Private-use characters are allowed in queries only (RFC 3987 §2.2).
	fmt.Println(rfc3987.Parser().Validate("IRI", "http://a/\ue000") != nil)
	// Output:
	// 例え.jp /引き割り q=ü α
	// true
}

func ExampleToURI() {
	u, _ := rfc3987.ToURI("http://résumé.example/ü?q=ä#%C3%A9")
	fmt.Println(u)
	_, err := rfc3987.ToURI("http://é/%zz")
	fmt.Println(err)
	// Output:
	// http://r%C3%A9sum%C3%A9.example/%C3%BC?q=%C3%A4#%C3%A9
	// parse "http://é/%zz" as IRI-reference: pct-encoded could not continue at offset 11: found "z"; expected HEXDIG
}

func ExampleFromURI() {
	for _, s := range []string{"http://www.example.org/D%C3%BCrst", "http://www.example.org/D%FCrst", "http://a/%7E%2F"} {
		u, err := rfc3987.FromURI(s)
		fmt.Println(u, err)
	}
	// Output:
	// http://www.example.org/Dürst <nil>
	// http://www.example.org/D%FCrst <nil>
	// http://a/~%2F <nil>
}

package parser_test

import (
	"fmt"
	"net/netip"

	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc3987"
)

func ExampleEncode() {
	fmt.Println(parser.Encode(parser.Segment, "50% off/today"))
	fmt.Println(parser.Encode(parser.FirstSegment, "a:b"))
	fmt.Println(parser.Encode(parser.QueryPart, "1&2=3"))
	// Output:
	// 50%25%20off%2Ftoday
	// a%3Ab
	// 1%262%3D3
}

func ExampleAppendEncode() {
	b := []byte("/files/")
	b = parser.AppendEncode(b, parser.Segment, "a b.txt")
	fmt.Println(string(b))
	// Output: /files/a%20b.txt
}

func ExampleEscape() {
	// Text that is partly encoded already: its percent-encodings stay.
	fmt.Println(parser.Escape(parser.Query, "q=caf%C3%A9 au lait&x=100%"))
	// Output: q=caf%C3%A9%20au%20lait&x=100%25
}

func ExampleAppendEscape() {
	fmt.Println(string(parser.AppendEscape([]byte("#"), parser.Fragment, "a b%20c")))
	// Output: #a%20b%20c
}

func ExampleDecode() {
	s, err := parser.Decode("caf%C3%A9")
	fmt.Println(s, err)
	_, err = parser.Decode("%2")
	fmt.Println(err)
	// Output:
	// café <nil>
	// decode "%2": malformed percent-encoding "%2" at offset 0: a "%" must be followed by two hexadecimal digits (RFC 3986 §2.1)
}

func ExampleAppendDecode() {
	b, err := parser.AppendDecode(nil, "a%20b")
	fmt.Println(string(b), err)
	// Output: a b <nil>
}

func ExampleFormDecode() {
	s, _ := parser.FormDecode("a+b%2B")
	fmt.Println(s)
	// Output: a b+
}

func ExampleParseComponent() {
	c, err := parser.ParseComponent("first-segment")
	fmt.Println(c, err)
	// Output: first-segment <nil>
}

func ExampleParser_Encode() {
	// RFC 3987's segments keep the characters IRIs allow.
	s, _ := rfc3987.Parser().Encode(parser.Segment, "引き 出し")
	fmt.Println(s)
	// Output: 引き%20出し
}

func ExampleParser_Charset() {
	cs, _ := parser.RFC3986().Charset(parser.Segment)
	fmt.Println(cs.Byte(':'), cs.Byte('/'), cs.Percent())
	// Output: true false true
}

func ExampleNewBuilder() {
	u, err := parser.NewBuilder().Scheme("https").Host("example.com").
		Path("a b", "c/d").Query("q", "1&2").Fragment("x y").Build()
	fmt.Println(u, err)
	u, _ = parser.NewBuilder().RelativePath("a:b").Build() // §4.2
	fmt.Println(u)
	u, _ = parser.NewBuilder().Host("::1").Build() // §3.2.2
	fmt.Println(u)
	_, err = parser.NewBuilder().Scheme("http").Port(80).Build()
	fmt.Println(err)
	// Output:
	// https://example.com/a%20b/c%2Fd?q=1%262#x%20y <nil>
	// a%3Ab
	// //[::1]
	// build: port "80": a userinfo or a port needs a host
}

func ExampleURI_Builder() {
	u := parser.MustParseReference("https://example.com/a?q=1#top")
	v, _ := u.Builder().HostAddr(netip.MustParseAddr("2001:db8::1")).NoFragment().Build()
	fmt.Println(v)
	// Output: https://[2001:db8::1]/a?q=1
}

func ExampleURI_PathSegments() {
	u := parser.MustParseReference("/a%2Fb/c%20d")
	fmt.Printf("%q\n", u.PathSegments())
	// Output: ["a/b" "c d"]
}

func ExampleURI_QueryPairs() {
	u := parser.MustParseReference("?a=1&a=2&b&c=x+y%26z")
	for _, p := range u.QueryPairs() {
		fmt.Printf("%q %q %v\n", p.Key, p.Value, p.HasValue)
	}
	fmt.Println(u.FormPairs()[3].Value)
	// Output:
	// "a" "1" true
	// "a" "2" true
	// "b" "" false
	// "c" "x+y&z" true
	// x y&z
}

func ExampleURI_Addr() {
	a, ok := parser.MustParseReference("http://[2001:db8::1]:8080/").Addr()
	fmt.Println(a, ok)
	_, ok = parser.MustParseReference("http://1.2.3.4.5/").Addr() // a reg-name (§3.2.2)
	fmt.Println(ok)
	// Output:
	// 2001:db8::1 true
	// false
}

func ExampleURI_PortNumber() {
	n, err := parser.MustParseReference("http://a:8080/").PortNumber()
	fmt.Println(n, err)
	_, err = parser.MustParseReference("http://a:99999/").PortNumber()
	fmt.Println(err)
	// Output:
	// 8080 <nil>
	// port 99999 is above 65535
}

func ExampleURI_DecodedHost() {
	u := parser.MustParseReference("http://us%65r@ex%41mple.com/#a%20b")
	fmt.Println(u.DecodedUserinfo(), u.DecodedHost(), u.DecodedFragment(), u.DecodedQuery() == "")
	// Output: user exAmple.com a b true
}

func ExampleParser_EncodeRule() {
	// Any rule of the grammar whose charset allows percent-encodings, by
	// name: a team's own (see examples/urn), or Appendix A's.
	s, err := parser.RFC3986().EncodeRule("fragment", "a b/c#d")
	fmt.Println(s, err)
	_, err = parser.RFC3986().EncodeRule("IPv4address", "1.2.3.4")
	fmt.Println(err)
	// Output:
	// a%20b/c%23d <nil>
	// parser: rfc3986: rule IPv4address: no charset for the component
}

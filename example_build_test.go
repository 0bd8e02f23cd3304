package rfc3986_test

import (
	"fmt"
	"net/url"

	"github.com/peguri/rfc3986"
)

func ExampleNewBuilder() {
	u, err := rfc3986.NewBuilder().Scheme("https").Host("example.com").
		Path("a b", "c/d").Query("q", "1&2").Fragment("x y").Build()
	fmt.Println(u, err)

	// net/url, for comparison: the path's "/" must be escaped by hand, and
	// the query's space is written "+".
	v := url.URL{Scheme: "https", Host: "example.com", Path: "/a b/c/d", RawPath: "/a%20b/c%2Fd",
		RawQuery: url.Values{"q": {"1&2"}}.Encode(), Fragment: "x y"}
	fmt.Println(v.String())
	// Output:
	// https://example.com/a%20b/c%2Fd?q=1%262#x%20y <nil>
	// https://example.com/a%20b/c%2Fd?q=1%262#x%20y
}

func ExampleURI_Builder() {
	u := rfc3986.MustParse("https://example.com/a?q=1#top")
	v, _ := u.Builder().Fragment("bottom").Build()
	fmt.Println(v)
	// Output: https://example.com/a?q=1#bottom
}

func ExampleEncode() {
	fmt.Println(rfc3986.Encode(rfc3986.Segment, "50% off/today"), url.PathEscape("50% off/today"))
	fmt.Println(rfc3986.Encode(rfc3986.QueryPart, "a b&c"), url.QueryEscape("a b&c"))
	// Output:
	// 50%25%20off%2Ftoday 50%25%20off%2Ftoday
	// a%20b%26c a+b%26c
}

func ExampleAppendEncode() {
	fmt.Println(string(rfc3986.AppendEncode([]byte("/"), rfc3986.Segment, "a b")))
	// Output: /a%20b
}

func ExampleEscape() {
	fmt.Println(rfc3986.Escape(rfc3986.Query, "caf%C3%A9 100%"))
	// Output: caf%C3%A9%20100%25
}

func ExampleAppendEscape() {
	fmt.Println(string(rfc3986.AppendEscape(nil, rfc3986.Fragment, "a b%20c")))
	// Output: a%20b%20c
}

func ExampleDecode() {
	s, err := rfc3986.Decode("caf%C3%A9")
	fmt.Println(s, err)
	_, err = rfc3986.Decode("100%")
	fmt.Println(err)
	// Output:
	// café <nil>
	// decode "100%": malformed percent-encoding "%" at offset 3: a "%" must be followed by two hexadecimal digits (RFC 3986 §2.1)
}

func ExampleAppendDecode() {
	b, _ := rfc3986.AppendDecode([]byte("> "), "a%20b")
	fmt.Println(string(b))
	// Output: > a b
}

func ExampleFormDecode() {
	s, _ := rfc3986.FormDecode("a+b")
	fmt.Println(s)
	// Output: a b
}

func ExampleParseComponent() {
	c, _ := rfc3986.ParseComponent("query-part")
	fmt.Println(rfc3986.Encode(c, "="))
	// Output: %3D
}

func ExampleURI_PathSegments() {
	u := rfc3986.MustParse("http://a/x%2Fy/z%20w")
	fmt.Printf("%q\n", u.PathSegments())
	v, _ := url.Parse(u.String()) // net/url: the decoded path cannot tell "%2F" from "/"
	fmt.Println(v.Path)
	// Output:
	// ["x/y" "z w"]
	// /x/y/z w
}

func ExampleURI_QueryPairs() {
	u := rfc3986.MustParse("?b=2&a=1&a=x+y")
	fmt.Println(u.QueryPairs(), u.FormPairs()[2].Value)
	v, _ := url.ParseQuery(u.Query()) // net/url: a map, the order lost, "+" always a space
	fmt.Println(v)
	// Output:
	// [{b 2 true} {a 1 true} {a x+y true}] x y
	// map[a:[1 x y] b:[2]]
}

func ExampleURI_FormPairs() {
	fmt.Println(rfc3986.MustParse("?q=a+b").FormPairs())
	// Output: [{q a b true}]
}

func ExampleURI_Addr() {
	a, ok := rfc3986.MustParse("http://[::1]:8080/").Addr()
	fmt.Println(a, ok)
	// Output: ::1 true
}

func ExampleURI_PortNumber() {
	_, err := rfc3986.MustParse("http://a:65536/").PortNumber()
	fmt.Println(err)
	// Output: port 65536 is above 65535
}

func ExampleURI_DecodedHost() {
	u := rfc3986.MustParse("http://us%65r@ex%41mple.com/?a%20b#c%20d")
	fmt.Println(u.DecodedUserinfo(), u.DecodedHost(), u.DecodedQuery(), u.DecodedFragment())
	// Output: user exAmple.com a b c d
}

func ExampleToURL() {
	v := rfc3986.ToURL(rfc3986.MustParse("http://a%3A99/"))
	fmt.Printf("%q %q\n", v.Hostname(), v.Port()) // the host is never moved
	// Output: "a%3A99" ""
}

func ExampleFromURL() {
	u, err := rfc3986.FromURL(&url.URL{Scheme: "http", Host: "a:8080", Path: "/b c"})
	fmt.Println(u, err)
	// Output: http://a:8080/b%20c <nil>
}

package rfc3986_test

import (
	"fmt"

	"github.com/peguri/rfc3986"
)

// RFC 3986 §5.4's base URI.
var exampleBase = rfc3986.MustParse("http://a/b/c/d;p?q")

func ExampleResolve() {
	for _, ref := range []string{"g", "../g", "//g", "?y", "#s", "../../../g", "g;x=1/../y"} {
		u, err := rfc3986.Resolve(exampleBase, rfc3986.MustParse(ref))
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-12s %s\n", ref, u)
	}
	// Output:
	// g            http://a/b/c/g
	// ../g         http://a/b/g
	// //g          http://g
	// ?y           http://a/b/c/d;p?y
	// #s           http://a/b/c/d;p?q#s
	// ../../../g   http://a/g
	// g;x=1/../y   http://a/b/c/y
}

func ExampleResolveNonStrict() {
	ref := rfc3986.MustParse("http:g")
	strict, _ := rfc3986.Resolve(exampleBase, ref)
	compat, _ := rfc3986.ResolveNonStrict(exampleBase, ref)
	fmt.Println(strict)
	fmt.Println(compat)
	// Output:
	// http:g
	// http://a/b/c/g
}

func ExampleResolveString() {
	u, err := rfc3986.ResolveString("http://a/b/c/d;p?q", "./g?y#s", true)
	fmt.Println(u, err)
	_, err = rfc3986.ResolveString("a/b", "g", true)
	fmt.Println(err)
	_, err = rfc3986.ResolveString("http://a/", "g h", true)
	fmt.Println(err)
	// Output:
	// http://a/b/c/g?y#s <nil>
	// resolve: base "a/b" has no scheme: RFC 3986 §5.1 requires an absolute base URI
	// resolve: reference: parse "g h" as URI-reference: unexpected " " at offset 1; expected "#", "%", "/", ":", "?", [!$&-,.0-9;=@-Z_a-z~-], [+.0-9A-Za-z-], EOF
}

func ExampleRelativize() {
	base := rfc3986.MustParse("http://a/b/c/d;p?q")
	for _, target := range []string{"http://a/b/c/g", "http://a/x/y", "http://a/b/c/d;p?y", "http://other/", "ftp://a/b"} {
		rel, _ := rfc3986.Relativize(base, rfc3986.MustParse(target))
		back, _ := rfc3986.Resolve(base, rel)
		fmt.Printf("%-20s %-10s %v\n", target, rel, back.String() == target)
	}
	// Output:
	// http://a/b/c/g       g          true
	// http://a/x/y         /x/y       true
	// http://a/b/c/d;p?y   ?y         true
	// http://other/        //other/   true
	// ftp://a/b            ftp://a/b  true
}

func ExampleRemoveDotSegments() {
	// RFC 3986 §5.2.4's two worked examples.
	fmt.Println(rfc3986.RemoveDotSegments("/a/b/c/./../../g"))
	fmt.Println(rfc3986.RemoveDotSegments("mid/content=5/../6"))
	// Output:
	// /a/g
	// mid/6
}

func ExampleNormalize() {
	u := rfc3986.MustParse("HTTP://User@Example.COM:80/%7efoo/./bar/../baz?%3f")
	n, _ := rfc3986.Normalize(u) // §6.2.2 and §6.2.3
	fmt.Println(n)
	n, _ = rfc3986.Normalize(u, rfc3986.NormalizeSyntax) // §6.2.2 only
	fmt.Println(n)
	n, _ = rfc3986.Normalize(u, rfc3986.NormalizeCase) // one step
	fmt.Println(n)
	// Output:
	// http://User@example.com/~foo/baz?%3F
	// http://User@example.com:80/~foo/baz?%3F
	// http://User@example.com:80/%7Efoo/./bar/../baz?%3F
}

func ExampleEqual() {
	a := rfc3986.MustParse("http://example.com/~smith/")
	b := rfc3986.MustParse("HTTP://EXAMPLE.com:80/%7Esmith/")
	fmt.Println(rfc3986.Equal(a, b))                        // §6.2.3, the default
	fmt.Println(rfc3986.Equal(a, b, rfc3986.CompareSyntax)) // the port differs
	fmt.Println(rfc3986.Equal(a, b, rfc3986.CompareSimple)) // the text differs
	// Output:
	// true
	// false
	// false
}

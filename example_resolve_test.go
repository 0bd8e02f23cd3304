package rfc3986_test

import (
	"errors"
	"fmt"

	"github.com/peguri/rfc3986"
)

// RFC 3986 §5.4's base URI.
var exampleBase = rfc3986.MustParse("http://a/b/c/d;p?q")

func ExampleResolve() {
	for _, ref := range []string{"g", "../g", "//g", "?y", "#s", "../../../g", "g;x=1/../y"} {
		u, err := rfc3986.Resolve(exampleBase, rfc3986.MustParse(ref), rfc3986.Strict)
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

// A crawler's loop: one reference and one target, parsed and resolved in
// place (URI.Set, ResolveTo), with no URI copied.
func ExampleResolveTo() {
	var ref, target rfc3986.URI
	for _, link := range []string{"g?y", "../x/./y", "//g", "mailto:a@b"} {
		if err := ref.Set(link); err != nil {
			fmt.Println(err)
			continue
		}
		if err := rfc3986.ResolveTo(&target, &exampleBase, &ref, rfc3986.Strict); err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-12s %s\n", link, &target)
	}
	// Output:
	// g?y          http://a/b/c/g?y
	// ../x/./y     http://a/b/x/y
	// //g          http://g
	// mailto:a@b   mailto:a@b
}

// §5.4.2: "http:g" is its own target to a strict parser, relative to a
// non-strict one.
func ExampleMode() {
	ref := rfc3986.MustParse("http:g")
	strict, _ := rfc3986.Resolve(exampleBase, ref, rfc3986.Strict)
	compat, _ := rfc3986.Resolve(exampleBase, ref, rfc3986.NonStrict)
	fmt.Println(strict)
	fmt.Println(compat)
	// Output:
	// http:g
	// http://a/b/c/g
}

func ExampleResolveString() {
	u, err := rfc3986.ResolveString("http://a/b/c/d;p?q", "./g?y#s", rfc3986.Strict)
	fmt.Println(u, err)
	_, err = rfc3986.ResolveString("a/b", "g", rfc3986.Strict)
	fmt.Println(err)
	_, err = rfc3986.ResolveString("http://a/", "g h", rfc3986.Strict)
	fmt.Println(err)
	// Output:
	// http://a/b/c/g?y#s <nil>
	// resolve: base "a/b" has no scheme: RFC 3986 §5.1 requires an absolute base URI
	// resolve: reference: parse "g h" as URI-reference: segment-nz-nc could not continue at offset 1: found " "; expected pct-encoded, unreserved, sub-delims, ALPHA, DIGIT, "#", "+", "-", ".", "/", ":", "?", "@" or end of input
}

// Every error says which argument is at fault; errors.As finds the
// *ArgError, and through it the *Error of text that did not parse.
func ExampleArgError() {
	_, err := rfc3986.ResolveString("//a/b", "g", rfc3986.Strict)
	var ae *rfc3986.ArgError
	fmt.Println(errors.As(err, &ae), ae.Arg, errors.Is(err, rfc3986.ErrNoScheme))
	_, err = rfc3986.ResolveString("http://a/b", "g h", rfc3986.Strict)
	var pe *rfc3986.Error
	fmt.Println(errors.As(err, &ae), ae.Arg, errors.As(err, &pe), pe.Offset)
	// Output:
	// true base true
	// true reference true 1
}

func ExampleRelativize() {
	base := rfc3986.MustParse("http://a/b/c/d;p?q")
	for _, target := range []string{"http://a/b/c/g", "http://a/x/y", "http://a/b/c/d;p?y", "http://other/", "ftp://a/b"} {
		rel, _ := rfc3986.Relativize(base, rfc3986.MustParse(target))
		back, _ := rfc3986.Resolve(base, rel, rfc3986.Strict)
		fmt.Printf("%-20s %-10s %v\n", target, rel, back.String() == target)
	}
	// Output:
	// http://a/b/c/g       g          true
	// http://a/x/y         /x/y       true
	// http://a/b/c/d;p?y   ?y         true
	// http://other/        //other/   true
	// ftp://a/b            ftp://a/b  true
}

func ExampleMerge() {
	fmt.Println(rfc3986.Merge(exampleBase, "../g")) // dot segments are removed after the merge
	fmt.Println(rfc3986.Merge(rfc3986.MustParse("http://a"), "g"))
	// Output:
	// /b/c/../g
	// /g
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
	n, _ := rfc3986.Normalize(u, rfc3986.NormalizeDefault) // §6.2.2 and §6.2.3
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

func ExampleNormalizeString() {
	n, err := rfc3986.NormalizeString("eXAMPLE://a/./b/../b/%63/%7bfoo%7d", rfc3986.NormalizeSyntax)
	fmt.Println(n, err)
	// Output: example://a/b/c/%7Bfoo%7D <nil>
}

// A Normalizer with its own scheme table: the default one and gopher. No
// global changes, so other goroutines normalizing at the same time are not
// affected.
func ExampleNormalizer() {
	n := rfc3986.Normalizer{
		Steps:   rfc3986.NormalizeDefault,
		Schemes: rfc3986.DefaultSchemes().With("gopher", rfc3986.Scheme{DefaultPort: "70", EmptyPathSlash: true}),
	}
	u, _ := n.NormalizeString("Gopher://Example.com:70")
	fmt.Println(u)
	eq, _ := n.EqualString("gopher://a:70/", "GOPHER://A")
	fmt.Println(eq)
	// Output:
	// gopher://example.com/
	// true
}

func ExampleNewSchemes() {
	coap := rfc3986.NewSchemes(map[string]rfc3986.Scheme{"coap": {DefaultPort: "5683"}})
	n := rfc3986.Normalizer{Steps: rfc3986.NormalizeSchemeBased, Schemes: coap}
	u, _ := n.NormalizeString("coap://h:5683/x")
	fmt.Println(u)
	// Output: coap://h/x
}

func ExampleDefaultSchemes() {
	fmt.Println(rfc3986.DefaultSchemes().Names())
	// Output: [ftp http https ws wss]
}

func ExampleEqual() {
	a := rfc3986.MustParse("http://example.com/~smith/")
	b := rfc3986.MustParse("HTTP://EXAMPLE.com:80/%7Esmith/")
	fmt.Println(rfc3986.Equal(a, b, rfc3986.CompareScheme)) // §6.2.3
	fmt.Println(rfc3986.Equal(a, b, rfc3986.CompareSyntax)) // the port differs
	fmt.Println(rfc3986.Equal(a, b, rfc3986.CompareSimple)) // the text differs
	// Output:
	// true
	// false
	// false
}

func ExampleEqualString() {
	eq, err := rfc3986.EqualString("http://a/%7Euser", "HTTP://a:80/~user", rfc3986.CompareScheme)
	fmt.Println(eq, err)
	_, err = rfc3986.EqualString("http://a/", "b c", rfc3986.CompareScheme)
	fmt.Println(err != nil)
	// Output:
	// true <nil>
	// true
}

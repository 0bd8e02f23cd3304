package resolve_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/resolve"
)

// must is for examples with hard-coded, valid input.
func must(u parser.URI, err error) parser.URI {
	if err != nil {
		panic(err)
	}
	return u
}

// The one place where this package writes more than RFC 3986 §5.2 says:
// "a:/.//c" rather than "a://c", whose "//" would start an authority.
func Example_guard() {
	base := must(parser.ParseReference("a:/b"))
	ref := must(parser.ParseReference("..//c"))
	t, _ := resolve.Resolve(base, ref, resolve.Strict)
	fmt.Println(t, t.HasAuthority(), t.Path())
	// Output: a:/.//c false /.//c
}

func ExampleResolve() {
	base := must(parser.ParseReference("http://a/b/c/d;p?q"))
	for _, s := range []string{"g", "../g", "//g", "?y", "#s", "../../../g", "g:h"} {
		t, err := resolve.Resolve(base, must(parser.ParseReference(s)), resolve.Strict)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-12q %s\n", s, t)
	}
	// Output:
	// "g"          http://a/b/c/g
	// "../g"       http://a/b/g
	// "//g"        http://g
	// "?y"         http://a/b/c/d;p?y
	// "#s"         http://a/b/c/d;p?q#s
	// "../../../g" http://a/g
	// "g:h"        g:h
}

// ResolveTo resolves in place: a crawler's loop over the links of a page
// reuses one reference and one target, and copies no URI.
func ExampleResolveTo() {
	base := must(parser.ParseReference("http://a/b/c/d;p?q"))
	var ref, target parser.URI
	for _, link := range []string{"g;x?y#s", "./g/", "../..", "//g/x/../y", "g?y/./x"} {
		if err := ref.Set(link); err != nil {
			panic(err)
		}
		if err := resolve.ResolveTo(&target, &base, &ref, resolve.Strict); err != nil {
			panic(err)
		}
		fmt.Printf("%-12s %s\n", link, target)
	}
	// The target is left alone when the base has no scheme.
	err := resolve.ResolveTo(&target, &ref, &ref, resolve.Strict)
	fmt.Println(target, err != nil)
	// Output:
	// g;x?y#s      http://a/b/c/g;x?y#s
	// ./g/         http://a/b/c/g/
	// ../..        http://a/
	// //g/x/../y   http://g/y
	// g?y/./x      http://a/b/c/g?y/./x
	// http://a/b/c/g?y/./x true
}

// §5.4.2: "http:g" is its own target to a strict parser, and relative to
// a non-strict one.
func ExampleMode() {
	base := must(parser.ParseReference("http://a/b/c/d;p?q"))
	ref := must(parser.ParseReference("http:g"))
	for _, mode := range []resolve.Mode{resolve.Strict, resolve.NonStrict} {
		t, _ := resolve.Resolve(base, ref, mode)
		fmt.Println(mode, t)
	}
	// Output:
	// Strict http:g
	// NonStrict http://a/b/c/g
}

func ExampleResolveString() {
	t, err := resolve.ResolveString("http://example.com/docs/guide/", "../api/index.html?v=2#top", resolve.Strict)
	fmt.Println(t, err)
	_, err = resolve.ResolveString("/docs/guide/", "../api/", resolve.Strict)
	fmt.Println(err, errors.Is(err, resolve.ErrNoScheme))
	// Output:
	// http://example.com/docs/api/index.html?v=2#top <nil>
	// resolve: base "/docs/guide/" has no scheme: RFC 3986 §5.1 requires an absolute base URI true
}

func ExampleRemoveDotSegments() {
	// The two traces of RFC 3986 §5.2.4.
	fmt.Println(resolve.RemoveDotSegments("/a/b/c/./../../g"))
	fmt.Println(resolve.RemoveDotSegments("mid/content=5/../6"))
	// Output:
	// /a/g
	// mid/6
}

func ExampleMerge() {
	fmt.Println(resolve.Merge(must(parser.ParseReference("http://a/b/c/d;p?q")), "../g"))
	fmt.Println(resolve.Merge(must(parser.ParseReference("http://a")), "g"))
	fmt.Println(resolve.Merge(must(parser.ParseReference("foo:bar")), "baz"))
	// Output:
	// /b/c/../g
	// /g
	// baz
}

func ExampleRelativize() {
	base := must(parser.ParseReference("http://a/b/c/d;p?q"))
	for _, s := range []string{"http://a/b/c/g", "http://a/b/g:h", "http://a/g", "http://a/b/c/d;p?q#s", "http://x/y", "https://a/b"} {
		r, err := resolve.Relativize(base, must(parser.ParseReference(s)))
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-22s %s\n", s, r)
	}
	// Output:
	// http://a/b/c/g         g
	// http://a/b/g:h         ../g:h
	// http://a/g             /g
	// http://a/b/c/d;p?q#s   #s
	// http://x/y             //x/y
	// https://a/b            https://a/b
}

func ExampleNormalize() {
	u := must(parser.ParseReference("HTTP://www.Example.COM:80/%7euser/./a/../b%2f?%3d#%41"))
	for _, steps := range []resolve.Steps{resolve.NormalizeCase, resolve.NormalizePercent, resolve.NormalizeDotSegments, resolve.NormalizeSchemeBased, resolve.NormalizeDefault} {
		n, err := resolve.Normalize(u, steps)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-21s %s\n", strings.ReplaceAll(steps.String(), "Normalize", ""), n)
	}
	// Output:
	// Case                  http://www.example.com:80/%7Euser/./a/../b%2F?%3D#%41
	// Percent               HTTP://www.Example.COM:80/~user/./a/../b%2f?%3d#A
	// DotSegments           HTTP://www.Example.COM:80/%7euser/b%2f?%3d#%41
	// SchemeBased           HTTP://www.Example.COM/%7euser/./a/../b%2f?%3d#%41
	// Case|Percent|DotSegments|SchemeBased http://www.example.com/~user/b%2F?%3D#A
}

func ExampleNormalizeString() {
	for _, s := range []string{
		"eXAMPLE://a/./b/../b/%63/%7bfoo%7d", // RFC 3986 §6.2.2
		"http://[2001:DB8:0:0:0:0:0:1]:/",
		"a/b/../../../c", // relative: the leading ".." stays
		"x/../y:z",       // relative: "./" keeps "y" from being a scheme
	} {
		n, err := resolve.NormalizeString(s, resolve.NormalizeDefault|resolve.NormalizeIPv6Canonical)
		fmt.Println(n, err)
	}
	// Output:
	// example://a/b/c/%7Bfoo%7D <nil>
	// http://[2001:db8::1]/ <nil>
	// ../c <nil>
	// ./y:z <nil>
}

func ExampleSteps() {
	fmt.Println(resolve.NormalizeSyntax)
	fmt.Println(resolve.NormalizeDefault | resolve.NormalizeIPv6Canonical)
	// Output:
	// NormalizeCase|NormalizePercent|NormalizeDotSegments
	// NormalizeCase|NormalizePercent|NormalizeDotSegments|NormalizeSchemeBased|NormalizeIPv6Canonical
}

func ExampleEqual() {
	a := must(parser.ParseReference("http://example.com"))
	b := must(parser.ParseReference("HTTP://example.com:80/"))
	for _, l := range []resolve.Level{resolve.CompareSimple, resolve.CompareSyntax, resolve.CompareScheme} {
		fmt.Println(l, resolve.Equal(a, b, l))
	}
	// Output:
	// CompareSimple false
	// CompareSyntax false
	// CompareScheme true
}

func ExampleEqualString() {
	eq, err := resolve.EqualString("http://a/%7Euser", "http://a/~user", resolve.CompareSyntax)
	fmt.Println(eq, err)
	eq, err = resolve.EqualString("http://a/b%2Fc", "http://a/b/c", resolve.CompareScheme)
	fmt.Println(eq, err)
	// An argument that does not parse is an error, not "not equivalent".
	_, err = resolve.EqualString("http://a/", "http://a b/", resolve.CompareScheme)
	fmt.Println(err)
	// Output:
	// true <nil>
	// false <nil>
	// resolve: b: parse "http://a b/" as URI-reference: reg-name could not continue at offset 8: found " "; expected pct-encoded, unreserved, sub-delims, "#", "/", ":", "?", "@" or end of input
}

func ExampleArgError() {
	_, err := resolve.ResolveString("http://a/b", "c d", resolve.Strict)
	var e *resolve.ArgError
	var pe *parser.Error
	if errors.As(err, &e) && errors.As(err, &pe) {
		fmt.Println(e.Arg, e.Input, pe.Offset)
	}
	// Output: reference c d 1
}

// A Normalizer with a scheme table of its own: the default one, plus
// gopher. The default table does not change, and both are safe to use from
// any number of goroutines.
func ExampleNormalizer() {
	n := resolve.Normalizer{
		Steps:   resolve.NormalizeDefault,
		Schemes: resolve.DefaultSchemes().With("gopher", resolve.Scheme{DefaultPort: "70", EmptyPathSlash: true}),
	}
	u := must(parser.ParseReference("GOPHER://example.com:70"))
	v, _ := n.Normalize(u)
	w, _ := resolve.Normalize(u, resolve.NormalizeDefault)
	fmt.Println(v)
	fmt.Println(w)
	eq, _ := n.EqualString("gopher://example.com:70", "gopher://EXAMPLE.com/")
	fmt.Println(eq)
	// Output:
	// gopher://example.com/
	// gopher://example.com:70
	// true
}

func ExampleNewSchemes() {
	s := resolve.NewSchemes(map[string]resolve.Scheme{"Coap": {DefaultPort: "5683"}})
	sc, ok := s.Lookup("COAP")
	fmt.Println(s.Names(), sc.DefaultPort, ok)
	fmt.Println(resolve.DefaultSchemes().Names())
	// Output:
	// [coap] 5683 true
	// [ftp http https ws wss]
}

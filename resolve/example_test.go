package resolve_test

import (
	"errors"
	"fmt"

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
	t, _ := resolve.Reference(base, ref)
	fmt.Println(t, t.HasAuthority(), t.Path())
	// Output: a:/.//c false /.//c
}

func ExampleReference() {
	base := must(parser.ParseReference("http://a/b/c/d;p?q"))
	for _, s := range []string{"g", "../g", "//g", "?y", "#s", "../../../g", "g:h"} {
		t, err := resolve.Reference(base, must(parser.ParseReference(s)))
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

func ExampleReferenceNonStrict() {
	base := must(parser.ParseReference("http://a/b/c/d;p?q"))
	ref := must(parser.ParseReference("http:g"))
	strict, _ := resolve.Reference(base, ref)
	compat, _ := resolve.ReferenceNonStrict(base, ref)
	fmt.Println(strict)
	fmt.Println(compat)
	// Output:
	// http:g
	// http://a/b/c/g
}

func ExampleString() {
	t, err := resolve.String("http://example.com/docs/guide/", "../api/index.html?v=2#top", true)
	fmt.Println(t, err)
	_, err = resolve.String("/docs/guide/", "../api/", true)
	fmt.Println(err)
	// Output:
	// http://example.com/docs/api/index.html?v=2#top <nil>
	// resolve: base "/docs/guide/" has no scheme: RFC 3986 §5.1 requires an absolute base URI
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
	for _, steps := range []resolve.Steps{resolve.Case, resolve.Percent, resolve.DotSegments, resolve.SchemeBased, resolve.Default} {
		n, err := resolve.Normalize(u, steps)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-37s %s\n", steps, n)
	}
	// Output:
	// Case                                  http://www.example.com:80/%7Euser/./a/../b%2F?%3D#%41
	// Percent                               HTTP://www.Example.COM:80/~user/./a/../b%2f?%3d#A
	// DotSegments                           HTTP://www.Example.COM:80/%7euser/b%2f?%3d#%41
	// SchemeBased                           HTTP://www.Example.COM/%7euser/./a/../b%2f?%3d#%41
	// Case|Percent|DotSegments|SchemeBased  http://www.example.com/~user/b%2F?%3D#A
}

func ExampleNormalizeString() {
	for _, s := range []string{
		"eXAMPLE://a/./b/../b/%63/%7bfoo%7d", // RFC 3986 §6.2.2
		"http://[2001:DB8:0:0:0:0:0:1]:/",
		"a/b/../../../c", // relative: the leading ".." stays
		"x/../y:z",       // relative: "./" keeps "y" from being a scheme
	} {
		n, err := resolve.NormalizeString(s, resolve.Default|resolve.IPv6Canonical)
		fmt.Println(n, err)
	}
	// Output:
	// example://a/b/c/%7Bfoo%7D <nil>
	// http://[2001:db8::1]/ <nil>
	// ../c <nil>
	// ./y:z <nil>
}

func ExampleEqual() {
	a := must(parser.ParseReference("http://example.com"))
	b := must(parser.ParseReference("HTTP://example.com:80/"))
	for _, l := range []resolve.Level{resolve.LevelSimple, resolve.LevelSyntax, resolve.LevelScheme} {
		fmt.Println(l, resolve.Equal(a, b, l))
	}
	// Output:
	// LevelSimple false
	// LevelSyntax false
	// LevelScheme true
}

func ExampleEqualString() {
	eq, err := resolve.EqualString("http://a/%7Euser", "http://a/~user", resolve.LevelSyntax)
	fmt.Println(eq, err)
	eq, err = resolve.EqualString("http://a/b%2Fc", "http://a/b/c", resolve.LevelScheme)
	fmt.Println(eq, err)
	// Output:
	// true <nil>
	// false <nil>
}

func ExampleError() {
	_, err := resolve.String("http://a/b", "c d", true)
	var e *resolve.Error
	var pe *parser.Error
	if errors.As(err, &e) && errors.As(err, &pe) {
		fmt.Println(e.Arg, e.Input, pe.Offset)
	}
	// Output: reference c d 1
}

func ExampleSchemes() {
	resolve.Schemes["gopher"] = resolve.Scheme{DefaultPort: "70", EmptyPathSlash: true}
	defer delete(resolve.Schemes, "gopher")
	n, _ := resolve.NormalizeString("gopher://example.com:70", resolve.Default)
	fmt.Println(n)
	// Output: gopher://example.com/
}

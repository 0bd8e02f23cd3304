package resolve_test

import (
	"errors"
	"testing"

	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc3987"
	"github.com/peguri/rfc3986/parser/rfc6874"
	"github.com/peguri/rfc3986/resolve"
)

// equalTests climb the comparison ladder of §6.2: for each pair, whether
// it is equivalent at each level. A pair equivalent at one level is
// equivalent at every level above.
var equalTests = []struct {
	a, b                   string
	simple, syntax, scheme bool
}{
	// §6.2.1: the same string.
	{"http://example.com/", "http://example.com/", true, true, true},
	{"", "", true, true, true},
	// §6.2.2: "an application using this approach could reasonably
	// consider the following two URIs equivalent".
	{"example://a/b/c/%7Bfoo%7D", "eXAMPLE://a/./b/../b/%63/%7bfoo%7d", false, true, true},
	// §6.2.2.1: "<HTTP://www.EXAMPLE.com/> is equivalent to
	// <http://www.example.com/>".
	{"HTTP://www.EXAMPLE.com/", "http://www.example.com/", false, true, true},
	// §6.2.2.1: ""%3a" versus "%3A"".
	{"http://a/%3a", "http://a/%3A", false, true, true},
	// §6.2.2.2 and §2.3: "%7Euser" and "~user".
	{"http://a/%7Euser", "http://a/~user", false, true, true},
	// ... but never a reserved character: "%2F" is not "/", "%3A" not ":".
	{"http://a/b%2Fc", "http://a/b/c", false, false, false},
	{"http://a/%3A", "http://a/:", false, false, false},
	// Only the scheme and host are case-insensitive (§6.2.2.1).
	{"http://a/X", "http://a/x", false, false, false},
	{"http://U@a/", "http://u@a/", false, false, false},
	// §6.2.3: the four equivalent URIs, each against the normal form.
	{"http://example.com", "http://example.com/", false, false, true},
	{"http://example.com:/", "http://example.com/", false, false, true},
	{"http://example.com:80/", "http://example.com/", false, false, true},
	{"http://example.com", "http://example.com:80/", false, false, true},
	// §6.2.3: "the URI "http://example.com/?" cannot be assumed to be
	// equivalent to any of the examples above", nor "#" to none.
	{"http://example.com/?", "http://example.com/", false, false, false},
	{"http://example.com/#", "http://example.com/", false, false, false},
	// Another port, another scheme's default.
	{"http://example.com:8080/", "http://example.com/", false, false, false},
	{"https://example.com:80/", "https://example.com/", false, false, false},
	// §6.2.3's mailto and §6.2.4's trailing slash are beyond these levels.
	{"mailto:Joe@Example.COM", "mailto:Joe@example.com", false, false, false},
	{"http://example.com/data", "http://example.com/data/", false, false, false},
	// IPv6 literals: case is syntax, RFC 5952 text is not part of any level.
	{"http://[::A]/", "http://[::a]/", false, true, true},
	{"http://[::1]/", "http://[0::1]/", false, false, false},
	// Relative references compare as written (§6.1 advises resolving them
	// first): "a/.." and "./" both mean the base's directory.
	{"a/..", "./", false, true, true},
	{"a/..", "", false, false, false},
	{"../a", "a", false, false, false},
}

func TestEqual(t *testing.T) {
	for _, tt := range equalTests {
		for _, c := range []struct {
			level resolve.Level
			want  bool
		}{
			{resolve.CompareSimple, tt.simple},
			{resolve.CompareSyntax, tt.syntax},
			{resolve.CompareScheme, tt.scheme},
		} {
			got, err := resolve.EqualString(tt.a, tt.b, c.level)
			if err != nil || got != c.want {
				t.Errorf("EqualString(%q, %q, %v) = %v, %v; want %v", tt.a, tt.b, c.level, got, err, c.want)
			}
			// Symmetric.
			got, err = resolve.EqualString(tt.b, tt.a, c.level)
			if err != nil || got != c.want {
				t.Errorf("EqualString(%q, %q, %v) = %v, %v; want %v", tt.b, tt.a, c.level, got, err, c.want)
			}
		}
	}
}

// TestEqualLadder: symmetric, and each level finds every equivalence of
// the one below, on all pairs of the tables' URIs. (Reflexivity needs no
// test: Equal begins with a == b.)
func TestEqualLadder(t *testing.T) {
	var us []parser.URI
	for _, tt := range equalTests {
		us = append(us, mustParse(t, tt.a), mustParse(t, tt.b))
	}
	for _, tt := range normalizeTests {
		us = append(us, mustParse(t, tt.in))
	}
	levels := []resolve.Level{resolve.CompareSimple, resolve.CompareSyntax, resolve.CompareScheme}
	for _, a := range us {
		for _, b := range us {
			prev := false
			for _, l := range levels {
				ab, ba := resolve.Equal(a, b, l), resolve.Equal(b, a, l)
				if ab != ba {
					t.Errorf("Equal(%q, %q, %v) = %v but Equal(%q, %q, %v) = %v", a, b, l, ab, b, a, l, ba)
				}
				if prev && !ab {
					t.Errorf("Equal(%q, %q, %v) = false, but true at the level below", a, b, l)
				}
				prev = ab
			}
		}
	}
}

// TestEqualAcrossGrammars: the same text is the same URI whichever grammar
// read it (§6.2.1), at every level: an IRI parser's "http://a/b", and a
// target resolved against a base with a zone, are RFC 3986's.
func TestEqualAcrossGrammars(t *testing.T) {
	iri, err := rfc3987.Parser().Parse("", "http://a/b")
	if err != nil {
		t.Fatal(err)
	}
	zoned, err := rfc6874.Parser().Parse("", "http://[fe80::1%25e]/a/b")
	if err != nil {
		t.Fatal(err)
	}
	target, err := resolve.Resolve(zoned, mustParse(t, "//h/x"), resolve.Strict)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		a, b                   parser.URI
		simple, syntax, scheme bool
	}{
		{iri, mustParse(t, "http://a/b"), true, true, true},
		{iri, mustParse(t, "HTTP://a/b"), false, true, true},
		{target, mustParse(t, "http://h/x"), true, true, true},
		{target, mustParse(t, "http://H:80/x"), false, false, true},
	} {
		for l, want := range map[resolve.Level]bool{resolve.CompareSimple: tt.simple, resolve.CompareSyntax: tt.syntax, resolve.CompareScheme: tt.scheme} {
			if got := resolve.Equal(tt.a, tt.b, l); got != want {
				t.Errorf("Equal(%q of %s, %q of %s, %v) = %v, want %v", tt.a, tt.a.Parser().Name(), tt.b, tt.b.Parser().Name(), l, got, want)
			}
		}
	}
}

// TestEqualUnknownLevel: a level out of range is the simple comparison.
func TestEqualUnknownLevel(t *testing.T) {
	a, b := mustParse(t, "HTTP://a/"), mustParse(t, "http://a/")
	for _, l := range []resolve.Level{-1, 3, 100} {
		if resolve.Equal(a, b, l) {
			t.Errorf("Equal(%q, %q, %v) = true, want false", a, b, l)
		}
	}
	for l, want := range map[resolve.Level]string{resolve.CompareSimple: "CompareSimple", resolve.CompareSyntax: "CompareSyntax", resolve.CompareScheme: "CompareScheme", 7: "Level(7)", -1: "Level(-1)"} {
		if got := l.String(); got != want {
			t.Errorf("Level(%d).String() = %q, want %q", int(l), got, want)
		}
	}
	for m, want := range map[resolve.Mode]string{resolve.Strict: "Strict", resolve.NonStrict: "NonStrict", 9: "Mode(9)"} {
		if got := m.String(); got != want {
			t.Errorf("Mode(%d).String() = %q, want %q", uint8(m), got, want)
		}
	}
}

func TestEqualStringErrors(t *testing.T) {
	for _, tt := range []struct{ a, b, arg string }{
		{"a b", "x", "a"},
		{"x", "a b", "b"},
		{"a b", "a b", "a"},
	} {
		_, err := resolve.EqualString(tt.a, tt.b, resolve.CompareSimple)
		var e *resolve.ArgError
		var pe *parser.Error
		if !errors.As(err, &e) || e.Arg != tt.arg || !errors.As(err, &pe) {
			t.Errorf("EqualString(%q, %q) = %v, want a *resolve.ArgError for %q wrapping a *parser.Error", tt.a, tt.b, err, tt.arg)
		}
	}
}

// TestHandBuiltErrors: an ArgError built by hand, however empty, formats
// without panicking.
func TestHandBuiltErrors(t *testing.T) {
	for _, e := range []*resolve.ArgError{
		{},
		{Arg: "base"},
		{Arg: "result", Err: errors.New("x")},
		{Arg: "reference", Input: "a b", Err: &parser.Error{Input: "a b", Offset: -5}},
		{Arg: "base", Err: resolve.ErrNoScheme},
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%#v: Error panics: %v", e, r)
				}
			}()
			if e.Error() == "" {
				t.Errorf("%#v: empty message", e)
			}
			_ = e.Unwrap()
		}()
	}
}

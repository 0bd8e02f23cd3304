package resolve_test

import (
	"errors"
	"testing"

	"github.com/peguri/rfc3986/resolve"
)

// relativizeTests are targets and the shortest references to them.
var relativizeTests = []struct {
	base, target, want string
}{
	// The targets of §5.4.1, against its base.
	{rfcBase, "http://a/b/c/g", "g"},
	{rfcBase, "http://a/b/c/g/", "g/"},
	{rfcBase, "http://a/g", "/g"}, // shorter than "../../g"
	{rfcBase, "http://g", "//g"},
	{rfcBase, "http://a/b/c/d;p?y", "?y"},
	{rfcBase, "http://a/b/c/g?y", "g?y"},
	{rfcBase, "http://a/b/c/d;p?q#s", "#s"},
	{rfcBase, "http://a/b/c/g?y#s", "g?y#s"},
	{rfcBase, "http://a/b/c/;x", ";x"},
	{rfcBase, "http://a/b/c/d;p?q", ""},
	{rfcBase, "http://a/b/c/", "."}, // shorter than "./", which means the same
	{rfcBase, "http://a/b/", ".."},
	{rfcBase, "http://a/b/g", "../g"},
	{rfcBase, "http://a/", "/"},
	// Another scheme: nothing relative resolves to it.
	{rfcBase, "g:h", "g:h"},
	{rfcBase, "HTTP://a/b/c/g", "HTTP://a/b/c/g"}, // resolution keeps the base's spelling
	// The base's query is inherited only by "": dropping it takes a path.
	{rfcBase, "http://a/b/c/d;p", "d;p"},
	{rfcBase, "http://a/b/c/d;p?", "?"},
	{rfcBase, "http://a/b/c/d;p?q#", "#"},
	// A first segment with ":" needs "./" (§4.2).
	{rfcBase, "http://a/b/c/g:h", "./g:h"},
	{rfcBase, "http://a/b/g:h", "../g:h"},
	// Empty segments.
	{rfcBase, "http://a/b/c//g", ".//g"},
	{rfcBase, "http://a//g", "/.//g"}, // an absolute path "//g" would be an authority
	// Another authority: a network-path reference.
	{rfcBase, "http://x/b/c/g", "//x/b/c/g"},
	{rfcBase, "http://a:80/b/c/g", "//a:80/b/c/g"},
	{"http://u@a:81/b", "http://u@a:81/c", "c"},
	{"http://u@a:81/b", "http://a:81/c", "//a:81/c"},
	// Dot segments in the target: resolution would remove them, so no
	// reference gives it; the target comes back.
	{rfcBase, "http://a/b/../c", "http://a/b/../c"},
	// ... except through the base's own path, which "" copies verbatim.
	{"http://a/b/../c", "http://a/b/../c#f", "#f"},
	// A base with an authority and an empty path (§5.2.3, first rule).
	{"http://a", "http://a/x", "x"},
	{"http://a", "http://a/", "."}, // ties with "/": the relative path comes first
	{"http://a/x", "http://a", "//a"},
	// §5.1: the base's fragment plays no part.
	{"http://a/b#f", "http://a/b", ""},
	{"http://a/b#f", "http://a/b#f", "#f"},
	// Rootless paths (§5.2.3, second rule).
	{"foo:bar", "foo:baz", "baz"},
	{"urn:abcd", "urn:abcd#frag", "#frag"},
	{"foo:a/b/c", "foo:a/x", "../x"},
	{"foo:bar?q", "foo:", "."},
	{"foo:a/b", "foo:x", "foo:x"}, // "../x" resolves to "foo:/x" (§5.2.4)
	{"foo:a/b", "foo:/x", "/x"},
	// The guard: "/.//c" is a target's path without an authority.
	{"a:/b", "a:/.//c", ".//c"},
	{"a:/b/c", "a:/.//c", "..//c"}, // ties with "/.//c": the relative path comes first
	{"A:/..//", "A:/.//0", "0"},    // found by FuzzResolve: the base path is "//" to resolution
	// A relative reference longer than the target loses to it.
	{"f:a/b/c/d/e/g", "f:a/x", "f:a/x"},
}

func TestRelativize(t *testing.T) {
	for _, tt := range relativizeTests {
		base, target := mustParse(t, tt.base), mustParse(t, tt.target)
		got, err := resolve.Relativize(base, target)
		if err != nil {
			t.Errorf("Relativize(%q, %q): %v", tt.base, tt.target, err)
			continue
		}
		if got.String() != tt.want {
			t.Errorf("Relativize(%q, %q):\n\tgot  %q\n\twant %q", tt.base, tt.target, got, tt.want)
		}
		back, err := resolve.Resolve(base, got, resolve.Strict)
		if err != nil {
			t.Errorf("Resolve(%q, %q): %v", tt.base, got, err)
		} else if back != target && resolve.RemoveDotSegments(target.Path()) == target.Path() {
			t.Errorf("Resolve(%q, Relativize(%q, %q) = %q) = %q, not the target", tt.base, tt.base, tt.target, got, back)
		}
	}
}

func TestRelativizeErrors(t *testing.T) {
	for _, tt := range []struct{ base, target, arg, msg string }{
		{"/a", "http://a/", "base", `resolve: base "/a" has no scheme: RFC 3986 §5.1 requires an absolute base URI`},
		{"http://a/", "//a/b", "target", `resolve: target "//a/b" has no scheme: every target of RFC 3986 §5.2.2 has one`},
	} {
		_, err := resolve.Relativize(mustParse(t, tt.base), mustParse(t, tt.target))
		var e *resolve.ArgError
		if !errors.As(err, &e) || e.Arg != tt.arg || !errors.Is(err, resolve.ErrNoScheme) || err.Error() != tt.msg {
			t.Errorf("Relativize(%q, %q) = %v, want %s", tt.base, tt.target, err, tt.msg)
		}
	}
}

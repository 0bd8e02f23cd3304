package resolve_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/resolve"
)

// mustParse parses s as a URI-reference, failing the test if it does not.
func mustParse(t testing.TB, s string) parser.URI {
	t.Helper()
	u, err := parser.ParseReference(s)
	if err != nil {
		t.Fatalf("ParseReference(%q): %v", s, err)
	}
	return u
}

// rfcBase is the base URI of the examples of RFC 3986 §5.4.
const rfcBase = "http://a/b/c/d;p?q"

type resolveTest struct {
	base, ref, want string
}

// resolveTests are strict resolutions (§5.2.2, strict).
var resolveTests = []resolveTest{
	// RFC 3986 Normal Examples
	// https://datatracker.ietf.org/doc/html/rfc3986#section-5.4.1
	{rfcBase, "g:h", "g:h"},
	{rfcBase, "g", "http://a/b/c/g"},
	{rfcBase, "./g", "http://a/b/c/g"},
	{rfcBase, "g/", "http://a/b/c/g/"},
	{rfcBase, "/g", "http://a/g"},
	{rfcBase, "//g", "http://g"},
	{rfcBase, "?y", "http://a/b/c/d;p?y"},
	{rfcBase, "g?y", "http://a/b/c/g?y"},
	{rfcBase, "#s", "http://a/b/c/d;p?q#s"},
	{rfcBase, "g#s", "http://a/b/c/g#s"},
	{rfcBase, "g?y#s", "http://a/b/c/g?y#s"},
	{rfcBase, ";x", "http://a/b/c/;x"},
	{rfcBase, "g;x", "http://a/b/c/g;x"},
	{rfcBase, "g;x?y#s", "http://a/b/c/g;x?y#s"},
	{rfcBase, "", "http://a/b/c/d;p?q"},
	{rfcBase, ".", "http://a/b/c/"},
	{rfcBase, "./", "http://a/b/c/"},
	{rfcBase, "..", "http://a/b/"},
	{rfcBase, "../", "http://a/b/"},
	{rfcBase, "../g", "http://a/b/g"},
	{rfcBase, "../..", "http://a/"},
	{rfcBase, "../../", "http://a/"},
	{rfcBase, "../../g", "http://a/g"},

	// RFC 3986 Abnormal Examples
	// https://datatracker.ietf.org/doc/html/rfc3986#section-5.4.2
	{rfcBase, "../../../g", "http://a/g"},
	{rfcBase, "../../../../g", "http://a/g"},
	{rfcBase, "/./g", "http://a/g"},
	{rfcBase, "/../g", "http://a/g"},
	{rfcBase, "g.", "http://a/b/c/g."},
	{rfcBase, ".g", "http://a/b/c/.g"},
	{rfcBase, "g..", "http://a/b/c/g.."},
	{rfcBase, "..g", "http://a/b/c/..g"},
	{rfcBase, "./../g", "http://a/b/g"},
	{rfcBase, "./g/.", "http://a/b/c/g/"},
	{rfcBase, "g/./h", "http://a/b/c/g/h"},
	{rfcBase, "g/../h", "http://a/b/c/h"},
	{rfcBase, "g;x=1/./y", "http://a/b/c/g;x=1/y"},
	{rfcBase, "g;x=1/../y", "http://a/b/c/y"},
	{rfcBase, "g?y/./x", "http://a/b/c/g?y/./x"},
	{rfcBase, "g?y/../x", "http://a/b/c/g?y/../x"},
	{rfcBase, "g#s/./x", "http://a/b/c/g#s/./x"},
	{rfcBase, "g#s/../x", "http://a/b/c/g#s/../x"},
	{rfcBase, "http:g", "http:g"}, // "for strict parsers"

	// Extras.
	// §5.2.3, first rule: a base with an authority and an empty path
	// merges as "/" + the reference's path.
	{"http://a", "g", "http://a/g"},
	{"http://a", "", "http://a"},
	{"http://a", "..", "http://a/"},
	// §5.2.3, second rule, a base path without "/": the reference's path
	// replaces it whole. net/url (Go 1.26) gives "foo:///baz".
	{"foo:bar", "baz", "foo:baz"},
	// Three dots are a name, also where the merged path begins with them
	// (a base path without "/"), which is where an in-place
	// remove_dot_segments looks at the first byte of its input.
	{"foo:bar", ".../baz", "foo:.../baz"},
	{"foo:bar", "./.../baz", "foo:.../baz"},
	{"foo:bar", "..../baz", "foo:..../baz"},
	// A same-document reference to a URN (§4.4); net/url gave "urn:#abcd"
	// before golang.org/issue/66084 was fixed.
	{"urn:abcd", "#frag", "urn:abcd#frag"},
	{"urn:abcd", "?q", "urn:abcd?q"},
	// §5.1: the base's fragment is "stripped ... prior to its use as a base
	// URI"; the reference's own fragment, or none, is the target's.
	{"http://a/b#f", "", "http://a/b"},
	{"http://a/b#f", "#g", "http://a/b#g"},
	{"http://a/b#f", "c", "http://a/c"},
	// §5.2.2: the empty reference keeps the base's query, defined or not,
	// and an empty query in the reference replaces it.
	{"http://a/b?", "", "http://a/b?"},
	{"http://a/b?q", "?", "http://a/b?"},
	{"http://a/b?q", "#", "http://a/b?q#"},
	// §5.2.2: a reference with a scheme or an authority is its own target,
	// dot segments removed, whatever the base.
	{rfcBase, "g:/a/./b/../c", "g:/a/c"},
	{rfcBase, "//g/x/../y?z", "http://g/y?z"},
	{rfcBase, "//u@g:81", "http://u@g:81"},
	// The base's userinfo and port go with its authority.
	{"http://u@a:81/b", "c", "http://u@a:81/c"},
	{"http://u@a:81/b", "//x", "http://x"},
	// §5.2.4: remove_dot_segments can turn a rootless path into an
	// absolute one; that is what the RFC's algorithm does.
	{"a:b/c", "../../d", "a:/d"},
	{"a:b", ".", "a:"},
	{"a:b?q", ".", "a:"},
	// Resolution does not take "%2E" for a dot segment (§5.2.4 removes the
	// complete segments "." and ".."; normalization decodes "%2E", §6.2.2.2).
	{rfcBase, "%2E%2E/g", "http://a/b/c/%2E%2E/g"},
	{rfcBase, "%2e", "http://a/b/c/%2e"},
	{rfcBase, "http://a/b/%2E%2E/../c", "http://a/b/c"}, // normalization gives "http://a/c"
	// A reference's scheme is not lowercased (that is normalization).
	{rfcBase, "HTTP://A/B", "HTTP://A/B"},
	// IP literals and empty hosts carry over unchanged.
	{"http://[::1]:8080/a/b", "../c", "http://[::1]:8080/c"},
	{"file:///etc/hosts", "passwd", "file:///etc/passwd"},
	{"file:///etc/hosts", "//", "file://"},

	// The guard (see the package documentation): a target without an
	// authority whose path begins with "//" gets "/." in front, §3.3.
	// net/url (Go 1.26) gives "a:///c", an empty authority; uriparse-rs
	// panicked on "./..//bar" against "scheme:foo1/foo2"
	// (github.com/sgodwincs/uriparse-rs/issues/20).
	{"a:/b", "..//c", "a:/.//c"},
	{"scheme:foo1/foo2", "./..//bar", "scheme:/.//bar"},
	{"a:/b/c/d", "..//c", "a:/b//c"},
	{"a:/b", "/..//c", "a:/.//c"},
	{"a:/b", ".//c", "a:/.//c"},
	{"a:b", "/.//c", "a:/.//c"},
	{"a:", "/..//", "a:/.//"},
	{rfcBase, "a:/..//c", "a:/.//c"},
	{"a:/b", "..//c?q#f", "a:/.//c?q#f"},
	// The guard is idempotent: "/.//c" resolves to itself.
	{"a:/b", "/.//c", "a:/.//c"},
	// With an authority, "//" in the path is fine and stays.
	{"http://a/b", "..//c", "http://a//c"},

	// Known wrong answers elsewhere: net/url drops the empty segment after
	// an above-root "..", giving "a://foo/" and "a://0/0"
	// (golang.org/issue/80282); §5.2.4 C removes only the ".." segment.
	{"a://foo/", "..//", "a://foo//"},
	{"a://0/", "..//0", "a://0//0"},
}

func TestResolve(t *testing.T) {
	for _, tt := range resolveTests {
		base, ref := mustParse(t, tt.base), mustParse(t, tt.ref)
		got, err := resolve.Resolve(base, ref, resolve.Strict)
		if err != nil {
			t.Errorf("Resolve(%q, %q): %v", tt.base, tt.ref, err)
			continue
		}
		if got.String() != tt.want {
			t.Errorf("Resolve(%q, %q):\n\tgot  %q\n\twant %q", tt.base, tt.ref, got, tt.want)
		}
		checkTarget(t, got)
		// The same answer as text.
		if s, err := resolve.ResolveString(tt.base, tt.ref, resolve.Strict); err != nil || s != tt.want {
			t.Errorf("ResolveString(%q, %q, Strict) = %q, %v; want %q", tt.base, tt.ref, s, err, tt.want)
		}
	}
}

// checkTarget checks what every target must be: a URI with a scheme that
// parses back into itself.
func checkTarget(t testing.TB, u parser.URI) {
	t.Helper()
	if !u.HasScheme() {
		t.Errorf("target %q has no scheme", u)
	}
	back, err := parser.ParseURI(u.String())
	if err != nil {
		t.Errorf("target %q does not parse as a URI: %v", u, err)
	} else if back != u {
		t.Errorf("target %q parses into other components:\n%s", u, cmp.Diff(u.Parts(), back.Parts()))
	}
}

// nonStrictTests are resolutions that differ under §5.2.2's non-strict
// reading; every row of resolveTests whose reference has a scheme other
// than the base's resolves the same in both modes.
var nonStrictTests = []resolveTest{
	// https://datatracker.ietf.org/doc/html/rfc3986#section-5.4.2
	{rfcBase, "http:g", "http://a/b/c/g"}, // "for backward compatibility"
	// Schemes compare case-insensitively (§3.1); the target keeps the
	// base's spelling, the reference's scheme being undefined.
	{rfcBase, "HTTP:g", "http://a/b/c/g"},
	{rfcBase, "http:", "http://a/b/c/d;p?q"},
	{rfcBase, "http:?y", "http://a/b/c/d;p?y"},
	{rfcBase, "http://x/../y", "http://x/y"},
	{"HTTP://a/b", "http:c", "HTTP://a/c"},
	// Another scheme is the target's as in strict mode.
	{rfcBase, "https:g", "https:g"},
}

func TestResolveNonStrict(t *testing.T) {
	for _, tt := range nonStrictTests {
		got, err := resolve.Resolve(mustParse(t, tt.base), mustParse(t, tt.ref), resolve.NonStrict)
		if err != nil || got.String() != tt.want {
			t.Errorf("Resolve(%q, %q, NonStrict) = %q, %v; want %q", tt.base, tt.ref, got, err, tt.want)
		}
		if s, err := resolve.ResolveString(tt.base, tt.ref, resolve.NonStrict); err != nil || s != tt.want {
			t.Errorf("ResolveString(%q, %q, NonStrict) = %q, %v; want %q", tt.base, tt.ref, s, err, tt.want)
		}
	}
	// Every reference without the base's scheme resolves as in strict mode.
	for _, tt := range resolveTests {
		ref := mustParse(t, tt.ref)
		base := mustParse(t, tt.base)
		if strings.EqualFold(ref.Scheme(), base.Scheme()) {
			continue
		}
		got, err := resolve.Resolve(base, ref, resolve.NonStrict)
		if err != nil || got.String() != tt.want {
			t.Errorf("Resolve(%q, %q, NonStrict) = %q, %v; want %q as in strict mode", tt.base, tt.ref, got, err, tt.want)
		}
	}
}

var errorTests = []struct {
	base, ref string
	arg       string // the Arg of the *resolve.ArgError
	parse     bool   // whether it wraps a *parser.Error
	msg       string // the error message, or its beginning
}{
	// §5.1: "A base URI must conform to the <absolute-URI> syntax rule".
	{"//a/b", "c", "base", false,
		`resolve: base "//a/b" has no scheme: RFC 3986 §5.1 requires an absolute base URI`},
	{"", "c", "base", false,
		`resolve: base "" has no scheme: RFC 3986 §5.1 requires an absolute base URI`},
	{"/a/b", "http://x/", "base", false, // even when the reference needs no base
		`resolve: base "/a/b" has no scheme: RFC 3986 §5.1 requires an absolute base URI`},
	// Unparsable text names the argument and keeps the parser's reason
	// (the expected set that follows is the parser's business).
	{"http://a b/", "c", "base", true,
		`resolve: base: parse "http://a b/" as URI-reference: reg-name could not continue at offset 8: found " "; expected `},
	{rfcBase, "g h", "reference", true,
		`resolve: reference: parse "g h" as URI-reference: segment-nz-nc could not continue at offset 1: found " "; expected `},
	// The base is checked first.
	{"%", "%", "base", true, ""},
}

func TestErrors(t *testing.T) {
	for _, tt := range errorTests {
		_, err := resolve.ResolveString(tt.base, tt.ref, resolve.Strict)
		var e *resolve.ArgError
		if !errors.As(err, &e) {
			t.Errorf("ResolveString(%q, %q): error %v is not a *resolve.ArgError", tt.base, tt.ref, err)
			continue
		}
		if e.Arg != tt.arg {
			t.Errorf("ResolveString(%q, %q): Arg = %q, want %q", tt.base, tt.ref, e.Arg, tt.arg)
		}
		var pe *parser.Error
		if errors.As(err, &pe) != tt.parse {
			t.Errorf("ResolveString(%q, %q): wraps a *parser.Error: %v, want %v", tt.base, tt.ref, !tt.parse, tt.parse)
		}
		if !tt.parse && !errors.Is(err, resolve.ErrNoScheme) {
			t.Errorf("ResolveString(%q, %q): %v is not ErrNoScheme", tt.base, tt.ref, err)
		}
		if !strings.HasPrefix(err.Error(), tt.msg) {
			t.Errorf("ResolveString(%q, %q) error:\n\tgot  %s\n\twant %s", tt.base, tt.ref, err, tt.msg)
		}
	}
	// The same base errors from Reference, on parsed URIs.
	for _, base := range []string{"//a/b", "", "/a", "a", "?q#f"} {
		_, err := resolve.Resolve(mustParse(t, base), mustParse(t, "g"), resolve.Strict)
		if !errors.Is(err, resolve.ErrNoScheme) {
			t.Errorf("Resolve(%q, \"g\") = %v, want ErrNoScheme", base, err)
		}
		_, err = resolve.Resolve(mustParse(t, base), mustParse(t, "g"), resolve.NonStrict)
		if !errors.Is(err, resolve.ErrNoScheme) {
			t.Errorf("Resolve(%q, \"g\", NonStrict) = %v, want ErrNoScheme", base, err)
		}
	}
}

// TestLongTarget: a target longer than the parser takes is an error that
// blames the result, not a wrong value or a panic; one that is shorter once
// its dot segments are removed is not, however long the merged path was.
func TestLongTarget(t *testing.T) {
	half := strings.Repeat("a", parser.MaxLength/2+10)
	base := mustParse(t, "http://h/"+half+"/x")
	tooLong := len("http://h//") + 2*len(half)
	for _, c := range []struct {
		ref  string
		want int // the target's length, over MaxLength; 0: no error
	}{
		{half, tooLong},
		{"./" + half, tooLong},          // dots, which remove nothing
		{half + "/.", tooLong + 1},      // dots, which leave a final "/"
		{"../" + half, 0},               // merged: /half/../half, which is /half
		{"../" + half + "/../../b", 0},  // /b
		{"../" + half + "/../x/./y", 0}, // /x/y
	} {
		ref := mustParse(t, c.ref)
		u, err := resolve.Resolve(base, ref, resolve.Strict)
		if c.want == 0 {
			if err != nil {
				t.Errorf("Resolve(long, %d bytes) = %v, want no error", len(c.ref), err)
			} else if s := u.String(); len(s) > parser.MaxLength || strings.Contains(s, ".") {
				t.Errorf("Resolve(long, %d bytes) = %d bytes, with a dot: %t", len(c.ref), len(s), strings.Contains(s, "."))
			}
			continue
		}
		var e *resolve.ArgError
		if !errors.As(err, &e) || e.Arg != "result" || !errors.Is(err, parser.ErrTooLong) {
			t.Errorf("Resolve(long, %d bytes) = %v, want a *resolve.ArgError for the result wrapping parser.ErrTooLong", len(c.ref), err)
			continue
		}
		want := fmt.Sprintf("resolve: result: the target is %d bytes, longer than the %d a URI can have", c.want, parser.MaxLength)
		if err.Error() != want {
			t.Errorf("Resolve(long, %d bytes): error:\n\tgot  %s\n\twant %s", len(c.ref), err, want)
		}
	}
}

// removeDotSegmentsTests are inputs and outputs of §5.2.4's algorithm.
var removeDotSegmentsTests = []struct{ in, want string }{
	// The two traces of §5.2.4.
	{"/a/b/c/./../../g", "/a/g"},
	{"mid/content=5/../6", "mid/6"},
	// Each rule. A: "../" and "./" prefixes.
	{"../a", "a"},
	{"./a", "a"},
	{"../../a/b", "a/b"},
	// B: "/./" and a final "/.".
	{"/a/./b", "/a/b"},
	{"/a/.", "/a/"},
	{"/.", "/"},
	// C: "/../" and a final "/..", removing the last output segment.
	{"/a/b/../c", "/a/c"},
	{"/a/b/..", "/a/"},
	{"/..", "/"},
	{"/../a", "/a"},
	{"/a//../b", "/a/b"}, // the empty segment is the one removed
	// D: "." or ".." alone.
	{".", ""},
	{"..", ""},
	// E: anything else moves as is.
	{"", ""},
	{"/", "/"},
	{"a", "a"},
	{"/a/b/c", "/a/b/c"},
	{"//a", "//a"},
	{".a/..b/c./d../...", ".a/..b/c./d../..."},
	{".../a", ".../a"}, // three dots are a name, wherever they are
	{"/.../a", "/.../a"},
	{"a/.../b/./../c", "a/.../c"},
	{"..../x", "..../x"},
	{"/%2E/%2E%2E", "/%2E/%2E%2E"}, // not dot segments
	// Relative paths, as the algorithm treats them: it is meant for merged
	// paths, and does not keep leading ".." or relativeness.
	{"a/..", "/"},
	{"a/../b", "/b"},
	{"a/./b", "a/b"},
	{"../..", ""},
	// Paths that become "//" at the start (the guard is the caller's).
	{"/..//c", "//c"},
	{"/.//", "//"},
}

func TestRemoveDotSegments(t *testing.T) {
	for _, tt := range removeDotSegmentsTests {
		if got := resolve.RemoveDotSegments(tt.in); got != tt.want {
			t.Errorf("RemoveDotSegments(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

var mergeTests = []struct{ base, ref, want string }{
	// §5.2.3, first rule: authority and empty path.
	{"http://a", "g", "/g"},
	{"http://a?q", "g/h", "/g/h"},
	{"http://", "g", "/g"},
	// §5.2.3, second rule: all but the last segment of the base path.
	{rfcBase, "g", "/b/c/g"},
	{"http://a/", "g", "/g"},
	{"http://a/b/", "../g", "/b/../g"}, // dot segments are removed later
	{"a:/b", "g", "/g"},
	{"a:b/c", "g", "b/g"},
	// "or excluding the entire base URI path if it does not contain any "/"
	// characters": no authority, no "/".
	{"a:b", "g", "g"},
	{"a:", "g", "g"},
	// The base's query and fragment play no part.
	{"a:/b?c/d#e/f", "g", "/g"},
}

func TestMerge(t *testing.T) {
	for _, tt := range mergeTests {
		if got := resolve.Merge(mustParse(t, tt.base), tt.ref); got != tt.want {
			t.Errorf("Merge(%q, %q) = %q, want %q", tt.base, tt.ref, got, tt.want)
		}
	}
}

package resolve_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/resolve"
)

// benchClean are URIs already in the normal form of NormalizeDefault:
// normalizing them changes nothing.
var benchClean = []string{
	"http://www.example.com/search?q=rfc+3986&lang=en&page=2#results",
	"https://user:pass@api.example.org:8443/v1/items/42?fields=name,price&sort=-date",
	"foo://example.com:8042/over/there?name=ferret#nose",
	"ldap://[2001:db8::7]/c=GB?objectClass?one",
	"telnet://192.0.2.16:80/",
	"mailto:John.Doe@example.com",
	"urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
	"file:///etc/hosts",
	"data:text/plain;charset=utf-8,Hello%2C%20World",
	"https://example.com/%E3%83%86%E3%82%B9%E3%83%88?q=%E6%A4%9C%E7%B4%A2&x=1",
	"../../../g;x=1/y?q#s",
	"//cdn.example.net/static/app.js?v=1.2.3",
	"/absolute/path/to/resource?x=1&y=2",
	"g;x?y#s",
	"?only=query",
	"#section-5.2",
	"",
}

// TestNormalizeCleanAllocs checks that Normalize returns an input that
// needs no change as it is, without allocating.
func TestNormalizeCleanAllocs(t *testing.T) {
	for _, s := range benchClean {
		t.Run(s, func(t *testing.T) {
			u := parser.MustParseReference(s)
			var got parser.URI
			var err error
			allocs := testing.AllocsPerRun(100, func() {
				got, err = resolve.Normalize(u, resolve.NormalizeDefault)
			})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(s, got.String()); diff != "" {
				t.Errorf("the input changed (-in +out):\n%s", diff)
			}
			if allocs != 0 {
				t.Errorf("%v allocations, want 0", allocs)
			}
		})
	}
}

// TestResolveAllocs checks that parsing a reference, resolving it and
// writing the target allocate once per reference, the target's text, or not
// at all when the target is the reference or the base.
func TestResolveAllocs(t *testing.T) {
	base := parser.MustParseReference(rfcBase)
	for _, ref := range benchRefs {
		t.Run(ref, func(t *testing.T) {
			var s string
			allocs := testing.AllocsPerRun(100, func() {
				r, err := parser.ParseReference(ref)
				if err != nil {
					t.Fatal(err)
				}
				u, err := resolve.Resolve(base, r, resolve.Strict)
				if err != nil {
					t.Fatal(err)
				}
				s = u.String()
			})
			if s == "" {
				t.Fatal("no target")
			}
			// One allocation, the target's text; none when the target is
			// the reference itself (a scheme and no dot segment to remove)
			// or the base (the empty reference, §4.4).
			want := 1.0
			if r := parser.MustParseReference(ref); r.HasScheme() && resolve.RemoveDotSegments(r.Path()) == r.Path() || ref == "" {
				want = 0
			}
			if allocs != want {
				t.Errorf("%v allocations, want %v", allocs, want)
			}
		})
	}
}

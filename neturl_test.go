package rfc3986_test

import (
	"errors"
	"fmt"
	"net/url"
	"testing"

	"github.com/peguri/rfc3986"
)

// toURLTests: ToURL(u).String(); want "" means the same as the input. Each
// lossy row says why.
var toURLTests = []struct {
	in, want, why string
}{
	{"http://user:pw@example.com:8080/a/b?q=1#f", "", "every component"},
	{"http://a/b?", "", "empty query: ForceQuery"},
	{"http://a/b#f%20g", "", "encoded fragment: RawFragment"},
	{"http://a/b%2Fc", "", "encoded slash in a path: RawPath"},
	{"mailto:John.Doe@example.com", "", "rootless path: Opaque"},
	{"file:///etc/hosts", "", "empty host"},
	{"//cdn.example.net/app.js", "", "network-path reference"},
	{"../g?q#s", "", "relative reference"},
	{"http://[::1]:80/", "", "IPv6 literal"},
	{"http://[v1.x]/", "", "IPvFuture kept in Host (but url.Parse rejects it)"},
	{"http://a#", "http://a", "lossy: the empty fragment (golang.org/issue/29603)"},
	{"http://", "http:", "lossy: empty authority and path"},
	{"http://ex%41mple.com/", "http://exAmple.com/", "lossy: net/url stores the host decoded"},
	{"http://%75ser@a/", "http://user@a/", "lossy: userinfo is stored decoded"},
}

func TestToURL(t *testing.T) {
	for _, tt := range toURLTests {
		u := rfc3986.MustParse(tt.in)
		want := tt.want
		if want == "" {
			want = tt.in
		}
		if got := rfc3986.ToURL(u).String(); got != want {
			t.Errorf("ToURL(%q).String() = %q, want %q (%s)", tt.in, got, want, tt.why)
		}
	}
}

func TestFromURL(t *testing.T) {
	for _, s := range []string{"http://a/b?q#f", "mailto:a@b", "//h/p", "?x"} {
		v, err := url.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		u, err := rfc3986.FromURL(v)
		if err != nil || u.String() != s {
			t.Errorf("FromURL(%q) = %v, %v", s, u, err)
		}
	}
	// A url.URL can hold what RFC 3986 does not allow; its String is then
	// no URI reference, and FromURL says where.
	for _, v := range []*url.URL{
		{Scheme: "http", Host: "a", Path: "/", RawQuery: "a b"},
		{Scheme: "http", Host: "a", Path: "/", RawQuery: "a=[1]"},
		{Scheme: "x", Opaque: "a|b"},
	} {
		if u, err := rfc3986.FromURL(v); err == nil {
			t.Errorf("FromURL(%q) = %v, want an error", v.String(), u)
		}
	}
	// A nil *url.URL, whose String would panic, is an error.
	if u, err := rfc3986.FromURL(nil); !errors.Is(err, rfc3986.ErrNilURL) || u != (rfc3986.URI{}) {
		t.Errorf("FromURL(nil) = %v, %v; want an error wrapping ErrNilURL", u, err)
	}
}

func ExampleToURL() {
	u := rfc3986.MustParse("https://user@example.com:8443/a%2Fb?q=1")
	v := rfc3986.ToURL(u)
	fmt.Println(v.Scheme, v.User.Username(), v.Hostname(), v.Port(), v.Path, v.EscapedPath(), v.RawQuery)
	fmt.Println(v.String() == u.String())
	// Output:
	// https user example.com 8443 /a/b /a%2Fb q=1
	// true
}

func ExampleFromURL() {
	v, _ := url.Parse("http://example.com/a?b#c")
	u, err := rfc3986.FromURL(v)
	fmt.Println(u.Host(), u.Query(), u.Fragment(), err)
	// Output: example.com b c <nil>
}

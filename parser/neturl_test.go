package parser_test

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/peguri/rfc3986/internal/benchcorpus"
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc6874"
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
	{"http://", "http:", "lossy: empty authority and path (url.Parse reads it so too)"},
	{"//?q", "?q", "lossy: empty authority and path (url.Parse reads it so too)"},
	{"foo:/bar", "", "no authority before an absolute path: OmitHost"},
	{"file:/etc/passwd", "", "no authority before an absolute path: OmitHost"},
	{"x:/.//a", "", "no authority, a path of an empty segment after a dot segment"},
	{"///a", "", "empty authority without a scheme: in Path, as url.Parse has it"},
	{"////a?q", "", "empty authority, then a path beginning with \"//\""},
	{"http:////a", "", "the same with a scheme"},
	{"http://ex%41mple.com/", "http://exAmple.com/", "lossy: net/url stores the host decoded"},
	{"http://%75ser@a/", "http://user@a/", "lossy: userinfo is stored decoded"},
}

func TestToURL(t *testing.T) {
	for _, tt := range toURLTests {
		u := parser.MustParseReference(tt.in)
		want := tt.want
		if want == "" {
			want = tt.in
		}
		if got := parser.ToURL(u).String(); got != want {
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
		u, err := parser.FromURL(v)
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
		if u, err := parser.FromURL(v); err == nil {
			t.Errorf("FromURL(%q) = %v, want an error", v.String(), u)
		}
	}
	// A nil *url.URL, whose String would panic, is an error.
	if u, err := parser.FromURL(nil); !errors.Is(err, parser.ErrNilURL) || u != (parser.URI{}) {
		t.Errorf("FromURL(nil) = %v, %v; want an error wrapping ErrNilURL", u, err)
	}
}

func ExampleToURL() {
	u := parser.MustParseReference("https://user@example.com:8443/a%2Fb?q=1")
	v := parser.ToURL(u)
	fmt.Println(v.Scheme, v.User.Username(), v.Hostname(), v.Port(), v.Path, v.EscapedPath(), v.RawQuery)
	fmt.Println(v.String() == u.String())
	// Output:
	// https user example.com 8443 /a/b /a%2Fb q=1
	// true
}

func ExampleFromURL() {
	v, _ := url.Parse("http://example.com/a?b#c")
	u, err := parser.FromURL(v)
	fmt.Println(u.Host(), u.Query(), u.Fragment(), err)
	// Output: example.com b c <nil>
}

// TestToURLHost: ToURL never moves the boundary between host and port,
// and decodes a reg-name only where the decoded character cannot change
// what the host is.
func TestToURLHost(t *testing.T) {
	for _, tt := range []struct {
		in, hostname, port, why string
	}{
		{"http://a%3A99/", "a%3A99", "", "an encoded ':' is no port"},
		{"http://a%2Fb/", "a%2Fb", "", "an encoded '/' ends no host"},
		{"http://a%40b/", "a%40b", "", "an encoded '@' is no userinfo"},
		{"http://a%23b/", "a%23b", "", "an encoded '#' is no fragment"},
		{"http://a%3Fb/", "a%3Fb", "", "an encoded '?' is no query"},
		{"http://a%5B%5Db/", "a%5B%5Db", "", "encoded brackets are no IP literal"},
		{"http://a%25b/", "a%25b", "", "an encoded '%' is not decoded twice"},
		{"http://a%00b/", "a%00b", "", "a NUL is no character of a name"},
		{"http://a%20b:8/", "a%20b", "8", "a space is no character of a name"},
		{"http://a%5Cb:8/", "a%5Cb", "8", "an encoded '\\' stays encoded: url.Parse refuses it, and a WHATWG parser reads '/'"},
		{"http://a%5E%60%7B%7C%7Db/", "a%5E%60%7B%7C%7Db", "", "'^', '`', '{', '|', '}': url.Parse refuses them in a host"},
		{"http://a%21%3C%22b/", "a!<\"b", "", "a sub-delim, '<' and '\"': url.Parse takes them in a host"},
		{"http://ex%41mple.com:80/", "exAmple.com", "80", "unreserved: decoded"},
		{"http://%C3%A9.example/", "é.example", "", "UTF-8: decoded (String writes it back encoded)"},
		{"http://[::1]:8080/", "::1", "8080", "IPv6"},
		{"http://1.2.3.4:/", "1.2.3.4", "", "empty port"},
	} {
		v := parser.ToURL(parser.MustParseReference(tt.in))
		if v.Hostname() != tt.hostname || v.Port() != tt.port {
			t.Errorf("ToURL(%q): Hostname %q, Port %q; want %q, %q (%s)", tt.in, v.Hostname(), v.Port(), tt.hostname, tt.port, tt.why)
		}
	}
	if p := parser.ToURL(parser.MustParseReference("http://a%3A99/")).Port(); p != "" {
		t.Errorf(`ToURL("http://a%%3A99/").Port() = %q, want ""`, p)
	}
}

// TestToURLHostBytes: for a reg-name with any byte percent-encoded
// (§2.1), ToURL's String is text url.Parse takes, with the same Host and
// port: what ToURL decodes url.Parse takes in a host, and what it keeps
// encoded comes back encoded.
func TestToURLHostBytes(t *testing.T) {
	for c := range 256 {
		in := fmt.Sprintf("http://a%%%02Xb:8/", c)
		v := parser.ToURL(parser.MustParseReference(in))
		w, err := url.Parse(v.String())
		if err != nil {
			t.Errorf("ToURL(%q).String() = %q, which url.Parse refuses: %v", in, v, err)
			continue
		}
		if w.Host != v.Host || w.Port() != "8" {
			t.Errorf("ToURL(%q): Host %q; url.Parse of its String %q: Host %q", in, v.Host, v, w.Host)
		}
	}
}

// TestFromURLHost: a url.URL whose text names another host than its Host
// field is an error, never a URI of another host.
func TestFromURLHost(t *testing.T) {
	v := &url.URL{Scheme: "http", Host: "good.example", Opaque: "//evil.example/x"}
	if u, err := parser.FromURL(v); !errors.Is(err, parser.ErrHostChanged) {
		t.Errorf("FromURL(%q with Host %q) = %q, %v; want ErrHostChanged", v.String(), v.Host, u, err)
	}
	// A Host with "%" is written "%25": FromURL gives its text, which
	// decodes to the same host; ToURL keeps that "%25" encoded.
	if u, err := parser.FromURL(&url.URL{Scheme: "http", Host: "a%2Fb", Path: "/"}); err != nil || u.Host() != "a%252Fb" {
		t.Errorf("FromURL(Host a%%2Fb) = %q, %v", u, err)
	}
	for _, v := range []*url.URL{
		{Scheme: "http", Host: "a:99", Path: "/"},
		{Scheme: "http", Host: "[::1]:80", Path: "/"},
		{Scheme: "http", Host: "é", Path: "/"},
	} {
		u, err := parser.FromURL(v)
		if err != nil {
			t.Errorf("FromURL(%q): %v", v.String(), err)
			continue
		}
		if got := parser.ToURL(u); got.Hostname() != v.Hostname() || got.Port() != v.Port() {
			t.Errorf("FromURL(%q) = %q; ToURL of it has host %q port %q, want %q %q", v.String(), u, got.Hostname(), got.Port(), v.Hostname(), v.Port())
		}
	}
}

// FuzzToURL: for any URI, ToURL's Hostname and Port are the URI's host and
// port: the same text, decoded only where the decoding is safe, an IP
// literal without its brackets.
func FuzzToURL(f *testing.F) {
	for _, s := range []string{"http://a%3A99/", "http://u:p@[::1]:8/x", "//a%2F%40%25b:1", "http://%C3%A9/", "x://[v1.a:b]/", "http://a%3a%3A1/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := parser.ParseReference(s)
		if err != nil || !u.HasAuthority() {
			return
		}
		v := parser.ToURL(u)
		host := u.Host()
		switch u.HostKind() {
		case parser.HostIPv6, parser.HostIPvFuture:
			host = host[1 : len(host)-1]
		}
		if v.Port() != u.Port() {
			t.Fatalf("ToURL(%q).Port() = %q, want %q", s, v.Port(), u.Port())
		}
		// The reference decoding: each %XX of a reg-name whose byte is
		// neither a delimiter of the authority or the URL, nor "%", a
		// space, a control character or a character url.Parse refuses
		// in a host ("\\^`{|}"), is that byte.
		want := host
		if u.HostKind() == parser.HostRegName {
			var b strings.Builder
			for i := 0; i < len(host); i++ {
				if host[i] == '%' {
					n, _ := strconv.ParseUint(host[i+1:i+3], 16, 8)
					if c := byte(n); c >= 0x80 || c > ' ' && c != 0x7f && !strings.ContainsRune(":/?#[]@%\\^`{|}", rune(c)) {
						b.WriteByte(c)
						i += 2
						continue
					}
				}
				b.WriteByte(host[i])
			}
			want = b.String()
		}
		if got := v.Hostname(); got != want {
			t.Fatalf("ToURL(%q).Hostname() = %q, want %q", s, got, want)
		}
	})
}

// TestToURLZone: an RFC 6874 zone is held as url.Parse holds it, "%" and
// the zone decoded as url.Parse decodes it, and String writes what
// url.Parse's URL writes.
func TestToURLZone(t *testing.T) {
	for _, tt := range []struct{ in, host string }{
		{"http://[fe80::1%25eth0]:8080/", "[fe80::1%eth0]:8080"},
		{"http://[fe80::1%25a%21b]/", "[fe80::1%a!b]"},
		{"http://[fe80::1%25a%2Fb]/", "[fe80::1%a%2Fb]"}, // url.Parse refuses it: "/" stays encoded
		{"http://[fe80::1%25a%25b]/", "[fe80::1%a%b]"},
		{"http://[fe80::1%25a%3Ab]/", "[fe80::1%a:b]"},
		{"http://[fe80::1%25a%20b]/", "[fe80::1%a b]"},
		{"http://[fe80::1%25%C3%A9]/", "[fe80::1%%C3%A9]"}, // url.Parse refuses it
	} {
		u, err := rfc6874.Parser().Parse("URI-reference", tt.in)
		if err != nil {
			t.Fatal(err)
		}
		v := parser.ToURL(u)
		if v.Host != tt.host {
			t.Errorf("ToURL(%q).Host = %q, want %q", tt.in, v.Host, tt.host)
		}
		if w, err := url.Parse(tt.in); err == nil && (w.Host != v.Host || w.String() != v.String()) {
			t.Errorf("ToURL(%q): Host %q, String %q; url.Parse: %q, %q", tt.in, v.Host, v, w.Host, w)
		}
	}
}

// FuzzToURLParse: wherever url.Parse takes a URI reference's text, ToURL
// puts each component where url.Parse does.
func FuzzToURLParse(f *testing.F) {
	for _, tt := range toURLTests {
		f.Add(tt.in)
	}
	lines, _, err := benchcorpus.Read("../testdata", benchcorpus.Mixed)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range lines {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := parser.ParseReference(s)
		if err != nil {
			return
		}
		w, err := url.Parse(s)
		if err != nil {
			return
		}
		v := parser.ToURL(u)
		// url.Parse lowers the scheme's case (§3.1: it is case-insensitive);
		// ToURL keeps it as written, so that String gives it back.
		v.Scheme = strings.ToLower(v.Scheme)
		// url.Parse decodes a reg-name's "%25" to "%"; ToURL keeps it
		// encoded (see TestToURLHost: not decoded twice).
		if u.HostKind() == parser.HostRegName {
			w.Host = strings.ReplaceAll(w.Host, "%", "%25")
		}
		type fields struct {
			Scheme, Opaque, Host, Path, EscapedPath, RawQuery, Fragment, EscapedFragment string
			OmitHost, ForceQuery, HasUser                                                bool
			User                                                                         string
		}
		of := func(x *url.URL) fields {
			return fields{x.Scheme, x.Opaque, x.Host, x.Path, x.EscapedPath(), x.RawQuery, x.Fragment, x.EscapedFragment(),
				x.OmitHost, x.ForceQuery, x.User != nil, x.User.String()}
		}
		if got, want := of(v), of(w); got != want {
			t.Fatalf("ToURL(%q) = %+v\nurl.Parse gives %+v", s, got, want)
		}
	})
}

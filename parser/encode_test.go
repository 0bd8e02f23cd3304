package parser_test

import (
	"errors"
	"fmt"
	"net/netip"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc6874"
	"github.com/peguri/rfc3986/resolve"
)

// componentRules are the Appendix A rules whose text each component's
// encoding must match: QueryPart's is a query too.
var componentRules = map[parser.Component]string{
	parser.Userinfo: "userinfo", parser.Host: "reg-name", parser.Segment: "segment",
	parser.FirstSegment: "segment-nz-nc", parser.Query: "query", parser.Fragment: "fragment", parser.QueryPart: "query",
}

var (
	matcherOnce sync.Once
	matcher     *abnf.Matcher
)

// matches runs the exact ABNF matcher on Appendix A.
func matches(t testing.TB, rule, s string) bool {
	matcherOnce.Do(func() {
		g, err := appendixA()
		if err != nil {
			t.Fatal(err)
		}
		if matcher, err = abnf.NewMatcher(g); err != nil {
			t.Fatal(err)
		}
	})
	ok, err := matcher.Match(rule, []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// encodeTests: RFC 3986's percent-encoding per component (§2.1: uppercase
// hexadecimal; §2.4: "%" is data, never passed through).
var encodeTests = []struct {
	c       parser.Component
	in, out string
}{
	{parser.Segment, "50%", "50%25"},                   // §2.4: a "%" is encoded, so nothing is encoded twice
	{parser.Segment, "%41", "%2541"},                   // the same: "%41" is data here
	{parser.Segment, "a b/c?d#e", "a%20b%2Fc%3Fd%23e"}, // §3.3: "/" would split the segment
	{parser.Segment, "a:b@c!$&'()*+,;=", "a:b@c!$&'()*+,;="},
	{parser.FirstSegment, "a:b", "a%3Ab"},        // §4.2: a ":" in the first segment reads as a scheme's end
	{parser.Query, "a/b?c d#e", "a/b?c%20d%23e"}, // §3.4: "/" and "?" are the query's
	{parser.QueryPart, "1&2=3+4", "1%262%3D3%2B4"},
	{parser.Fragment, "x y#", "x%20y%23"},
	{parser.Userinfo, "u:p@h", "u:p%40h"},           // §3.2.1: ":" stays, "@" would end the userinfo
	{parser.Host, "ex ample:80", "ex%20ample%3A80"}, // §3.2.2: ":" would begin the port
	{parser.Segment, "é\xff~", "%C3%A9%FF~"},        // §2.5: UTF-8, then bytes
	{parser.Segment, "", ""},
}

func TestEncode(t *testing.T) {
	for _, tt := range encodeTests {
		if got := parser.Encode(tt.c, tt.in); got != tt.out {
			t.Errorf("Encode(%v, %q) = %q, want %q", tt.c, tt.in, got, tt.out)
		}
		if got := string(parser.AppendEncode([]byte("x"), tt.c, tt.in)); got != "x"+tt.out {
			t.Errorf("AppendEncode(x, %v, %q) = %q", tt.c, tt.in, got)
		}
		if got, err := parser.Decode(tt.out); err != nil || got != tt.in {
			t.Errorf("Decode(%q) = %q, %v; want %q", tt.out, got, err, tt.in)
		}
	}
	// No allocation when nothing needs encoding; none in the Append form
	// with room.
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { _ = parser.Encode(parser.Segment, "abc-def") }); n != 0 {
		t.Errorf("Encode of text that needs nothing: %v allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { buf = parser.AppendEncode(buf[:0], parser.Segment, "a b%c") }); n != 0 {
		t.Errorf("AppendEncode with room: %v allocations", n)
	}
}

// TestEscape: what the component does not allow is encoded, and valid
// percent-encodings are kept.
func TestEscape(t *testing.T) {
	for _, tt := range []struct {
		c       parser.Component
		in, out string
	}{
		{parser.Query, "a b%20c", "a%20b%20c"},
		{parser.Query, "100%", "100%25"},
		{parser.Query, "%4", "%254"},
		{parser.Query, "%zz%41", "%25zz%41"},
		{parser.Segment, "a/b%2Fc", "a%2Fb%2Fc"},
		{parser.Fragment, "%e2%82%ac €", "%e2%82%ac%20%E2%82%AC"},
	} {
		if got := parser.Escape(tt.c, tt.in); got != tt.out {
			t.Errorf("Escape(%v, %q) = %q, want %q", tt.c, tt.in, got, tt.out)
		}
		if !matches(t, componentRules[tt.c], parser.Escape(tt.c, tt.in)) {
			t.Errorf("Escape(%v, %q) does not match %s", tt.c, tt.in, componentRules[tt.c])
		}
	}
}

// TestDecode: a malformed "%" is an error at its offset.
func TestDecode(t *testing.T) {
	for _, tt := range []struct {
		in  string
		off int
	}{{"%2", 0}, {"a%2", 1}, {"%zz", 0}, {"%%41", 0}, {"ab%", 2}, {"%4g", 0}} {
		_, err := parser.Decode(tt.in)
		var de *parser.DecodeError
		if !errors.As(err, &de) || de.Offset != tt.off {
			t.Errorf("Decode(%q) = %v, want a DecodeError at %d", tt.in, err, tt.off)
		}
	}
	for in, want := range map[string]string{"a+b": "a+b", "%41%c3%A9": "Aé", "": "", "%FF": "\xff"} {
		if got, err := parser.Decode(in); err != nil || got != want {
			t.Errorf("Decode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if got, err := parser.FormDecode("a+b%2B"); err != nil || got != "a b+" {
		t.Errorf("FormDecode(a+b%%2B) = %q, %v", got, err)
	}
}

// FuzzEncode: for every component and any bytes, the encoding matches the
// component's rule (the exact ABNF matcher says so) and decodes to the
// bytes; Escape of the encoding is the encoding.
func FuzzEncode(f *testing.F) {
	for _, tt := range encodeTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if len(raw) > 200 {
			return
		}
		for c, rule := range componentRules {
			e := parser.Encode(c, raw)
			if d, err := parser.Decode(e); err != nil || d != raw {
				t.Fatalf("Decode(Encode(%v, %q) = %q) = %q, %v", c, raw, e, d, err)
			}
			if (raw != "" || c != parser.FirstSegment) && !matches(t, rule, e) {
				t.Fatalf("Encode(%v, %q) = %q does not match %s", c, raw, e, rule)
			}
			if s := parser.Escape(c, e); s != e {
				t.Fatalf("Escape(%v, %q) = %q, want it unchanged", c, e, s)
			}
		}
	})
}

// TestBuilder: what the builder makes, and the combinations it refuses.
func TestBuilder(t *testing.T) {
	nb := parser.NewBuilder
	for _, tt := range []struct {
		why  string
		b    parser.Builder
		want string
		err  error
	}{
		{"every component", nb().Scheme("https").UserPassword("u:1", "p@").Host("example.com").Port(8443).Path("a b", "c/d").Query("q", "1&2").Query("q", "=").Fragment("x y"),
			"https://u%3A1:p%40@example.com:8443/a%20b/c%2Fd?q=1%262&q=%3D#x%20y", nil},
		{"§4.2: a colon in the first segment of a relative-path reference", nb().RelativePath("a:b", "c:d"), "a%3Ab/c:d", nil},
		{"with a scheme, the first segment keeps its colon", nb().Scheme("urn").RelativePath("isbn:123"), "urn:isbn:123", nil},
		{"§3.2.2: an IPv6 address gets its brackets", nb().Host("::1"), "//[::1]", nil},
		{"an IPv4 address", nb().Scheme("http").HostAddr(netip.MustParseAddr("192.0.2.1")).Port(80), "http://192.0.2.1:80", nil},
		{"RFC 5952 §4: an IPv6 address in its canonical text", nb().Scheme("http").HostAddr(netip.MustParseAddr("2001:DB8:0:0:0:0:0:1")).Path(), "http://[2001:db8::1]/", nil},
		{"RFC 5952 §5: RFC 2765's IPv4-translated prefix in mixed notation", nb().Scheme("http").HostAddr(netip.MustParseAddr("::ffff:0:102:304")).Path(), "http://[::ffff:0:1.2.3.4]/", nil},
		{"RFC 5952 §5: IPv4-mapped", nb().Scheme("http").HostAddr(netip.MustParseAddr("::ffff:102:304")).Path(), "http://[::ffff:1.2.3.4]/", nil},
		{"an IP literal as written", nb().Scheme("http").Host("[v1.x]").Path(), "http://[v1.x]/", nil},
		{"the empty host", nb().Scheme("file").Host("").Path("etc", "hosts"), "file:///etc/hosts", nil},
		{"an empty query", nb().Scheme("http").Host("a").RawQuery(""), "http://a?", nil},
		{"a raw query keeps its encodings", nb().RawQuery("a=%20b c"), "?a=%20b%20c", nil},
		{"the empty reference", nb(), "", nil},
		{"§3.1", nb().Scheme("1http"), "", parser.ErrScheme},
		{"§3.2: a port without a host", nb().Scheme("http").Port(80), "", parser.ErrNoHost},
		{"§3.2: a userinfo without a host", nb().User("u"), "", parser.ErrNoHost},
		{"§3.3: a rootless path after an authority", nb().Host("a").RelativePath("b"), "", parser.ErrRootless},
		{"§3.3: a path beginning with // without an authority", nb().Scheme("x").Path("", "a"), "", parser.ErrEmptySegment},
		{"a rootless path with an empty first segment", nb().RelativePath("", "a"), "", parser.ErrEmptySegment},
		{"RFC 6874: a zone needs its grammar", nb().HostAddr(netip.MustParseAddr("fe80::1%eth0")), "", parser.ErrZone},
		{"a bracketed host that is no IP literal", nb().Host("[x]"), "", parser.ErrHost},
		{"a bracketed host with a % that is no IPv6 address and zone", nb().Host("[%]"), "", parser.ErrHost},
		{"an IPvFuture with a %", nb().Host("[v1.%41]"), "", parser.ErrHost},
		{"an IPv6 address and zone in RFC 3986", nb().Host("[fe80::1%25eth0]"), "", parser.ErrZone},
		{"one empty segment after an authority is the empty path", nb().Scheme("http").Host("h").RelativePath(""), "http://h", nil},
		{"two are rootless", nb().Scheme("http").Host("h").RelativePath("", ""), "", parser.ErrRootless},
		{"§3.2.2: a reg-name that reads as IPv4 is an IPv4 address", nb().RegName("1.2.3.4"), "", parser.ErrHost},
		{"a reg-name that only looks like one", nb().RegName("1.2.3.256"), "//1.2.3.256", nil},
		{"a reg-name with a leading zero is no IPv4 address", nb().RegName("01.2.3.4"), "//01.2.3.4", nil},
		{"§3.2.2: a reg-name in lower case", nb().Scheme("HTTP").Host("WWW.Example.COM"), "http://www.example.com", nil},
		{"§2.1: a percent-encoding's digits upper case", nb().RegName("ÉCOLE%A"), "//%C3%89cole%25a", nil},
	} {
		u, err := tt.b.Build()
		if !errors.Is(err, tt.err) || tt.err == nil && u.String() != tt.want {
			t.Errorf("%s: Build() = %q, %v; want %q, %v", tt.why, u, err, tt.want, tt.err)
			continue
		}
		var be *parser.BuildError
		if tt.err != nil && !errors.As(err, &be) {
			t.Errorf("%s: %v is no *BuildError", tt.why, err)
		}
	}
	// RFC 6874's builder writes zones.
	u, err := rfc6874.Parser().Builder().Scheme("http").HostAddr(netip.MustParseAddr("fe80::1%eth0")).Path().Build()
	if err != nil || u.String() != "http://[fe80::1%25eth0]/" {
		t.Errorf("RFC 6874 builder: %q, %v", u, err)
	}
	if a, ok := u.Addr(); !ok || a.Zone() != "eth0" {
		t.Errorf("Addr() = %v, %v; want the zone eth0", a, ok)
	}
	// ZoneID = 1*( unreserved / pct-encoded ): a zone's sub-delims are
	// encoded (a reg-name keeps them), and decode back.
	for _, zone := range []string{"a!b", "en0;x=1", "a b", "é", "%25"} {
		addr := netip.MustParseAddr("fe80::1").WithZone(zone)
		for _, b := range []parser.Builder{rfc6874.Parser().Builder().HostAddr(addr), rfc6874.Parser().Builder().Host(addr.String())} {
			u, err := b.Build()
			if err != nil {
				t.Errorf("RFC 6874 builder, zone %q: %v", zone, err)
				continue
			}
			if a, ok := u.Addr(); !ok || a != addr {
				t.Errorf("RFC 6874 builder, zone %q: %q, Addr() = %v, %v", zone, u, a, ok)
			}
		}
	}
	if _, err := rfc6874.Parser().Builder().Host("[fe80::1%25a!b]").Build(); !errors.Is(err, parser.ErrHost) {
		t.Errorf("RFC 6874 builder, an IP literal whose zone has a raw \"!\": %v, want ErrHost (the grammar has zones)", err)
	}
	// From a URI, one component replaced; the original is unchanged.
	orig := parser.MustParseReference("http://a/b%20c?q#f")
	v, err := orig.Builder().Fragment("g h").Build()
	if err != nil || v.String() != "http://a/b%20c?q#g%20h" {
		t.Errorf("Builder from %q with a new fragment: %q, %v", orig, v, err)
	}
}

// TestViews: the decoded views of a parsed URI.
func TestViews(t *testing.T) {
	u := parser.MustParseReference("http://us%3Aer:p@[::1]:08080/a%2Fb/c%20d/?x=1&y=a+b&z&w=%26&&=v#fr%20ag")
	type pair = parser.QueryPair
	if diff := cmp.Diff([]string{"a/b", "c d", ""}, u.PathSegments()); diff != "" {
		t.Errorf("PathSegments (-want +got):\n%s", diff)
	}
	wantPairs := []pair{{"x", "1", true}, {"y", "a+b", true}, {"z", "", false}, {"w", "&", true}, {"", "", false}, {"", "v", true}}
	if diff := cmp.Diff(wantPairs, u.QueryPairs()); diff != "" {
		t.Errorf("QueryPairs (-want +got):\n%s", diff)
	}
	if got := u.FormPairs()[1].Value; got != "a b" {
		t.Errorf("FormPairs: y = %q, want \"a b\"", got)
	}
	if u.DecodedUserinfo() != "us:er:p" || u.DecodedFragment() != "fr ag" || u.DecodedHost() != "[::1]" {
		t.Errorf("decoded userinfo %q, host %q, fragment %q", u.DecodedUserinfo(), u.DecodedHost(), u.DecodedFragment())
	}
	if a, ok := u.Addr(); !ok || a != netip.MustParseAddr("::1") {
		t.Errorf("Addr() = %v, %v", a, ok)
	}
	if n, err := u.PortNumber(); err != nil || n != 8080 {
		t.Errorf("PortNumber() = %d, %v", n, err)
	}
	for s, want := range map[string]error{"http://a:65536/": parser.ErrPortRange, "http://a:/": parser.ErrNoPort, "http://a/": parser.ErrNoPort, "http://a:99999999999999999999/": parser.ErrPortRange} {
		if _, err := parser.MustParseReference(s).PortNumber(); !errors.Is(err, want) {
			t.Errorf("PortNumber(%q) = %v, want %v", s, err, want)
		}
	}
	if segs := parser.MustParseReference("").PathSegments(); segs != nil {
		t.Errorf("PathSegments of the empty path: %q", segs)
	}
	if _, ok := parser.MustParseReference("http://1.2.3.4.5/").Addr(); ok {
		t.Error("Addr of a reg-name that looks like IPv4 (§3.2.2)")
	}
}

// FuzzBuilder: whatever raw text the builder is given, the URI parses,
// and its decoded views give the text back.
func FuzzBuilder(f *testing.F) {
	f.Add("https", "u:p", "example.com", "a b", "c/d", "q", "1&2", "x y")
	f.Add("", "", "::1", ":", "", "", "", "")
	f.Fuzz(func(t *testing.T, scheme, user, host, seg1, seg2, key, value, frag string) {
		b := parser.NewBuilder()
		if scheme != "" {
			b = b.Scheme(scheme)
		}
		b = b.Userinfo(user).Host(host).Path(seg1, seg2).Query(key, value).Fragment(frag)
		u, err := b.Build()
		if err != nil {
			var be *parser.BuildError
			if !errors.As(err, &be) || (be.Component != "scheme" && be.Component != "host") {
				t.Fatalf("Build: %v", err)
			}
			return
		}
		if v, err := parser.ParseReference(u.String()); err != nil || v != u {
			t.Fatalf("Build() = %q does not parse back: %v", u, err)
		}
		if u.DecodedUserinfo() != user || !slicesEqual(u.PathSegments(), []string{seg1, seg2}) || u.DecodedFragment() != frag {
			t.Fatalf("Build() = %q: views %q %q %q", u, u.DecodedUserinfo(), u.PathSegments(), u.DecodedFragment())
		}
		if ps := u.QueryPairs(); len(ps) != 1 || ps[0].Key != key || ps[0].Value != value {
			t.Fatalf("Build() = %q: query pairs %+v", u, ps)
		}
		// A registered name is written with its ASCII letters in lower
		// case (§3.2.2, Builder.RegName); other bytes are kept.
		if _, notAddr := netip.ParseAddr(host); notAddr != nil && !strings.HasPrefix(host, "[") && u.DecodedHost() != asciiLower(host) {
			t.Fatalf("Build() = %q: host %q, want %q", u, u.DecodedHost(), asciiLower(host))
		}
		// Rebuilt from its decoded views, the URI is equivalent (§6.2.2).
		r := parser.NewBuilder()
		if u.HasScheme() {
			r = r.Scheme(u.Scheme())
		}
		r = r.Userinfo(u.DecodedUserinfo()).Path(u.PathSegments()...).Query(key, value).Fragment(u.DecodedFragment())
		if a, ok := u.Addr(); ok {
			r = r.HostAddr(a)
		} else if u.HostKind() == parser.HostIPvFuture {
			r = r.Host(u.Host())
		} else {
			r = r.Host(u.DecodedHost())
		}
		w, err := r.Build()
		if err != nil || !resolve.Equal(u, w, resolve.CompareSyntax) {
			t.Fatalf("rebuilt from the views of %q: %q, %v", u, w, err)
		}
	})
}

func slicesEqual(a, b []string) bool { return cmp.Equal(a, b) }

// asciiLower maps A-Z to a-z and leaves every other byte as it is.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// TestBuilderFromURI: a URI's components kept as written, one changed.
func TestBuilderFromURI(t *testing.T) {
	for _, tt := range []struct {
		why  string
		b    parser.Builder
		want string
	}{
		{"§4.2: the scheme taken away, the first segment's colon is encoded", parser.MustParseReference("s:a:b/c:d").Builder().NoScheme(), "a%3Ab/c:d"},
		{"§3.1: the scheme is written in lower case", parser.NewBuilder().Scheme("HTTP").Host("h"), "http://h"},
		{"the authority taken away", parser.MustParseReference("http://u@h:1/p?q#f").Builder().NoAuthority(), "http:/p?q#f"},
	} {
		if u, err := tt.b.Build(); err != nil || u.String() != tt.want {
			t.Errorf("%s: %q, %v; want %q", tt.why, u, err, tt.want)
		}
	}
	if _, err := parser.NewBuilder().Host("[fe80::1%25eth0]").Build(); !errors.Is(err, parser.ErrZone) {
		t.Errorf("an IP literal with a zone under RFC 3986: %v, want ErrZone", err)
	}
}

// rebuild makes a URI from u's decoded views; ok is false where the views
// cannot say what u is (an IPvFuture host, an empty port or one above
// 65535).
func rebuild(t *testing.T, u parser.URI) (parser.URI, bool) {
	if u.HostKind() == parser.HostIPvFuture {
		return parser.URI{}, false
	}
	b := parser.NewBuilder()
	if u.HasScheme() {
		b = b.Scheme(u.Scheme())
	}
	if u.HasAuthority() {
		if a, ok := u.Addr(); ok {
			b = b.HostAddr(a)
		} else {
			b = b.RegName(u.DecodedHost())
		}
		if u.HasUserinfo() {
			b = b.Userinfo(u.DecodedUserinfo())
		}
		if u.HasPort() {
			n, err := u.PortNumber()
			if err != nil {
				return parser.URI{}, false
			}
			b = b.Port(n)
		}
	}
	segs := u.PathSegments()
	switch {
	case strings.HasPrefix(u.Path(), "/"):
		b = b.Path(segs...)
	case len(segs) > 0:
		b = b.RelativePath(segs...)
	}
	for _, p := range u.QueryPairs() {
		if p.HasValue {
			b = b.Query(p.Key, p.Value)
		} else {
			b = b.QueryKey(p.Key)
		}
	}
	if u.HasQuery() && u.Query() == "" {
		b = b.RawQuery("")
	}
	if u.HasFragment() {
		b = b.Fragment(u.DecodedFragment())
	}
	v, err := b.Build()
	if err != nil {
		var be *parser.BuildError
		if errors.As(err, &be) && (errors.Is(err, parser.ErrEmptySegment) || errors.Is(err, parser.ErrHost)) {
			return parser.URI{}, false // a "//" path, a host that reads as an IP literal: no way back
		}
		t.Fatalf("rebuilding %q: %v", u, err)
	}
	return v, true
}

// views are a URI's decoded views, in one comparable string.
func views(u parser.URI) string {
	n, _ := u.PortNumber()
	host := u.DecodedHost()
	if a, ok := u.Addr(); ok {
		host = a.String() // an IP address, however its text writes it
	} else {
		host = strings.Map(func(r rune) rune { // a reg-name, in any case (§3.2.2)
			if 'A' <= r && r <= 'Z' {
				return r + 'a' - 'A'
			}
			return r
		}, host)
	}
	return fmt.Sprintf("%v %q %q %v %v %q %q %+v %v %q %v %v", u.HasScheme(), strings.ToLower(u.Scheme()), u.DecodedUserinfo(), u.HasUserinfo(),
		u.HasAuthority(), host, u.PathSegments(), u.QueryPairs(), u.HasFragment(), u.DecodedFragment(), u.HasPort(), n)
}

// FuzzRebuild: any valid URI, rebuilt from its decoded views, has the
// same views, and the builder's text is a fixed point: rebuilt again, it
// is the same text. (§6.2.2 equivalence is not the property: §2.2 says a
// reserved character and its percent-encoding are not equivalent, and a
// decoded view cannot say which of the two the text had: "u%3Ax" and "u:x"
// have the userinfo view "u:x".)
func FuzzRebuild(f *testing.F) {
	for _, s := range []string{"http://u%3Ax:p@ex%41mple.com:80/a%2Fb/c?x=1&y&z=a+b#f%20g", "a:b/c", "//[::1]/", "?q", "", "mailto:a@b", "/a:b", "a%3Ab/c", "HTTP://A/%7e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := parser.ParseReference(s)
		if err != nil {
			return
		}
		v, ok := rebuild(t, u)
		if !ok {
			return
		}
		if views(u) != views(v) {
			t.Fatalf("%q rebuilt from its views is %q:\n%s\n%s", s, v, views(u), views(v))
		}
		if w, _ := rebuild(t, v); w != v {
			t.Fatalf("%q rebuilt is %q, then %q: no fixed point", s, v, w)
		}
	})
}

// builderCalls calls each method of Builder once, on b; TestZeroBuilder
// holds the table to Builder's method set.
var builderCalls = map[string]func(b parser.Builder) (string, error){
	"Scheme":       func(b parser.Builder) (string, error) { return built(b.Scheme("http")) },
	"NoScheme":     func(b parser.Builder) (string, error) { return built(b.NoScheme()) },
	"Userinfo":     func(b parser.Builder) (string, error) { return built(b.Userinfo("u:p").Host("a")) },
	"User":         func(b parser.Builder) (string, error) { return built(b.User("u:p").Host("a")) },
	"UserPassword": func(b parser.Builder) (string, error) { return built(b.UserPassword("u", "p").Host("a")) },
	"Host":         func(b parser.Builder) (string, error) { return built(b.Host("[::1]")) },
	"RegName":      func(b parser.Builder) (string, error) { return built(b.RegName("a b")) },
	"HostAddr":     func(b parser.Builder) (string, error) { return built(b.HostAddr(netip.MustParseAddr("::1"))) },
	"NoAuthority":  func(b parser.Builder) (string, error) { return built(b.NoAuthority()) },
	"Port":         func(b parser.Builder) (string, error) { return built(b.Port(8)) },
	"Path":         func(b parser.Builder) (string, error) { return built(b.Path("a", "b c")) },
	"RelativePath": func(b parser.Builder) (string, error) { return built(b.RelativePath("a:b", "c")) },
	"Query":        func(b parser.Builder) (string, error) { return built(b.Query("k", "v&")) },
	"QueryKey":     func(b parser.Builder) (string, error) { return built(b.QueryKey("k")) },
	"RawQuery":     func(b parser.Builder) (string, error) { return built(b.RawQuery("a b")) },
	"NoQuery":      func(b parser.Builder) (string, error) { return built(b.NoQuery()) },
	"Fragment":     func(b parser.Builder) (string, error) { return built(b.Fragment("x y")) },
	"NoFragment":   func(b parser.Builder) (string, error) { return built(b.NoFragment()) },
	"Build":        func(b parser.Builder) (string, error) { return built(b) },
	"String":       func(b parser.Builder) (string, error) { return b.String(), nil },
}

// built is b.Build()'s text and error.
func built(b parser.Builder) (string, error) {
	u, err := b.Build()
	return u.String(), err
}

// TestZeroBuilder: the zero Builder is NewBuilder's, an RFC 3986 builder
// of the empty reference. Every method works on it, panics on none, and
// gives what it gives on NewBuilder().
func TestZeroBuilder(t *testing.T) {
	typ := reflect.TypeOf(parser.Builder{})
	for i := range typ.NumMethod() {
		if _, ok := builderCalls[typ.Method(i).Name]; !ok {
			t.Errorf("builderCalls has no call of Builder.%s", typ.Method(i).Name)
		}
	}
	for name, call := range builderCalls {
		want, wantErr := call(parser.NewBuilder())
		got, err := func() (s string, err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("panic: %v", r)
				}
			}()
			return call(parser.Builder{})
		}()
		if diff := cmp.Diff(fmt.Sprint(want, " ", wantErr), fmt.Sprint(got, " ", err)); diff != "" {
			t.Errorf("%s on the zero Builder (-NewBuilder() +zero):\n%s", name, diff)
		}
	}
	if got, err := built(parser.Builder{}); got != "" || err != nil {
		t.Errorf("the zero Builder builds %q, %v; want the empty reference", got, err)
	}
}

// TestBuildErrorNames: a *BuildError names the component at fault and
// what was given for it: the userinfo alone, not glued to the port, for a
// userinfo without a host; for a URI longer than MaxLength, ErrTooLong
// with its longest component, not the whole text as "uri" (before
// 2026-12-08, both).
func TestBuildErrorNames(t *testing.T) {
	nb := parser.NewBuilder
	long := strings.Repeat("a", parser.MaxLength-5)
	for _, tt := range []struct {
		why       string
		b         parser.Builder
		component string
		input     string
		err       error
	}{
		{"a userinfo and a port without a host", nb().Userinfo("alice").Port(8080), "userinfo", "alice", parser.ErrNoHost},
		{"a port without a host", nb().Port(8080), "port", "8080", parser.ErrNoHost},
		{"too long: the fragment", nb().Scheme("http").Host("h").Fragment(long), "fragment", long, parser.ErrTooLong},
		{"too long: the path", nb().Scheme("http").Host("h").Path(long).Query("q", "1"), "path", "/" + long, parser.ErrTooLong},
		{"too long: the query", nb().Host("h").RawQuery(long + "bcdef"), "query", long + "bcdef", parser.ErrTooLong},
	} {
		_, err := tt.b.Build()
		var be *parser.BuildError
		if !errors.As(err, &be) || !errors.Is(err, tt.err) || be.Component != tt.component || be.Input != tt.input {
			t.Errorf("%s: Build() error = %.200v; want a *BuildError of %s, given %.20q…, wrapping %v", tt.why, err, tt.component, tt.input, tt.err)
		}
	}
	// At the limit, the URI builds.
	if u, err := nb().RawQuery(strings.Repeat("a", parser.MaxLength-1)).Build(); err != nil || len(u.String()) != parser.MaxLength {
		t.Errorf("a URI of MaxLength bytes: %d bytes, %.200v", len(u.String()), err)
	}
}

package resolve_test

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/resolve"
)

// stepTests show, for one input each, what every step does alone and what
// the combinations do: each step does its job and nothing else. An empty
// want means the input, unchanged.
var stepTests = []struct {
	in                               string
	cas, percent, dots, scheme, ipv6 string
	syntax, def                      string
}{
	// Every component dirty.
	{
		in:      "HTTP://User@Example.COM:080/a/./b/../%7euser/%3a?Q=%7E#F%2e",
		cas:     "http://User@example.com:080/a/./b/../%7Euser/%3A?Q=%7E#F%2E", // §6.2.2.1: scheme, host, hex only
		percent: "HTTP://User@Example.COM:080/a/./b/../~user/%3a?Q=~#F.",       // §6.2.2.2: "%3a" is reserved, stays
		dots:    "HTTP://User@Example.COM:080/a/%7euser/%3a?Q=%7E#F%2e",        // §6.2.2.3: the path only
		scheme:  "HTTP://User@Example.COM/a/./b/../%7euser/%3a?Q=%7E#F%2e",     // §6.2.3: "080" is port 80
		syntax:  "http://User@example.com:080/a/~user/%3A?Q=~#F.",
		def:     "http://User@example.com/a/~user/%3A?Q=~#F.",
	},
	// An IPv6 literal and an empty port.
	{
		in:      "HTTP://[2001:DB8:0:0:0:0:0:1]:/%7E",
		cas:     "http://[2001:db8:0:0:0:0:0:1]:/%7E", // §6.2.2.1: IP literals are hosts too
		percent: "HTTP://[2001:DB8:0:0:0:0:0:1]:/~",
		scheme:  "HTTP://[2001:DB8:0:0:0:0:0:1]/%7E", // §3.2.3: empty port
		ipv6:    "HTTP://[2001:db8::1]:/%7E",         // RFC 5952, host only
		syntax:  "http://[2001:db8:0:0:0:0:0:1]:/~",
		def:     "http://[2001:db8:0:0:0:0:0:1]/~",
	},
	// A percent-encoded host: Case alone keeps the encodings (their hex is
	// already uppercase) and Percent alone keeps the case of what it
	// decodes; together they lowercase it.
	{
		in:      "http://%41%62c.%65xample%2Ecom%3A",
		percent: "http://Abc.example.com%3A",
		scheme:  "http://%41%62c.%65xample%2Ecom%3A/", // §6.2.3: empty path is "/"
		syntax:  "http://abc.example.com%3A",
		def:     "http://abc.example.com%3A/",
	},
	// A relative-path reference: leading ".." stay; a "%2E%2E" is no dot
	// segment (§5.2.4 removes only the complete segments "." and ".."),
	// and stays encoded, a name; "c:d" keeps the "./"-free form only
	// while it is not first.
	{
		in:      "./a/./b/../../../c:d/%2E%2E/x?%7e",
		cas:     "./a/./b/../../../c:d/%2E%2E/x?%7E",
		percent: "./a/./b/../../../c:d/.%2E/x?~",
		dots:    "../c:d/%2E%2E/x?%7e",
		syntax:  "../c:d/.%2E/x?~",
		def:     "../c:d/.%2E/x?~",
	},
	// §6.2.3's mailto example needs scheme-specific knowledge of the path
	// that this package does not have: nothing changes but nothing.
	{in: "mailto:Joe@Example.COM"},
	// IPvFuture: lowercased by Case (§6.2.2.1, the host is
	// case-insensitive), left alone by IPv6Canonical; an unknown scheme
	// still loses its empty port (§3.2.3) but keeps an empty path.
	{
		in:     "foo://[v1.ABC]:",
		cas:    "foo://[v1.abc]:",
		scheme: "foo://[v1.ABC]",
		syntax: "foo://[v1.abc]:",
		def:    "foo://[v1.abc]",
	},
	// A network-path reference: no scheme, so only the empty port goes.
	{
		in:      "//a:/%7e",
		cas:     "//a:/%7E",
		percent: "//a:/~",
		scheme:  "//a/%7e",
		syntax:  "//a:/~",
		def:     "//a/~",
	},
	// An absolute path that dot-segment removal would start with "//": the
	// guard of the package documentation.
	{in: "/a/..//b", dots: "/.//b", syntax: "/.//b", def: "/.//b"},
	// The empty reference is normal.
	{in: ""},
}

func TestSteps(t *testing.T) {
	for _, tt := range stepTests {
		u := mustParse(t, tt.in)
		for _, c := range []struct {
			steps resolve.Steps
			want  string
		}{
			{resolve.NormalizeCase, tt.cas},
			{resolve.NormalizePercent, tt.percent},
			{resolve.NormalizeDotSegments, tt.dots},
			{resolve.NormalizeSchemeBased, tt.scheme},
			{resolve.NormalizeIPv6Canonical, tt.ipv6},
			{resolve.NormalizeSyntax, tt.syntax},
			{resolve.NormalizeDefault, tt.def},
			{0, ""},
		} {
			want := c.want
			if want == "" {
				want = tt.in
			}
			got, err := resolve.Normalize(u, c.steps)
			if err != nil {
				t.Errorf("Normalize(%q, %v): %v", tt.in, c.steps, err)
				continue
			}
			if got.String() != want {
				t.Errorf("Normalize(%q, %v):\n\tgot  %q\n\twant %q", tt.in, c.steps, got, want)
			}
		}
	}
}

// normalizeTests are normalizations by the given steps.
var normalizeTests = []struct {
	in    string
	steps resolve.Steps
	want  string
}{
	// §6.2.2.1: "the URI <HTTP://www.EXAMPLE.com/> is equivalent to
	// <http://www.example.com/>".
	{"HTTP://www.EXAMPLE.com/", resolve.NormalizeCase, "http://www.example.com/"},
	// §6.2.2.1: ""%3a" versus "%3A"": the same, uppercase; and ":" is
	// reserved, so it stays encoded (§6.2.2.2).
	{"http://a/%3a", resolve.NormalizeSyntax, "http://a/%3A"},
	{"http://a/%3a", resolve.NormalizePercent, "http://a/%3a"},
	// §2.3: "%7Euser" is "~user".
	{"http://a/%7Euser", resolve.NormalizeSyntax, "http://a/~user"},
	{"http://a/%7euser", resolve.NormalizePercent, "http://a/~user"},
	// §6.2.2: the example, both URIs.
	{"eXAMPLE://a/./b/../b/%63/%7bfoo%7d", resolve.NormalizeSyntax, "example://a/b/c/%7Bfoo%7D"},
	{"example://a/b/c/%7Bfoo%7D", resolve.NormalizeSyntax, "example://a/b/c/%7Bfoo%7D"},
	// §6.2.3: four equivalent URIs, "the second URI above is the normal
	// form for the "http" scheme".
	{"http://example.com", resolve.NormalizeDefault, "http://example.com/"},
	{"http://example.com/", resolve.NormalizeDefault, "http://example.com/"},
	{"http://example.com:/", resolve.NormalizeDefault, "http://example.com/"},
	{"http://example.com:80/", resolve.NormalizeDefault, "http://example.com/"},
	// §6.2.3: "Normalization should not remove delimiters when their
	// associated component is empty": "?" and "#" stay.
	{"http://example.com/?", resolve.NormalizeDefault, "http://example.com/?"},
	{"http://example.com/#", resolve.NormalizeDefault, "http://example.com/#"},
	{"http://example.com?#", resolve.NormalizeDefault, "http://example.com/?#"},
	// §6.2.2.2: no reserved character (§2.2) is decoded, nor "%" itself;
	// Case uppercases their hex.
	{"http://a/%2f%3f%23%5b%5d%40%21%24%26%27%28%29%2a%2b%2c%3b%3d%25?%3A#%2F", resolve.NormalizeSyntax,
		"http://a/%2F%3F%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D%25?%3A#%2F"},
	{"http://%2f%40@a/", resolve.NormalizeSyntax, "http://%2F%40@a/"},
	// Every unreserved character is decoded (§2.3), in every component.
	{"http://%41%5a@%61%7a/%30%39%2d%2e%5f%7e?%41#%7E", resolve.NormalizePercent, "http://AZ@az/09-._~?A#~"},
	// Octets outside ASCII are not characters of the URI: they stay
	// encoded (RFC 3987 is another matter).
	{"http://a/%c3%a9", resolve.NormalizeSyntax, "http://a/%C3%A9"},
	// "%2525" is "%25" then "25": nothing to decode.
	{"http://a/%2525", resolve.NormalizeSyntax, "http://a/%2525"},
	// Case changes nothing but the scheme, the host and hex digits
	// (§6.2.2.1: "The other generic syntax components are assumed to be
	// case-sensitive").
	{"HTTP://USER@HOST/PATH?QUERY#FRAGMENT", resolve.NormalizeCase, "http://USER@host/PATH?QUERY#FRAGMENT"},
	// A segment that would decode to "." or ".." is no dot segment to
	// §5.2.4 (which removes the complete segments "." and ".."), and
	// §6.2.2.2 does not make it one: its last dot stays encoded, "%2E" or
	// ".%2E", so that §6.2.2.3 removes what resolution removes and the
	// normal form has the reference's targets.
	{"http://a/b/%2E%2E/c", resolve.NormalizeSyntax, "http://a/b/.%2E/c"},
	{"http://a/b/%2e/c", resolve.NormalizeSyntax, "http://a/b/%2E/c"},
	{"http://a/b/%2E%2E/../c", resolve.NormalizeSyntax, "http://a/b/c"}, // as resolution gives it
	{"http://a/b/%2E%2E/c", resolve.NormalizeDotSegments, "http://a/b/%2E%2E/c"},
	{"http://a/.%2e/%2E./%2e%2e/%2e", resolve.NormalizePercent, "http://a/.%2E/.%2E/.%2E/%2E"}, // one spelling each
	{"http://a/%2e%2e%2e/..%2E/%2E%41", resolve.NormalizePercent, "http://a/.../.../.A"},       // not dots: decoded
	{"http://a/%2E/./%2E%2E/..", resolve.NormalizeSyntax, "http://a/%2E/"},
	{"%2E/..", resolve.NormalizeSyntax, "./"},             // resolves to the base's directory, not "../"
	{"a/%2E%2E/../b", resolve.NormalizeSyntax, "a/b"},     // not "../b"
	{"%2E%2E/a/b", resolve.NormalizeSyntax, ".%2E/a/b"},   // not "../a/b"
	{"/b/%2e/..", resolve.NormalizeSyntax, "/b/"},         // an absolute-path reference alike
	{"//a/%2E%2E/../b", resolve.NormalizeSyntax, "//a/b"}, // a network-path reference alike
	{"x:%2E%2E/y", resolve.NormalizeSyntax, "x:.%2E/y"},   // a rootless path alike

	// §6.2.2.3 on a relative-path reference: "." segments and
	// "segment/.." pairs go, leading ".." stay.
	{"a/../../b", resolve.NormalizeDotSegments, "../b"},
	{"./a/./b/../c", resolve.NormalizeDotSegments, "a/c"},
	{"../x", resolve.NormalizeDotSegments, "../x"},
	{"../../x/../y", resolve.NormalizeDotSegments, "../../y"},
	{"a/b/../../..", resolve.NormalizeDotSegments, "../"},
	// A trailing "." or ".." leaves a trailing "/", as in §5.2.4.
	{"a/.", resolve.NormalizeDotSegments, "a/"},
	{"a/b/..", resolve.NormalizeDotSegments, "a/"},
	{"..", resolve.NormalizeDotSegments, "../"},
	// The current directory is "./", not "" (§4.4: "" is the current
	// document), with or without a query or fragment.
	{"a/..", resolve.NormalizeDotSegments, "./"},
	{".", resolve.NormalizeDotSegments, "./"},
	{"./", resolve.NormalizeDotSegments, "./"},
	{"a/..?q#f", resolve.NormalizeDotSegments, "./?q#f"},
	// A first segment with ":" keeps or gets "./" (§4.2: it would be a
	// scheme), and so does an empty first segment (it would make the path
	// absolute, or an authority).
	{"./a:b", resolve.NormalizeDotSegments, "./a:b"},
	{"././a:b/./c", resolve.NormalizeDotSegments, "./a:b/c"},
	{"x/../a:b", resolve.NormalizeDotSegments, "./a:b"},
	{"x/..//y", resolve.NormalizeDotSegments, ".//y"},
	{".//y", resolve.NormalizeDotSegments, ".//y"},
	// Only complete segments: "..a", "a..", "..." are names.
	{"..a/a../.../b", resolve.NormalizeDotSegments, "..a/a../.../b"},
	// Empty segments are segments: ".." removes one.
	{"a//../b", resolve.NormalizeDotSegments, "a/b"},
	{"a//b", resolve.NormalizeDotSegments, "a//b"},
	// The query and fragment are not paths (§5.4.2: "g?y/./x").
	{"g?y/./x#s/../x", resolve.NormalizeDotSegments, "g?y/./x#s/../x"},
	// With a scheme, remove_dot_segments exactly, as §5.2.2 does for a
	// reference with a scheme: even a rootless path may become absolute.
	{"a:b/../c", resolve.NormalizeDotSegments, "a:/c"},
	{"a:.", resolve.NormalizeDotSegments, "a:"},
	{"a:/..//b", resolve.NormalizeDotSegments, "a:/.//b"}, // the guard
	{"http://a/..//b", resolve.NormalizeDotSegments, "http://a//b"},
	{"//a/./b/../c", resolve.NormalizeDotSegments, "//a/c"},

	// §6.2.3 ports, compared as numbers.
	{"http://a:0080/", resolve.NormalizeSchemeBased, "http://a/"},
	{"http://a:8080/", resolve.NormalizeSchemeBased, "http://a:8080/"},
	{"http://a:08080/", resolve.NormalizeSchemeBased, "http://a:08080/"}, // not a default: left alone
	{"http://a:0/", resolve.NormalizeSchemeBased, "http://a:0/"},
	{"https://a:443", resolve.NormalizeSchemeBased, "https://a/"},
	{"https://a:80/", resolve.NormalizeSchemeBased, "https://a:80/"},
	{"HTTP://a:80", resolve.NormalizeSchemeBased, "HTTP://a/"}, // the scheme compares lowercase
	{"ws://a:80", resolve.NormalizeSchemeBased, "ws://a/"},
	{"wss://a:443/x", resolve.NormalizeSchemeBased, "wss://a/x"},
	{"ftp://a:21", resolve.NormalizeSchemeBased, "ftp://a/"},
	// An unknown scheme has no default port, and no "/" for "", but an
	// empty port goes (§3.2.3).
	{"foo://a:80", resolve.NormalizeSchemeBased, "foo://a:80"},
	{"foo://a:", resolve.NormalizeSchemeBased, "foo://a"},
	// No authority: nothing to do.
	{"http:x", resolve.NormalizeSchemeBased, "http:x"},
	{"http:", resolve.NormalizeSchemeBased, "http:"},
	// An empty host is still an authority (§6.2.3 leaves "file:///" and
	// friends to their schemes).
	{"http://", resolve.NormalizeSchemeBased, "http:///"},

	// IPv6Canonical: RFC 5952 §4.
	{"http://[0:0:0:0:0:0:0:1]/", resolve.NormalizeIPv6Canonical, "http://[::1]/"},
	{"http://[2001:0DB8::0001]/", resolve.NormalizeIPv6Canonical, "http://[2001:db8::1]/"},
	{"http://[2001:db8:0:0:1:0:0:1]/", resolve.NormalizeIPv6Canonical, "http://[2001:db8::1:0:0:1]/"},          // §4.2.3: the first of equal runs
	{"http://[2001:db8::1:0:0:0:1]/", resolve.NormalizeIPv6Canonical, "http://[2001:db8:0:1::1]/"},             // §4.2.3: the longest run
	{"http://[2001:db8:0:1:1:1:1:1]/", resolve.NormalizeIPv6Canonical, "http://[2001:db8:0:1:1:1:1:1]/"},       // §4.2.2: not one field
	{"http://[0:0:0:0:0:FFFF:192.0.2.1]:80/", resolve.NormalizeIPv6Canonical, "http://[::ffff:192.0.2.1]:80/"}, // §5: mapped IPv4 stays dotted
	// RFC 5952 §2's ten spellings of one address, and §4.3's case.
	{"http://[2001:db8:0:0:1:0:0:1]/", resolve.NormalizeIPv6Canonical, "http://[2001:db8::1:0:0:1]/"},
	{"http://[2001:0db8:0:0:1:0:0:1]/", resolve.NormalizeIPv6Canonical, "http://[2001:db8::1:0:0:1]/"},
	{"http://[2001:db8::1:0:0:1]/", resolve.NormalizeIPv6Canonical, "http://[2001:db8::1:0:0:1]/"},
	{"http://[2001:db8::0:1:0:0:1]/", resolve.NormalizeIPv6Canonical, "http://[2001:db8::1:0:0:1]/"},
	{"http://[2001:0db8::1:0:0:1]/", resolve.NormalizeIPv6Canonical, "http://[2001:db8::1:0:0:1]/"},
	{"http://[2001:db8:0:0:1::1]/", resolve.NormalizeIPv6Canonical, "http://[2001:db8::1:0:0:1]/"},
	{"http://[2001:db8:0000:0:1::1]/", resolve.NormalizeIPv6Canonical, "http://[2001:db8::1:0:0:1]/"},
	{"http://[2001:DB8:0:0:1::1]/", resolve.NormalizeIPv6Canonical, "http://[2001:db8::1:0:0:1]/"},
	{"http://[2001:0:0:1:0:0:0:1]/", resolve.NormalizeIPv6Canonical, "http://[2001:0:0:1::1]/"}, // §4.2.3
	{"http://[2001:db8::AAAA]/", resolve.NormalizeIPv6Canonical, "http://[2001:db8::aaaa]/"},    // §4.3
	// §5: mixed notation "if ... the address can be distinguished as
	// having IPv4 addresses embedded in the lower 32 bits solely from the
	// address field through the use of a well-known prefix", those of RFC
	// 4291 and RFC 2765.
	{"http://[::ffff:c000:201]/", resolve.NormalizeIPv6Canonical, "http://[::ffff:192.0.2.1]/"},          // RFC 4291 §2.5.5.2: IPv4-mapped
	{"http://[::ffff:0:1.2.3.4]/", resolve.NormalizeIPv6Canonical, "http://[::ffff:0:1.2.3.4]/"},         // RFC 2765 §2.1: IPv4-translated
	{"http://[0:0:0:0:FFFF:0:0102:0304]/", resolve.NormalizeIPv6Canonical, "http://[::ffff:0:1.2.3.4]/"}, // the same, in hexadecimal
	{"http://[::ffff:0:0:0]/", resolve.NormalizeIPv6Canonical, "http://[::ffff:0:0.0.0.0]/"},             // the prefix itself
	{"http://[1::ffff:0:1.2.3.4]/", resolve.NormalizeIPv6Canonical, "http://[1::ffff:0:102:304]/"},       // not the prefix
	{"http://[::1:ffff:0:1.2.3.4]/", resolve.NormalizeIPv6Canonical, "http://[::1:ffff:0:102:304]/"},     // not the prefix
	{"http://[::fffe:0:1.2.3.4]/", resolve.NormalizeIPv6Canonical, "http://[::fffe:0:102:304]/"},         // not the prefix
	{"http://[::ffff:1:1.2.3.4]/", resolve.NormalizeIPv6Canonical, "http://[::ffff:1:102:304]/"},         // not the prefix
	{"http://[64:ff9b::1.2.3.4]/", resolve.NormalizeIPv6Canonical, "http://[64:ff9b::102:304]/"},         // RFC 6052's, not named by RFC 5952
	{"http://[::1.2.3.4]/", resolve.NormalizeIPv6Canonical, "http://[::102:304]/"},                       // IPv4-compatible, deprecated (RFC 4291 §2.5.5.1): hexadecimal
	{"http://[::0.0.0.1]/", resolve.NormalizeIPv6Canonical, "http://[::1]/"},                             // the loopback address, not 0.0.0.1
	{"http://[::0.0.0.0]/", resolve.NormalizeIPv6Canonical, "http://[::]/"},                              // the unspecified address
	{"http://[v1.ABC]/", resolve.NormalizeIPv6Canonical, "http://[v1.ABC]/"},
	{"http://1.2.3.4/", resolve.NormalizeIPv6Canonical, "http://1.2.3.4/"},
}

func TestNormalize(t *testing.T) {
	for _, tt := range normalizeTests {
		got, err := resolve.NormalizeString(tt.in, tt.steps)
		if err != nil {
			t.Errorf("NormalizeString(%q, %v): %v", tt.in, tt.steps, err)
			continue
		}
		if got != tt.want {
			t.Errorf("NormalizeString(%q, %v):\n\tgot  %q\n\twant %q", tt.in, tt.steps, got, tt.want)
		}
	}
}

// allSteps are every set of steps.
func allSteps() []resolve.Steps {
	var s []resolve.Steps
	for i := resolve.Steps(0); i < 1<<5; i++ {
		s = append(s, i)
	}
	return s
}

// TestNormalizeFixedPoint: for every input of the tables and every set of
// steps, the result parses back into itself and normalizing it again
// changes nothing.
func TestNormalizeFixedPoint(t *testing.T) {
	var inputs []string
	for _, tt := range stepTests {
		inputs = append(inputs, tt.in)
	}
	for _, tt := range normalizeTests {
		inputs = append(inputs, tt.in)
	}
	for _, in := range inputs {
		u := mustParse(t, in)
		for _, steps := range allSteps() {
			checkNormalize(t, u, steps)
		}
	}
}

// checkNormalize checks the properties of Normalize(u, steps).
func checkNormalize(t testing.TB, u parser.URI, steps resolve.Steps) {
	t.Helper()
	n, err := resolve.Normalize(u, steps)
	if err != nil {
		t.Errorf("Normalize(%q, %v): %v", u, steps, err)
		return
	}
	back, err := parser.ParseReference(n.String())
	if err != nil || back != n {
		t.Errorf("Normalize(%q, %v) = %q, which parses into %v, %v:\n%s", u, steps, n, back, err, cmp.Diff(n.Parts(), back.Parts()))
	}
	if n.HasScheme() != u.HasScheme() || n.HasAuthority() != u.HasAuthority() ||
		n.HasQuery() != u.HasQuery() || n.HasFragment() != u.HasFragment() {
		t.Errorf("Normalize(%q, %v) = %q: a component appeared or vanished", u, steps, n)
	}
	again, err := resolve.Normalize(n, steps)
	if err != nil || again != n {
		t.Errorf("Normalize(%q, %v) = %q, not a fixed point: %q, %v", u, steps, n, again, err)
	}
	checkExplain(t, u, steps, n)
}

// TestSchemes: a Normalizer learns schemes from its own table, built from
// the default one or from scratch; building a table changes no other.
func TestSchemes(t *testing.T) {
	const in = "Foo://a:0070"
	def := resolve.DefaultSchemes()
	foo := def.With("FOO", resolve.Scheme{DefaultPort: "70", EmptyPathSlash: true})
	m := map[string]resolve.Scheme{"foo": {DefaultPort: "70"}}
	only := resolve.NewSchemes(m)
	m["foo"] = resolve.Scheme{DefaultPort: "71"} // NewSchemes copied m
	for _, tt := range []struct {
		name    string
		schemes resolve.Schemes
		want    string
	}{
		{"DefaultSchemes", def, "foo://a:0070"},
		{"With", foo, "foo://a/"},
		{"NewSchemes", only, "foo://a"},
		{"zero Schemes", resolve.Schemes{}, "foo://a:0070"},
	} {
		n := resolve.Normalizer{Steps: resolve.NormalizeDefault, Schemes: tt.schemes}
		if got, err := n.NormalizeString(in); got != tt.want || err != nil {
			t.Errorf("%s: NormalizeString(%q) = %q, %v; want %q", tt.name, in, got, err, tt.want)
		}
	}
	if got, _ := resolve.NormalizeString(in, resolve.NormalizeDefault); got != "foo://a:0070" {
		t.Errorf("after With: NormalizeString(%q, NormalizeDefault) = %q; the default table changed", in, got)
	}
	if got := resolve.DefaultSchemes().Names(); !slices.Equal(got, []string{"ftp", "http", "https", "ws", "wss"}) {
		t.Errorf("DefaultSchemes().Names() = %q", got)
	}
	if got := foo.Names(); !slices.Equal(got, []string{"foo", "ftp", "http", "https", "ws", "wss"}) {
		t.Errorf("With(FOO).Names() = %q", got)
	}
	// The zero Normalizer does nothing; its Equal is the simple comparison.
	var z resolve.Normalizer
	if got, _ := z.NormalizeString("HTTP://A:80/./b"); got != "HTTP://A:80/./b" {
		t.Errorf("Normalizer{}.NormalizeString = %q", got)
	}
	if eq, _ := z.EqualString("http://a", "HTTP://a"); eq {
		t.Error("Normalizer{}.EqualString(http://a, HTTP://a) = true")
	}
}

// TestConcurrentSchemes: normalizers share scheme tables while other
// goroutines build new ones from them. With the old mutable map, 8
// goroutines normalizing while one added a scheme died with "concurrent
// map read and map write"; under -race (which .ci/run uses) any shared
// write here is reported.
func TestConcurrentSchemes(t *testing.T) {
	u := mustParse(t, "HTTP://Example.COM:80")
	def := resolve.Normalizer{Steps: resolve.NormalizeDefault, Schemes: resolve.DefaultSchemes()}
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				if n, err := def.Normalize(u); err != nil || n.String() != "http://example.com/" {
					errs <- fmt.Sprintf("goroutine %d: Normalize = %v, %v", g, n, err)
					return
				}
				if n, _ := resolve.Normalize(u, resolve.NormalizeDefault); n.String() != "http://example.com/" {
					errs <- fmt.Sprintf("goroutine %d: package Normalize = %v", g, n)
					return
				}
				_ = i
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		s := def.Schemes
		for i := range 200 {
			s = s.With(fmt.Sprintf("s%d", i), resolve.Scheme{DefaultPort: "1"})
			mine := resolve.Normalizer{Steps: resolve.NormalizeDefault, Schemes: s}
			if n, _ := mine.NormalizeString(fmt.Sprintf("s%d://a:1", i)); n != fmt.Sprintf("s%d://a", i) {
				errs <- fmt.Sprintf("With: NormalizeString = %v", n)
				return
			}
		}
	}()
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestStepsString(t *testing.T) {
	for _, tt := range []struct {
		s    resolve.Steps
		want string
	}{
		{0, "0"},
		{resolve.NormalizeCase, "NormalizeCase"},
		{resolve.NormalizeSyntax, "NormalizeCase|NormalizePercent|NormalizeDotSegments"},
		{resolve.NormalizeDefault | resolve.NormalizeIPv6Canonical, "NormalizeCase|NormalizePercent|NormalizeDotSegments|NormalizeSchemeBased|NormalizeIPv6Canonical"},
		{resolve.NormalizePercent | 1<<7, "NormalizePercent|0x80"},
	} {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("Steps(%#x).String() = %q, want %q", uint(tt.s), got, tt.want)
		}
	}
}

func TestNormalizeStringError(t *testing.T) {
	_, err := resolve.NormalizeString("http://a b", resolve.NormalizeDefault)
	var e *resolve.ArgError
	var pe *parser.Error
	if !errors.As(err, &e) || e.Arg != "reference" || !errors.As(err, &pe) || pe.Offset != 8 {
		t.Errorf("NormalizeString(\"http://a b\") = %v, want a *resolve.ArgError for the reference wrapping the parse error at offset 8", err)
	}
}

// TestNormalizeLong: a normal form longer than the parser takes is an
// error that blames the result, not the input, and not a wrong value or a
// panic; Equal then holds between the URI and itself only.
func TestNormalizeLong(t *testing.T) {
	s := "http://" + strings.Repeat("a", parser.MaxLength-len("http://"))
	u := mustParse(t, s)
	_, err := resolve.Normalize(u, resolve.NormalizeDefault) // the empty path becomes "/"
	var e *resolve.ArgError
	var pe *parser.Error
	if !errors.As(err, &e) || e.Arg != "result" || !errors.Is(err, parser.ErrTooLong) || errors.As(err, &pe) {
		t.Fatalf("Normalize(%d bytes, NormalizeDefault) = %v, want an *ArgError for the result wrapping ErrTooLong", len(s), err)
	}
	if want := fmt.Sprintf("resolve: result: the normal form is %d bytes, longer than the %d a URI can have", parser.MaxLength+1, parser.MaxLength); !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error:\n\tgot  %s\n\twant %s…", err, want)
	}
	// Documented: such a URI is equal only to itself, even to one that
	// differs only in the case of its host.
	upper := mustParse(t, "http://"+strings.Repeat("A", parser.MaxLength-len("http://")))
	if resolve.Equal(u, upper, resolve.CompareScheme) {
		t.Errorf("Equal(%d bytes, its uppercase, CompareScheme) = true; normal forms that long cannot be written", len(s))
	}
	if n, err := resolve.Normalize(u, resolve.NormalizeSyntax); err != nil || n != u {
		t.Errorf("Normalize(%d bytes, NormalizeSyntax) = %v; want it unchanged", len(s), err)
	}
}

// TestNewSchemesCase: names are case-insensitive (§3.1); where a map
// spells one scheme several ways, the lower-case spelling's rules apply,
// or else those of the spelling that sorts last, whatever the map's order.
func TestNewSchemesCase(t *testing.T) {
	for range 50 { // a map's order changes from one range to the next
		s := resolve.NewSchemes(map[string]resolve.Scheme{"HTTP": {DefaultPort: "1"}, "http": {DefaultPort: "2"}, "Http": {DefaultPort: "3"},
			"FOO": {DefaultPort: "4"}, "Foo": {DefaultPort: "5"}})
		for name, want := range map[string]string{"http": "2", "HTTP": "2", "foo": "5", "fOO": "5"} {
			if sc, ok := s.Lookup(name); !ok || sc.DefaultPort != want {
				t.Fatalf("Lookup(%q) = %+v, %v; want the default port %s", name, sc, ok, want)
			}
		}
	}
}

// pctDotBases are the bases of TestNormalizePctDots: with an authority or
// a "/" in the path, where the package documentation promises that a
// normalized relative-path reference keeps its targets; "%2E" segments in
// one of them.
var pctDotBases = []string{"http://a/b/c/d;p?q", "http://a", "http://a/%2E/.%2E/c", "foo:a/b/c", "a:/b/c/d", "s://h//x//y"}

// TestNormalizePctDots: for references made of "a", ".", "/", "%2E" and
// "%2e" (relative-path references, and the same after "/", "//h/" and
// "x:/"), normalization keeps every target (§6.1: normalization preserves
// equivalence): Resolve(base, Normalize(ref)), normalized, is
// Normalize(Resolve(base, ref)), against every base of pctDotBases. §5.2.4
// removes only the complete segments "." and ".."; normalization, which
// decodes "%2E" (§6.2.2.2), must not make a dot segment of it ("%2E/.."
// normalized to "../" resolved to the base's parent, not its directory).
// The normal form parses back into itself and is a fixed point, and
// references with the same normal form (Equal at CompareSyntax) have the
// same targets: no false positive.
func TestNormalizePctDots(t *testing.T) {
	var bases []parser.URI
	for _, s := range pctDotBases {
		bases = append(bases, parser.MustParseReference(s))
	}
	r := rand.New(rand.NewPCG(5952, 3986))
	atoms := []string{"a", ".", "/", "%2E", "%2e"}
	refs := map[string]bool{}
	// Every sequence of up to four atoms, and 3,000 random ones of up to
	// ten.
	var all func(prefix string, n int)
	all = func(prefix string, n int) {
		refs[prefix] = true
		if n == 0 {
			return
		}
		for _, a := range atoms {
			all(prefix+a, n-1)
		}
	}
	all("", 4)
	for range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(10) {
			b.WriteString(atoms[r.IntN(len(atoms))])
		}
		refs[b.String()] = true
	}
	type seen struct{ ref, targets string }
	byNormal := map[string]seen{} // normal form → the first reference with it, and its targets
	for _, body := range slices.Sorted(maps.Keys(refs)) {
		for _, prefix := range []string{"", "/", "//h/", "x:/"} {
			ref, err := parser.ParseReference(prefix + body)
			if err != nil {
				continue // "a" then "//" with no authority, a ":"-less scheme
			}
			n, err := resolve.Normalize(ref, resolve.NormalizeSyntax)
			if err != nil {
				t.Fatalf("Normalize(%q): %v", ref, err)
			}
			if p, err := parser.ParseReference(n.String()); err != nil || p.String() != n.String() {
				t.Errorf("Normalize(%q) = %q, which does not parse back: %v", ref, n, err)
			}
			if nn, _ := resolve.Normalize(n, resolve.NormalizeSyntax); nn.String() != n.String() {
				t.Errorf("Normalize(%q) = %q, but Normalize(%q) = %q: not a fixed point", ref, n, n, nn)
			}
			if !resolve.Equal(ref, n, resolve.CompareSyntax) {
				t.Errorf("Equal(%q, its normal form %q, CompareSyntax) = false", ref, n)
			}
			var targets []string
			for _, base := range bases {
				want, err1 := resolve.Resolve(base, ref, resolve.Strict)
				got, err2 := resolve.Resolve(base, n, resolve.Strict)
				if err1 != nil || err2 != nil {
					t.Fatalf("Resolve(%q, %q): %v; Resolve(%q, %q): %v", base, ref, err1, base, n, err2)
				}
				want, _ = resolve.Normalize(want, resolve.NormalizeSyntax)
				got, _ = resolve.Normalize(got, resolve.NormalizeSyntax)
				if diff := cmp.Diff(want.String(), got.String()); diff != "" {
					t.Errorf("against %q, %q resolves to %q, its normal form %q to %q (-ref +normal form):\n%s", base, ref, want, n, got, diff)
				}
				targets = append(targets, want.String())
			}
			ts := strings.Join(targets, " ")
			if first, ok := byNormal[n.String()]; !ok {
				byNormal[n.String()] = seen{ref.String(), ts}
			} else if first.targets != ts {
				t.Errorf("Equal(%q, %q, CompareSyntax) (normal form %q), but their targets differ:\n%s\n%s", first.ref, ref, n, first.targets, ts)
			}
		}
	}
}

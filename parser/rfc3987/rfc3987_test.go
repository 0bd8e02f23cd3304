package rfc3987_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/grammar"
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc3987"
	"github.com/peguri/rfc3986/resolve"
	"github.com/peguri/rfc3986/syntaxtest"
)

func layered(t testing.TB) *abnf.Grammar {
	g, err := grammar.Read([]string{"rfc3986", "rfc3987"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestDifferential: matcher, pigeon and DFA agree on samples of every rule
// of the layered grammar. The sampler draws ucschar and iprivate code
// points from their ranges, so the IRI rules get Unicode samples (and
// near-misses with invalid UTF-8, KELVIN SIGN, controls).
func TestDifferential(t *testing.T) {
	per := 40000
	if testing.Short() {
		per = 4000
	}
	n := syntaxtest.Run(t, syntaxtest.Config{Grammar: []string{"rfc3986", "rfc3987"}, Parser: rfc3987.Parser(), PerURI: per, PerRule: 2000, Seed: 3987})
	t.Logf("%d inputs", n)
}

var iriTests = []struct {
	in       string
	iri, uri bool // valid as IRI-reference; as RFC 3986 URI-reference
	host     string
	why      string
}{
	{"http://例え.jp/パス?q=値#断片", true, false, "例え.jp", "ucschar in host, path, query, fragment"},
	{"http://xn--r8jz45g.jp/", true, true, "xn--r8jz45g.jp", "ASCII: both"},
	{"http://a/?\ue000", true, false, "a", "iprivate is allowed in the query"},
	{"http://a/\ue000", false, false, "", "iprivate is not allowed in the path (§2.2)"},
	{"http://a/#\ue000", false, false, "", "nor in the fragment"},
	{"http://\ue000/", false, false, "", "nor in the host"},
	{"http://a/\u00a0", true, false, "a", "U+00A0, the first ucschar"},
	{"http://a/\u009f", false, false, "", "U+009F is a C1 control, not ucschar"},
	{"http://a/\ufffd", false, false, "", "U+FFFD is not in ucschar (FDF0-FFEF)"},
	{"http://a/\U0001f363", true, false, "a", "a supplementary-plane ucschar"},
	{"http://a/\U000e0001", false, false, "", "U+E0001 is below E1000: not ucschar"},
	{"http://a/\xff", false, false, "", "invalid UTF-8"},
	{"http://[::1]/ü", true, false, "[::1]", "IP literals stay ASCII"},
	{"http://1.2.3.4/", true, true, "1.2.3.4", "IPv4"},
}

func TestIRIs(t *testing.T) {
	for _, tt := range iriTests {
		u, err := rfc3987.Parser().Parse("IRI-reference", tt.in)
		if (err == nil) != tt.iri {
			t.Errorf("IRI-reference %q: %v, want ok=%v (%s)", tt.in, err, tt.iri, tt.why)
			continue
		}
		if _, err := parser.ParseReference(tt.in); (err == nil) != tt.uri {
			t.Errorf("URI-reference %q: %v, want ok=%v (%s)", tt.in, err, tt.uri, tt.why)
		}
		if _, err := rfc3987.Parser().Parse("URI-reference", tt.in); (err == nil) != tt.uri {
			t.Errorf("rfc3987's URI-reference %q: %v, want ok=%v", tt.in, err, tt.uri)
		}
		if tt.iri && u.Host() != tt.host {
			t.Errorf("%q: host %q, want %q", tt.in, u.Host(), tt.host)
		}
	}
}

// toURITests: RFC 3987 §3.1 mapping; the first three are iri-string's
// (testdata/conformance/iri-string.jsonl, kind iri_to_uri).
var toURITests = []struct{ in, want string }{
	{"?alpha=α", "?alpha=%CE%B1"},
	{"?katakana-letter-i=イ", "?katakana-letter-i=%E3%82%A4"},
	{"?sushi=🍣", "?sushi=%F0%9F%8D%A3"},
	{"http://Bü:ẞ@gOoGle.com", "http://B%C3%BC:%E1%BA%9E@gOoGle.com"},
	{"http://例え.jp/パス", "http://%E4%BE%8B%E3%81%88.jp/%E3%83%91%E3%82%B9"},
	{"http://a/?\ue000", "http://a/?%EE%80%80"},
	{"http://a/%41", "http://a/%41"},
}

func TestToURI(t *testing.T) {
	for _, tt := range toURITests {
		u, err := rfc3987.ToURI(tt.in)
		if err != nil || u.String() != tt.want {
			t.Errorf("ToURI(%q) = %v, %v; want %q", tt.in, u, err, tt.want)
		}
	}
	if _, err := rfc3987.ToURI("http://a/\ue000"); err == nil {
		t.Error("ToURI accepted iprivate in a path")
	}
	// Every IRI sample maps to a valid URI reference.
	g := layered(t)
	s := abnf.NewSampler(g, 1)
	for range 2000 {
		in, _ := s.Sample("IRI-reference")
		if _, err := rfc3987.ToURI(string(in)); err != nil {
			t.Errorf("ToURI(%q): %v", in, err)
		}
	}
}

// TestToURIResultTooLong: a valid IRI whose URI is one byte past
// parser.MaxLength gets a *ResultError, which wraps parser.ErrTooLong and
// is no parse error of the IRI (it was one, at an offset past the IRI's
// end); one byte shorter maps.
func TestToURIResultTooLong(t *testing.T) {
	if testing.Short() {
		t.Skip("maps a 16 MiB URI")
	}
	// "/" + n × "é" (2 bytes, 6 in the URI) + m × "a".
	n := (parser.MaxLength - 1) / 6
	m := parser.MaxLength - 1 - 6*n
	iri := "/" + strings.Repeat("é", n) + strings.Repeat("a", m)
	u, err := rfc3987.ToURI(iri)
	if err != nil || len(u.String()) != parser.MaxLength {
		t.Fatalf("ToURI of a URI of exactly MaxLength bytes: %d bytes, %v", len(u.String()), err)
	}
	_, err = rfc3987.ToURI(iri + "a")
	var re *rfc3987.ResultError
	var pe *parser.Error
	if !errors.As(err, &re) || re.Len != parser.MaxLength+1 || !errors.Is(err, parser.ErrTooLong) || errors.As(err, &pe) {
		t.Fatalf("ToURI one byte too long: %v (%T)", err, err)
	}
	want := fmt.Sprintf("rfc3987: the URI is %d bytes, longer than the %d a URI can have", parser.MaxLength+1, parser.MaxLength)
	if err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

// fromURITests: RFC 3987 §3.2's conversion of URIs to IRIs; the first
// three rows are its own examples (§3.2.1).
var fromURITests = []struct{ in, want, why string }{
	{"http://www.example.org/D%C3%BCrst", "http://www.example.org/Dürst", "§3.2.1: UTF-8 of an allowed character"},
	{"http://www.example.org/D%FCrst", "http://www.example.org/D%FCrst", "§3.2.1: not UTF-8 (step 3)"},
	{"http://xn--99zt52a.example.org/%e2%80%ae", "http://xn--99zt52a.example.org/%e2%80%ae", "§3.2.1, §4.1: U+202E is a bidirectional formatting character (step 4)"},
	{"http://a/%7E%41b%2F%3A%25", "http://a/~Ab%2F%3A%25", "§3.2 step 2: unreserved decoded; reserved and % kept"},
	{"http://a/%EE%80%80?%EE%80%80", "http://a/%EE%80%80?\ue000", "§2.2: iprivate only in the query"},
	{"http://%E4%BE%8B.jp/", "http://例.jp/", "§3.2: ireg-name"},
	{"http://a/%C3", "http://a/%C3", "step 3: a truncated sequence"},
	{"%E5%BC%95%E3%81%8D?q=%E2%82%AC#%F0%9F%98%80", "引き?q=€#😀", "a relative reference"},
	{"http://[::1]/%20", "http://[::1]/%20", "a space is no IRI character"},
	{"http://a/b/%2E%2E/c", "http://a/b/%2E%2E/c", "RFC 3986 §5.2.4: decoded, the segment would be a dot segment, which resolution removes"},
	{"x:%2e", "x:%2e", "the same, one dot, as written"},
	{"%2E./%2E%41/%2E%2E%2E/.", "%2E./.A/.../.", "a segment that decodes to more than two dots, or to a dot and more, is decoded; a literal dot segment stays"},
}

func TestFromURI(t *testing.T) {
	for _, tt := range fromURITests {
		got, err := rfc3987.FromURI(tt.in)
		if err != nil || got.String() != tt.want {
			t.Errorf("FromURI(%q) = %q, %v; want %q (%s)", tt.in, got, err, tt.want, tt.why)
			continue
		}
		if got.Parser() != rfc3987.Parser() {
			t.Errorf("FromURI(%q): the URI of %s, want rfc3987", tt.in, got.Parser().Name())
		}
	}
	if _, err := rfc3987.FromURI("http://é/"); err == nil {
		t.Error("FromURI(an IRI): no error; it takes URIs")
	}
}

// FuzzFromURI: FromURI's result is an IRI that ToURI maps back to the URI
// given, up to what §3.2 allows: the case of hexadecimal digits, and
// unreserved characters decoded.
func FuzzFromURI(f *testing.F) {
	for _, tt := range fromURITests {
		f.Add(tt.in)
	}
	f.Add("http://a/b/%2E%2E/c/d")
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := parser.ParseReference(s); err != nil {
			return
		}
		iri, err := rfc3987.FromURI(s)
		if err != nil {
			t.Fatalf("FromURI(%q): %v", s, err)
		}
		back, err := rfc3987.ToURI(iri.String())
		if err != nil {
			t.Fatalf("ToURI(FromURI(%q) = %q): %v", s, iri, err)
		}
		a, _ := resolve.NormalizeString(s, resolve.NormalizeCase|resolve.NormalizePercent)
		b, _ := resolve.NormalizeString(back.String(), resolve.NormalizeCase|resolve.NormalizePercent)
		if a != b {
			t.Fatalf("FromURI(%q) = %q, back %q: %q ≠ %q", s, iri, back, a, b)
		}
		// Equivalent (§3.2): a reference resolves against both to the
		// same target.
		u := parser.MustParseReference(s)
		if !u.HasScheme() {
			return
		}
		ref := parser.MustParseReference("x")
		t1, err1 := resolve.Resolve(u, ref, resolve.Strict)
		t2, err2 := resolve.Resolve(iri, ref, resolve.Strict)
		if err1 != nil || err2 != nil {
			t.Fatalf("resolving x against %q and %q: %v, %v", s, iri, err1, err2)
		}
		t2u, err := rfc3987.ToURI(t2.String())
		if err != nil {
			t.Fatalf("ToURI(%q): %v", t2, err)
		}
		a, _ = resolve.NormalizeString(t1.String(), resolve.NormalizeCase|resolve.NormalizePercent)
		b, _ = resolve.NormalizeString(t2u.String(), resolve.NormalizeCase|resolve.NormalizePercent)
		if a != b {
			t.Fatalf("x against %q is %q, against its IRI %q is %q", s, t1, iri, t2)
		}
	})
}

// charErrorTests: an IRI that fails on a character the grammar does not
// take fails at the character, not inside its UTF-8 bytes (RFC 3987's
// grammar is over code points, §2.2; the DFA reads their bytes, and
// U+FFFE's first two begin valid characters). Where the bytes are no
// character at all, the error says invalid UTF-8, at the first of them.
var charErrorTests = []struct {
	rule, in string
	off      int
	found    string // in the message
}{
	{"IRI-reference", "http://a/\ufffe", 9, `U+FFFE`},
	{"IRI-reference", "http://a/x\U0001fffe", 10, `U+1FFFE`},
	{"IRI-reference", "http://a#\U000e0001", 9, `U+E0001`},
	{"IRI-reference", "http://a/\ue000", 9, `U+E000`},              // iprivate, not in a path
	{"IRI-reference", "http://a/\xed\xa0\x80", 9, `invalid UTF-8`}, // a surrogate's encoding
	{"IRI-reference", "http://a/é\xc3", 11, `invalid UTF-8`},       // cut short by the end
	{"IRI-reference", "http://a/é\xe4\xbd", 11, `invalid UTF-8`},
	{"IRI-reference", "http://a/\xff", 9, `invalid UTF-8`},
	{"IRI-reference", "http://a/b c", 10, `" "`},
	{"isegment", "\ufffe", 0, `U+FFFE`},
	{"isegment", "é\ufffe", 2, `U+FFFE`},
}

func TestErrorAtCharacter(t *testing.T) {
	p := rfc3987.Parser()
	for _, tt := range charErrorTests {
		errs := map[string]error{"Validate": p.Validate(tt.rule, tt.in)}
		_, errs["ParseRule"] = p.ParseRule(tt.rule, tt.in)
		if p.IsURIRule(tt.rule) {
			_, errs["Parse"] = p.Parse(tt.rule, tt.in)
		}
		// Pigeon's parser reads code points: its error is the reference.
		_, errs["ParsePEG"] = p.ParsePEG(tt.rule, tt.in)
		for via, err := range errs {
			e, ok := err.(*parser.Error)
			if !ok {
				t.Errorf("%s(%s, %q) = %v, want a *parser.Error", via, tt.rule, tt.in, err)
				continue
			}
			if e.Offset != tt.off || !strings.Contains(e.Error(), tt.found) {
				t.Errorf("%s(%s, %q): offset %d, %v; want offset %d, a message with %s", via, tt.rule, tt.in, e.Offset, e, tt.off, tt.found)
			}
		}
	}
}

// TestBidiEncoded: §4.1, "IRIs MUST NOT contain bidirectional formatting
// characters" (U+200E, U+200F, U+202A to U+202E); ucschar holds them, so
// the parser takes them, but what this package writes has them encoded.
func TestBidiEncoded(t *testing.T) {
	p := rfc3987.Parser()
	u, err := p.Builder().Scheme("http").Host("h\u200e").Path("\u202e", "é").Query("k", "\u200f").Fragment("\u202a").Build()
	if err != nil {
		t.Fatal(err)
	}
	if want := "http://h%E2%80%8E/%E2%80%AE/é?k=%E2%80%8F#%E2%80%AA"; u.String() != want {
		t.Errorf("builder: %q, want %q", u, want)
	}
	for c, want := range map[parser.Component]string{parser.Segment: "a%E2%80%AEbé", parser.Fragment: "a%E2%80%AEbé"} {
		if got, err := p.Encode(c, "a\u202ebé"); err != nil || got != want {
			t.Errorf("Encode(%v) = %q, %v; want %q", c, got, err, want)
		}
		if got, err := p.Escape(c, "a\u202ebé%41"); err != nil || got != want+"%41" {
			t.Errorf("Escape(%v) = %q, %v; want %q", c, got, err, want+"%41")
		}
	}
	if _, err := p.Parse("", "http://h/\u202e"); err != nil {
		t.Errorf("the parser follows the grammar, which allows them: %v", err)
	}
}

// TestToURL: an IRI becomes the URL of the URI it maps to (§3.1): its
// String is ToURI's, component by component.
func TestToURL(t *testing.T) {
	for _, tt := range iriTests {
		if !tt.iri {
			continue
		}
		u, err := rfc3987.Parser().Parse("", tt.in)
		if err != nil {
			t.Fatal(err)
		}
		want, err := rfc3987.ToURI(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := parser.ToURL(u).String(); got != want.String() {
			t.Errorf("ToURL(%q).String() = %q, want ToURI's %q", tt.in, got, want)
		}
	}
	for _, in := range []string{"mailto:é@example.org", "urn:x:ü?é=ü", "http://h/a%2Fb/é#é%41", "//h/é%2F?%2F#%2F"} {
		u, err := rfc3987.Parser().Parse("", in)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := rfc3987.ToURI(in)
		if got := parser.ToURL(u).String(); got != want.String() {
			t.Errorf("ToURL(%q).String() = %q, want ToURI's %q", in, got, want)
		}
	}
}

// TestTextRoundTrip: MarshalText's text of an IRI reads back, with
// UnmarshalText and Set, into a URI of the IRI's grammar: into a field
// that already holds one (encoding/json unmarshals into it), not into a
// zero URI, which is RFC 3986's (it read every text as RFC 3986 before).
func TestTextRoundTrip(t *testing.T) {
	iri, err := rfc3987.Parser().Parse("", "http://é.example/ü?ä#ö")
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(struct{ U parser.URI }{iri})
	if err != nil {
		t.Fatal(err)
	}
	empty, err := rfc3987.Parser().Parse("", "")
	if err != nil {
		t.Fatal(err)
	}
	v := struct{ U parser.URI }{empty}
	if err := json.Unmarshal(b, &v); err != nil || v.U != iri {
		t.Errorf("into an IRI field: %v, %v; want %v", v.U, err, iri)
	}
	var zero struct{ U parser.URI }
	if err := json.Unmarshal(b, &zero); err == nil {
		t.Errorf("into a zero (RFC 3986) field: %v, want an error", zero.U)
	}
	// Set keeps the grammar, and the URI on failure.
	u := empty
	if err := u.Set("ü/ä"); err != nil || u.Parser() != rfc3987.Parser() || u.Path() != "ü/ä" {
		t.Errorf("Set on an IRI: %v, %v", u, err)
	}
	if err := u.Set("a b"); err == nil || u.String() != "ü/ä" {
		t.Errorf("Set(invalid) on an IRI: %v, %v", u, err)
	}
	// An RFC 3986 URI stays one: no IRI is read into it.
	r := parser.MustParseReference("a")
	if err := r.Set("ü"); err == nil || r.String() != "a" || r.Parser() != parser.RFC3986() {
		t.Errorf("Set of an IRI on an RFC 3986 URI: %v, %v", r, err)
	}
}

// TestEveryRuleHasADFA: every rule validates with its DFA, whose errors
// name a rule and whose only limit is MaxLength; a rule decided by pigeon
// alone had MaxTreeLength's, and uri parse -rule ipath-abempty called a
// valid path of 70,001 bytes invalid.
func TestEveryRuleHasADFA(t *testing.T) {
	long := "/" + strings.Repeat("é", parser.MaxTreeLength)
	if err := rfc3987.Parser().Validate("ipath-abempty", long); err != nil {
		t.Errorf("Validate(ipath-abempty, %d bytes): %v", len(long), err)
	}
	for _, rule := range rfc3987.Parser().Rules() {
		var e *parser.Error
		err := rfc3987.Parser().Validate(rule, strings.Repeat(" ", parser.MaxTreeLength+1))
		if !errors.As(err, &e) || errors.Is(err, parser.ErrTooLong) || e.Innermost == "" {
			t.Errorf("Validate(%s, %d spaces) = %v; want the DFA's error", rule, parser.MaxTreeLength+1, err)
		}
	}
}

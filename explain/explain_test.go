package explain_test

import (
	"errors"
	"slices"

	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/explain"
	"github.com/peguri/rfc3986/grammar"
	"github.com/peguri/rfc3986/parser"
)

func mustNew(t testing.TB, name string) *explain.Explainer {
	t.Helper()
	x, err := explain.New(name)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// failureTests pin the rule each failure names, with the chain around it.
var failureTests = []struct {
	grammar, rule, in string
	off               int
	failing           string
	chain             string
}{
	// §3.2.2: an IPv6address's last 32 bits may be an IPv4address, which
	// has four dec-octets; a fifth "." fails IPv4address.
	{"rfc3986", "", "http://[::1.2.3.4.5]/", 17, "IPv4address", "URI-reference URI hier-part authority host IP-literal IPv6address ls32"},
	// A space is in no rule: the host's reg-name could not go on.
	{"rfc3986", "", "http://a b/", 8, "reg-name", "URI-reference URI hier-part authority host"},
	// §2.1: "%" must be followed by two hexadecimal digits.
	{"rfc3986", "", "http://a/b%zz", 11, "pct-encoded", "URI-reference URI hier-part path-abempty segment pchar"},
	// The port is digits (§3.2.3); "x" could still be userinfo, so the
	// input fails at the "/" that ends the authority without an "@".
	{"rfc3986", "", "http://a:8x/", 11, "userinfo", "URI-reference URI hier-part authority"},
	// At the end of the input, the unfinished rule: "a:8x" is userinfo
	// awaiting its "@".
	{"rfc3986", "authority", "a:8x", 4, "authority", ""},
	{"rfc3986", "", "http://[::1", 11, "IP-literal", "URI-reference URI hier-part authority host"},
	// A zone identifier is RFC 6874's; RFC 3986 has none. The "1" could
	// be an h16 or the first dec-octet of an IPv4address in ls32: the "%"
	// continues neither, and IPv6address holds both readings.
	{"rfc3986", "", "http://[fe80::1%25eth0]/", 15, "IPv6address", "URI-reference URI hier-part authority host IP-literal"},
	// The same kind: "x" continues neither an h16 nor a dec-octet.
	{"rfc3986", "", "http://[::1x]/", 11, "IPv6address", "URI-reference URI hier-part authority host IP-literal"},
	{"rfc3986", "", "http://[1:2:3:4:5:6:7x]/", 21, "IPv6address", "URI-reference URI hier-part authority host IP-literal"},
	{"rfc3986", "", "//[2001:db8::0:0:0:0x1]", 20, "IPv6address", "URI-reference relative-ref relative-part authority host IP-literal"},
	// After "1.", only an IPv4address: its dec-octet could not continue.
	{"rfc3986", "", "http://[::ffff:1.2.3x]/", 20, "dec-octet", "URI-reference URI hier-part authority host IP-literal IPv6address ls32 IPv4address"},
	// §2.1: "%4" is the middle of a pct-encoded; authority writes "@" and
	// ":", and path-abempty "/", but none could read them here.
	{"rfc3986", "", "http://u%4@h/", 10, "pct-encoded", "URI-reference URI hier-part authority host reg-name"},
	{"rfc3986", "", "http://u%4:p@h/", 10, "pct-encoded", "URI-reference URI hier-part authority host reg-name"},
	{"rfc3986", "path", "/%/", 2, "pct-encoded", "path path-abempty segment pchar"},
	{"rfc3986", "path", "%:B", 1, "pct-encoded", "path path-rootless segment-nz pchar"},
	// RFC 6874 §2: the "%" of a zone is written "%25".
	{"rfc6874", "", "http://[fe80::1%eth0]/", 16, "IPv6addrz", "URI-reference URI hier-part authority host IP-literal"},
	// The empty input fails at once: the start rule could not begin.
	{"rfc3986", "URI", "", 0, "URI", ""},
	{"rfc3986", "IPv4address", "1.2.3", 5, "IPv4address", ""},
	// RFC 3987: a space is not an IRI character either.
	{"rfc3987", "", "http://例 え/", 10, "ireg-name", "IRI-reference IRI ihier-part iauthority ihost"},
}

func TestFailures(t *testing.T) {
	for _, tc := range failureTests {
		x := mustNew(t, tc.grammar)
		// The parser's DFA tables name the same rule.
		rule := tc.rule
		if rule == "" {
			rule = map[string]string{"rfc3986": "URI-reference", "rfc6874": "URI-reference", "rfc3987": "IRI-reference"}[tc.grammar]
		}
		checkAgrees(t, x, x.Parser(), rule, tc.in)
		ex, err := x.Explain(tc.rule, tc.in)
		if err != nil {
			t.Errorf("%s: Explain(%q, %q): %v", tc.grammar, tc.rule, tc.in, err)
			continue
		}
		if ex.Valid || ex.Failure == nil {
			t.Errorf("%s: Explain(%q, %q): valid, want a failure", tc.grammar, tc.rule, tc.in)
			continue
		}
		f := ex.Failure
		var chain []string
		for _, r := range f.Chain {
			chain = append(chain, r.Rule)
		}
		got := []any{f.Offset, f.Rule, strings.Join(chain, " ")}
		want := []any{tc.off, tc.failing, tc.chain}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: Explain(%q, %q): offset, rule, chain (-want +got):\n%s", tc.grammar, tc.rule, tc.in, diff)
		}
		// The ABNF text is the rule's line of its grammar file.
		text, _ := x.ABNF(f.Rule)
		if f.ABNF != text || !strings.Contains(f.ABNF, f.Rule) || !strings.Contains(f.ABNF, "=") {
			t.Errorf("%s: Explain(%q): ABNF %q", tc.grammar, tc.in, f.ABNF)
		}
	}
}

// TestABNFText: the text of every rule of Appendix A is the line of
// grammar/rfc3986.abnf that defines it.
func TestABNFText(t *testing.T) {
	x := mustNew(t, "rfc3986")
	src := string(grammar.RFC3986())
	g, err := grammar.Read([]string{"rfc3986"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range g.Rules {
		if r.Core {
			continue
		}
		text, where := x.ABNF(r.Name)
		if !strings.Contains(src, text) || !strings.HasPrefix(where, grammar.RFC3986Name+":") {
			t.Errorf("ABNF(%q) = %q at %s: not in %s", r.Name, text, where, grammar.RFC3986Name)
		}
	}
	// RFC 6874 replaces IP-literal: its text is the override's.
	text, where := mustNew(t, "rfc6874").ABNF("IP-literal")
	if !strings.Contains(text, "IPv6addrz") || !strings.HasPrefix(where, grammar.RFC6874Name) {
		t.Errorf("rfc6874: ABNF(IP-literal) = %q at %s, want RFC 6874's", text, where)
	}
}

// TestHosts: §3.2.2's reasons for each host kind.
func TestHosts(t *testing.T) {
	for _, tc := range []struct{ in, kind, reason string }{
		{"http://1.2.3.4/", "ipv4", "matches IPv4address"},
		{"http://1.2.3.4.5/", "regname", "at offset 7 of the host"},
		{"http://256.1.1.1/", "regname", "at offset 2 of the host"},
		{"http://01.2.3.4/", "regname", "at offset 1 of the host"},
		{"http://[::1]/", "ipv6", "IPv6address"},
		{"http://[v7.x]/", "ipvfuture", "IPvFuture"},
		{"file:///x", "regname", "the host is empty"},
	} {
		ex, err := mustNew(t, "rfc3986").Explain("", tc.in)
		if err != nil || !ex.Valid || len(ex.Hosts) != 1 {
			t.Errorf("Explain(%q) = %+v, %v; want one host", tc.in, ex, err)
			continue
		}
		h := ex.Hosts[0]
		u, _ := parser.ParseReference(tc.in)
		if h.Kind != tc.kind || h.Kind != u.HostKind().String() || !strings.Contains(h.Reason, tc.reason) || h.Text != u.Host() {
			t.Errorf("Explain(%q): host %+v; want kind %s (the parser's %s), a reason with %q", tc.in, h, tc.kind, u.HostKind(), tc.reason)
		}
	}
}

// TestAgreesWithParser runs the explainer's ABNF simulation and the
// generated parser on samples and near-misses of every URI rule: the same
// verdicts, and the failure at the offset of the DFA's error (the length
// of the longest prefix that some valid input begins with).
func TestAgreesWithParser(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 100
	}
	for _, gr := range []struct {
		name    string
		sources []string
		rules   []string
	}{
		{"rfc3986", []string{"rfc3986"}, []string{"URI-reference", "URI", "absolute-URI", "relative-ref", "host", "IPv6address"}},
		{"rfc6874", []string{"rfc3986", "rfc6874"}, []string{"URI-reference"}},
		{"rfc3987", []string{"rfc3986", "rfc3987"}, []string{"IRI-reference"}},
	} {
		x := mustNew(t, gr.name)
		g, err := grammar.Read(gr.sources, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := abnf.NewSampler(g, 12)
		quick := x.Parser()
		for _, rule := range gr.rules {
			for i := range 2 * n {
				var b []byte
				if i%2 == 0 {
					b, err = s.Sample(rule)
				} else {
					b, err = s.NearMiss(rule)
				}
				if err != nil {
					t.Fatal(err)
				}
				checkAgrees(t, x, quick, rule, string(b))
			}
		}
	}
}

func checkAgrees(t testing.TB, x *explain.Explainer, quick *parser.Parser, rule, in string) {
	t.Helper()
	ex, err := x.Explain(rule, in)
	if err != nil {
		if errors.Is(err, parser.ErrTooLong) {
			return
		}
		t.Errorf("Explain(%q, %q): %v", rule, in, err)
		return
	}
	verr := quick.Validate(rule, in)
	if ex.Valid != (verr == nil) {
		t.Errorf("Explain(%q, %q): valid %v, the parser says %v", rule, in, ex.Valid, verr)
		return
	}
	// The DFA reads bytes: in a character of several bytes (RFC 3987's
	// ucschar), it fails at the first byte no valid input continues with,
	// where the explainer, which reads characters, fails at the character.
	var pe *parser.Error
	if errors.As(verr, &pe) && pe.Err == nil {
		f := ex.Failure
		_, size := utf8.DecodeRuneInString(in[f.Offset:])
		if pe.Offset != f.Offset && (pe.Offset < f.Offset || pe.Offset >= f.Offset+size) {
			t.Errorf("Explain(%q, %q): failure at %d, the DFA's at %d", rule, in, f.Offset, pe.Offset)
		}
		// The DFA's error tables say what the grammar says, wherever the
		// input stops (gen dfa diagnoses each state once).
		if pe.Offset == f.Offset && (pe.Innermost != f.Rule || !slices.Equal(pe.Expected, f.Next)) {
			t.Errorf("Explain(%q, %q): %s could not continue at %d, expected %q; the DFA says %s, expected %q",
				rule, in, f.Rule, f.Offset, f.Next, pe.Innermost, pe.Expected)
		}
	}
}

func TestErrors(t *testing.T) {
	if _, err := explain.New("rfc9999"); err == nil {
		t.Error("New(rfc9999): no error")
	}
	x := mustNew(t, "rfc3986")
	if _, err := x.Explain("no-such-rule", "a"); !errors.Is(err, parser.ErrUnknownRule) {
		t.Errorf("Explain(no-such-rule): %v, want ErrUnknownRule", err)
	}
	if _, err := x.Explain("", strings.Repeat("a", parser.MaxTreeLength+1)); !errors.Is(err, parser.ErrTooLong) {
		t.Errorf("Explain(a long input): %v, want ErrTooLong", err)
	}
	// Invalid UTF-8 stops the analysis where it stands.
	ex, err := x.Explain("", "http://a/\xff")
	if err != nil || ex.Valid || ex.Failure.Offset != 9 {
		t.Errorf("Explain(invalid UTF-8) = %+v, %v; want a failure at 9", ex, err)
	}
}

func FuzzExplain(f *testing.F) {
	for _, tc := range failureTests {
		f.Add(tc.in)
	}
	for _, s := range []string{"http://1.2.3.4/", "//[v1.x]", "a:b?c#d", "", "%", "[::]"} {
		f.Add(s)
	}
	x, err := explain.New("rfc3986")
	if err != nil {
		f.Fatal(err)
	}
	quick := x.Parser()
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > 1000 {
			return
		}
		checkAgrees(t, x, quick, "URI-reference", in)
	})
}

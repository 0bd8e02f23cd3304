package parser_test

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/peguri/rfc3986/abnf"
	abnfsrc "github.com/peguri/rfc3986/grammar"
	"github.com/peguri/rfc3986/parser"
)

// The generated parser is checked against the exact ABNF matcher of
// package abnf, which reads grammar/rfc3986.abnf itself: the two must agree on
// every input, for every rule.

var oracle = sync.OnceValues(func() (*abnf.Matcher, error) {
	g, err := appendixA()
	if err != nil {
		return nil, err
	}
	return abnf.NewMatcher(g)
})

func appendixA() (*abnf.Grammar, error) {
	return abnf.Read([]abnf.Source{{Name: abnfsrc.RFC3986Name, Text: abnfsrc.RFC3986()}}, nil)
}

func match(t testing.TB, rule string, in []byte) bool {
	t.Helper()
	m, err := oracle()
	if err != nil {
		t.Fatal(err)
	}
	ok, err := m.Match(rule, in)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// appendixB is RFC 3986 Appendix B's regular expression. It splits any
// string, valid or not, into the five components; for a valid URI
// reference its split must be the parser's.
var appendixB = regexp.MustCompile(`^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?$`)

func checkAppendixB(t *testing.T, in string, u parser.URI) {
	m := appendixB.FindStringSubmatchIndex(in)
	part := func(i int) (string, bool) {
		if m[2*i] < 0 {
			return "", false
		}
		return in[m[2*i]:m[2*i+1]], true
	}
	scheme, hasScheme := part(2)
	auth, hasAuth := part(4)
	path, _ := part(5)
	query, hasQuery := part(7)
	frag, hasFrag := part(9)
	got := fmt.Sprintf("%q %v %q %v %q %q %v %q %v", u.Scheme(), u.HasScheme(), u.Authority(), u.HasAuthority(), u.Path(), u.Query(), u.HasQuery(), u.Fragment(), u.HasFragment())
	want := fmt.Sprintf("%q %v %q %v %q %q %v %q %v", scheme, hasScheme, auth, hasAuth, path, query, hasQuery, frag, hasFrag)
	if got != want {
		t.Errorf("%q: parser splits %s, Appendix B splits %s", in, got, want)
	}
}

// TestDifferential runs samples and near-misses of every rule of Appendix A
// (each one a start rule) through the three implementations: the exact
// matcher, the pigeon parser (ParsePEG) and the rule's DFA. The four URI
// rules get 40,000 inputs each, 200,000 with RFC3986_FULL=1 (as .ci/run
// sets it), a tenth of that with -short; the others 6,000. For the URI
// rules it also checks that the fast path's typed URI is the pigeon path's,
// that both split as Appendix B does, recomposition, and that the DFA and
// pigeon place errors at the same offset.
func TestDifferential(t *testing.T) {
	g, err := appendixA()
	if err != nil {
		t.Fatal(err)
	}
	var total, valid atomic.Int64
	for _, r := range g.Rules {
		t.Run(r.Name, func(t *testing.T) {
			t.Parallel()
			per := 6000
			uriRule := slices.Contains(parser.URIRules(), r.Name)
			if uriRule {
				per = perURIRule()
			}
			if testing.Short() {
				per /= 10
			}
			s := abnf.NewSampler(g, 20261202)
			bad := 0
			for i := range per {
				var in []byte
				var err error
				if i%2 == 0 {
					in, err = s.Sample(r.Name)
				} else {
					in, err = s.NearMiss(r.Name)
				}
				if err != nil {
					t.Fatal(err)
				}
				want := match(t, r.Name, in)
				tree, perr := parser.RFC3986().ParsePEG(r.Name, string(in))
				dok, dfail := parser.DFARun(r.Name, string(in))
				total.Add(1)
				if want {
					valid.Add(1)
				}
				if (perr == nil) != want || dok != want {
					bad++
					if bad <= 5 {
						t.Errorf("%s %q: matcher %v, pigeon %v, DFA %v", r.Name, in, want, perr, dok)
					}
					continue
				}
				if !want {
					// The DFA fails at the first byte no valid input has
					// there; pigeon reports the start of the terminal it
					// could not match, which for a multi-character literal
					// ("::", "//") is up to one byte earlier.
					if pe, ok := perr.(*parser.Error); ok && pe.Msg == "" && (pe.Offset > dfail || dfail-pe.Offset > 1) {
						t.Errorf("%s %q: pigeon fails at offset %d, the DFA at %d", r.Name, in, pe.Offset, dfail)
					}
					continue
				}
				if !uriRule {
					continue
				}
				fast, err := parser.ParseAs(r.Name, string(in))
				if err != nil {
					t.Fatalf("%s %q: fast path: %v", r.Name, in, err)
				}
				slow := parser.FromTree(string(in), tree)
				if fast != slow {
					t.Errorf("%s %q: fast path %+v (%v), pigeon path %+v (%v)", r.Name, in, fast.Parts(), fast.HostKind(), slow.Parts(), slow.HostKind())
				}
				if fast.String() != string(in) {
					t.Errorf("%q: String() = %q", in, fast.String())
				}
				checkAppendixB(t, string(in), fast)
			}
			if bad > 0 {
				t.Errorf("%s: %d disagreements in %d inputs", r.Name, bad, per)
			}
		})
	}
	t.Cleanup(func() {
		t.Logf("%d inputs (%d valid), every Appendix A rule", total.Load(), valid.Load())
		if !testing.Short() && total.Load() < 4*int64(perURIRule()) {
			t.Errorf("only %d inputs; the run must check at least %d per URI rule", total.Load(), perURIRule())
		}
	})
}

// TestExhaustiveDecOctet: every string of one to three digits, as
// dec-octet, as the last octet of IPv4address, and as a host (where a
// non-octet makes the host a reg-name).
func TestExhaustiveDecOctet(t *testing.T) {
	for w := 1; w <= 3; w++ {
		for n := 0; n < 1000; n++ {
			d := fmt.Sprintf("%0*d", w, n)
			if len(d) != w {
				continue
			}
			for _, c := range []struct{ rule, in string }{
				{"dec-octet", d},
				{"IPv4address", "1.2.3." + d},
				{"IPv4address", d + ".2.3.4"},
				{"host", "1." + d + ".3.4"},
				{"URI-reference", "http://" + d + ".1.1.1/"},
				{"URI-reference", "http://[::1.2." + d + ".4]/"},
			} {
				want := match(t, c.rule, []byte(c.in))
				_, err := parser.ParseRule(c.rule, c.in)
				if (err == nil) != want {
					t.Errorf("%s %q: matcher %v, parser %v", c.rule, c.in, want, err)
				}
			}
			u, err := parser.ParseReference("//" + d + ".1.1.1")
			if err != nil {
				t.Fatal(err)
			}
			wantKind := parser.HostRegName
			if match(t, "IPv4address", []byte(d+".1.1.1")) {
				wantKind = parser.HostIPv4
			}
			if u.HostKind() != wantKind {
				t.Errorf("host %s.1.1.1: kind %v, want %v (§3.2.2)", d, u.HostKind(), wantKind)
			}
		}
	}
}

// TestExhaustiveIPv6: every shape of IPv6 text: 0 to 9 groups, "::" at
// every position or nowhere, an IPv4 tail or not, groups of 1, 4 and 5 hex
// digits (5 is too many), in IPv6address and inside a URI.
func TestExhaustiveIPv6(t *testing.T) {
	groups := []string{"a", "ffff", "12345"}
	n := 0
	for count := 0; count <= 9; count++ {
		for dc := -1; dc <= count; dc++ { // position of "::", -1 for none
			for _, tail := range []string{"", "1.2.3.4", "1.2.3.456"} {
				for _, g := range groups {
					var parts []string
					for i := 0; i < count; i++ {
						parts = append(parts, g)
					}
					var s string
					if dc < 0 {
						s = strings.Join(parts, ":")
					} else {
						s = strings.Join(parts[:dc], ":") + "::" + strings.Join(parts[dc:], ":")
					}
					if tail != "" {
						if s != "" && !strings.HasSuffix(s, ":") {
							s += ":"
						}
						s += tail
					}
					for _, c := range []struct{ rule, in string }{
						{"IPv6address", s},
						{"URI-reference", "http://[" + s + "]:80/"},
						{"host", "[" + s + "]"},
					} {
						n++
						want := match(t, c.rule, []byte(c.in))
						_, err := parser.ParseRule(c.rule, c.in)
						if (err == nil) != want {
							t.Errorf("%s %q: matcher %v, parser %v", c.rule, c.in, want, err)
						}
					}
				}
			}
		}
	}
	t.Logf("%d IPv6 shapes", n)
}

// FuzzParse checks the pigeon parser and the DFA against the matcher on
// arbitrary bytes, for a rule chosen by the first byte, and the properties
// of valid URI references: the fast path's URI is the pigeon path's,
// lossless recomposition, the Appendix B split, and stability.
func FuzzParse(f *testing.F) {
	for _, tt := range componentTests {
		f.Add(byte(0), tt.in)
	}
	for _, tt := range errorTests {
		f.Add(byte(0), tt.in)
	}
	for _, s := range []string{"http://[::1.2.3.4]", "//1.2.3.4.5", "a:b", "./a:b", "%zz", "\xff", "http://[v1.x]"} {
		f.Add(byte(0), s)
	}
	g, err := appendixA()
	if err != nil {
		f.Fatal(err)
	}
	s := abnf.NewSampler(g, 1)
	for i := range 200 {
		r := g.Rules[i%len(g.Rules)]
		b, _ := s.Sample(r.Name)
		f.Add(byte(i%len(g.Rules)), string(b))
	}
	rules := g.Names()
	f.Fuzz(func(t *testing.T, sel byte, in string) {
		rule := "URI-reference"
		if sel%2 == 1 {
			rule = rules[int(sel/2)%len(rules)]
		}
		want := match(t, rule, []byte(in))
		_, err := parser.ParseRule(rule, in)
		if (err == nil) != want {
			t.Fatalf("%s %q: matcher %v, parser %v", rule, in, want, err)
		}
		if dok, _ := parser.DFARun(rule, in); dok != want {
			t.Fatalf("%s %q: matcher %v, DFA %v", rule, in, want, dok)
		}
		u, err := parser.ParseReference(in)
		if err != nil {
			pe := err.(*parser.Error)
			if pe.Offset < 0 || pe.Offset > len(in) {
				t.Fatalf("%q: error offset %d out of range", in, pe.Offset)
			}
			return
		}
		if u.String() != in {
			t.Fatalf("%q: String() = %q", in, u.String())
		}
		if slow, _, err := parser.ParseTree("URI-reference", in); err != nil || slow != u {
			t.Fatalf("%q: fast path %+v, pigeon path %+v (%v)", in, u.Parts(), slow.Parts(), err)
		}
		checkAppendixB(t, in, u)
		if again, _ := parser.ParseReference(u.String()); again != u {
			t.Fatalf("%q: parse(String()) differs", in)
		}
	})
}

// perURIRule is how many inputs TestDifferential runs per URI rule.
func perURIRule() int {
	if os.Getenv("RFC3986_FULL") != "" {
		return 200000
	}
	return 40000
}

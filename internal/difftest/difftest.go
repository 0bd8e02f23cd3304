// Package difftest is the three-way differential test every generated
// syntax runs: the exact ABNF matcher (gen/abnf), the pigeon parser and the
// DFAs must agree on samples and near-misses of each rule, and for the URI
// rules the fast path's typed URI must be the pigeon path's, split as RFC
// 3986 Appendix B splits it, and recompose to the input.
package difftest

import (
	"fmt"
	"regexp"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/peguri/rfc3986/gen/abnf"
	"github.com/peguri/rfc3986/parser"
)

// Config says what to run.
type Config struct {
	Grammar *abnf.Grammar  // the grammar the syntax was generated from
	Syntax  *parser.Syntax // the generated parsers
	Rules   []string       // rules to check; nil: every rule of the syntax
	PerURI  int            // inputs per URI rule
	PerRule int            // inputs per other rule
	Seed    uint64
	// Skip, if set, leaves rules out of the run (their check is elsewhere).
	Skip func(rule string) bool
}

// Run runs the differential test as parallel subtests, one per rule, and
// returns the number of inputs checked.
func Run(t *testing.T, c Config) int64 {
	m, err := abnf.NewMatcher(c.Grammar)
	if err != nil {
		t.Fatal(err)
	}
	rules := c.Rules
	if rules == nil {
		rules = c.Syntax.Rules()
	}
	var total atomic.Int64
	t.Run("rules", func(t *testing.T) {
		for _, rule := range rules {
			if c.Skip != nil && c.Skip(rule) {
				continue
			}
			t.Run(rule, func(t *testing.T) {
				t.Parallel()
				uriRule := c.Syntax.IsURIRule(rule)
				per := c.PerRule
				if uriRule {
					per = c.PerURI
				}
				s := abnf.NewSampler(c.Grammar, c.Seed)
				bad := 0
				for i := range per {
					var in []byte
					var err error
					if i%2 == 0 {
						in, err = s.Sample(rule)
					} else {
						in, err = s.NearMiss(rule)
					}
					if err != nil {
						t.Fatal(err)
					}
					total.Add(1)
					if msg := check(m, c.Syntax, rule, uriRule, string(in)); msg != "" {
						bad++
						if bad <= 5 {
							t.Error(msg)
						}
					}
				}
				if bad > 0 {
					t.Errorf("%s: %d of %d inputs fail", rule, bad, per)
				}
			})
		}
	})
	return total.Load()
}

// Check runs one input through the three implementations and returns what
// is wrong, or "".
func Check(g *abnf.Grammar, syn *parser.Syntax, rule, in string) string {
	m, err := abnf.NewMatcher(g)
	if err != nil {
		return err.Error()
	}
	return check(m, syn, rule, syn.IsURIRule(rule), in)
}

func check(m *abnf.Matcher, syn *parser.Syntax, rule string, uriRule bool, in string) string {
	want, err := m.Match(rule, []byte(in))
	if err != nil {
		return err.Error()
	}
	_, perr := syn.ParseRule(rule, in)
	verr := syn.Validate(rule, in)
	if (perr == nil) != want || (verr == nil) != want {
		return fmt.Sprintf("%s %q: matcher %v, pigeon %v, DFA %v", rule, in, want, perr, verr)
	}
	if !want {
		// Validate's error is pigeon's for inputs this short; its offset
		// must be in the input.
		if pe, ok := verr.(*parser.Error); !ok || pe.Offset < 0 || pe.Offset > len(in) {
			return fmt.Sprintf("%s %q: bad error %v", rule, in, verr)
		}
		return ""
	}
	if !uriRule {
		return ""
	}
	fast, err := syn.Parse(rule, in)
	if err != nil {
		return fmt.Sprintf("%s %q: fast path: %v", rule, in, err)
	}
	slow, _, err := syn.ParseTree(rule, in)
	if err != nil {
		return fmt.Sprintf("%s %q: pigeon path: %v", rule, in, err)
	}
	if fast != slow {
		return fmt.Sprintf("%s %q: fast path %+v (%v), pigeon path %+v (%v)", rule, in, fast.Parts(), fast.HostKind(), slow.Parts(), slow.HostKind())
	}
	if fast.String() != in {
		return fmt.Sprintf("%s %q: String() = %q", rule, in, fast.String())
	}
	return AppendixB(in, fast)
}

// appendixB is RFC 3986 Appendix B's regular expression. It splits any
// string, valid or not, into the five components; for a valid reference
// its split must be the parser's. IRIs have the same delimiters.
var appendixB = regexp.MustCompile(`^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?$`)

// AppendixB compares u's components with Appendix B's split of in, and
// returns the difference or "".
func AppendixB(in string, u parser.URI) string {
	m := appendixB.FindStringSubmatchIndex(in)
	if m == nil {
		return fmt.Sprintf("%q: Appendix B's expression does not match", in)
	}
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
		return fmt.Sprintf("%q: parser splits %s, Appendix B splits %s", in, got, want)
	}
	return ""
}

// URIRules are a syntax's URI rules, for Config.Rules.
func URIRules(s *parser.Syntax) []string { return slices.Clone(s.URIRules()) }

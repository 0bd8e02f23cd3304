// Package syntaxtest checks a generated syntax against the grammar it was
// generated from, as net/http/httptest helps test HTTP code: it is the
// differential test this module runs on its own parsers, for yours.
//
// Three implementations must agree on every input: the exact ABNF matcher
// of package abnf (alternatives unordered, repetitions giving back: the
// grammar's meaning), the pigeon parser gen peg generated, and the DFA gen
// dfa generated, where the rule has one. The inputs are samples of each rule
// and near-misses (samples with one to three edits) from the matcher's
// grammar. For the URI rules of a syntax with [parser.Names], the fast
// path's typed URI (DFA, then the Appendix B split) must also be the tree
// path's, split as RFC 3986 Appendix B splits it, and recompose to the
// input. For every valid input, the parse tree ParseRule returns, which
// the functions gen dfa -tree generates build where the rule has one, must
// be pigeon's (ParsePEG's), node for node.
package syntaxtest

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/grammar"
	"github.com/peguri/rfc3986/parser"
)

// Config says what to check.
type Config struct {
	// Parser is the generated parsers, from parser.NewParser.
	Parser *parser.Parser
	// Grammar is what Parser was generated from, as gen's -grammar takes
	// it: embedded grammars by name (rfc3986, rfc6874, rfc3987) and ABNF
	// files, in order. Octets is gen's -octets.
	Grammar []string
	Octets  bool
	// Rules are the rules to check, their names in any case (as in ABNF);
	// nil means every rule of Parser. A name the grammar does not have
	// fails the test.
	Rules []string
	// PerURI and PerRule are the number of inputs, half samples and half
	// near-misses, for each URI rule and for each other rule; 0 means
	// 2,000.
	PerURI, PerRule int
	// Seed makes the inputs: the same seed, the same inputs.
	Seed uint64
}

// Run runs the differential test, as parallel subtests of t, one per rule,
// and returns the number of inputs checked. Each rule reports its first
// five disagreements and their count.
func Run(t *testing.T, c Config) int64 {
	t.Helper()
	g, m, err := c.matcher()
	if err != nil {
		t.Fatal(err)
	}
	rules := c.Rules
	if rules == nil {
		rules = c.Parser.Rules()
	}
	// Names compare case-insensitively, as in ABNF: each is checked as the
	// grammar spells it (IsURIRule and the sampler take that spelling).
	canon := make([]string, len(rules))
	for i, r := range rules {
		name, ok := c.Parser.Rule(r)
		if !ok {
			t.Fatalf("syntaxtest: no rule %q in %s", r, c.Parser.Name())
		}
		canon[i] = name
	}
	rules = canon
	var total atomic.Int64
	t.Run("rules", func(t *testing.T) {
		for _, rule := range rules {
			t.Run(rule, func(t *testing.T) {
				t.Parallel()
				uriRule := c.Parser.IsURIRule(rule)
				per := c.PerRule
				if uriRule {
					per = c.PerURI
				}
				if per == 0 {
					per = 2000
				}
				s := abnf.NewSampler(g, c.Seed)
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
					if err := check(m, c.Parser, rule, uriRule, string(in)); err != nil {
						bad++
						if bad <= 5 {
							t.Error(err)
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
// is wrong, or nil. It reads the grammar on every call: use Run for many
// inputs.
func Check(c Config, rule, in string) error {
	_, m, err := c.matcher()
	if err != nil {
		return err
	}
	name, ok := c.Parser.Rule(rule)
	if !ok {
		return fmt.Errorf("syntaxtest: no rule %q in %s", rule, c.Parser.Name())
	}
	return check(m, c.Parser, name, c.Parser.IsURIRule(name), in)
}

// matcher reads the grammar and builds its exact matcher.
func (c Config) matcher() (*abnf.Grammar, *abnf.Matcher, error) {
	if c.Parser == nil {
		return nil, nil, errors.New("syntaxtest: no Parser")
	}
	if len(c.Grammar) == 0 {
		return nil, nil, errors.New("syntaxtest: no Grammar")
	}
	g, err := grammar.Read(c.Grammar, &abnf.Options{Octets: c.Octets})
	if err != nil {
		return nil, nil, err
	}
	m, err := abnf.NewMatcher(g)
	if err != nil {
		return nil, nil, err
	}
	return g, m, nil
}

func check(m *abnf.Matcher, syn *parser.Parser, rule string, uriRule bool, in string) error {
	want, err := m.Match(rule, []byte(in))
	if err != nil {
		return err
	}
	ptree, perr := syn.ParsePEG(rule, in)
	verr := syn.Validate(rule, in)
	if (perr == nil) != want || (verr == nil) != want {
		return fmt.Errorf("%s %q: matcher %v, pigeon %v, DFA %v", rule, in, want, perr, verr)
	}
	if !want {
		// Validate's error is pigeon's for inputs this short; its offset
		// must be in the input.
		if pe, ok := verr.(*parser.Error); !ok || pe.Offset < 0 || pe.Offset > len(in) {
			return fmt.Errorf("%s %q: bad error %v", rule, in, verr)
		}
		return nil
	}
	// ParseRule's tree comes from the function gen dfa -tree generated,
	// where the rule has one: it must be pigeon's.
	if tree, err := syn.ParseRule(rule, in); err != nil || !reflect.DeepEqual(tree, ptree) {
		return fmt.Errorf("%s %q: ParseRule's tree %s (%v), pigeon's %s", rule, in, showTree(in, tree), err, showTree(in, ptree))
	}
	if !uriRule {
		return nil
	}
	fast, err := syn.Parse(rule, in)
	if err != nil {
		return fmt.Errorf("%s %q: fast path: %v", rule, in, err)
	}
	slow, _, err := syn.ParseTree(rule, in)
	if err != nil {
		return fmt.Errorf("%s %q: pigeon path: %v", rule, in, err)
	}
	if fast != slow {
		return fmt.Errorf("%s %q: fast path %+v (%v), pigeon path %+v (%v)", rule, in, fast.Parts(), fast.HostKind(), slow.Parts(), slow.HostKind())
	}
	if fast.String() != in {
		return fmt.Errorf("%s %q: String() = %q", rule, in, fast.String())
	}
	return appendixB(in, fast)
}

// showTree writes a tree on one line: rule[start,end](kids…).
func showTree(in string, n *parser.Node) string {
	if n == nil {
		return "nil"
	}
	var b strings.Builder
	var walk func(*parser.Node)
	walk = func(n *parser.Node) {
		fmt.Fprintf(&b, "%s[%d,%d]", n.Rule, n.Start, n.End)
		if n.Kids != nil {
			b.WriteByte('(')
			for i, k := range n.Kids {
				if i > 0 {
					b.WriteByte(' ')
				}
				walk(k)
			}
			b.WriteByte(')')
		}
	}
	walk(n)
	return b.String()
}

// appendixBExpr is RFC 3986 Appendix B's regular expression. It splits any
// string, valid or not, into the five components; for a valid reference
// its split must be the parser's. IRIs have the same delimiters.
var appendixBExpr = regexp.MustCompile(`^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?$`)

// appendixB compares u's components with Appendix B's split of in.
func appendixB(in string, u parser.URI) error {
	m := appendixBExpr.FindStringSubmatchIndex(in)
	if m == nil {
		return fmt.Errorf("%q: Appendix B's expression does not match", in)
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
		return fmt.Errorf("%q: parser splits %s, Appendix B splits %s", in, got, want)
	}
	return nil
}

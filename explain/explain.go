// Package explain says why a text is or is not a URI, in the terms of
// RFC 3986 Appendix A (or of an extension grammar layered on it).
//
// For an invalid text, [Explainer.Explain] names the innermost Appendix A
// rule that could not continue, the byte offset, the rule's ABNF text as
// grammar/rfc3986.abnf writes it, the characters that could have come
// there, and the chain of rules that enclose it, outermost first. For a
// valid text, it gives the rules that matched which spans, as a condensed
// parse tree, and the kind of each host with the reason §3.2.2 gives for it
// (why "1.2.3.4" is an IPv4 address and "1.2.3.4.5" a reg-name).
//
// The failure analysis runs the ABNF itself (the rules as read by package
// abnf), independently of the generated parser, whose verdict the
// explanation reports; the tests hold the two to the same verdicts and the
// same offsets.
package explain

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/grammar"
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc3987"
	"github.com/peguri/rfc3986/parser/rfc6874"
)

// Explanation is why an input is or is not valid as a rule.
type Explanation struct {
	Input   string `json:"input"`
	Grammar string `json:"grammar"`
	Rule    string `json:"rule"`
	Valid   bool   `json:"valid"`
	// Failure is set for an invalid input.
	Failure *Diagnosis `json:"failure,omitempty"`
	// Tree and Hosts are set for a valid input.
	Tree  *Span  `json:"tree,omitempty"`
	Hosts []Host `json:"hosts,omitempty"`
}

// Diagnosis is where and why an input stops matching, as package abnf's
// Diagnoser finds it ([abnf.Diagnosis]: the offset, the character found,
// the innermost rule that could not continue, what could have come there,
// the enclosing rules, the open rule instances), with the rule's ABNF
// text and where it stands.
type Diagnosis struct {
	// Offset is the byte offset of the first character no derivation of
	// the input can read: the input's first Offset bytes begin some valid
	// input, and no longer prefix does.
	Offset int `json:"offset"`
	// Found is the character at Offset, quoted, or "end of input".
	Found string `json:"found"`
	// Rule is the innermost rule that could not continue (see
	// [abnf.Diagnosis]), begun at Start.
	Rule  string `json:"rule"`
	Start int    `json:"start"`
	// ABNF is Rule's definition as its grammar file writes it, and Source
	// where (file:line:column).
	ABNF   string `json:"abnf"`
	Source string `json:"source"`
	// Expected are the characters some derivation could have read at
	// Offset, with "end of input" when the input could have ended there.
	Expected []string `json:"expected"`
	// Next is what could have come at Offset in the grammar's terms:
	// rules and terminals ("pchar", "/", "?", "#", "end of input").
	Next []string `json:"next"`
	// Chain are the rules that enclose Rule, outermost (the start rule)
	// first, each with its start offset.
	Chain []abnf.RuleAt `json:"chain"`
	// Open lists, for each rule instance that was open at Offset, what it
	// could have read there: "reg-name could go on with [A-Za-z…]",
	// "authority with ":"", "path-abempty with "/"".
	Open []abnf.OpenRule `json:"open"`
}

// Span is a node of the condensed parse tree: a rule and the bytes
// [Start, End) it matched. Rules whose strings are at most three
// characters long (ALPHA, pchar, pct-encoded, dec-octet…) are left out
// below a rule that is, and so is a node that only repeats its parent's
// span, which becomes part of the parent's Rule ("host > reg-name").
type Span struct {
	Rule  string  `json:"rule"`
	Start int     `json:"start"`
	End   int     `json:"end"`
	Text  string  `json:"text"`
	Kids  []*Span `json:"children,omitempty"`
}

// Host is a host of a valid input, its kind, and why (§3.2.2).
type Host struct {
	Start  int    `json:"start"`
	End    int    `json:"end"`
	Text   string `json:"text"`
	Kind   string `json:"kind"` // ipv4, ipv6, ipvfuture, regname
	Reason string `json:"reason"`
}

// Explainer explains inputs against one of the built-in grammars.
type Explainer struct {
	name string
	syn  *parser.Parser
	g    *abnf.Grammar
	// diags holds Diagnosers, whose caches are not safe for concurrent
	// use: one per goroutine explaining at a time.
	diags sync.Pool
	// maxes is, for every rule, the length of its longest string (-1:
	// unbounded), computed by New: read-only afterwards.
	maxes map[string]int
	// notIPv4s remembers notIPv4's answers, by host.
	notIPv4Mu sync.Mutex
	notIPv4s  map[string]string
	hosts     []string // the host rules of the grammar, by name
}

var builtins = map[string]struct {
	sources []string
	syn     func() *parser.Parser
}{
	"rfc3986": {[]string{"rfc3986"}, parser.RFC3986},
	"rfc6874": {[]string{"rfc3986", "rfc6874"}, rfc6874.Parser},
	"rfc3987": {[]string{"rfc3986", "rfc3987"}, rfc3987.Parser},
}

// Grammars returns the names New takes: rfc3986, rfc6874, rfc3987.
func Grammars() []string { return []string{"rfc3986", "rfc6874", "rfc3987"} }

// New returns the Explainer of a built-in grammar: "rfc3986" (Appendix A),
// "rfc6874" (with IPv6 zone identifiers) or "rfc3987" (IRIs), each read
// from the ABNF that package grammar embeds.
func New(name string) (*Explainer, error) {
	b, ok := builtins[name]
	if !ok {
		return nil, fmt.Errorf("explain: no built-in grammar %q (have %s)", name, strings.Join(Grammars(), ", "))
	}
	g, err := grammar.Read(b.sources, nil)
	if err != nil {
		return nil, fmt.Errorf("explain: %s: %w", name, err)
	}
	x := &Explainer{name: name, syn: b.syn(), g: g, maxes: map[string]int{}, notIPv4s: map[string]string{}, hosts: []string{"host", "ihost"}}
	x.diags.New = func() any { return abnf.NewDiagnoser(g) }
	for _, r := range g.Rules {
		x.maxLen(r.Name)
	}
	return x, nil
}

// Parser returns the generated parser whose verdicts the explanations
// report.
func (x *Explainer) Parser() *parser.Parser { return x.syn }

// Explain explains input as rule (the grammar's default rule when rule is
// ""; any rule of the grammar, case-insensitively). The verdict is the
// generated parser's; the failure is found by running the ABNF. An unknown
// rule is an error wrapping [parser.ErrUnknownRule]; an input longer than
// [parser.MaxTreeLength] (the pigeon parser's limit for parse trees) one
// wrapping [parser.ErrTooLong].
func (x *Explainer) Explain(rule, input string) (*Explanation, error) {
	if rule == "" {
		rule = x.syn.DefaultRule()
	}
	name, ok := x.syn.Rule(rule)
	if !ok {
		return nil, fmt.Errorf("explain: %w %q in grammar %s", parser.ErrUnknownRule, rule, x.name)
	}
	if len(input) > parser.MaxTreeLength {
		return nil, fmt.Errorf("explain: %w: %d bytes, longer than the %d explain takes", parser.ErrTooLong, len(input), parser.MaxTreeLength)
	}
	ex := &Explanation{Input: input, Grammar: x.name, Rule: name}
	root, perr := x.syn.ParseRule(name, input)
	if perr == nil {
		ex.Valid = true
		ex.Tree = x.condense(input, root)
		ex.Hosts = x.hostReasons(input, root)
		return ex, nil
	}
	f, err := x.failure(name, input)
	if err != nil {
		return nil, err
	}
	ex.Failure = f
	return ex, nil
}

func (x *Explainer) failure(rule, input string) (*Diagnosis, error) {
	diag := x.diags.Get().(*abnf.Diagnoser)
	d, err := diag.Diagnose(rule, input)
	x.diags.Put(diag)
	switch {
	case errors.Is(err, abnf.ErrTooAmbiguous):
		return nil, fmt.Errorf("explain: %q: %w", clip(input), err)
	case err != nil:
		return nil, err
	case d.Match:
		// The generated parser rejected what the ABNF matches: the tests
		// say this does not happen.
		return nil, fmt.Errorf("explain: the parser rejects %q, which the ABNF of %s matches", clip(input), rule)
	}
	f := &Diagnosis{Offset: d.Offset, Found: d.Found, Rule: d.Rule, Start: d.Start,
		Expected: d.Expected, Next: d.Next, Chain: d.Chain, Open: d.Open}
	f.ABNF, f.Source = x.ABNF(f.Rule)
	return f, nil
}

// ABNF returns a rule's definition as the grammar files write it (the
// definitions in force: an override replaces what came before it), and
// where it stands (file:line:column); empty strings for an unknown rule.
func (x *Explainer) ABNF(rule string) (text, source string) {
	r := x.g.Rule(rule)
	if r == nil {
		return "", ""
	}
	defs := r.Defs
	for i, d := range defs {
		if d.Override {
			defs = defs[i:]
		}
	}
	var texts, srcs []string
	for _, d := range defs {
		texts = append(texts, d.Text)
		srcs = append(srcs, d.Pos.String())
	}
	return strings.Join(texts, "\n"), strings.Join(srcs, ", ")
}

// condense builds the condensed tree of a parse tree.
func (x *Explainer) condense(in string, n *parser.Node) *Span {
	if n == nil {
		return nil
	}
	s := &Span{Rule: n.Rule, Start: n.Start, End: n.End, Text: in[n.Start:n.End]}
	// A single kid with the same span joins its parent's name.
	for len(n.Kids) == 1 && n.Kids[0].Start == n.Start && n.Kids[0].End == n.End {
		n = n.Kids[0]
		s.Rule += " > " + n.Rule
	}
	if short(x.ruleMax(n.Rule)) {
		return s
	}
	for _, k := range n.Kids {
		if short(x.ruleMax(k.Rule)) {
			continue
		}
		s.Kids = append(s.Kids, x.condense(in, k))
	}
	return s
}

func short(max int) bool { return max >= 0 && max <= 3 }

func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

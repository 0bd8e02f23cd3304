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
// package abnf), independently of the generated parser, whose verdict the
// explanation reports; the tests hold the two to the same verdicts and the
// same offsets.
package explain

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/grammar"
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc3987"
	"github.com/peguri/rfc3986/parser/rfc6874"
)

// MaxLength is the longest input Explain takes: the pigeon parser's limit
// for parse trees.
const MaxLength = parser.MaxTreeLength

// Explanation is why an input is or is not valid as a rule.
type Explanation struct {
	Input   string `json:"input"`
	Grammar string `json:"grammar"`
	Rule    string `json:"rule"`
	Valid   bool   `json:"valid"`
	// Failure is set for an invalid input.
	Failure *Failure `json:"failure,omitempty"`
	// Tree and Hosts are set for a valid input.
	Tree  *Span  `json:"tree,omitempty"`
	Hosts []Host `json:"hosts,omitempty"`
}

// Failure is where and why an input stops matching.
type Failure struct {
	// Offset is the byte offset of the first character no derivation of
	// the input can read: the input's first Offset bytes begin some valid
	// input, and no longer prefix does.
	Offset int `json:"offset"`
	// Found is the character at Offset, quoted, or "end of input".
	Found string `json:"found"`
	// Rule is the innermost rule that could not continue: of the rule
	// instances open at Offset (begun before it), the deepest; or, of it
	// and the rules around it up to the innermost rule that holds every
	// open instance, the innermost whose own definition writes the
	// character found as a terminal ("http://[::1.2.3.4.5]/" stops in
	// IPv4address, whose definition has ".", not in dec-octet, which could
	// only have gone on with a digit). At the end of the input, it is the
	// innermost rule that holds every open instance: the unfinished one.
	Rule string `json:"rule"`
	// Start is the offset where Rule's instance began.
	Start int `json:"start"`
	// ABNF is Rule's definition as its grammar file writes it, and Source
	// where (file:line:column).
	ABNF   string `json:"abnf"`
	Source string `json:"source"`
	// Expected are the characters some derivation could have read at
	// Offset, with "end of input" when the input could have ended there.
	Expected []string `json:"expected"`
	// Chain are the rules that enclose Rule, outermost (the start rule)
	// first, each with its start offset.
	Chain []RuleAt `json:"chain"`
	// Open lists, for each rule instance that was open at Offset, what it
	// could have read there: "reg-name could go on with [A-Za-z…]",
	// "authority with ":"", "path-abempty with "/"".
	Open []OpenRule `json:"open"`
}

// RuleAt is a rule instance: the rule and the offset where it began.
type RuleAt struct {
	Rule  string `json:"rule"`
	Start int    `json:"start"`
}

// OpenRule is a rule instance open at a failure, and the characters it
// could have read there.
type OpenRule struct {
	Rule     string   `json:"rule"`
	Start    int      `json:"start"`
	Expected []string `json:"expected"`
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
	name  string
	syn   *parser.Syntax
	g     *abnf.Grammar
	mu    sync.Mutex // guards eng's caches
	eng   *engine
	hosts []string // the host rules of the grammar, by name
}

var builtins = map[string]struct {
	sources []string
	syn     func() *parser.Syntax
}{
	"rfc3986": {[]string{"rfc3986"}, parser.RFC3986},
	"rfc6874": {[]string{"rfc3986", "rfc6874"}, rfc6874.Syntax},
	"rfc3987": {[]string{"rfc3986", "rfc3987"}, rfc3987.Syntax},
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
	return &Explainer{name: name, syn: b.syn(), g: g, eng: newEngine(g), hosts: []string{"host", "ihost"}}, nil
}

// Syntax returns the generated parser whose verdicts the explanations
// report.
func (x *Explainer) Syntax() *parser.Syntax { return x.syn }

// ErrTooLong is wrapped by the error of an input longer than MaxLength.
var ErrTooLong = errors.New("explain: input too long")

// Explain explains input as rule (the grammar's default rule when rule is
// ""; any rule of the grammar, case-insensitively). The verdict is the
// generated parser's; the failure is found by running the ABNF. An unknown
// rule is an error wrapping [parser.ErrUnknownRule]; an input longer than
// [MaxLength] one wrapping [ErrTooLong].
func (x *Explainer) Explain(rule, input string) (*Explanation, error) {
	if rule == "" {
		rule = x.syn.DefaultRule()
	}
	name, ok := x.syn.Rule(rule)
	if !ok {
		return nil, fmt.Errorf("explain: %w %q in grammar %s", parser.ErrUnknownRule, rule, x.name)
	}
	if len(input) > MaxLength {
		return nil, fmt.Errorf("%w: %d bytes, longer than the %d explain takes", ErrTooLong, len(input), MaxLength)
	}
	ex := &Explanation{Input: input, Grammar: x.name, Rule: name}
	root, perr := x.syn.ParseRule(name, input)
	x.mu.Lock()
	defer x.mu.Unlock()
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

func (x *Explainer) failure(rule, input string) (*Failure, error) {
	off, live, ok, limited := x.eng.run(rule, input)
	switch {
	case limited:
		return nil, fmt.Errorf("explain: %q: more than %d derivations at offset %d", clip(input), maxThreads, off)
	case ok:
		// The generated parser rejected what the ABNF matches: the tests
		// say this does not happen.
		return nil, fmt.Errorf("explain: the parser rejects %q, which the ABNF of %s matches", clip(input), rule)
	}
	f := &Failure{Offset: off, Found: "end of input"}
	var c rune = -1
	if off < len(input) {
		r, size := utf8.DecodeRuneInString(input[off:])
		if x.g.Octets || r == utf8.RuneError && size <= 1 {
			f.Found = fmt.Sprintf("%q (byte 0x%02X)", input[off:off+1], input[off])
		} else {
			f.Found, c = fmt.Sprintf("%q", string(r)), r
		}
	}
	// What could come at off, overall and per open rule instance.
	var all []rng
	canEnd := false
	type inst struct {
		rule  string
		start int
	}
	per := map[inst][]rng{}
	var order []inst
	var best *open
	for _, t := range live {
		if t.k == nil {
			canEnd = true
			continue
		}
		rs := x.eng.expects(t.k)
		all = append(all, rs...)
		// The deepest rule instance begun before off is the one that
		// could not go on; an instance begun at off could not begin.
		// At offset 0 nothing began: the start rule could not.
		o := t.open
		for o != nil && (o.start >= off || off == 0) && o.up != nil {
			o = o.up
		}
		if o == nil {
			continue
		}
		i := inst{o.rule, o.start}
		if _, seen := per[i]; !seen {
			order = append(order, i)
		}
		per[i] = append(per[i], rs...)
		if best == nil || o.depth > best.depth || o.depth == best.depth && o.start > best.start {
			best = o
		}
	}
	f.Expected = classes(all)
	if canEnd {
		f.Expected = append(f.Expected, "end of input")
	}
	for _, i := range order {
		f.Open = append(f.Open, OpenRule{Rule: i.rule, Start: i.start, Expected: classes(per[i])})
	}
	if canEnd {
		f.Open = append(f.Open, OpenRule{Rule: rule, Start: 0, Expected: []string{"end of input"}})
	}
	if best == nil {
		f.Rule = rule
	} else {
		// Of best and the rules around it, up to the innermost rule that
		// holds every open instance, the innermost whose own definition
		// has the character found as a terminal: in "[::1.2.3.4.5]",
		// dec-octet could go on with a digit and IP-literal with "]", but
		// the "." fails IPv4address, whose definition has "."; a
		// character no rule there writes leaves best ("http://a b/":
		// reg-name).
		pick := best
		lca := common(live, off)
		if c < 0 && lca != nil {
			// At the end of the input, what is unfinished is the rule that
			// holds every open instance ("1.2.3": IPv4address).
			pick = lca
		}
		if c >= 0 {
			for d := best; d != nil; d = d.up {
				if in(x.eng.terminals(d.rule), c) {
					pick = d
					break
				}
				if lca != nil && d.rule == lca.rule && d.start == lca.start {
					break
				}
			}
		}
		f.Rule, f.Start = pick.rule, pick.start
		for d := pick.up; d != nil; d = d.up {
			f.Chain = append([]RuleAt{{d.rule, d.start}}, f.Chain...)
		}
	}
	f.ABNF, f.Source = x.ABNF(f.Rule)
	return f, nil
}

// common returns the innermost rule instance that every live thread has
// open (counting only instances begun before off), or nil if the input
// could end at off.
func common(live []thread, off int) *open {
	var chains [][]*open
	for _, t := range live {
		if t.k == nil {
			// A derivation that has matched the whole start rule: no
			// rule instance holds every open one.
			return nil
		}
		if t.open == nil {
			continue
		}
		var c []*open
		for o := t.open; o != nil; o = o.up {
			if o.start < off || o.up == nil {
				c = append([]*open{o}, c...)
			}
		}
		chains = append(chains, c)
	}
	if len(chains) == 0 {
		return nil
	}
	n := len(chains[0])
	for _, c := range chains[1:] {
		i := 0
		for i < n && i < len(c) && c[i].rule == chains[0][i].rule && c[i].start == chains[0][i].start {
			i++
		}
		n = i
	}
	if n == 0 {
		return nil
	}
	return chains[0][n-1]
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
	if short(x.eng.maxLen(n.Rule)) {
		return s
	}
	for _, k := range n.Kids {
		if short(x.eng.maxLen(k.Rule)) {
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

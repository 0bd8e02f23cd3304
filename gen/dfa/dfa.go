// Package dfa is gen's second back end: it compiles ABNF rules whose
// languages are regular to minimal deterministic automata over bytes and
// emits them as Go tables. RFC 3986 Appendix A has no recursion, so its
// language is regular; a table-driven DFA decides membership in a few
// nanoseconds per byte with no allocation, where the pigeon parser spends
// microseconds.
//
// Pipeline: the rule, lowered to PEG shapes by gen/internal/ir (the same language),
// is inlined into a Thompson NFA over bytes — code point ranges compiled to
// their UTF-8 byte sequences, so invalid UTF-8 is rejected as the ABNF
// matcher rejects it; in octet mode (abnf.Options.Octets) numeric values are
// the bytes themselves — then determinized by subset construction and
// minimized (gen/internal/fa). A rule the body references enters the NFA as a copy
// of that rule's minimal DFA, compiled once, rather than as its own NFA:
// the automata to determinize stay small however deep the rules
// nest, and the result is the same (the copy keeps the atoms the rule's
// NFA would have brought, and a minimal DFA is canonical), byte for byte.
//
// # Recursion
//
// A rule that reaches only strongly regular recursion (gen/internal/ir's
// Recursion: every reference inside a set of mutually recursive rules
// stands at the right end of its body, or every one at the left end) has a
// regular language, and is compiled exactly: each rule of the set is
// compiled from its own copy of the set, in which every rule has an entry
// and an exit state; a reference from inside the copy is an ε-edge to the
// rule's entry, and the rule's exit has ε-edges back to every return point
// of the rule in the copy, and the copy is entered at the rule's entry and
// left at its exit. A reference from outside the set is, as any other, a
// copy of the rule's minimal DFA: one copy per reference. Which
// call a return belongs to is forgotten, and that is exact here: with tail
// references, nothing follows any return point but the end of its rule, so
// returns consume nothing and only the sequence of calls matters; with
// head references, symmetrically, calls consume nothing and only the
// sequence of returns matters. A rule that reaches a self-embedding set
// (material on both sides of a recursive reference, as in nested comments)
// is refused: its language need not be regular. One self-embedding shape
// is compiled as the strongly regular ones are, because the same
// construction is exact for it: a rule A = α *( β A ) whose only
// references to itself end the body of its last repetition (RFC 3501's
// sequence-set; ir.Component's TailLoop), whose language is α *( β α ).
//
// # Limits
//
// Every construction is bounded, so that no grammar makes gen run away;
// each limit is an [Options] field and a gen dfa flag, and the error names
// the rule:
//   - MaxNFA (-max-nfa, default 2^20): states of a rule's NFA (with the
//     DFAs of the rules it references), counted exactly before any is
//     built. Every rule's expansion of its bounded repetitions (which
//     gen/internal/ir writes out as copies) is checked against it too, before
//     lowering, since lowering a rule such as 65536(65536"a") would itself
//     take minutes.
//   - MaxDFA (-max-dfa, default 65,535): states of subset construction. The
//     default is the most the emitted tables can number (next item), so
//     that whatever subset construction accepts can be emitted.
//   - MaxWork (-max-work, default 2^27): NFA states visited by subset
//     construction, which bounds its time when DFA states stand for large
//     sets of NFA states.
//   - MaxTotal (-max-total, default 2^20): NFA states of every rule
//     compiled, in all. A rule's DFA can be as large as the rules it
//     references together, so the DFAs of all the rules of a grammar can be
//     quadratic in its size (a chain of rules, each using the next).
//   - The emitted tables number states in 16 bits: a minimal DFA of more
//     than 65,535 states cannot be emitted (Emit says so).
package dfa

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"slices"
	"strings"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/internal/fa"
	"github.com/peguri/rfc3986/gen/internal/ir"
	"github.com/peguri/rfc3986/syntax"
)

// Machine is the minimal byte DFA of one rule.
type Machine struct {
	Rule      string
	NFAStates int     // states of the NFA determinized (minimal DFAs of the rules referenced in it)
	DFAStates int     // after subset construction
	DFA       *fa.DFA // minimal; atoms are sets of bytes (code points 0–255)
	// Recursive lists the rules of strongly regular recursion the rule
	// reaches, compiled by treating their references as jumps.
	Recursive []string
	// Diag, when set (see Diagnose), is emitted with the tables, so that
	// errors name the grammar's rules.
	Diag *Diagnostics
	// DiagBudget is set when Diagnose left the rule with approximate
	// diagnostics, or none, because the budget (Options.MaxDiagnose) was
	// spent: a larger budget gives it exact ones.
	DiagBudget bool
	// Charset, when set (see Compiler.Charset), is emitted with the
	// tables: what the rule allows unencoded.
	Charset *Charset
	// Walk, when set (see Machine.SetWalk), is emitted with the tables:
	// the rule's DFA with a marker's marks as Go code.
	Walk *Walk
	// Source is the fingerprint of the grammar the machine was compiled
	// from (abnf.Fingerprint), emitted as its table's Source.
	Source string
}

// Walk is a rule's walk: its function's name and code, and the
// fingerprint that syntax.Table.Marked checks before it runs it.
type Walk struct {
	Func string
	Code string
	Sum  uint64
}

// SetWalk writes m's walk with the marks of marker (see
// syntax.Machine.GoWalk) for EmitTrees, as the function named name, its
// tables' names beginning with prefix: it builds the table EmitTrees
// writes, marks it as syntax.Table.Marked does at run time, and fails if
// the marks do not fold into the DFA or the table has more than 256
// states (the dead one included).
func (m *Machine) SetWalk(name, prefix string, marker syntax.Marker) error {
	classes, next, accept, wide := tables(m)
	t := &syntax.Table{
		States:  len(accept),
		NClass:  len(m.table().Atoms) + 1,
		Wide:    wide,
		Classes: string(classes),
		Next:    string(next),
		Accept:  string(accept),
	}
	d, err := t.Marked(marker)
	if err != nil {
		return fmt.Errorf("%s: %w", m.Rule, err)
	}
	code, sum, err := d.GoWalk(name, prefix)
	if err != nil {
		return fmt.Errorf("%s: %w", m.Rule, err)
	}
	m.Walk = &Walk{Func: name, Code: code, Sum: sum}
	return nil
}

// States returns the number of states of the minimal DFA (the dead state
// not counted).
func (m *Machine) States() int { return len(m.DFA.Next) }

// Classes returns the number of byte classes: sets of bytes the automaton
// never distinguishes (bytes in no class lead to the dead state).
func (m *Machine) Classes() int { return len(m.DFA.Atoms) }

// Options bound the construction; a zero field takes its default. See the
// package documentation for what each limit guards against.
type Options struct {
	MaxNFA   int // states of one rule's NFA, and nodes of one rule's expansion
	MaxDFA   int // states of subset construction, per rule
	MaxWork  int // NFA states visited by subset construction, per rule
	MaxTotal int // NFA states of every rule compiled, in all
	// MaxDiagnose bounds the work of Diagnose (states and byte classes
	// diagnosed, over every rule): past it, a rule's diagnostics are those
	// of its minimal DFA's states, then none (see Diagnose).
	MaxDiagnose int
}

// The defaults of Options.
const (
	DefaultMaxNFA  = 1 << 20
	DefaultMaxDFA  = MaxTableStates - 1
	DefaultMaxWork = 1 << 27
	// DefaultMaxTotal bounds the sum over rules: the grammars of
	// testdata/grammars need at most 9,000 NFA states for all of their
	// rules, and a chain of 5,000 rules (r_i = "a" r_{i+1}), whose DFAs
	// are inherently 12.5 million states in all, took 27 s and 2 GB. An
	// NFA state costs about 2 µs from building to minimizing.
	DefaultMaxTotal = 1 << 20
)

// MaxTableStates is the most states (the dead state included) the emitted
// tables can number: they are 16-bit.
const MaxTableStates = 1 << 16

func (o Options) withDefaults() Options {
	if o.MaxNFA <= 0 {
		o.MaxNFA = DefaultMaxNFA
	}
	if o.MaxDFA <= 0 {
		o.MaxDFA = DefaultMaxDFA
	}
	if o.MaxWork <= 0 {
		o.MaxWork = DefaultMaxWork
	}
	if o.MaxTotal <= 0 {
		o.MaxTotal = DefaultMaxTotal
	}
	return o
}

// Build compiles each named rule of g with the default limits.
func Build(g *abnf.Grammar, rules []string) ([]*Machine, error) {
	c, err := NewCompiler(g, Options{})
	if err != nil {
		return nil, err
	}
	return c.Build(rules)
}

// Compiler compiles the rules of one grammar, lowered once; each rule is
// compiled at most once. It is not safe for concurrent use.
type Compiler struct {
	g     *abnf.Grammar
	lg    *ir.Grammar
	opts  Options
	comps []*ir.Component // in grammar order
	of    map[*ir.Rule]*ir.Component
	// blocked maps each rule that reaches a self-embedding component to the
	// first such component (in grammar order).
	blocked  map[*ir.Rule]*ir.Component
	cost     map[costKey]int64
	total    int64 // NFA states of the rules compiled so far (Options.MaxTotal)
	copies   map[*ir.Component]int64
	seqs     map[*ir.Set][][]fa.ByteRange
	built    map[*ir.Rule]*built // nil while being compiled
	ivs      []fa.Range          // the grammar's character intervals (see intervals)
	diag     *abnf.Diagnoser     // for Diagnose, with its caches
	diagWork int                 // Diagnose's flat NFA states so far; with diag's Work, its budget (Options.MaxDiagnose)
	diagBase int                 // diag's Work when it was made
	source   string              // abnf.Fingerprint(g), each Machine's Source
}

// NewCompiler checks that lowering g stays within the limits, lowers it and
// finds its recursion. The grammar must read and check without errors.
func NewCompiler(g *abnf.Grammar, opts Options) (*Compiler, error) {
	opts = opts.withDefaults()
	if err := checkExpansion(g, opts.MaxNFA); err != nil {
		return nil, err
	}
	lg, err := ir.Lower(g, ir.Options{})
	if err != nil {
		return nil, err
	}
	return newCompiler(g, lg, opts), nil
}

func newCompiler(g *abnf.Grammar, lg *ir.Grammar, opts Options) *Compiler {
	c := &Compiler{g: g, lg: lg, opts: opts.withDefaults(), blocked: map[*ir.Rule]*ir.Component{},
		cost: map[costKey]int64{}, copies: map[*ir.Component]int64{}, seqs: map[*ir.Set][][]fa.ByteRange{},
		built: map[*ir.Rule]*built{}}
	if g != nil { // tests compile lowered grammars alone
		c.source = abnf.Fingerprint(g)
	}
	c.comps, c.of = lg.Recursion()
	// Rules that reach a self-embedding component: backwards from its
	// rules over the references.
	callers := map[*ir.Rule][]*ir.Rule{}
	for _, r := range lg.Rules {
		seen := map[*ir.Rule]bool{}
		refs(r.Body, func(t *ir.Rule) {
			if !seen[t] {
				seen[t] = true
				callers[t] = append(callers[t], r)
			}
		})
	}
	for _, comp := range c.comps {
		if !comp.SelfEmbedding || comp.TailLoop {
			continue
		}
		queue := append([]*ir.Rule(nil), comp.Rules...)
		for _, r := range queue {
			if _, ok := c.blocked[r]; !ok {
				c.blocked[r] = comp
			}
		}
		for i := 0; i < len(queue); i++ {
			for _, p := range callers[queue[i]] {
				if _, ok := c.blocked[p]; !ok {
					c.blocked[p] = comp
					queue = append(queue, p)
				}
			}
		}
	}
	return c
}

// DefaultStart returns the rules gen dfa compiles when none are named: every
// rule, in grammar order, that reaches no self-embedding recursion. It is an
// error if there is none.
func (c *Compiler) DefaultStart() ([]string, error) {
	var out []string
	var first *ir.Component
	for _, r := range c.g.Rules {
		if comp := c.blocked[c.lg.Rule(r.Name)]; comp != nil {
			if first == nil {
				first = comp
			}
			continue
		}
		out = append(out, r.Name)
	}
	if len(out) == 0 {
		if first == nil {
			return nil, errors.New("the grammar has no rules: nothing to build")
		}
		return nil, fmt.Errorf("nothing regular to build: every rule reaches self-embedding recursion (as in rules %s), whose language need not be regular; the PEG back end takes it", names(first))
	}
	return out, nil
}

// Build compiles each named rule. It refuses rules that reach
// self-embedding recursion, and stops at the first limit exceeded.
func (c *Compiler) Build(rules []string) ([]*Machine, error) {
	if len(rules) == 0 {
		return nil, errors.New("no rules to build")
	}
	var out []*Machine
	for _, name := range rules {
		r := c.g.Rule(name)
		if r == nil {
			return nil, fmt.Errorf("no rule %s in the grammar", name)
		}
		m, err := c.machine(c.lg.Rule(name))
		if err != nil {
			var re *reachedError
			if errors.As(err, &re) && re.rule == r.Name {
				// The rule's own repetition, written as copies rules.
				err = re.err
			}
			return nil, fmt.Errorf("%s: %s: %v", r.Pos, r.Name, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// built is the outcome of compiling one lowered rule, kept for the rules
// that reference it.
type built struct {
	m     *Machine
	err   error
	edges []fa.Edge // per state of m.DFA, flattened: see frag
	from  []int32   // state of each edge
	rec   map[*ir.Component]bool
}

// machine compiles one lowered rule, once. Rules it references outside its
// own recursion are compiled first, and enter its NFA as copies of their
// minimal DFAs (see inline): each rule is determinized once whatever the
// number of rules that reach it, and the automata that get determinized are
// small — a chain of n rules, each used by the next, costs O(n²) in all
// rather than O(n³).
func (c *Compiler) machine(r *ir.Rule) (*Machine, error) {
	b, err := c.compile(r)
	if err != nil {
		return nil, err
	}
	return b.m, nil
}

func (c *Compiler) compile(r *ir.Rule) (*built, error) {
	if b, ok := c.built[r]; ok {
		if b == nil {
			// Unreachable: references inside a component are jumps, so the
			// rules compiled from a rule never lead back to it.
			return nil, fmt.Errorf("internal error: %s is compiled from itself", r.Name)
		}
		return b, b.err
	}
	c.built[r] = nil
	b := &built{}
	b.m, b.rec, b.err = c.compile1(r)
	if b.err == nil {
		d := b.m.DFA
		for s := range d.Next {
			for _, e := range d.Edges(s) {
				b.edges = append(b.edges, e)
				b.from = append(b.from, int32(s))
			}
		}
	}
	c.built[r] = b
	return b, b.err
}

func (c *Compiler) compile1(r *ir.Rule) (*Machine, map[*ir.Component]bool, error) {
	if comp := c.blocked[r]; comp != nil {
		return nil, nil, fmt.Errorf("reaches self-embedding recursion (rules %s), so its language need not be regular: the DFA back end refuses it (the PEG back end takes it)", names(comp))
	}
	est, err := c.estimateRule(r)
	if err != nil {
		return nil, nil, err
	}
	if est > int64(c.opts.MaxNFA) {
		return nil, nil, fmt.Errorf("its NFA would have %s states, more than the limit of %d (-max-nfa raises it)", count(est), c.opts.MaxNFA)
	}
	if c.total+est > int64(c.opts.MaxTotal) {
		return nil, nil, fmt.Errorf("its NFA of %s states would bring the rules compiled to more than %d NFA states in all (-max-total raises the limit; -start compiles fewer rules)", count(est), c.opts.MaxTotal)
	}
	c.total += est
	n, bl := c.nfa(r, est)
	d, err := fa.DeterminizeLimits(n, []int32{n.Start}, fa.Limits{States: c.opts.MaxDFA, Work: c.opts.MaxWork, Simulate: true})
	var le *fa.LimitError
	if errors.As(err, &le) {
		if le.Work {
			return nil, nil, fmt.Errorf("subset construction visits more than %d NFA states (-max-work raises the limit)%s", le.Limit, c.repetitions(r))
		}
		return nil, nil, fmt.Errorf("subset construction exceeds %d DFA states (-max-dfa raises the limit)%s", le.Limit, c.repetitions(r))
	}
	if err != nil {
		return nil, nil, err
	}
	m := &Machine{Rule: r.Name, NFAStates: len(n.States), DFAStates: len(d.Next), DFA: d.Minimize(), Source: c.source}
	for _, comp := range c.comps {
		if bl.rec[comp] {
			m.Recursive = append(m.Recursive, names(comp))
		}
	}
	return m, bl.rec, nil
}

// repetitions names, for a rule whose subset construction passed a limit
// even with its sets pruned (see fa.Limits.Simulate), the bounded
// repetitions in its own body, largest count first: a bounded repetition
// whose copies can all be in progress at once (x{15} after (x|y)*: which
// of the last 16 characters were x) is what makes DFAs exponential.
func (c *Compiler) repetitions(r *ir.Rule) string {
	if r.ABNF == nil || c.g == nil {
		return ""
	}
	var reps []*abnf.Repeat
	abnf.Walk(r.ABNF.Expr, func(n abnf.Node) {
		if rep, ok := n.(*abnf.Repeat); ok && (rep.Min > 1 || rep.Max > 1 && rep.Max != abnf.Inf) {
			reps = append(reps, rep)
		}
	})
	if len(reps) == 0 {
		return ""
	}
	bound := func(rep *abnf.Repeat) int {
		if rep.Max == abnf.Inf {
			return rep.Min
		}
		return rep.Max
	}
	slices.SortStableFunc(reps, func(a, b *abnf.Repeat) int { return bound(b) - bound(a) })
	var parts []string
	for _, rep := range reps[:min(3, len(reps))] {
		parts = append(parts, fmt.Sprintf("%s at %s", clip(abnf.String(rep)), rep.Pos))
	}
	return "; its bounded repetitions, which multiply DFA states when their copies can be in progress at once: " + strings.Join(parts, ", ")
}

// estimateRule returns the size of r's NFA (see nfa).
func (c *Compiler) estimateRule(r *ir.Rule) (int64, error) {
	if comp := c.of[r]; comp != nil {
		return c.copyCost(comp)
	}
	return c.estimate(r.Body, nil)
}

// nfa builds r's NFA, of est states: its body, or, if the rule belongs to
// a strongly regular component, a copy of the component entered at the rule
// and left at its exit.
func (c *Compiler) nfa(r *ir.Rule, est int64) (*fa.NFA, *nfaBuilder) {
	bl := &nfaBuilder{c: c, b: &fa.Builder{}, rec: map[*ir.Component]bool{}, hinted: map[*built]bool{}}
	bl.b.Grow(int(est), int(est))
	var start, end int32
	if comp := c.of[r]; comp != nil {
		f := bl.copy(comp)
		start, end = f.entry[r], f.exit[r]
	} else {
		start, end = bl.inline(r.Body, nil)
	}
	return bl.b.NFA(start, end), bl
}

func names(comp *ir.Component) string {
	var out []string
	seen := map[string]bool{}
	for _, r := range comp.Rules {
		// Derived rules (the non-empty part of a rule) keep the rule's name.
		if !seen[r.Name] {
			seen[r.Name] = true
			out = append(out, r.Name)
		}
	}
	return strings.Join(out, ", ")
}

// count formats a saturated estimate.
func count(n int64) string {
	if n >= satMax {
		return "2^61 or more"
	}
	return fmt.Sprint(n)
}

func refs(x ir.Expr, f func(*ir.Rule)) {
	switch x := x.(type) {
	case *ir.Ref:
		f(x.Rule)
	case *ir.Seq:
		for _, y := range x.Items {
			refs(y, f)
		}
	case *ir.Alt:
		for _, y := range x.Alts {
			refs(y, f)
		}
	case *ir.Rep:
		refs(x.Body, f)
	}
}

// Saturating arithmetic for size estimates: a grammar of a few bytes can
// describe sizes far past any integer type.
// The sum of two saturated values cannot overflow.
const satMax = 1 << 61

func satAdd(a, b int64) int64 { return min(a+b, satMax) }

func satMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > satMax/b {
		return satMax
	}
	return min(a*b, satMax)
}

// checkExpansion refuses a grammar in which some rule, with its bounded
// repetitions written out as gen/internal/ir writes them (n copies; nested options
// up to m), has more than limit nodes. Lowering such a rule would take time
// and memory in proportion, before any automaton is built; no NFA for a
// rule that reaches it could be smaller.
//
// The error names the repetition that makes the rule too large where one
// does: the innermost whose own expansion passes the limit, the construct
// to rewrite (nested counted repetitions multiply: 2(2(…2("a" / "b")…)),
// 24 levels, is 86 bytes and 2^24 copies).
func checkExpansion(g *abnf.Grammar, limit int) error {
	e := &expansion{g: g, a: abnf.Analyze(g), limit: int64(limit)}
	for _, r := range g.Rules {
		e.culprit = nil
		if s, _, _ := e.size(r.Expr); s > int64(limit) {
			what := ""
			if c := e.culprit; c != nil {
				what = fmt.Sprintf(": the repetition %s at %s alone has %s (bounded repetitions are written out as copies, and nested ones multiply)", clip(abnf.String(c.node)), c.node.Pos, count(c.size))
			}
			return fmt.Errorf("%s: %s: with its repetitions written out it has %s nodes, more than the limit of %d (-max-nfa raises it)%s; gen refuses to lower it", r.Pos, r.Name, count(s), limit, what)
		}
	}
	return nil
}

// clip shortens the text of a construct for a message.
func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

type expansion struct {
	g       *abnf.Grammar
	a       *abnf.Analysis
	limit   int64
	culprit *culprit // the innermost repetition past the limit
}

type culprit struct {
	node *abnf.Repeat
	size int64
}

// size returns the size of n written out, the size of its non-empty part
// as gen/internal/ir derives it for a repetition whose body can match the empty
// string (nn(x y) = nn(x) y / nn(y) when x can be empty, and so on), both
// saturated, and whether n can match the empty string (computed on the way
// up, not asked of the analysis at every node, which would walk each
// subtree again). References count one: gen/internal/ir does not inline them.
func (e *expansion) size(n abnf.Node) (all, nonEmpty int64, nullable bool) {
	switch n := n.(type) {
	case *abnf.Alt:
		all, nonEmpty = 1, 1
		for _, x := range n.Alts {
			s, ne, nl := e.size(x)
			all, nonEmpty = satAdd(all, s), satAdd(nonEmpty, ne)
			nullable = nullable || nl
		}
		if !nullable {
			nonEmpty = all
		}
		return all, nonEmpty, nullable
	case *abnf.Concat:
		all, nullable = 1, true
		var sizes, nes []int64
		for _, x := range n.Items {
			s, ne, nl := e.size(x)
			all = satAdd(all, s)
			sizes, nes = append(sizes, s), append(nes, ne)
			nullable = nullable && nl
		}
		if !nullable {
			return all, all, false
		}
		// Every item can be empty: one alternative per item, its
		// non-empty part then the rest.
		rest := int64(0)
		for i := len(sizes) - 1; i >= 0; i-- {
			nonEmpty = satAdd(nonEmpty, satAdd(satAdd(nes[i], rest), 2))
			rest = satAdd(rest, sizes[i])
		}
		return all, nonEmpty, true
	case *abnf.Repeat:
		if n.Max == 0 {
			return 1, 1, true
		}
		s, ne, nl := e.size(n.Body)
		if nl {
			if n.Min == 0 && n.Max == 1 {
				return s, ne, true // [x] with x nullable is x
			}
			s = ne // repeated as its non-empty part
		}
		copies := int64(max(n.Min, 1))
		if n.Max != abnf.Inf {
			copies = int64(n.Max)
		}
		all = satAdd(satMul(copies, satAdd(s, 2)), 1)
		if all > e.limit && e.culprit == nil && copies > 1 {
			e.culprit = &culprit{n, all}
		}
		return all, all, nl || n.Min == 0
	case *abnf.CharVal:
		return int64(max(len(n.Text), 1)), 0, n.Text == ""
	case *abnf.NumVal:
		if n.Range {
			return 1, 1, false
		}
		return int64(max(len(n.Vals), 1)), 1, false
	case *abnf.RuleRef:
		r := e.g.Rule(n.Name)
		return 1, 1, r != nil && e.a.RuleNullable(r)
	}
	return 1, 1, true // a prose value: only legal where it is the empty string
}

// costKey is an expression in the context of a component copy (nil:
// outside any): the cost of a reference depends on whether it is internal.
type costKey struct {
	x    ir.Expr
	comp *ir.Component
}

// estimate returns the number of NFA states inline makes for x, exactly,
// without building them: the expression is a DAG (gen/internal/ir shares the copies
// of repeated expressions), so it is walked once per node, with saturating
// sums. The rules x references outside comp are compiled on the way: their
// minimal DFAs are what inline copies.
func (c *Compiler) estimate(x ir.Expr, comp *ir.Component) (int64, error) {
	k := costKey{x, comp}
	if v, ok := c.cost[k]; ok {
		return v, nil
	}
	var v int64
	switch x := x.(type) {
	case *ir.Set:
		v = 2
		if c.lg.Octets {
			// One edge on the bytes themselves.
			if rs := x.Set.Ranges(); len(rs) > 0 && rs[len(rs)-1].Hi > 0xFF {
				return 0, fmt.Errorf("value %%x%X is not an octet, and numeric values are octets in this grammar", rs[len(rs)-1].Hi)
			}
			break
		}
		for _, s := range c.sequences(x) {
			v += int64(len(s) - 1)
		}
	case *ir.Empty:
		v = 1
	case *ir.Seq:
		v = 1 // only if there are no items (gen/internal/ir makes none such)
		for i, y := range x.Items {
			if i == 0 {
				v = 0
			}
			e, err := c.estimate(y, comp)
			if err != nil {
				return 0, err
			}
			v = satAdd(v, e)
		}
	case *ir.Alt:
		v = 2
		for _, y := range x.Alts {
			e, err := c.estimate(y, comp)
			if err != nil {
				return 0, err
			}
			v = satAdd(v, e)
		}
	case *ir.Rep:
		e, err := c.estimate(x.Body, comp)
		if err != nil {
			return 0, err
		}
		v = satAdd(e, 2)
	case *ir.Ref:
		t := x.Rule
		if comp != nil && c.of[t] == comp {
			v = 2
			break
		}
		b, err := c.compile(t)
		if err != nil {
			var re *reachedError
			if errors.As(err, &re) {
				return 0, err // it names the rule where it happened
			}
			return 0, &reachedError{grammarName(t), err}
		}
		v = int64(b.m.States()) + 1
	default:
		return 0, fmt.Errorf("unknown expression %T", x)
	}
	c.cost[k] = v
	return v, nil
}

// reachedError is an error in compiling a rule that the rule being
// compiled reaches.
type reachedError struct {
	rule string
	err  error
}

func (e *reachedError) Error() string {
	return fmt.Sprintf("in %s, which it reaches: %v", e.rule, e.err)
}

func (e *reachedError) Unwrap() error { return e.err }

// grammarName is the name of the grammar's rule r belongs to: lowering's
// derived rules (copies, non-empty parts, left recursion) are named after
// the rule they were made for, and the user never wrote them.
func grammarName(r *ir.Rule) string {
	if r.Derived() && r.ABNF != nil {
		return r.ABNF.Name
	}
	return r.Name
}

// copyCost is the size of one copy of a strongly regular component.
func (c *Compiler) copyCost(comp *ir.Component) (int64, error) {
	if v, ok := c.copies[comp]; ok {
		return v, nil
	}
	var v int64
	for _, r := range comp.Rules {
		e, err := c.estimate(r.Body, comp)
		if err != nil {
			return 0, err
		}
		v = satAdd(v, satAdd(e, 2))
	}
	c.copies[comp] = v
	return v, nil
}

// sequences returns the UTF-8 byte sequences of a set's code points.
func (c *Compiler) sequences(x *ir.Set) [][]fa.ByteRange {
	if s, ok := c.seqs[x]; ok {
		return s
	}
	var out [][]fa.ByteRange
	for _, r := range x.Set.Ranges() {
		out = append(out, fa.UTF8Sequences(r.Lo, r.Hi)...)
	}
	c.seqs[x] = out
	return out
}

// nfaBuilder inlines lowered expressions into a byte NFA.
type nfaBuilder struct {
	flat   bool // references are inlined as NFAs (Compiler.Diagnose), not as copies of minimal DFAs
	c      *Compiler
	b      *fa.Builder
	rec    map[*ir.Component]bool // components compiled as jumps, here or in rules referenced
	hinted map[*built]bool
}

// frame is one copy of a strongly regular component: the entry and exit
// state of each of its rules.
type frame struct {
	comp        *ir.Component
	entry, exit map[*ir.Rule]int32
}

// inline adds the byte NFA of x; it returns its entry and exit states.
// Within a copy of a component (f not nil), references to the component's
// rules are jumps; any other reference is a copy of the referenced rule's
// minimal DFA (compiled by estimate, which must have been called on x). It
// makes exactly the states estimate counts.
func (bl *nfaBuilder) inline(x ir.Expr, f *frame) (int32, int32) {
	b := bl.b
	switch x := x.(type) {
	case *ir.Set:
		s, e := b.State(), b.State()
		if bl.c.lg.Octets {
			if !x.Set.Empty() {
				b.Edge(s, e, x.Set)
			}
			return s, e
		}
		for _, seq := range bl.c.sequences(x) {
			prev := s
			for i, br := range seq {
				next := e
				if i < len(seq)-1 {
					next = b.State()
				}
				b.Edge(prev, next, fa.Span(rune(br.Lo), rune(br.Hi)))
				prev = next
			}
		}
		return s, e
	case *ir.Empty:
		s := b.State()
		return s, s
	case *ir.Seq:
		var s, prev int32 = -1, -1
		for _, y := range x.Items {
			ys, ye := bl.inline(y, f)
			if s < 0 {
				s = ys
			} else {
				b.Eps(prev, ys)
			}
			prev = ye
		}
		if s < 0 {
			s = b.State()
			return s, s
		}
		return s, prev
	case *ir.Alt:
		s, e := b.State(), b.State()
		for _, y := range x.Alts {
			ys, ye := bl.inline(y, f)
			b.Eps(s, ys)
			b.Eps(ye, e)
		}
		return s, e
	case *ir.Rep:
		s, e := b.State(), b.State()
		ys, ye := bl.inline(x.Body, f)
		b.Eps(s, ys)
		b.Eps(ye, e)
		if x.Min == 0 {
			b.Eps(s, e)
		}
		if x.Max != 1 {
			b.Eps(ye, ys)
		}
		return s, e
	case *ir.Ref:
		t := x.Rule
		if f != nil && bl.c.of[t] == f.comp {
			s, e := b.State(), b.State()
			b.Eps(s, f.entry[t])
			b.Eps(f.exit[t], e)
			return s, e
		}
		if bl.flat {
			if comp := bl.c.of[t]; comp != nil {
				g := bl.copy(comp)
				return g.entry[t], g.exit[t]
			}
			return bl.inline(t.Body, nil)
		}
		return bl.frag(bl.c.built[t])
	}
	s := b.State() // unreachable: estimate refused unknown expressions
	return s, s
}

// frag adds a copy of a compiled rule's minimal DFA: its states, its edges,
// and an exit state after its accepting states.
func (bl *nfaBuilder) frag(t *built) (int32, int32) {
	d := t.m.DFA
	base := bl.b.Len()
	for range d.Next {
		bl.b.State()
	}
	exit := bl.b.State()
	for i, e := range t.edges {
		bl.b.Edge(base+t.from[i], base+e.To, e.On)
	}
	for s, ok := range d.Accept {
		if ok {
			bl.b.Eps(base+int32(s), exit)
		}
	}
	for comp := range t.rec {
		bl.rec[comp] = true
	}
	// The DFA's edges join atoms that lead to the same state; its atoms
	// keep the alphabet what inlining the rule's NFA would have made it,
	// so that the result does not depend on how it was built.
	if !bl.hinted[t] {
		bl.hinted[t] = true
		bl.b.Alphabet(d.Atoms...)
	}
	return base, exit
}

// copy adds a copy of a strongly regular component.
func (bl *nfaBuilder) copy(comp *ir.Component) *frame {
	bl.rec[comp] = true
	f := &frame{comp: comp, entry: map[*ir.Rule]int32{}, exit: map[*ir.Rule]int32{}}
	for _, r := range comp.Rules {
		f.entry[r], f.exit[r] = bl.b.State(), bl.b.State()
	}
	for _, r := range comp.Rules {
		s, e := bl.inline(r.Body, f)
		bl.b.Eps(f.entry[r], s)
		bl.b.Eps(e, f.exit[r])
	}
	return f
}

// Report prints, per rule, the NFA size, the DFA before and after
// minimization and the byte classes, then the rules whose recursion was
// compiled as jumps.
func Report(ms []*Machine) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-16s %10s %12s %12s %8s\n", "rule", "NFA states", "DFA states", "minimal DFA", "classes")
	for _, m := range ms {
		fmt.Fprintf(&b, "%-16s %10d %12d %12d %8d\n", m.Rule, m.NFAStates, m.DFAStates, m.States(), m.Classes())
	}
	for _, m := range ms {
		if len(m.Recursive) > 0 {
			fmt.Fprintf(&b, "%s: regular recursion compiled as jumps: %s\n", m.Rule, strings.Join(m.Recursive, "; "))
		}
	}
	return b.String()
}

// Emit writes the machines as Go source for package pkg: a function DFA
// that returns the compact tables of each rule's DFA, by rule name, which
// package github.com/peguri/rfc3986/syntax checks, expands and runs. State
// 0 is the dead state, 1 the start; a table is a string of bytes (uint8
// states) or of little-endian uint16 pairs when a machine has more than 255
// states. header begins the file, without the comment slashes, one line or
// more.
func Emit(pkg, header string, ms []*Machine) ([]byte, error) {
	return EmitTrees(pkg, header, ms, nil)
}

// EmitTrees is Emit with the tree functions of tc (see [Trees]), if not
// nil: each table of a rule tc has a function for gets it as its Tree.
func EmitTrees(pkg, header string, ms []*Machine, tc *TreeCode) ([]byte, error) {
	for _, m := range ms {
		if n := len(m.table().Next); n+1 > MaxTableStates {
			return nil, fmt.Errorf("%s: its minimal DFA has %d states, and the 16-bit tables number at most %d besides the dead state", m.Rule, n, MaxTableStates-1)
		}
	}
	var b bytes.Buffer
	for _, line := range strings.Split(header, "\n") {
		fmt.Fprintf(&b, "// %s\n", line)
	}
	fmt.Fprintf(&b, "\npackage %s\n\n", pkg)
	fmt.Fprintf(&b, "import \"github.com/peguri/rfc3986/syntax\"\n\n")
	fmt.Fprintf(&b, "// DFA returns the minimal byte DFA of each rule, as gen dfa built it\n")
	fmt.Fprintf(&b, "// (see gen/dfa), for syntax.NewGrammar.\n")
	fmt.Fprintf(&b, "func DFA() syntax.Tables {\n")
	fmt.Fprintf(&b, "return syntax.Tables{\n")
	for _, m := range ms {
		classes, next, accept, wide := tables(m)
		fmt.Fprintf(&b, "\t%q: {\n", m.Rule)
		fmt.Fprintf(&b, "\t\tStates: %d,\n", len(accept))
		fmt.Fprintf(&b, "\t\tNClass: %d,\n", len(m.table().Atoms)+1)
		fmt.Fprintf(&b, "\t\tWide: %v,\n", wide)
		fmt.Fprintf(&b, "\t\tClasses: %s,\n", quote(classes))
		fmt.Fprintf(&b, "\t\tNext: %s,\n", quote(next))
		fmt.Fprintf(&b, "\t\tAccept: %s,\n", quote(accept))
		if m.Diag != nil {
			emitDiagnostics(&b, m.Diag)
		}
		if m.Charset != nil {
			emitCharset(&b, *m.Charset)
		}
		if f := tc.funcFor(m.Rule); f != "" {
			fmt.Fprintf(&b, "\t\tTree: %s,\n", f)
		}
		if m.Walk != nil {
			fmt.Fprintf(&b, "\t\tWalk: %s,\n\t\tWalkSum: %#x,\n", m.Walk.Func, m.Walk.Sum)
		}
		if m.Source != "" {
			fmt.Fprintf(&b, "\t\tSource: %q,\n", m.Source)
		}
		fmt.Fprintf(&b, "\t},\n")
	}
	fmt.Fprintf(&b, "}\n}\n")
	walks := false
	for _, m := range ms {
		if m.Walk == nil {
			continue
		}
		if !walks {
			b.WriteString("\n// The walks (gen dfa -walk): each is its rule's DFA, with the marks it\n")
			b.WriteString("// was written for, as Go code (see syntax.WalkFunc).\n\n")
			walks = true
		}
		b.WriteString(m.Walk.Code)
	}
	if tc != nil && len(tc.Funcs) > 0 {
		b.WriteString("\n// The tree functions (gen dfa -tree): each evaluates pigeon's PEG\n")
		b.WriteString("// expressions as pigeon's parser does and builds the same nodes, for\n")
		b.WriteString("// inputs the rule's DFA accepted (see syntax.Grammar.Tree).\n")
		b.Write(tc.Code)
	}
	return format.Source(b.Bytes())
}

// table is the DFA Emit writes: the one the diagnostics are for, if any.
func (m *Machine) table() *fa.DFA {
	if m.Diag != nil && m.Diag.DFA != nil {
		return m.Diag.DFA
	}
	return m.DFA
}

// tables lays a machine out: class 0 and state 0 are dead.
func tables(m *Machine) (classes, next, accept []byte, wide bool) {
	d := m.table()
	classes = make([]byte, 256)
	for i, a := range d.Atoms {
		for _, r := range a.Ranges() {
			for c := r.Lo; c <= r.Hi && c < 256; c++ {
				classes[c] = byte(i + 1)
			}
		}
	}
	states := len(d.Next) + 1
	wide = states > 255
	nclass := len(d.Atoms) + 1
	put := func(v int32) {
		if wide {
			next = append(next, byte(v), byte(v>>8))
		} else {
			next = append(next, byte(v))
		}
	}
	for range nclass { // the dead state
		put(0)
	}
	for s := range d.Next {
		put(0) // class 0
		for a := range d.Atoms {
			put(d.Next[s][a] + 1)
		}
	}
	accept = make([]byte, states)
	for s, ok := range d.Accept {
		if ok {
			accept[s+1] = 1
		}
	}
	return classes, next, accept, wide
}

// quote writes bytes as Go string literals joined by +, 64 bytes each:
// printable ASCII as itself, the rest escaped.
func quote(b []byte) string {
	var parts []string
	for i := 0; i < len(b); i += 64 {
		chunk := b[i:min(i+64, len(b))]
		var s strings.Builder
		s.WriteByte('"')
		for _, c := range chunk {
			switch {
			case c == '"' || c == '\\':
				s.WriteByte('\\')
				s.WriteByte(c)
			case c >= 0x20 && c < 0x7f:
				s.WriteByte(c)
			default:
				fmt.Fprintf(&s, "\\x%02x", c)
			}
		}
		s.WriteByte('"')
		parts = append(parts, s.String())
	}
	if len(parts) == 0 {
		return `""`
	}
	return strings.Join(parts, " +\n\t\t\t")
}

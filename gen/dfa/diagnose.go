package dfa

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/internal/fa"
	"github.com/peguri/rfc3986/gen/internal/ir"
)

// Diagnostics say, for each state of a machine, why an input that stops
// there fails, in the grammar's terms: what could have come next (rules
// and terminals, as abnf.Diagnosis.Next gives them: "pchar", "/", "end of
// input") and, for each byte class and for the end of the input, the
// innermost rule that could not continue (abnf.Diagnosis.Rule). They are
// computed once, here, by diagnosing a shortest input that reaches each
// state, and emitted with the tables, so that a parser reports errors in
// the grammar's terms at the cost of a table lookup, without running the
// grammar. Two inputs that reach the same state of a minimal DFA can go
// on with exactly the same texts, so what could come next is exact; the
// rule that could not continue is the one of the shortest such input (for
// another input, the same state may stand in another rule of the same
// language: Appendix A's path rules share their segments' states).
type Diagnostics struct {
	// DFA is the machine the diagnostics are for, which Emit writes in
	// place of the machine's minimal DFA (see Compiler.Diagnose).
	DFA *fa.DFA
	// Approximate is set when the diagnostics are those of the minimal
	// DFA's states: a state that stands in several rules is described as
	// the first input that reaches it reads it.
	Approximate bool
	Rules       []string   // the rules that can fail, each once
	Expects     [][]string // the distinct lists of what could come next
	// Expect is, per table state (0 the dead state, s+1 the machine's
	// state s), an index into Expects.
	Expect []int
	// Fail is, per table state and per column — the byte classes of the
	// tables (0 the bytes of no class), then the end of the input — an
	// index into Rules: the rule that could not continue on a byte of that
	// class, or at the end. Entries where the machine goes on, or accepts,
	// are 0.
	Fail []int
}

// Diagnose computes m's diagnostics; m is one of c's machines. m's
// minimal DFA may have merged states that the grammar reaches in different
// rules (in RFC 3986's URI, the states of a path segment and of the query
// accept the same texts): their diagnostics would then be those of
// whichever comes first. So the rule is compiled again with every rule it
// references inlined as its own NFA, not as a copy of its minimal DFA, so
// that each state of subset construction stands in its own rules; each
// state is diagnosed, and the DFA is minimized keeping apart the states
// whose diagnostics differ. The result, Diagnostics.DFA, is what Emit
// writes: it accepts the same language as m.DFA, with as many more states
// as the diagnostics need (RFC 3986's URI-reference: 182 become 196).
// Should the inlined NFA exceed the compiler's limits, the diagnostics are
// those of m.DFA's own states, and Approximate says so.
func (c *Compiler) Diagnose(m *Machine) error {
	r := c.g.Rule(m.Rule)
	if r == nil {
		return fmt.Errorf("no rule %s in the grammar", m.Rule)
	}
	if c.diag == nil {
		c.diag = abnf.NewDiagnoser(c.g)
		c.diagBase = c.diag.Work()
	}
	dg := c.diag
	if c.diagWork+dg.Work()-c.diagBase > c.opts.maxDiagWork() {
		m.Diag, m.DiagBudget = nil, true // the budget is spent: no diagnostics
		return nil
	}
	var d *fa.DFA
	if c.diagWork < c.opts.maxDiagWork() {
		var spent bool
		d, spent = c.flatDFA(c.lg.Rule(r.Name))
		m.DiagBudget = m.DiagBudget || spent
	} else {
		m.DiagBudget = true
	}
	approx := d == nil
	var labels []label
	if !approx {
		flat, err := c.diagnoseStates(dg, r.Name, d)
		switch {
		case errors.Is(err, errDiagBudget):
			approx, m.DiagBudget = true, true
		case errors.Is(err, abnf.ErrTooAmbiguous):
			approx = true
		case err != nil:
			return err
		default:
			var rep []int
			d, rep = minimizeLabeled(d, flat)
			labels = make([]label, len(rep))
			for q, s := range rep {
				labels[q] = flat[s]
			}
		}
	}
	if approx {
		d = m.DFA
		var err error
		labels, err = c.diagnoseStates(dg, r.Name, d)
		if errors.Is(err, errDiagBudget) {
			m.DiagBudget = true
		}
		if errors.Is(err, errDiagBudget) || errors.Is(err, abnf.ErrTooAmbiguous) {
			// No diagnostics: the tables are valid without them, and
			// errors then name bytes rather than rules. (The diagnoser
			// follows every derivation, one stack each: a left-recursive
			// rule nests without end at its first offset, and stops it
			// with ErrTooAmbiguous; its DFA is exact all the same.)
			m.Diag = nil
			return nil
		}
		if err != nil {
			return err
		}
	}
	out := &Diagnostics{DFA: d, Approximate: approx}
	ncols := len(d.Atoms) + 2
	out.Expect = make([]int, len(d.Next)+1)
	out.Fail = make([]int, (len(d.Next)+1)*ncols)
	rules := map[string]int{}
	ruleIndex := func(r string) int {
		i, ok := rules[r]
		if !ok {
			i = len(out.Rules)
			rules[r] = i
			out.Rules = append(out.Rules, r)
		}
		return i
	}
	ruleIndex(r.Name)
	expects := map[string]int{}
	for s, l := range labels {
		if l.next == nil {
			continue // unreachable: no input stops there
		}
		key := strings.Join(l.next, "\x00")
		e, ok := expects[key]
		if !ok {
			e = len(out.Expects)
			expects[key] = e
			out.Expects = append(out.Expects, l.next)
		}
		out.Expect[s+1] = e
		for col, f := range l.fail {
			if f != "" {
				out.Fail[(s+1)*ncols+col] = ruleIndex(f)
			}
		}
	}
	m.Diag = out
	return nil
}

// errDiagBudget stops diagnostics past the compiler's budget
// (Options.MaxDiagnose).
var errDiagBudget = errors.New("diagnosis budget spent")

// DefaultMaxDiagnose is the default of Options.MaxDiagnose: above what
// RFC 3986 and its extensions need (1.3 million for Appendix A's 39
// rules; RFC 3987's 73 rules, every one compiled for this module, need
// more than 4.2 million and at most 8.4), low enough that no grammar makes
// gen dfa run away diagnosing (a chain of 800 nested rules spends it in a
// few seconds).
const DefaultMaxDiagnose = 1 << 23

func (o Options) maxDiagWork() int {
	if o.MaxDiagnose > 0 {
		return o.MaxDiagnose
	}
	return DefaultMaxDiagnose
}

// label is the diagnosis of one DFA state: what could come next, and the
// rule that could not continue per column (byte class 0, each atom, the
// end of the input; "" where the machine goes on or accepts).
type label struct {
	next []string
	fail []string
}

func (l label) key(accept bool) string {
	return fmt.Sprint(accept, l.next, l.fail)
}

// diagnoseStates diagnoses each state of d, reached breadth first from
// the start (each atom taken by its lowest byte): a shortest input that
// reaches it, read one byte after the state it was reached from
// (abnf.Prefix), so that the work is a step per state and atom, not the
// inputs' lengths. Unreachable states get the zero label. It stops with
// errDiagBudget when the compiler's diagnosis budget is spent.
func (c *Compiler) diagnoseStates(dg *abnf.Diagnoser, rule string, d *fa.DFA) ([]label, error) {
	g := c.g
	n := len(d.Next)
	reps := make([]byte, len(d.Atoms))
	for i, a := range d.Atoms {
		rs := a.Ranges()
		if len(rs) == 0 || rs[0].Lo > 0xff {
			return nil, fmt.Errorf("%s: byte class %d is empty", rule, i)
		}
		reps[i] = byte(rs[0].Lo)
	}
	// The representative of each column but the last: class 0 holds the
	// bytes no atom has (none, if the atoms cover all 256).
	colRep := make([]int, len(d.Atoms)+1)
	colRep[0] = -1
	var covered [256]bool
	for i, a := range d.Atoms {
		colRep[i+1] = int(reps[i])
		for _, r := range a.Ranges() {
			for ch := r.Lo; ch <= r.Hi && ch < 256; ch++ {
				covered[ch] = true
			}
		}
	}
	for ch := range 256 {
		if !covered[ch] {
			colRep[0] = ch
			break
		}
	}
	start, err := dg.Begin(rule)
	if err != nil {
		return nil, err
	}
	prefixes := make([]*abnf.Prefix, n)
	prefixes[0] = start
	seen := make([]bool, n)
	seen[0] = true
	queue := []int{0}
	out := make([]label, n)
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		p := prefixes[s]
		prefixes[s] = nil // its successors are made below: free it
		if c.diagWork+dg.Work()-c.diagBase > c.opts.maxDiagWork() {
			return nil, errDiagBudget
		}
		x, err := p.Diagnose()
		if err != nil {
			return nil, fmt.Errorf("%s: diagnosing a state: %w", rule, err)
		}
		l := label{next: slices.Clone(x.Next), fail: make([]string, len(colRep)+1)}
		if l.next == nil {
			l.next = []string{}
		}
		for col, rep := range colRep {
			if rep < 0 || col > 0 && d.Next[s][col-1] >= 0 {
				continue
			}
			ch := rune(rep)
			if !g.Octets && rep >= 0x80 {
				// A byte that does not begin a character here: no
				// terminal reads it.
				ch = utf8.MaxRune + 1
			}
			l.fail[col], _ = x.RuleFor(ch)
		}
		if !d.Accept[s] {
			l.fail[len(colRep)], _ = x.RuleFor(-1)
		}
		out[s] = l
		for a, t := range d.Next[s] {
			if t >= 0 && !seen[t] {
				seen[t] = true
				prefixes[t] = p.Next(reps[a])
				queue = append(queue, int(t))
			}
		}
	}
	return out, nil
}

// flatDFA is the subset construction of r with every rule it references
// inlined as an NFA (strongly regular recursion as copies of its
// component), without the states from which no input is accepted; nil
// when it would pass the compiler's limits, with spent set when the limit
// passed is the diagnosis budget.
func (c *Compiler) flatDFA(r *ir.Rule) (d *fa.DFA, spent bool) {
	sizes := map[flatKey]int64{}
	var est int64
	if comp := c.of[r]; comp != nil {
		est = c.flatCopySize(comp, sizes)
	} else {
		est = c.flatSize(r.Body, nil, sizes)
	}
	if est > int64(c.opts.MaxNFA) {
		return nil, false
	}
	if int64(c.diagWork)+est+int64(c.diag.Work()-c.diagBase) > int64(c.opts.maxDiagWork()) {
		return nil, true
	}
	c.diagWork += int(est)
	bl := &nfaBuilder{c: c, b: &fa.Builder{}, rec: map[*ir.Component]bool{}, hinted: map[*built]bool{}, flat: true}
	var start, end int32
	if comp := c.of[r]; comp != nil {
		f := bl.copy(comp)
		start, end = f.entry[r], f.exit[r]
	} else {
		start, end = bl.inline(r.Body, nil)
	}
	n := bl.b.NFA(start, end)
	d, err := fa.DeterminizeLimits(n, []int32{n.Start}, fa.Limits{States: c.opts.MaxDFA, Work: c.opts.MaxWork})
	if err != nil {
		return nil, false
	}
	return prune(d), false
}

type flatKey struct {
	x    ir.Expr
	comp *ir.Component
}

// flatSize is the number of NFA states inline makes for x in flat mode,
// saturated.
func (c *Compiler) flatSize(x ir.Expr, comp *ir.Component, sizes map[flatKey]int64) int64 {
	k := flatKey{x, comp}
	if v, ok := sizes[k]; ok {
		return v
	}
	sizes[k] = satMax // a reference back to x before it is sized: recursion
	var v int64
	switch x := x.(type) {
	case *ir.Set:
		v = 2
		if !c.lg.Octets {
			for _, s := range c.sequences(x) {
				v = satAdd(v, int64(len(s)-1))
			}
		}
	case *ir.Empty:
		v = 1
	case *ir.Seq:
		v = 1
		for _, y := range x.Items {
			v = satAdd(v, c.flatSize(y, comp, sizes))
		}
	case *ir.Alt:
		v = 2
		for _, y := range x.Alts {
			v = satAdd(v, c.flatSize(y, comp, sizes))
		}
	case *ir.Rep:
		v = satAdd(2, c.flatSize(x.Body, comp, sizes))
	case *ir.Ref:
		t := x.Rule
		switch tc := c.of[t]; {
		case comp != nil && tc == comp:
			v = 2
		case tc != nil:
			v = c.flatCopySize(tc, sizes)
		default:
			v = c.flatSize(t.Body, nil, sizes)
		}
	default:
		v = satMax
	}
	sizes[k] = v
	return v
}

// flatCopySize is the size of one flat copy of a strongly regular
// component.
func (c *Compiler) flatCopySize(comp *ir.Component, sizes map[flatKey]int64) int64 {
	var v int64
	for _, r := range comp.Rules {
		v = satAdd(v, satAdd(2, c.flatSize(r.Body, comp, sizes)))
	}
	return v
}

// prune drops the states of d that no input reaches or that accept
// nothing afterwards (the state 0, the start, is kept), renumbering the
// rest breadth first.
func prune(d *fa.DFA) *fa.DFA {
	n := len(d.Next)
	live := make([]bool, n)
	pred := make([][]int32, n)
	for s, row := range d.Next {
		for _, t := range row {
			if t >= 0 {
				pred[t] = append(pred[t], int32(s))
			}
		}
	}
	var queue []int32
	for s, ok := range d.Accept {
		if ok {
			live[s] = true
			queue = append(queue, int32(s))
		}
	}
	for i := 0; i < len(queue); i++ {
		for _, p := range pred[queue[i]] {
			if !live[p] {
				live[p] = true
				queue = append(queue, p)
			}
		}
	}
	num := make([]int32, n)
	for i := range num {
		num[i] = -1
	}
	num[0] = 0
	order := []int32{0}
	out := &fa.DFA{Atoms: d.Atoms}
	for i := 0; i < len(order); i++ {
		s := order[i]
		row := make([]int32, len(d.Atoms))
		for a, t := range d.Next[s] {
			row[a] = -1
			if t < 0 || !live[t] {
				continue
			}
			if num[t] < 0 {
				num[t] = int32(len(order))
				order = append(order, t)
			}
			row[a] = num[t]
		}
		out.Next = append(out.Next, row)
		out.Accept = append(out.Accept, d.Accept[s])
	}
	return out
}

// minimizeLabeled returns the minimal DFA equivalent to d that keeps
// apart states of different labels: d's Minimize, run on d with, for each
// label, one more atom (a code point above the bytes, which no input has)
// leading from each state of that label to an accepting sink; then the
// added atoms and the sink are taken away again. rep gives, for each of
// its states, a state of d it stands for (and so has its label).
func minimizeLabeled(d *fa.DFA, labels []label) (min *fa.DFA, rep []int) {
	ids := map[string]int{}
	lab := make([]int, len(d.Next))
	for s, l := range labels {
		k := l.key(d.Accept[s])
		id, ok := ids[k]
		if !ok {
			id = len(ids)
			ids[k] = id
		}
		lab[s] = id
	}
	k := len(d.Atoms)
	sink := int32(len(d.Next))
	aug := &fa.DFA{Atoms: slices.Clone(d.Atoms)}
	for i := range len(ids) {
		aug.Atoms = append(aug.Atoms, fa.Span(rune(0x110000+i), rune(0x110000+i)))
	}
	for s, row := range d.Next {
		r := make([]int32, k+len(ids))
		copy(r, row)
		for j := k; j < len(r); j++ {
			r[j] = -1
		}
		r[k+lab[s]] = sink
		aug.Next = append(aug.Next, r)
		aug.Accept = append(aug.Accept, d.Accept[s])
	}
	none := make([]int32, k+len(ids))
	for j := range none {
		none[j] = -1
	}
	aug.Next = append(aug.Next, none)
	aug.Accept = append(aug.Accept, true)
	m := aug.Minimize()
	// The sink is the one state with no transition at all (every other
	// state has its label's).
	out := &fa.DFA{Atoms: d.Atoms}
	num := make([]int32, len(m.Next))
	j := int32(0)
	for s, row := range m.Next {
		num[s] = -1
		if slices.IndexFunc(row, func(t int32) bool { return t >= 0 }) >= 0 {
			num[s] = j
			j++
		}
	}
	for s, row := range m.Next {
		if num[s] < 0 {
			continue
		}
		r := make([]int32, k)
		for a := range k {
			r[a] = -1
			if t := row[a]; t >= 0 {
				r[a] = num[t]
			}
		}
		out.Next = append(out.Next, r)
		out.Accept = append(out.Accept, m.Accept[s])
	}
	// Each state of out and a state of d reached by the same input: the
	// two are walked together, breadth first.
	rep = make([]int, len(out.Next))
	for i := range rep {
		rep[i] = -1
	}
	rep[0] = 0
	queue := []int{0}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		for a, u := range out.Next[q] {
			if t := d.Next[rep[q]][a]; u >= 0 && t >= 0 && rep[u] < 0 {
				rep[u] = int(t)
				queue = append(queue, int(u))
			}
		}
	}
	return out, rep
}

// emitDiagnostics writes d as the diagnostic fields of a syntax.Table:
// the indices one byte each, or two (little-endian) when a list has more
// than 256 entries.
func emitDiagnostics(b *bytes.Buffer, d *Diagnostics) {
	indices := func(xs []int, n int) []byte {
		var out []byte
		for _, x := range xs {
			if n > 256 {
				out = append(out, byte(x), byte(x>>8))
			} else {
				out = append(out, byte(x))
			}
		}
		return out
	}
	strs := func(ss []string) string {
		q := make([]string, len(ss))
		for i, s := range ss {
			q[i] = strconv.Quote(s)
		}
		return "{" + strings.Join(q, ", ") + "}"
	}
	fmt.Fprintf(b, "\t\tFailRules: []string%s,\n", strs(d.Rules))
	fmt.Fprintf(b, "\t\tFailRule: %s,\n", quote(indices(d.Fail, len(d.Rules))))
	fmt.Fprintf(b, "\t\tExpects: [][]string{\n")
	for _, e := range d.Expects {
		fmt.Fprintf(b, "\t\t\t%s,\n", strs(e))
	}
	fmt.Fprintf(b, "\t\t},\n")
	fmt.Fprintf(b, "\t\tExpect: %s,\n", quote(indices(d.Expect, len(d.Expects))))
}

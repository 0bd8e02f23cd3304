package abnf

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Matcher decides whether an input matches a rule with ABNF's meaning:
// alternation is unordered (RFC 5234 §3.2), a repetition takes any count in
// its bounds and gives input back (§3.6, §3.7), and the whole input must be
// matched. It is exact for every grammar that reads, left recursion and
// nullable rules included.
//
// Input is bytes. Quoted strings match ASCII letters in either case (RFC 5234
// §2.3; only A–Z and a–z fold, so U+212A KELVIN SIGN does not match "k").
// Numeric values match characters: UTF-8 encoded code points by default, so
// that %xE9 matches "é" (two bytes) and invalid UTF-8 matches no terminal;
// single bytes when the grammar was read with [Options.Octets].
//
// # Design
//
// Each rule a match needs is compiled into a machine, a nondeterministic
// automaton over characters whose transitions read a character class, call
// another machine, or count. A reference to a rule that is not recursive is
// inlined while the rule's automaton stays small ([inlineLimit] states); a
// recursive rule, or a large one, stays a machine of its own that is called.
// A repetition *x is a loop. A bounded repetition n*m x is unrolled into
// copies while they stay small ([unrollLimit] states), and is otherwise one
// loop with a counter: 65536(65536"a") is a few states, not 2^32. A direct
// tail call of a rule to itself is a jump.
//
// The input is read once, left to right, by an Earley recognizer over these
// machines (a recursive transition network): an item is a state, the position
// where its machine was called, and the values of the counters of the loops
// it is in. Nullable machines are handled as Aycock and Horspool do: a call to
// a machine that can match the empty string also steps over the call at once.
// Only the sets that a live item may still return to are kept; the others are
// dropped as the input is read. A set holds no item that cannot read the
// next character and cannot end its machine without reading (each state
// knows what it can read first and whether it can end, computed once per
// program), and predicts no call that cannot match there: on RFC 5322
// messages that cut the matcher's time by two fifths. When the start rule needs no call and no
// counter, which is the case of every regular grammar of moderate size
// (RFC 3986 Appendix A among them), the recognizer is a plain NFA simulation.
//
// # Complexity
//
// Let G be the number of states compiled for the start rule (linear in the
// grammar's text, times at most [inlineLimit]) and n the input length.
//
//   - No calls and no counters: time O(n·G), memory O(G) beyond the input.
//   - Counters: each item also carries counter values, so both bounds gain a
//     factor of the number of distinct counts live at one position. It is 1
//     when the body's strings all have one length (1100(1100"a")) and when
//     the bound is above the input's length (60000(1*3"a") on shorter
//     input: the largest count dominates); it is at most min(n, max)
//     otherwise (8000(1*3"a") on 20,000 characters).
//   - Calls: time O(n·G) for grammars where the number of distinct call
//     positions live at one position is bounded (the usual case: nested
//     comments, JSON, HTTP), memory O(d·G) where d is the number of positions
//     still awaited (the nesting depth); in the worst case, for highly
//     ambiguous grammars, Earley's O(n³·G²) time and O(n²·G) memory.
//
// A Matcher is safe for concurrent use. It never panics: a grammar it cannot
// use is an error from [NewMatcher].
type Matcher struct {
	g     *Grammar
	a     *Analysis
	index map[string]*Rule // lower-case rule name → rule
	rec   map[*Rule]bool   // the rule lies on a cycle of references
	// prose holds the rules whose definitions have a prose value outside
	// a zero repetition, with the error: matching a rule that reaches one
	// is that error (see reaching).
	prose map[*Rule]error

	mu                   sync.Mutex
	progs                map[progKey]*prog
	sizes                map[Node]int
	charCl               map[Node][]rng // nil entry: not a single-character expression
	noNFA                bool           // tests: always the Earley recognizer
	inlineMax, unrollMax int            // inlineLimit and unrollLimit, lowered by tests
	pool                 sync.Pool

	// MaxWorkPerByte, when positive, bounds the work of one Match or
	// Prefixes call on n bytes — the states and items it visits — to
	// MaxWorkPerByte × max(n, 1000) (saturated). Past it, the call
	// returns an error wrapping [ErrMatchWork]. Work is linear in the
	// input on most grammars, and up to cubic on ambiguous ones (see
	// Complexity): on s = "v" *( ";" s ), 1,001 bytes cost 21 million
	// steps, 2,001 bytes 169 million (a step is 50 to 70 ns). Zero, the
	// default, bounds nothing. Set it before the Matcher is used.
	MaxWorkPerByte int
}

// ErrMatchWork is wrapped by the error of a match that passed the
// matcher's work budget ([Matcher.MaxWorkPerByte]): whether the input
// matches is not known.
var ErrMatchWork = errors.New("the matcher's work budget is spent")

// budget is the most steps a match of n bytes may take; 0 for no bound.
func (m *Matcher) budget(n int) int {
	if m.MaxWorkPerByte <= 0 {
		return 0
	}
	n = max(n, 1000)
	if m.MaxWorkPerByte > math.MaxInt/n {
		return math.MaxInt // saturated: a flag of 2^60 must not wrap
	}
	return m.MaxWorkPerByte * n
}

// Limits of the compiler. They bound the size of the automata, not what the
// matcher accepts: past a limit, a rule is called instead of inlined, and a
// repetition counts instead of unrolling.
const (
	// inlineLimit is the largest automaton, in states, of a non-recursive
	// rule that is copied into the rules that use it.
	inlineLimit = 1 << 14
	// unrollLimit is the largest automaton, in states, of a bounded
	// repetition unrolled into copies of its body.
	unrollLimit = 1 << 10
	// maxInput is the longest input: positions are 32-bit.
	maxInput = math.MaxInt32 - 1
)

// NewMatcher prepares a matcher for g. It refuses a grammar with an undefined
// rule or a numeric value that the grammar's mode cannot match (a value above
// %xFF in octet mode, a surrogate or a value above U+10FFFF otherwise). A
// prose value outside a zero repetition (RFC 5234 §4: prose has no machine
// meaning) is an error of the matches of the rules that reach it: a grammar
// may define, as prose, rules it imports and does not use (see
// [Options.Starts]).
func NewMatcher(g *Grammar) (*Matcher, error) {
	if g == nil {
		return nil, fmt.Errorf("abnf: no grammar")
	}
	m := &Matcher{g: g, index: map[string]*Rule{}, rec: map[*Rule]bool{}, prose: map[*Rule]error{},
		progs: map[progKey]*prog{}, sizes: map[Node]int{}, charCl: map[Node][]rng{},
		inlineMax: inlineLimit, unrollMax: unrollLimit}
	for _, r := range g.Rules {
		if r == nil || r.Expr == nil {
			return nil, fmt.Errorf("abnf: a rule has no expression")
		}
		m.index[strings.ToLower(r.Name)] = r
	}
	if g.byName == nil || len(g.byName) != len(m.index) {
		// A grammar built by hand: Analyze looks rules up through byName.
		g.byName = map[string]*Rule{}
		for k, r := range m.index {
			g.byName[k] = r
		}
	}
	for _, r := range g.Rules {
		if err := m.validate(r.Expr, false); err != nil {
			var pe *proseError
			if !errors.As(err, &pe) {
				return nil, err
			}
			m.prose[r] = err
		}
	}
	m.a = Analyze(g)
	for _, c := range m.a.Recursive() {
		for _, r := range c {
			m.rec[r] = true
		}
	}
	return m, nil
}

func (m *Matcher) validate(n Node, underZero bool) error {
	switch n := n.(type) {
	case *Alt:
		if len(n.Alts) == 0 {
			return fmt.Errorf("%s: empty alternation", n.Pos)
		}
		for _, x := range n.Alts {
			if err := m.validate(x, underZero); err != nil {
				return err
			}
		}
	case *Concat:
		if len(n.Items) == 0 {
			return fmt.Errorf("%s: empty concatenation", n.Pos)
		}
		for _, x := range n.Items {
			if err := m.validate(x, underZero); err != nil {
				return err
			}
		}
	case *Repeat:
		if n.Body == nil || n.Min < 0 || n.Max != Inf && (n.Max < 0 || n.Max < n.Min) {
			return fmt.Errorf("%s: malformed repetition", n.Pos)
		}
		return m.validate(n.Body, underZero || n.Max == 0)
	case *RuleRef:
		if m.index[strings.ToLower(n.Name)] == nil {
			return fmt.Errorf("%s: undefined rule %s", n.Pos, n.Name)
		}
	case *CharVal:
	case *NumVal:
		if len(n.Vals) == 0 || n.Range && len(n.Vals) != 2 {
			return fmt.Errorf("%s: malformed numeric value", n.Pos)
		}
		for _, v := range n.Vals {
			switch {
			case m.g.Octets && (v < 0 || v > 0xFF):
				return fmt.Errorf("%s: value %s is above %%xFF, the largest octet", n.Pos, formatNum(n))
			case !m.g.Octets && (v < 0 || v > utf8.MaxRune || v >= 0xD800 && v <= 0xDFFF):
				return fmt.Errorf("%s: value %s is not a Unicode scalar value", n.Pos, formatNum(n))
			}
		}
	case *Prose:
		if !underZero {
			return &proseError{n}
		}
	default:
		return fmt.Errorf("abnf: unknown node %T", n)
	}
	return nil
}

// Match compiles g and matches input against rule.
func Match(g *Grammar, rule string, input []byte) (bool, error) {
	m, err := NewMatcher(g)
	if err != nil {
		return false, err
	}
	return m.Match(rule, input)
}

// Match reports whether the whole input matches rule.
func (m *Matcher) Match(rule string, input []byte) (bool, error) {
	p, err := m.prog(rule, input)
	if err != nil {
		return false, err
	}
	r := m.getRun()
	defer m.pool.Put(r)
	ok := r.run(p, input, m.g.Octets, nil, m.budget(len(input)))
	if r.over {
		return false, m.workError(rule, input)
	}
	return ok, nil
}

// workError is the error of a match of rule past its budget.
func (m *Matcher) workError(rule string, input []byte) error {
	return fmt.Errorf("abnf: %s on %d bytes: more than %d steps: %w", rule, len(input), m.budget(len(input)), ErrMatchWork)
}

// Prefixes returns the lengths of the prefixes of input that match rule, in
// increasing order.
func (m *Matcher) Prefixes(rule string, input []byte) ([]int, error) {
	p, err := m.prog(rule, input)
	if err != nil {
		return nil, err
	}
	r := m.getRun()
	defer m.pool.Put(r)
	ends := []int{}
	r.run(p, input, m.g.Octets, &ends, m.budget(len(input)))
	if r.over {
		return nil, m.workError(rule, input)
	}
	if len(ends) == 0 {
		return nil, nil
	}
	return ends, nil
}

func (m *Matcher) getRun() *mrun {
	r, _ := m.pool.Get().(*mrun)
	if r == nil {
		r = &mrun{}
	}
	return r
}

// prog returns the compiled program for rule, compiling it on first use.
func (m *Matcher) prog(rule string, input []byte) (*prog, error) {
	r := m.index[strings.ToLower(rule)]
	if r == nil {
		return nil, fmt.Errorf("no rule %s in the grammar", rule)
	}
	if len(input) > maxInput {
		return nil, fmt.Errorf("input of %d bytes is longer than the matcher's %d", len(input), maxInput)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.reaching(r); err != nil {
		return nil, err
	}
	exact := m.compileProg(r, math.MaxInt)
	// A counted loop costs a counter in every item inside it, and one
	// whose body can match the empty string a call per iteration, which
	// makes Earley keep one call per position. Its bound cannot be reached
	// by an input shorter than it (every iteration counted reads a
	// character), and such a loop is then exactly unbounded — a star when
	// it has no minimum: the program compiled for this input relaxes the
	// loops whose bound lies above the input's length.
	k, _ := slices.BinarySearch(exact.callMax, len(input)+1)
	if k == len(exact.callMax) {
		return exact, nil
	}
	return m.compileProg(r, exact.callMax[k]-1), nil
}

// proseError is a prose value outside a zero repetition.
type proseError struct{ at *Prose }

func (e *proseError) Error() string {
	return fmt.Sprintf("%s: prose value <%s> has no machine meaning", e.at.Pos, e.at.Text)
}

// reaching returns the error of a prose value in a rule r reaches (r
// included), nil if there is none. m.mu is held.
func (m *Matcher) reaching(r *Rule) error {
	if len(m.prose) == 0 {
		return nil
	}
	seen := map[*Rule]bool{r: true}
	stack := []*Rule{r}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if err := m.prose[x]; err != nil {
			return err
		}
		Walk(x.Expr, func(n Node) {
			if ref, ok := n.(*RuleRef); ok {
				if d := m.index[strings.ToLower(ref.Name)]; d != nil && !seen[d] {
					seen[d] = true
					stack = append(stack, d)
				}
			}
		})
	}
	return nil
}

// compileProg returns the program of r in which the counted loops with a
// bound above relax are unbounded, compiling it on first use. m.mu is held.
func (m *Matcher) compileProg(r *Rule, relax int) *prog {
	key := progKey{r, relax}
	if p := m.progs[key]; p != nil {
		return p
	}
	c := &compiler{m: m, p: &prog{}, machineOf: map[*Rule]int32{}, single: map[[2]rune]int32{}, relax: relax, loop: -1}
	p := c.compileStart(r)
	p.simple = p.simple && !m.noNFA
	slices.Sort(p.callMax)
	p.callMax = slices.Compact(p.callMax)
	m.progs[key] = p
	return p
}

type progKey struct {
	rule  *Rule
	relax int
}

// State kinds.
const (
	kEps   = iota // go on to every state of outs
	kTerm         // read a character of class arg, go on to out
	kCall         // call machine arg, return to out
	kPush         // push a counter at zero, go on to out
	kPop          // drop the innermost counter, go on to out
	kLoop         // end of a counted loop's body: loop arg
	kFinal        // end of machine arg
)

type mstate struct {
	kind uint8
	skip bool // kCall: an empty match of the callee is not an iteration
	arg  int32
	out  int32
	outs []int32
}

// loop is a counted repetition: its body runs at least min and at most max
// times (max < 0: unbounded; the counter then stops at min).
type loop struct {
	min, max   int32
	body, exit int32
}

type machine struct {
	start, final int32
	nullable     bool
}

// rng is a range of characters: code points, or octets in octet mode.
type rng struct{ lo, hi rune }

// class is a set of characters: a bitmap below 256, ranges above.
type class struct {
	low    [4]uint64
	ranges []rng // above 255, sorted, disjoint
}

func (c *class) has(r rune) bool {
	if r < 256 {
		return c.low[r>>6]&(1<<(r&63)) != 0
	}
	for _, x := range c.ranges {
		if r < x.lo {
			return false
		}
		if r <= x.hi {
			return true
		}
	}
	return false
}

// prog is the compiled form of one start rule and the machines it calls.
type prog struct {
	states   []mstate
	classes  []class
	loops    []loop
	machines []machine
	top      int32   // the start rule's machine
	simple   bool    // no calls and no counters: an NFA
	callMax  []int   // the bounds of the counted loops, sorted: an input shorter than one relaxes it
	loopOf   []int32 // per state: the innermost counted loop it is in, or -1
	counted  bool    // the program has counted loops
	startOf  []first // per state: the characters that can be read first from it, in its machine
	ends     []bool  // per state: its machine's final state can be reached from it without reading
}

// first is a set of characters a match can begin with: exactly, below 256;
// wide says whether it may begin with one above.
type first struct {
	low  [4]uint64
	wide bool
}

func (f *first) has(c rune) bool {
	if c < 256 {
		return f.low[c>>6]&(1<<(c&63)) != 0
	}
	return f.wide
}

// union adds g to f, and reports whether f grew.
func (f *first) union(g *first) bool {
	grew := false
	for i := range f.low {
		if g.low[i]&^f.low[i] != 0 {
			f.low[i] |= g.low[i]
			grew = true
		}
	}
	if g.wide && !f.wide {
		f.wide, grew = true, true
	}
	return grew
}

// computeFirst sets p.first, p.startOf and p.ends: for each state, the
// characters that can be read first from it on the way to its machine's
// final state, and whether it can get there without reading; for each
// machine, the first characters of its matches. The sets are the least
// fixpoint of the states' equations: a reading state's class; the union
// of its successors' sets for the others, with a call's callee's first
// characters, and what follows the call if the callee matches the empty
// string; both ways out of every counted loop.
func (p *prog) computeFirst() {
	n := len(p.states)
	p.startOf = make([]first, n)
	p.ends = make([]bool, n)
	sf, ends := p.startOf, p.ends
	// succs lists what a state's sets are made of; a worklist recomputes a
	// state when one of them grows (each set grows at most 258 times).
	succs := func(s int32, f func(int32)) {
		switch st := &p.states[s]; st.kind {
		case kEps:
			for _, o := range st.outs {
				f(o)
			}
		case kCall:
			f(p.machines[st.arg].start)
			f(st.out)
		case kPush, kPop:
			f(st.out)
		case kLoop:
			f(p.loops[st.arg].body)
			f(p.loops[st.arg].exit)
		}
	}
	preds := make([][]int32, n)
	for s := range int32(n) {
		succs(s, func(o int32) { preds[o] = append(preds[o], s) })
	}
	work := make([]int32, 0, n)
	queued := make([]bool, n)
	for s := range int32(n) {
		work = append(work, s)
		queued[s] = true
	}
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		queued[s] = false
		var f first
		var e bool
		switch st := &p.states[s]; st.kind {
		case kEps:
			for _, o := range st.outs {
				f.union(&sf[o])
				e = e || ends[o]
			}
		case kTerm:
			cl := &p.classes[st.arg]
			f.low, f.wide = cl.low, len(cl.ranges) > 0
		case kCall:
			m := &p.machines[st.arg]
			f.union(&sf[m.start])
			if m.nullable {
				f.union(&sf[st.out])
				e = ends[st.out]
			}
		case kPush, kPop:
			f, e = sf[st.out], ends[st.out]
		case kLoop:
			lp := &p.loops[st.arg]
			f = sf[lp.body]
			f.union(&sf[lp.exit])
			e = ends[lp.body] || ends[lp.exit]
		case kFinal:
			e = true
		}
		grew := sf[s].union(&f)
		if e && !ends[s] {
			ends[s], grew = true, true
		}
		if grew {
			for _, q := range preds[s] {
				if !queued[q] {
					queued[q] = true
					work = append(work, q)
				}
			}
		}
	}
}

type compiler struct {
	m         *Matcher
	p         *prog
	machineOf map[*Rule]int32
	single    map[[2]rune]int32 // class of one character, with its other case
	queue     []pending
	cur       pending // the machine being compiled
	relax     int     // counted loops with larger bounds are unbounded (stars when they have no minimum)
	loop      int32   // the innermost counted loop being compiled, or -1
}

type pending struct {
	id   int32
	rule *Rule // nil for a counted loop's body
	expr Node
}

func (c *compiler) compileStart(r *Rule) *prog {
	c.p.top = c.machine(r)
	for len(c.queue) > 0 {
		c.cur = c.queue[0]
		c.queue = c.queue[1:]
		c.loop = -1
		mc := c.p.machines[c.cur.id]
		body := c.compile(c.cur.expr, mc.final)
		c.p.states[mc.start].outs = []int32{body}
	}
	c.p.simple = true
	for _, s := range c.p.states {
		if s.kind != kEps && s.kind != kTerm && s.kind != kFinal {
			c.p.simple = false
		}
	}
	c.p.computeFirst()
	return c.p
}

func (c *compiler) state(s mstate) int32 {
	c.p.states = append(c.p.states, s)
	c.p.loopOf = append(c.p.loopOf, c.loop)
	return int32(len(c.p.states) - 1)
}

func (c *compiler) newMachine(nullable bool) int32 {
	id := int32(len(c.p.machines))
	start := c.state(mstate{kind: kEps})
	final := c.state(mstate{kind: kFinal, arg: id})
	c.p.machines = append(c.p.machines, machine{start: start, final: final, nullable: nullable})
	return id
}

// machine returns the machine of rule r, queueing its compilation.
func (c *compiler) machine(r *Rule) int32 {
	if id, ok := c.machineOf[r]; ok {
		return id
	}
	id := c.newMachine(c.m.a.RuleNullable(r))
	c.machineOf[r] = id
	c.queue = append(c.queue, pending{id: id, rule: r, expr: r.Expr})
	return id
}

func (c *compiler) term(cl []rng, next int32) int32 {
	return c.state(mstate{kind: kTerm, arg: c.class(cl), out: next})
}

// class adds a character class to the program and returns its number.
func (c *compiler) class(cl []rng) int32 {
	var k class
	for _, x := range cl {
		for v := x.lo; v <= x.hi && v < 256; v++ {
			k.low[v>>6] |= 1 << (v & 63)
		}
		if x.hi >= 256 {
			k.ranges = append(k.ranges, rng{max(x.lo, 256), x.hi})
		}
	}
	c.p.classes = append(c.p.classes, k)
	return int32(len(c.p.classes) - 1)
}

// char is the class of one character of a quoted string: the character and,
// unless the string is case-sensitive, its other case (RFC 5234 §2.3).
func (c *compiler) char(b byte, fold bool, next int32) int32 {
	lo, up := rune(lowerASCII(b)), rune(upperASCII(b))
	key := [2]rune{rune(b), rune(b)}
	if fold {
		key = [2]rune{lo, up}
	}
	cl, ok := c.single[key]
	if !ok {
		rs := []rng{{key[0], key[0]}}
		if key[1] != key[0] {
			rs = append(rs, rng{key[1], key[1]})
		}
		cl = c.class(rs)
		c.single[key] = cl
	}
	return c.state(mstate{kind: kTerm, arg: cl, out: next})
}

// compile builds the automaton of n ending in state next and returns its
// first state. Built backwards, it needs no patching of exits.
func (c *compiler) compile(n Node, next int32) int32 {
	switch n := n.(type) {
	case *CharVal:
		for i := len(n.Text) - 1; i >= 0; i-- {
			next = c.char(n.Text[i], !n.Sensitive, next)
		}
		return next
	case *NumVal:
		if n.Range {
			return c.term([]rng{{n.Vals[0], n.Vals[1]}}, next)
		}
		for i := len(n.Vals) - 1; i >= 0; i-- {
			next = c.term([]rng{{n.Vals[i], n.Vals[i]}}, next)
		}
		return next
	case *Prose:
		return next // only under a zero repetition, which never gets here
	case *Alt:
		if cl := c.m.class(n); cl != nil {
			return c.term(cl, next)
		}
		s := c.state(mstate{kind: kEps})
		outs := make([]int32, 0, len(n.Alts))
		for _, x := range n.Alts {
			outs = append(outs, c.compile(x, next))
		}
		c.p.states[s].outs = outs
		return s
	case *Concat:
		for i := len(n.Items) - 1; i >= 0; i-- {
			next = c.compile(n.Items[i], next)
		}
		return next
	case *RuleRef:
		r := c.m.index[strings.ToLower(n.Name)]
		if cl := c.m.class(n); cl != nil {
			return c.term(cl, next)
		}
		if r == c.cur.rule && next == c.p.machines[c.cur.id].final {
			// A tail call of a rule to itself (ldh-str = let-dig-hyp /
			// let-dig-hyp ldh-str) is a jump: its return would be ours.
			return c.p.machines[c.cur.id].start
		}
		if c.m.inline(r) {
			return c.compile(r.Expr, next)
		}
		return c.state(mstate{kind: kCall, arg: c.machine(r), out: next})
	case *Repeat:
		return c.repeat(n, next)
	}
	return next
}

// Repetition plans.
const (
	planEmpty  = iota // 0 x
	planStar          // *x: a loop
	planUnroll        // copies of x
	planCount         // a loop with a counter
	planCall          // a counter, the body a machine of its own
	planPlus          // 1*x: one copy of x and a loop back
)

// plan decides how to compile a repetition and returns its size in states.
// A nullable body makes the minimum moot: x^k is included in x^(k+1), so
// n*m x matches what 0*m x matches.
func (m *Matcher) plan(n *Repeat) (kind, lo, size int) {
	if n.Max == 0 {
		return planEmpty, 0, 0
	}
	b := m.size(n.Body)
	lo = n.Min
	nullable := m.a.Nullable(n.Body)
	if nullable {
		lo = 0
	}
	switch {
	case lo == 0 && n.Max == Inf:
		return planStar, 0, sat(b, 1)
	case lo == 1 && n.Max == Inf:
		return planPlus, 1, sat(b, 1)
	case n.Max == 1:
		// One copy, whatever its size: nothing is duplicated.
		return planUnroll, lo, sat(b, 1-lo)
	case n.Max == Inf:
		if u := sat(satMul(lo, b), b+1); u <= m.unrollMax {
			return planUnroll, lo, u
		}
		return planCount, lo, sat(b, 3)
	}
	if u := sat(satMul(lo, b), satMul(n.Max-lo, b+1)); u <= m.unrollMax {
		return planUnroll, lo, u
	}
	if nullable {
		return planCall, 0, sat(b, 6)
	}
	return planCount, lo, sat(b, 3)
}

func (c *compiler) repeat(n *Repeat, next int32) int32 {
	kind, lo, _ := c.m.plan(n)
	switch kind {
	case planEmpty:
		return next
	case planStar:
		return c.star(n.Body, next)
	case planPlus:
		l := c.state(mstate{kind: kEps})
		b := c.compile(n.Body, l)
		c.p.states[l].outs = []int32{b, next}
		return b
	case planUnroll:
		cont := next
		if n.Max == Inf {
			cont = c.star(n.Body, next)
		} else {
			for range n.Max - lo {
				e := c.state(mstate{kind: kEps})
				b := c.compile(n.Body, cont)
				c.p.states[e].outs = []int32{b, next}
				cont = e
			}
		}
		for range lo {
			cont = c.compile(n.Body, cont)
		}
		return cont
	case planCount:
		bounded := n.Max != Inf && n.Max <= c.relax
		if n.Max != Inf && !bounded && lo == 0 {
			return c.star(n.Body, next)
		}
		if bounded {
			c.p.callMax = append(c.p.callMax, n.Max)
		}
		id := int32(len(c.p.loops))
		c.p.loops = append(c.p.loops, loop{})
		c.p.counted = true
		outer := c.loop
		c.loop = id
		end := c.state(mstate{kind: kLoop, arg: id})
		body := c.compile(n.Body, end)
		c.loop = outer
		max := int32(n.Max)
		if !bounded {
			max = -1
		}
		c.p.loops[id] = loop{min: int32(lo), max: max, body: body, exit: next}
		push := c.state(mstate{kind: kPush, out: body})
		if lo == 0 {
			return c.state(mstate{kind: kEps, outs: []int32{push, next}})
		}
		return push
	}
	if n.Max > c.relax {
		return c.star(n.Body, next)
	}
	c.p.callMax = append(c.p.callMax, n.Max)
	// planCall: the body, nullable, is a machine called once per
	// iteration; a call that matched nothing is no iteration, so that
	// empty iterations do not run the counter up to its bound.
	bm := c.newMachine(true)
	c.queue = append(c.queue, pending{id: bm, expr: n.Body})
	id := int32(len(c.p.loops))
	c.p.loops = append(c.p.loops, loop{})
	c.p.counted = true
	outer := c.loop
	c.loop = id
	head := c.state(mstate{kind: kEps})
	end := c.state(mstate{kind: kLoop, arg: id})
	call := c.state(mstate{kind: kCall, skip: true, arg: bm, out: end})
	pop := c.state(mstate{kind: kPop, out: next})
	c.loop = outer
	c.p.states[head].outs = []int32{call, pop}
	c.p.loops[id] = loop{min: 0, max: int32(n.Max), body: head, exit: next}
	return c.state(mstate{kind: kPush, out: head})
}

func (c *compiler) star(body Node, next int32) int32 {
	l := c.state(mstate{kind: kEps})
	b := c.compile(body, l)
	c.p.states[l].outs = []int32{b, next}
	return l
}

// inline reports whether references to r are compiled into the caller.
func (m *Matcher) inline(r *Rule) bool {
	return !m.rec[r] && m.size(r.Expr) <= m.inlineMax
}

// size is the number of states compile makes for n, saturating.
func (m *Matcher) size(n Node) int {
	if s, ok := m.sizes[n]; ok {
		return s
	}
	s := 0
	switch n := n.(type) {
	case *CharVal:
		s = len(n.Text)
	case *NumVal:
		s = len(n.Vals)
		if n.Range {
			s = 1
		}
	case *Alt:
		if m.class(n) != nil {
			s = 1
			break
		}
		s = 1
		for _, x := range n.Alts {
			s = sat(s, m.size(x))
		}
	case *Concat:
		for _, x := range n.Items {
			s = sat(s, m.size(x))
		}
	case *RuleRef:
		r := m.index[strings.ToLower(n.Name)]
		s = 1
		if !m.rec[r] && m.class(n) == nil {
			if t := m.size(r.Expr); t <= m.inlineMax {
				s = t
			}
		}
	case *Repeat:
		_, _, s = m.plan(n)
	}
	m.sizes[n] = s
	return s
}

// satMax is where sizes stop growing: 2^40, or 2^30 where an int has 32
// bits.
const satMax = 1 << min(40, bits.UintSize-2)

func sat(a, b int) int {
	if a+b > satMax {
		return satMax
	}
	return a + b
}

func satMul(a, b int) int {
	if a != 0 && b > satMax/a {
		return satMax
	}
	return a * b
}

// class returns the characters n matches if n matches exactly one character
// from a set (HEXDIG, "a" / "b", %x41-5A), and nil otherwise.
func (m *Matcher) class(n Node) []rng {
	if cl, ok := m.charCl[n]; ok {
		return cl
	}
	m.charCl[n] = nil // a reference cycle is not a class
	var cl []rng
	switch n := n.(type) {
	case *CharVal:
		if len(n.Text) == 1 {
			b := n.Text[0]
			cl = []rng{{rune(b), rune(b)}}
			if !n.Sensitive && lowerASCII(b) != upperASCII(b) {
				cl = []rng{{rune(upperASCII(b)), rune(upperASCII(b))}, {rune(lowerASCII(b)), rune(lowerASCII(b))}}
			}
		}
	case *NumVal:
		if n.Range {
			if n.Vals[0] <= n.Vals[1] {
				cl = []rng{{n.Vals[0], n.Vals[1]}}
			}
		} else if len(n.Vals) == 1 {
			cl = []rng{{n.Vals[0], n.Vals[0]}}
		}
	case *Alt:
		for _, x := range n.Alts {
			xc := m.class(x)
			if xc == nil {
				return nil
			}
			cl = append(cl, xc...)
		}
		cl = normalize(cl)
	case *RuleRef:
		if r := m.index[strings.ToLower(n.Name)]; !m.rec[r] {
			cl = m.class(r.Expr)
		}
	case *Repeat:
		if n.Min == 1 && n.Max == 1 {
			cl = m.class(n.Body)
		}
	}
	m.charCl[n] = cl
	return cl
}

func normalize(cl []rng) []rng {
	slices.SortFunc(cl, func(a, b rng) int { return int(a.lo) - int(b.lo) })
	out := cl[:0]
	for _, x := range cl {
		if n := len(out); n > 0 && x.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, x.hi)
			continue
		}
		out = append(out, x)
	}
	return out
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func upperASCII(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// decode returns the character at in[p:] and its width: a byte in octet
// mode, a UTF-8 encoded code point otherwise; width 0 at the end of input or
// at an invalid UTF-8 sequence, which matches no terminal.
func decode(in []byte, p int, octets bool) (rune, int) {
	if p >= len(in) {
		return 0, 0
	}
	if c := in[p]; c < utf8.RuneSelf || octets {
		return rune(c), 1
	}
	c, w := utf8.DecodeRune(in[p:])
	if c == utf8.RuneError && w <= 1 {
		return 0, 0
	}
	return c, w
}

// mrun holds the buffers of one Match call, reused through a pool.
type mrun struct {
	p      *prog
	octets bool
	steps  int  // states and items visited, for the tests' growth ratios
	max    int  // the budget of steps, if positive (Matcher.budget)
	over   bool // the budget was spent: the run stopped

	// NFA simulation
	mark      []uint32
	gen       uint32
	cur, next []int32
	stack     []int32

	// Earley
	items, spare []item
	tab          []hslot
	tabGen       uint32
	tabN         int
	wslab        []waiter
	segs         []seg
	lastGC       int
	cpar, cval   []int32
	cmap         map[[2]int32]int32
	live         []bool
	best         map[item]int32
	// The character the items of the set being built will read (laOK
	// false at the end of the input or at a byte that is not UTF-8): a
	// reading item that cannot read it is never added (see add).
	la     rune
	laOK   bool
	estack []item // add's pending ε-successors
}

type item struct{ s, o, c int32 } // state, origin, counters

type waiter struct {
	m  int32 // the machine called
	it item  // the caller, at the return state
}

// seg locates the waiters registered at a position.
type seg struct{ pos, lo, hi int32 }

type hslot struct {
	it  item
	gen uint32
}

func (r *mrun) run(p *prog, in []byte, octets bool, ends *[]int, max int) bool {
	r.p, r.octets, r.steps, r.max, r.over = p, octets, 0, max, false
	if p.simple {
		return r.nfa(in, ends)
	}
	return r.earley(in, ends)
}

// nfa is the simulation for programs without calls and counters: a set of
// states per position, of which only the current one is kept.
func (r *mrun) nfa(in []byte, ends *[]int) bool {
	p := r.p
	if len(r.mark) < len(p.states) {
		r.mark = make([]uint32, len(p.states))
		r.gen = 0
	}
	final := p.machines[p.top].final
	r.cur = r.cur[:0]
	r.bump()
	r.closure(p.machines[p.top].start, &r.cur)
	pos := 0
	for {
		if r.max > 0 && r.steps > r.max {
			r.over = true
			return false
		}
		accept := r.mark[final] == r.gen
		if accept && ends != nil {
			*ends = append(*ends, pos)
		}
		if pos == len(in) {
			return accept
		}
		c, w := decode(in, pos, r.octets)
		if w == 0 || len(r.cur) == 0 {
			return false
		}
		r.bump()
		r.next = r.next[:0]
		for _, s := range r.cur {
			st := &p.states[s]
			if p.classes[st.arg].has(c) {
				r.closure(st.out, &r.next)
			}
		}
		r.cur, r.next = r.next, r.cur
		pos += w
	}
}

func (r *mrun) bump() {
	r.gen++
	if r.gen == 0 {
		clear(r.mark)
		r.gen = 1
	}
}

// closure adds s and the states it reaches without reading to the current
// set, keeping the reading states in list.
func (r *mrun) closure(s int32, list *[]int32) {
	p := r.p
	r.stack = append(r.stack[:0], s)
	for len(r.stack) > 0 {
		s := r.stack[len(r.stack)-1]
		r.stack = r.stack[:len(r.stack)-1]
		if r.mark[s] == r.gen {
			continue
		}
		r.mark[s] = r.gen
		r.steps++
		switch st := &p.states[s]; st.kind {
		case kEps:
			for i := len(st.outs) - 1; i >= 0; i-- {
				r.stack = append(r.stack, st.outs[i])
			}
		case kTerm:
			*list = append(*list, s)
		}
	}
}

// earley is the general recognizer.
func (r *mrun) earley(in []byte, ends *[]int) bool {
	p := r.p
	r.items = r.items[:0]
	r.wslab = r.wslab[:0]
	r.segs = r.segs[:0]
	r.lastGC = 0
	r.cpar = append(r.cpar[:0], 0)
	r.cval = append(r.cval[:0], 0)
	if r.cmap == nil {
		r.cmap = map[[2]int32]int32{}
	}
	clear(r.cmap)
	r.newSet()
	r.lookahead(in, 0)
	top := p.machines[p.top]
	r.add(item{top.start, 0, 0})
	pos := 0
	for {
		lo := len(r.wslab)
		for k := 0; k < len(r.items); k++ {
			if r.max > 0 && r.steps > r.max {
				r.over = true
				return false
			}
			it := r.items[k]
			switch st := &p.states[it.s]; st.kind {
			// No ε-state: add expands them, and never lists them.
			case kPush:
				r.add(item{st.out, it.o, r.intern(it.c, 0)})
			case kPop:
				r.add(item{st.out, it.o, r.cpar[it.c]})
			case kLoop:
				if it.c == 0 {
					break // no counter: cannot happen in a compiled program
				}
				lp := &p.loops[st.arg]
				n := r.cval[it.c] + 1
				// Every iteration counted reads a character, so a bound
				// above the input's length cannot be reached: the loop is
				// unbounded, and its counter need not go past the minimum,
				// which keeps 65536(65536["a"]) to one counter value.
				unbounded := lp.max < 0 || int(lp.max) > len(in)
				if unbounded && n > lp.min {
					n = lp.min
				}
				if unbounded || n < lp.max {
					r.add(item{lp.body, it.o, r.intern(r.cpar[it.c], n)})
				}
				if n >= lp.min {
					r.add(item{lp.exit, it.o, r.cpar[it.c]})
				}
			case kCall:
				callee := &p.machines[st.arg]
				if !callee.nullable && (!r.laOK || !p.startOf[callee.start].has(r.la)) {
					// It cannot match here: no item of it, and no
					// caller waiting for one (add's filter, for calls).
					break
				}
				ret := item{st.out, it.o, it.c}
				r.wslab = append(r.wslab, waiter{st.arg, ret})
				r.add(item{callee.start, int32(pos), 0})
				if callee.nullable && !st.skip {
					// Aycock–Horspool: the callee may match the empty
					// string, so the caller also steps over the call now;
					// empty completions below are then not needed.
					r.add(ret)
				}
			case kFinal:
				if it.o == int32(pos) {
					break // an empty match: handled at the call
				}
				ws := r.waiters(it.o, st.arg)
				r.steps += len(ws)
				for _, w := range ws {
					r.add(w.it)
				}
			}
		}
		r.steps += len(r.items)
		if len(r.wslab) > lo {
			ws := r.wslab[lo:]
			slices.SortFunc(ws, func(a, b waiter) int { return int(a.m) - int(b.m) })
			r.segs = append(r.segs, seg{int32(pos), int32(lo), int32(len(r.wslab))})
		}
		accept := r.has(item{top.final, 0, 0})
		if accept && ends != nil {
			*ends = append(*ends, pos)
		}
		if pos == len(in) {
			return accept
		}
		c, w := decode(in, pos, r.octets)
		if w == 0 {
			return false
		}
		if p.counted {
			r.dominate(len(in))
		}
		r.newSet()
		r.lookahead(in, pos+w)
		old := r.items
		r.items = r.spare[:0]
		for _, it := range old {
			if it.s < 0 {
				continue // dominated
			}
			if st := &p.states[it.s]; st.kind == kTerm && p.classes[st.arg].has(c) {
				r.add(item{st.out, it.o, it.c})
			}
		}
		r.spare = old
		if len(r.items) == 0 {
			return false
		}
		pos += w
		r.gc()
	}
}

// dominate drops, before the items of the current set read the next
// character, those that another item makes redundant: in a counted loop
// whose bound the input is too short to reach, the item with the larger
// count can do all that one with a smaller count can (only "at least min"
// matters), so of the items that differ only in that count, the largest
// stays. Without it, 60000(1*3"a") would keep every count a position
// allows, and take quadratic time. A dropped item keeps its place in the
// list with a negative state, so that the list and the table still agree.
func (r *mrun) dominate(n int) {
	p := r.p
	if r.best == nil {
		r.best = map[item]int32{}
	}
	clear(r.best)
	relaxed := func(it item) bool {
		if it.c == 0 || p.states[it.s].kind != kTerm {
			return false
		}
		l := p.loopOf[it.s]
		return l >= 0 && (p.loops[l].max < 0 || int(p.loops[l].max) > n)
	}
	for _, it := range r.items {
		if relaxed(it) {
			k := item{it.s, it.o, r.cpar[it.c]}
			if v, ok := r.best[k]; !ok || r.cval[it.c] > v {
				r.best[k] = r.cval[it.c]
			}
		}
	}
	for i, it := range r.items {
		if relaxed(it) && r.best[item{it.s, it.o, r.cpar[it.c]}] > r.cval[it.c] {
			r.items[i].s = -1 - it.s
		}
	}
}

// waiters returns the callers of machine m registered at position o.
func (r *mrun) waiters(o, m int32) []waiter {
	i, ok := slices.BinarySearchFunc(r.segs, o, func(s seg, o int32) int { return int(s.pos) - int(o) })
	if !ok {
		return nil
	}
	ws := r.wslab[r.segs[i].lo:r.segs[i].hi]
	j, _ := slices.BinarySearchFunc(ws, m, func(w waiter, m int32) int { return int(w.m) - int(m) })
	k := j
	for k < len(ws) && ws[k].m == m {
		k++
	}
	return ws[j:k]
}

// gc drops the waiters of positions that no live item can return to: the
// positions where the current items' machines were called, and, from
// those, the positions of their callers, and so on.
func (r *mrun) gc() {
	if len(r.wslab) < 1024 || len(r.wslab) < 2*r.lastGC {
		return
	}
	if cap(r.live) < len(r.segs) {
		r.live = make([]bool, len(r.segs))
	}
	live := r.live[:len(r.segs)]
	clear(live)
	mark := func(o int32) {
		if i, ok := slices.BinarySearchFunc(r.segs, o, func(s seg, o int32) int { return int(s.pos) - int(o) }); ok {
			live[i] = true
		}
	}
	for _, it := range r.items {
		mark(it.o)
	}
	for i := len(r.segs) - 1; i >= 0; i-- { // callers are called earlier
		if live[i] {
			for _, w := range r.wslab[r.segs[i].lo:r.segs[i].hi] {
				mark(w.it.o)
			}
		}
	}
	slab := make([]waiter, 0, len(r.wslab)/2)
	segs := r.segs[:0]
	for i, s := range r.segs {
		if live[i] {
			lo := int32(len(slab))
			slab = append(slab, r.wslab[s.lo:s.hi]...)
			segs = append(segs, seg{s.pos, lo, int32(len(slab))})
		}
	}
	r.wslab, r.segs = slab, segs
	r.lastGC = len(slab)
}

// intern returns the counter stack made of parent with v pushed on it.
func (r *mrun) intern(parent, v int32) int32 {
	k := [2]int32{parent, v}
	if id, ok := r.cmap[k]; ok {
		return id
	}
	id := int32(len(r.cpar))
	r.cpar = append(r.cpar, parent)
	r.cval = append(r.cval, v)
	r.cmap[k] = id
	return id
}

func (r *mrun) newSet() {
	r.tabGen++
	r.tabN = 0
	if r.tabGen == 0 {
		clear(r.tab)
		r.tabGen = 1
	}
	if len(r.tab) == 0 {
		r.tab = make([]hslot, 64)
	}
}

func hash(it item) uint64 {
	x := uint64(uint32(it.s)) | uint64(uint32(it.o))<<32
	x ^= uint64(uint32(it.c)) * 0x9e3779b97f4a7c15
	x *= 0xff51afd7ed558ccd
	return x ^ x>>33
}

// lookahead sets the character the items of the set at pos read.
func (r *mrun) lookahead(in []byte, pos int) {
	c, w := decode(in, pos, r.octets)
	r.la, r.laOK = c, w > 0
}

// add puts it in the current set unless it is there already, or unless it
// reads a character and cannot read the next one: such an item would only
// be dropped when the set is scanned, and most are (RFC 5322's messages
// had 44 reading items per byte, with CFWS and its alternatives live at
// almost every position), so the set does not hold them.
//
// An ε-state's item is expanded as it is added: its successors are added
// in its place, and only the table keeps it (so that it is expanded once),
// not the list of items to process: on RFC 5322, ε-states were almost half
// of the items, each loaded once more from the list to be dispatched.
func (r *mrun) add(it item) {
	p := r.p
	stack := append(r.estack[:0], it)
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !p.ends[it.s] && (!r.laOK || !p.startOf[it.s].has(r.la)) {
			continue
		}
		if (r.tabN+1)*2 > len(r.tab) {
			// The items the list holds are put back; expanded ε-items
			// are not, and may be expanded again (their successors are
			// still there): nothing is lost but a little time.
			r.tab = make([]hslot, 2*len(r.tab))
			r.tabGen, r.tabN = 1, 0
			for _, x := range r.items {
				r.insert(x)
			}
		}
		if !r.insert(it) {
			continue
		}
		if st := &p.states[it.s]; st.kind == kEps {
			r.steps++
			for i := len(st.outs) - 1; i >= 0; i-- {
				stack = append(stack, item{st.outs[i], it.o, it.c})
			}
			continue
		}
		r.items = append(r.items, it)
	}
	r.estack = stack
}

func (r *mrun) insert(it item) bool {
	mask := uint64(len(r.tab) - 1)
	for h := hash(it) & mask; ; h = (h + 1) & mask {
		sl := &r.tab[h]
		if sl.gen != r.tabGen {
			sl.it, sl.gen = it, r.tabGen
			r.tabN++
			return true
		}
		if sl.it == it {
			return false
		}
	}
}

func (r *mrun) has(it item) bool {
	mask := uint64(len(r.tab) - 1)
	for h := hash(it) & mask; ; h = (h + 1) & mask {
		sl := &r.tab[h]
		if sl.gen != r.tabGen {
			return false
		}
		if sl.it == it {
			return true
		}
	}
}

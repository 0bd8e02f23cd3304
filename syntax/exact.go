package syntax

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"unicode/utf8"
)

// A Net is the recursive transition network of a generated parser's rules:
// one automaton per rule, whose edges match one character of a class, call
// a rule, or match nothing. It has the grammar's meaning — alternatives are
// unordered and repetitions give input back — so it can answer what a PEG
// decision cannot see: whether the input can still be completed.
//
// gen emits a Net for a grammar only when some PEG decision of it could not
// be proven exact (a choice or repetition under self-embedding recursion,
// say); a [Guide] built from it then settles those decisions at parse time.
type Net struct {
	Rules   []NetRule
	Index   []int32   // the edges of state s are Edges[Index[s]:Index[s+1]]
	Edges   []NetEdge //
	Classes [][]rune  // inclusive code point ranges: lo, hi, lo, hi, …

	layoutOnce sync.Once
	layout     netLayout
	checkErr   error // Check's answer, found with the layout
}

// netLayout numbers the states of each rule's automaton from 0, so that a
// Guide's scratch space is the size of one rule, not of the whole network:
// a guide nests one level per rule in progress, and a chain of 800 rules
// would otherwise take 800 copies of the network's size for every parse.
type netLayout struct {
	local   []int32 // a state's number within its rule
	size    []int32 // the number of states of each rule
	maxSize int32
	ascii   [][2]uint64 // each class's members below 128, as a bitmap
	// eps lists, for each state s, the states that ε-edges reach from s
	// (s itself included) and that do something: match a character, call
	// a rule, or end a rule; eps[s] is epsList[epsIndex[s]:epsIndex[s+1]].
	// The recognizer visits those only.
	epsIndex []int32
	epsList  []int32
	// For each rule: whether it can match the empty string, and the
	// characters its matches can begin with (below 128 a bitmap, from 128
	// up a yes or no), so that a call that cannot match is not made.
	nullable  []bool
	first     [][2]uint64
	firstHigh []bool
	// recursive marks the rules on a cycle of calls (a rule that calls
	// itself, directly or not). The others are searched as frames of
	// their own, not by their ends (see Guide.callReach).
	recursive []bool
}

// states returns the network's layout, computed on first use. In the
// networks gen emits, every state is reached from its own rule's start
// only (edges never leave a rule's automaton: a call is an edge to the
// caller's next state), and a state reached from no start is never
// visited. A network built otherwise by hand gets the identity numbering:
// slower, still correct.
func (n *Net) states() *netLayout {
	n.layoutOnce.Do(func() {
		if n.checkErr = n.Check(); n.checkErr != nil {
			return
		}
		n.number()
		n.closures()
	})
	return &n.layout
}

// number computes the layout's numbering of states and class bitmaps.
func (n *Net) number() {
	l := &n.layout
	l.ascii = make([][2]uint64, len(n.Classes))
	for i, c := range n.Classes {
		for j := 0; j < len(c); j += 2 {
			for r := c[j]; r <= min(c[j+1], 127); r++ {
				l.ascii[i][r>>6] |= 1 << (r & 63)
			}
		}
	}
	states := len(n.Index) - 1
	l.local = make([]int32, states)
	l.size = make([]int32, len(n.Rules))
	owner := make([]int32, states)
	for i := range owner {
		owner[i] = -1
	}
	var queue []int32
	for r, rule := range n.Rules {
		if owner[rule.Start] >= 0 {
			n.identityLayout()
			return
		}
		queue = append(queue[:0], rule.Start)
		owner[rule.Start] = int32(r)
		for i := 0; i < len(queue); i++ {
			s := queue[i]
			l.local[s] = int32(i)
			for _, e := range n.Edges[n.Index[s]:n.Index[s+1]] {
				switch owner[e.To] {
				case -1:
					owner[e.To] = int32(r)
					queue = append(queue, e.To)
				case int32(r):
				default:
					n.identityLayout()
					return
				}
			}
		}
		l.size[r] = int32(len(queue))
		l.maxSize = max(l.maxSize, int32(len(queue)))
	}
}

// closures computes the layout's ε-lists and each rule's first characters
// and nullability.
func (n *Net) closures() {
	l := &n.layout
	states := int32(len(n.Index) - 1)
	kernel := make([]bool, states)
	for _, r := range n.Rules {
		kernel[r.Final] = true
	}
	for s := range states {
		for _, e := range n.Edges[n.Index[s]:n.Index[s+1]] {
			if e.Class >= 0 || e.Call >= 0 {
				kernel[s] = true
			}
		}
	}
	l.epsIndex = make([]int32, states+1)
	seen := make([]int32, states)
	for i := range seen {
		seen[i] = -1
	}
	var stack []int32
	for s := range states {
		l.epsIndex[s] = int32(len(l.epsList))
		stack = append(stack[:0], s)
		seen[s] = s
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if kernel[x] {
				l.epsList = append(l.epsList, x)
			}
			for _, e := range n.Edges[n.Index[x]:n.Index[x+1]] {
				if e.Class < 0 && e.Call < 0 && seen[e.To] != s {
					seen[e.To] = s
					stack = append(stack, e.To)
				}
			}
		}
	}
	l.epsIndex[states] = int32(len(l.epsList))
	// First characters and nullability, to a fixed point: a rule's are
	// found from the states its start reaches without consuming, and are
	// found again whenever those of a rule it calls grow.
	rules := len(n.Rules)
	l.nullable = make([]bool, rules)
	l.first = make([][2]uint64, rules)
	l.firstHigh = make([]bool, rules)
	callers := make([][]int32, rules)
	owner := make([]int32, states)
	for i := range owner {
		owner[i] = -1
	}
	for r, rule := range n.Rules {
		// The states of rule r: those reached from its start.
		stack = append(stack[:0], rule.Start)
		owner[rule.Start] = int32(r)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, e := range n.Edges[n.Index[x]:n.Index[x+1]] {
				if e.Call >= 0 {
					callers[e.Call] = append(callers[e.Call], int32(r))
				}
				if owner[e.To] != int32(r) {
					owner[e.To] = int32(r)
					stack = append(stack, e.To)
				}
			}
		}
	}
	// The rules on a cycle of calls: those a rule they call leads back to.
	callees := make([][]int32, rules)
	for c, rs := range callers {
		for _, r := range rs {
			callees[r] = append(callees[r], int32(c))
		}
	}
	l.recursive = make([]bool, rules)
	mark := make([]int32, rules)
	for r := range rules {
		stack = append(stack[:0], callees[r]...)
		for len(stack) > 0 && !l.recursive[r] {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if mark[x] == int32(r)+1 {
				continue
			}
			mark[x] = int32(r) + 1
			if x == int32(r) {
				l.recursive[r] = true
			}
			stack = append(stack, callees[x]...)
		}
	}
	queue := make([]int32, 0, rules)
	queued := make([]bool, rules)
	for r := range rules {
		queue = append(queue, int32(r))
		queued[r] = true
	}
	for i := range seen {
		seen[i] = -1
	}
	visit := int32(0)
	for len(queue) > 0 {
		r := queue[0]
		queue = queue[1:]
		queued[r] = false
		var first [2]uint64
		high, nullable := false, false
		visit++
		rule := n.Rules[r]
		stack = append(stack[:0], rule.Start)
		seen[rule.Start] = visit
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if x == rule.Final {
				nullable = true
			}
			for _, e := range n.Edges[n.Index[x]:n.Index[x+1]] {
				next := false
				switch {
				case e.Class >= 0:
					first[0] |= l.ascii[e.Class][0]
					first[1] |= l.ascii[e.Class][1]
					cs := n.Classes[e.Class]
					high = high || len(cs) > 0 && cs[len(cs)-1] >= 128
				case e.Call >= 0:
					first[0] |= l.first[e.Call][0]
					first[1] |= l.first[e.Call][1]
					high = high || l.firstHigh[e.Call]
					next = l.nullable[e.Call]
				default:
					next = true
				}
				if next && seen[e.To] != visit {
					seen[e.To] = visit
					stack = append(stack, e.To)
				}
			}
		}
		if first != l.first[r] || high != l.firstHigh[r] || nullable != l.nullable[r] {
			l.first[r], l.firstHigh[r], l.nullable[r] = first, high, nullable
			for _, c := range callers[r] {
				if !queued[c] {
					queued[c] = true
					queue = append(queue, c)
				}
			}
		}
	}
}

// eps returns the ε-list of state s.
func (l *netLayout) eps(s int32) []int32 { return l.epsList[l.epsIndex[s]:l.epsIndex[s+1]] }

// mayMatch reports whether rule r, called at a position where the input
// holds c (w bytes wide, 0 at its end), can match there at all.
func (l *netLayout) mayMatch(r int32, c rune, w int32) bool {
	switch {
	case l.nullable[r]:
		return true
	case w == 0:
		return false
	case c < 128:
		return l.first[r][c>>6]&(1<<(c&63)) != 0
	}
	return l.firstHigh[r]
}

func (n *Net) identityLayout() {
	l := &n.layout
	states := int32(len(n.Index) - 1)
	for s := range l.local {
		l.local[s] = int32(s)
	}
	for r := range l.size {
		l.size[r] = states
	}
	l.maxSize = states
}

// NetRule is one rule's automaton: its start and final states.
type NetRule struct {
	Name         string
	Start, Final int32
}

// NetEdge goes to state To on one character of class Class, or through a
// complete match of rule Call; with both -1 it is an ε-edge.
type NetEdge struct {
	To, Class, Call int32
}

// Check reports the first inconsistency of the tables: an index out of
// range, edges not grouped by state, a malformed class.
func (n *Net) Check() error {
	states := int32(len(n.Index) - 1)
	if states < 0 {
		return errors.New("net: no states")
	}
	if n.Index[0] != 0 || n.Index[states] != int32(len(n.Edges)) {
		return errors.New("net: edge index does not cover the edges")
	}
	for s := range states {
		if n.Index[s] > n.Index[s+1] {
			return fmt.Errorf("net: edge index decreases at state %d", s)
		}
	}
	for i, e := range n.Edges {
		switch {
		case e.To < 0 || e.To >= states:
			return fmt.Errorf("net: edge %d goes to state %d of %d", i, e.To, states)
		case e.Class < -1 || e.Class >= int32(len(n.Classes)):
			return fmt.Errorf("net: edge %d has class %d of %d", i, e.Class, len(n.Classes))
		case e.Call < -1 || e.Call >= int32(len(n.Rules)):
			return fmt.Errorf("net: edge %d calls rule %d of %d", i, e.Call, len(n.Rules))
		case e.Class >= 0 && e.Call >= 0:
			return fmt.Errorf("net: edge %d both matches and calls", i)
		}
	}
	for i, c := range n.Classes {
		if len(c)%2 != 0 {
			return fmt.Errorf("net: class %d has an odd number of bounds", i)
		}
		for j := 0; j < len(c); j += 2 {
			if c[j] > c[j+1] || j > 0 && c[j] <= c[j-1] {
				return fmt.Errorf("net: class %d is not sorted disjoint ranges", i)
			}
		}
	}
	for i, r := range n.Rules {
		if r.Start < 0 || r.Start >= states || r.Final < 0 || r.Final >= states {
			return fmt.Errorf("net: rule %d (%s) has states outside the net", i, r.Name)
		}
	}
	return nil
}

func (n *Net) inClass(class int32, c rune) bool {
	if c < 128 {
		return n.layout.ascii[class][c>>6]&(1<<(c&63)) != 0
	}
	rs := n.Classes[class]
	i, _ := slices.BinarySearch(rs, c) // first bound >= c
	if i < len(rs) && rs[i] == c {
		return true
	}
	return i%2 == 1 // between a lo and its hi
}

// ErrWork is the reason a [Guide] gives up: settling the decisions of this
// input would take more work than its budget.
var ErrWork = errors.New("parse abandoned: too much work for the input's length")

// A Guide settles, for one input, the PEG decisions that the translation
// could not prove exact. The generated parser tells it which rule it enters
// and leaves and which call it is about to make, so the guide knows the
// parser's exact stack; at an unproven decision it answers whether the
// alternative just matched (or the loop iteration just taken) can still be
// completed into a match of the whole input, given that stack. A parser
// that commits only to such alternatives accepts exactly the grammar's
// language.
//
// The answers rest on End(R, p), the positions where rule R, called at p,
// can end (memoized), and on a memoized search per invocation: from a state
// and position of the invocation's rule, can it end at a position from
// which its caller, from the state it returns to, can do the same, up to
// the end of the input. The search stops at the first such end, and its
// answers are kept per (state, position) for the invocation's rule, caller
// and return state, whatever its origin: a question asked at every
// iteration of a repetition is answered from the answers of the ones
// before, not by a new scan of the rest of the input.
//
// A Guide is for one parse by one goroutine.
type Guide struct {
	net     *Net
	in      []byte
	budget  int // steps allowed
	work    int // steps left
	err     error
	ends    map[uint64]span // (rule, position) → its ends in arena
	arena   []int32         // the ends of every (rule, position), one after another
	stack   []*frame
	pending int32 // the return state of the call about to be made
	frames  map[frameKey]*frame
	cans    map[canKey]*frame // the first invocation of each key: its answers are every such invocation's
	scratch []*endScratch     // per nesting depth of end
	cmarks  []uint32          // closure's marks
	stamp   uint32
	depth   int
}

type frameKey struct {
	rule, origin, ret int32
	parent            *frame
}

// canKey identifies what an invocation's answers depend on: its rule, and
// where it returns to (its caller's invocation and state), not its origin.
type canKey struct {
	rule, ret int32
	parent    *frame
}

// frame is one invocation of a rule on the parser's stack.
type frame struct {
	rule   int32
	origin int32
	ret    int32 // the state the caller returns to
	parent *frame
	can    map[uint64]bool // (state, position) → can end where the callers complete
	// canon is the first invocation with the same rule, return state and
	// parent (f itself, or one of another origin): it and f answer alike,
	// and the invocations f's calls make are keyed by it, so that those of
	// every origin share their answers too.
	canon *frame
}

// NewGuide returns a guide for one parse of input, which may spend about
// work steps (a step is one edge followed) before it gives up with
// [ErrWork]. A network that fails [Net.Check] (checked once per network)
// makes a guide that answers false to everything, with the check's error
// from [Guide.Err].
func NewGuide(n *Net, input []byte, work int) *Guide {
	g := &Guide{net: n, in: input, budget: work, work: work, ends: make(map[uint64]span, min(4*len(input), 1<<16)), pending: -1, frames: map[frameKey]*frame{}, cans: map[canKey]*frame{}}
	switch {
	case n == nil:
		g.err = errors.New("guide: no network")
	default:
		n.states()
		g.err = n.checkErr
	}
	return g
}

// Steps returns the steps the guide has taken so far.
func (g *Guide) Steps() int {
	if g == nil {
		return 0
	}
	return g.budget - max(g.work, 0)
}

// Err returns why the guide gave up, or nil.
func (g *Guide) Err() error {
	if g == nil {
		return errors.New("parse needs a guide for its unproven decisions, and has none")
	}
	return g.err
}

// Call records the state the current rule returns to after the call the
// parser makes next.
func (g *Guide) Call(ret int) bool {
	if g == nil {
		return false
	}
	g.pending = int32(ret)
	return true
}

// Enter pushes an invocation of rule at position pos. It returns false —
// and pushes nothing — when no end of the invocation lets the callers
// complete: the parser can fail it at once (without this, a parser that
// does not memoize would try, and backtrack over, every invocation that
// cannot lead to a match: exponential work on ambiguous grammars).
func (g *Guide) Enter(rule, pos int) bool {
	if g == nil || g.err != nil || rule < 0 || rule >= len(g.net.Rules) || pos < 0 || pos > len(g.in) {
		return false
	}
	var parent *frame
	if len(g.stack) > 0 {
		parent = g.stack[len(g.stack)-1]
	}
	ret := g.pending
	g.pending = -1
	if parent == nil {
		ret = -1
	} else if ret < 0 {
		g.err = errors.New("guide: a rule was entered without its call")
		return false
	}
	if !g.step() {
		return false
	}
	if c, w := g.char(int32(pos)); !g.net.layout.mayMatch(int32(rule), c, w) {
		return false
	}
	if parent != nil {
		parent = parent.canon
	}
	k := frameKey{int32(rule), int32(pos), ret, parent}
	f := g.frames[k]
	if f == nil {
		f = g.newFrame(int32(rule), int32(pos), ret, parent)
		g.frames[k] = f
	}
	if !g.reach(f, g.net.Rules[f.rule].Start, f.origin) {
		return false
	}
	g.stack = append(g.stack, f)
	return true
}

// newFrame returns a new invocation of rule at origin (-1 for a call the
// guide searches, see callReach), returning to state ret of parent (a
// canonical invocation). Its answers are those of the first invocation with
// the same rule, return state and parent: they do not depend on the
// origin.
func (g *Guide) newFrame(rule, origin, ret int32, parent *frame) *frame {
	f := &frame{rule: rule, origin: origin, ret: ret, parent: parent}
	ck := canKey{rule, ret, parent}
	if c := g.cans[ck]; c != nil {
		f.can, f.canon = c.can, c
	} else {
		f.can, f.canon = map[uint64]bool{}, f
		g.cans[ck] = f
	}
	return f
}

// viable reports whether invocation f, ending at p, lets its callers
// complete: the input ends there, or the caller can end where its own
// callers complete.
func (g *Guide) viable(f *frame, p int32) bool {
	if f.parent == nil {
		return int(p) == len(g.in)
	}
	return g.reach(f.parent, f.ret, p)
}

// Leave pops the invocation the parser has completed.
func (g *Guide) Leave() bool {
	if g == nil || len(g.stack) == 0 {
		return false
	}
	g.stack = g.stack[:len(g.stack)-1]
	return true
}

// Abort pops the invocation the parser has failed, and returns false.
func (g *Guide) Abort() bool {
	g.Leave()
	return false
}

// Can reports whether the current invocation, in state at position pos,
// can still end where its callers can complete.
func (g *Guide) Can(state, pos int) bool {
	if g == nil || g.err != nil || len(g.stack) == 0 || state < 0 || state >= len(g.net.Index)-1 || pos < 0 || pos > len(g.in) {
		return false
	}
	return g.reach(g.stack[len(g.stack)-1], int32(state), int32(pos))
}

// step spends one unit of work.
func (g *Guide) step() bool {
	if g.err != nil {
		return false
	}
	g.work--
	if g.work < 0 {
		g.err = ErrWork
		return false
	}
	return true
}

// char returns the character at p and its width, 0 at the end or at a byte
// that is not UTF-8 (which no class matches).
func (g *Guide) char(p int32) (rune, int32) { return char(g.in, p) }

// closure returns the states reachable from s at position p without
// consuming input: ε-edges, and calls of rules that can match the empty
// string there.
func (g *Guide) closure(s, p int32) []int32 {
	lay := g.net.states()
	if g.cmarks == nil {
		g.cmarks = make([]uint32, lay.maxSize)
	}
	g.stamp++
	stamp := g.stamp
	seen, local := g.cmarks, lay.local
	var out []int32
	add := func(s int32) {
		for _, x := range lay.eps(s) {
			if seen[local[x]] != stamp {
				seen[local[x]] = stamp
				out = append(out, x)
			}
		}
	}
	add(s)
	for i := 0; i < len(out); i++ {
		if !g.step() {
			return out
		}
		for _, e := range g.net.Edges[g.net.Index[out[i]]:g.net.Index[out[i]+1]] {
			if e.Call >= 0 && lay.nullable[e.Call] {
				add(e.To)
			}
		}
	}
	return out
}

// reach reports whether invocation f, in state s at position p, can end
// where its callers can complete.
func (g *Guide) reach(f *frame, s, p int32) bool {
	k := uint64(uint32(s))<<32 | uint64(uint32(p))
	if v, ok := f.can[k]; ok {
		return v
	}
	final := g.net.Rules[f.rule].Final
	found := false
	for _, x := range g.closure(s, p) {
		if x == final && g.viable(f, p) {
			found = true
			break
		}
		for _, e := range g.net.Edges[g.net.Index[x]:g.net.Index[x+1]] {
			switch {
			case e.Class >= 0:
				c, w := g.char(p)
				found = w > 0 && g.net.inClass(e.Class, c) && g.reach(f, e.To, p+w)
			case e.Call >= 0:
				if c, w := g.char(p); !g.net.layout.mayMatch(e.Call, c, w) {
					break
				}
				if f.origin >= 0 && !g.net.layout.recursive[e.Call] {
					found = g.callReach(f, e.Call, e.To, p)
					break
				}
				for _, end := range g.end(e.Call, p) {
					if !g.step() {
						break
					}
					if end > p && g.reach(f, e.To, end) {
						found = true
						break
					}
				}
			}
			if found || g.err != nil {
				break
			}
		}
		if found || g.err != nil {
			break
		}
	}
	f.can[k] = found
	return found
}

// callReach reports whether a call of rule r (on no cycle of calls) made by
// invocation f at position p, returning to state ret, can end after p where
// f can go on to end where its callers complete. (An end at p itself is
// the closure's: r matching the empty string.)
//
// The call is searched as an invocation of its own, a frame whose answers
// are kept per (state, position) for its rule, caller and return state,
// whatever its origin — as the parser's own invocations are — not by the
// list of its ends from p. Where the grammar is ambiguous over a run of
// input (RFC 5322's [CFWS] [CFWS] across white space), a rule called at
// every position of the run ends anywhere in the rest of the run: its
// lists of ends are quadratic in the run's length, its search as a frame
// linear, each (state, position) pair answered once for every origin. A
// rule on a cycle keeps its ends (End(r, p)): its frames would nest as
// deep as the input, one more set of answers per level.
func (g *Guide) callReach(f *frame, r, ret, p int32) bool {
	if !g.step() {
		return false
	}
	k := frameKey{r, -1, ret, f.canon}
	v := g.frames[k]
	if v == nil {
		v = g.newFrame(r, -1, ret, f.canon)
		g.frames[k] = v
	}
	// At p, what the invocation does depends on its origin (it must not
	// end there): searched here, not kept; from p on, its answers are
	// those of any origin.
	c, w := g.char(p)
	for _, x := range g.closure(g.net.Rules[r].Start, p) {
		for _, e := range g.net.Edges[g.net.Index[x]:g.net.Index[x+1]] {
			switch {
			case e.Class >= 0:
				if w > 0 && g.net.inClass(e.Class, c) && g.reach(v, e.To, p+w) {
					return true
				}
			case e.Call >= 0:
				if !g.net.layout.mayMatch(e.Call, c, w) {
					break
				}
				for _, end := range g.end(e.Call, p) {
					if !g.step() {
						return false
					}
					if end > p && g.reach(v, e.To, end) {
						return true
					}
				}
			}
			if g.err != nil {
				return false
			}
		}
	}
	return false
}

// end returns the sorted positions where rule r, called at p, can end.
//
// It runs r's automaton over the input like an NFA simulation, position by
// position (every edge stays at its position or moves forward: there is no
// left recursion), with the ends of the rules it calls computed the same way
// and memoized. The pending (position, state) pairs are a min-heap, so that
// positions are taken in order and each is closed once.
func (g *Guide) end(r, p int32) []int32 {
	k := uint64(uint32(r))<<32 | uint64(uint32(p))
	if e, ok := g.ends[k]; ok {
		return g.arena[e.off : e.off+e.n : e.off+e.n]
	}
	g.ends[k] = span{} // a rule called again at the same position ends nowhere new: no left recursion reaches here
	rule := g.net.Rules[r]
	// Scratch space per nesting depth of end: marks dedupes the states of
	// rule r at one position, by their number within the rule (stamps
	// never repeat, so it needs no clearing), the heap holds the pending
	// pairs, the list the states of the position.
	depth := g.depth
	g.depth++
	defer func() { g.depth-- }()
	lay := g.net.states()
	if depth == len(g.scratch) {
		g.scratch = append(g.scratch, &endScratch{})
	}
	sc := g.scratch[depth]
	if n := int(lay.size[r]); len(sc.marks) < n {
		// Stamps never repeat, so grown marks need no clearing either.
		sc.marks = make([]uint32, n)
	}
	marks, local := sc.marks, lay.local
	heap := pairHeap(sc.heap[:0])
	heap.push(pair(p, rule.Start))
	out := sc.out[:0]
	list := sc.list[:0]
	for len(heap) > 0 && g.err == nil {
		q := int32(heap[0] >> 32)
		g.stamp++
		stamp := g.stamp
		list = list[:0]
		for len(heap) > 0 && int32(heap[0]>>32) == q {
			for _, s := range lay.eps(int32(uint32(heap.pop()))) {
				if marks[local[s]] != stamp {
					marks[local[s]] = stamp
					list = append(list, s)
				}
			}
		}
		c, w := g.char(q)
		for i := 0; i < len(list); i++ {
			s := list[i]
			if !g.step() {
				break
			}
			if s == rule.Final {
				out = append(out, q)
			}
			for _, e := range g.net.Edges[g.net.Index[s]:g.net.Index[s+1]] {
				switch {
				case e.Class >= 0:
					if w > 0 && g.net.inClass(e.Class, c) {
						heap.push(pair(q+w, e.To))
					}
				case e.Call >= 0:
					if !lay.mayMatch(e.Call, c, w) {
						break
					}
					// The callee uses the next depth's scratch space;
					// this depth's heap and list are saved first.
					sc.heap, sc.list = heap, list
					ends := g.end(e.Call, q)
					heap, list = sc.heap, sc.list
					for _, end := range ends {
						if !g.step() {
							break
						}
						if end == q {
							for _, x := range lay.eps(e.To) {
								if marks[local[x]] != stamp {
									marks[local[x]] = stamp
									list = append(list, x)
								}
							}
							continue
						}
						heap.push(pair(end, e.To))
					}
				}
			}
		}
	}
	sc.heap, sc.list = heap[:0], list[:0]
	// In increasing order: positions are taken in order. The arena holds
	// them, not a slice of their own: a parse computes thousands of short
	// lists, and a map of slices is a map of pointers for the collector to
	// scan. (Slices of the arena handed out before it grows stay valid: the
	// values never change.)
	off := len(g.arena)
	g.arena = append(g.arena, out...)
	g.ends[k] = span{off, len(out)}
	sc.out = out[:0]
	return g.arena[off:len(g.arena):len(g.arena)]
}

// span locates one list of ends in Guide.arena.
type span struct{ off, n int }

// endScratch is the reusable space of one nesting depth of Guide.end.
type endScratch struct {
	marks []uint32
	heap  pairHeap
	list  []int32
	out   []int32
}

func pair(pos, state int32) uint64 { return uint64(uint32(pos))<<32 | uint64(uint32(state)) }

// pairHeap is a min-heap of (position, state) pairs packed into uint64s:
// ordered by position first.
type pairHeap []uint64

func (h *pairHeap) push(x uint64) {
	*h = append(*h, x)
	i := len(*h) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if (*h)[parent] <= (*h)[i] {
			break
		}
		(*h)[parent], (*h)[i] = (*h)[i], (*h)[parent]
		i = parent
	}
}

func (h *pairHeap) pop() uint64 {
	old := *h
	x := old[0]
	n := len(old) - 1
	old[0] = old[n]
	*h = old[:n]
	i := 0
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < n && (*h)[l] < (*h)[m] {
			m = l
		}
		if r < n && (*h)[r] < (*h)[m] {
			m = r
		}
		if m == i {
			return x
		}
		(*h)[i], (*h)[m] = (*h)[m], (*h)[i]
		i = m
	}
}

// A Lookahead runs, for one parse, the exact continuation guards of a
// generated parser: each guard is the minimal DFA of what may follow a
// decision, to the end of the input, written as a [Net] whose rules are the
// guards (a rule's automaton is its DFA: disjoint classes on every state's
// edges, and an ε-edge to the rule's final state from each accepting
// state; no calls).
//
// A guard asked at every iteration of a repetition would rescan the rest
// of the input each time, quadratic work in all. A Lookahead remembers the
// verdict of every (state, position) pair its runs have passed, for every
// guard of the parse: a run stops at the first pair already decided, so
// the guards of one parse together take at most one step per pair, a
// number linear in the input's length (the DFAs' states times the
// positions) and, in practice, a step or two per byte of the input.
//
// A Lookahead is for one parse by one goroutine.
type Lookahead struct {
	net    *Net
	in     []byte
	budget int
	work   int
	err    error
	memo   map[uint64]bool // pair(position, state) → accepted
	path   []uint64
	// octets: each byte of in is a character (a tree function's raw input
	// of an octet grammar); else in is UTF-8 (what pigeon reads).
	octets bool
}

// NewLookahead returns the lookahead of one parse of input, which may take
// about work steps (a step is one character read by a guard's DFA) before
// it gives up with [ErrWork]. A network that fails [Net.Check] makes a
// lookahead that answers false to everything, with the check's error from
// [Lookahead.Err].
func NewLookahead(n *Net, input []byte, work int) *Lookahead {
	l := &Lookahead{net: n, in: input, budget: work, work: work}
	switch {
	case n == nil:
		l.err = errors.New("lookahead: no network")
	default:
		n.states()
		l.err = n.checkErr
	}
	return l
}

// Steps returns the steps the lookahead has taken so far.
func (l *Lookahead) Steps() int {
	if l == nil {
		return 0
	}
	return l.budget - max(l.work, 0)
}

// Err returns why the lookahead gave up, or nil.
func (l *Lookahead) Err() error {
	if l == nil {
		return errors.New("parse needs a lookahead for its exact guards, and has none")
	}
	return l.err
}

// Match reports whether the rest of the input, from position pos, is in
// the language of guard (a rule of the network).
func (l *Lookahead) Match(guard, pos int) bool {
	if l == nil || l.err != nil || guard < 0 || guard >= len(l.net.Rules) || pos < 0 || pos > len(l.in) {
		return false
	}
	if l.memo == nil {
		l.memo = make(map[uint64]bool, min(len(l.in)+1, 1<<16))
	}
	n := l.net
	final := n.Rules[guard].Final
	s, q := n.Rules[guard].Start, int32(pos)
	path := l.path[:0]
	verdict := false
	for {
		k := pair(q, s)
		if v, ok := l.memo[k]; ok {
			verdict = v
			break
		}
		l.work--
		if l.work < 0 {
			l.err = ErrWork
			return false
		}
		path = append(path, k)
		c, w := char(l.in, q)
		if l.octets && int(q) < len(l.in) {
			c, w = rune(l.in[q]), 1
		}
		next := int32(-1)
		for _, e := range n.Edges[n.Index[s]:n.Index[s+1]] {
			switch {
			case e.Class < 0:
				if int(q) == len(l.in) && e.To == final {
					verdict = true
				}
			case w > 0 && next < 0 && n.inClass(e.Class, c):
				next = e.To
			}
		}
		if next < 0 {
			break
		}
		s, q = next, q+w
	}
	for _, k := range path {
		l.memo[k] = verdict
	}
	l.path = path[:0]
	return verdict
}

// char returns the character of in at p and its width, 0 at the end or at
// a byte that is not UTF-8 (which no class matches).
func char(in []byte, p int32) (rune, int32) {
	if int(p) >= len(in) {
		return 0, 0
	}
	c, w := utf8.DecodeRune(in[p:])
	if c == utf8.RuneError && w <= 1 {
		return 0, 0
	}
	return c, int32(w)
}

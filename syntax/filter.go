package syntax

import (
	"math"
	"slices"
	"sync"
)

// The filter: a regular over-approximation of a start rule's language,
// run before a guided parse.
//
// On an invalid input, the guide cannot answer "no" until it has gone
// everywhere a derivation of a prefix of the input goes, and on an
// ambiguous grammar that is cubic in the input: IMAP's t = "y" / t " " t
// took 10.8 million steps on 800 bytes of "y y … y " (a space too many),
// so a parse with ParseRule's budget gave up from about 150 bytes with
// ErrWork, at offset 0, saying nothing of where or what. A valid input of
// the same length takes it 13,857 steps: the search stops at its first
// derivation.
//
// The filter answers "no" in one pass instead, for the inputs that a
// regular superset of the language already excludes. Its automaton is the
// network with each rule's automaton once (the rules the start rule
// reaches), a call an ε-edge to the callee's start, and the callee's final
// state an ε-edge to every state a call of it returns to: a run may then
// return from a call to the return point of another call of the same rule,
// so the automaton accepts a superset of the language (the classical
// approximation that forgets the stack). It is exact where recursion does
// not nest, and for t it is: y( y)*. Determinized at the start rule's
// first guided parse (once per network, within the limits below), it
// reads a character with two table lookups. Past the limits, the DFA is
// made as inputs go (a lazy DFA, lazyFilter): each run adds the states
// and moves its input reaches that no run made before, counting their
// work against the parse's budget, and the states stay for the next
// parse, up to maxLazyStates; past those, or past its budget, a run
// proves nothing (the rule is then parsed as before). IMAP's SEARCH
// (RFC 3501), whose filter needs 1,049 states, rejected "SEARCH 1" +
// ",1"×60 + " x" (130 bytes) only after the guide's search gave up
// (42,744 steps, for "too much work"); with its lazy filter the error
// takes 2,972.
//
// Every state of a network gen writes can complete (each rule matches
// something), so every state of the filter's automaton can reach its final
// state: the filter stops at the end of the longest prefix of the input
// that begins a string of the superset. No longer prefix begins a string
// of the language, so the input is invalid and its error is at that offset
// or before. Grammar.Parse then finds it with the exact search,
// Net.Farthest, within the parse's budget; past it, the PEG alone's
// farthest failure is where the input is still viable, at the error or
// before, and is the error only where it meets the filter's offset.

const (
	maxFilterStates = 1024    // DFA states of a filter made at once
	maxFilterNFA    = 1 << 16 // states of its automaton before determinizing
	maxFilterWork   = 1 << 19 // see determinize
	maxLazyStates   = 1 << 12 // DFA states of a lazy filter
	maxLazyCells    = 1 << 20 // its table's cells, states times symbols
)

// A filterAuto is a start rule's filter: its DFA, made at once, or its
// lazy DFA.
type filterAuto struct {
	dfa  *ruleDFA
	lazy *lazyFilter
}

// noFilter stands for a rule that has no filter.
var noFilter = &filterAuto{}

// filter returns the filter of rule r (a start rule of the network), nil if
// it has none: its automaton passed the limits, or its symbols did.
func (n *Net) filter(r int32) *filterAuto {
	l := n.states()
	if n.checkErr != nil || r < 0 || int(r) >= len(l.filters) {
		return nil
	}
	p := &l.filters[r]
	f := p.Load()
	if f == nil {
		if f = n.buildFilter(r); f == nil {
			f = noFilter
		}
		if !p.CompareAndSwap(nil, f) {
			f = p.Load()
		}
	}
	if f == noFilter {
		return nil
	}
	return f
}

// buildFilter determinizes the approximation of rule r (see above), or
// past the limits, makes its lazy DFA.
func (n *Net) buildFilter(r int32) *filterAuto {
	x, start, final := n.filterAutomaton(r)
	if x == nil {
		return nil
	}
	if d := n.determinize(x, start, final, maxFilterStates, maxFilterWork); d != nil {
		return &filterAuto{dfa: d}
	}
	return n.lazyFilterOf(x, start, final)
}

// lazyFilterOf makes the lazy DFA of automaton x, or nil when its symbols
// alone pass the work limit.
func (n *Net) lazyFilterOf(x *expansion, start, final int32) *filterAuto {
	al := n.alphabet(x, maxFilterWork)
	if al == nil {
		return nil
	}
	return &filterAuto{lazy: newLazyFilter(x, al, start, final)}
}

// filterAutomaton returns the approximation of rule r as an automaton
// (see above), nil past maxFilterNFA states.
func (n *Net) filterAutomaton(r int32) (x *expansion, start, final int32) {
	x = &expansion{n: n, limit: maxFilterNFA, kernel: true}
	ids := map[int32]int32{}
	var queue []int32
	id := func(s int32) int32 {
		if v, ok := ids[s]; ok {
			return v
		}
		v := x.state()
		ids[s] = v
		queue = append(queue, s)
		return v
	}
	start, final = id(n.Rules[r].Start), id(n.Rules[r].Final)
	for i := 0; i < len(queue) && !x.over; i++ {
		s := queue[i]
		for _, e := range n.Edges[n.Index[s]:n.Index[s+1]] {
			from, to := ids[s], id(e.To)
			switch {
			case e.Class >= 0:
				x.chars[from] = append(x.chars[from], NetEdge{To: to, Class: e.Class, Call: -1})
			case e.Call >= 0:
				cs, cf := id(n.Rules[e.Call].Start), id(n.Rules[e.Call].Final)
				x.eps[from] = append(x.eps[from], cs)
				x.eps[cf] = append(x.eps[cf], to)
			default:
				x.eps[from] = append(x.eps[from], to)
			}
		}
	}
	if x.over {
		return nil, 0, 0
	}
	return x, start, final
}

// rejects runs rule r's filter on input. It reports whether the input is
// proven outside the rule's language, and then the length of the longest
// prefix of the input that begins a string of the filter's superset (the
// input's error is there or before). Without a filter, at bytes that are
// not UTF-8, or where a lazy filter would pass its limits or spend more
// than work making its states, it proves nothing.
func (n *Net) rejects(r int32, input []byte, work int) (offset int, rejected bool) {
	if len(input) > math.MaxInt32 {
		return 0, false // past the positions of the network's search too
	}
	f := n.filter(r)
	switch {
	case f == nil:
		return 0, false
	case f.lazy != nil:
		return f.lazy.rejects(input, work)
	}
	d := f.dfa
	st, p := int32(0), int32(0)
	for int(p) < len(input) {
		c, w := char(input, p)
		if w == 0 {
			return 0, false // not UTF-8: pigeon's reason stands
		}
		σ := d.symbol(c)
		if σ < 0 {
			return int(p), true
		}
		next := d.next[st*d.nsym+σ]
		if next < 0 {
			return int(p), true
		}
		st, p = next, p+w
	}
	if !d.accept[st] {
		return len(input), true
	}
	return 0, false
}

// lazyFilter is a filter's DFA made as inputs go: the subset construction
// of determinize, one move at a time, when a run reads a symbol in a state
// whose move on it no run has made yet. Its states and moves are kept for
// the runs after it, which its lock serializes (a run that finds its moves
// made reads a character with two table lookups).
type lazyFilter struct {
	mu        sync.Mutex
	x         *expansion
	final     int32
	d         ruleDFA // symbols, next (unknownMove where not made yet), accept
	al        *alphabet
	sets      [][]int32 // each state's set of the expansion's states (kernels)
	index     map[string]int32
	maxStates int // past them, runs that need a new state prove nothing
	mark      []int32
	stamp     int32
	stack     []int32
	move      []int32
	key       []byte
}

// unknownMove is the entry of a move not made yet.
const unknownMove = -2

func newLazyFilter(x *expansion, al *alphabet, start, final int32) *lazyFilter {
	f := &lazyFilter{x: x, final: final, al: al, index: map[string]int32{}, mark: make([]int32, len(x.eps))}
	al.symbols(&f.d)
	f.maxStates = maxLazyStates
	if f.d.nsym > 0 {
		f.maxStates = min(maxLazyStates, maxLazyCells/int(f.d.nsym))
	}
	f.add(f.closure([]int32{start}, new(int)))
	return f
}

// closure returns the kernels of the ε-closure of set, sorted, counting
// the states it goes through in *work.
func (f *lazyFilter) closure(set []int32, work *int) []int32 {
	f.stamp++
	var out []int32
	f.stack = append(f.stack[:0], set...)
	for _, s := range set {
		f.mark[s] = f.stamp
	}
	for len(f.stack) > 0 {
		s := f.stack[len(f.stack)-1]
		f.stack = f.stack[:len(f.stack)-1]
		*work--
		if len(f.x.chars[s]) > 0 || s == f.final {
			out = append(out, s)
		}
		for _, t := range f.x.eps[s] {
			if f.mark[t] != f.stamp {
				f.mark[t] = f.stamp
				f.stack = append(f.stack, t)
			}
		}
	}
	slices.Sort(out)
	return out
}

// add makes set a state, with no move made yet, and returns its number.
func (f *lazyFilter) add(set []int32) int32 {
	f.key = f.key[:0]
	for _, s := range set {
		f.key = append(f.key, byte(s), byte(s>>8), byte(s>>16), byte(s>>24))
	}
	if t, ok := f.index[string(f.key)]; ok {
		return t
	}
	if len(f.sets) >= f.maxStates {
		return -1
	}
	t := int32(len(f.sets))
	f.index[string(f.key)] = t
	f.sets = append(f.sets, set)
	f.d.accept = append(f.d.accept, slices.Contains(set, f.final))
	for range f.d.nsym {
		f.d.next = append(f.d.next, unknownMove)
	}
	return t
}

// step returns the state after state st reads symbol σ (-1 for none),
// making the move if no run has, with its work counted in *work; ok is
// false when the state it needs cannot be made (maxStates).
func (f *lazyFilter) step(st, σ int32, work *int) (next int32, ok bool) {
	i := st*f.d.nsym + σ
	if t := f.d.next[i]; t != unknownMove {
		return t, true
	}
	f.stamp++
	f.move = f.move[:0]
	for _, s := range f.sets[st] {
		for _, e := range f.x.chars[s] {
			*work--
			if f.al.members[σ][f.al.classIndex[e.Class]] && f.mark[e.To] != f.stamp {
				f.mark[e.To] = f.stamp
				f.move = append(f.move, e.To)
			}
		}
	}
	t := int32(-1)
	if len(f.move) > 0 {
		if t = f.add(f.closure(f.move, work)); t < 0 {
			return 0, false
		}
	}
	f.d.next[i] = t
	return t, true
}

// rejects is Net.rejects for a lazy filter: making the moves it needs
// costs at most work (states the closures go through, edges the moves
// read).
func (f *lazyFilter) rejects(input []byte, work int) (offset int, rejected bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	st, p := int32(0), int32(0)
	for int(p) < len(input) {
		c, w := char(input, p)
		if w == 0 {
			return 0, false // not UTF-8: pigeon's reason stands
		}
		σ := f.d.symbol(c)
		if σ < 0 {
			return int(p), true
		}
		next, ok := f.step(st, σ, &work)
		if !ok || work < 0 {
			return 0, false
		}
		if next < 0 {
			return int(p), true
		}
		st, p = next, p+w
	}
	if !f.d.accept[st] {
		return len(input), true
	}
	return 0, false
}

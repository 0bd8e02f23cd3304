package syntax

import "math"

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
// first guided parse (once per network, within the limits below; past
// them the rule has no filter), it reads a character with two table
// lookups.
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
	maxFilterStates = 1024    // DFA states of a filter
	maxFilterNFA    = 1 << 16 // states of its automaton before determinizing
	maxFilterWork   = 1 << 19 // see determinize
)

// filter returns the filter of rule r (a start rule of the network), nil if
// it has none: its automaton or its DFA passed the limits (see loadDFA).
func (n *Net) filter(r int32) *ruleDFA {
	l := n.states()
	if n.checkErr != nil || r < 0 || int(r) >= len(l.filters) {
		return nil
	}
	return loadDFA(&l.filters[r], func() *ruleDFA { return n.buildFilter(r) })
}

// buildFilter determinizes the approximation of rule r (see above).
func (n *Net) buildFilter(r int32) *ruleDFA {
	x := &expansion{n: n, limit: maxFilterNFA, kernel: true}
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
	start, final := id(n.Rules[r].Start), id(n.Rules[r].Final)
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
		return nil
	}
	return n.determinize(x, start, final, maxFilterStates, maxFilterWork)
}

// rejects runs rule r's filter on input. It reports whether the input is
// proven outside the rule's language, and then the length of the longest
// prefix of the input that begins a string of the filter's superset (the
// input's error is there or before). Without a filter, or at bytes that
// are not UTF-8, it proves nothing.
func (n *Net) rejects(r int32, input []byte) (offset int, rejected bool) {
	if len(input) > math.MaxInt32 {
		return 0, false // past the positions of the network's search too
	}
	d := n.filter(r)
	if d == nil {
		return 0, false
	}
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

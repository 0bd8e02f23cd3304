package fa

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	gwork "github.com/peguri/rfc3986/gen/internal/work"
)

// DFA is a deterministic automaton over the atoms of the NFA it was built
// from. State 0 is the start state; Next[s][a] is -1 when atom a leads
// nowhere (the dead state is implicit).
type DFA struct {
	Atoms  []CharSet
	Next   [][]int32
	Accept []bool
}

// ErrTooBig is returned when subset construction exceeds its state limit.
var ErrTooBig = fmt.Errorf("fa: DFA exceeds the state limit")

// Limits bound subset construction. A zero field means no limit.
type Limits struct {
	// States bounds the states of the DFA built (before minimization).
	States int
	// Work bounds the NFA states visited while computing ε-closures and
	// steps, summed over the whole construction: a DFA can stay within
	// States while each of its states stands for a large set of NFA states,
	// and then time and memory grow with the product.
	Work int
	// Simulate retries a construction that passes a limit with every set
	// of NFA states pruned of the states another of the set simulates (see
	// simulation), when the NFA is small enough for the relation to be
	// computed: the DFA built can be exponentially smaller, and its
	// minimal DFA is the same.
	Simulate bool
}

// LimitError reports which limit subset construction ran into. It matches
// ErrTooBig under errors.Is, so callers that only know the state limit
// keep working.
type LimitError struct {
	Work  bool // the work limit, not the state limit
	Limit int
}

func (e *LimitError) Error() string {
	if e.Work {
		return fmt.Sprintf("subset construction exceeds its work limit (%d NFA states visited)", e.Limit)
	}
	return fmt.Sprintf("subset construction exceeds its state limit (%d DFA states)", e.Limit)
}

// Is makes a LimitError match ErrTooBig.
func (e *LimitError) Is(target error) bool { return target == ErrTooBig }

// Determinize builds the DFA of the language from the given NFA states by
// subset construction, with at most limit states (0: no limit). Past the
// limit it returns ErrTooBig itself.
func Determinize(n *NFA, from []int32, limit int) (*DFA, error) {
	d, err := DeterminizeLimits(n, from, Limits{States: limit})
	if errors.Is(err, ErrTooBig) {
		return nil, ErrTooBig
	}
	return d, err
}

// DeterminizeLimits is Determinize with the limits of l; past one it
// returns a *LimitError.
//
// A DFA state is the set of the NFA states, in the ε-closure of what the
// input so far reaches, that matter for the future: those with transitions
// and the accepting state. Two closures that agree on those accept the same
// continuations, so identifying them keeps the language while keeping the
// sets (and the DFA before minimization) small. The closure itself skips
// through chains of states that have nothing but one ε-edge (Thompson's
// construction makes long ones, for instance at the exits of nested
// options), so that the time per DFA state does not grow with their length.
func DeterminizeLimits(n *NFA, from []int32, l Limits) (*DFA, error) {
	d, err := determinize(n, from, l, false)
	var le *LimitError
	if l.Simulate && errors.As(err, &le) {
		// Past a limit, and only then (the relation costs time
		// quadratic in the NFA), again with the sets pruned.
		if d2, err2 := determinize(n, from, l, true); err2 == nil || !errors.As(err2, &le) {
			return d2, err2
		}
	}
	return d, err
}

func determinize(n *NFA, from []int32, l Limits, simulate bool) (*DFA, error) {
	d := &DFA{Atoms: n.Atoms}
	k := len(n.Atoms)
	c := newCloser(n)
	// Each DFA state's NFA set is kept only as its key (varint-encoded,
	// about a third of the memory of the []int32): sets are decoded once,
	// when their state is expanded.
	index := map[string]int32{}
	var keys []string
	add := func(s []int32) int32 {
		key := Key(s)
		if i, ok := index[key]; ok {
			return i
		}
		i := int32(len(keys))
		index[key] = i
		keys = append(keys, key)
		d.Next = append(d.Next, nil)
		d.Accept = append(d.Accept, Contains(s, n.Accept))
		return i
	}
	defer func() { gwork.Add(c.work + len(keys)*k) }()
	var sim *simulation
	if simulate {
		if sim = newSimulation(n, c); sim == nil {
			return nil, &LimitError{Limit: l.States} // too large to simulate: the limit stands
		}
	}
	add(sim.prune(c.closure(from)))
	buckets := make([][]int32, k)
	var set []int32
	for i := 0; i < len(keys); i++ {
		if l.States > 0 && len(keys) > l.States {
			return nil, &LimitError{Limit: l.States}
		}
		set = decodeKey(keys[i], set[:0])
		// One pass over the transitions of the set fills the targets of
		// every atom (rather than one pass per atom).
		for _, s := range set {
			for _, t := range n.States[s].Trans {
				c.work += len(t.On)
				t.On.Each(func(a int) {
					buckets[a] = append(buckets[a], t.To)
					c.work++
				})
			}
		}
		next := make([]int32, k)
		for a := range k {
			if len(buckets[a]) == 0 {
				next[a] = -1
				continue
			}
			next[a] = add(sim.prune(c.closure(buckets[a])))
			buckets[a] = buckets[a][:0]
		}
		d.Next[i] = next
		if l.Work > 0 && c.work > l.Work {
			return nil, &LimitError{Work: true, Limit: l.Work}
		}
	}
	return d, nil
}

// closer computes the ε-closures of subset construction, restricted to the
// states that matter (see DeterminizeLimits), reusing its buffers.
type closer struct {
	n     *NFA
	skip  []int32  // for a state with one ε-edge and nothing else, where its chain ends; else itself
	mark  []uint32 // mark[s] == gen: s seen in this closure
	gen   uint32
	stack []int32
	work  int
}

func newCloser(n *NFA) *closer {
	skip := n.skip
	if skip == nil { // an NFA not made by a Builder
		skip = skipTable(n)
	}
	return &closer{n: n, skip: skip, mark: make([]uint32, len(n.States))}
}

// skipTable returns, for each state, where the chain of states with one
// ε-edge and nothing else (no transition, not accepting) that starts at it
// ends; a state not on such a chain maps to itself, and a chain that loops
// ends where the loop is found.
func skipTable(n *NFA) []int32 {
	const unset = -1
	skip := make([]int32, len(n.States))
	for s := range skip {
		skip[s] = unset
	}
	passable := func(s int32) bool {
		st := &n.States[s]
		return len(st.Trans) == 0 && len(st.Eps) == 1 && s != n.Accept
	}
	walk := make([]int32, len(n.States)) // walk[s] == s0+1: s is on the walk from s0
	var path []int32
	for s0 := range skip {
		if skip[s0] != unset {
			continue
		}
		// Walk to the end of the chain, then set every state on it.
		path = path[:0]
		s := int32(s0)
		var end int32
		for {
			if skip[s] != unset {
				end = skip[s]
				break
			}
			if !passable(s) || walk[s] == int32(s0)+1 {
				end = s
				break
			}
			walk[s] = int32(s0) + 1
			path = append(path, s)
			s = n.States[s].Eps[0]
		}
		for _, p := range path {
			skip[p] = end
		}
		if skip[end] == unset {
			skip[end] = end
		}
	}
	return skip
}

// closure returns the sorted states with transitions, or accepting, in the
// ε-closure of states.
func (c *closer) closure(states []int32) []int32 {
	c.gen++
	if c.gen == 0 { // wrapped: old marks could look current
		clear(c.mark)
		c.gen = 1
	}
	n := c.n
	c.stack = c.stack[:0]
	for _, s := range states {
		s = c.skip[s]
		if c.mark[s] != c.gen {
			c.mark[s] = c.gen
			c.stack = append(c.stack, s)
		}
	}
	var out []int32
	for len(c.stack) > 0 {
		s := c.stack[len(c.stack)-1]
		c.stack = c.stack[:len(c.stack)-1]
		c.work++
		st := &n.States[s]
		if len(st.Trans) > 0 || s == n.Accept {
			out = append(out, s)
		}
		for _, t := range st.Eps {
			t = c.skip[t]
			if c.mark[t] != c.gen {
				c.mark[t] = c.gen
				c.stack = append(c.stack, t)
			}
		}
	}
	slices.Sort(out)
	return out
}

// decodeKey appends the states of a Key to out.
func decodeKey(k string, out []int32) []int32 {
	var v int32
	var shift uint
	for i := 0; i < len(k); i++ {
		b := k[i]
		v |= int32(b&0x7f) << shift
		if b < 0x80 {
			out = append(out, v)
			v, shift = 0, 0
			continue
		}
		shift += 7
	}
	return out
}

// Minimize returns the minimal DFA of the same language, with states
// unreachable or unable to reach acceptance removed. State 0 stays the
// start state; the others are numbered in breadth-first order from it
// (atoms in order), so the result is canonical: equal languages over the
// same atoms give equal DFAs, whatever the input DFA.
//
// The equivalence is computed by Hopcroft's partition refinement, in
// O(m log n) for n states and m transitions, on the partial automaton that
// keeps only reachable, live states (a missing transition is the dead
// state). Every block of the initial partition starts on the worklist:
// with a partial transition function, splitting by the accepting states
// does not imply splitting by the others, as it does for a complete one.
// After that, when a block splits, only the smaller part needs to be
// added: a state with a transition into the old block goes into exactly
// one of the parts, so refining by the old block and one part refines by
// the other.
func (d *DFA) Minimize() *DFA {
	n, k := len(d.Next), len(d.Atoms)
	m := &DFA{Atoms: d.Atoms}
	dead := func() *DFA {
		row := make([]int32, k)
		for a := range row {
			row[a] = -1
		}
		m.Next, m.Accept = [][]int32{row}, []bool{false}
		return m
	}
	if n == 0 {
		return dead()
	}
	keep := usefulStates(d)
	if !keep[0] {
		return dead()
	}
	// Compact numbering of the kept states.
	id := make([]int32, n)
	var states []int32
	for s := range n {
		id[s] = -1
		if keep[s] {
			id[s] = int32(len(states))
			states = append(states, int32(s))
		}
	}
	q := len(states)
	next := make([]int32, q*k)
	for i, s := range states {
		for a, t := range d.Next[s] {
			if t >= 0 && keep[t] {
				next[i*k+a] = id[t]
			} else {
				next[i*k+a] = -1
			}
		}
	}
	// Incoming transitions by target: in[inAt[t]:inAt[t+1]] are the
	// (atom, source) pairs into t.
	inAt := make([]int32, q+1)
	for _, t := range next {
		if t >= 0 {
			inAt[t+1]++
		}
	}
	for t := range q {
		inAt[t+1] += inAt[t]
	}
	type arc struct{ a, s int32 }
	in := make([]arc, inAt[q])
	fill := slices.Clone(inAt[:q])
	for i := range q {
		for a := range k {
			if t := next[i*k+a]; t >= 0 {
				in[fill[t]] = arc{int32(a), int32(i)}
				fill[t]++
			}
		}
	}
	p := newPartition(q, func(i int) bool { return d.Accept[states[i]] })
	// Steps: the arcs and states scanned, O(m log n) in all.
	steps := n*k + q*k
	defer func() { gwork.Add(steps) }()
	work := make([]int32, 0, p.blocks())
	for b := range p.blocks() {
		work = append(work, int32(b))
	}
	byAtom := make([][]int32, k)
	var atoms []int32 // atoms with predecessors for the current splitter
	var splitter []int32
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		// The splitter's states as they are now: marking below may reorder
		// (and splitting may shrink) its block while it is being used.
		splitter = append(splitter[:0], p.elems[p.first[b]:p.end[b]]...)
		steps += len(splitter)
		for _, t := range splitter {
			steps += int(inAt[t+1] - inAt[t])
			for _, x := range in[inAt[t]:inAt[t+1]] {
				if len(byAtom[x.a]) == 0 {
					atoms = append(atoms, x.a)
				}
				byAtom[x.a] = append(byAtom[x.a], x.s)
			}
		}
		for _, a := range atoms {
			for _, s := range byAtom[a] {
				p.mark(s)
			}
			byAtom[a] = byAtom[a][:0]
			work = p.split(work)
		}
		atoms = atoms[:0]
	}
	// Renumber blocks breadth-first from the start.
	num := make([]int32, p.blocks())
	for i := range num {
		num[i] = -1
	}
	num[p.blk[0]] = 0
	rep := []int32{0}
	for i := 0; i < len(rep); i++ {
		s := rep[i]
		row := make([]int32, k)
		for a := range k {
			t := next[int(s)*k+a]
			if t < 0 {
				row[a] = -1
				continue
			}
			c := p.blk[t]
			if num[c] < 0 {
				num[c] = int32(len(rep))
				rep = append(rep, t)
			}
			row[a] = num[c]
		}
		m.Next = append(m.Next, row)
		m.Accept = append(m.Accept, d.Accept[states[s]])
	}
	return m
}

// usefulStates returns the states reachable from state 0 that can reach an
// accepting state.
func usefulStates(d *DFA) []bool {
	n := len(d.Next)
	reach := make([]bool, n)
	reach[0] = true
	queue := []int32{0}
	for i := 0; i < len(queue); i++ {
		for _, t := range d.Next[queue[i]] {
			if t >= 0 && !reach[t] {
				reach[t] = true
				queue = append(queue, t)
			}
		}
	}
	// Backwards from the accepting states, over reachable states only.
	predAt := make([]int32, n+1)
	for _, s := range queue {
		for _, t := range d.Next[s] {
			if t >= 0 {
				predAt[t+1]++
			}
		}
	}
	for t := range n {
		predAt[t+1] += predAt[t]
	}
	pred := make([]int32, predAt[n])
	fill := slices.Clone(predAt[:n])
	for _, s := range queue {
		for _, t := range d.Next[s] {
			if t >= 0 {
				pred[fill[t]] = s
				fill[t]++
			}
		}
	}
	live := make([]bool, n)
	back := queue[:0:0]
	for _, s := range queue {
		if d.Accept[s] {
			live[s] = true
			back = append(back, s)
		}
	}
	for i := 0; i < len(back); i++ {
		t := back[i]
		for _, s := range pred[predAt[t]:predAt[t+1]] {
			if !live[s] {
				live[s] = true
				back = append(back, s)
			}
		}
	}
	return live
}

// partition is a refinable partition of the states 0…n-1: elems holds the
// states block by block, block b being elems[first[b]:end[b]], of which
// elems[first[b]:mid[b]] are marked.
type partition struct {
	elems, loc, blk []int32
	first, end, mid []int32
	touched         []int32 // blocks with a marked state
}

// newPartition starts with the states for which in is true and the others
// (only non-empty blocks).
func newPartition(n int, in func(int) bool) *partition {
	p := &partition{elems: make([]int32, 0, n), loc: make([]int32, n), blk: make([]int32, n)}
	for _, want := range []bool{true, false} {
		start := int32(len(p.elems))
		for s := range n {
			if in(s) == want {
				p.loc[s] = int32(len(p.elems))
				p.elems = append(p.elems, int32(s))
			}
		}
		if int32(len(p.elems)) > start {
			b := int32(len(p.first))
			for _, s := range p.elems[start:] {
				p.blk[s] = b
			}
			p.first = append(p.first, start)
			p.end = append(p.end, int32(len(p.elems)))
			p.mid = append(p.mid, start)
		}
	}
	return p
}

func (p *partition) blocks() int { return len(p.first) }

// mark marks state s, moving it to the marked front of its block.
func (p *partition) mark(s int32) {
	b := p.blk[s]
	i, j := p.loc[s], p.mid[b]
	if i < j {
		return // already marked
	}
	if j == p.first[b] {
		p.touched = append(p.touched, b)
	}
	t := p.elems[j]
	p.elems[i], p.elems[j] = t, s
	p.loc[t], p.loc[s] = i, j
	p.mid[b]++
}

// split splits every block with marked states into its marked and unmarked
// parts, unless all are marked; the smaller part becomes a new block,
// appended to work. Marks are cleared.
func (p *partition) split(work []int32) []int32 {
	for _, b := range p.touched {
		f, m, e := p.first[b], p.mid[b], p.end[b]
		p.mid[b] = f
		if m == e {
			continue
		}
		nb := int32(len(p.first))
		if m-f <= e-m {
			p.first = append(p.first, f)
			p.end = append(p.end, m)
			p.mid = append(p.mid, f)
			p.first[b], p.mid[b] = m, m
		} else {
			p.first = append(p.first, m)
			p.end = append(p.end, e)
			p.mid = append(p.mid, m)
			p.end[b] = m
		}
		for _, s := range p.elems[p.first[nb]:p.end[nb]] {
			p.blk[s] = nb
		}
		work = append(work, nb)
	}
	p.touched = p.touched[:0]
	return work
}

// Key returns a canonical text of a minimized DFA, for deduplication across
// automata with different alphabets.
func (d *DFA) Key() string {
	var b []byte
	for s := range d.Next {
		b = strconv.AppendInt(b, int64(s), 10)
		b = strconv.AppendBool(b, d.Accept[s])
		b = append(b, ':')
		for _, e := range d.Edges(s) {
			b = append(b, e.On.String()...)
			b = append(b, '>')
			b = strconv.AppendInt(b, int64(e.To), 10)
			b = append(b, ',')
		}
		b = append(b, ';')
	}
	return string(b)
}

// Edge is a DFA transition on a set of characters.
type Edge struct {
	On CharSet
	To int32
}

// Edges returns the transitions of state s, one per target state, ordered
// by target.
func (d *DFA) Edges(s int) []Edge {
	// Atoms grouped by target, then each group's ranges merged in one sort
	// (not one union per atom, which sorts all ranges so far each time).
	type pair struct{ to, a int32 }
	var pairs []pair
	for a, t := range d.Next[s] {
		if t >= 0 {
			pairs = append(pairs, pair{t, int32(a)})
		}
	}
	slices.SortFunc(pairs, func(x, y pair) int {
		if x.to != y.to {
			return int(x.to) - int(y.to)
		}
		return int(x.a) - int(y.a)
	})
	var out []Edge
	var rs []Range
	for i := 0; i < len(pairs); {
		j := i
		rs = rs[:0]
		for ; j < len(pairs) && pairs[j].to == pairs[i].to; j++ {
			rs = append(rs, d.Atoms[pairs[j].a].r...)
		}
		out = append(out, Edge{On: normalize(rs), To: pairs[i].to})
		i = j
	}
	return out
}

// normalize returns the set of the given ranges (sorted and merged into a
// new slice).
func normalize(rs []Range) CharSet {
	slices.SortFunc(rs, func(x, y Range) int { return int(x.Lo) - int(y.Lo) })
	var out []Range
	for _, r := range rs {
		if n := len(out); n > 0 && r.Lo <= out[n-1].Hi+1 {
			out[n-1].Hi = max(out[n-1].Hi, r.Hi)
			continue
		}
		out = append(out, r)
	}
	return CharSet{r: out}
}

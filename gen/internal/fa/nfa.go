package fa

import (
	"math/bits"
	"slices"

	"github.com/peguri/rfc3986/gen/internal/work"
)

// Bits is a set of small integers (atom numbers).
type Bits []uint64

// NewBits returns an empty set for integers below n.
func NewBits(n int) Bits { return make(Bits, (n+63)/64) }

func (b Bits) Has(i int) bool { return b[i>>6]&(1<<(i&63)) != 0 }
func (b Bits) Set(i int)      { b[i>>6] |= 1 << (i & 63) }
func (b Bits) Clear(i int)    { b[i>>6] &^= 1 << (i & 63) }

// Intersects reports whether b and c share an element.
func (b Bits) Intersects(c Bits) bool {
	for i := range b {
		if b[i]&c[i] != 0 {
			return true
		}
	}
	return false
}

// Or adds c's elements to b.
func (b Bits) Or(c Bits) {
	for i := range b {
		b[i] |= c[i]
	}
}

// Count returns the number of elements.
func (b Bits) Count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// Each calls f for each element in increasing order.
func (b Bits) Each(f func(int)) {
	for i, w := range b {
		for w != 0 {
			f(i<<6 | bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
}

// NFA is a Thompson NFA whose transitions are labelled with sets of atoms.
type NFA struct {
	Atoms  []CharSet // the alphabet partition; atom i is Atoms[i]
	States []NState
	Start  int32
	Accept int32

	// Work counts the states that closures have visited and the
	// transitions that Step has tried: a measure of the time spent on the
	// automaton, for callers that budget it.
	Work int

	pieces []piece // the atoms' ranges in order, for AtomsOf
	skip   []int32 // see skipTable
	// Closure's scratch space.
	mark  []uint32
	stamp uint32
	stack []int32
}

// piece is one range of an atom.
type piece struct {
	Range
	atom int32
}

// NState is one NFA state.
type NState struct {
	Eps   []int32
	Trans []Trans
}

// Trans is a transition on any atom of On.
type Trans struct {
	On Bits
	To int32
}

// Builder builds an NFA from states and labelled edges; the alphabet
// partition is computed when it is done. Edges are kept in flat lists and
// laid out per state once, at the end: an NFA can have millions of states,
// and a slice per state would cost an allocation each.
type Builder struct {
	n     int32
	eps   []epsEdge
	edges []edge
	alpha []CharSet
}

type epsEdge struct{ from, to int32 }

type edge struct {
	from, to int32
	on       CharSet
}

// Grow reserves room for about states more states and edges more edges
// (of both kinds), when the caller knows the size in advance.
func (b *Builder) Grow(states, edges int) {
	b.eps = slices.Grow(b.eps, edges)
	b.edges = slices.Grow(b.edges, edges)
}

// Alphabet adds sets to those the alphabet partition must respect, as if
// edges on them were added: an NFA that stands in for a larger one (say,
// with the minimal DFA of a part in place of the part's NFA) can so keep
// the larger one's atoms.
func (b *Builder) Alphabet(sets ...CharSet) { b.alpha = append(b.alpha, sets...) }

// State adds a state and returns its number.
func (b *Builder) State() int32 {
	b.n++
	return b.n - 1
}

// Len returns the number of states so far.
func (b *Builder) Len() int32 { return b.n }

// Eps adds an ε-edge.
func (b *Builder) Eps(from, to int32) { b.eps = append(b.eps, epsEdge{from, to}) }

// Edge adds an edge on the characters of on.
func (b *Builder) Edge(from, to int32, on CharSet) {
	b.edges = append(b.edges, edge{from, to, on})
}

// NFA finishes the automaton. Each state's ε-edges and transitions keep
// the order in which they were added.
func (b *Builder) NFA(start, accept int32) *NFA {
	work.Add(int(b.Len()) + len(b.edges))
	// Edges repeat the same few sets: each distinct set is partitioned,
	// and its atoms computed, once.
	set := make([]int32, len(b.edges))
	byRange := map[Range]int32{}
	byKey := map[string]int32{}
	var sets []CharSet
	for i, e := range b.edges {
		var id int32
		var ok bool
		if len(e.on.r) == 1 {
			if id, ok = byRange[e.on.r[0]]; !ok {
				id = int32(len(sets))
				byRange[e.on.r[0]] = id
			}
		} else {
			k := e.on.key()
			if id, ok = byKey[k]; !ok {
				id = int32(len(sets))
				byKey[k] = id
			}
		}
		if !ok {
			sets = append(sets, e.on)
		}
		set[i] = id
	}
	n := &NFA{Atoms: Partition(append(sets, b.alpha...)), States: make([]NState, b.n), Start: start, Accept: accept}
	n.pieces = pieces(n.Atoms)
	atoms := make([]Bits, len(sets))
	for i, s := range sets {
		atoms[i] = n.AtomsOf(s)
	}
	// ε-edges: counted per state, then placed (a stable counting sort).
	at := make([]int32, b.n+1)
	for _, e := range b.eps {
		at[e.from+1]++
	}
	for s := range b.n {
		at[s+1] += at[s]
	}
	to := make([]int32, len(b.eps))
	fill := slices.Clone(at[:b.n])
	for _, e := range b.eps {
		to[fill[e.from]] = e.to
		fill[e.from]++
	}
	for s := range n.States {
		if at[s] < at[s+1] {
			n.States[s].Eps = to[at[s]:at[s+1]:at[s+1]]
		}
	}
	// Transitions likewise; their atom sets share one backing array, each
	// a separate slice (no two transitions alias one Bits).
	clear(at)
	for _, e := range b.edges {
		at[e.from+1]++
	}
	for s := range b.n {
		at[s+1] += at[s]
	}
	words := (len(n.Atoms) + 63) / 64
	trans := make([]Trans, len(b.edges))
	bits := make(Bits, len(b.edges)*words)
	copy(fill, at[:b.n])
	for i, e := range b.edges {
		j := fill[e.from]
		fill[e.from]++
		on := bits[int(j)*words : int(j+1)*words : int(j+1)*words]
		copy(on, atoms[set[i]])
		trans[j] = Trans{On: on, To: e.to}
	}
	for s := range n.States {
		if at[s] < at[s+1] {
			n.States[s].Trans = trans[at[s]:at[s+1]:at[s+1]]
		}
	}
	n.skip = skipTable(n)
	return n
}

// AtomsOf returns the atoms that make up s, which must be a union of atoms
// (any set the NFA was built with is). It looks up each range of s among
// the atoms' ranges, in time logarithmic in the alphabet plus the output.
func (n *NFA) AtomsOf(s CharSet) Bits {
	ps := n.pieces
	if ps == nil { // an NFA not made by a Builder
		ps = pieces(n.Atoms)
	}
	b := NewBits(len(n.Atoms))
	for _, r := range s.r {
		i, _ := slices.BinarySearchFunc(ps, r.Lo, func(p piece, c rune) int {
			if p.Hi < c {
				return -1
			}
			return 1
		})
		for ; i < len(ps) && ps[i].Lo <= r.Hi; i++ {
			b.Set(int(ps[i].atom))
		}
	}
	return b
}

// pieces returns the ranges of the atoms, ordered.
func pieces(atoms []CharSet) []piece {
	var ps []piece
	for i, a := range atoms {
		for _, r := range a.r {
			ps = append(ps, piece{r, int32(i)})
		}
	}
	slices.SortFunc(ps, func(x, y piece) int { return int(x.Lo) - int(y.Lo) })
	return ps
}

// Closure returns the ε-closure of the given states, sorted. If within is
// non-nil, only states for which it returns true are entered.
//
// Closure keeps scratch space in the NFA: it is not safe for concurrent use.
func (n *NFA) Closure(states []int32, within func(int32) bool) []int32 {
	return n.closure(states, within, false, nil)
}

// CoreClosure is Closure keeping only the states that have transitions, the
// accepting state and those keep asks for (nil: none): a closed set's
// language is the union of those states' languages, so searches over state
// sets (peg's checks) may key and compare the smaller sets. Steps from it
// are the steps from the whole closure.
func (n *NFA) CoreClosure(states []int32, within, keep func(int32) bool) []int32 {
	return n.closure(states, within, true, keep)
}

func (n *NFA) closure(states []int32, within func(int32) bool, core bool, keep func(int32) bool) []int32 {
	if len(n.mark) != len(n.States) {
		n.mark = make([]uint32, len(n.States))
		n.stamp = 0
	}
	n.stamp++
	if n.stamp == 0 { // wrapped: old marks could collide
		clear(n.mark)
		n.stamp = 1
	}
	mark, stamp := n.mark, n.stamp
	stack := n.stack[:0]
	for _, s := range states {
		if mark[s] != stamp && (within == nil || within(s)) {
			mark[s] = stamp
			stack = append(stack, s)
		}
	}
	out := make([]int32, 0, len(stack)+4)
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n.Work++
		if !core || len(n.States[s].Trans) > 0 || s == n.Accept || keep != nil && keep(s) {
			out = append(out, s)
		}
		for _, t := range n.States[s].Eps {
			if mark[t] != stamp && (within == nil || within(t)) {
				mark[t] = stamp
				stack = append(stack, t)
			}
		}
	}
	n.stack = stack
	slices.Sort(out)
	return out
}

// Step returns the states reached from states on atom a (before closure).
func (n *NFA) Step(states []int32, a int) []int32 {
	var out []int32
	for _, s := range states {
		n.Work += len(n.States[s].Trans)
		for _, t := range n.States[s].Trans {
			if t.On.Has(a) {
				out = append(out, t.To)
			}
		}
	}
	return out
}

// First returns the atoms on which some state of the (closed) set has a
// transition.
func (n *NFA) First(states []int32) Bits {
	b := NewBits(len(n.Atoms))
	for _, s := range states {
		for _, t := range n.States[s].Trans {
			b.Or(t.On)
		}
	}
	return b
}

// Set returns the characters of the atoms in b.
func (n *NFA) Set(b Bits) CharSet {
	var s CharSet
	b.Each(func(i int) { s = s.Union(n.Atoms[i]) })
	return s
}

// Contains reports whether the sorted state list holds s.
func Contains(states []int32, s int32) bool {
	_, ok := slices.BinarySearch(states, s)
	return ok
}

// Subset reports whether sorted list a is a subset of sorted list b.
func Subset(a, b []int32) bool {
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j == len(b) || b[j] != x {
			return false
		}
	}
	return true
}

// Key encodes a sorted state list as a map key.
func Key(states []int32) string {
	b := make([]byte, 0, len(states)*3)
	for _, s := range states {
		for s >= 0x80 {
			b = append(b, byte(s)|0x80)
			s >>= 7
		}
		b = append(b, byte(s))
	}
	return string(b)
}

package fa

import (
	"fmt"
	"slices"
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

// Determinize builds the DFA of the language from the given NFA states by
// subset construction, with at most limit states (0: no limit).
func Determinize(n *NFA, from []int32, limit int) (*DFA, error) {
	d := &DFA{Atoms: n.Atoms}
	index := map[string]int32{}
	var sets [][]int32
	add := func(s []int32) int32 {
		k := Key(s)
		if i, ok := index[k]; ok {
			return i
		}
		i := int32(len(sets))
		index[k] = i
		sets = append(sets, s)
		d.Next = append(d.Next, nil)
		d.Accept = append(d.Accept, Contains(s, n.Accept))
		return i
	}
	add(n.Closure(from, nil))
	for i := 0; i < len(sets); i++ {
		if limit > 0 && len(sets) > limit {
			return nil, ErrTooBig
		}
		next := make([]int32, len(n.Atoms))
		for a := range n.Atoms {
			t := n.Step(sets[i], a)
			if len(t) == 0 {
				next[a] = -1
				continue
			}
			next[a] = add(n.Closure(t, nil))
		}
		d.Next[i] = next
	}
	return d, nil
}

// Minimize returns the minimal DFA of the same language (Moore's partition
// refinement), with states unreachable or unable to reach acceptance
// removed. State 0 stays the start state; the others are numbered in
// breadth-first order from it, so the result is canonical.
func (d *DFA) Minimize() *DFA {
	n := len(d.Next)
	// Live states: those that can reach an accepting state.
	live := make([]bool, n)
	for changed := true; changed; {
		changed = false
		for s := 0; s < n; s++ {
			if live[s] {
				continue
			}
			if d.Accept[s] {
				live[s], changed = true, true
				continue
			}
			for _, t := range d.Next[s] {
				if t >= 0 && live[t] {
					live[s], changed = true, true
					break
				}
			}
		}
	}
	next := func(s, a int) int32 {
		t := d.Next[s][a]
		if t < 0 || !live[t] {
			return -1
		}
		return t
	}
	// Partition refinement, starting from accepting / not accepting.
	class := make([]int32, n)
	for s := range class {
		if d.Accept[s] {
			class[s] = 1
		}
	}
	for {
		sig := map[string]int32{}
		newClass := make([]int32, n)
		for s := 0; s < n; s++ {
			key := make([]int32, 0, len(d.Atoms)+1)
			key = append(key, class[s])
			for a := range d.Atoms {
				t := next(s, a)
				if t < 0 {
					key = append(key, -1)
				} else {
					key = append(key, class[t])
				}
			}
			k := fmt.Sprint(key)
			c, ok := sig[k]
			if !ok {
				c = int32(len(sig))
				sig[k] = c
			}
			newClass[s] = c
		}
		same := countDistinct(newClass) == countDistinct(class)
		class = newClass
		if same {
			break
		}
	}
	// Renumber breadth-first from the start.
	m := &DFA{Atoms: d.Atoms}
	num := map[int32]int32{}
	var rep []int
	if !live[0] {
		m.Next = [][]int32{make([]int32, len(d.Atoms))}
		for a := range m.Next[0] {
			m.Next[0][a] = -1
		}
		m.Accept = []bool{false}
		return m
	}
	num[class[0]] = 0
	rep = append(rep, 0)
	for i := 0; i < len(rep); i++ {
		s := rep[i]
		row := make([]int32, len(d.Atoms))
		for a := range d.Atoms {
			t := next(s, a)
			if t < 0 {
				row[a] = -1
				continue
			}
			c := class[t]
			j, ok := num[c]
			if !ok {
				j = int32(len(rep))
				num[c] = j
				rep = append(rep, int(t))
			}
			row[a] = j
		}
		m.Next = append(m.Next, row)
		m.Accept = append(m.Accept, d.Accept[s])
	}
	return m
}

func countDistinct(c []int32) int {
	seen := map[int32]bool{}
	for _, x := range c {
		seen[x] = true
	}
	return len(seen)
}

// Key returns a canonical text of a minimized DFA, for deduplication across
// automata with different alphabets.
func (d *DFA) Key() string {
	var b []byte
	for s := range d.Next {
		b = fmt.Appendf(b, "%d%v:", s, d.Accept[s])
		for _, e := range d.Edges(s) {
			b = fmt.Appendf(b, "%s>%d,", e.On, e.To)
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
	by := map[int32]CharSet{}
	var order []int32
	for a, t := range d.Next[s] {
		if t < 0 {
			continue
		}
		if _, ok := by[t]; !ok {
			order = append(order, t)
		}
		by[t] = by[t].Union(d.Atoms[a])
	}
	slices.Sort(order)
	out := make([]Edge, len(order))
	for i, t := range order {
		out[i] = Edge{On: by[t], To: t}
	}
	return out
}

package syntax

import (
	"fmt"
	"strings"
)

// Walks: a marked machine written as Go code. The table walk
// ([Machine.RunMarks]) keeps its state in a register, and each
// transition's load waits for the one before; in code, one block per
// state, the state is where the program is, and the next byte's test does
// not wait for the last one's: the branch predictor runs ahead. gen dfa
// -walk writes a rule's walk with [Machine.GoWalk] and sets it as the
// table's Walk; [Table.Marked] uses it when it was written for the very
// transitions and marks of the machine it builds (WalkSum), and the table
// walk otherwise, so that a walk never runs against other tables or
// another marker.

// WalkFunc is a walk that gen dfa -walk generated: [Machine.WalkMarks] of
// the machine d that [Table.Marked] built. The marks are its result, not
// a pointer it writes through: a pointer passed to a function value
// escapes, and the caller's Marks would be allocated on every call.
type WalkFunc func(d *Machine, s string) (marks Marks, ok bool, fail, state int)

// WalkMarks is [Machine.RunMarks] with the marks as its result, all of
// them (0 for a mark not met): it runs the table's walk when it has one
// (see [Machine.HasWalk]), and walks the table otherwise. It allocates
// nothing.
func (d *Machine) WalkMarks(s string) (marks Marks, ok bool, fail, state int) {
	if d.walk != nil {
		return d.walk(d, s)
	}
	ok, fail, state = d.RunMarks(s, &marks)
	return marks, ok, fail, state
}

// Walk returns the walk [Machine.WalkMarks] runs, nil if it walks the
// table: a caller that calls it itself saves WalkMarks' copy of the
// marks.
func (d *Machine) Walk() WalkFunc { return d.walk }

// inlineWalk is how many bytes of a run a walk tests before it calls
// Span: as inlineRun for the table walk.
const inlineWalk = inlineRun

// walkSum is the fingerprint of what a walk must do: FNV-1a of the number
// of states and of every state's acceptance, transitions and marks (a
// wide machine's transitions two bytes each, low first).
func (d *Machine) walkSum() uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	add := func(b byte) { h = (h ^ uint64(b)) * prime }
	n := d.t.States
	add(byte(n))
	add(byte(n >> 8))
	for s := range n {
		add(b2u(d.acceptAt(s)))
		for b := range 256 {
			next, mark := d.edge(s, b)
			add(byte(next))
			if d.next8 == nil {
				add(byte(next >> 8))
			}
			add(mark)
		}
	}
	return h
}

// edge is the transition of a marked machine from state s on byte b: the
// next state and the mark.
func (d *Machine) edge(s, b int) (next int, mark uint8) {
	if d.next8 != nil {
		return int(d.next8[s<<8|b]), d.mark8[s<<8|b]
	}
	return int(d.next16[s<<8|b]), d.mark16[s<<8|b]
}

// acceptAt reports whether state s accepts.
func (d *Machine) acceptAt(s int) bool {
	if d.next8 != nil {
		return d.accept[s]
	}
	return d.wideAccept[s]
}

// skipOf is state s's skip set, nil if it has none.
func (d *Machine) skipOf(s int) *skipSet {
	if d.skip8 != nil {
		return d.skip8[s]
	}
	return d.skip16[s]
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// Span is, for the walks gen dfa -walk generates, the end of the run of
// bytes on which state stays in itself, from s[i]: the first j >= i where
// s[j] leaves the state and begins none of its triplets, or len(s); i if
// the state has no skip set, or if d runs no walk (a walk called with a
// machine that [Table.Marked] did not give it: its skip sets may hold
// bytes the walk marks). It skips 16 bytes at a time where the CPU can, 8
// elsewhere, as the table walk does. A walk goes on from where Span
// stops with its own test of the run's bytes, so that its result does not
// depend on how this package computes skip sets.
func (d *Machine) Span(state int, s string, i int) int {
	if d.walk == nil || state < 0 || state >= d.t.States {
		return i
	}
	if k := d.skipOf(state); k != nil {
		return k.span(s, i)
	}
	return i
}

// GoWalk writes the machine, which [Table.Marked] built, as a Go function
// named name of type [WalkFunc], with the tables
// it reads: package-level variables whose names are prefix followed by
// "Class" or "Set" and a number, which must name nothing else in the
// package. sum is what the table's WalkSum must be for [Table.Marked] to
// use it. The code imports package syntax as syntax. gen dfa -walk calls
// it.
func (d *Machine) GoWalk(name, prefix string) (code string, sum uint64, err error) {
	if d.mark8 == nil && d.mark16 == nil {
		return "", 0, fmt.Errorf("syntax: a walk is written for a machine that Table.Marked built")
	}
	n := d.t.States
	// The byte classes of the code: bytes with the same transition and
	// mark in every state.
	classOf := map[string]int{}
	var class [256]int
	var rep []int // a byte of each class
	for b := range 256 {
		var key strings.Builder
		for s := 1; s < n; s++ {
			next, mark := d.edge(s, b)
			key.WriteByte(byte(next))
			key.WriteByte(byte(next >> 8))
			key.WriteByte(mark)
		}
		c, ok := classOf[key.String()]
		if !ok {
			c = len(rep)
			classOf[key.String()] = c
			rep = append(rep, b)
		}
		class[b] = c
	}
	var w, vars strings.Builder
	table := func(name string, in func(b int) bool) {
		fmt.Fprintf(&vars, "var %s = [256]bool{", name)
		for b := range 256 {
			if in(b) {
				fmt.Fprintf(&vars, "%d: true, ", b)
			}
		}
		vars.WriteString("}\n\n")
	}
	fmt.Fprintf(&vars, "var %sClass = [256]uint8{", prefix)
	for b := range 256 {
		if class[b] != 0 {
			fmt.Fprintf(&vars, "%d: %d, ", b, class[b])
		}
	}
	vars.WriteString("}\n\n")
	// One table per distinct run and triplet set.
	sets := map[[256]uint8]string{}
	set := func(out *[256]uint8) string {
		if t, ok := sets[*out]; ok {
			return t
		}
		t := fmt.Sprintf("%sSet%d", prefix, len(sets))
		sets[*out] = t
		table(t, func(b int) bool { return out[b] == 0 })
		return t
	}

	fmt.Fprintf(&w, "// %s is a walk of %d states, the dead one included (see syntax.WalkFunc).\n", name, n)
	fmt.Fprintf(&w, "func %s(d *syntax.Machine, s string) (marks syntax.Marks, ok bool, fail, state int) {\n", name)
	fmt.Fprintf(&w, "cls := &%sClass\n_ = cls\ni, e := 0, 0\n_ = e\ngoto s1\n", prefix)
	for s := 1; s < n; s++ {
		fmt.Fprintf(&w, "s%d:\n", s)
		k := d.skipOf(s)
		if k != nil {
			t := set(&k.out)
			// Four bytes a test, then one at a time, up to inlineWalk
			// bytes; the rest of a longer run in Span, and from where it
			// stops, the same again: the walk's own run set decides.
			fmt.Fprintf(&w, "e = min(i+%d, len(s))\n", inlineWalk)
			fmt.Fprintf(&w, "for i+4 <= e && %[1]s[s[i]] && %[1]s[s[i+1]] && %[1]s[s[i+2]] && %[1]s[s[i+3]] {\ni += 4\n}\n", t)
			fmt.Fprintf(&w, "for i < e && %s[s[i]] {\ni++\n}\n", t)
			fmt.Fprintf(&w, "if i == e && e < len(s) {\ni = d.Span(%d, s, i)\ngoto s%[1]d\n}\n", s)
			if k.hasEsc {
				x := set(&k.escOut)
				fmt.Fprintf(&w, "if i+2 < len(s) && s[i] == %d && %[2]s[s[i+1]] && %[2]s[s[i+2]] {\ni += 3\ngoto s%[3]d\n}\n", k.esc, x, s)
			}
		}
		fmt.Fprintf(&w, "if i >= len(s) {\nreturn marks, %v, i, %d\n}\n", d.acceptAt(s), s)
		// The other transitions, by target and mark.
		type edge struct {
			to   int
			mark uint8
		}
		classes := map[edge][]string{}
		var order []edge
		for c, b := range rep {
			to, mark := d.edge(s, b)
			e := edge{to, mark}
			if e.to == 0 || k != nil && k.out[b] == 0 {
				continue // dead, or in the run above
			}
			if _, ok := classes[e]; !ok {
				order = append(order, e)
			}
			classes[e] = append(classes[e], fmt.Sprint(c))
		}
		if len(order) > 0 {
			w.WriteString("switch cls[s[i]] {\n")
			for _, e := range order {
				fmt.Fprintf(&w, "case %s:\ni++\n", strings.Join(classes[e], ", "))
				if e.mark != 0 {
					fmt.Fprintf(&w, "marks[%d] = uint32(i)\n", e.mark&MaxMark)
				}
				fmt.Fprintf(&w, "goto s%d\n", e.to)
			}
			w.WriteString("}\n")
		}
		fmt.Fprintf(&w, "return marks, false, i, %d\n", s)
	}
	w.WriteString("}\n\n")
	return w.String() + vars.String(), d.walkSum(), nil
}

// HasWalk reports whether [Machine.RunMarks] runs the table's generated
// walk: the table has one, written for this machine's transitions and
// marks. A walk generated for other tables, or for another marker, is
// left alone, and the table is walked instead.
func (d *Machine) HasWalk() bool { return d.walk != nil }

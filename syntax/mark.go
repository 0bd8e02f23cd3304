package syntax

import "fmt"

// Marks: a DFA that also says where things are in its input. Package
// parser splits a URI into its components at its delimiters (RFC 3986
// Appendix B); a small automaton over bytes, the marker, says which
// delimiter starts or ends which component. When the DFA's state
// determines the marker's — for RFC 3986's rules, and for the rules of
// every grammar in this module, it does: the minimal DFA already tells a
// scheme from a path, an authority from a query — the marker costs nothing
// to run: its marks are folded into the DFA's transitions, and the walk
// that validates the input records the offsets of the marked transitions
// on the way, with no second pass over the input.

// MaxMark is the largest mark a [Marker] may give.
const MaxMark = 7

// Marks are the offsets a marked machine records ([Machine.RunMarks]):
// Marks[m], for a mark m from 1 to [MaxMark], is the offset just after the
// last byte whose transition carried m, 0 if none did. Marks[0] is
// scratch.
type Marks [MaxMark + 1]uint32

// Marker is a deterministic automaton over bytes that runs beside a DFA:
// in state q (0 is the start), byte b takes it to state next and carries
// mark (0 for none, 1 to MaxMark). It must be defined on every state and
// byte; what it does on the bytes the DFA rejects does not matter.
type Marker func(q int, b byte) (next int, mark uint8)

// Marked returns t expanded for matching, as [Table.Machine] does, with the
// marks of m on its transitions, for [Machine.RunMarks]. The marker's state
// must be a function of the DFA's: every input that takes the DFA from its
// start to a state s must take the marker to the same state. Marked
// checks it over the transitions of t (every state of a minimal DFA is
// reached) and returns an error if it is not so, or if a mark is above
// MaxMark: then the marks cannot be folded into t, and the caller must run
// the marker on its own. Each call expands t anew: keep the machine.
func (t *Table) Marked(m Marker) (*Machine, error) {
	if err := t.Check(); err != nil {
		return nil, err
	}
	marks := make([]uint8, t.States<<8)
	of := make([]int, t.States) // the marker's state in each DFA state
	seen := make([]bool, t.States)
	of[1], seen[1] = 0, true
	queue := []int{1}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for b := range 256 {
			n := t.at(s, b)
			if n == 0 {
				continue
			}
			q, mark := m(of[s], byte(b))
			if mark > MaxMark {
				return nil, fmt.Errorf("dfa: the marker gives mark %d, want at most %d", mark, MaxMark)
			}
			marks[s<<8|b] = mark
			switch {
			case !seen[n]:
				of[n], seen[n] = q, true
				queue = append(queue, n)
			case of[n] != q:
				return nil, fmt.Errorf("dfa: the marker is in states %d and %d in the DFA's state %d: the DFA's state does not determine it", of[n], q, n)
			}
		}
	}
	d := t.expand(marks)
	if t.Walk != nil && t.WalkSum == d.walkSum() {
		d.walk = t.Walk
	}
	return d, nil
}

// RunMarks is [Machine.Run] on a machine that [Table.Marked] built, which
// also records in *marks the offset after the last byte of s that took
// each mark (see [Marks]). It writes only the marks it meets, so *marks
// should be zero to begin with. Besides the verdict and the offset where
// s fails, it returns the state the machine was in there, for
// [Machine.StopAt]. It allocates nothing.
func (d *Machine) RunMarks(s string, marks *Marks) (ok bool, fail, state int) {
	switch {
	case d.walk != nil:
		m, ok, fail, state := d.walk(d, s)
		for i, v := range m {
			if v != 0 {
				marks[i] = v
			}
		}
		return ok, fail, state
	case d.mark8 != nil:
		return d.runMarks8(s, marks)
	case d.mark16 != nil:
		return d.runMarks16(s, marks)
	}
	panic("syntax: RunMarks on a machine without marks (see Table.Marked)")
}

// runMarks8 is run8 with the marks: one more load, off the chain of
// transitions, and one store, per marked transition taken. A marked
// transition is in no skip set (nor in a triplet), so every one is taken
// here.
func (d *Machine) runMarks8(s string, marks *Marks) (ok bool, fail, state int) {
	next, mark, skip := d.next8, d.mark8, d.skip8
	// One nil check of each table here, not one per transition in the
	// loop, which these dominate.
	_, _, _, _ = next[0], mark[0], skip[0], marks[0]
	st := 1
	for i := 0; i >= 0 && i < len(s); {
		x := st<<8 | int(s[i])
		n := next[x]
		if n == 0 {
			return false, i, st
		}
		st = int(n)
		i++
		// A branch, not a store to Marks[0] on every transition: fewer
		// transitions are marked than not, and the store cost more.
		if m := mark[x]; m != 0 {
			marks[m&MaxMark] = uint32(i)
		}
		if k := skip[n]; k != nil {
			// The run that follows, as in run8: inlined there and here,
			// since a call cost more than most runs.
			out := &k.out
		run:
			if i < 0 || i > len(s) {
				break // never: i is in s; for the compiler's proofs
			}
			run := s[i:min(i+inlineRun, len(s))]
			r := run // resliced, so that no index needs a bounds check
			for len(r) >= 4 && out[r[0]] == 0 && out[r[1]] == 0 && out[r[2]] == 0 && out[r[3]] == 0 {
				r = r[4:]
			}
			for len(r) > 0 && out[r[0]] == 0 {
				r = r[1:]
			}
			j := len(run) - len(r)
			i += j
			if j == len(run) {
				if i < len(s) {
					i = k.span(s, i)
				}
			} else if k.escapeAt(s[i:]) {
				i += 3
				goto run
			}
		}
	}
	return d.accept[st], len(s), st
}

// runMarks16 is runMarks8 for a wide table.
func (d *Machine) runMarks16(s string, marks *Marks) (ok bool, fail, state int) {
	next, mark, skip := d.next16, d.mark16, d.skip16
	st := 1
	for i := 0; i >= 0 && i < len(s); {
		x := st<<8 | int(s[i])
		n := int(next[x])
		if n == 0 {
			return false, i, st
		}
		st = n
		i++
		marks[mark[x]&MaxMark] = uint32(i)
		if k := skip[st]; k != nil {
			i = k.span(s, i)
		}
	}
	return d.wideAccept[st], len(s), st
}

// runMarksBytewise is RunMarks without skipping: the reference the fuzz
// test holds it to.
func (d *Machine) runMarksBytewise(s string, marks *Marks) (ok bool, fail, state int) {
	st := 1
	for i := 0; i < len(s); i++ {
		n := d.step(st, s[i])
		if n == 0 {
			return false, i, st
		}
		var m uint8
		if d.mark8 != nil {
			m = d.mark8[st<<8|int(s[i])]
		} else {
			m = d.mark16[st<<8|int(s[i])]
		}
		marks[m] = uint32(i + 1)
		st = n
	}
	return d.accepts(st), len(s), st
}

// Rewind is what [Machine.StopAt] would say had the machine stopped at
// offset off of s on a character it cannot take there, off being at most
// the offset where it does stop: it walks s[:off] for the state there. A
// grammar over code points reads
// their UTF-8 bytes, so its machine can stop inside a character (U+FFFE's
// first two bytes begin valid characters too); package parser rewinds
// such a stop to the character's first byte, for what could have come
// there.
func (d *Machine) Rewind(s string, off int) Stop {
	st := 1
	for i := 0; i < off && i < len(s) && st != 0; i++ {
		st = d.step(st, s[i])
	}
	stop := d.StopAt(s, off, st)
	if d.expects != nil && off < len(s) {
		// The character at off is one the rule cannot take there, though
		// its first byte begins some it can: the rule that could not
		// continue is the one gen dfa diagnosed for a byte that begins no
		// character (0xFF's column, never a transition in UTF-8), "a
		// character no terminal reads".
		col := int(d.t.Classes[0xFF])
		r := index(d.t.FailRule, st*(d.t.NClass+1)+col, d.failWidth)
		stop.Rule = d.t.FailRules[r]
	}
	return stop
}

// StopAt says why the machine rejected s, having stopped at offset fail in
// state (as [Machine.RunMarks] returns them): what [Machine.Why] says.
func (d *Machine) StopAt(s string, fail, state int) Stop {
	if d.expects == nil {
		return Stop{Offset: fail, Expected: d.Expected(s, fail)}
	}
	col := d.t.NClass // the end of the input
	if fail < len(s) {
		col = int(d.t.Classes[s[fail]])
	}
	r := index(d.t.FailRule, state*(d.t.NClass+1)+col, d.failWidth)
	return Stop{Offset: fail, Rule: d.t.FailRules[r], Expected: d.expects[state]}
}

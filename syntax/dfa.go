package syntax

import (
	"errors"
	"fmt"
	"strings"
	"sync"
)

// The byte automata gen dfa generates from ABNF (see gen/dfa): compact
// tables in generated code, expanded on first use into direct
// [state][byte] tables, so that deciding membership costs one table load
// per input byte, or less on runs of bytes where a state loops, and
// allocates nothing.

// Tables are the DFAs of a grammar's rules, by ABNF rule name, as the DFA
// function that gen dfa generates returns them.
type Tables map[string]*Table

// Table is a DFA in the compact form gen dfa emits: byte classes and a
// class-indexed transition table, as strings of bytes. Generated code
// builds it; [Table.Check] says whether it is consistent, and
// [Table.Machine] expands it, once, for matching.
type Table struct {
	States, NClass int
	Wide           bool   // transitions are little-endian uint16 pairs
	Classes        string // class of each byte, 0 for none (the dead state)
	Next           string // [state][class] → state; state 0 dead, 1 the start
	Accept         string // one byte per state, 1 if accepting

	// Diagnostics (gen dfa writes them; tables without them are valid,
	// and describe errors in bytes): why an input stops, in the grammar's
	// terms. The indices are one byte each, or two (little-endian) when
	// their list has more than 256 entries.
	//
	// FailRule is, per state and per column — the byte classes, then the
	// end of the input — an index into FailRules: the innermost rule that
	// could not continue on a byte of that class, or at the end.
	FailRules []string
	FailRule  string
	// Expect is, per state, an index into Expects: what could have come
	// next in the grammar's terms (rules, terminals as ABNF writes them,
	// "end of input").
	Expects [][]string
	Expect  string

	// Unencoded is what the rule allows unencoded (gen dfa derives it from
	// the rule's DFA; see [Charset]): pairs of characters, the first and
	// the last of each range, sorted. Percent says that a percent-encoding
	// may stand wherever one of them may.
	Unencoded []rune
	Percent   bool

	// Tree, when gen dfa -tree wrote it, builds the parse tree of an
	// input this DFA accepts as pigeon's parser would (see
	// [Grammar.Tree]).
	Tree TreeFunc

	once   sync.Once
	m      *Machine
	csOnce sync.Once
	cs     *Charset
}

// Check reports the first inconsistency of the table: sizes that do not
// agree, a class or a state out of range, an accept flag other than 0 or
// 1. A table that passes expands into a machine that never indexes out of
// range, on any input.
func (t *Table) Check() error {
	width := 1
	if t.Wide {
		width = 2
	}
	switch {
	case t.States < 2:
		return fmt.Errorf("dfa: %d states: a table has at least the dead state and the start", t.States)
	case t.States > 1<<(8*width):
		return fmt.Errorf("dfa: %d states do not fit transitions of %d bits", t.States, 8*width)
	case t.NClass < 1 || t.NClass > 256:
		return fmt.Errorf("dfa: %d byte classes: want 1 to 256", t.NClass)
	case len(t.Classes) != 256:
		return fmt.Errorf("dfa: %d byte classes listed, want one per byte (256)", len(t.Classes))
	case len(t.Next) != t.States*t.NClass*width:
		return fmt.Errorf("dfa: %d bytes of transitions, want %d (%d states × %d classes × %d)", len(t.Next), t.States*t.NClass*width, t.States, t.NClass, width)
	case len(t.Accept) != t.States:
		return fmt.Errorf("dfa: %d accept flags, want one per state (%d)", len(t.Accept), t.States)
	}
	for b := 0; b < 256; b++ {
		if int(t.Classes[b]) >= t.NClass {
			return fmt.Errorf("dfa: byte 0x%02X in class %d, want below %d", b, t.Classes[b], t.NClass)
		}
	}
	for i := 0; i < t.States*t.NClass; i++ {
		if n := t.next(i); n >= t.States {
			return fmt.Errorf("dfa: state %d, class %d goes to state %d, want below %d", i/t.NClass, i%t.NClass, n, t.States)
		}
	}
	for s := 0; s < t.States; s++ {
		if a := t.Accept[s]; a > 1 {
			return fmt.Errorf("dfa: state %d has accept flag %d, want 0 or 1", s, a)
		}
	}
	if t.Accept[0] != 0 {
		return errors.New("dfa: the dead state accepts")
	}
	if err := checkRanges(t.Unencoded); err != nil {
		return err
	}
	return t.checkDiagnostics()
}

// checkDiagnostics checks the diagnostic fields: all or none, of the
// sizes the states and classes give, every index in range.
func (t *Table) checkDiagnostics() error {
	if len(t.FailRules) == 0 && t.FailRule == "" && len(t.Expects) == 0 && t.Expect == "" {
		return nil
	}
	check := func(what, idx string, entries, n int) error {
		w := indexWidth(n)
		if n == 0 || len(idx) != entries*w {
			return fmt.Errorf("dfa: %s: %d bytes of indices into %d entries, want %d", what, len(idx), n, entries*w)
		}
		for i := range entries {
			if v := index(idx, i, w); v >= n {
				return fmt.Errorf("dfa: %s: entry %d is %d, want below %d", what, i, v, n)
			}
		}
		return nil
	}
	if err := check("FailRule", t.FailRule, t.States*(t.NClass+1), len(t.FailRules)); err != nil {
		return err
	}
	return check("Expect", t.Expect, t.States, len(t.Expects))
}

// indexWidth is the bytes of an index into a list of n entries.
func indexWidth(n int) int {
	if n > 256 {
		return 2
	}
	return 1
}

// index is the i'th index of width w in idx.
func index(idx string, i, w int) int {
	if w == 2 {
		return int(idx[2*i]) | int(idx[2*i+1])<<8
	}
	return int(idx[i])
}

// next is the i'th entry of the transition table: state i/NClass on class
// i%NClass.
func (t *Table) next(i int) int {
	if t.Wide {
		return int(t.Next[2*i]) | int(t.Next[2*i+1])<<8
	}
	return int(t.Next[i])
}

// Machine is a Table expanded for matching: next[state<<8|byte]. loops[s],
// when not nil, marks the bytes on which state s stays in s: runs of them
// (a path segment, a query, a host name) are skipped by testing each byte
// on its own, without the load-to-load dependency of a table walk.
type Machine struct {
	next8  []uint8
	next16 []uint16
	accept []bool
	loops  []*[256]bool
	t      *Table
	// From the table's diagnostics (nil without them): per state, what
	// could come next, and the index width of FailRule.
	expects   [][]string
	failWidth int
}

// minLoop is the least number of self-looping bytes for which a state gets
// a skip table: below it, runs are short and the table walk is as fast.
const minLoop = 8

// Machine returns t expanded for matching: a direct [state][byte] table,
// 256 bytes (512 when wide) per state, built on the first call and shared
// by later ones. The table must pass [Table.Check]: [NewGrammar] checks
// every table it is given.
func (t *Table) Machine() *Machine {
	t.once.Do(func() { t.m = t.expand() })
	return t.m
}

func (t *Table) expand() *Machine {
	d := &Machine{accept: make([]bool, t.States), t: t}
	at := func(s, c int) int { return t.next(s*t.NClass + c) }
	if t.Wide {
		d.next16 = make([]uint16, t.States<<8)
	} else {
		d.next8 = make([]uint8, t.States<<8)
	}
	d.loops = make([]*[256]bool, t.States)
	for s := 0; s < t.States; s++ {
		d.accept[s] = t.Accept[s] == 1
		var loop [256]bool
		count := 0
		for b := 0; b < 256; b++ {
			n := at(s, int(t.Classes[b]))
			if t.Wide {
				d.next16[s<<8|b] = uint16(n)
			} else {
				d.next8[s<<8|b] = uint8(n)
			}
			if s != 0 && n == s {
				loop[b] = true
				count++
			}
		}
		if count >= minLoop {
			d.loops[s] = &loop
		}
	}
	if t.Expect != "" {
		d.expects = make([][]string, t.States)
		w := indexWidth(len(t.Expects))
		for s := range t.States {
			d.expects[s] = t.Expects[index(t.Expect, s, w)]
		}
		d.failWidth = indexWidth(len(t.FailRules))
	}
	return d
}

// Run reports whether the whole of s is accepted, and if not, the offset
// of the first byte that no valid input can have there: the length of the
// longest prefix of s that is a prefix of a valid input (len(s) when all of
// s is such a prefix but not itself valid).
func (d *Machine) Run(s string) (ok bool, fail int) {
	ok, fail, _ = d.run(s)
	return ok, fail
}

// run is Run, with the state the machine was in at fail (the last live
// state).
func (d *Machine) run(s string) (ok bool, fail, state int) {
	if d.next8 != nil {
		next := d.next8
		loops := d.loops
		st := 1
		for i := 0; i < len(s); {
			n := int(next[st<<8|int(s[i])])
			if n == 0 {
				return false, i, st
			}
			st = n
			i++
			if loop := loops[st]; loop != nil {
				for i < len(s) && loop[s[i]] {
					i++
				}
			}
		}
		return d.accept[st], len(s), st
	}
	next := d.next16
	st := 1
	for i := 0; i < len(s); i++ {
		n := int(next[st<<8|int(s[i])])
		if n == 0 {
			return false, i, st
		}
		st = n
	}
	return d.accept[st], len(s), st
}

// Stop is why a machine rejected an input.
type Stop struct {
	// Offset is where it stopped, as Run says.
	Offset int
	// Rule is the innermost rule of the grammar that could not continue
	// at Offset; "" for a table without diagnostics.
	Rule string
	// Expected is what could have come at Offset: in the grammar's terms
	// (rule names, terminals as ABNF writes them, "end of input"), or, for
	// a table without diagnostics, the bytes, as classes, and "end of
	// input". It may be shared: do not modify it.
	Expected []string
}

// Why runs the machine on s as Run does and, when it rejects s, says why.
// With diagnostics it costs a Run and two table loads, and allocates
// nothing.
func (d *Machine) Why(s string) (ok bool, stop Stop) {
	ok, fail, st := d.run(s)
	if ok {
		return true, Stop{}
	}
	if d.expects == nil {
		return false, Stop{Offset: fail, Expected: d.Expected(s, fail)}
	}
	col := d.t.NClass // the end of the input
	if fail < len(s) {
		col = int(d.t.Classes[s[fail]])
	}
	r := index(d.t.FailRule, st*(d.t.NClass+1)+col, d.failWidth)
	return false, Stop{Offset: fail, Rule: d.t.FailRules[r], Expected: d.expects[st]}
}

// Expected describes what the DFA accepts after s[:off]: the bytes with a
// transition, as classes, and EndOfInput where the input may end.
func (d *Machine) Expected(s string, off int) []string {
	st := 1
	for i := 0; i < off; i++ {
		if d.next8 != nil {
			st = int(d.next8[st<<8|int(s[i])])
		} else {
			st = int(d.next16[st<<8|int(s[i])])
		}
	}
	var set []byte
	for b := 0; b < 256; b++ {
		var n int
		if d.next8 != nil {
			n = int(d.next8[st<<8|b])
		} else {
			n = int(d.next16[st<<8|b])
		}
		if n != 0 {
			set = append(set, byte(b))
		}
	}
	var out []string
	if len(set) > 0 {
		out = append(out, byteClass(set))
	}
	if d.accept[st] {
		out = append(out, EndOfInput)
	}
	return out
}

// EndOfInput is the item of an expected set that says the input could
// have ended there.
const EndOfInput = "end of input"

// byteClass formats sorted bytes as a pigeon-style class, or a literal
// for one byte.
func byteClass(set []byte) string {
	if len(set) == 1 {
		return fmt.Sprintf("%q", string(set))
	}
	var b strings.Builder
	b.WriteByte('[')
	dash := false
	for i := 0; i < len(set); {
		j := i
		for j+1 < len(set) && set[j+1] == set[j]+1 {
			j++
		}
		for _, r := range [][2]byte{{set[i], set[j]}} {
			lo, hi := r[0], r[1]
			if lo == '-' {
				dash = true
				if hi == lo {
					break
				}
				lo++
			}
			b.WriteString(classByte(lo))
			if hi > lo+1 {
				b.WriteByte('-')
			}
			if hi > lo {
				b.WriteString(classByte(hi))
			}
		}
		i = j + 1
	}
	if dash {
		b.WriteByte('-')
	}
	b.WriteByte(']')
	return b.String()
}

func classByte(c byte) string {
	switch {
	case c == ']' || c == '\\':
		return `\` + string(c)
	case c > 0x20 && c < 0x7f:
		return string(c)
	}
	return fmt.Sprintf(`\x%02X`, c)
}

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

	// Walk, when gen dfa -walk wrote it, is this table with a marker's
	// marks as Go code (see [WalkFunc]); [Table.Marked] uses it when
	// WalkSum is the fingerprint of the machine it builds, and walks the
	// table otherwise.
	Walk    WalkFunc
	WalkSum uint64

	// Source is the fingerprint of the grammar gen dfa read
	// (abnf.Fingerprint), empty in files of a gen that wrote none;
	// [NewGrammar] refuses tables and a PEG whose fingerprints differ.
	Source string

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

// Machine is a Table expanded for matching. An 8-bit table (at most 256
// states) is one array of 64 Ki transitions indexed by state<<8|byte, so
// that a uint16 index needs no bounds check in the hot loop; a wide table
// is a slice of States<<8 entries. skip says, per state, the bytes on which
// the state stays in itself (see [skipSet]): runs of them (a path segment,
// a query, a host name) are skipped a word at a time.
type Machine struct {
	next8      *[1 << 16]uint8
	accept     *[256]bool // 8-bit tables; wideAccept for wide ones
	skip8      *[256]*skipSet
	next16     []uint16
	wideAccept []bool
	skip16     []*skipSet
	// The marks of a machine that Table.Marked built, per transition as
	// next8 or next16 has them (nil for the machine of Table.Machine).
	mark8  *[1 << 16]uint8
	mark16 []uint8
	t      *Table
	// walk is the table's Walk, when it was written for this machine.
	walk WalkFunc
	// From the table's diagnostics (nil without them): per state, what
	// could come next, and the index width of FailRule.
	expects   [][]string
	failWidth int
}

// minLoop is the least number of self-looping bytes for which a state gets
// a skip set: below it, runs are short and the table walk is as fast.
const minLoop = 8

// skipSet is the bytes on which a state loops. mask, a 256-bit class mask,
// is the set; out is its complement expanded to one byte per byte value (0
// in the set, 1 not), because testing a byte costs one load there and a
// load, two shifts and a mask in the bits: span tests the eight bytes of a
// word with eight independent loads, where the table walk chains each load
// on the one before.
//
// A state may also come back to itself through a triplet: an escape byte
// then two bytes of a set, as "%" HEXDIG HEXDIG does in every RFC 3986 rule
// that allows pct-encoded. span skips those too (hasEsc, esc, escOut: the
// escape and the complement of the set), so that a percent-encoded octet
// does not end a run: without it, a long path or query cost three table
// walks and a mispredicted branch or two every few bytes.
type skipSet struct {
	mask   [4]uint64
	nib    [96]byte // the set and the triplets' for spanSSSE3 (see nibbleTable)
	out    [256]uint8
	hasEsc bool
	esc    byte
	escOut [256]uint8
}

// loopSet returns the skip set of state s, whose transition on byte b is
// at(s, b): nil for the dead state and for a state that loops on fewer
// than minLoop bytes.
func loopSet(s int, at func(s, b int) int) *skipSet {
	if s == 0 {
		return nil
	}
	var k skipSet
	count := 0
	for b := range 256 {
		k.out[b] = 1
		if at(s, b) == s {
			k.mask[b>>6] |= 1 << (b & 63)
			k.out[b] = 0
			count++
		}
	}
	if count < minLoop {
		return nil
	}
	k.findEscape(s, at)
	var xmask [4]uint64
	for b := range 256 {
		if k.hasEsc && k.escOut[b] == 0 {
			xmask[b>>6] |= 1 << (b & 63)
		}
	}
	s1, s2 := nibbleTable(&k.mask), nibbleTable(&xmask)
	copy(k.nib[:48], s1[:])
	copy(k.nib[48:], s2[:])
	return &k
}

// findEscape looks for a triplet that leads from s back to s: an escape
// byte e (s -e-> t1, t1 not s) and a set X of bytes, all of which lead
// from t1 to one state t2, and from t2 back to s. Then e x y, for any x
// and y of X, goes from s to s. The first escape, in byte order, with X of
// at least two bytes is kept.
func (k *skipSet) findEscape(s int, at func(s, b int) int) {
	for e := range 256 {
		t1 := at(s, e)
		if t1 == 0 || t1 == s {
			continue
		}
		for x := range 256 {
			t2 := at(t1, x)
			if t2 == 0 {
				continue
			}
			// X: the bytes that go t1 -> t2 and t2 -> s.
			n := 0
			for b := range 256 {
				k.escOut[b] = 1
				if at(t1, b) == t2 && at(t2, b) == s {
					k.escOut[b] = 0
					n++
				}
			}
			// The escape must be outside X, so that every escape
			// starts a triplet: spanSSSE3 tests whole blocks so.
			if n >= 2 && k.escOut[e] == 1 {
				k.hasEsc, k.esc = true, byte(e)
				return
			}
			break // t2 is the only candidate tried for this escape
		}
	}
	clear(k.escOut[:])
}

// span returns the end of the run that starts at s[i] of bytes of k and
// of k's triplets: the first j >= i where neither s[j] is in k nor a
// triplet starts, or len(s). Eight bytes at a time while they are all in;
// then byte by byte, over at most seven bytes, to the first one that is
// not.
func (k *skipSet) span(s string, i int) int {
	if i < 0 || i > len(s) {
		return i
	}
	out := &k.out
	// rest is resliced rather than indexed from i, so that the compiler
	// proves every index in range: the loop has no bounds checks.
	rest := s[i:]
	// The first word decides: a run that ends in it (a short host label,
	// a scheme) is done with table loads below; a longer one goes on 16
	// bytes at a time where the CPU can, from triplet to triplet, without
	// coming back to the word test after each.
	if hasSIMD && len(rest) >= 16 && out[rest[0]]|out[rest[1]]|out[rest[2]]|out[rest[3]]|out[rest[4]]|out[rest[5]]|out[rest[6]]|out[rest[7]] == 0 {
		rest = rest[spanBlocks(k, rest):]
		if len(rest) >= 16 {
			return len(s) - len(rest) // a byte that ends the run
		}
	}
	for {
		for len(rest) >= 8 {
			if out[rest[0]]|out[rest[1]]|out[rest[2]]|out[rest[3]]|out[rest[4]]|out[rest[5]]|out[rest[6]]|out[rest[7]] != 0 {
				break
			}
			rest = rest[8:]
		}
		for len(rest) > 0 && out[rest[0]] == 0 {
			rest = rest[1:]
		}
		if !k.escapeAt(rest) {
			return len(s) - len(rest)
		}
		rest = rest[3:]
	}
}

// escapeAt reports whether rest begins with one of k's triplets.
func (k *skipSet) escapeAt(rest string) bool {
	return k.hasEsc && len(rest) >= 3 && rest[0] == k.esc && k.escOut[rest[1]]|k.escOut[rest[2]] == 0
}

// nibbleTable returns the set of mask as spanSSSE3 reads it: for each low
// nibble l, the bits of the high nibbles h with h<<4|l in the set, h 0-7
// in bytes 0-15 and h 8-15 in bytes 16-31; then, in bytes 32-47, 1<<(h&7)
// for each h.
func nibbleTable(mask *[4]uint64) (nib [48]byte) {
	for b := range 256 {
		if mask[b>>6]&(1<<(b&63)) == 0 {
			continue
		}
		l, h := b&15, b>>4
		nib[(h>>3)*16+l] |= 1 << (h & 7)
	}
	for h := range 16 {
		nib[32+h] = 1 << (h & 7)
	}
	return nib
}

// Machine returns t expanded for matching: a direct [state][byte] table,
// built on the first call and shared by later ones, with the skip set of
// every state that loops (computed here, from the table, so that generated
// code need not carry them). The table must pass [Table.Check]:
// [NewGrammar] checks every table it is given.
func (t *Table) Machine() *Machine {
	t.once.Do(func() { t.m = t.expand(nil) })
	return t.m
}

// at is the transition of state s on byte b.
func (t *Table) at(s, b int) int { return t.next(s*t.NClass + int(t.Classes[b])) }

// expand builds the machine of t; with marks (see Marked), the mark of
// each transition, which the skip sets leave out: a marked transition is
// always taken one byte at a time, so that it records its offset.
func (t *Table) expand(marks []uint8) *Machine {
	d := &Machine{t: t}
	at := t.at
	if marks != nil {
		// For the skip sets, a marked transition is no loop.
		at = func(s, b int) int {
			if marks[s<<8|b] != 0 {
				return 0
			}
			return t.at(s, b)
		}
	}
	if t.Wide {
		d.next16 = make([]uint16, t.States<<8)
		d.wideAccept = make([]bool, t.States)
		d.skip16 = make([]*skipSet, t.States)
		if marks != nil {
			d.mark16 = marks
		}
	} else {
		d.next8 = new([1 << 16]uint8)
		d.accept = new([256]bool)
		d.skip8 = new([256]*skipSet)
		if marks != nil {
			d.mark8 = new([1 << 16]uint8)
			copy(d.mark8[:], marks)
		}
	}
	for s := 0; s < t.States; s++ {
		k := loopSet(s, at)
		for b := 0; b < 256; b++ {
			if t.Wide {
				d.next16[s<<8|b] = uint16(t.at(s, b))
			} else {
				d.next8[s<<8|b] = uint8(t.at(s, b))
			}
		}
		if t.Wide {
			d.wideAccept[s] = t.Accept[s] == 1
			d.skip16[s] = k
		} else {
			d.accept[s] = t.Accept[s] == 1
			d.skip8[s] = k
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

// step is the transition of state st on byte c.
func (d *Machine) step(st int, c byte) int {
	if d.next8 != nil {
		return int(d.next8[uint16(st)<<8|uint16(c)])
	}
	return int(d.next16[st<<8|int(c)])
}

// accepts reports whether state st accepts.
func (d *Machine) accepts(st int) bool {
	if d.next8 != nil {
		return d.accept[uint8(st)]
	}
	return d.wideAccept[st]
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
		return d.run8(s)
	}
	return d.run16(s)
}

// inlineRun is how many bytes of a run run8 and runMarks8 skip one at a
// time, between triplets, before they call span: 32 measured faster than
// 16 (a short reference's hosts, paths and queries are often 16 to 32
// bytes, and the call cost more than the loop) and than 48, on both
// benchmark corpora.
const inlineRun = 32

// run8 is run for an 8-bit table. Every index is provably in range (the
// state comes from a uint8, so state<<8|byte is below 64 Ki; a byte
// indexes 256 entries), so the loop has no bounds checks but the two
// slicings of a run (go build -gcflags=-d=ssa/check_bce), which the
// branch predictor takes for free. The state is an int, not a
// uint8: the zero extensions of a uint8 were on the chain from one
// transition to the next, and cost about 6% on short references.
func (d *Machine) run8(s string) (ok bool, fail, state int) {
	next, skip := d.next8, d.skip8
	// One nil check of each table here, not one per transition in the
	// loop, which these dominate.
	_, _ = next[0], skip[0]
	st := 1
	for i := 0; i >= 0 && i < len(s); {
		n := next[st<<8|int(s[i])]
		if n == 0 {
			return false, i, st
		}
		st = int(n)
		i++
		// Most runs of a short reference (a scheme, a host label, a
		// query value) are a few bytes: up to inlineRun are skipped here,
		// where a call to span would cost more than they do; a longer run
		// goes on in span, 16 or 8 bytes at a time. A triplet ("%2F") is
		// skipped here too, and the run goes on after it: a path of
		// percent-encoded UTF-8 took three transitions per triplet, and
		// runMarks8 with this took 0.31 to 0.30 of net/url's time on the
		// mixed corpus, and 8 % more bytes/ns (interleaved test binaries,
		// 10 rounds).
		if k := skip[n]; k != nil {
			out := &k.out
		run:
			if i < 0 || i > len(s) {
				break // never: i is in s; for the compiler's proofs
			}
			run := s[i:min(i+inlineRun, len(s))]
			// Four bytes a test while they are all in the run, then
			// one at a time: one branch per four bytes for the
			// predictor to learn, where each byte's own branch ended
			// the run on a guess (Parse, mixed: 0.34 to 0.31 of
			// net/url's time, interleaved test binaries, 8 rounds).
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
				// A triplet does not end the run.
				i += 3
				goto run
			}
		}
	}
	return d.accept[st], len(s), st
}

// run16 is run for a wide table.
func (d *Machine) run16(s string) (ok bool, fail, state int) {
	next, skip := d.next16, d.skip16
	st := 1
	for i := 0; i >= 0 && i < len(s); {
		n := int(next[st<<8|int(s[i])])
		if n == 0 {
			return false, i, st
		}
		st = n
		i++
		if k := skip[st]; k != nil {
			i = k.span(s, i)
		}
	}
	return d.wideAccept[st], len(s), st
}

// runBytewise is run without skipping: one table load per byte. It is the
// reference the fuzz test holds run to.
func (d *Machine) runBytewise(s string) (ok bool, fail, state int) {
	st := 1
	for i := 0; i < len(s); i++ {
		n := d.step(st, s[i])
		if n == 0 {
			return false, i, st
		}
		st = n
	}
	return d.accepts(st), len(s), st
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
	return false, d.StopAt(s, fail, st)
}

// Expected describes what the DFA accepts after s[:off]: the bytes with a
// transition, as classes, and EndOfInput where the input may end.
func (d *Machine) Expected(s string, off int) []string {
	st := 1
	for i := 0; i < off && i < len(s) && st != 0; i++ {
		st = d.step(st, s[i])
	}
	var set []byte
	for b := 0; b < 256; b++ {
		if d.step(st, byte(b)) != 0 {
			set = append(set, byte(b))
		}
	}
	var out []string
	if len(set) > 0 {
		out = append(out, byteClass(set))
	}
	if d.accepts(st) {
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

// Package fa holds the finite automata gen uses: character sets over Unicode
// code points, an alphabet partition into atoms, Thompson NFAs, subset
// construction and minimization. The PEG translator uses them to prove its
// choices exact; the DFA back end compiles them to Go.
package fa

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Range is an inclusive range of code points.
type Range struct{ Lo, Hi rune }

// CharSet is a set of code points: sorted, non-overlapping, non-adjacent
// ranges. The zero value is the empty set. CharSets are values: operations
// return new sets.
type CharSet struct{ r []Range }

// Of returns the set of the given code points.
func Of(cs ...rune) CharSet {
	var s CharSet
	for _, c := range cs {
		s = s.Union(Span(c, c))
	}
	return s
}

// Span returns the set lo…hi, or the empty set if hi < lo.
func Span(lo, hi rune) CharSet {
	if hi < lo {
		return CharSet{}
	}
	return CharSet{r: []Range{{lo, hi}}}
}

// Ranges returns the set's ranges; the caller must not modify them.
func (s CharSet) Ranges() []Range { return s.r }

// Empty reports whether s has no code points.
func (s CharSet) Empty() bool { return len(s.r) == 0 }

// Contains reports whether c is in s.
func (s CharSet) Contains(c rune) bool {
	i := sort.Search(len(s.r), func(i int) bool { return s.r[i].Hi >= c })
	return i < len(s.r) && s.r[i].Lo <= c
}

// Len returns the number of code points in s.
func (s CharSet) Len() int {
	n := 0
	for _, r := range s.r {
		n += int(r.Hi-r.Lo) + 1
	}
	return n
}

// Single returns the only code point of s, if s has exactly one.
func (s CharSet) Single() (rune, bool) {
	if len(s.r) == 1 && s.r[0].Lo == s.r[0].Hi {
		return s.r[0].Lo, true
	}
	return 0, false
}

// Equal reports whether s and t have the same code points.
func (s CharSet) Equal(t CharSet) bool {
	if len(s.r) != len(t.r) {
		return false
	}
	for i := range s.r {
		if s.r[i] != t.r[i] {
			return false
		}
	}
	return true
}

// Union returns s ∪ t.
func (s CharSet) Union(t CharSet) CharSet {
	all := append(append([]Range(nil), s.r...), t.r...)
	sort.Slice(all, func(i, j int) bool { return all[i].Lo < all[j].Lo })
	var out []Range
	for _, r := range all {
		if n := len(out); n > 0 && r.Lo <= out[n-1].Hi+1 {
			out[n-1].Hi = max(out[n-1].Hi, r.Hi)
			continue
		}
		out = append(out, r)
	}
	return CharSet{r: out}
}

// Intersect returns s ∩ t.
func (s CharSet) Intersect(t CharSet) CharSet {
	var out []Range
	i, j := 0, 0
	for i < len(s.r) && j < len(t.r) {
		lo, hi := max(s.r[i].Lo, t.r[j].Lo), min(s.r[i].Hi, t.r[j].Hi)
		if lo <= hi {
			out = append(out, Range{lo, hi})
		}
		if s.r[i].Hi < t.r[j].Hi {
			i++
		} else {
			j++
		}
	}
	return CharSet{r: out}
}

// Minus returns s \ t.
func (s CharSet) Minus(t CharSet) CharSet {
	return s.Intersect(t.Complement())
}

// Complement returns the code points 0…U+10FFFF not in s.
func (s CharSet) Complement() CharSet {
	var out []Range
	next := rune(0)
	for _, r := range s.r {
		if r.Lo > next {
			out = append(out, Range{next, r.Lo - 1})
		}
		next = r.Hi + 1
	}
	if next <= utf8.MaxRune {
		out = append(out, Range{next, utf8.MaxRune})
	}
	return CharSet{r: out}
}

// Overlaps reports whether s and t share a code point.
func (s CharSet) Overlaps(t CharSet) bool { return !s.Intersect(t).Empty() }

// String formats s for people, as a bracketed list of characters and
// ranges.
func (s CharSet) String() string {
	var b strings.Builder
	b.WriteByte('[')
	for _, r := range s.r {
		b.WriteString(quoteRune(r.Lo))
		if r.Hi != r.Lo {
			b.WriteByte('-')
			b.WriteString(quoteRune(r.Hi))
		}
	}
	b.WriteByte(']')
	return b.String()
}

func quoteRune(c rune) string {
	if c >= 0x21 && c < 0x7f && c != '\\' && c != ']' && c != '-' {
		return string(c)
	}
	if c < 0x100 {
		return fmt.Sprintf(`\x%02X`, c)
	}
	if c < 0x10000 {
		return fmt.Sprintf(`\u%04X`, c)
	}
	return fmt.Sprintf(`\U%08X`, c)
}

// Partition splits the code points covered by the sets into atoms: maximal
// sets of code points that no set distinguishes. Each input set is a union of
// atoms. Atoms come ordered by their smallest code point.
//
// The boundaries where membership can change cut the code points into
// pieces; a sweep over the boundaries keeps the sets that cover the current
// piece, and pieces covered by the same sets form one atom. Equal sets are
// counted once, so the cost grows with the number of distinct sets, not of
// edges (an NFA repeats the same few sets many times).
func Partition(sets []CharSet) []CharSet {
	seen := map[string]bool{}
	type event struct {
		at  rune
		set int32
		in  bool
	}
	var events []event
	nsets := int32(0)
	for _, s := range sets {
		k := s.key()
		if s.Empty() || seen[k] {
			continue
		}
		seen[k] = true
		for _, r := range s.r {
			events = append(events, event{r.Lo, nsets, true}, event{r.Hi + 1, nsets, false})
		}
		nsets++
	}
	sort.Slice(events, func(i, j int) bool { return events[i].at < events[j].at })
	active := NewBits(int(nsets))
	count := 0
	byKey := map[string]int{}
	var atoms []CharSet
	key := make([]byte, 0, 8*len(active))
	for i := 0; i < len(events); {
		at := events[i].at
		for ; i < len(events) && events[i].at == at; i++ {
			e := events[i]
			if e.in {
				active.Set(int(e.set))
				count++
			} else {
				active.Clear(int(e.set))
				count--
			}
		}
		if count == 0 || i == len(events) {
			continue
		}
		// The piece at…events[i].at-1 is covered by the active sets.
		key = key[:0]
		for _, w := range active {
			key = binary.LittleEndian.AppendUint64(key, w)
		}
		a, ok := byKey[string(key)]
		if !ok {
			a = len(atoms)
			byKey[string(key)] = a
			atoms = append(atoms, CharSet{})
		}
		atoms[a] = atoms[a].appendRange(Range{at, events[i].at - 1})
	}
	return atoms
}

// key is a text of the set's ranges, for maps.
func (s CharSet) key() string {
	b := make([]byte, 0, 8*len(s.r))
	for _, r := range s.r {
		b = binary.LittleEndian.AppendUint32(b, uint32(r.Lo))
		b = binary.LittleEndian.AppendUint32(b, uint32(r.Hi))
	}
	return string(b)
}

// appendRange adds a range that lies above every range of s.
func (s CharSet) appendRange(r Range) CharSet {
	if n := len(s.r); n > 0 && r.Lo <= s.r[n-1].Hi+1 {
		s.r[n-1].Hi = max(s.r[n-1].Hi, r.Hi)
		return s
	}
	return CharSet{r: append(s.r, r)}
}

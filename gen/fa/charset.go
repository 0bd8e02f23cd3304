// Package fa holds the finite automata gen uses: character sets over Unicode
// code points, an alphabet partition into atoms, Thompson NFAs, subset
// construction and minimization. The PEG translator uses them to prove its
// choices exact; the DFA back end compiles them to Go.
package fa

import (
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
func Partition(sets []CharSet) []CharSet {
	// Boundaries where membership can change.
	var pts []rune
	for _, s := range sets {
		for _, r := range s.r {
			pts = append(pts, r.Lo, r.Hi+1)
		}
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i] < pts[j] })
	pts = uniq(pts)
	type piece struct {
		lo, hi rune
		key    string
	}
	var pieces []piece
	for i := 0; i+1 < len(pts); i++ {
		lo, hi := pts[i], pts[i+1]-1
		var key []byte
		in := false
		for j, s := range sets {
			if s.Contains(lo) {
				key = fmt.Appendf(key, "%d,", j)
				in = true
			}
		}
		if in {
			pieces = append(pieces, piece{lo, hi, string(key)})
		}
	}
	byKey := map[string]int{}
	var atoms []CharSet
	for _, p := range pieces {
		i, ok := byKey[p.key]
		if !ok {
			i = len(atoms)
			byKey[p.key] = i
			atoms = append(atoms, CharSet{})
		}
		atoms[i] = atoms[i].Union(Span(p.lo, p.hi))
	}
	return atoms
}

func uniq(p []rune) []rune {
	out := p[:0]
	for i, x := range p {
		if i == 0 || x != p[i-1] {
			out = append(out, x)
		}
	}
	return out
}

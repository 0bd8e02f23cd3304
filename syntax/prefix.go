package syntax

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The farthest viable prefix. A guided parse of an invalid input fails
// where the guide first sees that the input cannot complete, at best the
// start of the outermost guided rule; the PEG alone, with its guided
// decisions open, is greedy where the grammar gives back, and fails early
// too. The error the documentation promises is where the input stops being
// a prefix of a string of the language: the longest prefix some derivation
// reads.
//
// The guide's search of the start rule at offset 0 answers whether the
// whole input matches; when it does not, the search has visited every
// configuration a derivation of a prefix of the input reaches (its answers
// are false, found by going everywhere: shared and memoized answers were
// found by the same search). Every state of the network can complete (the
// network is the translated grammar, whose rules all match something), so
// a configuration at position p means that in[:p] is viable, and the
// farthest position the search visits is the error's offset. What could
// come there is what the states visited there can read: their classes,
// the first characters of the rules they call, and the end of the input
// where the start rule can end there. The search is the guide's, with the
// guide's budget (linear in the input): recording adds nothing to its
// steps but a comparison per state visited.

// prefixRec is what a recording guide gathers: the farthest position its
// search visited, and what the states visited there can read.
type prefixRec struct {
	far     int32
	classes map[int32]bool // classes of the network
	dfa     []rune         // ranges DFA states can read
	eof     bool
	first   map[int32][]int32 // per rule: the classes it can begin with
}

// Farthest runs the exact recognizer's search of rule (a rule of the
// network) on the whole input, and returns the length of the longest
// prefix of the input that begins a string of the rule's language, with
// what could come there (pigeon's style: classes, string literals for
// single characters, "EOF" for the end of the input), and whether the
// input matches. It spends at most work steps; past them, it gives up with
// ok false, and offset is how far it got: a prefix that is viable, the
// error (if any) there or after.
func (n *Net) Farthest(rule int, input []byte, work int) (offset int, expected []string, match, ok bool) {
	g := NewGuide(n, input, work)
	defer g.release()
	if g.err != nil || rule < 0 || rule >= len(n.Rules) {
		return 0, nil, false, false
	}
	g.rec = &prefixRec{far: 0, classes: map[int32]bool{}, first: map[int32][]int32{}}
	for _, c := range g.firstClasses(int32(rule)) {
		g.rec.classes[c] = true
	}
	match = g.Enter(rule, 0)
	if g.err != nil {
		return int(g.far), nil, false, false
	}
	return int(g.rec.far), g.rec.expected(n), match, true
}

// at records a visit at position p, and reports whether it is at the
// farthest position so far (whose readers count).
func (r *prefixRec) at(p int32) bool {
	switch {
	case p < r.far:
		return false
	case p > r.far:
		r.far = p
		clear(r.classes)
		r.dfa = r.dfa[:0]
		r.eof = false
	}
	return true
}

// recState records what network state s, visited at p, can read.
func (g *Guide) recState(s, p int32) {
	if !g.rec.at(p) {
		return
	}
	for _, e := range g.net.Edges[g.net.Index[s]:g.net.Index[s+1]] {
		switch {
		case e.Class >= 0:
			g.rec.classes[e.Class] = true
		case e.Call >= 0:
			for _, c := range g.firstClasses(e.Call) {
				g.rec.classes[c] = true
			}
		}
	}
}

// recDFA records what state st of DFA d, visited at p, can read.
func (g *Guide) recDFA(d *ruleDFA, st, p int32) {
	if !g.rec.at(p) {
		return
	}
	for σ := range d.nsym {
		if d.next[st*d.nsym+σ] < 0 {
			continue
		}
		for c := range rune(128) {
			if d.ascii[c] == σ {
				g.rec.dfa = append(g.rec.dfa, c, c)
			}
		}
		for i, lo := range d.high {
			if d.highSym[i] != σ {
				continue
			}
			hi := rune(utf8.MaxRune)
			if i+1 < len(d.high) {
				hi = d.high[i+1] - 1
			}
			g.rec.dfa = append(g.rec.dfa, lo, hi)
		}
	}
}

// firstClasses returns the classes rule r can begin with: those of the
// edges its start reaches without reading, through calls.
func (g *Guide) firstClasses(r int32) []int32 {
	if cs, ok := g.rec.first[r]; ok {
		return cs
	}
	g.rec.first[r] = nil // a rule that reaches itself first adds nothing new
	lay := g.net.states()
	seen := map[int32]bool{}
	var out []int32
	stack := []int32{g.net.Rules[r].Start}
	seen[stack[0]] = true
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range g.net.Edges[g.net.Index[x]:g.net.Index[x+1]] {
			next := false
			switch {
			case e.Class >= 0:
				out = append(out, e.Class)
			case e.Call >= 0:
				out = append(out, g.firstClasses(e.Call)...)
				next = lay.nullable[e.Call]
			default:
				next = true
			}
			if next && !seen[e.To] {
				seen[e.To] = true
				stack = append(stack, e.To)
			}
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	g.rec.first[r] = out
	return out
}

// expected is what could come at the farthest position: the characters,
// as one class (as the DFAs' errors write them), and "EOF" where the
// input could end.
func (r *prefixRec) expected(n *Net) []string {
	type span struct{ lo, hi rune }
	var all []span
	for c := range r.classes {
		cs := n.Classes[c]
		for i := 0; i+1 < len(cs); i += 2 {
			all = append(all, span{cs[i], cs[i+1]})
		}
	}
	for i := 0; i+1 < len(r.dfa); i += 2 {
		all = append(all, span{r.dfa[i], r.dfa[i+1]})
	}
	slices.SortFunc(all, func(a, b span) int { return int(a.lo) - int(b.lo) })
	var rs []rune
	for _, x := range all {
		if n := len(rs); n > 0 && x.lo <= rs[n-1]+1 {
			rs[n-1] = max(rs[n-1], x.hi)
			continue
		}
		rs = append(rs, x.lo, x.hi)
	}
	var out []string
	if len(rs) > 0 {
		out = append(out, classText(rs))
	}
	if r.eof {
		out = append(out, "EOF")
	}
	return out
}

// classText writes inclusive ranges as pigeon writes a terminal: a quoted
// string for one character, else a class.
func classText(rs []rune) string {
	if len(rs) == 2 && rs[0] == rs[1] {
		return strconv.Quote(string(rs[0]))
	}
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i+1 < len(rs); i += 2 {
		lo, hi := rs[i], rs[i+1]
		b.WriteString(classRune(lo))
		if hi > lo+1 {
			b.WriteByte('-')
		}
		if hi > lo {
			b.WriteString(classRune(hi))
		}
	}
	b.WriteByte(']')
	return b.String()
}

func classRune(c rune) string {
	switch {
	case c == ']' || c == '\\' || c == '-' || c == '^':
		return `\` + string(c)
	case c >= 0x20 && c < 0x7f:
		return string(c)
	case c < 0x80:
		return `\x` + strconv.FormatUint(uint64(c)|0x100, 16)[1:]
	case c >= 0x100 && strconv.IsPrint(c):
		return string(c)
	case c >= 0x100 && c <= 0xFFFF:
		return `\u` + strconv.FormatUint(uint64(c)|0x10000, 16)[1:]
	case c > 0xFFFF:
		return `\U` + strconv.FormatUint(uint64(c)|0x100000000, 16)[1:]
	}
	return string(c) // U+0080-00FF: an octet grammar's bytes (octetExpected)
}

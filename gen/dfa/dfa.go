// Package dfa is gen's second back end: it compiles a non-recursive ABNF
// rule to a minimal deterministic automaton over bytes and emits it as Go
// tables. RFC 3986 Appendix A has no recursion, so its language is regular;
// a table-driven DFA decides membership in a few nanoseconds per byte with
// no allocation, where the pigeon parser spends microseconds.
//
// Pipeline: the rule, lowered to PEG shapes by gen/ir (the same language),
// is inlined into a Thompson NFA over bytes — code point ranges compiled to
// their UTF-8 byte sequences, so invalid UTF-8 is rejected as the ABNF
// matcher rejects it — then determinized by subset construction and
// minimized (gen/fa). Recursive rules are refused.
package dfa

import (
	"bytes"
	"fmt"
	"go/format"
	"strings"

	"github.com/peguri/rfc3986/gen/abnf"
	"github.com/peguri/rfc3986/gen/fa"
	"github.com/peguri/rfc3986/gen/ir"
)

// Machine is the minimal byte DFA of one rule.
type Machine struct {
	Rule      string
	NFAStates int     // size of the Thompson NFA
	DFAStates int     // after subset construction
	DFA       *fa.DFA // minimal; atoms are sets of bytes (code points 0–255)
}

// States returns the number of states of the minimal DFA (the dead state
// not counted).
func (m *Machine) States() int { return len(m.DFA.Next) }

// Classes returns the number of byte classes: sets of bytes the automaton
// never distinguishes (bytes in no class lead to the dead state).
func (m *Machine) Classes() int { return len(m.DFA.Atoms) }

// maxDFAStates bounds subset construction.
const maxDFAStates = 1 << 16

// Build compiles each named rule of g. It refuses rules that reach
// recursion: their languages need not be regular.
func Build(g *abnf.Grammar, rules []string) ([]*Machine, error) {
	lg, err := ir.Lower(g, ir.Options{})
	if err != nil {
		return nil, err
	}
	a := abnf.Analyze(g)
	var out []*Machine
	for _, name := range rules {
		r := g.Rule(name)
		if r == nil {
			return nil, fmt.Errorf("no rule %s in the grammar", name)
		}
		if a.IsRecursive(r) {
			return nil, fmt.Errorf("%s: %s reaches recursion, so its language need not be regular: the DFA back end refuses it (the PEG back end takes it)", r.Pos, r.Name)
		}
		m, err := build(lg.Rule(name))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", r.Name, err)
		}
		out = append(out, m)
	}
	return out, nil
}

func build(r *ir.Rule) (*Machine, error) {
	b := &fa.Builder{}
	start, end := inline(b, r.Body)
	accept := b.State()
	b.Eps(end, accept)
	n := b.NFA(start, accept)
	d, err := fa.Determinize(n, []int32{start}, maxDFAStates)
	if err != nil {
		return nil, err
	}
	return &Machine{Rule: r.Name, NFAStates: len(n.States), DFAStates: len(d.Next), DFA: d.Minimize()}, nil
}

// inline adds the byte NFA of x; it returns its entry and exit states.
func inline(b *fa.Builder, x ir.Expr) (int32, int32) {
	s := b.State()
	switch x := x.(type) {
	case *ir.Set:
		e := b.State()
		for _, r := range x.Set.Ranges() {
			for _, seq := range fa.UTF8Sequences(r.Lo, r.Hi) {
				prev := s
				for i, br := range seq {
					next := e
					if i < len(seq)-1 {
						next = b.State()
					}
					b.Edge(prev, next, fa.Span(rune(br.Lo), rune(br.Hi)))
					prev = next
				}
			}
		}
		return s, e
	case *ir.Empty:
		e := b.State()
		b.Eps(s, e)
		return s, e
	case *ir.Seq:
		prev := s
		for _, y := range x.Items {
			ys, ye := inline(b, y)
			b.Eps(prev, ys)
			prev = ye
		}
		return s, prev
	case *ir.Alt:
		e := b.State()
		for _, y := range x.Alts {
			ys, ye := inline(b, y)
			b.Eps(s, ys)
			b.Eps(ye, e)
		}
		return s, e
	case *ir.Rep:
		ys, ye := inline(b, x.Body)
		e := b.State()
		b.Eps(s, ys)
		b.Eps(ye, e)
		if x.Min == 0 {
			b.Eps(s, e)
		}
		if x.Max != 1 {
			b.Eps(ye, ys)
		}
		return s, e
	case *ir.Ref:
		return inline(b, x.Rule.Body)
	}
	panic(fmt.Sprintf("dfa: unknown expression %T", x))
}

// Report prints, per rule, the NFA size, the DFA before and after
// minimization and the byte classes.
func Report(ms []*Machine) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-16s %10s %12s %12s %8s\n", "rule", "NFA states", "DFA states", "minimal DFA", "classes")
	for _, m := range ms {
		fmt.Fprintf(&b, "%-16s %10d %12d %12d %8d\n", m.Rule, m.NFAStates, m.DFAStates, m.States(), m.Classes())
	}
	return b.String()
}

// Emit writes the machines as Go source for package pkg: DFATables, a map
// from rule name to the compact tables of its DFA, which package
// github.com/peguri/rfc3986/parser/dfa expands and runs. State 0 is the
// dead state, 1 the start; a table is a string of bytes (uint8 states) or of
// little-endian uint16 pairs when a machine has more than 255 states.
func Emit(pkg, header string, ms []*Machine) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// %s\n\n", header)
	fmt.Fprintf(&b, "package %s\n\n", pkg)
	fmt.Fprintf(&b, "import \"github.com/peguri/rfc3986/parser/dfa\"\n\n")
	fmt.Fprintf(&b, "// DFATables holds the minimal byte DFA of each rule, as gen dfa built it\n")
	fmt.Fprintf(&b, "// (see gen/dfa); package parser/dfa runs them.\n")
	fmt.Fprintf(&b, "var DFATables = map[string]*dfa.Table{\n")
	for _, m := range ms {
		classes, next, accept, wide := tables(m)
		fmt.Fprintf(&b, "\t%q: {\n", m.Rule)
		fmt.Fprintf(&b, "\t\tStates: %d,\n", len(accept))
		fmt.Fprintf(&b, "\t\tNClass: %d,\n", m.Classes()+1)
		fmt.Fprintf(&b, "\t\tWide: %v,\n", wide)
		fmt.Fprintf(&b, "\t\tClasses: %s,\n", quote(classes))
		fmt.Fprintf(&b, "\t\tNext: %s,\n", quote(next))
		fmt.Fprintf(&b, "\t\tAccept: %s,\n", quote(accept))
		fmt.Fprintf(&b, "\t},\n")
	}
	fmt.Fprintf(&b, "}\n")
	return format.Source(b.Bytes())
}

// tables lays a machine out: class 0 and state 0 are dead.
func tables(m *Machine) (classes, next, accept []byte, wide bool) {
	d := m.DFA
	classes = make([]byte, 256)
	for i, a := range d.Atoms {
		for _, r := range a.Ranges() {
			for c := r.Lo; c <= r.Hi && c < 256; c++ {
				classes[c] = byte(i + 1)
			}
		}
	}
	states := len(d.Next) + 1
	wide = states > 255
	nclass := len(d.Atoms) + 1
	put := func(v int32) {
		if wide {
			next = append(next, byte(v), byte(v>>8))
		} else {
			next = append(next, byte(v))
		}
	}
	for range nclass { // the dead state
		put(0)
	}
	for s := range d.Next {
		put(0) // class 0
		for a := range d.Atoms {
			put(d.Next[s][a] + 1)
		}
	}
	accept = make([]byte, states)
	for s, ok := range d.Accept {
		if ok {
			accept[s+1] = 1
		}
	}
	return classes, next, accept, wide
}

// quote writes bytes as Go string literals joined by +, 64 bytes each:
// printable ASCII as itself, the rest escaped.
func quote(b []byte) string {
	var parts []string
	for i := 0; i < len(b); i += 64 {
		chunk := b[i:min(i+64, len(b))]
		var s strings.Builder
		s.WriteByte('"')
		for _, c := range chunk {
			switch {
			case c == '"' || c == '\\':
				s.WriteByte('\\')
				s.WriteByte(c)
			case c >= 0x20 && c < 0x7f:
				s.WriteByte(c)
			default:
				fmt.Fprintf(&s, "\\x%02x", c)
			}
		}
		s.WriteByte('"')
		parts = append(parts, s.String())
	}
	if len(parts) == 0 {
		return `""`
	}
	return strings.Join(parts, " +\n\t\t\t")
}

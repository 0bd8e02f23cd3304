package explain

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/peguri/rfc3986/abnf"
)

// The failure analysis runs the ABNF itself, not the generated parser: a
// set of threads, each a derivation of the input read so far, with the
// rule instances it has open (rule and start offset) and what it must
// still match. Appendix A and its extensions have no recursion, so a
// thread's stack is bounded by the grammar's depth; threads that reach the
// same state are merged. Frames and rule instances are interned (built
// once for each value), so that a thread's state is two pointers and
// merging costs a map lookup: the analysis is linear in the input. Where no thread can read the next character, the
// threads that were live say everything there is to say: which rules were
// open, what each could have read, and through which rules they were
// reached.

// frame is one item of a thread's continuation, a persistent list.
type frame struct {
	node     abnf.Node // what to match; nil for the end of a rule
	min, max int       // for a *abnf.Repeat: the counts still allowed
	pos      int       // for a *abnf.CharVal or a concatenated *abnf.NumVal: the next character
	next     *frame
}

// frameKey identifies a frame: its fields, with the next frame, itself
// interned, by pointer.
type frameKey frame

// openKey identifies a rule instance begun at the current offset.
type openKey struct {
	rule string
	up   *open
}

// open is a rule instance a thread is inside, a persistent stack.
type open struct {
	rule  string
	start int
	depth int
	up    *open
}

type thread struct {
	k    *frame
	open *open
}

// maxThreads bounds the threads live at one offset: far above what
// Appendix A's most ambiguous inputs (IPv6 addresses) need.
const maxThreads = 20000

// engine runs one grammar.
type engine struct {
	g      *abnf.Grammar
	maxes  map[string]int           // rule → the length of its longest string (-1: unbounded)
	frames map[frameKey]*frame      // every frame built, by value: bounded by the grammar
	starts map[string]*abnf.RuleRef // the reference that starts a run, by rule
	opens  map[openKey]*open        // the rule instances begun at the offset being read
}

type rng struct{ lo, hi rune }

func newEngine(g *abnf.Grammar) *engine {
	return &engine{g: g, maxes: map[string]int{}, frames: map[frameKey]*frame{}, starts: map[string]*abnf.RuleRef{}}
}

// frame returns the interned frame with these fields.
func (e *engine) frame(node abnf.Node, min, max, pos int, next *frame) *frame {
	k := frameKey{node: node, min: min, max: max, pos: pos, next: next}
	if f, ok := e.frames[k]; ok {
		return f
	}
	f := &frame{node: node, min: min, max: max, pos: pos, next: next}
	e.frames[k] = f
	return f
}

// open returns the interned instance of rule begun at the current offset
// inside up.
func (e *engine) open(rule string, at int, up *open) *open {
	k := openKey{rule, up}
	if o, ok := e.opens[k]; ok {
		return o
	}
	d := 0
	if up != nil {
		d = up.depth + 1
	}
	o := &open{rule: rule, start: at, depth: d, up: up}
	e.opens[k] = o
	return o
}

// closure expands threads until each expects a character (its head is a
// terminal) or has matched everything (k nil).
func (e *engine) closure(ts []thread, at int) ([]thread, bool) {
	// Instances begun here are interned for this offset only: an instance
	// of an earlier offset is already unique.
	e.opens = map[openKey]*open{}
	seen := map[thread]bool{}
	var out []thread
	work := append([]thread(nil), ts...)
	for len(work) > 0 {
		t := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[t] {
			continue
		}
		seen[t] = true
		if len(seen) > 8*maxThreads {
			return out, false
		}
		f := t.k
		if f == nil {
			out = append(out, t)
			continue
		}
		if f.node == nil { // end of a rule
			work = append(work, thread{f.next, t.open.up})
			continue
		}
		switch n := f.node.(type) {
		case *abnf.RuleRef:
			r := e.g.Rule(n.Name)
			if r == nil {
				continue
			}
			work = append(work, thread{e.frame(r.Expr, 0, 0, 0, e.frame(nil, 0, 0, 0, f.next)), e.open(r.Name, at, t.open)})
		case *abnf.Alt:
			for i := len(n.Alts) - 1; i >= 0; i-- {
				work = append(work, thread{e.frame(n.Alts[i], 0, 0, 0, f.next), t.open})
			}
		case *abnf.Concat:
			k := f.next
			for i := len(n.Items) - 1; i >= 0; i-- {
				k = e.frame(n.Items[i], 0, 0, 0, k)
			}
			work = append(work, thread{k, t.open})
		case *abnf.Repeat:
			lo, hi := f.min, f.max
			if f.pos == 0 { // first visit: the counts come from the node
				lo, hi = n.Min, n.Max
			}
			again := func(lo, hi int) *frame {
				return e.frame(n, lo, hi, 1, f.next)
			}
			if lo > 0 {
				nhi := hi
				if hi != abnf.Inf {
					nhi = hi - 1
				}
				work = append(work, thread{e.frame(n.Body, 0, 0, 0, again(lo-1, nhi)), t.open})
				continue
			}
			work = append(work, thread{f.next, t.open}) // stop here
			if hi != 0 {
				nhi := hi
				if hi != abnf.Inf {
					nhi = hi - 1
				}
				work = append(work, thread{e.frame(n.Body, 0, 0, 0, again(0, nhi)), t.open})
			}
		case *abnf.CharVal:
			if f.pos >= len(n.Text) {
				work = append(work, thread{f.next, t.open})
			} else {
				out = append(out, t)
			}
		case *abnf.NumVal:
			if !n.Range && f.pos >= len(n.Vals) {
				work = append(work, thread{f.next, t.open})
			} else {
				out = append(out, t)
			}
		case *abnf.Prose:
			// No machine meaning (gen reads only 0<prose>, the empty
			// string, which Repeat handles).
		}
	}
	return out, true
}

// accepts reports the characters the head of a thread reads.
func (e *engine) expects(f *frame) []rng {
	switch n := f.node.(type) {
	case *abnf.CharVal:
		c := rune(n.Text[f.pos])
		if !n.Sensitive {
			if 'a' <= c && c <= 'z' {
				return []rng{{c - 32, c - 32}, {c, c}}
			}
			if 'A' <= c && c <= 'Z' {
				return []rng{{c, c}, {c + 32, c + 32}}
			}
		}
		return []rng{{c, c}}
	case *abnf.NumVal:
		if n.Range {
			return []rng{{n.Vals[0], n.Vals[1]}}
		}
		return []rng{{n.Vals[f.pos], n.Vals[f.pos]}}
	}
	return nil
}

func in(rs []rng, c rune) bool {
	for _, r := range rs {
		if r.lo <= c && c <= r.hi {
			return true
		}
	}
	return false
}

// advance moves a thread past the character its head read.
func (e *engine) advance(t thread) thread {
	f := t.k
	switch n := f.node.(type) {
	case *abnf.CharVal:
		if f.pos+1 < len(n.Text) {
			return thread{e.frame(n, 0, 0, f.pos+1, f.next), t.open}
		}
	case *abnf.NumVal:
		if !n.Range && f.pos+1 < len(n.Vals) {
			return thread{e.frame(n, 0, 0, f.pos+1, f.next), t.open}
		}
	}
	return thread{f.next, t.open}
}

// run reads input as rule. It returns the offset where no thread could go
// on (len(input) and ok when the input matches), with the threads live
// there; limited is set when the thread bound was reached.
func (e *engine) run(rule, input string) (off int, live []thread, ok, limited bool) {
	r := e.g.Rule(rule)
	if r == nil {
		return 0, nil, false, false
	}
	ref := e.starts[r.Name]
	if ref == nil {
		ref = &abnf.RuleRef{Name: r.Name}
		e.starts[r.Name] = ref
	}
	start := thread{k: e.frame(ref, 0, 0, 0, nil)}
	ts, full := e.closure([]thread{start}, 0)
	i := 0
	for {
		if !full || len(ts) > maxThreads {
			return i, ts, false, true
		}
		if i == len(input) {
			for _, t := range ts {
				if t.k == nil {
					return i, ts, true, false
				}
			}
			return i, ts, false, false
		}
		c, size := utf8.DecodeRuneInString(input[i:])
		if e.g.Octets {
			c, size = rune(input[i]), 1
		} else if c == utf8.RuneError && size <= 1 {
			return i, ts, false, false // invalid UTF-8 matches no terminal
		}
		var next []thread
		for _, t := range ts {
			if t.k != nil && in(e.expects(t.k), c) {
				next = append(next, e.advance(t))
			}
		}
		if len(next) == 0 {
			return i, ts, false, false
		}
		i += size
		ts, full = e.closure(next, i)
	}
}

// terminals returns the characters that a rule's own definition writes as
// terminals, not those of the rules it refers to.
func (e *engine) terminals(rule string) []rng {
	var rs []rng
	r := e.g.Rule(rule)
	if r == nil {
		return nil
	}
	abnf.Walk(r.Expr, func(n abnf.Node) {
		switch n := n.(type) {
		case *abnf.CharVal:
			for i := range n.Text {
				rs = append(rs, e.expects(&frame{node: n, pos: i})...)
			}
		case *abnf.NumVal:
			if n.Range {
				rs = append(rs, rng{n.Vals[0], n.Vals[1]})
				return
			}
			for i := range n.Vals {
				rs = append(rs, e.expects(&frame{node: n, pos: i})...)
			}
		}
	})
	return rs
}

// maxLen returns the length in characters of the rule's longest string,
// -1 when it has none (a repetition without bound, or recursion).
func (e *engine) maxLen(rule string) int {
	if m, ok := e.maxes[rule]; ok {
		return m
	}
	e.maxes[rule] = -1 // recursion is unbounded
	var walk func(abnf.Node) int
	walk = func(n abnf.Node) int {
		switch n := n.(type) {
		case *abnf.RuleRef:
			if r := e.g.Rule(n.Name); r != nil {
				return e.maxLen(r.Name)
			}
			return 0
		case *abnf.Alt:
			m := 0
			for _, a := range n.Alts {
				x := walk(a)
				if x < 0 {
					return -1
				}
				m = max(m, x)
			}
			return m
		case *abnf.Concat:
			m := 0
			for _, a := range n.Items {
				x := walk(a)
				if x < 0 {
					return -1
				}
				m += x
			}
			return m
		case *abnf.Repeat:
			x := walk(n.Body)
			switch {
			case n.Max == 0 || x == 0:
				return 0
			case x < 0 || n.Max == abnf.Inf:
				return -1
			}
			return x * n.Max
		case *abnf.CharVal:
			return len(n.Text)
		case *abnf.NumVal:
			if n.Range {
				return 1
			}
			return len(n.Vals)
		}
		return 0
	}
	m := -1
	if r := e.g.Rule(rule); r != nil {
		m = walk(r.Expr)
	}
	e.maxes[rule] = m
	return m
}

// classes writes a set of characters as pigeon writes its expected sets:
// each ASCII punctuation character quoted, then one class of the letters,
// digits and other ranges.
func classes(rs []rng) []string {
	sort.Slice(rs, func(i, j int) bool { return rs[i].lo < rs[j].lo })
	var merged []rng
	for _, r := range rs {
		if n := len(merged); n > 0 && r.lo <= merged[n-1].hi+1 {
			merged[n-1].hi = max(merged[n-1].hi, r.hi)
			continue
		}
		merged = append(merged, r)
	}
	var out []string
	var cls strings.Builder
	run := func(lo, hi rune) {
		cls.WriteString(classChar(lo))
		if hi > lo {
			if hi > lo+1 {
				cls.WriteByte('-')
			}
			cls.WriteString(classChar(hi))
		}
	}
	for _, r := range merged {
		// ASCII letters and digits join the class in runs; other ASCII
		// characters are listed one by one; the rest joins the class.
		c := r.lo
		for c <= r.hi && c < 0x80 {
			if !isAlnum(c) {
				out = append(out, strconv.Quote(string(c)))
				c++
				continue
			}
			lo := c
			for c+1 <= r.hi && isAlnum(c+1) && sameKind(lo, c+1) {
				c++
			}
			if lo == c && (c == r.lo && c == r.hi) {
				out = append(out, strconv.Quote(string(c))) // one character: "2"
			} else {
				run(lo, c)
			}
			c++
		}
		if c <= r.hi {
			run(c, r.hi)
		}
	}
	if cls.Len() > 0 {
		out = append(out, "["+cls.String()+"]")
	}
	return out
}

// sameKind: digits, uppercase and lowercase letters make separate runs.
func sameKind(a, b rune) bool {
	kind := func(c rune) int {
		switch {
		case '0' <= c && c <= '9':
			return 0
		case 'A' <= c && c <= 'Z':
			return 1
		}
		return 2
	}
	return kind(a) == kind(b)
}

func isAlnum(c rune) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func classChar(c rune) string {
	switch {
	case c == '-' || c == ']' || c == '\\' || c == '^':
		return `\` + string(c)
	case c < 0x20 || c == 0x7f:
		return fmt.Sprintf(`\x%02X`, c)
	case c > 0xffff:
		return fmt.Sprintf(`\U%08X`, c)
	case c > 0x7f:
		return fmt.Sprintf(`\u%04X`, c)
	}
	return string(c)
}

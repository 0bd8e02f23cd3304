package abnf

import (
	"fmt"
	"math/bits"
	"strings"
	"sync"
	"unicode/utf8"
)

// slowMatcher is the matcher package abnf had before the Earley recognizer of
// match.go: the reference implementation that the tests check [Matcher]
// against, in the manner of net/netip's slow_test.go. It computes, for each
// rule and input position, the set of positions where a match can end
// (memoized), which is exact for every grammar without left recursion, and
// plainly readable; but its memory is quadratic in the input and nested
// repetitions make it slow, so it serves only small inputs.
type slowMatcher struct {
	g     *Grammar
	index map[string]int // lower-case rule name → rule number
	names []string
	root  []int32 // root node of each rule
	nodes []snode
	pool  sync.Pool
}

const (
	sAltKind = iota
	sConcatKind
	sRepeatKind
	sRefKind
	sStringKind // CharVal
	sRunesKind  // NumVal concatenation
	sRangeKind  // NumVal range
	sEmptyKind
)

type snode struct {
	kind     uint8
	fold     bool
	kids     []int32
	min, max int
	rule     int32
	lit      []byte
	runes    []rune
	lo, hi   rune
}

// newSlowMatcher compiles g. It refuses grammars with left recursion, since the
// meaning of a left-recursive rule cannot be computed by descent.
func newSlowMatcher(g *Grammar) (*slowMatcher, error) {
	a := Analyze(g)
	if lr := a.LeftRecursive(); len(lr) > 0 {
		return nil, fmt.Errorf("%s: left recursion (rules: %s): the matcher needs a grammar without it", lr[0][0].Pos, names(lr[0]))
	}
	m := &slowMatcher{g: g, index: map[string]int{}}
	for i, r := range g.Rules {
		m.index[strings.ToLower(r.Name)] = i
		m.names = append(m.names, r.Name)
	}
	m.root = make([]int32, len(g.Rules))
	for i, r := range g.Rules {
		root, err := m.compile(r.Expr)
		if err != nil {
			return nil, err
		}
		m.root[i] = root
	}
	return m, nil
}

func (m *slowMatcher) compile(n Node) (int32, error) {
	var mn snode
	switch n := n.(type) {
	case *Alt:
		mn.kind = sAltKind
		for _, x := range n.Alts {
			k, err := m.compile(x)
			if err != nil {
				return 0, err
			}
			mn.kids = append(mn.kids, k)
		}
	case *Concat:
		mn.kind = sConcatKind
		for _, x := range n.Items {
			k, err := m.compile(x)
			if err != nil {
				return 0, err
			}
			mn.kids = append(mn.kids, k)
		}
	case *Repeat:
		if n.Max == 0 {
			mn.kind = sEmptyKind
			break
		}
		k, err := m.compile(n.Body)
		if err != nil {
			return 0, err
		}
		mn.kind, mn.min, mn.max, mn.kids = sRepeatKind, n.Min, n.Max, []int32{k}
	case *RuleRef:
		i, ok := m.index[strings.ToLower(n.Name)]
		if !ok {
			return 0, fmt.Errorf("%s: undefined rule %s", n.Pos, n.Name)
		}
		mn.kind, mn.rule = sRefKind, int32(i)
	case *CharVal:
		mn.kind, mn.lit, mn.fold = sStringKind, []byte(n.Text), !n.Sensitive
	case *NumVal:
		if n.Range {
			mn.kind, mn.lo, mn.hi = sRangeKind, n.Vals[0], n.Vals[1]
		} else {
			mn.kind, mn.runes = sRunesKind, n.Vals
		}
	case *Prose:
		return 0, fmt.Errorf("%s: prose value <%s> has no machine meaning", n.Pos, n.Text)
	default:
		return 0, fmt.Errorf("abnf: unknown node %T", n)
	}
	m.nodes = append(m.nodes, mn)
	return int32(len(m.nodes) - 1), nil
}

// Match reports whether the whole input matches rule.
func (m *slowMatcher) Match(rule string, input []byte) (bool, error) {
	ri, ok := m.index[strings.ToLower(rule)]
	if !ok {
		return false, fmt.Errorf("no rule %s in the grammar", rule)
	}
	r := m.newSlowRun(input)
	defer m.pool.Put(r)
	out := r.get()
	r.ref(int32(ri), 0, out)
	return out.has(len(input)), nil
}

// Prefixes returns the lengths of the prefixes of input that match rule, in
// increasing order.
func (m *slowMatcher) Prefixes(rule string, input []byte) ([]int, error) {
	ri, ok := m.index[strings.ToLower(rule)]
	if !ok {
		return nil, fmt.Errorf("no rule %s in the grammar", rule)
	}
	r := m.newSlowRun(input)
	defer m.pool.Put(r)
	out := r.get()
	r.ref(int32(ri), 0, out)
	var ends []int
	out.each(func(p int) { ends = append(ends, p) })
	return ends, nil
}

// bitset is a set of input positions 0…len(input).
type bitset []uint64

func (b bitset) has(p int) bool { return b[p>>6]&(1<<(p&63)) != 0 }
func (b bitset) add(p int)      { b[p>>6] |= 1 << (p & 63) }
func (b bitset) or(c bitset) {
	for i := range b {
		b[i] |= c[i]
	}
}
func (b bitset) clear() {
	for i := range b {
		b[i] = 0
	}
}
func (b bitset) empty() bool {
	for _, w := range b {
		if w != 0 {
			return false
		}
	}
	return true
}
func (b bitset) each(f func(int)) {
	for i, w := range b {
		for w != 0 {
			f(i<<6 | bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
}

// slowRun is the state of one Match call.
type slowRun struct {
	m     *slowMatcher
	in    []byte
	words int
	memo  [][]int32 // per rule, per position: offset+1 of its end set in slab, 0 if not computed, -1 while computing
	slab  []uint64
	free  []bitset
}

func (m *slowMatcher) newSlowRun(in []byte) *slowRun {
	r, _ := m.pool.Get().(*slowRun)
	if r == nil {
		r = &slowRun{m: m, memo: make([][]int32, len(m.root))}
	}
	r.in = in
	r.words = (len(in) + 1 + 63) / 64
	for i := range r.memo {
		r.memo[i] = r.memo[i][:0]
	}
	r.slab = r.slab[:0]
	r.free = r.free[:0]
	return r
}

func (r *slowRun) get() bitset {
	if n := len(r.free); n > 0 && len(r.free[n-1]) == r.words {
		b := r.free[n-1]
		r.free = r.free[:n-1]
		b.clear()
		return b
	}
	return make(bitset, r.words)
}

func (r *slowRun) put(b bitset) { r.free = append(r.free, b) }

// ref adds the end positions of rule ri matched from pos to out.
func (r *slowRun) ref(ri int32, pos int, out bitset) {
	memo := r.memo[ri]
	if len(memo) == 0 {
		if cap(memo) > len(r.in) {
			memo = memo[:len(r.in)+1]
			clear(memo)
		} else {
			memo = make([]int32, len(r.in)+1)
		}
		r.memo[ri] = memo
	}
	switch v := memo[pos]; {
	case v > 0:
		out.or(bitset(r.slab[v-1 : int(v-1)+r.words]))
		return
	case v < 0:
		return // re-entered without progress: only possible with left recursion, which NewMatcher refuses
	}
	memo[pos] = -1
	set := r.get()
	r.eval(r.m.root[ri], pos, set)
	off := len(r.slab)
	r.slab = append(r.slab, set...)
	r.memo[ri][pos] = int32(off + 1)
	out.or(set)
	r.put(set)
}

// eval adds to out the end positions of node ni matched from pos.
func (r *slowRun) eval(ni int32, pos int, out bitset) {
	n := &r.m.nodes[ni]
	in := r.in
	switch n.kind {
	case sEmptyKind:
		out.add(pos)
	case sStringKind:
		if pos+len(n.lit) > len(in) {
			return
		}
		for i, c := range n.lit {
			d := in[pos+i]
			if n.fold {
				c, d = lowerASCII(c), lowerASCII(d)
			}
			if c != d {
				return
			}
		}
		out.add(pos + len(n.lit))
	case sRunesKind:
		p := pos
		for _, v := range n.runes {
			c, w := slowDecode(in, p, r.m.g.Octets)
			if w == 0 || c != v {
				return
			}
			p += w
		}
		out.add(p)
	case sRangeKind:
		c, w := slowDecode(in, pos, r.m.g.Octets)
		if w > 0 && c >= n.lo && c <= n.hi {
			out.add(pos + w)
		}
	case sRefKind:
		r.ref(n.rule, pos, out)
	case sAltKind:
		for _, k := range n.kids {
			r.eval(k, pos, out)
		}
	case sConcatKind:
		cur := r.get()
		cur.add(pos)
		last := len(n.kids) - 1
		for i, k := range n.kids {
			if i == last {
				cur.each(func(p int) { r.eval(k, p, out) })
				break
			}
			next := r.get()
			cur.each(func(p int) { r.eval(k, p, next) })
			r.put(cur)
			cur = next
			if cur.empty() {
				break
			}
		}
		r.put(cur)
	case sRepeatKind:
		r.repeat(n, pos, out)
	}
}

func (r *slowRun) repeat(n *snode, pos int, out bitset) {
	body := n.kids[0]
	cur := r.get()
	cur.add(pos)
	step := func(from bitset) bitset {
		next := r.get()
		from.each(func(p int) { r.eval(body, p, next) })
		return next
	}
	for k := 0; k < n.min; k++ {
		next := step(cur)
		r.put(cur)
		cur = next
		if cur.empty() {
			r.put(cur)
			return
		}
	}
	out.or(cur)
	if n.max == Inf {
		// Every position reachable in min or more steps: a closure.
		seen := cur
		frontier := r.get()
		frontier.or(cur)
		for {
			next := step(frontier)
			grew := false
			for i := range next {
				next[i] &^= seen[i]
				if next[i] != 0 {
					grew = true
				}
				seen[i] |= next[i]
			}
			r.put(frontier)
			frontier = next
			if !grew {
				break
			}
			out.or(next)
		}
		r.put(frontier)
		r.put(seen)
		return
	}
	for k := n.min; k < n.max; k++ {
		next := step(cur)
		r.put(cur)
		cur = next
		if cur.empty() {
			break
		}
		out.or(cur)
	}
	r.put(cur)
}

// slowDecode returns the character at in[p:] and its width: a byte in
// octet mode, a UTF-8 encoded code point otherwise; width 0 at the end of
// input or at an invalid UTF-8 sequence, which matches no terminal.
func slowDecode(in []byte, p int, octets bool) (rune, int) {
	if p >= len(in) {
		return 0, 0
	}
	if c := in[p]; c < utf8.RuneSelf || octets {
		return rune(c), 1
	}
	c, w := utf8.DecodeRune(in[p:])
	if c == utf8.RuneError && w <= 1 {
		return 0, 0
	}
	return c, w
}

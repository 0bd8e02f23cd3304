package peg

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/peguri/rfc3986/gen/internal/fa"
)

// This file decides, on the NFA of a whole start rule, whether a PEG
// decision is exact.
//
// A PEG alternative p (or the body of a PEG option or repetition) competes
// with a rest R: the later alternatives, or leaving the option or loop. In
// its context K (what must follow up to the end of input), p is exact if it
// succeeds, with a split that lets K match, on every input in L(p)·K, and
// fails on every input in L(R)·K that is not in L(p)·K. Its internal
// decisions give the first half (they are checked the same way); the second
// half is what check searches a counterexample for: an input w with
//
//	w ∈ L(p)·Σ*   (p may succeed: it matches some prefix of w)
//	w ∈ L(R)·K    (the rest would have matched)
//	w ∉ L(p)·K    (but p cannot be completed)
//
// With a one-character guard p &[F] (F the characters that can begin K, or
// the end of input if K can be empty), the first line becomes w ∈
// L(p)·(F·Σ* | ε if allowed), which is empty more often. An exact guard
// p &K makes the set empty by construction and needs no check.
//
// The search runs the three automata in lock step (a product of subset
// constructions) from the decision's position, breadth first, and prunes a
// configuration when the first automaton is dead, the second is dead, or the
// first has accepted and the second's states are a subset of the third's
// (then every continuation the second accepts, the third accepts too).

// maxConfigs bounds one search; beyond it the decision is treated as not
// proven, and gets an exact guard.
const maxConfigs = 200000

// frag is an NFA fragment: the states of one expression, allocated
// contiguously, entered at start and left at end. A fragment that refers
// back into a recursive component being copied (inline.go) also reaches
// the copy's states, as does a fragment that refers into a copy shared by
// every reference (a self-embedding component's): extra lists those copies.
type frag struct {
	start, end int32
	lo, hi     int32
	extra      []*sccCopy
}

func (f frag) has(s int32) bool {
	if s >= f.lo && s < f.hi {
		return true
	}
	for _, c := range f.extra {
		if s >= c.lo && s < c.hi {
			return true
		}
	}
	return false
}

// guardSpec is a one-character guard: the characters allowed after the
// alternative, and whether the end of input is.
type guardSpec struct {
	on  fa.Bits // nil: no guard
	eof bool
}

type config struct {
	a             []int32
	pending, univ bool
	b, c          []int32
	deep          bool // b holds states reached inside an over-approximated region
	parent        int32
	atom          int32
}

// check searches a counterexample to the exactness of alternative p against
// the rest, as described above. It returns the counterexample (which may be
// the empty input), whether there is one, and whether the search gave up.
//
// Where the unit over-approximates (self-embedding components, cut
// references, contexts that are unions: unit.approx), the first two
// automata run on supersets, which is sound: they can only find more
// counterexamples. The third must not claim more than the truth, so it
// never enters an over-approximated state: its language is then a subset of
// L(p)·K. A state outside those regions stands for one configuration of the
// real grammar (its inlined context is unique), so the pruning by state
// sets stays sound. Where everything from p on is over-approximated, the
// third automaton is empty and the test is the strong one: no input of the
// rest may begin with a string of p.
func check(u *unit, p frag, rest []int32, g guardSpec) (cex string, found, gaveUp bool) {
	n := u.n
	inP := func(s int32) bool { return p.has(s) }
	inC := func(s int32) bool { return !u.approx[s] }
	// The sets are kept as their core states (fa.CoreClosure), plus p's end,
	// which pending tests, and the exact states with an ε-edge into an
	// over-approximated region: exactSubset stands for the region's
	// languages by them.
	isEnd := func(s int32) bool { return s == p.end }
	border := u.border
	a0 := n.CoreClosure([]int32{p.start}, inP, isEnd)
	pend := fa.Contains(a0, p.end)
	start := config{
		a:       a0,
		pending: pend,
		univ:    pend && g.on == nil,
		b:       n.CoreClosure(rest, nil, border),
		deep:    slices.ContainsFunc(rest, func(s int32) bool { return u.approx[s] }),
		c:       n.CoreClosure([]int32{p.start}, inC, border),
		parent:  -1,
	}
	configs := []config{norm(start)}
	seen := map[string]bool{key(configs[0]): true}
	acceptA := func(c *config) bool { return c.univ || c.pending && (g.on == nil || g.eof) }
	for i := 0; i < len(configs); i++ {
		if len(configs) > maxConfigs {
			return "", false, true
		}
		u.charge()
		c := configs[i]
		if acceptA(&c) && fa.Contains(c.b, n.Accept) && !fa.Contains(c.c, n.Accept) {
			return path(n, configs, int32(i)), true, false
		}
		if !c.univ && !c.pending && len(c.a) == 0 || len(c.b) == 0 || c.univ && !c.deep && exactSubset(u, c.b, c.c) {
			continue
		}
		for x := range n.Atoms {
			next := config{parent: int32(i), atom: int32(x)}
			next.univ = c.univ || c.pending && (g.on == nil || g.on.Has(x))
			if !next.univ {
				// Where p can no longer match, the configuration is dead
				// (the test above skips it): stepping b, the rest's set,
				// would be wasted, and b is the large set when a choice has
				// many alternatives.
				na := n.Step(c.a, x)
				if len(na) == 0 {
					continue
				}
				next.a = n.CoreClosure(na, inP, isEnd)
				next.pending = fa.Contains(next.a, p.end)
				if next.pending && g.on == nil {
					next.univ = true
				}
			}
			nb := n.Step(c.b, x)
			if len(nb) == 0 {
				continue
			}
			next.b = n.CoreClosure(nb, nil, border)
			next.deep = slices.ContainsFunc(nb, func(s int32) bool { return u.approx[s] })
			next.c = n.CoreClosure(n.Step(c.c, x), inC, border)
			u.charge()
			next = norm(next)
			k := key(next)
			if seen[k] {
				continue
			}
			seen[k] = true
			configs = append(configs, next)
		}
	}
	return "", false, false
}

// exactSubset reports whether the exact states of b are all in c. It
// decides that every continuation of b is one of c when b entered
// over-approximated regions only in this step's closure, from its exact
// states (config.deep is false): the languages from those regions are then
// part of the languages of the exact states that entered them.
func exactSubset(u *unit, b, c []int32) bool {
	j := 0
	for _, x := range b {
		if u.approx[x] {
			continue
		}
		for j < len(c) && c[j] < x {
			j++
		}
		if j == len(c) || c[j] != x {
			return false
		}
	}
	return true
}

func norm(c config) config {
	if c.univ {
		c.a, c.pending = nil, false
	}
	return c
}

func key(c config) string {
	var b strings.Builder
	b.WriteString(fa.Key(c.a))
	b.WriteByte(0xff)
	if c.pending {
		b.WriteByte('p')
	}
	if c.univ {
		b.WriteByte('u')
	}
	b.WriteByte(0xfe)
	b.WriteString(fa.Key(c.b))
	b.WriteByte(0xfd)
	b.WriteString(fa.Key(c.c))
	if c.deep {
		b.WriteByte('d')
	}
	return b.String()
}

// path spells the input that leads to configuration i.
func path(n *fa.NFA, configs []config, i int32) string {
	var atoms []int32
	for ; configs[i].parent >= 0; i = configs[i].parent {
		atoms = append(atoms, configs[i].atom)
	}
	var b strings.Builder
	for j := len(atoms) - 1; j >= 0; j-- {
		b.WriteRune(representative(n.Atoms[atoms[j]]))
	}
	return b.String()
}

// representative picks a readable character of a set: a digit, a letter,
// punctuation, then anything.
func representative(s fa.CharSet) rune {
	for _, pref := range []func(rune) bool{unicode.IsDigit, isASCIILetter, isASCIIPunct, unicode.IsPrint} {
		for _, r := range s.Ranges() {
			for c := r.Lo; c <= r.Hi && c-r.Lo < 256; c++ {
				if pref(c) {
					return c
				}
			}
		}
	}
	return s.Ranges()[0].Lo
}

func isASCIILetter(c rune) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isASCIIPunct(c rune) bool  { return c > ' ' && c < 0x7f }

// overlap reports whether some input is matched from both state sets (the
// alternatives are ambiguous in context), and an example.
func overlap(u *unit, x, y []int32) (string, bool) {
	n := u.n
	type pair struct {
		x, y   []int32
		parent int32
		atom   int32
	}
	ps := []pair{{x: n.CoreClosure(x, nil, nil), y: n.CoreClosure(y, nil, nil), parent: -1}}
	seen := map[string]bool{}
	for i := 0; i < len(ps) && len(ps) < maxConfigs; i++ {
		p := ps[i]
		u.charge()
		if fa.Contains(p.x, n.Accept) && fa.Contains(p.y, n.Accept) {
			var cs []config
			for _, q := range ps[:i+1] {
				cs = append(cs, config{parent: q.parent, atom: q.atom})
			}
			return path(n, cs, int32(i)), true
		}
		for a := range n.Atoms {
			nx, ny := n.Step(p.x, a), n.Step(p.y, a)
			if len(nx) == 0 || len(ny) == 0 {
				continue
			}
			q := pair{x: n.CoreClosure(nx, nil, nil), y: n.CoreClosure(ny, nil, nil), parent: int32(i), atom: int32(a)}
			k := fa.Key(q.x) + "|" + fa.Key(q.y)
			if !seen[k] {
				seen[k] = true
				ps = append(ps, q)
			}
		}
	}
	return "", false
}

// overlaps is overlap for every pair of the state sets at once: it returns
// an example for each pair (i < j) that some input is matched from both,
// and the pairs it could not settle within maxConfigs. It runs every set in
// lockstep, as one search whose configuration holds the closure of each set
// still alive, so that a choice of k alternatives costs one search whose
// size follows the inputs the alternatives share, not k² searches (5,000
// keywords took 17 s pairwise). Each pair's example is the one overlap
// would give: both searches go breadth-first in atom order, so each finds
// the shortest input first, and among those the first in atom order.
func overlaps(u *unit, starts []int32) (ex map[[2]int]string, unsettled [][2]int) {
	n := u.n
	type run struct {
		alt int
		set []int32
	}
	type tuple struct {
		runs   []run
		parent int32
		atom   int32
	}
	keyOf := func(rs []run) string {
		var b strings.Builder
		for _, r := range rs {
			b.WriteString(strconv.Itoa(r.alt))
			b.WriteByte(':')
			b.WriteString(fa.Key(r.set))
			b.WriteByte('|')
		}
		return b.String()
	}
	var first []run
	for i, st := range starts {
		first = append(first, run{i, n.CoreClosure([]int32{st}, nil, nil)})
	}
	ts := []tuple{{runs: first, parent: -1}}
	seen := map[string]bool{keyOf(first): true}
	ex = map[[2]int]string{}
	spell := func(i int) string {
		cs := make([]config, i+1)
		for j := range cs {
			cs[j] = config{parent: ts[j].parent, atom: ts[j].atom}
		}
		return path(n, cs, int32(i))
	}
	i := 0
	for ; i < len(ts) && len(ts) < maxConfigs; i++ {
		t := ts[i]
		u.charge()
		var acc []int
		for _, r := range t.runs {
			if fa.Contains(r.set, n.Accept) {
				acc = append(acc, r.alt)
			}
		}
		for a := 0; a < len(acc); a++ {
			for b := a + 1; b < len(acc); b++ {
				pr := [2]int{acc[a], acc[b]}
				if _, ok := ex[pr]; !ok {
					ex[pr] = spell(i)
				}
			}
		}
		// A run whose pairs with the others are all settled adds nothing
		// below this configuration: drop it (an ambiguous choice would
		// otherwise be searched on and on after its overlaps are found).
		live := t.runs[:0:0]
		for a, r := range t.runs {
			for b, q := range t.runs {
				pr := [2]int{min(r.alt, q.alt), max(r.alt, q.alt)}
				if _, ok := ex[pr]; a != b && !ok {
					live = append(live, r)
					break
				}
			}
		}
		for a := range n.Atoms {
			var next []run
			for _, r := range live {
				if st := n.Step(r.set, a); len(st) > 0 {
					next = append(next, run{r.alt, n.CoreClosure(st, nil, nil)})
				}
			}
			if len(next) < 2 {
				continue // no pair left to overlap
			}
			if k := keyOf(next); !seen[k] {
				seen[k] = true
				ts = append(ts, tuple{runs: next, parent: int32(i), atom: int32(a)})
			}
		}
	}
	// The search stopped early: the pairs alive in a configuration not
	// explored are left to overlap, one by one.
	left := map[[2]int]bool{}
	for _, t := range ts[i:] {
		for a := 0; a < len(t.runs); a++ {
			for b := a + 1; b < len(t.runs); b++ {
				pr := [2]int{t.runs[a].alt, t.runs[b].alt}
				if _, ok := ex[pr]; !ok && !left[pr] {
					left[pr] = true
					unsettled = append(unsettled, pr)
				}
			}
		}
	}
	return ex, unsettled
}

// prefixOf reports whether some string of fragment p is a proper prefix of
// some string of fragment q: then, first-match-wins, q must come first.
func prefixOf(u *unit, p, q frag) bool {
	n := u.n
	type st struct {
		x, y  []int32
		done  bool // p's string is complete; only q moves
		moved bool // q has moved since
	}
	inP := func(s int32) bool { return p.has(s) }
	inQ := func(s int32) bool { return q.has(s) }
	pEnd := func(s int32) bool { return s == p.end }
	qEnd := func(s int32) bool { return s == q.end }
	start := st{x: n.CoreClosure([]int32{p.start}, inP, pEnd), y: n.CoreClosure([]int32{q.start}, inQ, qEnd)}
	queue := []st{start}
	seen := map[string]bool{}
	k := func(s st) string {
		return fa.Key(s.x) + "|" + fa.Key(s.y) + map[bool]string{true: "d", false: ""}[s.done] + map[bool]string{true: "m", false: ""}[s.moved]
	}
	for i := 0; i < len(queue) && len(queue) < maxConfigs; i++ {
		s := queue[i]
		u.charge()
		if s.done && s.moved && fa.Contains(s.y, q.end) {
			return true
		}
		var succ []st
		if !s.done && fa.Contains(s.x, p.end) {
			succ = append(succ, st{y: s.y, done: true})
		}
		for a := range n.Atoms {
			ny := n.CoreClosure(n.Step(s.y, a), inQ, qEnd)
			if len(ny) == 0 {
				continue
			}
			if s.done {
				succ = append(succ, st{y: ny, done: true, moved: true})
				continue
			}
			nx := n.CoreClosure(n.Step(s.x, a), inP, pEnd)
			if len(nx) > 0 {
				succ = append(succ, st{x: nx, y: ny})
			}
		}
		for _, t := range succ {
			if kk := k(t); !seen[kk] {
				seen[kk] = true
				queue = append(queue, t)
			}
		}
	}
	return false
}

package peg

import (
	"fmt"
	"slices"

	"github.com/peguri/rfc3986/gen/internal/fa"
	"github.com/peguri/rfc3986/gen/internal/ir"
)

// Modular translation. When a start rule's inlined NFA would pass the state
// limit (or its checks the work budget), every rule it reaches is translated
// once, for all of its contexts, in a unit of its own: its body, with every
// reference cut — the fragment of a referenced rule R matches FIRST(R)
// [Σ_R]*, any string over the characters R can produce that begins as R
// does (or the empty string if R can be), a superset of L(R) — followed by
// its context, approximated by F·Σ* (F its follow set) plus the end of input
// if it can end the input.
//
// The context is then the union of the rule's contexts, and the languages
// of cut references are supersets, so both are marked over-approximated:
// check never takes a path through them as proof that an input is matched,
// which leaves the strong test — no input of L(rest)·K may begin with a
// string of L(p) (with a one-character guard, followed by one of the
// characters the guard allows). A decision that passes is exact; one that
// does not falls back to the exact recognizer at parse time (fallback.go).

// fset is a set of characters, plus the end of input.
type fset struct {
	set fa.CharSet
	eof bool
}

func (a fset) union(b fset) fset { return fset{a.set.Union(b.set), a.eof || b.eof} }

// followSets computes, for the rules the start rules reach, the characters
// that can follow them and whether the end of input can, and the characters
// each rule's strings can hold.
//
// Both are computed on the graph of the strongly connected components of
// references, each component once from its successors', and the follow
// sets with a worklist: a grammar of thousands of rules (a chain of 6,000,
// r_i = r_{i+1} / "a_i") took 37 s and 1.5 GB when every rule's reach was
// a map and its characters a union over it.
func (t *translator) followSets(starts []*ir.Rule) {
	t.follow = map[*ir.Rule]fset{}
	t.chars = map[*ir.Rule]fa.CharSet{}
	rules := t.g.Rules
	index := make(map[*ir.Rule]int, len(rules))
	for i, r := range rules {
		index[r] = i
	}
	succ := make([][]int, len(rules))
	for i, r := range rules {
		seen := map[int]bool{}
		t.dag.refs(r.Body, func(q *ir.Rule) {
			if j := index[q]; !seen[j] {
				seen[j] = true
				succ[i] = append(succ[i], j)
			}
		})
	}
	// Tarjan's algorithm gives the components successors first.
	comp := make([]int, len(rules))
	var comps [][]int
	num := make([]int, len(rules)) // 0: not visited; else visit order + 1
	low := make([]int, len(rules))
	onStack := make([]bool, len(rules))
	var stack []int
	counter := 0
	var visit func(v int)
	visit = func(v int) {
		counter++
		num[v], low[v] = counter, counter
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range succ[v] {
			if num[w] == 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], num[w])
			}
		}
		if low[v] == num[v] {
			var c []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = len(comps)
				c = append(c, w)
				if w == v {
					break
				}
			}
			comps = append(comps, c)
		}
	}
	for v := range rules {
		if num[v] == 0 {
			visit(v)
		}
	}
	// What each component reaches, as two flags (a bit set of every rule
	// per component was quadratic: 1 GB for a chain of 100,000 rules).
	reach := make([]reachKind, len(comps))
	chars := make([]fa.CharSet, len(comps))
	for ci, c := range comps {
		var k reachKind
		var cs fa.CharSet
		for _, v := range c {
			if rc := t.comp[rules[v]]; rc != nil {
				k |= reachesRecursion
				if rc.SelfEmbedding || rc.Left {
					k |= reachesApprox
				}
			}
			cs = cs.Union(t.dag.setsOf(rules[v].Body))
			for _, w := range succ[v] {
				if cw := comp[w]; cw != ci {
					k |= reach[cw]
					cs = cs.Union(chars[cw])
				}
			}
		}
		reach[ci], chars[ci] = k, cs
	}
	t.reach = make(map[*ir.Rule]reachKind, len(rules))
	for i, r := range rules {
		t.reach[r] = reach[comp[i]]
		t.chars[r] = chars[comp[i]]
	}
	queued := map[*ir.Rule]bool{}
	var work []*ir.Rule
	for _, s := range starts {
		t.follow[s] = fset{eof: true}
		if !queued[s] {
			queued[s] = true
			work = append(work, s)
		}
	}
	for len(work) > 0 {
		r := work[0]
		work = work[1:]
		queued[r] = false
		t.followBody(r.Body, t.follow[r], func(q *ir.Rule) {
			if !queued[q] {
				queued[q] = true
				work = append(work, q)
			}
		})
	}
}

// reachKind says what recursion a rule reaches, itself included.
type reachKind uint8

const (
	reachesRecursion reachKind = 1 << iota // some recursive component
	reachesApprox                          // a self-embedding or left-recursive one, over-approximated
)

// unitRef returns the identifier of the one translation of rule r for all
// of its contexts; it translates r the first time.
func (t *translator) unitRef(r *ir.Rule) string {
	if id, ok := t.unitIdent[r]; ok {
		return id
	}
	id, variant := t.variantIdent(r)
	p := &pegRule{ident: id, rule: r, variant: variant, mode: "translated on its own, for all its contexts: decisions checked against their union, over-approximated"}
	t.unitIdent[r] = id
	t.rules = append(t.rules, p)

	if err := t.tooLarge(r, t.maxStates); err != nil {
		panic(err) // before building any of it
	}
	// NFA: r's body, every reference cut, then F·Σ* or the end of input.
	b := &fa.Builder{}
	ctx := &buildCtx{modular: true}
	body := t.build(b, r.Body, r, ctx)
	if body == nil {
		panic(&limitError{fmt.Sprintf("%s: its body alone needs more than %d NFA states (bounded repetitions expand into copies); raise the limit with -max-states", r.Name, t.maxStates)})
	}
	start, accept := b.State(), b.State()
	b.Eps(start, body.f.start)
	fol := t.follow[r]
	lo := b.Len()
	if !fol.set.Empty() {
		s1, s2 := b.State(), b.State()
		b.Eps(body.f.end, s1)
		b.Edge(s1, s2, fol.set)
		b.Edge(s2, s2, fa.Span(0, 0x10FFFF))
		b.Eps(s2, accept)
	}
	if fol.eof {
		// The end of input is r's only context when nothing can follow
		// it; otherwise it is one of several, and marked as such.
		x := b.State()
		b.Eps(body.f.end, x)
		b.Eps(x, accept)
		if fol.set.Empty() {
			lo = x + 1
		}
	}
	ctx.approx = append(ctx.approx, [2]int32{lo, b.Len()})
	n := b.NFA(start, accept)
	u := &unit{n: n, approx: make([]bool, len(n.States)), modular: true}
	for _, rg := range ctx.approx {
		for s := rg[0]; s < rg[1]; s++ {
			u.approx[s] = true
		}
	}
	u.setBorder()
	// The unit's checks are bounded too: by the inlined rules' budget, or
	// what is left of the total, but never less than minUnitWork (or the
	// inlined rules' budget, if it is lower), so that
	// a grammar of thousands of rules past the total budget still costs
	// time linear in its size. Past it, every decision of the unit takes
	// the cheap test alone, and falls back to the exact recognizer where
	// that test fails: still exact, decided at parse time.
	budget := max(min(t.inlineWork, t.workLeft), min(minUnitWork, t.inlineWork))
	u.budget = budget
	if !t.decideWithin(u, body) {
		t.report.warn("%s: checking its decisions passes the work budget (%d search steps, -inline-work and -total-work set it); the decisions the cheap test (disjoint first characters) does not prove fall back to the exact recognizer", r.Name, budget)
		t.decideCheap(u, body)
	}
	t.workLeft -= u.spent
	t.report.Work += u.spent
	u.budget = 0
	t.commit(u, body)
	p.body = t.text(body)
	return id
}

// minUnitWork is the least work budget of a modular unit, about 50 ms.
const minUnitWork = 5_000_000

// decideCheap decides every choice below o with bestGuard's cheap test
// alone — the alternative cannot match the empty string, and no input the
// rest accepts begins with a character it can begin with — and falls back
// to the exact recognizer where the test fails. It is for a unit whose
// checks passed their work budget: it costs one closure per alternative.
func (t *translator) decideCheap(u *unit, o *occ) {
	for _, k := range o.kids {
		t.decideCheap(u, k)
	}
	n := u.n
	// begins returns the atoms an input of fragment f can begin with, and
	// whether f can match the empty string.
	begins := func(f frag) (fa.Bits, bool) {
		c := n.Closure([]int32{f.start}, func(s int32) bool { return f.has(s) })
		return n.First(c), fa.Contains(c, f.end)
	}
	cheap := func(f frag, rest fa.Bits) guard {
		if first, empty := begins(f); !empty && !first.Intersects(rest) {
			return guard{}
		}
		return guard{kind: guardFallback, gaveUp: true, cheap: true}
	}
	switch o.x.(type) {
	case *ir.Alt:
		k := len(o.kids)
		d := &decision{order: make([]int, k), guards: make([]guard, k)}
		// rest[p]: what the alternatives after p, and what follows them,
		// can begin with (closure distributes over the union of starts).
		rest := make([]fa.Bits, k)
		rest[k-1] = fa.NewBits(len(n.Atoms))
		for p := k - 2; p >= 0; p-- {
			rest[p] = slices.Clone(rest[p+1])
			rest[p].Or(n.First(n.Closure([]int32{o.kids[p+1].f.start}, nil)))
		}
		for p := range k {
			d.order[p] = p
			if p < k-1 {
				d.guards[p] = cheap(o.kids[p].f, rest[p])
			}
		}
		o.dec = d
	case *ir.Rep:
		o.dec = &decision{guards: []guard{cheap(o.kids[0].f, n.First(n.Closure([]int32{o.exit}, nil)))}}
	}
}

// limitError is a documented limit that a grammar passes; Translate returns
// it as its error.
type limitError struct{ msg string }

func (e *limitError) Error() string { return e.msg }

package peg

import (
	"fmt"

	"github.com/peguri/rfc3986/gen/fa"
	"github.com/peguri/rfc3986/gen/ir"
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

func seqRest(items []ir.Expr, fol fset) fset {
	out := fset{}
	for _, y := range items {
		out = out.union(fset{set: ir.First(y)})
		if !ir.Nullable(y) {
			return out
		}
	}
	return out.union(fol)
}

// followSets computes, for the rules the start rules reach, the characters
// that can follow them and whether the end of input can, and the characters
// each rule's strings can hold.
func (t *translator) followSets(starts []*ir.Rule) {
	t.follow = map[*ir.Rule]fset{}
	t.chars = map[*ir.Rule]fa.CharSet{}
	reach := map[*ir.Rule]map[*ir.Rule]bool{}
	for _, r := range t.g.Rules {
		seen := map[*ir.Rule]bool{}
		var visit func(*ir.Rule)
		visit = func(q *ir.Rule) {
			walkRefs(q.Body, func(s *ir.Rule) {
				if !seen[s] {
					seen[s] = true
					visit(s)
				}
			})
		}
		visit(r)
		reach[r] = seen
	}
	t.reach = reach
	for _, r := range t.g.Rules {
		s := sets(r.Body)
		for q := range reach[r] {
			s = s.Union(sets(q.Body))
		}
		t.chars[r] = s
	}
	for _, s := range starts {
		t.follow[s] = fset{eof: true}
	}
	for changed := true; changed; {
		changed = false
		for _, r := range t.g.Rules {
			if fol, ok := t.follow[r]; ok {
				t.walkFollow(r.Body, fol, &changed)
			}
		}
	}
}

// reachesComp reports whether rule s is in component c or reaches it.
func (t *translator) reachesComp(s *ir.Rule, c *ir.Component) bool {
	return t.comp[s] == c || t.reach[s][c.Rules[0]]
}

func walkRefs(x ir.Expr, f func(*ir.Rule)) {
	switch x := x.(type) {
	case *ir.Ref:
		f(x.Rule)
	case *ir.Seq:
		for _, y := range x.Items {
			walkRefs(y, f)
		}
	case *ir.Alt:
		for _, y := range x.Alts {
			walkRefs(y, f)
		}
	case *ir.Rep:
		walkRefs(x.Body, f)
	}
}

// sets is the union of the character sets in x, not following references.
func sets(x ir.Expr) fa.CharSet {
	switch x := x.(type) {
	case *ir.Set:
		return x.Set
	case *ir.Seq:
		var s fa.CharSet
		for _, y := range x.Items {
			s = s.Union(sets(y))
		}
		return s
	case *ir.Alt:
		var s fa.CharSet
		for _, y := range x.Alts {
			s = s.Union(sets(y))
		}
		return s
	case *ir.Rep:
		return sets(x.Body)
	}
	return fa.CharSet{}
}

func (t *translator) walkFollow(x ir.Expr, fol fset, changed *bool) {
	switch x := x.(type) {
	case *ir.Seq:
		for i, y := range x.Items {
			t.walkFollow(y, seqRest(x.Items[i+1:], fol), changed)
		}
	case *ir.Alt:
		for _, y := range x.Alts {
			t.walkFollow(y, fol, changed)
		}
	case *ir.Rep:
		if x.Max == 1 {
			t.walkFollow(x.Body, fol, changed)
		} else {
			t.walkFollow(x.Body, fset{set: ir.First(x.Body)}.union(fol), changed)
		}
	case *ir.Ref:
		old, ok := t.follow[x.Rule]
		nu := old.union(fol)
		if !ok || !nu.set.Equal(old.set) || nu.eof != old.eof {
			t.follow[x.Rule] = nu
			*changed = true
		}
	}
}

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
	u := &unit{n: n, approx: make([]bool, len(n.States))}
	for _, rg := range ctx.approx {
		for s := rg[0]; s < rg[1]; s++ {
			u.approx[s] = true
		}
	}
	u.setBorder()
	t.decide(u, body)
	t.workLeft -= u.spent
	t.report.Work += u.spent
	t.commit(u, body)
	p.body = t.text(body)
	return id
}

// limitError is a documented limit that a grammar passes; Translate returns
// it as its error.
type limitError struct{ msg string }

func (e *limitError) Error() string { return e.msg }

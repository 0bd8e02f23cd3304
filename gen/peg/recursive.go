package peg

import (
	"github.com/peguri/rfc3986/gen/fa"
	"github.com/peguri/rfc3986/gen/ir"
)

// Recursive grammars. Below a recursive rule, contexts are context-free
// languages, not regular ones, and the exact check of check.go does not
// apply. The translator then checks every decision against a regular
// over-approximation instead:
//
//   - rules on cycles are inlined until they recur; a reference to a rule
//     already being inlined is cut: its fragment matches FIRST(R) [Σ_R]*
//     (any string over the characters R can produce that begins like R
//     does, or the empty string if R can be empty), a superset of L(R);
//   - a rule on a cycle is translated once, for all its contexts, which are
//     approximated by F·Σ* (F its follow set), plus the end of input if it
//     can end the input.
//
// With supersets, the test is the stronger one: no input of L(rest)·K may
// begin with a string of L(p) at all (with a one-character guard, followed
// by one of the characters the guard allows). If that holds for the
// supersets it holds for the real languages, so a decision that passes is
// exact. One that does not pass is emitted in document order and reported as
// not proven; gen fidelity measures it.

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

// recursion finds the rules on cycles and, for the start rules that reach
// them, the follow sets of every rule they reach.
func (t *translator) recursion(starts []*ir.Rule) {
	t.cyclic = map[*ir.Rule]bool{}
	t.reaches = map[*ir.Rule]bool{}
	t.follow = map[*ir.Rule]fset{}
	t.unitIdent = map[*ir.Rule]string{}
	reach := map[*ir.Rule]map[*ir.Rule]bool{}
	var refs func(x ir.Expr, f func(*ir.Rule))
	refs = func(x ir.Expr, f func(*ir.Rule)) {
		switch x := x.(type) {
		case *ir.Ref:
			f(x.Rule)
		case *ir.Seq:
			for _, y := range x.Items {
				refs(y, f)
			}
		case *ir.Alt:
			for _, y := range x.Alts {
				refs(y, f)
			}
		case *ir.Rep:
			refs(x.Body, f)
		}
	}
	for _, r := range t.g.Rules {
		seen := map[*ir.Rule]bool{}
		var visit func(*ir.Rule)
		visit = func(q *ir.Rule) {
			refs(q.Body, func(s *ir.Rule) {
				if !seen[s] {
					seen[s] = true
					visit(s)
				}
			})
		}
		visit(r)
		reach[r] = seen
		if seen[r] {
			t.cyclic[r] = true
		}
	}
	t.chars = map[*ir.Rule]fa.CharSet{}
	for _, r := range t.g.Rules {
		var s fa.CharSet
		for q := range reach[r] {
			s = s.Union(sets(q.Body))
		}
		t.chars[r] = s.Union(sets(r.Body))
	}
	for _, s := range starts {
		for q := range reach[s] {
			if t.cyclic[q] {
				t.reaches[s] = true
			}
		}
		if t.cyclic[s] {
			t.reaches[s] = true
		}
		if t.reaches[s] {
			t.follow[s] = fset{eof: true}
		}
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

// unitRef returns the identifier of the one translation of rule r, which is
// on a cycle, valid in all of its contexts; it translates r the first time.
func (t *translator) unitRef(r *ir.Rule) string {
	if id, ok := t.unitIdent[r]; ok {
		return id
	}
	base := ident(r.Name)
	if r.NonEmpty != nil {
		base += "_nonempty"
	}
	variant := 1
	for _, p := range t.rules {
		if p.rule == r {
			variant++
		}
	}
	id := base
	if variant > 1 || r.NonEmpty != nil {
		id = t.alloc(base)
	}
	p := &pegRule{ident: id, rule: r, variant: variant, mode: "recursive rule: one translation for all its contexts, checked against their follow set"}
	t.unitIdent[r] = id
	t.rules = append(t.rules, p)

	// NFA: r's body (cycle references cut), then F·Σ* or the end of input.
	b := &fa.Builder{}
	body := t.build(b, r.Body, r, &cutter{stack: []*ir.Rule{r}})
	if body == nil {
		b = &fa.Builder{}
		body = t.build(b, r.Body, r, &cutter{all: true})
	}
	start, accept := b.State(), b.State()
	b.Eps(start, body.f.start)
	fol := t.follow[r]
	if !fol.set.Empty() {
		s1, s2 := b.State(), b.State()
		b.Eps(body.f.end, s1)
		b.Edge(s1, s2, fol.set)
		b.Edge(s2, s2, fa.Span(0, 0x10FFFF))
		b.Eps(s2, accept)
	}
	if fol.eof {
		b.Eps(body.f.end, accept)
	}
	u := &unit{n: b.NFA(start, accept), approx: true}
	t.decide(u, body)
	p.body = t.text(body)
	return id
}

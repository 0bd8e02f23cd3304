package peg

import (
	"fmt"
	"slices"
	"strings"

	"github.com/peguri/rfc3986/gen/abnf"
	"github.com/peguri/rfc3986/gen/fa"
	"github.com/peguri/rfc3986/gen/ir"
)

// maxStates bounds the inlined NFA of one start rule. Past it the start rule
// is translated in LL(1) mode, with a warning.
const maxStates = 1 << 21

// occ is one occurrence of an expression in the inlined start rule: the
// same IR node appears once per context.
type occ struct {
	x     ir.Expr
	owner *ir.Rule // the rule whose body holds x
	kids  []*occ
	f     frag
	head  int32 // Rep: the state where the loop decides (iterate or leave)
	exit  int32 // Rep: the state after the repetition
	cut   bool  // Ref to a rule on a cycle, approximated (recursive.go)
	dec   *decision
}

// decision is how a choice or repetition is emitted in its context.
type decision struct {
	order  []int   // Alt: emission order of the alternatives
	guards []guard // Alt: per position in order (the last has none); Rep: one
}

type guard struct {
	first  fa.CharSet // one-character guard: these characters…
	eof    bool       // …or the end of input
	exact  string     // exact guard: the guard rule
	kind   int
	why    string // counterexample that made the guard necessary
	gaveUp bool
}

const (
	guardNone = iota
	guardFirst
	guardExact
	guardUnproven // no guard proven sufficient (recursive grammars only)
)

func (g guard) text() string {
	switch g.kind {
	case guardFirst:
		switch {
		case g.first.Empty():
			return "!."
		case g.eof:
			return "&(" + class(g.first) + " / !.)"
		}
		return "&" + class(g.first)
	case guardExact:
		return "&" + g.exact + "_0"
	}
	return ""
}

func (g guard) cost() int { return [...]int{0, 1, 100, 1000}[g.kind] }

// unit is one NFA under analysis: a whole start rule (exact), or a rule on a
// cycle or a start rule reaching one (approx: references to rules on cycles
// are cut and the checks are the stronger ones of recursive.go).
type unit struct {
	n      *fa.NFA
	approx bool
}

// translateStart translates start rule s and returns its entry's body.
func (t *translator) translateStart(s *ir.Rule) string {
	if t.reaches[s] && t.cyclic[s] {
		return t.unitRef(s)
	}
	b := &fa.Builder{}
	root := t.build(b, &ir.Ref{Rule: s}, s, t.newCut(t.reaches[s]))
	if root == nil && t.reaches[s] {
		b = &fa.Builder{}
		root = t.build(b, &ir.Ref{Rule: s}, s, &cutter{all: true})
	}
	if root == nil {
		// Too big to inline: translate it like a recursive rule.
		t.report.warn("%s: its inlined NFA exceeds %d states; translated with over-approximated contexts instead", s.Name, maxStates)
		t.reaches[s], t.cyclic[s] = true, true
		t.follow[s] = fset{eof: true}
		return t.unitRef(s)
	}
	start, accept := b.State(), b.State()
	b.Eps(start, root.f.start)
	b.Eps(root.f.end, accept)
	u := &unit{n: b.NFA(start, accept), approx: t.reaches[s]}
	t.decide(u, root)
	return t.text(root)
}

// cutter decides which references to rules on cycles are cut
// (recursive.go): with all, every one; otherwise those to a rule already
// being inlined, that is, the points where the recursion would begin again.
// A nil cutter cuts nothing.
type cutter struct {
	all   bool
	stack []*ir.Rule
}

func (t *translator) newCut(approx bool) *cutter {
	if !approx {
		return nil
	}
	return &cutter{}
}

func (c *cutter) cuts(t *translator, r *ir.Rule) bool {
	if c == nil || !t.cyclic[r] {
		return false
	}
	return c.all || slices.Contains(c.stack, r)
}

// build adds the fragment of x to the NFA and returns its occurrence tree,
// or nil if the NFA grows past maxStates.
func (t *translator) build(b *fa.Builder, x ir.Expr, owner *ir.Rule, cut *cutter) *occ {
	if b.Len() > maxStates {
		return nil
	}
	o := &occ{x: x, owner: owner}
	o.f.lo = b.Len()
	s := b.State()
	o.f.start = s
	kid := func(y ir.Expr, owner *ir.Rule) *occ {
		k := t.build(b, y, owner, cut)
		if k != nil {
			o.kids = append(o.kids, k)
		}
		return k
	}
	switch x := x.(type) {
	case *ir.Set:
		e := b.State()
		b.Edge(s, e, x.Set)
		o.f.end = e
	case *ir.Empty:
		e := b.State()
		b.Eps(s, e)
		o.f.end = e
	case *ir.Seq:
		prev := s
		for _, y := range x.Items {
			k := kid(y, owner)
			if k == nil {
				return nil
			}
			b.Eps(prev, k.f.start)
			prev = k.f.end
		}
		e := b.State()
		b.Eps(prev, e)
		o.f.end = e
	case *ir.Alt:
		for _, y := range x.Alts {
			k := kid(y, owner)
			if k == nil {
				return nil
			}
			b.Eps(s, k.f.start)
		}
		e := b.State()
		for _, k := range o.kids {
			b.Eps(k.f.end, e)
		}
		o.f.end = e
	case *ir.Rep:
		k := kid(x.Body, owner)
		if k == nil {
			return nil
		}
		switch {
		case x.Max == 1: // x?
			e := b.State()
			b.Eps(s, k.f.start)
			b.Eps(s, e)
			b.Eps(k.f.end, e)
			o.head, o.exit, o.f.end = s, e, e
		case x.Min == 0: // x*
			e := b.State()
			b.Eps(s, k.f.start)
			b.Eps(k.f.end, s)
			b.Eps(s, e)
			o.head, o.exit, o.f.end = s, e, e
		default: // x+
			h, e := b.State(), b.State()
			b.Eps(s, k.f.start)
			b.Eps(k.f.end, h)
			b.Eps(h, k.f.start)
			b.Eps(h, e)
			o.head, o.exit, o.f.end = h, e, e
		}
	case *ir.Ref:
		if cut.cuts(t, x.Rule) {
			// A superset of the rule's language that keeps its first
			// characters: FIRST(R) [Σ_R]*, or also empty if R can be.
			o.cut = true
			m, e := b.State(), b.State()
			b.Edge(s, m, x.Rule.First)
			b.Edge(m, m, t.chars[x.Rule])
			b.Eps(m, e)
			if x.Rule.Nullable {
				b.Eps(s, e)
			}
			o.f.end = e
			break
		}
		if cut != nil {
			cut.stack = append(cut.stack, x.Rule)
		}
		k := kid(x.Rule.Body, x.Rule)
		if cut != nil {
			cut.stack = cut.stack[:len(cut.stack)-1]
		}
		if k == nil {
			return nil
		}
		e := b.State()
		b.Eps(s, k.f.start)
		b.Eps(k.f.end, e)
		o.f.end = e
	}
	o.f.hi = b.Len()
	return o
}

// decide computes the decision of every choice and repetition below o.
func (t *translator) decide(u *unit, o *occ) {
	for _, k := range o.kids {
		t.decide(u, k)
	}
	switch x := o.x.(type) {
	case *ir.Alt:
		o.dec = t.decideAlt(u, o, x)
	case *ir.Rep:
		body := o.kids[0]
		ctx := o.head
		if x.Max == 1 {
			ctx = o.exit
		}
		g := t.bestGuard(u, body.f, []int32{o.exit}, ctx)
		o.dec = &decision{guards: []guard{g}}
		t.report.decision(o, -1, g)
	}
}

func (t *translator) decideAlt(u *unit, o *occ, x *ir.Alt) *decision {
	n := u.n
	k := len(o.kids)
	eval := func(order []int) ([]guard, int) {
		gs := make([]guard, k)
		cost := 0
		for p := 0; p < k-1; p++ {
			var rest []int32
			for _, j := range order[p+1:] {
				rest = append(rest, o.kids[j].f.start)
			}
			gs[p] = t.bestGuard(u, o.kids[order[p]].f, rest, o.f.end)
			cost += gs[p].cost()
		}
		return gs, cost
	}
	doc := make([]int, k)
	for i := range doc {
		doc[i] = i
	}
	gs, cost := eval(doc)
	d := &decision{order: doc, guards: gs}
	if cost > 0 {
		if order, ok := t.prefixOrder(n, o); ok && !slices.Equal(order, doc) {
			gs2, cost2 := eval(order)
			if cost2 < cost {
				d = &decision{order: order, guards: gs2}
				t.report.reorder(o, order)
			}
		}
	}
	for p := range k - 1 {
		t.report.decision(o, d.order[p], d.guards[p])
	}
	t.report.orderMatters(u, o, d)
	return d
}

// prefixOrder returns an order of the choice's alternatives in which no
// alternative comes after another that has a string which is a proper prefix
// of one of its strings — first-match-wins then takes the longest — and
// whether such a reordering is allowed: only if the alternatives are
// pairwise disjoint in context, so that the order cannot change which
// alternative an input is attributed to.
func (t *translator) prefixOrder(n *fa.NFA, o *occ) ([]int, bool) {
	k := len(o.kids)
	for i := range k {
		for j := i + 1; j < k; j++ {
			if _, ok := overlap(n, []int32{o.kids[i].f.start}, []int32{o.kids[j].f.start}); ok {
				return nil, false
			}
		}
	}
	// before[j] lists the alternatives that must precede j.
	before := make([][]int, k)
	for i := range k {
		for j := range k {
			if i != j && prefixOf(n, o.kids[j].f, o.kids[i].f) {
				before[j] = append(before[j], i) // j's string is a prefix of i's: i first
			}
		}
	}
	// Kahn's algorithm, taking the earliest alternative in document order.
	var order []int
	done := make([]bool, k)
	for len(order) < k {
		picked := -1
		for j := range k {
			if done[j] {
				continue
			}
			ready := true
			for _, i := range before[j] {
				if !done[i] {
					ready = false
				}
			}
			if ready {
				picked = j
				break
			}
		}
		if picked < 0 {
			return nil, false // mutual prefixes: no order is longest-first
		}
		done[picked] = true
		order = append(order, picked)
	}
	return order, true
}

// bestGuard finds the cheapest guard that makes alternative p exact against
// the rest, given the state ctx where p's continuation starts.
func (t *translator) bestGuard(u *unit, p frag, rest []int32, ctx int32) guard {
	n := u.n
	// Cheap sufficient test: p cannot match the empty string and no input
	// the rest accepts begins with a character p can begin with.
	inP := func(s int32) bool { return p.has(s) }
	pc := n.Closure([]int32{p.start}, inP)
	if !fa.Contains(pc, p.end) && !n.First(pc).Intersects(n.First(n.Closure(rest, nil))) {
		return guard{}
	}
	cex, found, gave := check(n, p, rest, guardSpec{}, u.approx)
	if !found && !gave {
		return guard{}
	}
	cc := n.Closure([]int32{ctx}, nil)
	g := guardSpec{on: n.First(cc), eof: fa.Contains(cc, n.Accept)}
	cex2, found2, gave2 := check(n, p, rest, g, u.approx)
	if !found2 && !gave2 {
		return guard{kind: guardFirst, first: n.Set(g.on), eof: g.eof, why: cex, gaveUp: gave}
	}
	if u.approx {
		return guard{kind: guardUnproven, why: cex2, gaveUp: gave2}
	}
	return guard{kind: guardExact, exact: t.exactGuard(n, ctx), why: cex2, gaveUp: gave2}
}

// exactGuard returns the guard rule recognizing, to the end of input, what
// may follow state ctx.
func (t *translator) exactGuard(n *fa.NFA, ctx int32) string {
	d, err := fa.Determinize(n, []int32{ctx}, 1<<16)
	if err != nil {
		panic(fmt.Sprintf("peg: exact guard: %v", err)) // regular languages of this size never get here
	}
	d = d.Minimize()
	k := d.Key()
	if g, ok := t.guards[k]; ok {
		g.uses++
		return g.ident
	}
	g := &guardRule{ident: t.alloc(fmt.Sprintf("G%d", len(t.gorder)+1)), dfa: d, uses: 1}
	t.guards[k] = g
	t.gorder = append(t.gorder, g)
	return g.ident
}

// text emits the PEG expression of occurrence o.
func (t *translator) text(o *occ) string {
	switch x := o.x.(type) {
	case *ir.Set:
		return class(x.Set)
	case *ir.Empty:
		return `""`
	case *ir.Seq:
		return t.seqText(x.Items, func(i int) string { return t.text(o.kids[i]) })
	case *ir.Alt:
		parts := make([]string, len(o.kids))
		for p, i := range o.dec.order {
			parts[p] = t.text(o.kids[i])
			if _, ok := o.kids[i].x.(*ir.Alt); ok {
				parts[p] = "(" + parts[p] + ")" // never flat: the guard and the order are the group's
			}
			if g := o.dec.guards[p].text(); g != "" {
				parts[p] += " " + g
			}
		}
		return joinAlts(parts)
	case *ir.Rep:
		return repText(t.text(o.kids[0]), x, o.kids[0].x, o.dec.guards[0].text())
	case *ir.Ref:
		if o.cut {
			return t.unitRef(x.Rule)
		}
		return t.intern(x.Rule, t.text(o.kids[0]), "")
	}
	panic(fmt.Sprintf("peg: unknown expression %T", o.x))
}

// seqText joins the items of a sequence, merging runs of single characters
// into one literal ("//" rather than "/" "/") and parenthesizing choices.
func (t *translator) seqText(items []ir.Expr, text func(int) string) string {
	var parts []string
	var lit []rune
	flush := func() {
		if len(lit) > 0 {
			parts = append(parts, quoteLit(string(lit)))
			lit = nil
		}
	}
	for i, y := range items {
		if s, ok := y.(*ir.Set); ok {
			if c, ok := s.Set.Single(); ok {
				lit = append(lit, c)
				continue
			}
		}
		flush()
		p := text(i)
		if _, ok := y.(*ir.Alt); ok {
			p = "(" + p + ")"
		}
		parts = append(parts, p)
	}
	flush()
	return strings.Join(parts, " ")
}

func joinAlts(parts []string) string { return strings.Join(parts, " / ") }

func quoteLit(s string) string {
	q := fmt.Sprintf("%+q", s) // ASCII-only Go literal
	return q
}

func repText(body string, x *ir.Rep, bodyX ir.Expr, guard string) string {
	op := "+"
	switch {
	case x.Max == 1:
		op = "?"
	case x.Min == 0:
		op = "*"
	}
	if _, ok := bodyX.(*ir.Alt); ok {
		body = "(" + body + ")"
	}
	if guard != "" {
		return "(" + body + " " + guard + ")" + op
	}
	if _, ok := bodyX.(*ir.Seq); ok {
		body = "(" + body + ")"
	}
	return body + op
}

// srcPos is the ABNF position of an occurrence, for reports.
func srcPos(o *occ) abnf.Pos {
	switch x := o.x.(type) {
	case *ir.Alt:
		if x.Src != nil {
			return x.Src.Pos
		}
	case *ir.Rep:
		if x.Src != nil {
			return x.Src.Pos
		}
	}
	return o.owner.ABNF.Pos
}

package peg

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/internal/fa"
	"github.com/peguri/rfc3986/gen/internal/ir"
	"github.com/peguri/rfc3986/gen/internal/work"
)

// occ is one occurrence of an expression in the inlined start rule: the
// same IR node appears once per context.
type occ struct {
	x     ir.Expr
	owner *ir.Rule // the rule whose body holds x
	kids  []*occ
	f     frag
	head  int32 // Rep: the state where the loop decides (iterate or leave)
	exit  int32 // Rep: the state after the repetition
	cut   bool  // Ref translated on its own, its language approximated (modular.go)
	copy  *sccCopy
	back  bool // Ref from inside copy to a rule of the same component
	dec   *decision
}

// sccCopy is one copy of a recursive component in an inlined unit, made
// for one reference from outside it: each of its rules has an entry and an
// exit state, a reference between its rules is a jump to the callee's
// entry, and the callee's exit jumps back to every return point of that
// rule in the copy (ir/recursion.go). The copy is exact when the component
// is strongly regular (right recursion: every return point is a tail, so
// every rule of the copy has the one context of the outside reference); a
// self-embedding component's copy over-approximates, and its states are
// marked so (unit.approx).
type sccCopy struct {
	comp        *ir.Component
	entry, exit map[*ir.Rule]int32
	bodies      []*occ // per comp.Rules
	lo, hi      int32  // its states
	naming      bool
	names       map[*ir.Rule]string
}

// decision is how a choice or repetition is emitted in its context.
type decision struct {
	order  []int   // Alt: emission order of the alternatives
	guards []guard // Alt: per position in order (the last has none); Rep: one
}

type guard struct {
	first  fa.CharSet // one-character guard: these characters…
	eof    bool       // …or the end of input
	exact  string     // exact guard: the guard rule (set by commit)
	dfa    *fa.DFA    // exact guard: the minimal DFA of the context
	kind   int
	why    string // counterexample that made the guard necessary
	gaveUp bool
	// tooBig: a fallback only because the exact guard, the minimal DFA of
	// a context that is a regular language, would pass Options.MaxGuard.
	tooBig bool
	// modular: a fallback of the modular translation, whose context is
	// approximated by cutting references and merging contexts; cheap: one
	// of a unit whose checks passed their work budget, decided by the
	// cheap test alone (decideCheap). The report says so rather than
	// blaming recursion.
	modular, cheap bool
	item           int // fallback: the report item, which the marker names (set by commit)
}

const (
	guardNone = iota
	guardFirst
	guardExact
	guardFallback // nothing proven: the exact recognizer decides at parse time (fallback.go)
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
		return "&" + g.exact
	case guardFallback:
		return "&{" + canPrefix + strconv.Itoa(g.item) + "}"
	}
	return ""
}

func (g guard) cost() int { return [...]int{0, 1, 100, 1000}[g.kind] }

// unit is one NFA under analysis: a whole start rule, inlined, or one rule
// translated for all its contexts (modular.go).
type unit struct {
	n *fa.NFA
	// approx marks the states whose languages are over-approximated:
	// self-embedding components, cut references, contexts that are unions.
	// Paths through them never prove that an input is matched.
	approx   []bool
	isBorder []bool           // exact states with an ε-edge into approx ones
	border   func(int32) bool // isBorder, for fa.CoreClosure
	exactCtx map[int32]bool
	// modular: a unit of the modular translation (modular.go), whose
	// approximations are cut references and merged contexts, not
	// recursion: the report says which.
	modular bool
	budget  int // search steps left, for an inlined unit; 0 means no budget
	spent   int // search steps taken
	charged int // the NFA's Work already spent
}

// setBorder marks the exact states with an ε-edge into an
// over-approximated state (see check).
func (u *unit) setBorder() {
	u.isBorder = make([]bool, len(u.n.States))
	for s := range u.n.States {
		if u.approx[s] {
			continue
		}
		for _, t := range u.n.States[s].Eps {
			if u.approx[t] {
				u.isBorder[s] = true
				break
			}
		}
	}
	u.border = func(s int32) bool { return u.isBorder[s] }
}

// errBudget abandons an inlined unit whose checks take too long.
var errBudget = &limitError{"inlined unit: work budget exhausted"}

// charge spends a search step, and one for every state the NFA's
// closures visited and every transition its steps tried since the last
// charge: a step's cost grows with the automaton, and a budget counted in
// configurations alone let a large unit run for minutes.
func (u *unit) charge() {
	w := u.n.Work
	u.spend(1 + w - u.charged)
	u.charged = w
}

// spend takes n search steps from the unit's budget.
func (u *unit) spend(n int) {
	u.spent += n
	if u.budget == 0 {
		return
	}
	u.budget -= n
	if u.budget <= 0 {
		panic(errBudget)
	}
}

// decideWithin decides an inlined unit, and reports false if its budget
// ran out first.
func (t *translator) decideWithin(u *unit, root *occ) (ok bool) {
	defer func() {
		if e := recover(); e != nil {
			if e != errBudget {
				panic(e)
			}
			ok = false
		}
	}()
	t.decide(u, root)
	return true
}

// exactFrom reports whether no over-approximated state is reachable from
// s: the language from s is then exactly regular, and an exact guard can
// recognize it.
func (u *unit) exactFrom(s int32) bool {
	if v, ok := u.exactCtx[s]; ok {
		return v
	}
	seen := map[int32]bool{s: true}
	stack := []int32{s}
	ok := true
	for len(stack) > 0 && ok {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if u.approx[x] {
			ok = false
			break
		}
		st := &u.n.States[x]
		for _, y := range st.Eps {
			if !seen[y] {
				seen[y] = true
				stack = append(stack, y)
			}
		}
		for _, tr := range st.Trans {
			if !seen[tr.To] {
				seen[tr.To] = true
				stack = append(stack, tr.To)
			}
		}
	}
	if u.exactCtx == nil {
		u.exactCtx = map[int32]bool{}
	}
	u.exactCtx[s] = ok
	return ok
}

// buildCtx is the state of building one unit's NFA.
type buildCtx struct {
	modular bool                       // cut every reference (modular.go)
	active  map[*ir.Component]*sccCopy // the copies being built
	shared  map[*ir.Component]*sccCopy // the one copy of each self-embedding component
	approx  [][2]int32                 // over-approximated state ranges
}

func newUnit(b *fa.Builder, root *occ, ctx *buildCtx) *unit {
	start, accept := b.State(), b.State()
	b.Eps(start, root.f.start)
	b.Eps(root.f.end, accept)
	n := b.NFA(start, accept)
	u := &unit{n: n, approx: make([]bool, len(n.States))}
	for _, r := range ctx.approx {
		for s := r[0]; s < r[1]; s++ {
			u.approx[s] = true
		}
	}
	u.setBorder()
	return u
}

// stateCost is what inlining one NFA state costs, in search steps (about
// 10 ns each): measured on a chain of 5,000 rules, every one a start rule,
// building, checking and writing out an inlined state took 1.6 to 2 µs.
const stateCost = 200

// translateStart translates start rule s and returns its entry's body: the
// rule inlined into one NFA, every decision checked in its own context;
// or, if that NFA would pass the state limit, every rule translated on its
// own (modular.go).
func (t *translator) translateStart(s *ir.Rule) string {
	if t.workLeft <= 0 {
		// One warning for all of them (Translate): a grammar with 800
		// start rules would otherwise get 800 lines.
		t.overBudget = append(t.overBudget, s.Name)
		t.modular[s] = true
		return t.unitRef(s)
	}
	b := &fa.Builder{}
	ctx := &buildCtx{active: map[*ir.Component]*sccCopy{}, shared: map[*ir.Component]*sccCopy{}}
	root := t.build(b, &ir.Ref{Rule: s}, s, ctx)
	if root == nil {
		work.Add(int(b.Len())) // built, never made an NFA
		t.workLeft -= int(b.Len()) * stateCost
		t.report.warn("%s: its inlined NFA exceeds %d states; every rule it reaches is translated on its own, against the union of its contexts", s.Name, t.maxStates)
		t.modular[s] = true
		return t.unitRef(s)
	}
	// Building the NFA, its unit and its text costs about stateCost search
	// steps per state, charged to the total budget: every start rule is
	// inlined on its own, and a grammar whose every rule is a start rule
	// (a chain of 5,000 rules inlines 12.5 million states, 28 s) turns
	// modular once the budget is spent.
	t.workLeft -= int(b.Len()) * stateCost
	if t.workLeft <= 0 {
		t.overBudget = append(t.overBudget, s.Name)
		t.modular[s] = true
		return t.unitRef(s)
	}
	u := newUnit(b, root, ctx)
	u.budget = min(t.inlineWork, t.workLeft)
	ok := t.decideWithin(u, root)
	t.workLeft -= u.spent
	t.report.Work += u.spent
	if !ok {
		if u.spent >= t.inlineWork {
			t.report.warn("%s: checking its inlined decisions passes the work budget (%d search steps); every rule it reaches is translated on its own, against the union of its contexts", s.Name, t.inlineWork)
		} else {
			t.report.warn("%s: checking its inlined decisions passes what is left of the total work budget (%d search steps); every rule it reaches is translated on its own, against the union of its contexts", s.Name, t.totalWork)
		}
		t.modular[s] = true
		return t.unitRef(s)
	}
	u.budget = 0
	t.commit(u, root)
	return t.text(root)
}

// addCopies adds the copies of b to a, without repeats.
func addCopies(a []*sccCopy, b ...*sccCopy) []*sccCopy {
	for _, c := range b {
		if !slices.Contains(a, c) {
			a = append(a, c)
		}
	}
	return a
}

// build adds the fragment of x to the NFA and returns its occurrence tree,
// or nil if the NFA grows past the state limit.
func (t *translator) build(b *fa.Builder, x ir.Expr, owner *ir.Rule, ctx *buildCtx) *occ {
	if int(b.Len()) > t.maxStates {
		return nil
	}
	o := &occ{x: x, owner: owner}
	o.f.lo = b.Len()
	s := b.State()
	o.f.start = s
	kid := func(y ir.Expr, owner *ir.Rule) *occ {
		k := t.build(b, y, owner, ctx)
		if k != nil {
			o.kids = append(o.kids, k)
			o.f.extra = addCopies(o.f.extra, k.f.extra...)
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
		r := x.Rule
		c := t.comp[r]
		switch {
		case ctx.modular:
			// A superset of the rule's language that keeps its first
			// characters: FIRST(R) [Σ_R]*, or also empty if R can be.
			o.cut = true
			m, e := b.State(), b.State()
			b.Edge(s, m, r.First)
			b.Edge(m, m, t.chars[r])
			b.Eps(m, e)
			if r.Nullable {
				b.Eps(s, e)
			}
			o.f.end = e
			ctx.approx = append(ctx.approx, [2]int32{o.f.lo, b.Len()})
		case c != nil && (ctx.active[c] != nil || ctx.shared[c] != nil):
			// A reference back into the copy being built, or into the one
			// copy of a self-embedding component: its decisions are checked
			// against the over-approximation whatever the context, so one
			// copy serves every reference.
			cp := ctx.active[c]
			if cp == nil {
				cp = ctx.shared[c]
			}
			e := b.State()
			b.Eps(s, cp.entry[r])
			b.Eps(cp.exit[r], e)
			o.copy, o.back = cp, true
			o.f.extra = addCopies(o.f.extra, cp)
			o.f.end = e
		case c != nil:
			cp := &sccCopy{comp: c, entry: map[*ir.Rule]int32{}, exit: map[*ir.Rule]int32{}, lo: b.Len()}
			for _, q := range c.Rules {
				cp.entry[q], cp.exit[q] = b.State(), b.State()
			}
			ctx.active[c] = cp
			for _, q := range c.Rules {
				k := kid(q.Body, q)
				if k == nil {
					return nil
				}
				b.Eps(cp.entry[q], k.f.start)
				b.Eps(k.f.end, cp.exit[q])
				cp.bodies = append(cp.bodies, k)
			}
			delete(ctx.active, c)
			cp.hi = b.Len()
			if c.SelfEmbedding || c.Left {
				ctx.approx = append(ctx.approx, [2]int32{cp.lo, cp.hi})
				ctx.shared[c] = cp
			}
			e := b.State()
			b.Eps(s, cp.entry[r])
			b.Eps(cp.exit[r], e)
			o.copy = cp
			o.f.end = e
		default:
			k := kid(r.Body, r)
			if k == nil {
				return nil
			}
			e := b.State()
			b.Eps(s, k.f.start)
			b.Eps(k.f.end, e)
			o.f.end = e
		}
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
		o.dec = t.decideAlt(u, o)
	case *ir.Rep:
		body := o.kids[0]
		ctx := o.head
		if x.Max == 1 {
			ctx = o.exit
		}
		g := t.bestGuard(u, body.f, []int32{o.exit}, ctx)
		o.dec = &decision{guards: []guard{g}}
	}
}

func (t *translator) decideAlt(u *unit, o *occ) *decision {
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
		if order, ok := t.prefixOrder(u, o); ok && !slices.Equal(order, doc) {
			gs2, cost2 := eval(order)
			if cost2 < cost {
				d = &decision{order: order, guards: gs2}
			}
		}
	}
	return d
}

// orderMattersWithin records whether the order of choice o matters
// (report only), within a work budget of its own: past it, the report says
// the question was left open, and the translation goes on.
func (t *translator) orderMattersWithin(u *unit, o *occ) {
	saved := u.budget
	u.budget = t.inlineWork
	defer func() {
		u.budget = saved
		if e := recover(); e != nil {
			if e != errBudget {
				panic(e)
			}
			t.report.warn("%s (%s): whether the order of its alternatives matters was not decided within the work budget (%d search steps, -inline-work sets it); the report lists no overlap for it", o.owner.Name, srcPos(o), t.inlineWork)
		}
	}()
	t.report.orderMatters(u, o, o.dec)
}

// commit records the decisions below o in the report and emits the exact
// guards they use. Deciding has no effect until then, so that an inlined
// translation abandoned for the modular one leaves nothing behind.
func (t *translator) commit(u *unit, o *occ) {
	for _, k := range o.kids {
		t.commit(u, k)
	}
	if o.dec == nil {
		return
	}
	for i := range o.dec.guards {
		if g := &o.dec.guards[i]; g.kind == guardExact && g.exact == "" {
			g.exact = t.exactGuard(g.dfa)
		}
	}
	switch o.x.(type) {
	case *ir.Alt:
		if !slices.IsSorted(o.dec.order) {
			t.report.reorder(o, o.dec.order)
		}
		for p := range len(o.kids) - 1 {
			o.dec.guards[p].item = t.report.decision(o, o.dec.order[p], o.dec.guards[p])
		}
		t.orderMattersWithin(u, o)
	case *ir.Rep:
		o.dec.guards[0].item = t.report.decision(o, -1, o.dec.guards[0])
	}
}

// prefixOrder returns an order of the choice's alternatives in which no
// alternative comes after another that has a string which is a proper prefix
// of one of its strings — first-match-wins then takes the longest — and
// whether such a reordering is allowed: only if every pair of alternatives
// whose order it swaps is disjoint in context. An input matched by several
// alternatives is then attributed to the same one (the first of them in
// document order precedes the others in the new order too), so the
// reordering cannot change the parse tree.
func (t *translator) prefixOrder(u *unit, o *occ) ([]int, bool) {
	k := len(o.kids)
	// before[j] lists the alternatives that must precede j.
	before := make([][]int, k)
	for i := range k {
		for j := range k {
			if i != j && prefixOf(u, o.kids[j].f, o.kids[i].f) {
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
	for p := range k {
		for q := p + 1; q < k; q++ {
			if order[p] < order[q] {
				continue // kept in document order
			}
			if _, ok := overlap(u, []int32{o.kids[order[q]].f.start}, []int32{o.kids[order[p]].f.start}); ok {
				return nil, false
			}
		}
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
	cex, found, gave := check(u, p, rest, guardSpec{})
	if !found && !gave {
		return guard{}
	}
	cc := n.Closure([]int32{ctx}, nil)
	g := guardSpec{on: n.First(cc), eof: fa.Contains(cc, n.Accept)}
	cex2, found2, gave2 := check(u, p, rest, g)
	if !found2 && !gave2 {
		return guard{kind: guardFirst, first: n.Set(g.on), eof: g.eof, why: cex, gaveUp: gave}
	}
	if u.exactFrom(ctx) {
		// The guard: what may follow ctx, to the end of input, as a minimal
		// DFA — unless it would pass the guard state limit, and the
		// decision falls back to the exact recognizer instead.
		d, err := fa.Determinize(n, []int32{ctx}, t.maxGuard)
		if err == nil {
			return guard{kind: guardExact, dfa: d.Minimize(), why: cex2, gaveUp: gave2}
		}
		return guard{kind: guardFallback, why: cex2, gaveUp: gave2, tooBig: errors.Is(err, fa.ErrTooBig)}
	}
	return guard{kind: guardFallback, why: cex2, gaveUp: gave2, modular: u.modular}
}

// exactGuard returns the guard rule recognizing the language of d, a
// minimal DFA; guards with the same language are one rule.
func (t *translator) exactGuard(d *fa.DFA) string {
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
		switch {
		case o.cut:
			return t.unitRef(x.Rule)
		case o.copy != nil:
			return t.copyRef(o.copy, x.Rule)
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
	// A repetition of a repetition needs its parentheses too: pigeon's
	// grammar has no "x+*" (the body of "[ 1*SP ]").
	switch bodyX.(type) {
	case *ir.Alt, *ir.Rep:
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

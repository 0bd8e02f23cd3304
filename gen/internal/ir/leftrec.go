package ir

import (
	"container/heap"
	"fmt"
	"sort"

	"github.com/peguri/rfc3986/abnf"
)

// Left recursion. A PEG cannot call a rule again before it has consumed
// input, so a left-recursive set of rules N (rules that reach each other
// without consuming input) is rewritten into iteration, keeping the
// language. Each body is split into its derivations that begin with a rule
// of N and the rest:
//
//	A_i = ∪_j A_j·R_ji ∪ S_i
//
// where R_ji is what follows A_j at the left of A_i's body and S_i ("the
// seed") holds the derivations that do not begin with a rule of N. Reading
// the R_ji as the edges of a graph on N, every derivation of A_i is a seed
// S_j followed by a path from j to i:
//
//	A_i = ∪_j S_j·T_ji,   T_ji the paths from j to i (ε when j = i)
//
// T is computed with Kleene's algorithm. For direct left recursion, A = A α /
// β, this is the textbook A = β *α.
//
// The parse tree keeps the grammar's shape: the seed S_j and each edge R_ji
// are rules of their own (Left says which), and the generated parser folds
// them back into the left-nested nodes the grammar describes: the node of
// A_j for the seed, then for each edge a node of A_i around the node so far
// and the edge's own.

// LeftRec marks a rule made by rewriting left recursion.
type LeftRec struct {
	Seed bool // the seed S_j of Target; otherwise an edge ending in Target
	// Path marks a rule that only groups seeds, edges and other paths
	// toward Target, to keep the rewriting's size linear: it is never a
	// node of the parse tree.
	Path   bool
	Target *Rule // the left-recursive rule whose node this builds
}

// maxLeftRec bounds the size of the rewritten bodies of one left-recursive
// set: Kleene's algorithm can square expression sizes at each rule.
const maxLeftRec = 1 << 16

// leftRecursion rewrites every left-recursive set of rules.
func (l *lowerer) leftRecursion() error {
	comps := l.leftComponents()
	for _, c := range comps {
		if err := l.rewriteLeft(c); err != nil {
			return err
		}
	}
	l.derive()
	if again := l.leftComponents(); len(again) > 0 {
		r := again[0][0]
		return fmt.Errorf("%s: left recursion through %s that gen cannot rewrite: a rule of it can match the empty string before the recursion", r.ABNF.Pos, names(again[0]))
	}
	return nil
}

func names(rs []*Rule) string {
	s := ""
	for i, r := range rs {
		if i > 0 {
			s += ", "
		}
		s += r.Name
	}
	return s
}

// leftComponents returns the sets of rules that call each other, or
// themselves, before consuming input, each in grammar order.
func (l *lowerer) leftComponents() [][]*Rule {
	g := l.g
	l.nullableFix()
	edges := map[*Rule][]*Rule{}
	for _, r := range g.Rules {
		seen := map[*Rule]bool{}
		leftRefs(r.Body, func(t *Rule) {
			if !seen[t] {
				seen[t] = true
				edges[r] = append(edges[r], t)
			}
		})
	}
	index := map[*Rule]int{}
	for i, r := range g.Rules {
		index[r] = i
	}
	num, low := map[*Rule]int{}, map[*Rule]int{}
	on := map[*Rule]bool{}
	var stack []*Rule
	var out [][]*Rule
	n := 0
	var strong func(v *Rule)
	strong = func(v *Rule) {
		num[v], low[v] = n, n
		n++
		stack = append(stack, v)
		on[v] = true
		for _, w := range edges[v] {
			if _, ok := num[w]; !ok {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], num[w])
			}
		}
		if low[v] != num[v] {
			return
		}
		var comp []*Rule
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			on[w] = false
			comp = append(comp, w)
			if w == v {
				break
			}
		}
		self := false
		for _, w := range edges[v] {
			self = self || w == v
		}
		if len(comp) > 1 || self {
			sort.Slice(comp, func(i, j int) bool { return index[comp[i]] < index[comp[j]] })
			out = append(out, comp)
		}
	}
	for _, r := range g.Rules {
		if _, ok := num[r]; !ok {
			strong(r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return index[out[i][0]] < index[out[j][0]] })
	return out
}

// nullableFix recomputes the rules' nullability from their lowered bodies.
func (l *lowerer) nullableFix() {
	for changed := true; changed; {
		changed = false
		for _, r := range l.g.Rules {
			if n := Nullable(r.Body); n != r.Nullable {
				r.Nullable, changed = n, true
			}
		}
	}
}

// leftRefs calls f for each rule x can call before consuming input.
func leftRefs(x Expr, f func(*Rule)) {
	switch x := x.(type) {
	case *Ref:
		f(x.Rule)
	case *Seq:
		for _, y := range x.Items {
			leftRefs(y, f)
			if !Nullable(y) {
				return
			}
		}
	case *Alt:
		for _, y := range x.Alts {
			leftRefs(y, f)
		}
	case *Rep:
		leftRefs(x.Body, f)
	}
}

// split decomposes x into the derivations that begin with a rule of the set
// (by rule: what follows it) and the others (nil: none).
func (l *lowerer) split(x Expr, in map[*Rule]bool) (map[*Rule][]Expr, Expr) {
	switch x := x.(type) {
	case *Ref:
		if in[x.Rule] {
			return map[*Rule][]Expr{x.Rule: {&Empty{}}}, nil
		}
		return nil, x
	case *Alt:
		lefts := map[*Rule][]Expr{}
		var rest []Expr
		for _, y := range x.Alts {
			ly, ry := l.split(y, in)
			for r, e := range ly {
				lefts[r] = append(lefts[r], e...)
			}
			if ry != nil {
				rest = append(rest, ry)
			}
		}
		return lefts, altOrNil(rest, x.Src)
	case *Seq:
		head, tail := x.Items[0], seq(x.Items[1:])
		lh, rh := l.split(head, in)
		lefts := map[*Rule][]Expr{}
		for r, es := range lh {
			for _, e := range es {
				lefts[r] = append(lefts[r], seq([]Expr{e, tail}))
			}
		}
		var rest []Expr
		if !Nullable(head) {
			if rh != nil {
				rest = append(rest, seq([]Expr{rh, tail}))
			}
			return lefts, altOrNil(rest, nil)
		}
		// head can be empty: its non-empty strings, then the tail; or
		// nothing, and the tail's own decomposition.
		if rh != nil {
			if ne := l.nonEmpty(rh); ne != nil {
				rest = append(rest, seq([]Expr{ne, tail}))
			}
		}
		lt, rt := l.split(tail, in)
		for r, e := range lt {
			lefts[r] = append(lefts[r], e...)
		}
		if rt != nil {
			rest = append(rest, rt)
		}
		return lefts, altOrNil(rest, nil)
	case *Rep:
		// x? = ε / x; x* = ε / x x*; x+ = x x* (bodies never match only ε).
		lb, rb := l.split(x.Body, in)
		var loop Expr = &Empty{}
		if x.Max != 1 {
			loop = &Rep{Min: 0, Max: Inf, Body: x.Body, Src: x.Src}
		}
		lefts := map[*Rule][]Expr{}
		for r, es := range lb {
			for _, e := range es {
				lefts[r] = append(lefts[r], seq([]Expr{e, loop}))
			}
		}
		var rest []Expr
		if x.Min == 0 {
			rest = append(rest, &Empty{})
		}
		if rb != nil {
			rest = append(rest, seq([]Expr{rb, loop}))
		}
		return lefts, altOrNil(rest, nil)
	}
	return nil, x
}

func altOrNil(alts []Expr, src *abnf.Alt) Expr {
	if len(alts) == 0 {
		return nil
	}
	return alt(alts, src)
}

// rewriteLeft rewrites one left-recursive set of rules into a grammar
// whose size is linear in the set's, with shallow bodies (pigeon takes time
// exponential in the nesting of groups: see docs/gen.md).
//
// Solving the equations by Kleene's algorithm over every rule of the set
// squares expression sizes at each rule: the eight rules of an expression
// grammar with postfix operators (member access, calls, indexing on a
// primary that is itself an expression) gave single PEG rules of 240 KB,
// groups nested 15 deep, and pigeon ran past ten minutes. Instead:
//
//   - The graph of left calls (A_i = A_j·R_ji) is cut by a set of hubs: rules
//     without which it has no cycle but self-loops. A rule that is no hub
//     keeps its own equation, A_i = (S_i ∪ ∪_j A_j·R_ji)·R_ii*, whose A_j are
//     references to rules (hubs, or rules before it in the cut graph's
//     order) that no longer begin with the recursion: the ABNF's own shape.
//   - A path from a rule v through rules that are no hubs to hub b is a rule
//     of its own, v-to-b = R_vv*·(R_vb ∪ ∪_w R_vw·w-to-b): one per rule and
//     hub, each as long as the rule's edges.
//   - The hubs' equations, A_b = E_b ∪ ∪_a A_a·P_ab with P_ab the paths from
//     hub a to hub b and E_b the seeds that reach b, are solved by Kleene's
//     algorithm on the hubs alone, every coefficient a rule of its own. A
//     single hub h gives A_h = E_h·P_hh*: e = p ("+" p)*, the textbook
//     iteration.
//
// The seeds and edges are rules (Left says which), so that the generated
// parser folds the iteration back into the left-nested nodes the grammar
// describes; the paths and coefficients are rules left out of the tree.
func (l *lowerer) rewriteLeft(comp []*Rule) error {
	in := map[*Rule]bool{}
	pos := map[*Rule]int{}
	for i, r := range comp {
		in[r], pos[r] = true, i
	}
	k := len(comp)
	seeds := make([]Expr, k)
	edges := make([]map[int]Expr, k) // edges[j][i]: R_ji
	for i := range edges {
		edges[i] = map[int]Expr{}
	}
	for i, r := range comp {
		lefts, rest := l.split(r.Body, in)
		seeds[i] = rest
		for t, es := range lefts {
			e := alt(es, nil)
			if t == r {
				// A = A x adds nothing when x is empty.
				e = l.nonEmpty(e)
				if e == nil {
					continue
				}
			}
			edges[pos[t]][i] = e
		}
	}
	tree := true
	for _, r := range comp {
		tree = tree && r.Capture
	}
	size := 0
	rule := func(name string, body Expr, left *LeftRec, capture bool) Expr {
		size += exprSize(body)
		t := left.Target
		h := &Rule{Name: name, ABNF: t.ABNF, Body: body, Capture: capture, Left: left, Nullable: Nullable(body), state: 2}
		l.g.Rules = append(l.g.Rules, h)
		return &Ref{Rule: h}
	}
	seedRef := make([]Expr, k)
	for j, r := range comp {
		if seeds[j] != nil {
			seedRef[j] = rule(r.Name+"-seed", seeds[j], &LeftRec{Seed: true, Target: r}, tree)
		}
	}
	// step[j][i]: the rule of edge R_ji; succ[j]: the i with an edge, in
	// order.
	step := make([]map[int]Expr, k)
	succ, pred := make([][]int, k), make([][]int, k)
	for j := range comp {
		step[j] = map[int]Expr{}
		for i := range edges[j] {
			succ[j] = append(succ[j], i)
		}
		sort.Ints(succ[j])
		for _, i := range succ[j] {
			step[j][i] = rule(comp[i].Name+"-step", edges[j][i], &LeftRec{Target: comp[i]}, tree)
			pred[i] = append(pred[i], j)
		}
	}
	loop := func(i int) Expr { // R_ii*, or nil
		st, ok := step[i][i]
		if !ok {
			return nil
		}
		ne := l.nonEmpty(st)
		if ne == nil {
			return nil
		}
		return &Rep{Min: 0, Max: Inf, Body: ne}
	}
	then := func(items ...Expr) Expr {
		var kept []Expr
		for _, x := range items {
			if x != nil {
				kept = append(kept, x)
			}
		}
		return seq(kept)
	}

	hub := leftHubs(succ)
	if len(hub) > maxHubs {
		return fmt.Errorf("%s: the left recursion of %s needs %d rules to cut its cycles, more than %d: its rewriting would be cubic in their number", comp[0].ABNF.Pos, names(comp), len(hub), maxHubs)
	}
	isHub := make([]bool, k)
	for _, h := range hub {
		isHub[h] = true
	}
	// The rules that are no hubs, in an order where every edge between
	// two of them goes forward: the graph without the hubs is acyclic.
	order := leftOrder(succ, isHub)

	// to[b][v]: the paths from rule v, through rules that are no hubs, to
	// hub b, ending with the edge into b (nil: none).
	to := make([][]Expr, k)
	for _, b := range hub {
		to[b] = make([]Expr, k)
		for n := len(order) - 1; n >= 0; n-- {
			v := order[n]
			var alts []Expr
			for _, w := range succ[v] {
				switch {
				case w == b:
					alts = append(alts, step[v][w])
				case !isHub[w] && w != v && to[b][w] != nil:
					alts = append(alts, then(step[v][w], to[b][w]))
				}
			}
			if len(alts) == 0 {
				continue
			}
			body := then(loop(v), alt(alts, nil))
			if _, ok := body.(*Ref); ok {
				to[b][v] = body // one edge: no rule needed
				continue
			}
			to[b][v] = rule(comp[v].Name+"-to-"+comp[b].Name, body, &LeftRec{Target: comp[b], Path: true}, false)
		}
	}

	// The hubs' equations: X_b = ∪_j S_j·seed[j] ∪ ∪_a X_a·vars[a], over
	// hub positions, solved by elimination (Arden's lemma: X = A ∪ X·B with
	// B not matching ε gives X = A·B*), then back-substitution, every
	// coefficient made a rule once it is more than a reference.
	m := len(hub)
	type eq struct{ seed, vars map[int]Expr }
	eqs := make([]eq, m)
	named := func(e Expr, b int) Expr {
		if e == nil || exprSize(e) <= 4 {
			return e // a reference, or a loop or pair of them
		}
		return rule(comp[hub[b]].Name+"-path", e, &LeftRec{Target: comp[hub[b]], Path: true}, false)
	}
	for x, b := range hub {
		eqs[x] = eq{seed: map[int]Expr{}, vars: map[int]Expr{}}
		for j := range k {
			switch {
			case seedRef[j] == nil:
			case j == b:
				eqs[x].seed[j] = &Empty{}
			case !isHub[j] && to[b][j] != nil:
				eqs[x].seed[j] = to[b][j]
			}
		}
		for y, a := range hub {
			var alts []Expr
			for _, w := range succ[a] {
				switch {
				case w == b:
					alts = append(alts, step[a][w])
				case !isHub[w] && to[b][w] != nil:
					alts = append(alts, then(step[a][w], to[b][w]))
				}
			}
			if len(alts) > 0 {
				eqs[x].vars[y] = named(alt(alts, nil), x)
			}
		}
	}
	union := func(mp map[int]Expr, j int, e Expr, b int) {
		if old, ok := mp[j]; ok {
			mp[j] = named(alt([]Expr{old, e}, nil), b)
		} else {
			mp[j] = e
		}
	}
	solve := func(v int) {
		self, ok := eqs[v].vars[v]
		if !ok {
			return
		}
		delete(eqs[v].vars, v)
		// B* is nn(B)*: the empty string adds nothing to a loop (and would
		// make a PEG loop forever).
		ne := l.nonEmpty(self)
		if ne == nil {
			return
		}
		lp := &Rep{Min: 0, Max: Inf, Body: ne}
		for j, c := range eqs[v].seed {
			eqs[v].seed[j] = named(then(c, lp), v)
		}
		for j, c := range eqs[v].vars {
			eqs[v].vars[j] = named(then(c, lp), v)
		}
	}
	subst := func(v, into int) {
		c, ok := eqs[into].vars[v]
		if !ok {
			return
		}
		delete(eqs[into].vars, v)
		for j, d := range eqs[v].seed {
			union(eqs[into].seed, j, named(then(d, c), into), into)
		}
		for j, d := range eqs[v].vars {
			union(eqs[into].vars, j, named(then(d, c), into), into)
		}
	}
	for v := range m {
		solve(v)
		for i := v + 1; i < m; i++ {
			subst(v, i)
		}
	}
	for v := m - 1; v >= 0; v-- {
		for i := v - 1; i >= 0; i-- {
			subst(v, i)
			solve(i)
		}
	}
	if size > maxLeftRec {
		return fmt.Errorf("%s: rewriting the left recursion of %s makes bodies larger than %d nodes", comp[0].ABNF.Pos, names(comp), maxLeftRec)
	}

	for x, b := range hub {
		var alts []Expr
		for j := range k {
			if c, ok := eqs[x].seed[j]; ok {
				alts = append(alts, then(seedRef[j], c))
			}
		}
		l.setLeftBody(comp[b], alts, tree, comp)
	}
	for _, i := range order {
		var alts []Expr
		if seedRef[i] != nil {
			alts = append(alts, seedRef[i])
		}
		for _, j := range pred[i] { // in order
			if j != i {
				alts = append(alts, then(&Ref{Rule: comp[j]}, step[j][i]))
			}
		}
		if lp := loop(i); lp != nil && len(alts) > 0 {
			alts = []Expr{then(alt(alts, nil), lp)}
		}
		l.setLeftBody(comp[i], alts, tree, comp)
	}
	return nil
}

// setLeftBody gives rule r of a rewritten left-recursive set its body.
func (l *lowerer) setLeftBody(r *Rule, alts []Expr, tree bool, comp []*Rule) {
	if len(alts) == 0 {
		r.Body = &Set{} // derives nothing: Check reports it
	} else {
		r.Body = alt(alts, nil)
	}
	r.Fold = tree
	l.note(r, r.ABNF.Pos, "left-recursion", "%s is left-recursive (with %s): rewritten as its seeds followed by iterations, %s; the parse tree is folded back into left-nested %s nodes", r.Name, names(comp), shortFormat(r.Body), r.Name)
}

// maxHubs bounds the rules that cut the cycles of one left-recursive
// set: their equations are solved by elimination, in time and size cubic
// in their number. Grammars have one or two.
const maxHubs = 64

// leftHubs returns a set of vertices of the graph (succ: each vertex's
// successors, self-loops included and ignored) without which it has no
// cycle, greedily: vertices on no cycle are peeled off (no edge in or none
// out among the vertices left), then the vertex with the most paths
// through it (in-degree × out-degree; the first, on a tie) becomes a hub,
// until none is left. Few hubs mean few path rules.
func leftHubs(succ [][]int) []int {
	n := len(succ)
	pred := make([][]int, n)
	in, out := make([]int, n), make([]int, n)
	for j, is := range succ {
		for _, i := range is {
			if i != j {
				pred[i] = append(pred[i], j)
				in[i]++
				out[j]++
			}
		}
	}
	alive := make([]bool, n)
	var queue []int
	for v := range n {
		alive[v] = true
		queue = append(queue, v)
	}
	remove := func(v int) {
		alive[v] = false
		for _, i := range succ[v] {
			if i != v && alive[i] {
				in[i]--
				queue = append(queue, i)
			}
		}
		for _, j := range pred[v] {
			if alive[j] {
				out[j]--
				queue = append(queue, j)
			}
		}
	}
	var hubs []int
	for {
		for len(queue) > 0 {
			v := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			if alive[v] && (in[v] == 0 || out[v] == 0) {
				remove(v)
			}
		}
		best, score := -1, -1
		for v := range n {
			if alive[v] && in[v]*out[v] > score {
				best, score = v, in[v]*out[v]
			}
		}
		if best < 0 {
			sort.Ints(hubs)
			return hubs
		}
		hubs = append(hubs, best)
		remove(best)
	}
}

// leftOrder returns the vertices that are no hubs in an order in which
// every edge between two of them goes forward (the graph without the hubs
// is acyclic), the lower index first where the order is free.
func leftOrder(succ [][]int, isHub []bool) []int {
	n := len(succ)
	indeg := make([]int, n)
	for j, is := range succ {
		for _, i := range is {
			if i != j && !isHub[j] && !isHub[i] {
				indeg[i]++
			}
		}
	}
	ready := &intHeap{}
	for v := range n {
		if !isHub[v] && indeg[v] == 0 {
			heap.Push(ready, v)
		}
	}
	var order []int
	for ready.Len() > 0 {
		v := heap.Pop(ready).(int)
		order = append(order, v)
		for _, i := range succ[v] {
			if i != v && !isHub[i] {
				if indeg[i]--; indeg[i] == 0 {
					heap.Push(ready, i)
				}
			}
		}
	}
	return order
}

type intHeap []int

func (h intHeap) Len() int           { return len(h) }
func (h intHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h intHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *intHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *intHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func exprSize(e Expr) int {
	switch e := e.(type) {
	case *Seq:
		n := 1
		for _, x := range e.Items {
			n += exprSize(x)
		}
		return n
	case *Alt:
		n := 1
		for _, x := range e.Alts {
			n += exprSize(x)
		}
		return n
	case *Rep:
		return 1 + exprSize(e.Body)
	}
	return 1
}

package ir

import (
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
	Seed   bool  // the seed S_j of Target; otherwise an edge ending in Target
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

// rewriteLeft rewrites one left-recursive set of rules.
func (l *lowerer) rewriteLeft(comp []*Rule) error {
	in := map[*Rule]bool{}
	pos := map[*Rule]int{}
	for i, r := range comp {
		in[r], pos[r] = true, i
	}
	k := len(comp)
	seeds := make([]Expr, k)
	edges := make([][]Expr, k) // edges[j][i]: R_ji
	for i := range edges {
		edges[i] = make([]Expr, k)
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
	// One rule per seed and per edge, so that the parse tree can be
	// folded back into the grammar's shape.
	tree := true
	for _, r := range comp {
		tree = tree && r.Capture
	}
	mk := func(body Expr, left *LeftRec, suffix string) Expr {
		if !tree {
			return body
		}
		t := left.Target
		h := &Rule{Name: t.Name + suffix, ABNF: t.ABNF, Body: body, Capture: true, Left: left, Nullable: Nullable(body), state: 2}
		l.g.Rules = append(l.g.Rules, h)
		return &Ref{Rule: h}
	}
	seedRef := make([]Expr, k)
	for j, r := range comp {
		if seeds[j] != nil {
			seedRef[j] = mk(seeds[j], &LeftRec{Seed: true, Target: r}, "-seed")
		}
	}
	// Solve X_i = S_i ∪ ∪_j X_j·R_ji by elimination (Arden's lemma: X =
	// A ∪ X·B with B not matching ε gives X = A·B*), rule by rule, then
	// back-substitution. Each equation is kept as its seed coefficients
	// (S_j·c) and its unknown coefficients (X_j·c).
	type eq struct{ seed, vars map[int]Expr }
	eqs := make([]eq, k)
	for i := range k {
		eqs[i] = eq{seed: map[int]Expr{}, vars: map[int]Expr{}}
		if seedRef[i] != nil {
			eqs[i].seed[i] = &Empty{}
		}
		for j := range k {
			if edges[j][i] != nil {
				eqs[i].vars[j] = mk(edges[j][i], &LeftRec{Target: comp[i]}, "-step")
			}
		}
	}
	size := 0
	then := func(a, b Expr) Expr {
		x := seq([]Expr{a, b})
		size += exprSize(x)
		return x
	}
	union := func(m map[int]Expr, j int, e Expr) {
		if old, ok := m[j]; ok {
			m[j] = alt([]Expr{old, e}, nil)
		} else {
			m[j] = e
		}
	}
	solve := func(v int) {
		// Arden on X_v.
		if self, ok := eqs[v].vars[v]; ok {
			delete(eqs[v].vars, v)
			// X = A ∪ X·B is X = A·B*, and B* is nn(B)*: the empty
			// string adds nothing to a loop (and would make a PEG loop
			// forever).
			ne := l.nonEmpty(self)
			if ne == nil {
				return
			}
			loop := &Rep{Min: 0, Max: Inf, Body: ne}
			for j, c := range eqs[v].seed {
				eqs[v].seed[j] = then(c, loop)
			}
			for j, c := range eqs[v].vars {
				eqs[v].vars[j] = then(c, loop)
			}
		}
	}
	subst := func(v, into int) {
		c, ok := eqs[into].vars[v]
		if !ok {
			return
		}
		delete(eqs[into].vars, v)
		for j, d := range eqs[v].seed {
			union(eqs[into].seed, j, then(d, c))
		}
		for j, d := range eqs[v].vars {
			union(eqs[into].vars, j, then(d, c))
		}
	}
	for v := range k {
		solve(v)
		for i := v + 1; i < k; i++ {
			subst(v, i)
		}
		if size > maxLeftRec {
			return fmt.Errorf("%s: rewriting the left recursion of %s makes bodies larger than %d nodes", comp[0].ABNF.Pos, names(comp), maxLeftRec)
		}
	}
	for v := k - 1; v >= 0; v-- {
		for i := v - 1; i >= 0; i-- {
			subst(v, i)
			solve(i)
		}
		if size > maxLeftRec {
			return fmt.Errorf("%s: rewriting the left recursion of %s makes bodies larger than %d nodes", comp[0].ABNF.Pos, names(comp), maxLeftRec)
		}
	}
	for i, r := range comp {
		var alts []Expr
		for j := range k {
			c, ok := eqs[i].seed[j]
			if !ok {
				continue
			}
			alts = append(alts, seq([]Expr{seedRef[j], c}))
		}
		if len(alts) == 0 {
			r.Body = &Set{} // derives nothing: Check reports it
		} else {
			r.Body = alt(alts, nil)
		}
		r.Fold = tree
		l.note(r, r.ABNF.Pos, "left-recursion", "%s is left-recursive (with %s): rewritten as its seeds followed by iterations, %s; the parse tree is folded back into left-nested %s nodes", r.Name, names(comp), shortFormat(r.Body), r.Name)
	}
	return nil
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

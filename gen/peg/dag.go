package peg

import (
	"fmt"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/internal/fa"
	"github.com/peguri/rfc3986/gen/internal/ir"
)

// Lowered expressions are DAGs, not trees: gen/internal/ir writes a bounded
// repetition as copies of one shared body, so 2(2(…2("a" / "b")…)), 24
// levels and 86 bytes, is 24 nodes whose tree has 2^24 leaves. Every walk
// the translation makes before it builds automata (the characters a rule
// holds, its references, its follow sets) visits each node once, through
// the memos here; a walk of the tree took time doubling per level (190 s at
// 24 levels).

// dag holds the memos of one translation's walks.
type dag struct {
	first    map[ir.Expr]fa.CharSet
	nullable map[ir.Expr]bool
	sets     map[ir.Expr]fa.CharSet
	visits   int // nodes visited by the walks: work, for -stats and tests
}

func newDAG() *dag {
	return &dag{first: map[ir.Expr]fa.CharSet{}, nullable: map[ir.Expr]bool{}, sets: map[ir.Expr]fa.CharSet{}}
}

// isNullable is ir.Nullable, memoized.
func (d *dag) isNullable(x ir.Expr) bool {
	if v, ok := d.nullable[x]; ok {
		return v
	}
	d.visits++
	var v bool
	switch x := x.(type) {
	case *ir.Empty:
		v = true
	case *ir.Alt:
		for _, y := range x.Alts {
			if d.isNullable(y) {
				v = true
				break
			}
		}
	case *ir.Seq:
		v = true
		for _, y := range x.Items {
			if !d.isNullable(y) {
				v = false
				break
			}
		}
	case *ir.Rep:
		v = x.Min == 0 || d.isNullable(x.Body)
	case *ir.Ref:
		v = x.Rule.Nullable
	}
	d.nullable[x] = v
	return v
}

// firstOf is ir.First, memoized.
func (d *dag) firstOf(x ir.Expr) fa.CharSet {
	if v, ok := d.first[x]; ok {
		return v
	}
	d.visits++
	var v fa.CharSet
	switch x := x.(type) {
	case *ir.Set:
		v = x.Set
	case *ir.Alt:
		for _, y := range x.Alts {
			v = v.Union(d.firstOf(y))
		}
	case *ir.Seq:
		for _, y := range x.Items {
			v = v.Union(d.firstOf(y))
			if !d.isNullable(y) {
				break
			}
		}
	case *ir.Rep:
		v = d.firstOf(x.Body)
	case *ir.Ref:
		v = x.Rule.First
	}
	d.first[x] = v
	return v
}

// setsOf is the union of the character sets in x, not following
// references, memoized.
func (d *dag) setsOf(x ir.Expr) fa.CharSet {
	if v, ok := d.sets[x]; ok {
		return v
	}
	d.visits++
	var v fa.CharSet
	switch x := x.(type) {
	case *ir.Set:
		v = x.Set
	case *ir.Seq:
		for _, y := range x.Items {
			v = v.Union(d.setsOf(y))
		}
	case *ir.Alt:
		for _, y := range x.Alts {
			v = v.Union(d.setsOf(y))
		}
	case *ir.Rep:
		v = d.setsOf(x.Body)
	}
	d.sets[x] = v
	return v
}

// refs calls f for each rule x references, once per reference node.
func (d *dag) refs(x ir.Expr, f func(*ir.Rule)) {
	seen := map[ir.Expr]bool{}
	var walk func(x ir.Expr)
	walk = func(x ir.Expr) {
		if seen[x] {
			return
		}
		seen[x] = true
		d.visits++
		switch x := x.(type) {
		case *ir.Ref:
			f(x.Rule)
		case *ir.Seq:
			for _, y := range x.Items {
				walk(y)
			}
		case *ir.Alt:
			for _, y := range x.Alts {
				walk(y)
			}
		case *ir.Rep:
			walk(x.Body)
		}
	}
	walk(x)
}

// topo returns the nodes of x, each once, parents before children.
func (d *dag) topo(x ir.Expr) []ir.Expr {
	seen := map[ir.Expr]bool{}
	var post []ir.Expr
	var walk func(x ir.Expr)
	walk = func(x ir.Expr) {
		if seen[x] {
			return
		}
		seen[x] = true
		d.visits++
		switch x := x.(type) {
		case *ir.Seq:
			for _, y := range x.Items {
				walk(y)
			}
		case *ir.Alt:
			for _, y := range x.Alts {
				walk(y)
			}
		case *ir.Rep:
			walk(x.Body)
		}
		post = append(post, x)
	}
	walk(x)
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post
}

// follow adds to the follow set of each rule body references what can
// follow the reference, when fol follows the body, and calls changed with
// each rule whose set grew. What follows a node shared by several parents
// is the union of what follows it in each; follow sets distribute over
// that union, so the node's set is gathered from all of its parents (in
// topological order) before it is passed on, once.
func (t *translator) followBody(body ir.Expr, fol fset, changed func(*ir.Rule)) {
	d := t.dag
	acc := map[ir.Expr]fset{body: fol}
	add := func(x ir.Expr, f fset) {
		acc[x] = acc[x].union(f)
	}
	for _, x := range d.topo(body) {
		f := acc[x]
		d.visits++
		switch x := x.(type) {
		case *ir.Seq:
			rest := f // what follows item i: the items after it, up to the first that cannot be empty, then f
			for i := len(x.Items) - 1; i >= 0; i-- {
				add(x.Items[i], rest)
				y := x.Items[i]
				if d.isNullable(y) {
					rest = fset{set: d.firstOf(y)}.union(rest)
				} else {
					rest = fset{set: d.firstOf(y)}
				}
			}
		case *ir.Alt:
			for _, y := range x.Alts {
				add(y, f)
			}
		case *ir.Rep:
			if x.Max == 1 {
				add(x.Body, f)
			} else {
				add(x.Body, fset{set: d.firstOf(x.Body)}.union(f))
			}
		case *ir.Ref:
			old, ok := t.follow[x.Rule]
			nu := old.union(f)
			if !ok || !nu.set.Equal(old.set) || nu.eof != old.eof {
				t.follow[x.Rule] = nu
				changed(x.Rule)
			}
		}
	}
}

// treeStates returns about the number of NFA states build makes for x in a
// modular unit (every reference cut), saturating past limit: the size of
// the tree the DAG stands for, in O(nodes).
func (d *dag) treeStates(x ir.Expr, limit int, memo map[ir.Expr]int) int {
	if v, ok := memo[x]; ok {
		return v
	}
	d.visits++
	v := 3
	switch x := x.(type) {
	case *ir.Seq:
		for _, y := range x.Items {
			v += d.treeStates(y, limit, memo)
		}
	case *ir.Alt:
		for _, y := range x.Alts {
			v += d.treeStates(y, limit, memo)
		}
	case *ir.Rep:
		v += d.treeStates(x.Body, limit, memo)
	}
	v = min(v, limit+1)
	memo[x] = v
	return v
}

// tooLarge returns the error for a rule whose body alone, every reference
// cut, needs more than limit NFA states, naming the bounded repetition
// that makes it so where one does: the innermost whose copies alone pass
// the limit.
func (t *translator) tooLarge(r *ir.Rule, limit int) error {
	memo := map[ir.Expr]int{}
	if t.dag.treeStates(r.Body, limit, memo) <= limit {
		return nil
	}
	var culprit *abnf.Repeat
	for x := r.Body; x != nil; {
		var src *abnf.Repeat
		var kids []ir.Expr
		switch y := x.(type) {
		case *ir.Seq:
			src, kids = y.Src, y.Items
		case *ir.Alt:
			kids = y.Alts
		case *ir.Rep:
			kids = []ir.Expr{y.Body}
		}
		if src != nil {
			culprit = src
		}
		x = nil
		for _, k := range kids {
			if memo[k] > limit {
				x = k
				break
			}
		}
	}
	if culprit != nil {
		return &limitError{fmt.Sprintf("%s: %s: the repetition %s, written out, needs more than %d NFA states: bounded repetitions are written out as copies, and nested ones multiply; raise the limit with -max-states, or rewrite the repetition", culprit.Pos, r.Name, clipABNF(culprit), limit)}
	}
	return &limitError{fmt.Sprintf("%s: %s: its body alone needs more than %d NFA states (bounded repetitions expand into copies); raise the limit with -max-states", r.ABNF.Pos, r.Name, limit)}
}

// clipABNF prints an ABNF expression for a message, shortened.
func clipABNF(n abnf.Node) string {
	s := abnf.String(n)
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

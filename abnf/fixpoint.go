package abnf

import "slices"

// Least values over derivations (the shortest string of every rule, the
// least derivation height, the sampler's cheapest derivation) are the least
// fixpoint of equations on the grammar: an alternation takes the least of
// its alternatives, a concatenation combines its items, a reference takes
// its rule's value. Rounds of evaluation over every rule until nothing
// changes take as many rounds as the longest chain of rules, which is
// quadratic on a chain of 100,000 rules. Knuth's generalization of
// Dijkstra's algorithm ("A generalization of Dijkstra's algorithm",
// Information Processing Letters 6(1), 1977) settles every node in
// O(n log n) instead, for combinations that are monotone and superior —
// never less than any of their arguments — as sums of lengths and maxima of
// heights are.

// leastRules describes one such value.
type leastRules[T any] struct {
	less   func(a, b T) bool
	leaf   func(n Node) T          // *CharVal, *NumVal, *Prose
	empty  T                       // a repetition that may repeat zero times
	concat func(items []T) T       // a concatenation
	repeat func(min int, body T) T // a repetition of at least min ≥ 1
	rule   func(body T) T          // a rule, from its expression
}

// exprGraph is the grammar as least works on it: a vertex per rule, then a
// vertex per node of the rules' expressions, and the productions that
// relate them, in flat arrays (a grammar of 100,000 rules has half a
// million of each). It is built once per Analysis and solved once per
// value.
type exprGraph struct {
	index  map[Node]int // node → vertex
	prods  []prod
	args   []int32 // prods[i]'s arguments are args[prods[i].args:prods[i+1].args]
	leaves []Node  // the nodes of 'l' productions, by prod.min
	// Productions each vertex is an argument of, once per occurrence:
	// users[userAt[v]:userAt[v+1]].
	userAt []int32
	users  []int32
	nvert  int
}

type prod struct {
	head int32
	args int32 // start in exprGraph.args
	min  int32 // of a repetition; of a leaf, its index in leaves
	kind byte  // 'a' identity (alternative, reference), 'c' concatenation, 'r' repetition, 'R' rule, 'e' zero repetition, 'l' leaf
}

func newExprGraph(g *Grammar) *exprGraph {
	eg := &exprGraph{index: make(map[Node]int, 3*len(g.Rules)), nvert: len(g.Rules)}
	ruleIx := make(map[*Rule]int32, len(g.Rules))
	for i, r := range g.Rules {
		ruleIx[r] = int32(i)
	}
	add := func(head int32, kind byte, min int32, args ...int32) {
		eg.prods = append(eg.prods, prod{head: head, args: int32(len(eg.args)), min: min, kind: kind})
		eg.args = append(eg.args, args...)
	}
	// visit recurses on the nesting of one expression only, which the
	// reader bounds (Options.MaxNesting).
	var visit func(n Node) int32
	visit = func(n Node) int32 {
		if v, ok := eg.index[n]; ok {
			return int32(v) // a node reached twice is one vertex
		}
		v := int32(eg.nvert)
		eg.nvert++
		eg.index[n] = int(v)
		switch n := n.(type) {
		case *Alt:
			for _, x := range n.Alts {
				add(v, 'a', 0, visit(x))
			}
		case *Concat:
			args := make([]int32, len(n.Items))
			for i, x := range n.Items {
				args[i] = visit(x)
			}
			add(v, 'c', 0, args...)
		case *Repeat:
			b := visit(n.Body)
			if n.Min == 0 {
				add(v, 'e', 0)
			} else {
				add(v, 'r', int32(n.Min), b)
			}
		case *RuleRef:
			if r := g.Rule(n.Name); r != nil {
				add(v, 'a', 0, ruleIx[r])
			}
		default:
			eg.leaves = append(eg.leaves, n)
			add(v, 'l', int32(len(eg.leaves)-1))
		}
		return v
	}
	for i, r := range g.Rules {
		x := visit(r.Expr)
		add(int32(i), 'R', 0, x)
	}
	eg.prods = append(eg.prods, prod{args: int32(len(eg.args))}) // sentinel: the end of the last one's arguments
	eg.userAt = make([]int32, eg.nvert+1)
	for _, a := range eg.args {
		eg.userAt[a+1]++
	}
	for v := range eg.nvert {
		eg.userAt[v+1] += eg.userAt[v]
	}
	eg.users = make([]int32, len(eg.args))
	fill := slices.Clone(eg.userAt[:eg.nvert])
	for pi := range len(eg.prods) - 1 {
		for _, a := range eg.argsOf(pi) {
			eg.users[fill[a]] = int32(pi)
			fill[a]++
		}
	}
	return eg
}

func (eg *exprGraph) argsOf(pi int) []int32 {
	return eg.args[eg.prods[pi].args:eg.prods[pi+1].args]
}

// leastValue is the value of a vertex; ok is false where no finite
// derivation exists.
type leastValue[T any] struct {
	v  T
	ok bool
}

// least computes the least value of every vertex of eg: rules first, in
// grammar order, then nodes (eg.index).
func least[T any](eg *exprGraph, lr leastRules[T]) []leastValue[T] {
	n := eg.nvert
	value := make([]leastValue[T], n)
	final := make([]bool, n)
	np := len(eg.prods) - 1
	pending := make([]int32, np)
	h := &leastHeap[T]{less: lr.less}
	offer := func(v int32, x T) {
		if final[v] || value[v].ok && !lr.less(x, value[v].v) {
			return
		}
		value[v] = leastValue[T]{x, true}
		h.push(leastItem[T]{v, x})
	}
	var buf []T
	fire := func(pi int) {
		p := &eg.prods[pi]
		buf = buf[:0]
		for _, a := range eg.argsOf(pi) {
			buf = append(buf, value[a].v)
		}
		var x T
		switch p.kind {
		case 'a':
			x = buf[0]
		case 'c':
			x = lr.concat(buf)
		case 'r':
			x = lr.repeat(int(p.min), buf[0])
		case 'R':
			x = lr.rule(buf[0])
		case 'e':
			x = lr.empty
		case 'l':
			x = lr.leaf(eg.leaves[p.min])
		}
		offer(p.head, x)
	}
	for pi := range np {
		pending[pi] = int32(len(eg.argsOf(pi)))
		if pending[pi] == 0 {
			fire(pi)
		}
	}
	for h.Len() > 0 {
		it := h.pop()
		if final[it.v] || lr.less(value[it.v].v, it.x) {
			continue // settled, or a better value was offered since
		}
		final[it.v] = true
		for _, pi := range eg.users[eg.userAt[it.v]:eg.userAt[it.v+1]] {
			if pending[pi]--; pending[pi] == 0 {
				fire(int(pi))
			}
		}
	}
	return value
}

type leastItem[T any] struct {
	v int32
	x T
}

// leastHeap is a binary min-heap of items, typed (container/heap boxes
// every item it moves).
type leastHeap[T any] struct {
	items []leastItem[T]
	less  func(a, b T) bool
}

func (h *leastHeap[T]) Len() int { return len(h.items) }

func (h *leastHeap[T]) push(it leastItem[T]) {
	h.items = append(h.items, it)
	for i := len(h.items) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.less(h.items[i].x, h.items[p].x) {
			break
		}
		h.items[i], h.items[p] = h.items[p], h.items[i]
		i = p
	}
}

func (h *leastHeap[T]) pop() leastItem[T] {
	top := h.items[0]
	n := len(h.items) - 1
	h.items[0] = h.items[n]
	h.items = h.items[:n]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < n && h.less(h.items[l].x, h.items[m].x) {
			m = l
		}
		if r < n && h.less(h.items[r].x, h.items[m].x) {
			m = r
		}
		if m == i {
			break
		}
		h.items[i], h.items[m] = h.items[m], h.items[i]
		i = m
	}
	return top
}

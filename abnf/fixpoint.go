package abnf

import "container/heap"

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
// relate them. It is built once per Analysis and solved once per value.
type exprGraph struct {
	index map[Node]int // node → vertex
	nrule int          // vertices 0…nrule-1 are g.Rules, in order
	leaf  []Node       // vertex → the node, for leaves and zero repetitions; nil otherwise
	prods []prod
	users [][]int32 // vertex → productions it is an argument of, once per occurrence
}

type prod struct {
	head int32
	args []int32
	kind byte // 'a' identity (alternative, reference), 'c' concatenation, 'r' repetition, 'R' rule, 'e' zero repetition
	min  int
}

func newExprGraph(g *Grammar) *exprGraph {
	eg := &exprGraph{index: make(map[Node]int, 4*len(g.Rules)), nrule: len(g.Rules)}
	ruleIx := make(map[*Rule]int32, len(g.Rules))
	for i, r := range g.Rules {
		ruleIx[r] = int32(i)
	}
	eg.leaf = make([]Node, len(g.Rules), 4*len(g.Rules))
	eg.users = make([][]int32, len(g.Rules), 4*len(g.Rules))
	add := func(p prod) {
		eg.prods = append(eg.prods, p)
		for _, a := range p.args {
			eg.users[a] = append(eg.users[a], int32(len(eg.prods)-1))
		}
	}
	// visit recurses on the nesting of one expression only, which the
	// reader bounds (Options.MaxNesting).
	var visit func(n Node) int32
	visit = func(n Node) int32 {
		if v, ok := eg.index[n]; ok {
			return int32(v) // a node reached twice is one vertex
		}
		v := int32(len(eg.users))
		eg.index[n] = int(v)
		eg.users = append(eg.users, nil)
		eg.leaf = append(eg.leaf, nil)
		switch n := n.(type) {
		case *Alt:
			for _, x := range n.Alts {
				add(prod{head: v, args: []int32{visit(x)}, kind: 'a'})
			}
		case *Concat:
			args := make([]int32, len(n.Items))
			for i, x := range n.Items {
				args[i] = visit(x)
			}
			add(prod{head: v, args: args, kind: 'c'})
		case *Repeat:
			b := visit(n.Body)
			if n.Min == 0 {
				add(prod{head: v, kind: 'e'})
			} else {
				add(prod{head: v, args: []int32{b}, kind: 'r', min: n.Min})
			}
		case *RuleRef:
			if r := g.Rule(n.Name); r != nil {
				add(prod{head: v, args: []int32{ruleIx[r]}, kind: 'a'})
			}
		default:
			eg.leaf[v] = n
			add(prod{head: v, kind: 'l'})
		}
		return v
	}
	for i, r := range g.Rules {
		add(prod{head: int32(i), args: []int32{visit(r.Expr)}, kind: 'R'})
	}
	return eg
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
	n := len(eg.users)
	value := make([]leastValue[T], n)
	final := make([]bool, n)
	pending := make([]int32, len(eg.prods))
	h := &leastHeap[T]{less: lr.less}
	offer := func(v int32, x T) {
		if final[v] || value[v].ok && !lr.less(x, value[v].v) {
			return
		}
		value[v] = leastValue[T]{x, true}
		heap.Push(h, leastItem[T]{v, x})
	}
	var buf []T
	fire := func(p *prod) {
		buf = buf[:0]
		for _, a := range p.args {
			buf = append(buf, value[a].v)
		}
		var x T
		switch p.kind {
		case 'a':
			x = buf[0]
		case 'c':
			x = lr.concat(buf)
		case 'r':
			x = lr.repeat(p.min, buf[0])
		case 'R':
			x = lr.rule(buf[0])
		case 'e':
			x = lr.empty
		case 'l':
			x = lr.leaf(eg.leaf[p.head])
		}
		offer(p.head, x)
	}
	for i := range eg.prods {
		pending[i] = int32(len(eg.prods[i].args))
		if pending[i] == 0 {
			fire(&eg.prods[i])
		}
	}
	for h.Len() > 0 {
		it := heap.Pop(h).(leastItem[T])
		if final[it.v] || lr.less(value[it.v].v, it.x) {
			continue // settled, or a better value was offered since
		}
		final[it.v] = true
		for _, pi := range eg.users[it.v] {
			if pending[pi]--; pending[pi] == 0 {
				fire(&eg.prods[pi])
			}
		}
	}
	return value
}

type leastItem[T any] struct {
	v int32
	x T
}

type leastHeap[T any] struct {
	items []leastItem[T]
	less  func(a, b T) bool
}

func (h *leastHeap[T]) Len() int           { return len(h.items) }
func (h *leastHeap[T]) Less(i, j int) bool { return h.less(h.items[i].x, h.items[j].x) }
func (h *leastHeap[T]) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *leastHeap[T]) Push(x any)         { h.items = append(h.items, x.(leastItem[T])) }
func (h *leastHeap[T]) Pop() any {
	n := len(h.items) - 1
	x := h.items[n]
	h.items = h.items[:n]
	return x
}

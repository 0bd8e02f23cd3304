package ir

import (
	"sort"

	"github.com/peguri/rfc3986/gen/internal/work"
)

// Recursion in a lowered grammar. A set of mutually recursive rules (a
// strongly connected component of the reference graph) is either strongly
// regular — every reference between its rules stands at the right end of
// the referring body (right, or tail, recursion) or every one at the left
// end (left recursion) — or self-embedding: some rule derives a sentential
// form with material on both sides of itself. Chomsky (1959): a grammar
// without self-embedding generates a regular language, and an automaton that
// treats the references of a strongly regular component as jumps (returning
// from a rule to any of its return points, forgetting which call was made)
// recognizes it exactly. For a self-embedding component the same automaton
// recognizes a superset: the regular approximation of Mohri and Nederhof
// (2001), which is tight outside the component and loose only inside it.

// Component is one set of mutually recursive rules.
type Component struct {
	Rules []*Rule // in grammar order
	// SelfEmbedding is true when the component is not strongly regular:
	// its language need not be regular, and automata built by treating its
	// references as jumps over-approximate it.
	SelfEmbedding bool
	// Left is true when the component is strongly regular through left
	// recursion only (every internal reference at the left end of its body).
	Left bool
	// TailLoop is true for a self-embedding component whose language is
	// regular all the same, in the one shape this package proves it of:
	// one rule whose body ends with an unbounded repetition, *( β A ),
	// whose body ends with the rule's only references to itself, as in
	// RFC 3501's sequence-set = (seq-number / seq-range) *("," sequence-set).
	// With A = α *( β A ), A's language is α *( β α ): every string of A
	// followed by any number of β A is one of A's (another turn of its own
	// last repetition), so an automaton that treats the references as
	// jumps, and returns from A's end to the repetition or out, recognizes
	// it exactly. Only the DFA back end uses it: for the PEG back end the
	// component stays self-embedding.
	TailLoop bool
}

// Has reports whether r belongs to the component.
func (c *Component) Has(r *Rule) bool {
	for _, x := range c.Rules {
		if x == r {
			return true
		}
	}
	return false
}

// Recursion returns the grammar's recursive components, in grammar order of
// their first rule, and a map from each rule on a cycle to its component.
func (g *Grammar) Recursion() ([]*Component, map[*Rule]*Component) {
	index := map[*Rule]int{}
	for i, r := range g.Rules {
		index[r] = i
	}
	refs := map[*Rule][]*Rule{}
	for _, r := range g.Rules {
		seen := map[*Rule]bool{}
		walkRefs(r.Body, func(t *Rule) {
			if !seen[t] {
				seen[t] = true
				refs[r] = append(refs[r], t)
			}
		})
	}
	// Tarjan's algorithm, iterative over rules in grammar order.
	num := map[*Rule]int{}
	low := map[*Rule]int{}
	on := map[*Rule]bool{}
	var stack []*Rule
	var comps []*Component
	of := map[*Rule]*Component{}
	n := 0
	var strong func(v *Rule)
	strong = func(v *Rule) {
		num[v], low[v] = n, n
		n++
		stack = append(stack, v)
		on[v] = true
		for _, w := range refs[v] {
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
		var members []*Rule
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			on[w] = false
			members = append(members, w)
			if w == v {
				break
			}
		}
		self := false
		for _, w := range refs[v] {
			self = self || w == v
		}
		if len(members) == 1 && !self {
			return
		}
		sort.Slice(members, func(i, j int) bool { return index[members[i]] < index[members[j]] })
		c := &Component{Rules: members}
		for _, m := range members {
			of[m] = c
		}
		comps = append(comps, c)
	}
	for _, r := range g.Rules {
		if _, ok := num[r]; !ok {
			strong(r)
		}
	}
	for _, c := range comps {
		right, left := true, true
		for _, r := range c.Rules {
			positions(r.Body, true, true, func(t *Rule, pre, post bool) {
				if of[t] == c {
					right = right && post
					left = left && pre
				}
			})
		}
		c.SelfEmbedding = !right && !left
		c.Left = left && !right
		c.TailLoop = c.SelfEmbedding && len(c.Rules) == 1 && tailLoop(c.Rules[0])
	}
	sort.Slice(comps, func(i, j int) bool { return index[comps[i].Rules[0]] < index[comps[j].Rules[0]] })
	return comps, of
}

// tailLoop reports whether r = α *( β r ), with r referenced nowhere else
// in its body (see Component.TailLoop).
func tailLoop(r *Rule) bool {
	body := r.Body
	var head []Expr
	if s, ok := body.(*Seq); ok {
		head, body = s.Items[:len(s.Items)-1], s.Items[len(s.Items)-1]
	}
	loop, ok := body.(*Rep)
	if !ok || loop.Min != 0 || loop.Max != Inf {
		return false
	}
	for _, x := range head {
		self := false
		walkRefs(x, func(t *Rule) { self = self || t == r })
		if self {
			return false
		}
	}
	refs, tail := 0, true
	positions(loop.Body, false, true, func(t *Rule, _, post bool) {
		if t == r {
			refs++
			tail = tail && post
		}
	})
	return refs > 0 && tail
}

// walkRefs calls f for each reference node of x, once: expressions are
// DAGs (the copies of a bounded repetition share their body), and a walk of
// the tree of 2(2(…2("a")…)) takes time doubling with each level.
func walkRefs(x Expr, f func(*Rule)) {
	seen := map[Expr]bool{}
	var walk func(x Expr)
	walk = func(x Expr) {
		if seen[x] {
			return
		}
		seen[x] = true
		work.Add(1)
		switch x := x.(type) {
		case *Ref:
			f(x.Rule)
		case *Seq:
			for _, y := range x.Items {
				walk(y)
			}
		case *Alt:
			for _, y := range x.Alts {
				walk(y)
			}
		case *Rep:
			walk(x.Body)
		}
	}
	walk(x)
}

// positions calls f for each reference in x with whether nothing but the
// empty string can stand before it (pre) and after it (post) within the
// rule's body, given the same for x itself. A node shared by several
// parents is visited once per pair (pre, post), at most four times.
func positions(x Expr, pre, post bool, f func(t *Rule, pre, post bool)) {
	type key struct {
		x         Expr
		pre, post bool
	}
	seen := map[key]bool{}
	var walk func(x Expr, pre, post bool)
	walk = func(x Expr, pre, post bool) {
		if k := (key{x, pre, post}); seen[k] {
			return
		} else {
			seen[k] = true
		}
		work.Add(1)
		switch x := x.(type) {
		case *Ref:
			f(x.Rule, pre, post)
		case *Seq:
			// after[i]: only the empty string can follow item i.
			after := make([]bool, len(x.Items))
			q := post
			for i := len(x.Items) - 1; i >= 0; i-- {
				after[i] = q
				q = q && EmptyOnly(x.Items[i])
			}
			p := pre
			for i, y := range x.Items {
				walk(y, p, after[i])
				p = p && EmptyOnly(y)
			}
		case *Alt:
			for _, y := range x.Alts {
				walk(y, pre, post)
			}
		case *Rep:
			if x.Max == 1 {
				walk(x.Body, pre, post)
				return
			}
			// Another iteration may stand before or after this one, and a
			// body never matches only the empty string.
			walk(x.Body, false, false)
		}
	}
	walk(x, pre, post)
}

// EmptyOnly reports whether x matches the empty string and nothing else.
func EmptyOnly(x Expr) bool {
	switch x := x.(type) {
	case *Empty:
		return true
	case *Seq:
		for _, y := range x.Items {
			if !EmptyOnly(y) {
				return false
			}
		}
		return true
	case *Alt:
		for _, y := range x.Alts {
			if !EmptyOnly(y) {
				return false
			}
		}
		return true
	}
	return false
}

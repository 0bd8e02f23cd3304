package peg

// nestChecks chooses the PEG rules that start with the check of how deep
// pigeon's rules nest (nestCall): a set of rules that every cycle of
// references among the emitted rules passes through, so that the rule
// stack cannot grow without a check more than the grammar's number of
// rules (the targets of the back edges of a depth-first walk; each cycle
// has a back edge, whose target is on it). Fewer checks than every rule
// on a cycle: each is two of pigeon's expressions, which its
// MaxExpressions counts, and a lookup of the asker (expr-postfix.abnf's
// parentheses took 139 expressions a byte with a check in each of their
// rules, against 111 without, and ParseRule allows 150).
//
// It also returns the deepest nesting of expressions in a rule's body
// (exprDepth), from which the glue's limit on the rule stack follows
// (syntax.RuleNesting): pigeon's frames per rule grow with it. ok is
// false if a body does not parse back, which the translator's own output
// always does; the caller then checks every rule on a cycle.
func (t *translator) nestChecks() (checks map[string]bool, depth int, ok bool) {
	var order []string
	refs := map[string][]string{}
	for _, p := range append(append([]*pegRule{}, t.entry...), t.rules...) {
		x, err := parseBody(p.body)
		if err != nil {
			return nil, 0, false
		}
		order = append(order, p.ident)
		depth = max(depth, exprDepth(x))
		seen := map[string]bool{}
		walkP(x, func(e pexpr) {
			if r, ok := e.(*pRef); ok && !seen[r.name] {
				seen[r.name] = true
				refs[p.ident] = append(refs[p.ident], r.name)
			}
		})
	}
	// An iterative depth-first walk (a grammar may chain 100,000 rules):
	// a reference to a rule on the walk's stack is a back edge.
	const (
		unseen = iota
		onStack
		done
	)
	state := map[string]int{}
	checks = map[string]bool{}
	type item struct {
		rule string
		next int // the next of its references to follow
	}
	for _, root := range order {
		if state[root] != unseen {
			continue
		}
		stack := []item{{root, 0}}
		state[root] = onStack
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next == len(refs[top.rule]) {
				state[top.rule] = done
				stack = stack[:len(stack)-1]
				continue
			}
			r := refs[top.rule][top.next]
			top.next++
			switch state[r] {
			case onStack:
				checks[r] = true
			case unseen:
				state[r] = onStack
				stack = append(stack, item{r, 0})
			}
		}
	}
	return checks, depth, true
}

// exprDepth is the deepest nesting of x's expressions, each of which is a
// call of pigeon's parseExpr and of the function of its kind.
func exprDepth(x pexpr) int {
	d := 0
	switch e := x.(type) {
	case *pChoice:
		for _, a := range e.alts {
			d = max(d, exprDepth(a))
		}
	case *pSeq:
		for _, a := range e.items {
			d = max(d, exprDepth(a))
		}
	case *pRep:
		d = exprDepth(e.body)
	case *pAnd:
		d = exprDepth(e.body)
	case *pNot:
		d = exprDepth(e.body)
	}
	return d + 1
}

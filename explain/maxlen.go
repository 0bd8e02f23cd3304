package explain

import "github.com/peguri/rfc3986/abnf"

// ruleMax is maxLen as New computed it for every rule of the grammar (-1
// for a rule it does not have): safe for concurrent use.
func (x *Explainer) ruleMax(rule string) int {
	if m, ok := x.maxes[rule]; ok {
		return m
	}
	return -1
}

// maxLen returns the length in characters of the rule's longest string,
// -1 when it has none (a repetition without bound, or recursion).
func (x *Explainer) maxLen(rule string) int {
	if m, ok := x.maxes[rule]; ok {
		return m
	}
	x.maxes[rule] = -1 // recursion is unbounded
	var walk func(abnf.Node) int
	walk = func(n abnf.Node) int {
		switch n := n.(type) {
		case *abnf.RuleRef:
			if r := x.g.Rule(n.Name); r != nil {
				return x.maxLen(r.Name)
			}
			return 0
		case *abnf.Alt:
			m := 0
			for _, a := range n.Alts {
				x := walk(a)
				if x < 0 {
					return -1
				}
				m = max(m, x)
			}
			return m
		case *abnf.Concat:
			m := 0
			for _, a := range n.Items {
				x := walk(a)
				if x < 0 {
					return -1
				}
				m += x
			}
			return m
		case *abnf.Repeat:
			x := walk(n.Body)
			switch {
			case n.Max == 0 || x == 0:
				return 0
			case x < 0 || n.Max == abnf.Inf:
				return -1
			}
			return x * n.Max
		case *abnf.CharVal:
			return len(n.Text)
		case *abnf.NumVal:
			if n.Range {
				return 1
			}
			return len(n.Vals)
		}
		return 0
	}
	m := -1
	if r := x.g.Rule(rule); r != nil {
		m = walk(r.Expr)
	}
	x.maxes[rule] = m
	return m
}

package parser

import "github.com/peguri/rfc3986/syntax"

// Internal entry points for the tests of package parser_test.

// FromTree builds the typed URI from a URI-level rule's parse tree.
func FromTree(s string, n *Node) URI { return rfc3986.fromTree(s, n, &rfc3986.names[0]) }

// DFARun runs the named rule's DFA: whether s is accepted, and if not, the
// offset where it fails.
func DFARun(rule, s string) (bool, int) { return rfc3986.g.DFA(rule).Machine().Run(s) }

// HasDFA reports whether the rule has a DFA.
func HasDFA(rule string) bool { return rfc3986.g.DFA(rule) != nil }

// ParseRuleBudget is ParseRule with pigeon's expression budget
// (MaxExpressions) given, for the test of the budget ParseRule sets.
func ParseRuleBudget(rule, s string, maxExpr uint64) (*Node, error) {
	name, ok := rfc3986.Rule(rule)
	if !ok {
		return nil, rfc3986.noRule(rule)
	}
	return rfc3986.parseRule(name, s, maxExpr)
}

// ExprBudget is the expression budget ParseRule gives an input of n bytes.
func ExprBudget(n int) uint64 { return uint64(exprBase + exprPerByte*n) }

// MustParseForTest parses a hard-coded reference.
func MustParseForTest(s string) URI {
	u, err := ParseReference(s)
	if err != nil {
		panic(err)
	}
	return u
}

// HasTree reports whether p builds the trees of rule with the function gen
// dfa -tree generated, rather than pigeon.
func HasTree(p *Parser, rule string) bool { return p.g.HasTree(rule) }

// GeneratedTree is the tree the generated function of rule builds for in,
// nil if it builds none.
func GeneratedTree(p *Parser, rule, in string) *Node {
	return p.g.GeneratedTree(rule, in, uint64(exprBase+exprPerByte*len(in)))
}

// MarksFold reports whether the marks of the Appendix B scan fold into
// every URI rule's DFA of p, so that Parse splits in the DFA's walk.
func MarksFold(p *Parser) bool {
	for _, m := range p.uriMarked {
		if m.machine() == nil {
			return false
		}
	}
	return len(p.uriMarked) > 0
}

// SplitScan is the URI of a valid URI reference s of p as the scan
// splits it (split), without the DFA's marks: the reference Parse's split
// is held to.
func SplitScan(p *Parser, s string) URI {
	var u URI
	p.split(&u, s)
	if p != rfc3986 {
		u.p = p
	}
	return u
}

// FailureError is the error ParseRule returns for a pigeon parse of in as
// rule that failed at offset with the message msg (a syntax.Failure).
func FailureError(rule, in string, offset int, msg string) error {
	_, err := rfc3986.pegResult(rule, in, nil, &syntax.Failure{Offset: offset, Msg: msg})
	return err
}

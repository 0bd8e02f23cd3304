package parser

// Internal entry points for the tests of package parser_test.

// FromTree builds the typed URI from a URI-level rule's parse tree.
func FromTree(s string, n *Node) URI { return rfc3986.fromTree(s, n, &rfc3986.names[0]) }

// DFARun runs the named rule's DFA: whether s is accepted, and if not, the
// offset where it fails.
func DFARun(rule, s string) (bool, int) { return rfc3986.g.DFA(rule).Machine().Run(s) }

// HasDFA reports whether the rule has a DFA.
func HasDFA(rule string) bool { return rfc3986.g.DFA(rule) != nil }

package parser

// Internal entry points for the tests of package parser_test.

// FromTree builds the typed URI from a URI-level rule's parse tree.
var FromTree = fromTree

// DFARun runs the named rule's DFA: whether s is accepted, and if not, the
// offset where it fails.
func DFARun(rule, s string) (bool, int) { return dfas[rule]().run(s) }

// HasDFA reports whether the rule has a DFA.
func HasDFA(rule string) bool { _, ok := dfas[rule]; return ok }

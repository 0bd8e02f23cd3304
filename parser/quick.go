package parser

// QuickErrors returns a copy of s whose Parse and Validate take the error
// of an invalid input from the rule's DFA alone, without running the
// pigeon parser: for batch work, where an invalid input should cost about
// what a valid one does (pigeon's explanation costs a hundred times a DFA
// run). The error is an [*Error] all the same. Its Offset is the length of
// the longest prefix of the input that some valid input starts with, and
// its Expected set the bytes the DFA accepts there, as classes, and "EOF"
// if the input may end there. pigeon reports the start of the terminal it
// could not match instead, which for a two-character literal ("::", "//")
// is one byte earlier, and names terminals rather than bytes ("::" rather
// than ":"); the tests check that relation. ParseRule and ParseTree, and
// rules without a DFA, still use the pigeon parser.
func (s *Syntax) QuickErrors() *Syntax {
	c := *s
	c.quick = true
	return &c
}

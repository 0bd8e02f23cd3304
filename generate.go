package rfc3986

// The parser is generated in two steps, both committed:
//
//  1. gen translates RFC 3986 Appendix A (grammar/rfc3986.abnf) to a PEG
//     that accepts exactly its language, proving every choice in context
//     (gen peg -report says what it changed and why). pchar is left out of
//     the parse tree: it would add a node per character.
//  2. pigeon v1.3.0 (pinned in go.mod by tools.go) turns the PEG into Go.
//     -optimize-parser drops pigeon's debug, memoization and statistics
//     machinery, which costs 3 to 6 times the parse time (measured in
//     research/pigeon-abnf.md); -optimize-grammar is not used: it is
//     experimental, inlines every rule into one (so rules other than the
//     listed entrypoints stop being callable) and multiplies the generated
//     code by 7 to 30.
//
//go:generate go run ./gen peg -nocapture pchar -o grammar/uri.peg
//go:generate go run github.com/mna/pigeon -optimize-parser -o parser/rfc3986_peg.go grammar/uri.peg
//
// 3. gen dfa compiles every rule (Appendix A has no recursion) to a minimal
//    byte DFA: the fast path that validates and splits URIs without
//    allocating (parser/dfa.go).
//
//go:generate go run ./gen dfa -o parser/rfc3986_dfa.go

package rfc3986

// The parser is generated in two steps, both committed:
//
//  1. gen translates RFC 3986 Appendix A (grammar/rfc3986.abnf) to a PEG
//     that accepts exactly its language, proving every choice in context
//     (gen peg -report says what it changed and why). pchar is left out of
//     the parse tree: it would add a node per character.
//  2. pigeon v1.3.0 (pinned in go.mod by tools.go) turns the PEG into Go.
//     -optimize-parser drops pigeon's debug, memoization and statistics
//     machinery, which cost 3.4 to 5.7 times the parse time (measured on
//     this grammar and a literal-heavy one with pigeon v1.3.0, when the
//     project chose its flags); -optimize-grammar is not used: it is
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
//
// 4. The extension grammars, layered on Appendix A (grammar/ext): RFC 6874
//    zone identifiers and RFC 3987 IRIs, each generated into its own package
//    (pigeon's exported names allow one parser per package) that shares
//    package parser's tree and typed URI (-tree). Their DFAs cover the URI
//    rules and IPv4address (the fast path); other rules validate through
//    pigeon.
//
//go:generate go run ./gen peg -grammar grammar/rfc3986.abnf -grammar grammar/ext/rfc6874.abnf -nocapture pchar -package rfc6874 -tree github.com/peguri/rfc3986/parser -o grammar/ext/rfc6874.peg
//go:generate go run github.com/mna/pigeon -optimize-parser -o parser/rfc6874/rfc6874_peg.go grammar/ext/rfc6874.peg
//go:generate go run ./gen dfa -grammar grammar/rfc3986.abnf -grammar grammar/ext/rfc6874.abnf -start URI-reference,URI,absolute-URI,relative-ref,IPv4address -package rfc6874 -o parser/rfc6874/rfc6874_dfa.go
//go:generate go run ./gen peg -grammar grammar/rfc3986.abnf -grammar grammar/ext/rfc3987.abnf -nocapture pchar,ipchar -default IRI-reference -package rfc3987 -tree github.com/peguri/rfc3986/parser -o grammar/ext/rfc3987.peg
//go:generate go run github.com/mna/pigeon -optimize-parser -o parser/rfc3987/rfc3987_peg.go grammar/ext/rfc3987.peg
//go:generate go run ./gen dfa -grammar grammar/rfc3986.abnf -grammar grammar/ext/rfc3987.abnf -start IRI-reference,IRI,absolute-IRI,irelative-ref,URI-reference,URI,absolute-URI,relative-ref,IPv4address -package rfc3987 -o parser/rfc3987/rfc3987_dfa.go

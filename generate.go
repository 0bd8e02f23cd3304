package rfc3986

// The parser is generated in steps, all committed. gen is run by its
// module path, as a team regenerating for its own scheme runs it from its
// own module (docs/regenerating.md); -grammar rfc3986 is
// Appendix A, embedded in gen.
//
//  1. gen translates RFC 3986 Appendix A (grammar/rfc3986.abnf) to a PEG
//     that accepts exactly its language, proving every choice in context
//     (gen peg -report says what it changed and why). pchar is left out of
//     the parse tree: it would add a node per character.
//  2. pigeon v1.3.0 (pinned in go.mod by its tool directive) turns the PEG into Go,
//     in an internal package (parser/internal/rfc3986gen), so that pigeon's
//     exported API (Parse, Option, Entrypoint, …) stays out of package
//     parser; the glue gen wrote into the PEG hands the parser to package
//     syntax, the runtime every generated parser shares.
//     -optimize-parser drops pigeon's debug, memoization and statistics
//     machinery, which cost 3.4 to 5.7 times the parse time (measured on
//     this grammar and a literal-heavy one with pigeon v1.3.0, when the
//     project chose its flags); -optimize-grammar is not used: it is
//     experimental, inlines every rule into one (so rules other than the
//     listed entrypoints stop being callable) and multiplies the generated
//     code by 7 to 30.
//
//go:generate go run github.com/peguri/rfc3986/gen peg -grammar rfc3986 -nocapture pchar -package rfc3986gen -o grammar/uri.peg
//go:generate go run github.com/mna/pigeon -optimize-parser -o parser/internal/rfc3986gen/rfc3986_peg.go grammar/uri.peg
//
// 3. gen dfa compiles every rule (Appendix A has no recursion) to a minimal
//    byte DFA: the fast path that validates and splits URIs without
//    allocating (parser/dfa.go). -tree reads the parser pigeon wrote in
//    step 2 and adds, for each rule, a function that builds pigeon's parse
//    tree for the inputs the DFA accepts, without pigeon (syntax.Grammar.Tree,
//    docs/gen.md). -walk writes the DFAs of URI-reference and URI, with
//    the marks of Appendix B's split, as Go code, which Parse and ParseURI
//    run instead of the tables (syntax.WalkFunc; docs/gen.md).
//
//go:generate go run github.com/peguri/rfc3986/gen dfa -grammar rfc3986 -package rfc3986gen -tree parser/internal/rfc3986gen/rfc3986_peg.go -walk URI-reference,URI -o parser/internal/rfc3986gen/rfc3986_dfa.go
//
// 4. The extension grammars, layered on Appendix A (grammar/ext): RFC 6874
//    zone identifiers and RFC 3987 IRIs, each generated into an internal
//    package of its own package (pigeon's names allow one parser per
//    package), whose Syntax shares package parser's tree and typed URI.
//    Every rule gets a DFA, as in Appendix A (neither grammar has
//    recursion), so that any rule validates with the DFA's errors and no
//    length limit but MaxLength, and a tree function. Each gets walks of
//    the URI rules its Parse and ParseURI read (RFC 3987's of more than
//    256 states: the walks read wide tables as well).
//
//go:generate go run github.com/peguri/rfc3986/gen peg -grammar rfc3986 -grammar rfc6874 -nocapture pchar -package rfc6874gen -o grammar/ext/rfc6874.peg
//go:generate go run github.com/mna/pigeon -optimize-parser -o parser/rfc6874/internal/rfc6874gen/rfc6874_peg.go grammar/ext/rfc6874.peg
//go:generate go run github.com/peguri/rfc3986/gen dfa -grammar rfc3986 -grammar rfc6874 -package rfc6874gen -tree parser/rfc6874/internal/rfc6874gen/rfc6874_peg.go -walk URI-reference -o parser/rfc6874/internal/rfc6874gen/rfc6874_dfa.go
//go:generate go run github.com/peguri/rfc3986/gen peg -grammar rfc3986 -grammar rfc3987 -nocapture pchar,ipchar -default IRI-reference -package rfc3987gen -o grammar/ext/rfc3987.peg
//go:generate go run github.com/mna/pigeon -optimize-parser -o parser/rfc3987/internal/rfc3987gen/rfc3987_peg.go grammar/ext/rfc3987.peg
//go:generate go run github.com/peguri/rfc3986/gen dfa -grammar rfc3986 -grammar rfc3987 -package rfc3987gen -tree parser/rfc3987/internal/rfc3987gen/rfc3987_peg.go -walk IRI-reference,IRI -o parser/rfc3987/internal/rfc3987gen/rfc3987_dfa.go

// Package syntax is the runtime that every parser gen generates shares,
// in this module or in yours (see docs/regenerating.md in the
// repository). Generated code holds only grammar-specific tables, the thin
// glue that reaches pigeon's unexported types, and tree functions that call
// this package; everything that behaves is here, compiled and tested once:
//
//   - trees and errors: [Node], [Failure], and the actions of captured
//     rules ([Capture], and [Extend] and [Fold] for rewritten left
//     recursion);
//   - the generated pigeon parser as the runtime sees it ([PEG]) and a
//     checked [Grammar] that runs it: octet input, the exact recognizer,
//     pigeon's errors read into a Failure;
//   - the DFAs of gen dfa: compact tables ([Table]), expanded into machines ([Machine]) that
//     decide membership without allocating, and that can record, on the
//     same walk, where a small automaton of the caller's marks its input
//     ([Table.Marked], [Machine.RunMarks]: package parser splits URIs so);
//   - the walks of gen dfa -walk: such a marked machine written as Go code
//     ([WalkFunc], [Machine.GoWalk]), which a table holds and [Table.Marked]
//     runs when it was written for the very same transitions and marks;
//   - the tree functions of gen dfa -tree ([TreeFunc], run on a
//     [TreeParser]), which build pigeon's trees without pigeon
//     ([Grammar.Tree]);
//   - the exact continuation guards of gen peg: minimal DFAs written as a
//     [Net], which a [Lookahead] runs for one parse, remembering every
//     verdict, for the generated parser and the tree functions alike;
//   - the exact recognizer behind the PEG decisions gen could not prove
//     exact: a [Net], the grammar as a recursive transition network with the
//     ABNF meaning, and a [Guide], which settles those decisions for one
//     input, given the generated parser's stack; before a guided parse,
//     [Grammar.Parse] checks the input with a DFA of a regular superset of
//     the start rule's language, made from the network, and finds the
//     error of an input outside it without the guided parse.
//
// A generated package exports two functions, PEG (gen peg, then pigeon)
// and DFA (gen dfa); [NewGrammar] checks what they return, and package
// parser's NewParser adds the typed URI on top.
package syntax

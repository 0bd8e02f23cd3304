// Package urn parses Uniform Resource Names (RFC 8141) with parsers
// generated from the RFC's ABNF layered on RFC 3986 Appendix A — the worked
// example of regenerating this project's parser for a scheme's own grammar
// (see docs/regenerating.md in the repository).
//
// urn.abnf holds RFC 8141 §2's rules, plus alphanum, which RFC 8141 takes
// from "the URI syntax" although RFC 3986 no longer defines it. The
// generated files are in internal/urngen: urn.peg (gen peg), urn_peg.go
// (pigeon) and urn_dfa.go (gen dfa); this file is all the hand-written
// code. It is its own module, as a team's would be.
package urn

import (
	"fmt"

	"github.com/peguri/rfc3986/examples/urn/internal/urngen"
	"github.com/peguri/rfc3986/parser"
)

// Parser returns the generated parsers: Validate with the DFAs, ParseRule
// for trees, both with the project's errors (offset, expected set).
func Parser() *parser.Parser { return syn }

var syn = parser.MustParser(parser.NewParser("urn", urngen.PEG(), urngen.DFA()))

// URN is a parsed URN: its namespace identifier and namespace-specific
// string, and the r-, q- and f-components, each with whether it is present
// (RFC 8141 §2.3).
type URN struct {
	NID, NSS                           string
	RComponent, QComponent, FComponent string
	HasR, HasQ, HasF                   bool
}

// ParseURN parses s as an RFC 8141 namestring. Its components come from
// the parse tree, which the parser builds for inputs of up to
// parser.MaxTreeLength (64 KiB): a longer URN is valid or not as Valid
// says, and its error wraps parser.ErrTooLongForTree when it is valid.
//
// RFC 8141's ABNF is ambiguous where an r-component contains "?=": an
// r-component takes "?" after its first character (r-component = pchar
// *( pchar / "/" / "?" )) and "=" is a pchar, so "urn:a:b?+r?=q" has an
// r-component "r?=q" and no q-component, or "r" and "q". Like every
// choice gen translates, the generated parser takes the first reading the
// grammar allows, which keeps the r-component going.
func ParseURN(s string) (URN, error) {
	if err := syn.Validate("namestring", s); err != nil {
		return URN{}, err
	}
	tree, err := syn.ParseRule("namestring", s)
	if err != nil {
		return URN{}, err // not reached: the DFA and pigeon agree
	}
	var u URN
	var walk func(*parser.Node)
	walk = func(n *parser.Node) {
		text := s[n.Start:n.End]
		switch n.Rule {
		case "NID":
			u.NID = text
		case "NSS":
			u.NSS = text
		case "r-component":
			u.RComponent, u.HasR = text, true
		case "q-component":
			u.QComponent, u.HasQ = text, true
		case "f-component":
			u.FComponent, u.HasF = text, true
		default:
			for _, k := range n.Kids {
				walk(k)
			}
		}
	}
	walk(tree)
	return u, nil
}

// Valid reports whether s is a URN, without allocating.
func Valid(s string) bool { return syn.Validate("namestring", s) == nil }

// String recomposes the URN; for a parsed URN, the input with "urn" in
// lower case if it was written otherwise (RFC 8141 §2: "urn" is
// case-insensitive).
func (u URN) String() string {
	s := fmt.Sprintf("urn:%s:%s", u.NID, u.NSS)
	if u.HasR {
		s += "?+" + u.RComponent
	}
	if u.HasQ {
		s += "?=" + u.QComponent
	}
	if u.HasF {
		s += "#" + u.FComponent
	}
	return s
}

package urn

// The URN parsers, generated from RFC 3986 Appendix A with RFC 8141's
// rules layered on it (urn.abnf): a PEG for pigeon (trees and errors) and
// DFAs (validation without allocation). -tree makes the generated code
// build package parser's tree, so that parser.NewSyntax can serve it.
//
//go:generate go run ../../gen peg -grammar ../../grammar/rfc3986.abnf -grammar urn.abnf -start namestring,assigned-name,NID,NSS,rq-components,r-component,q-component,f-component -nocapture ldh -package urn -tree github.com/peguri/rfc3986/parser -o urn.peg
//go:generate go run github.com/mna/pigeon -optimize-parser -o urn_peg.go urn.peg
//go:generate go run ../../gen dfa -grammar ../../grammar/rfc3986.abnf -grammar urn.abnf -start namestring,NID,NSS -package urn -o urn_dfa.go

package urn

// The URN parsers, generated from RFC 3986 Appendix A (embedded in gen as
// rfc3986) with RFC 8141's rules layered on it (urn.abnf), into the
// internal package urngen, so that pigeon's API stays out of this one: a
// PEG for pigeon (trees and errors) and DFAs (validation without
// allocation). This module runs gen by its module path, as any module that
// requires github.com/peguri/rfc3986 does, and pigeon as a tool of its
// go.mod.
//
//go:generate go run github.com/peguri/rfc3986/gen peg -grammar rfc3986 -grammar urn.abnf -start namestring,assigned-name,NID,NSS,rq-components,r-component,q-component,f-component -nocapture ldh -package urngen -o internal/urngen/urn.peg
//go:generate go run github.com/mna/pigeon -optimize-parser -o internal/urngen/urn_peg.go internal/urngen/urn.peg
//go:generate go run github.com/peguri/rfc3986/gen dfa -grammar rfc3986 -grammar urn.abnf -start namestring,NID,NSS -package urngen -tree internal/urngen/urn_peg.go -o internal/urngen/urn_dfa.go

// Package grammar holds the project's grammars: RFC 3986 Appendix A as ABNF
// (the source of everything else), and the PEG that gen translates it to.
// The ABNF is embedded so that tools and tests run without a checkout.
package grammar

import _ "embed"

// RFC3986 is grammar/rfc3986.abnf: RFC 3986 Appendix A, verbatim.
//
//go:embed rfc3986.abnf
var RFC3986 []byte

// RFC3986Name is the source name RFC3986 is read under, so that positions in
// messages point at the file in the repository.
const RFC3986Name = "grammar/rfc3986.abnf"

// RFC6874 is grammar/ext/rfc6874.abnf: RFC 6874 zone identifiers, to read
// after RFC3986.
//
//go:embed ext/rfc6874.abnf
var RFC6874 []byte

// RFC3987 is grammar/ext/rfc3987.abnf: the IRI rules of RFC 3987 §2.2, to
// read after RFC3986.
//
//go:embed ext/rfc3987.abnf
var RFC3987 []byte

// Names of the extension sources, as positions in messages show them.
const (
	RFC6874Name = "grammar/ext/rfc6874.abnf"
	RFC3987Name = "grammar/ext/rfc3987.abnf"
)

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

// Package rfc3986 implements RFC 3986, Uniform Resource Identifier (URI):
// Generic Syntax, with a parser generated from the RFC's own grammar.
//
// The grammar is RFC 3986 Appendix A, verbatim (grammar/rfc3986.abnf). The
// gen command translates it to a parsing expression grammar that accepts
// exactly the ABNF's language (grammar/uri.peg), and pigeon turns that into
// the parser in package parser; see generate.go. Every generated parser is
// checked against an exact ABNF matcher (package gen/abnf).
//
// A [URI] is a comparable value holding the five components of RFC 3986
// §3 and whether each is defined: "http://a?" has an empty query,
// "http://a" has none. Parsing is lossless: u.String() is the input, byte
// for byte.
package rfc3986

import "github.com/peguri/rfc3986/parser"

// URI is a parsed URI reference; see [parser.URI]. The zero URI is the
// empty relative reference, which is valid.
type URI = parser.URI

// Parts are a URI's components as plain fields; see [parser.Parts].
type Parts = parser.Parts

// HostKind is the kind of a host (RFC 3986 §3.2.2).
type HostKind = parser.HostKind

// Host kinds.
const (
	HostNone      = parser.HostNone
	HostIPv4      = parser.HostIPv4
	HostIPv6      = parser.HostIPv6
	HostIPvFuture = parser.HostIPvFuture
	HostRegName   = parser.HostRegName
)

// Error is a parse error: input, byte offset, rule and expected set.
type Error = parser.Error

// Parse parses s as a URI-reference (RFC 3986 §4.1), a URI or a relative
// reference: the rule to use when any reference may appear.
func Parse(s string) (URI, error) { return parser.ParseReference(s) }

// ParseURI parses s as a URI (§3): a scheme is required.
func ParseURI(s string) (URI, error) { return parser.ParseURI(s) }

// ParseAbsolute parses s as an absolute-URI (§4.3): a scheme and no
// fragment, as a base URI must be (§5.1).
func ParseAbsolute(s string) (URI, error) { return parser.ParseAbsolute(s) }

// ParseRelative parses s as a relative-ref (§4.2): no scheme.
func ParseRelative(s string) (URI, error) { return parser.ParseRelative(s) }

// MustParse is like Parse but panics if s is not a URI reference. It is
// intended for use in tests and with hard-coded strings.
func MustParse(s string) URI {
	u, err := parser.ParseReference(s)
	if err != nil {
		panic(err)
	}
	return u
}

// Validate reports whether the whole of s matches the named rule of RFC 3986
// Appendix A (any rule, core rules included; names are case-insensitive),
// with an *Error saying where it does not.
func Validate(rule, s string) error { return parser.Validate(rule, s) }

// Package rfc3986 implements RFC 3986, Uniform Resource Identifier (URI):
// Generic Syntax, with a parser generated from the RFC's own grammar.
//
// The grammar is RFC 3986 Appendix A, verbatim (grammar/rfc3986.abnf). The
// gen command translates it to a parsing expression grammar that accepts
// exactly the ABNF's language (grammar/uri.peg), and pigeon turns that into
// the parser in package parser; see generate.go. Every generated parser is
// checked against an exact ABNF matcher (package abnf).
//
// A [URI] is a comparable value holding the five components of RFC 3986
// §3 and whether each is defined: "http://a?" has an empty query,
// "http://a" has none. Parsing is lossless: u.String() is the input, byte
// for byte.
//
// This package is the facade of packages parser and resolve: every name it
// has is the same name, with the same signature and the same defaults, in
// one of them ([Parse] is parser.ParseReference, the one exception, and
// [Error] is parser.Error), so that code moves between them unchanged.
package rfc3986

import "github.com/peguri/rfc3986/parser"

// URI is a parsed URI reference; see [parser.URI]. The zero URI is the
// empty relative reference, which is valid.
type URI = parser.URI

// Parts are a URI's components as plain fields; see [parser.Parts] and
// [FromParts].
type Parts = parser.Parts

// HostKind is the kind of a host (RFC 3986 §3.2.2).
type HostKind = parser.HostKind

// Host kinds; see [parser.HostKind].
const (
	HostNone      = parser.HostNone
	HostIPv4      = parser.HostIPv4
	HostIPv6      = parser.HostIPv6
	HostIPvFuture = parser.HostIPvFuture
	HostRegName   = parser.HostRegName
)

// Error is a parse error: input, byte offset, rule and expected set; see
// [parser.Error]. Every function of this package that parses text returns
// one (errors.As finds it) when the text does not parse.
type Error = parser.Error

// MaxLength is the longest input, in bytes, Parse and its siblings take
// (16 MiB); longer input is an *Error wrapping [ErrTooLong].
const MaxLength = parser.MaxLength

// Errors to test for with errors.Is; see package parser.
var (
	// ErrTooLong: an input, or a result, longer than MaxLength.
	ErrTooLong = parser.ErrTooLong
	// ErrUnknownRule: Validate was given a rule Appendix A does not have.
	ErrUnknownRule = parser.ErrUnknownRule
	// ErrUndefinedComponent: FromParts was given a component its flags
	// leave undefined.
	ErrUndefinedComponent = parser.ErrUndefinedComponent
)

// Parse parses s as a URI-reference (RFC 3986 §4.1), a URI or a relative
// reference: the rule to use when any reference may appear. It is
// parser.ParseReference.
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
// with an *Error saying where it does not, or an error wrapping
// [ErrUnknownRule] for a rule Appendix A does not have.
func Validate(rule, s string) error { return parser.Validate(rule, s) }

// FromParts builds the URI with exactly the components p gives (§5.3
// recomposition, checked by the parser). It refuses a component that p's
// flags leave undefined ([ErrUndefinedComponent]), and components that do
// not recompose into a URI reference with those components (an *Error);
// see [parser.FromParts].
func FromParts(p Parts) (URI, error) { return parser.FromParts(p) }

// Package rfc3986 implements RFC 3986, Uniform Resource Identifier (URI):
// Generic Syntax, with a parser generated from the RFC's own grammar.
//
// The grammar is RFC 3986 Appendix A, verbatim (grammar/rfc3986.abnf). The
// gen command translates it to a parsing expression grammar that accepts
// exactly the ABNF's language (grammar/uri.peg), which pigeon turns into a
// parser, and compiles the ABNF to minimal DFAs, which validate and split
// URIs, with functions that build pigeon's parse trees without pigeon;
// package parser holds them, see generate.go. Every generated parser is
// checked against an exact ABNF matcher (package abnf).
//
// A [URI] is a comparable value holding the five components of RFC 3986
// §3 and whether each is defined: "http://a?" has an empty query,
// "http://a" has none. Parsing is lossless: u.String() is the input, byte
// for byte.
//
// This package is the facade of packages parser and resolve: each function
// is the function of the same name in one of them, with the same
// signature and defaults, but for [Parse] and [MustParse], which are
// parser.ParseReference and parser.MustParseReference. [URI], [Builder] and
// [Normalizer] are types of their own, with the methods of parser's and
// resolve's, so that their methods show here and take and give this
// package's URIs: rfc3986.URI(u) and parser.URI(v) convert at no cost.
// The errors and the other types are those of parser and resolve ([Error]
// is parser.Error): errors.As finds them whichever package produced them.
package rfc3986

import (
	"net/url"

	"github.com/peguri/rfc3986/parser"
)

// URI is a parsed URI reference (RFC 3986 §4.1) split into its
// components, each with whether it is defined: "http://a?" has an empty
// query, "http://a" has none (§5.3 recomposes them differently). It is a
// comparable value in the spirit of net/netip.Addr: two URIs are == when
// they have the same text in the same grammar, and a URI can be a map key.
// URIs come from parsing, so every URI is valid. The zero URI is the
// empty relative reference "", which is valid too (§4.2).
//
// It is parser.URI as a type of this package, with the same methods:
// convert with parser.URI(u) and rfc3986.URI(v).
type URI parser.URI

// Scheme returns the scheme, without its ":"; "" when undefined.
func (u URI) Scheme() string { return parser.URI(u).Scheme() }

// HasScheme reports whether the scheme is defined: whether u is a URI
// rather than a relative reference (§4.1).
func (u URI) HasScheme() bool { return parser.URI(u).HasScheme() }

// Authority returns the authority as in the input, userinfo "@" host ":"
// port, without the leading "//"; "" when undefined.
func (u URI) Authority() string { return parser.URI(u).Authority() }

// HasAuthority reports whether the authority is defined ("//" present).
func (u URI) HasAuthority() bool { return parser.URI(u).HasAuthority() }

// Userinfo returns the userinfo, without its "@"; "" when undefined.
func (u URI) Userinfo() string { return parser.URI(u).Userinfo() }

// HasUserinfo reports whether the userinfo is defined ("@" present).
func (u URI) HasUserinfo() bool { return parser.URI(u).HasUserinfo() }

// Host returns the host as the host rule matched it: an IP literal keeps
// its brackets; "" for an empty host ("//") or when there is no authority.
func (u URI) Host() string { return parser.URI(u).Host() }

// HostKind returns the kind of the host (§3.2.2: a host that matches
// IPv4address is IPv4, not a reg-name); HostNone without an authority.
func (u URI) HostKind() HostKind { return parser.URI(u).HostKind() }

// Port returns the port digits, without the ":"; "" when undefined or
// empty.
func (u URI) Port() string { return parser.URI(u).Port() }

// HasPort reports whether the port is defined (":" after the host), even if
// empty: "http://a:/" has an empty port.
func (u URI) HasPort() bool { return parser.URI(u).HasPort() }

// Path returns the path. It is always defined, possibly empty (§3.3).
func (u URI) Path() string { return parser.URI(u).Path() }

// Query returns the query, without its "?"; "" when undefined.
func (u URI) Query() string { return parser.URI(u).Query() }

// HasQuery reports whether the query is defined ("?" present).
func (u URI) HasQuery() bool { return parser.URI(u).HasQuery() }

// Fragment returns the fragment, without its "#"; "" when undefined.
func (u URI) Fragment() string { return parser.URI(u).Fragment() }

// HasFragment reports whether the fragment is defined ("#" present).
func (u URI) HasFragment() bool { return parser.URI(u).HasFragment() }

// Parts returns u's components as plain fields.
func (u URI) Parts() Parts { return parser.URI(u).Parts() }

// Parser returns the parser of the grammar u was parsed with: RFC 3986's
// (and the zero URI's), or an extension's (rfc6874.Parser() for a URI
// with an IPv6 zone, rfc3987.Parser() for an IRI).
func (u URI) Parser() *Parser { return parser.URI(u).Parser() }

// String recomposes the components (§5.3): for a parsed URI, the input,
// byte for byte. It costs nothing, a URI being its text.
func (u URI) String() string { return parser.URI(u).String() }

// AppendText appends u.String() to b (encoding.TextAppender).
func (u URI) AppendText(b []byte) ([]byte, error) { return parser.URI(u).AppendText(b) }

// MarshalText returns u.String() (encoding.TextMarshaler).
func (u URI) MarshalText() ([]byte, error) { return parser.URI(u).MarshalText() }

// UnmarshalText parses text into u as [URI.Set] does
// (encoding.TextUnmarshaler). Empty text gives the zero URI, the empty
// reference. See [parser.URI.UnmarshalText] for IRIs.
func (u *URI) UnmarshalText(text []byte) error { return (*parser.URI)(u).UnmarshalText(text) }

// Set parses s into u as a URI-reference, as Parse does, in u's grammar
// (RFC 3986's for the zero URI; an IRI's takes IRIs: see
// [parser.URI.Set]); on failure it leaves u as it was. With String, it
// makes *URI a flag.Value.
func (u *URI) Set(s string) error { return (*parser.URI)(u).Set(s) }

// Parts are a URI's components as plain fields; see [parser.Parts] and
// [FromParts].
type Parts = parser.Parts

// Parser is one grammar's generated parsers: RFC 3986's ([parser.RFC3986]),
// an extension's, or yours; see [parser.Parser].
type Parser = parser.Parser

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

// Error is a parse error: the input, the byte offset where it stops, the
// innermost rule of Appendix A that could not continue there and what
// could have come instead; see [parser.Error]. Every function of this
// package that parses text returns one (errors.As finds it) when the text
// does not parse.
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
	// ErrNilURL: FromURL was given nil.
	ErrNilURL = parser.ErrNilURL
	// ErrHostChanged: FromURL was given a url.URL whose text names
	// another host than its Host field.
	ErrHostChanged = parser.ErrHostChanged
)

// Parse parses s as a URI-reference (RFC 3986 §4.1), a URI or a relative
// reference: the rule to use when any reference may appear. It is
// parser.ParseReference.
//
// It parses in place, with [URI.Set], so that no URI is copied on the way
// back.
func Parse(s string) (u URI, err error) {
	err = u.Set(s)
	return u, err
}

// ParseURI parses s as a URI (§3): a scheme is required.
func ParseURI(s string) (URI, error) { u, err := parser.ParseURI(s); return URI(u), err }

// ParseAbsolute parses s as an absolute-URI (§4.3): a scheme and no
// fragment, as a base URI must be (§5.1).
func ParseAbsolute(s string) (URI, error) { u, err := parser.ParseAbsolute(s); return URI(u), err }

// ParseRelative parses s as a relative-ref (§4.2): no scheme.
func ParseRelative(s string) (URI, error) { u, err := parser.ParseRelative(s); return URI(u), err }

// MustParse is like Parse but panics if s is not a URI reference. It is
// intended for use in tests and with hard-coded strings. It is
// parser.MustParseReference.
func MustParse(s string) URI { return URI(parser.MustParseReference(s)) }

// Validate reports whether the whole of s matches the named rule of RFC 3986
// Appendix A (any rule, core rules included; names are case-insensitive;
// "" is URI-reference),
// with an *Error saying where it does not, or an error wrapping
// [ErrUnknownRule] for a rule Appendix A does not have.
func Validate(rule, s string) error { return parser.Validate(rule, s) }

// FromParts builds the URI with exactly the components p gives (§5.3
// recomposition, checked by the parser). It refuses a component that p's
// flags leave undefined ([ErrUndefinedComponent]), and components that do
// not recompose into a URI reference with those components (an *Error);
// see [parser.FromParts].
func FromParts(p Parts) (URI, error) { u, err := parser.FromParts(p); return URI(u), err }

// ToURL converts u to a *url.URL, never changing what the host is; see
// [parser.ToURL] for what net/url cannot hold.
func ToURL(u URI) *url.URL { return parser.ToURL(parser.URI(u)) }

// FromURL parses v.String() as a URI-reference, and checks that its host
// and port are v's; see [parser.FromURL].
func FromURL(v *url.URL) (URI, error) { u, err := parser.FromURL(v); return URI(u), err }

package rfc3986

import (
	"net/netip"

	"github.com/peguri/rfc3986/parser"
)

// Producing URIs: percent-encoding with the characters each component
// allows (derived from Appendix A by gen, never typed by hand), decoding,
// decoded views of a URI, and a builder that can only make valid URIs.
// These are package parser's; see it for the details.

// Component is a part of a URI reference that text is encoded for; see
// [parser.Component].
type Component = parser.Component

// The components, each with its Appendix A rule's characters.
const (
	Userinfo     = parser.Userinfo     // userinfo: unreserved, sub-delims, ":"
	Host         = parser.Host         // reg-name: unreserved, sub-delims
	Segment      = parser.Segment      // segment: pchar ("/" encoded)
	FirstSegment = parser.FirstSegment // segment-nz-nc: pchar but ":" (§4.2)
	Query        = parser.Query        // query: pchar, "/", "?"
	Fragment     = parser.Fragment     // fragment: pchar, "/", "?"
	QueryPart    = parser.QueryPart    // a key or value of key=value&…: the query's, but "&", "=", "+"
)

// ParseComponent returns the component of a name Component.String
// returns ("segment", "query-part", …).
func ParseComponent(name string) (Component, error) { return parser.ParseComponent(name) }

// Encode percent-encodes raw, any bytes, for component c: the shortest
// text the component's rule matches that decodes to raw; a "%" of raw is
// data ("%25"), so nothing is encoded twice (§2.4).
func Encode(c Component, raw string) string { return parser.Encode(c, raw) }

// AppendEncode appends Encode(c, raw) to dst.
func AppendEncode(dst []byte, c Component, raw string) []byte {
	return parser.AppendEncode(dst, c, raw)
}

// Escape encodes what component c does not allow in s, keeping the
// percent-encodings s has: for text that is partly encoded already.
func Escape(c Component, s string) string { return parser.Escape(c, s) }

// AppendEscape appends Escape(c, s) to dst.
func AppendEscape(dst []byte, c Component, s string) []byte {
	return parser.AppendEscape(dst, c, s)
}

// Decode returns the bytes s percent-encodes; a malformed "%" is a
// [*DecodeError] at its offset.
func Decode(s string) (string, error) { return parser.Decode(s) }

// AppendDecode appends Decode(s) to dst.
func AppendDecode(dst []byte, s string) ([]byte, error) { return parser.AppendDecode(dst, s) }

// FormDecode is Decode with HTML forms' "+" for a space.
func FormDecode(s string) (string, error) { return parser.FormDecode(s) }

// DecodeError is the error of decoding a malformed percent-encoding; see
// [parser.DecodeError].
type DecodeError = parser.DecodeError

// QueryPair is one key=value pair of a query, decoded; see
// [parser.QueryPair].
type QueryPair = parser.QueryPair

// PortError is the error of a port above 65535.
type PortError = parser.PortError

// BuildError is an error of [Builder.Build]: the component at fault and
// why.
type BuildError = parser.BuildError

// Errors of PortNumber, of encoding and of Build; see package parser.
var (
	ErrNoPort       = parser.ErrNoPort
	ErrPortRange    = parser.ErrPortRange
	ErrNoCharset    = parser.ErrNoCharset
	ErrScheme       = parser.ErrScheme
	ErrNoHost       = parser.ErrNoHost
	ErrRootless     = parser.ErrRootless
	ErrEmptySegment = parser.ErrEmptySegment
	ErrZone         = parser.ErrZone
	ErrHost         = parser.ErrHost
)

// DecodedUserinfo returns the userinfo, percent-decoded; "" when undefined.
func (u URI) DecodedUserinfo() string { return parser.URI(u).DecodedUserinfo() }

// DecodedHost returns the host, percent-decoded (an IP literal as
// written); "" without an authority.
func (u URI) DecodedHost() string { return parser.URI(u).DecodedHost() }

// DecodedQuery returns the query, percent-decoded; "" when undefined.
func (u URI) DecodedQuery() string { return parser.URI(u).DecodedQuery() }

// DecodedFragment returns the fragment, percent-decoded; "" when
// undefined.
func (u URI) DecodedFragment() string { return parser.URI(u).DecodedFragment() }

// PathSegments returns the path's segments, each decoded: "%2F" never
// splits a segment.
func (u URI) PathSegments() []string { return parser.URI(u).PathSegments() }

// QueryPairs splits the query into key=value pairs at "&" and "=", each
// decoded; order and duplicates kept, "+" itself.
func (u URI) QueryPairs() []QueryPair { return parser.URI(u).QueryPairs() }

// FormPairs is QueryPairs with HTML forms' "+" for a space.
func (u URI) FormPairs() []QueryPair { return parser.URI(u).FormPairs() }

// Addr returns the host as an IP address when it is one (§3.2.2).
func (u URI) Addr() (netip.Addr, bool) { return parser.URI(u).Addr() }

// PortNumber returns the port as a number, with an error wrapping
// ErrNoPort or ErrPortRange (above 65535).
func (u URI) PortNumber() (uint16, error) { return parser.URI(u).PortNumber() }

// Builder returns a Builder of u's grammar holding u's components as
// written: to make a URI from u with some replaced.
func (u URI) Builder() Builder { return Builder{parser.URI(u).Builder()} }

// Builder makes a URI reference from raw components, each percent-encoded
// with its component's characters; it can only make valid URIs. It is a
// value: each method returns a Builder with one component set. The zero
// Builder is [NewBuilder]'s. See [parser.Builder] for the rules.
//
//	u, err := rfc3986.NewBuilder().Scheme("https").Host("example.com").
//		Path("a b", "c/d").Query("q", "1&2").Fragment("x y").Build()
//	// https://example.com/a%20b/c%2Fd?q=1%262#x%20y
type Builder struct{ b parser.Builder }

// NewBuilder returns a Builder of RFC 3986 URI references with no
// component set.
func NewBuilder() Builder { return Builder{parser.NewBuilder()} }

// Scheme sets the scheme, which must match the scheme rule (§3.1).
func (b Builder) Scheme(scheme string) Builder { return Builder{b.b.Scheme(scheme)} }

// NoScheme leaves the scheme undefined.
func (b Builder) NoScheme() Builder { return Builder{b.b.NoScheme()} }

// Userinfo sets the userinfo from raw text (":" kept).
func (b Builder) Userinfo(raw string) Builder { return Builder{b.b.Userinfo(raw)} }

// User sets the userinfo to a user name (":" encoded).
func (b Builder) User(name string) Builder { return Builder{b.b.User(name)} }

// UserPassword sets the userinfo to name ":" password.
func (b Builder) UserPassword(name, password string) Builder {
	return Builder{b.b.UserPassword(name, password)}
}

// Host sets the host: an IP address as one (IPv6 in brackets), any other
// name as a registered name, encoded.
func (b Builder) Host(name string) Builder { return Builder{b.b.Host(name)} }

// RegName sets the host to a registered name, encoded, whatever it looks
// like.
func (b Builder) RegName(name string) Builder { return Builder{b.b.RegName(name)} }

// HostAddr sets the host to an IP address.
func (b Builder) HostAddr(a netip.Addr) Builder { return Builder{b.b.HostAddr(a)} }

// NoAuthority leaves the authority undefined.
func (b Builder) NoAuthority() Builder { return Builder{b.b.NoAuthority()} }

// Port sets the port.
func (b Builder) Port(port uint16) Builder { return Builder{b.b.Port(port)} }

// Path sets an absolute path of the segments, each encoded.
func (b Builder) Path(segments ...string) Builder { return Builder{b.b.Path(segments...)} }

// RelativePath sets a rootless path of the segments, each encoded (the
// first segment's ":" too, without a scheme: §4.2).
func (b Builder) RelativePath(segments ...string) Builder {
	return Builder{b.b.RelativePath(segments...)}
}

// Query appends the pair key=value to the query, each encoded.
func (b Builder) Query(key, value string) Builder { return Builder{b.b.Query(key, value)} }

// QueryKey appends a key without a value to the query, encoded.
func (b Builder) QueryKey(key string) Builder { return Builder{b.b.QueryKey(key)} }

// RawQuery sets the query to text, escaped: its percent-encodings kept.
func (b Builder) RawQuery(text string) Builder { return Builder{b.b.RawQuery(text)} }

// NoQuery leaves the query undefined.
func (b Builder) NoQuery() Builder { return Builder{b.b.NoQuery()} }

// Fragment sets the fragment from raw text, encoded.
func (b Builder) Fragment(raw string) Builder { return Builder{b.b.Fragment(raw)} }

// NoFragment leaves the fragment undefined.
func (b Builder) NoFragment() Builder { return Builder{b.b.NoFragment()} }

// Build returns the URI reference, checked by the parser; the error is a
// [*BuildError].
func (b Builder) Build() (URI, error) { u, err := b.b.Build(); return URI(u), err }

// String is Build's text, or "" when Build fails.
func (b Builder) String() string { return b.b.String() }

// Package parser parses URI references with the parsers generated from RFC
// 3986 Appendix A — minimal DFAs (gen dfa), the fast path, and the parser
// pigeon generated from grammar/uri.peg (gen peg), which builds parse trees
// and explains errors — and builds typed URIs.
//
// Its names are the typed [URI], [Error], and one entry point per start
// rule of the RFC: [ParseReference] (URI-reference, the default),
// [ParseURI], [ParseAbsolute], [ParseRelative], plus [ParseRule], which
// validates input against any rule of the grammar by name and returns its
// parse tree. The generated code lives in an internal package, so that
// pigeon's own API stays out of this one; a [Syntax] serves any generated
// grammar (the extensions in rfc6874 and rfc3987, a scheme's own rules)
// with the same entry points.
package parser

import (
	"strings"
)

// HostKind is the kind of a URI's host (RFC 3986 §3.2.2).
type HostKind uint8

const (
	// HostNone: the URI has no authority, so no host.
	HostNone HostKind = iota
	// HostIPv4: the host matches IPv4address. §3.2.2: a host that matches
	// IPv4address is an IPv4 address, even though it also matches reg-name.
	HostIPv4
	// HostIPv6: an IP-literal holding an IPv6address.
	HostIPv6
	// HostIPvFuture: an IP-literal holding an IPvFuture.
	HostIPvFuture
	// HostRegName: a registered name, possibly empty.
	HostRegName
)

// String returns "ipv4", "ipv6", "ipvfuture", "regname", or "" for
// HostNone: the spellings of the CLI's JSON.
func (k HostKind) String() string {
	return [...]string{"", "ipv4", "ipv6", "ipvfuture", "regname"}[k]
}

// URI is a URI reference (RFC 3986 §4.1) split into its components, each
// with whether it is defined: "http://a?" has an empty query, "http://a"
// has none (§5.3 recomposes them differently). It is a comparable value, in
// the spirit of net/netip.Addr: it supports == (two URIs are == when they
// have the same components, that is, the same text) and can be a map key.
//
// URIs come from parsing, so every URI is valid. The zero URI is the empty
// relative reference "", which is valid too (RFC 3986 §4.2: relative-part
// can be path-empty).
type URI struct {
	scheme, userinfo, host, port, path, query, fragment string

	flags    uint8
	hostKind HostKind
}

const (
	hasScheme uint8 = 1 << iota
	hasAuthority
	hasUserinfo
	hasPort
	hasQuery
	hasFragment
)

func (u URI) has(f uint8) bool { return u.flags&f != 0 }

// Scheme returns the scheme, without its ":"; "" when undefined.
func (u URI) Scheme() string { return u.scheme }

// HasScheme reports whether the scheme is defined: whether u is a URI
// rather than a relative reference (§4.1).
func (u URI) HasScheme() bool { return u.has(hasScheme) }

// IsAbs reports whether u has a scheme; the same as HasScheme, named as in
// net/url.
func (u URI) IsAbs() bool { return u.has(hasScheme) }

// HasAuthority reports whether the authority is defined ("//" present).
func (u URI) HasAuthority() bool { return u.has(hasAuthority) }

// Authority returns the authority as in the input, userinfo "@" host ":"
// port, without the leading "//"; "" when undefined.
func (u URI) Authority() string {
	if !u.has(hasAuthority) {
		return ""
	}
	var b strings.Builder
	u.appendAuthority(&b)
	return b.String()
}

func (u URI) appendAuthority(b *strings.Builder) {
	if u.has(hasUserinfo) {
		b.WriteString(u.userinfo)
		b.WriteByte('@')
	}
	b.WriteString(u.host)
	if u.has(hasPort) {
		b.WriteByte(':')
		b.WriteString(u.port)
	}
}

// Userinfo returns the userinfo, without its "@"; "" when undefined.
func (u URI) Userinfo() string { return u.userinfo }

// HasUserinfo reports whether the userinfo is defined ("@" present).
func (u URI) HasUserinfo() bool { return u.has(hasUserinfo) }

// Host returns the host as the host rule matched it: an IP literal keeps
// its brackets; "" for an empty host ("//") or when there is no authority.
func (u URI) Host() string { return u.host }

// HostKind returns the kind of the host; HostNone when there is no
// authority.
func (u URI) HostKind() HostKind { return u.hostKind }

// Port returns the port digits, without the ":"; "" when undefined or
// empty.
func (u URI) Port() string { return u.port }

// HasPort reports whether the port is defined (":" after the host), even if
// empty: "http://a:/" has an empty port.
func (u URI) HasPort() bool { return u.has(hasPort) }

// Path returns the path. It is always defined, possibly empty (§3.3).
func (u URI) Path() string { return u.path }

// Query returns the query, without its "?"; "" when undefined.
func (u URI) Query() string { return u.query }

// HasQuery reports whether the query is defined ("?" present).
func (u URI) HasQuery() bool { return u.has(hasQuery) }

// Fragment returns the fragment, without its "#"; "" when undefined.
func (u URI) Fragment() string { return u.fragment }

// HasFragment reports whether the fragment is defined ("#" present).
func (u URI) HasFragment() bool { return u.has(hasFragment) }

// String recomposes the components (RFC 3986 §5.3). For a parsed URI it is
// the input, byte for byte.
func (u URI) String() string {
	var b strings.Builder
	b.Grow(len(u.scheme) + len(u.userinfo) + len(u.host) + len(u.port) + len(u.path) + len(u.query) + len(u.fragment) + 8)
	u.appendTo(&b)
	return b.String()
}

// AppendText appends u.String() to b (encoding.TextAppender).
func (u URI) AppendText(b []byte) ([]byte, error) {
	return append(b, u.String()...), nil
}

// MarshalText returns u.String() (encoding.TextMarshaler).
func (u URI) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText parses text as a URI-reference (encoding.TextUnmarshaler).
// Empty text gives the zero URI, the empty reference.
func (u *URI) UnmarshalText(text []byte) error {
	v, err := ParseReference(string(text))
	if err != nil {
		return err
	}
	*u = v
	return nil
}

func (u URI) appendTo(b *strings.Builder) {
	// RFC 3986 §5.3, Component Recomposition.
	if u.has(hasScheme) {
		b.WriteString(u.scheme)
		b.WriteByte(':')
	}
	if u.has(hasAuthority) {
		b.WriteString("//")
		u.appendAuthority(b)
	}
	b.WriteString(u.path)
	if u.has(hasQuery) {
		b.WriteByte('?')
		b.WriteString(u.query)
	}
	if u.has(hasFragment) {
		b.WriteByte('#')
		b.WriteString(u.fragment)
	}
}

// Parts are the components of a URI, each with whether it is defined, as
// plain fields: the form to build a URI from (see [FromParts]) and to read
// one in bulk. Host is defined exactly when the authority is.
type Parts struct {
	Scheme       string
	HasScheme    bool
	HasAuthority bool
	Userinfo     string
	HasUserinfo  bool
	Host         string
	Port         string
	HasPort      bool
	Path         string
	Query        string
	HasQuery     bool
	Fragment     string
	HasFragment  bool
}

// Parts returns u's components.
func (u URI) Parts() Parts {
	return Parts{
		Scheme: u.scheme, HasScheme: u.has(hasScheme),
		HasAuthority: u.has(hasAuthority),
		Userinfo:     u.userinfo, HasUserinfo: u.has(hasUserinfo),
		Host: u.host,
		Port: u.port, HasPort: u.has(hasPort),
		Path:  u.path,
		Query: u.query, HasQuery: u.has(hasQuery),
		Fragment: u.fragment, HasFragment: u.has(hasFragment),
	}
}

// String recomposes the parts (RFC 3986 §5.3) without checking them.
func (p Parts) String() string {
	u := URI{scheme: p.Scheme, userinfo: p.Userinfo, host: p.Host, port: p.Port, path: p.Path, query: p.Query, fragment: p.Fragment}
	set := func(f uint8, ok bool) {
		if ok {
			u.flags |= f
		}
	}
	set(hasScheme, p.HasScheme)
	set(hasAuthority, p.HasAuthority)
	set(hasUserinfo, p.HasUserinfo && p.HasAuthority)
	set(hasPort, p.HasPort && p.HasAuthority)
	set(hasQuery, p.HasQuery)
	set(hasFragment, p.HasFragment)
	return u.String()
}

// FromParts recomposes p (§5.3) and parses the result as a URI-reference,
// so that the URI it returns is valid and has exactly the given components.
// It fails if the recomposed text is not a URI reference, or parses into
// other components than p's (a path beginning with "//" and no authority,
// say: §3.3).
func FromParts(p Parts) (URI, error) {
	s := p.String()
	u, err := ParseReference(s)
	if err != nil {
		return URI{}, err
	}
	want := p
	if !want.HasAuthority {
		want.Host, want.Userinfo, want.HasUserinfo, want.Port, want.HasPort = "", "", false, "", false
	}
	if !want.HasUserinfo {
		want.Userinfo = ""
	}
	if !want.HasPort {
		want.Port = ""
	}
	if !want.HasScheme {
		want.Scheme = ""
	}
	if !want.HasQuery {
		want.Query = ""
	}
	if !want.HasFragment {
		want.Fragment = ""
	}
	if u.Parts() != want {
		return URI{}, &Error{Input: s, Offset: 0, Rule: "URI-reference", Msg: "the components recompose to text that parses into different components"}
	}
	return u, nil
}

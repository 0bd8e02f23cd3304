// Package parser parses URI references with the parsers generated from RFC
// 3986 Appendix A — minimal DFAs (gen dfa), the fast path, whose tables
// also say where and why an input is invalid and hold the functions that
// build parse trees (gen dfa -tree), and the parser pigeon generated from
// grammar/uri.peg (gen peg), the reference those trees are held to, which
// parses the rules that have no DFA — and builds typed URIs.
//
// Its names are the typed [URI], [Error], and one entry point per start
// rule of the RFC: [ParseReference] (URI-reference, the default),
// [ParseURI], [ParseAbsolute], [ParseRelative], plus [ParseRule], which
// validates input against any rule of the grammar by name and returns its
// parse tree. The generated code lives in an internal package, so that
// pigeon's own API stays out of this one; a [Parser] serves any generated
// grammar (the extensions in rfc6874 and rfc3987, a scheme's own rules)
// with the same entry points.
package parser

import (
	"fmt"
	"strconv"
	"unsafe"

	"github.com/peguri/rfc3986/internal/urilayout"
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
// HostNone: the spellings of the CLI's JSON. A value outside the constants
// is "HostKind(N)".
func (k HostKind) String() string {
	switch k {
	case HostNone:
		return ""
	case HostIPv4:
		return "ipv4"
	case HostIPv6:
		return "ipv6"
	case HostIPvFuture:
		return "ipvfuture"
	case HostRegName:
		return "regname"
	}
	return "HostKind(" + strconv.Itoa(int(k)) + ")"
}

// URI is a URI reference (RFC 3986 §4.1) split into its components, each
// with whether it is defined: "http://a?" has an empty query, "http://a"
// has none (§5.3 recomposes them differently). It is a comparable value, in
// the spirit of net/netip.Addr: it supports == (two URIs are == when they
// have the same components, that is, the same text) and can be a map key.
//
// URIs come from parsing, so every URI is valid, in the grammar of the
// [Parser] that parsed it, which it remembers ([URI.Parser]): an IRI of
// RFC 3987, a URI with an IPv6 zone of RFC 6874, or an RFC 3986 URI
// reference; two URIs are == only when their grammars are the same. The
// zero URI is the empty relative reference "" of RFC 3986, which is valid
// too (RFC 3986 §4.2: relative-part can be path-empty).
type URI struct {
	// A URI is its text and where its components are in it: 64 bytes to
	// copy, with the grammar and padding (see _), where seven strings were
	// 120, and String is free. The offsets are at most MaxLength. The scheme is text[:schemeEnd]; the
	// userinfo ends at hostStart-1 and begins after the "//"; the host is
	// text[hostStart:hostEnd] (0, 0 without an authority); the port runs
	// from hostEnd+1 to pathStart; the path is text[pathStart:pathEnd];
	// the query ends at queryEnd (pathEnd when it is undefined), and the
	// fragment follows it. Offsets of undefined components are 0, or as
	// said, so that the same text has the same URI. Package resolve reads
	// and fills these fields through urilayout.Fields, which mirrors them:
	// change both, or TestFieldsMirror fails.
	text                                              string
	schemeEnd, hostStart, hostEnd, pathStart, pathEnd uint32
	queryEnd                                          uint32
	flags                                             uint8
	hostKind                                          HostKind
	// p is the grammar the text was parsed with; nil for RFC 3986's, so
	// that the zero URI is the empty reference of RFC 3986.
	p *Parser
	// _ pads the URI to 64 bytes. At 56, the compiler copies it with
	// 16-byte moves at offsets 0, 16, 32 and 40; the last two overlap, so
	// the load of a copy that follows a copy cannot take its bytes from
	// the stores still in flight and waits for them: returning a URI
	// through two functions cost more than parsing a short reference.
	_ [8]byte
}

// Parser returns the parser of the grammar u was parsed with: RFC3986()
// for a URI of RFC 3986 (and for the zero URI), rfc6874.Parser() for one
// with an IPv6 zone identifier, rfc3987.Parser() for an IRI. Package
// resolve checks what it computes from u with it.
func (u URI) Parser() *Parser {
	if u.p == nil {
		return rfc3986
	}
	return u.p
}

// The flags of a URI: which components are defined. They are the bridge's
// (internal/urilayout), through which package resolve makes the URIs of
// targets it has proven without parsing them again.
const (
	hasScheme    = urilayout.Scheme
	hasAuthority = urilayout.Authority
	hasUserinfo  = urilayout.Userinfo
	hasPort      = urilayout.Port
	hasQuery     = urilayout.Query
	hasFragment  = urilayout.Fragment
)

func (u URI) has(f uint8) bool { return u.flags&f != 0 }

// authStart is where the authority begins, after "//".
func (u URI) authStart() uint32 {
	if u.has(hasScheme) {
		return u.schemeEnd + 3
	}
	return 2
}

// Scheme returns the scheme, without its ":"; "" when undefined.
func (u URI) Scheme() string { return u.text[:u.schemeEnd] }

// HasScheme reports whether the scheme is defined: whether u is a URI
// rather than a relative reference (§4.1).
func (u URI) HasScheme() bool { return u.has(hasScheme) }

// HasAuthority reports whether the authority is defined ("//" present).
func (u URI) HasAuthority() bool { return u.has(hasAuthority) }

// Authority returns the authority as in the input, userinfo "@" host ":"
// port, without the leading "//"; "" when undefined.
func (u URI) Authority() string {
	if !u.has(hasAuthority) {
		return ""
	}
	return u.text[u.authStart():u.pathStart]
}

// Userinfo returns the userinfo, without its "@"; "" when undefined.
func (u URI) Userinfo() string {
	if !u.has(hasUserinfo) {
		return ""
	}
	return u.text[u.authStart() : u.hostStart-1]
}

// HasUserinfo reports whether the userinfo is defined ("@" present).
func (u URI) HasUserinfo() bool { return u.has(hasUserinfo) }

// Host returns the host as the host rule matched it: an IP literal keeps
// its brackets; "" for an empty host ("//") or when there is no authority.
func (u URI) Host() string { return u.text[u.hostStart:u.hostEnd] }

// HostKind returns the kind of the host; HostNone when there is no
// authority.
func (u URI) HostKind() HostKind { return u.hostKind }

// Port returns the port digits, without the ":"; "" when undefined or
// empty.
func (u URI) Port() string {
	if !u.has(hasPort) {
		return ""
	}
	return u.text[u.hostEnd+1 : u.pathStart]
}

// HasPort reports whether the port is defined (":" after the host), even if
// empty: "http://a:/" has an empty port.
func (u URI) HasPort() bool { return u.has(hasPort) }

// Path returns the path. It is always defined, possibly empty (§3.3).
func (u URI) Path() string { return u.text[u.pathStart:u.pathEnd] }

// Query returns the query, without its "?"; "" when undefined.
func (u URI) Query() string {
	if !u.has(hasQuery) {
		return ""
	}
	return u.text[u.pathEnd+1 : u.queryEnd]
}

// HasQuery reports whether the query is defined ("?" present).
func (u URI) HasQuery() bool { return u.has(hasQuery) }

// Fragment returns the fragment, without its "#"; "" when undefined.
func (u URI) Fragment() string {
	if !u.has(hasFragment) {
		return ""
	}
	return u.text[u.queryEnd+1:]
}

// HasFragment reports whether the fragment is defined ("#" present).
func (u URI) HasFragment() bool { return u.has(hasFragment) }

// String recomposes the components (RFC 3986 §5.3). For a parsed URI it is
// the input, byte for byte; it costs nothing, a URI being its text.
func (u URI) String() string { return u.text }

// AppendText appends u.String() to b (encoding.TextAppender).
func (u URI) AppendText(b []byte) ([]byte, error) {
	return append(b, u.text...), nil
}

// MarshalText returns u.String() (encoding.TextMarshaler).
func (u URI) MarshalText() ([]byte, error) { return []byte(u.text), nil }

// UnmarshalText parses text into u as [URI.Set] does
// (encoding.TextUnmarshaler): with u's grammar, RFC 3986's for the zero
// URI. Empty text gives the empty reference: the zero URI in RFC 3986.
// MarshalText's text of a URI of another grammar (an IRI, a zone
// identifier) reads back into a URI of that grammar; encoding/json
// unmarshals into the value a field already holds, so a field that must
// take IRIs starts as one: rfc3987.Parser().Parse("", "").
func (u *URI) UnmarshalText(text []byte) error { return u.Set(string(text)) }

// Set parses s into u as the default reference rule of u's grammar (see
// [URI.Parser]): URI-reference for the zero URI and any URI of RFC 3986,
// as ParseReference does; IRI-reference for an IRI, and RFC 6874's
// URI-reference for a URI of that grammar. On failure it leaves u as it
// was. With String, it makes *URI a flag.Value (flag.Var(&u, "base",
// "…")). It parses in place: where the URI is a field or an element, no
// URI is copied.
func (u *URI) Set(s string) error { return rfc3986.parseURI(u, 0, s) } // parseURI takes u's grammar

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
		Scheme: u.Scheme(), HasScheme: u.has(hasScheme),
		HasAuthority: u.has(hasAuthority),
		Userinfo:     u.Userinfo(), HasUserinfo: u.has(hasUserinfo),
		Host: u.Host(),
		Port: u.Port(), HasPort: u.has(hasPort),
		Path:  u.Path(),
		Query: u.Query(), HasQuery: u.has(hasQuery),
		Fragment: u.Fragment(), HasFragment: u.has(hasFragment),
	}
}

// Authority returns the authority the parts recompose (§3.2): userinfo
// "@" host ":" port, each as defined; "" when HasAuthority is false.
func (p Parts) Authority() string {
	if !p.HasAuthority {
		return ""
	}
	s := p.Host
	if p.HasUserinfo {
		s = p.Userinfo + "@" + s
	}
	if p.HasPort {
		s += ":" + p.Port
	}
	return s
}

// String recomposes the parts (RFC 3986 §5.3) without checking them: a
// component whose flag says it is undefined is left out, as are userinfo
// and port when there is no authority.
func (p Parts) String() string {
	// RFC 3986 §5.3, Component Recomposition, into one buffer of the exact
	// length, with copy (a strings.Builder checked its capacity at each of
	// its writes).
	buf := make([]byte, p.Len())
	w := 0
	put := func(s string) { w += copy(buf[w:], s) }
	if p.HasScheme {
		put(p.Scheme)
		put(":")
	}
	if p.HasAuthority {
		put("//")
		if p.HasUserinfo {
			put(p.Userinfo)
			put("@")
		}
		put(p.Host)
		if p.HasPort {
			put(":")
			put(p.Port)
		}
	}
	put(p.Path)
	if p.HasQuery {
		put("?")
		put(p.Query)
	}
	if p.HasFragment {
		put("#")
		put(p.Fragment)
	}
	// buf is never written again: its bytes are the string's.
	return unsafe.String(unsafe.SliceData(buf), len(buf))
}

// Len is the length of p.String(), computed without writing it.
func (p Parts) Len() int {
	n := len(p.Path)
	if p.HasScheme {
		n += len(p.Scheme) + 1
	}
	if p.HasAuthority {
		n += 2 + len(p.Host)
		if p.HasUserinfo {
			n += len(p.Userinfo) + 1
		}
		if p.HasPort {
			n += 1 + len(p.Port)
		}
	}
	if p.HasQuery {
		n += 1 + len(p.Query)
	}
	if p.HasFragment {
		n += 1 + len(p.Fragment)
	}
	return n
}

// FromParts builds the URI with exactly the components p gives: it
// recomposes them (§5.3) and checks the text with the URI-reference DFA,
// which splits it without allocating. It fails with an error wrapping
// [ErrUndefinedComponent] if p sets a component that its flags leave
// undefined (a Host, Userinfo or Port without HasAuthority, a Userinfo
// without HasUserinfo, a Port without HasPort, a Scheme, Query or Fragment
// without its Has flag): nothing is dropped silently. It fails with an
// [*Error] if the recomposed text is not a URI reference, or parses into
// other components than p's (a path beginning with "//" and no authority,
// say: §3.3).
func FromParts(p Parts) (URI, error) { return rfc3986.FromParts(p) }

// FromParts is the package's FromParts in s's grammar: the text is
// checked as s's reference rule (URI-reference, or IRI-reference for RFC
// 3987).
func (s *Parser) FromParts(p Parts) (URI, error) {
	if err := p.undefined(); err != nil {
		return URI{}, err
	}
	if len(s.uriRules) == 0 {
		return URI{}, s.notURIRule("")
	}
	text := p.String()
	var u URI
	if err := s.parseURI(&u, 0, text); err != nil {
		return URI{}, err
	}
	// The components were written one after the other, with their
	// delimiters: if the parse finds the same ones defined, with the same
	// lengths, it found each where it was written, and it is p's.
	if !u.sameShape(p) {
		return URI{}, &Error{Input: text, Offset: 0, Rule: s.uriRules[0], Msg: "the components recompose to text that parses into different components"}
	}
	return u, nil
}

// sameShape reports whether u has the components p defines, each of the
// same length as p's. (With the same flags, the components partition the
// same text with the same delimiters, so any one length follows from the
// others: TestSameShape fails without the lengths, not without one.) It
// reads u's offsets: its accessors, called through the pointer, would
// each copy the URI (a tenth of a normalization).
func (u *URI) sameShape(p Parts) bool {
	var want uint8
	for _, c := range [...]struct {
		has  bool
		flag uint8
	}{{p.HasScheme, hasScheme}, {p.HasAuthority, hasAuthority}, {p.HasUserinfo, hasUserinfo},
		{p.HasPort, hasPort}, {p.HasQuery, hasQuery}, {p.HasFragment, hasFragment}} {
		if c.has {
			want |= c.flag
		}
	}
	if u.flags != want || int(u.pathEnd-u.pathStart) != len(p.Path) {
		return false
	}
	if want&hasScheme != 0 && int(u.schemeEnd) != len(p.Scheme) {
		return false
	}
	if want&hasAuthority != 0 {
		if int(u.hostEnd-u.hostStart) != len(p.Host) ||
			want&hasUserinfo != 0 && int(u.hostStart-1-u.authStart()) != len(p.Userinfo) ||
			want&hasPort != 0 && int(u.pathStart-u.hostEnd-1) != len(p.Port) {
			return false
		}
	}
	if want&hasQuery != 0 && int(u.queryEnd-u.pathEnd-1) != len(p.Query) {
		return false
	}
	return want&hasFragment == 0 || len(u.text)-int(u.queryEnd)-1 == len(p.Fragment)
}

// undefined returns an error naming a component that p sets although its
// flags leave it undefined, or nil.
func (p Parts) undefined() error {
	bad := func(what string) error {
		return fmt.Errorf("parser: FromParts: %s: %w", what, ErrUndefinedComponent)
	}
	switch {
	case !p.HasScheme && p.Scheme != "":
		return bad(fmt.Sprintf("Scheme %q without HasScheme", clip(p.Scheme)))
	case !p.HasAuthority && p.Host != "":
		return bad(fmt.Sprintf("Host %q without HasAuthority", clip(p.Host)))
	case !p.HasAuthority && (p.HasUserinfo || p.Userinfo != ""):
		return bad("Userinfo without HasAuthority")
	case !p.HasAuthority && (p.HasPort || p.Port != ""):
		return bad("Port without HasAuthority")
	case !p.HasUserinfo && p.Userinfo != "":
		return bad(fmt.Sprintf("Userinfo %q without HasUserinfo", clip(p.Userinfo)))
	case !p.HasPort && p.Port != "":
		return bad(fmt.Sprintf("Port %q without HasPort", clip(p.Port)))
	case !p.HasQuery && p.Query != "":
		return bad(fmt.Sprintf("Query %q without HasQuery", clip(p.Query)))
	case !p.HasFragment && p.Fragment != "":
		return bad(fmt.Sprintf("Fragment %q without HasFragment", clip(p.Fragment)))
	}
	return nil
}

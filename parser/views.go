package parser

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"
)

// Decoded views of a parsed URI: the components as the bytes they encode.
// The parser has checked every percent-encoding, so decoding a component
// of a URI cannot fail, and these methods return no error.

// DecodedUserinfo returns the userinfo, percent-decoded; "" when undefined.
func (u URI) DecodedUserinfo() string { return decodeValid(u.Userinfo(), false) }

// DecodedHost returns the host, percent-decoded: a registered name as the
// bytes it encodes ("ex%41mple" is "exAmple"); an IP literal as written,
// brackets included, but for the "%25" of an RFC 6874 zone, which is "%".
// "" without an authority.
func (u URI) DecodedHost() string { return decodeValid(u.Host(), false) }

// DecodedQuery returns the query, percent-decoded ("+" is itself: see
// QueryPairs and FormPairs for the key=value convention); "" when
// undefined.
func (u URI) DecodedQuery() string { return decodeValid(u.Query(), false) }

// DecodedFragment returns the fragment, percent-decoded; "" when
// undefined.
func (u URI) DecodedFragment() string { return decodeValid(u.Fragment(), false) }

// PathSegments returns the path's segments, each percent-decoded: an
// encoded "/" ("%2F") is a byte of its segment and never splits it. An
// absolute path ("/a/b") and a relative one ("a/b") have the same
// segments, ["a" "b"] (the path says which it is); "/" is [""], and the
// empty path has none.
func (u URI) PathSegments() []string {
	p := u.Path()
	if p == "" {
		return nil
	}
	p = strings.TrimPrefix(p, "/")
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = decodeValid(s, false)
	}
	return segs
}

// QueryPair is one pair of a query under the "key=value&key=value"
// convention: Key and Value decoded, HasValue false for a pair without
// "=" ("a" in "a&b=1").
type QueryPair struct {
	Key, Value string
	HasValue   bool
}

// QueryPairs splits the query at each "&", and each part at its first
// "=", and decodes keys and values: the convention most servers and HTML
// forms use, which RFC 3986 leaves to each scheme (§3.4). Order and
// duplicates are kept; an empty part ("a&&b") is a pair with an empty key.
// "+" is itself: FormPairs reads it as a space. nil when the query is
// undefined or empty.
func (u URI) QueryPairs() []QueryPair { return queryPairs(u.Query(), false) }

// FormPairs is QueryPairs with the convention of HTML forms
// (application/x-www-form-urlencoded), where "+" is a space.
func (u URI) FormPairs() []QueryPair { return queryPairs(u.Query(), true) }

func queryPairs(q string, form bool) []QueryPair {
	if q == "" {
		return nil
	}
	var out []QueryPair
	for part := range strings.SplitSeq(q, "&") {
		k, v, ok := strings.Cut(part, "=")
		out = append(out, QueryPair{Key: decodeValid(k, form), Value: decodeValid(v, form), HasValue: ok})
	}
	return out
}

// Addr returns the host as an IP address when it is one (§3.2.2): an
// IPv4address, or an IP literal holding an IPv6address, with its zone
// for a URI of RFC 6874. A registered name, an IPvFuture or no host give
// false.
func (u URI) Addr() (netip.Addr, bool) {
	h := u.Host()
	switch u.HostKind() {
	case HostIPv4:
	case HostIPv6:
		h = decodeValid(h[1:len(h)-1], false) // a zone's "%25" is "%"
	default:
		return netip.Addr{}, false
	}
	a, err := netip.ParseAddr(h)
	return a, err == nil
}

// Errors of PortNumber.
var (
	// ErrNoPort: the port is undefined or empty.
	ErrNoPort = errors.New("no port")
	// ErrPortRange: the port is above 65535. RFC 3986's port is *DIGIT,
	// any number of digits (§3.2.3); TCP and UDP ports are 16 bits.
	ErrPortRange = errors.New("port above 65535")
)

// PortNumber returns the port as a number: an error wrapping ErrNoPort
// when it is undefined or empty, ErrPortRange above 65535 (leading zeros
// are allowed: "080" is 80).
func (u URI) PortNumber() (uint16, error) {
	p := u.Port()
	if p == "" {
		return 0, ErrNoPort
	}
	p = strings.TrimLeft(p, "0")
	if p == "" {
		return 0, nil
	}
	if len(p) > 5 {
		return 0, &PortError{Port: u.Port()}
	}
	n, _ := strconv.Atoi(p)
	if n > 65535 {
		return 0, &PortError{Port: u.Port()}
	}
	return uint16(n), nil
}

// PortError is the error of a port above 65535; it wraps ErrPortRange.
type PortError struct{ Port string }

func (e *PortError) Error() string { return "port " + clip(e.Port) + " is above 65535" }

// Unwrap returns ErrPortRange.
func (e *PortError) Unwrap() error { return ErrPortRange }

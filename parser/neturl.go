package parser

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// ToURL converts u to a *url.URL. net/url models URLs differently, and some
// URIs do not survive the trip (url.URL.String() differs from u.String()):
//
//   - An empty fragment ("http://a#") is lost: url.URL has no way to say a
//     fragment is defined but empty (golang.org/issue/29603).
//   - An empty authority with an empty path comes back without its "//"
//     ("http://" as "http:", "//?q" as "?q"): url.Parse reads them so too.
//   - Percent-encoding is net/url's afterwards: userinfo, a percent-encoded
//     reg-name ("ex%41mple") and paths are stored decoded, and String
//     re-encodes them its own way ("%41" becomes "A"; "%2F" in a path is
//     kept through RawPath).
//   - A scheme-relative URI's rootless path ("mailto:a@b") is stored in
//     Opaque, which String writes back as is.
//   - An IPvFuture host ("[v1.x]") is kept in Host, but url.Parse rejects it:
//     the String of the result does not parse back with net/url.
//
// Each component is where url.Parse of u.String() puts it, when url.Parse
// takes that text, but a reg-name's "%25" (see below): an empty authority
// before a path, without a scheme ("///a"), is part of Path; a path
// without an authority after a scheme ("foo:/bar") sets OmitHost; an IPv6
// zone (RFC 6874) is "%" and the zone in Host, decoded as url.Parse
// decodes it (a percent-encoding url.Parse refuses in a zone, of a
// non-ASCII byte say, stays encoded, and String encodes its "%" again).
//
// ToURL never changes what the host is. url.URL keeps the host and the
// port in one field, Host, and net/url splits them at the last ":"; it has
// no way to hold a percent-encoding in a host (url.Parse refuses one of an
// ASCII byte, but "%25", which it decodes to "%" in any host). So a
// reg-name is decoded only where the decoded character is safe: one that
// url.Parse takes as it is in a host and that delimits nothing there (a
// letter, a digit, "-", ".", "_", "~", a sub-delim, "<", ">", the double
// quote, a byte from 0x80 on). Any other percent-encoding, of ":", "/",
// "?", "#", "[", "]", "@", "%", "\", "^", "`", "{", "|", "}", a control
// character or a space, keeps its encoding in Host ("http://a%3A99/":
// Hostname "a%3A99", Port ""; "http://a%5Cb/": Hostname "a%5Cb", never
// the "a\b" a WHATWG parser would cut at the backslash), where String
// then writes its "%" as "%25", so that url.Parse of String gives the same
// Host back. A user of Hostname thus sees a name no resolver will take,
// never a host it did not ask for; and a "%25" stays "%25", so that a
// user who decodes Hostname once more gets "a%41" from "a%2541", not
// "aA".
//
// An IRI (package rfc3987) becomes the URL of the URI it maps to (RFC
// 3987 §3.1): String percent-encodes its characters, as rfc3987.ToURI
// does, in every component (net/url escapes the host, path and fragment
// it holds decoded; ToURL encodes the query and an opaque path).
//
// u.String() is always exact; prefer it wherever a string will do.
func ToURL(u URI) *url.URL {
	v := &url.URL{Scheme: u.Scheme()}
	if u.HasAuthority() {
		host := u.Host()
		switch u.HostKind() {
		case HostRegName:
			host = decodeHost(host)
		case HostIPv6:
			// A zone (RFC 6874 §2: "%25" and the ZoneID) is held as
			// url.Parse holds it: "%" and the zone, decoded where safe.
			if i := strings.Index(host, "%25"); i >= 0 {
				host = host[:i] + "%" + decodeZone(host[i+3:len(host)-1]) + "]"
			}
		}
		if u.HasPort() {
			host += ":" + u.Port()
		}
		v.Host = host
		if u.HasUserinfo() {
			// url.User escapes what the userinfo needs escaped when
			// String writes it: decoding cannot move "@" or ":".
			user, pass, hasPass := strings.Cut(u.Userinfo(), ":")
			user, _ = url.PathUnescape(user)
			if hasPass {
				pass, _ = url.PathUnescape(pass)
				v.User = url.UserPassword(user, pass)
			} else {
				v.User = url.User(user)
			}
		}
	}
	switch p := u.Path(); {
	case u.HasScheme() && !u.HasAuthority() && p != "" && p[0] != '/':
		v.Opaque = encodeNonASCII(p) // written as is: an IRI's, mapped (RFC 3987 §3.1)
	default:
		if u.HasAuthority() && !u.HasScheme() && v.Host == "" && v.User == nil && p != "" {
			// "///a": a url.URL writes no "//" for an empty authority
			// without a scheme, so the path holds it, as url.Parse has it.
			p = "//" + p
		}
		v.Path, _ = url.PathUnescape(p)
		// An IRI's characters encoded, or net/url would find RawPath no
		// encoding of Path and write its own, "%2F" decoded.
		v.RawPath = encodeNonASCII(p)
		// "foo:/bar" has no authority: without OmitHost, String would
		// write an empty one ("foo:///bar").
		v.OmitHost = u.HasScheme() && !u.HasAuthority() && p != ""
	}
	if u.HasQuery() {
		v.RawQuery = encodeNonASCII(u.Query()) // written as is: an IRI's, mapped
		v.ForceQuery = u.Query() == ""
	}
	if u.HasFragment() {
		v.Fragment, _ = url.PathUnescape(u.Fragment())
		v.RawFragment = encodeNonASCII(u.Fragment())
	}
	return v
}

// encodeNonASCII percent-encodes the bytes of s from 0x80 on: what RFC
// 3987 §3.1 maps an IRI's characters to, in the fields url.URL.String
// writes as they are (Opaque, RawQuery). A URI has none: s comes back.
func encodeNonASCII(s string) string {
	const hex = "0123456789ABCDEF"
	var b []byte
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 {
			if b == nil {
				b = append(make([]byte, 0, len(s)+16), s[:i]...)
			}
			b = append(b, '%', hex[c>>4], hex[c&15])
		} else if b != nil {
			b = append(b, c)
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

// decodeHost decodes the percent-encodings of a reg-name whose characters
// cannot change where the host ends or what it is (see ToURL).
func decodeHost(h string) string { return decodeSafe(h, hostSafe) }

// decodeZone decodes a zone's percent-encodings as url.Parse does (see
// zoneSafe); url.Parse refuses a zone with any other, which stays encoded
// here.
func decodeZone(z string) string { return decodeSafe(z, zoneSafe) }

// decodeSafe decodes the percent-encodings of s whose byte is safe, and
// keeps the others.
func decodeSafe(s string, safe func(byte) bool) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if c := unhex(s[i+1])<<4 | unhex(s[i+2]); safe(c) {
				b = append(b, c)
				i += 2
				continue
			}
		}
		b = append(b, s[i])
	}
	return string(b)
}

// zoneSafe reports whether url.Parse decodes c in a zone: "%" and space,
// and what net/url writes unencoded in a host (letters, digits, "-._~",
// sub-delims, ":", "[", "]", "<", ">" and the double quote: inside the
// brackets, its delimiters end nothing).
func zoneSafe(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("% -._~!$&'()*+,;=:[]<>\"", c) >= 0
}

// hostSafe reports whether a decoded byte may stand in url.URL's Host: a
// byte url.Parse takes unencoded in a host (a byte from 0x80 on, or one
// its shouldEscape leaves alone in a host) that is no delimiter of the
// authority or of the URL there (":", "[", "]", which it takes too, are).
// "%", "\", "^", "`", "{", "|", "}", controls and space are not safe:
// url.Parse refuses them (and "\" is a "/" to a WHATWG parser).
func hostSafe(c byte) bool {
	switch {
	case c >= 0x80, 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~!$&'()*+,;=<>\"", c) >= 0
}

// unhex is the value of a hexadecimal digit (the parser has checked it).
func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// FromURL parses v.String() as a URI-reference. net/url accepts some text
// RFC 3986 does not (spaces in a query, "|" in a path, "[" in a query, a
// zone ID with a raw "%"); those are errors here. An IPv6 zone, which
// String writes "%25zone", is RFC 6874's: parse v.String() with
// rfc6874.Parser() for it. A nil v is an error wrapping [ErrNilURL].
//
// FromURL never changes what the host is: the host and port of the result,
// decoded, are v.Hostname() and v.Port(), or the error wraps
// [ErrHostChanged]. (A url.URL whose Opaque begins with "//" writes an
// authority of its own that its Host does not hold.)
func FromURL(v *url.URL) (URI, error) {
	if v == nil {
		return URI{}, fmt.Errorf("parser: FromURL: %w", ErrNilURL)
	}
	u, err := ParseReference(v.String())
	if err != nil {
		return URI{}, err
	}
	host := u.Host()
	if k := u.HostKind(); k == HostIPv6 || k == HostIPvFuture {
		host = host[1 : len(host)-1]
	}
	if host, _ = url.PathUnescape(host); host != v.Hostname() || u.Port() != v.Port() {
		return URI{}, fmt.Errorf("parser: FromURL: %q has host %q and port %q, the url.URL %q and %q: %w",
			clip(u.String()), u.Host(), u.Port(), v.Hostname(), v.Port(), ErrHostChanged)
	}
	return u, nil
}

// ErrHostChanged is the error, wrapped, of FromURL for a url.URL whose
// text names another host or port than its Host field.
var ErrHostChanged = errors.New("the URL's text names another host than its Host")

// ErrNilURL is the error, wrapped, of FromURL(nil).
var ErrNilURL = errors.New("nil *url.URL")

package rfc3986

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
//   - An empty authority with an empty path ("http://") comes back without
//     its "//" ("http:").
//   - Percent-encoding is net/url's afterwards: userinfo, a percent-encoded
//     reg-name ("ex%41mple") and paths are stored decoded, and String
//     re-encodes them its own way ("%41" becomes "A"; "%2F" in a path is
//     kept through RawPath, but a decoded "/" in a host is not).
//   - A scheme-relative URI's rootless path ("mailto:a@b") is stored in
//     Opaque, which String writes back as is.
//   - An IPvFuture host ("[v1.x]") is kept in Host, but url.Parse rejects it:
//     the String of the result does not parse back with net/url.
//
// u.String() is always exact; prefer it wherever a string will do.
func ToURL(u URI) *url.URL {
	v := &url.URL{Scheme: u.Scheme()}
	if u.HasAuthority() {
		host := u.Host()
		if u.HostKind() == HostRegName {
			if h, err := url.PathUnescape(host); err == nil {
				host = h
			}
		}
		if u.HasPort() {
			host += ":" + u.Port()
		}
		v.Host = host
		if u.HasUserinfo() {
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
		v.Opaque = p
	default:
		v.Path, _ = url.PathUnescape(p)
		v.RawPath = p
	}
	if u.HasQuery() {
		v.RawQuery = u.Query()
		v.ForceQuery = u.Query() == ""
	}
	if u.HasFragment() {
		v.Fragment, _ = url.PathUnescape(u.Fragment())
		v.RawFragment = u.Fragment()
	}
	return v
}

// FromURL parses v.String() as a URI-reference. net/url accepts some text
// RFC 3986 does not (spaces in a query, "|" in a path, "[" in a query, a
// zone ID with a raw "%"); those are errors here. A nil v is an error
// wrapping [ErrNilURL].
func FromURL(v *url.URL) (URI, error) {
	if v == nil {
		return URI{}, fmt.Errorf("rfc3986: FromURL: %w", ErrNilURL)
	}
	return Parse(v.String())
}

// ErrNilURL is the error, wrapped, of FromURL(nil).
var ErrNilURL = errors.New("nil *url.URL")

package matrix

import (
	"net/url"
	"strings"

	fredbi "github.com/fredbi/uri"
	"github.com/peguri/rfc3986"
)

func ptr(s string) *string { return &s }

// NetURL is net/url, as a program uses it: url.Parse for references,
// URL.ResolveReference for resolution. It has no normalization, no
// comparison and no validator for inner rules (n/a).
type NetURL struct{}

// Name returns "net/url".
func (NetURL) Name() string { return "net/url" }

// Parse reads the components from the URL's fields, as a program would:
// the scheme (which net/url lowercases), the opaque part or the escaped
// path, the host with its brackets and without the port, a query defined
// when RawQuery is not empty or ForceQuery is set, and a fragment defined
// when it is not empty (net/url cannot tell "#" from no fragment).
func (NetURL) Parse(s string) (Components, error) {
	u, err := url.Parse(s)
	if err != nil {
		return Components{}, err
	}
	var c Components
	if u.Scheme != "" {
		c.Scheme = ptr(u.Scheme)
	}
	if u.Opaque != "" {
		c.Path = u.Opaque
	} else {
		c.Path = u.EscapedPath()
	}
	if u.Host != "" || u.User != nil {
		host, port, hasPort := u.Host, "", false
		if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host[i:], "]") {
			host, port, hasPort = host[:i], host[i+1:], true
		}
		auth := host
		if u.User != nil {
			c.Userinfo = ptr(u.User.String())
			auth = u.User.String() + "@" + auth
		}
		c.Host = ptr(host)
		if hasPort {
			c.Port = ptr(port)
			auth += ":" + port
		}
		c.Authority = ptr(auth)
	}
	if u.RawQuery != "" || u.ForceQuery {
		c.Query = ptr(u.RawQuery)
	}
	if u.Fragment != "" {
		c.Fragment = ptr(u.EscapedFragment())
	}
	return c, nil
}

// Resolve is URL.ResolveReference; net/url has no non-strict mode.
func (NetURL) Resolve(base, ref string, strict bool) (string, error) {
	if !strict {
		return "", ErrUnsupported
	}
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", err
	}
	return b.ResolveReference(r).String(), nil
}

// FredbiURI is github.com/fredbi/uri v1.1.1: ParseReference for
// references, IsURI and IsURIReference for the two rules it validates.
// It gives the query only as decoded key/value pairs (Query is Unknown),
// and cannot tell an empty component from an undefined one; it has no
// resolution, normalization or comparison (n/a).
type FredbiURI struct{}

// Name returns "fredbi/uri".
func (FredbiURI) Name() string { return "fredbi/uri" }

// Parse is fredbi/uri's ParseReference; a component it reports empty is
// read as undefined, since it has no other way to say so.
func (FredbiURI) Parse(s string) (Components, error) {
	u, err := fredbi.ParseReference(s)
	if err != nil {
		return Components{}, err
	}
	opt := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	a := u.Authority()
	c := Components{Scheme: opt(u.Scheme()), Path: a.Path(), Fragment: opt(u.Fragment()), Unknown: []string{"query"}}
	if a.Host() != "" || a.UserInfo() != "" || a.Port() != "" {
		c.Host = ptr(a.Host())
		c.Userinfo = opt(a.UserInfo())
		c.Port = opt(a.Port())
		auth := a.Host()
		if c.Userinfo != nil {
			auth = *c.Userinfo + "@" + auth
		}
		if c.Port != nil {
			auth += ":" + *c.Port
		}
		c.Authority = &auth
	}
	return c, nil
}

// Validate answers URI (IsURI) and URI-reference (IsURIReference).
func (FredbiURI) Validate(rule, s string) error {
	var ok bool
	switch rule {
	case "URI":
		ok = fredbi.IsURI(s)
	case "URI-reference":
		ok = fredbi.IsURIReference(s)
	default:
		return ErrUnsupported
	}
	if !ok {
		return errInvalid
	}
	return nil
}

var errInvalid = errorString("rejected")

type errorString string

func (e errorString) Error() string { return string(e) }

// RFC3986 is this project's library, github.com/peguri/rfc3986: the
// reference, which answers every question and must pass every case (the
// runner's own check).
type RFC3986 struct{}

// Name returns "peguri/rfc3986".
func (RFC3986) Name() string { return "peguri/rfc3986" }

// Parse is rfc3986.Parse.
func (RFC3986) Parse(s string) (Components, error) {
	u, err := rfc3986.Parse(s)
	if err != nil {
		return Components{}, err
	}
	opt := func(s string, ok bool) *string {
		if !ok {
			return nil
		}
		return &s
	}
	return Components{Scheme: opt(u.Scheme(), u.HasScheme()), Authority: opt(u.Authority(), u.HasAuthority()),
		Userinfo: opt(u.Userinfo(), u.HasUserinfo()), Host: opt(u.Host(), u.HasAuthority()), Port: opt(u.Port(), u.HasPort()),
		Path: u.Path(), Query: opt(u.Query(), u.HasQuery()), Fragment: opt(u.Fragment(), u.HasFragment())}, nil
}

// Validate is rfc3986.Validate, for every rule of Appendix A.
func (RFC3986) Validate(rule, s string) error { return rfc3986.Validate(rule, s) }

// Resolve is rfc3986.ResolveString.
func (RFC3986) Resolve(base, ref string, strict bool) (string, error) {
	mode := rfc3986.Strict
	if !strict {
		mode = rfc3986.NonStrict
	}
	return rfc3986.ResolveString(base, ref, mode)
}

// RemoveDotSegments is rfc3986.RemoveDotSegments.
func (RFC3986) RemoveDotSegments(p string) (string, error) { return rfc3986.RemoveDotSegments(p), nil }

var levels = map[string]rfc3986.Steps{
	"case": rfc3986.NormalizeCase, "percent": rfc3986.NormalizePercent, "dot-segments": rfc3986.NormalizeDotSegments,
	"syntax": rfc3986.NormalizeSyntax, "scheme": rfc3986.NormalizeDefault,
}

// Normalize is rfc3986.NormalizeString at the level's steps.
func (RFC3986) Normalize(s, level string) (string, error) {
	st, ok := levels[level]
	if !ok {
		return "", ErrUnsupported
	}
	return rfc3986.NormalizeString(s, st)
}

var rungs = map[string]rfc3986.Level{"simple": rfc3986.CompareSimple, "syntax": rfc3986.CompareSyntax, "scheme": rfc3986.CompareScheme}

// Equivalent is rfc3986.EqualString at the rung.
func (RFC3986) Equivalent(a, b, level string) (bool, error) {
	l, ok := rungs[level]
	if !ok {
		return false, ErrUnsupported
	}
	return rfc3986.EqualString(a, b, l)
}

package matrix

import (
	"errors"
	"net"
	"net/url"
	"strconv"
	"strings"

	fredbi "github.com/fredbi/uri"
	"github.com/peguri/rfc3986"
)

func ptr(s string) *string { return &s }

// NetURL is net/url, as a program uses it: url.Parse for references,
// URL.ResolveReference for resolution; for producing, its escape
// functions, url.Values and URL.String (see Encode, Decode, Build). It
// has no normalization, no comparison, no validator for inner rules and
// no escaping that keeps percent-encodings (n/a).
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

// userinfo is the url.Userinfo a program makes of a raw userinfo: a user
// name and a password split at the first ":" (§3.2.1), or a user name.
func userinfo(raw string) *url.Userinfo {
	if user, pass, ok := strings.Cut(raw, ":"); ok {
		return url.UserPassword(user, pass)
	}
	return url.User(raw)
}

// Encode is net/url's escaping for each component: url.PathEscape for a
// segment (the first of a relative path too: net/url has no other),
// url.QueryEscape for a query-part, and URL.String's own escaping for the
// others: a url.Userinfo's String (see userinfo), a URL's Host, a URL's
// EscapedFragment. net/url has no escaping for a whole query (RawQuery is
// written as it is): n/a.
func (NetURL) Encode(component, raw string) (string, error) {
	switch component {
	case "segment", "first-segment":
		return url.PathEscape(raw), nil
	case "query-part":
		return url.QueryEscape(raw), nil
	case "userinfo":
		return userinfo(raw).String(), nil
	case "host":
		return strings.TrimPrefix((&url.URL{Host: raw}).String(), "//"), nil
	case "fragment":
		return (&url.URL{Fragment: raw}).EscapedFragment(), nil
	}
	return "", ErrUnsupported
}

// Decode is url.PathUnescape, or url.QueryUnescape for the forms
// convention. Their errors do not say where.
func (NetURL) Decode(s string, form bool) (string, error) {
	if form {
		return url.QueryUnescape(s)
	}
	return url.PathUnescape(s)
}

// Build is url.URL{…}.String(), the fields set as a program sets them:
// Scheme; User (see userinfo); Host, the raw host, joined to the port by
// net.JoinHostPort when there is one (which brackets an IPv6 address),
// and OmitHost when there is no host; Path, the segments joined, with
// RawPath, the segments each url.PathEscape'd, so that a "/" in a segment
// stays inside it; RawQuery, the pairs added to a url.Values in order and
// Encode'd (ForceQuery for the empty query); Fragment. URL.String fails
// on nothing.
func (NetURL) Build(in BuildInput) (string, error) {
	u := &url.URL{OmitHost: in.Host == nil}
	if in.Scheme != nil {
		u.Scheme = *in.Scheme
	}
	if in.Userinfo != nil {
		u.User = userinfo(*in.Userinfo)
	}
	if in.Host != nil {
		u.Host = *in.Host
		if in.Port != nil {
			u.Host = net.JoinHostPort(*in.Host, strconv.Itoa(*in.Port))
		}
	} else if in.Port != nil {
		u.Host = ":" + strconv.Itoa(*in.Port)
	}
	if in.Path != nil {
		u.Path = in.PathText()
		esc := BuildInput{Absolute: in.Absolute}
		for _, s := range in.Path {
			esc.Path = append(esc.Path, url.PathEscape(s))
		}
		u.RawPath = esc.PathText()
	}
	if in.Query != nil {
		v := url.Values{}
		for _, p := range in.Query {
			v.Add(p.Key, p.Value)
		}
		u.RawQuery, u.ForceQuery = v.Encode(), true
	}
	if in.Fragment != nil {
		u.Fragment = *in.Fragment
	}
	return u.String(), nil
}

// FredbiURI is github.com/fredbi/uri v1.1.1: ParseReference for
// references, IsURI and IsURIReference for the two rules it validates.
// It gives the query only as decoded key/value pairs (Query is Unknown),
// and cannot tell an empty component from an undefined one; it has no
// resolution, normalization, comparison, encoding or decoding (n/a). Its
// Builder is measured (see Build).
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

// Build is fredbi/uri's Builder, from ParseReference(""): SetScheme,
// SetUserInfo, SetHost, SetPort (the number in decimal), SetPath (the
// segments joined with "/", after a "/" when absolute), SetQuery (the
// pairs joined key=value&…), SetFragment, each called only for a
// component that is set, in this order; then the URI's Validate, whose
// error is Build's. The Builder encodes nothing: it writes each
// component as given.
func (FredbiURI) Build(in BuildInput) (string, error) {
	u, err := fredbi.ParseReference("")
	if err != nil {
		return "", err
	}
	b := u.Builder()
	if in.Scheme != nil {
		b = b.SetScheme(*in.Scheme)
	}
	if in.Userinfo != nil {
		b = b.SetUserInfo(*in.Userinfo)
	}
	if in.Host != nil {
		b = b.SetHost(*in.Host)
	}
	if in.Port != nil {
		b = b.SetPort(strconv.Itoa(*in.Port))
	}
	if in.Path != nil {
		b = b.SetPath(in.PathText())
	}
	if in.Query != nil {
		var ps []string
		for _, p := range in.Query {
			ps = append(ps, p.Key+"="+p.Value)
		}
		b = b.SetQuery(strings.Join(ps, "&"))
	}
	if in.Fragment != nil {
		b = b.SetFragment(*in.Fragment)
	}
	if err := b.URI().Validate(); err != nil {
		return "", err
	}
	return b.String(), nil
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

// Encode is rfc3986.Encode for the component of that name.
func (RFC3986) Encode(component, raw string) (string, error) {
	c, err := rfc3986.ParseComponent(component)
	if err != nil {
		return "", err
	}
	return rfc3986.Encode(c, raw), nil
}

// Escape is rfc3986.Escape for the component of that name.
func (RFC3986) Escape(component, text string) (string, error) {
	c, err := rfc3986.ParseComponent(component)
	if err != nil {
		return "", err
	}
	return rfc3986.Escape(c, text), nil
}

// Decode is rfc3986.Decode, or rfc3986.FormDecode; its error says where.
func (RFC3986) Decode(s string, form bool) (string, error) {
	decode := rfc3986.Decode
	if form {
		decode = rfc3986.FormDecode
	}
	out, err := decode(s)
	var de *rfc3986.DecodeError
	if errors.As(err, &de) {
		return "", &DecodeError{Offset: de.Offset, Err: err}
	}
	return out, err
}

// Build is rfc3986.NewBuilder: Scheme, Userinfo, Host, Port, Path (an
// absolute path) or RelativePath, Query for each pair (RawQuery("") for
// the empty query), Fragment, each called for a component that is set;
// then Build.
func (RFC3986) Build(in BuildInput) (string, error) {
	b := rfc3986.NewBuilder()
	if in.Scheme != nil {
		b = b.Scheme(*in.Scheme)
	}
	if in.Userinfo != nil {
		b = b.Userinfo(*in.Userinfo)
	}
	if in.Host != nil {
		b = b.Host(*in.Host)
	}
	if in.Port != nil {
		b = b.Port(uint16(*in.Port))
	}
	switch {
	case in.Path == nil:
	case in.Absolute:
		b = b.Path(in.Path...)
	default:
		b = b.RelativePath(in.Path...)
	}
	if in.Query != nil && len(in.Query) == 0 {
		b = b.RawQuery("")
	}
	for _, p := range in.Query {
		b = b.Query(p.Key, p.Value)
	}
	if in.Fragment != nil {
		b = b.Fragment(*in.Fragment)
	}
	u, err := b.Build()
	if err != nil {
		return "", err
	}
	return u.String(), nil
}

// Equivalent is rfc3986.EqualString at the rung.
func (RFC3986) Equivalent(a, b, level string) (bool, error) {
	l, ok := rungs[level]
	if !ok {
		return false, ErrUnsupported
	}
	return rfc3986.EqualString(a, b, l)
}

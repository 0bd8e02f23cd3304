package parser

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/peguri/rfc3986/internal/ipv6text"
)

// Builder makes a URI reference from its components given raw, each
// percent-encoded with its component's charset (the grammar's own: see
// Component), so that it can only make valid URIs: Build checks what it
// wrote with the grammar's parser, and the combinations that cannot be
// valid are typed errors. It is a value: each method returns a Builder
// with one component set, and the one it was called on is unchanged. The
// zero Builder is [NewBuilder]'s: RFC 3986's, with no component set.
//
//	u, err := parser.NewBuilder().Scheme("https").Host("example.com").
//		Path("a b", "c/d").Query("q", "1&2").Fragment("x y").Build()
//	// https://example.com/a%20b/c%2Fd?q=1%262#x%20y
//
// Where RFC 3986 gives a way out, the builder takes it: a ":" in the first
// segment of a relative-path reference is encoded (§4.2: it would read as
// a scheme's end); an IPv6 address gets its brackets (§3.2.2); a zone
// identifier is written as RFC 6874 says, and only by a builder of RFC
// 6874's grammar. Where it gives none, Build fails: a scheme that is not
// one ([ErrScheme]), a userinfo or a port without a host ([ErrNoHost]), a
// rootless path after an authority ([ErrRootless]), a path whose first
// segment is empty where it would read as an authority or a scheme's end
// ([ErrEmptySegment]).
type Builder struct {
	p     *Parser
	parts Parts
	err   error // the first error of a method, which Build returns
	// relSegments is the rootless path RelativePath set, encoded by Build,
	// which knows whether there is a scheme (§4.2).
	relSegments []string
	// pairs counts the pairs Query and QueryKey added: the next is joined
	// with "&" even when they were empty ("?&a").
	pairs int
}

// grammar is the parser whose grammar b builds in: RFC 3986's for the
// zero Builder, which is NewBuilder's.
func (b Builder) grammar() *Parser {
	if b.p == nil {
		return rfc3986
	}
	return b.p
}

// NewBuilder returns a Builder of RFC 3986 URI references, with no
// component set: it builds the empty reference. The zero Builder is the
// same.
func NewBuilder() Builder { return rfc3986.Builder() }

// Builder returns a Builder of s's grammar, with no component set.
func (s *Parser) Builder() Builder { return Builder{p: s} }

// Builder returns a Builder of u's grammar holding u's components as they
// are written: to make a URI from u with some components replaced.
func (u URI) Builder() Builder {
	return Builder{p: u.Parser(), parts: u.Parts()}
}

// Errors of Build, each wrapped in a [*BuildError] naming the component.
var (
	// ErrScheme: the scheme does not match RFC 3986's scheme rule (§3.1:
	// a letter, then letters, digits, "+", "-" or ".").
	ErrScheme = errors.New("not a scheme")
	// ErrNoHost: a userinfo or a port without a host: they live in the
	// authority (§3.2).
	ErrNoHost = errors.New("a userinfo or a port needs a host")
	// ErrRootless: a path that does not begin with "/" after an authority
	// (§3.3: "the path component must either be empty or begin with a
	// slash").
	ErrRootless = errors.New("a path after an authority begins with \"/\"")
	// ErrEmptySegment: a path whose first segment is empty, where it would
	// begin with "//" and read as an authority (§3.3), or a rootless path
	// that would then begin with "/".
	ErrEmptySegment = errors.New("the path's first segment is empty")
	// ErrZone: an IPv6 address with a zone, in a grammar without RFC
	// 6874's zone identifiers.
	ErrZone = errors.New("a zone identifier needs RFC 6874's grammar")
	// ErrHost: a host that is no host of the grammar (an IP literal that
	// does not parse, an address that is neither IPv4 nor IPv6).
	ErrHost = errors.New("not a host")
)

// BuildError is an error of Build: the component at fault and why.
type BuildError struct {
	Component string // "scheme", "userinfo", "host", "port", "path", "query", "fragment"; "uri" when the text did not parse back (not expected: the tests say it does not happen)
	Input     string // what was given for it; for a URI longer than MaxLength (ErrTooLong), its longest component, as written
	Err       error
}

func (e *BuildError) Error() string {
	return fmt.Sprintf("build: %s %q: %v", e.Component, clip(e.Input), e.Err)
}

// Unwrap returns e.Err.
func (e *BuildError) Unwrap() error { return e.Err }

func (b Builder) fail(component, input string, err error) Builder {
	if b.err == nil {
		b.err = &BuildError{Component: component, Input: input, Err: err}
	}
	return b
}

func (b Builder) encode(c Component, raw, component string) (string, Builder) {
	s, err := b.grammar().Encode(c, raw)
	if err != nil {
		return "", b.fail(component, raw, err)
	}
	return s, b
}

// Scheme sets the scheme, which is never encoded: it must match the
// scheme rule. It is written in lower case: §3.1 says producers "should
// only produce lowercase scheme names".
func (b Builder) Scheme(scheme string) Builder {
	if err := b.grammar().Validate(b.grammar().schemeRule(), scheme); err != nil {
		return b.fail("scheme", scheme, ErrScheme)
	}
	b.parts.Scheme, b.parts.HasScheme = strings.ToLower(scheme), true
	return b
}

// NoScheme leaves the scheme undefined: a relative reference.
func (b Builder) NoScheme() Builder {
	b.parts.Scheme, b.parts.HasScheme = "", false
	return b
}

// Userinfo sets the userinfo from raw text, encoded: ":" stays (§3.2.1
// reads the first as the end of a user name), "@" is encoded.
func (b Builder) Userinfo(raw string) Builder {
	s, b := b.encode(Userinfo, raw, "userinfo")
	b.parts.Userinfo, b.parts.HasUserinfo = s, true
	return b
}

// User sets the userinfo to a user name, encoded, its ":" too: §3.2.1
// reads the first ":" of a userinfo as the end of the name.
func (b Builder) User(name string) Builder {
	s, b := b.encode(Userinfo, name, "userinfo")
	b.parts.Userinfo, b.parts.HasUserinfo = strings.ReplaceAll(s, ":", "%3A"), true
	return b
}

// UserPassword sets the userinfo to a user name and a password, each
// encoded, joined with ":". §3.2.1 deprecates "user:password" in a
// userinfo ("passing authentication information in clear text has proven
// to be a security risk"); it is written all the same.
func (b Builder) UserPassword(name, password string) Builder {
	b = b.User(name)
	pw, b := b.encode(Userinfo, password, "userinfo")
	b.parts.Userinfo += ":" + pw
	return b
}

// Host sets the host, and so defines the authority. An IP address as
// netip.ParseAddr reads it is written as [Builder.HostAddr] writes it —
// IPv6 in brackets (§3.2.2) as RFC 5952 recommends, with its zone under
// RFC 6874's grammar; an IP literal in brackets ("[FE80::1]", "[v1.x]")
// is checked against the grammar's IP-literal and written as given (the
// builder writes what it is given; normalization lowers its case); any
// other name is a registered name, encoded and in lower case as
// [Builder.RegName] writes it ("" is the empty host of "file:///").
func (b Builder) Host(name string) Builder {
	if strings.HasPrefix(name, "[") {
		if err := b.grammar().Validate(b.grammar().ipLiteralRule(), name); err != nil {
			if i := strings.IndexByte(name, '%'); i > 0 && !b.grammar().hasZones() &&
				b.grammar().Validate(b.grammar().ipLiteralRule(), name[:i]+"]") == nil {
				// An IPv6 address and a zone (RFC 6874 §2), which this
				// grammar has no room for ("[%]" is no address: ErrHost).
				return b.fail("host", name, ErrZone)
			}
			return b.fail("host", name, ErrHost)
		}
		return b.setHost(name)
	}
	if a, err := netip.ParseAddr(name); err == nil {
		return b.HostAddr(a)
	}
	return b.RegName(name)
}

// RegName sets the host to a registered name, encoded, whatever it looks
// like: "0::" is the reg-name "0%3A%3A", not an IPv6 address. Its ASCII
// letters are written in lower case, as §3.2.2 asks of producers ("should
// use lowercase for registered names"); the host is case-insensitive, and
// a percent-encoding's hexadecimal digits stay upper case (§2.1). A name that
// reads as an IPv4 address ("1.2.3.4") is one, not a reg-name (§3.2.2),
// and no encoding changes that (an encoded digit decodes back, §6.2.2.2):
// it is an error wrapping [ErrHost]; Host and HostAddr write addresses.
func (b Builder) RegName(name string) Builder {
	s, b := b.encode(Host, name, "host")
	s = lowerOutsideEncodings(s)
	if b.err == nil && b.grammar().hostKind(s) == HostIPv4 {
		return b.fail("host", name, fmt.Errorf("%w: a registered name that reads as an IPv4 address (§3.2.2)", ErrHost))
	}
	return b.setHost(s)
}

// HostAddr sets the host to an IP address: IPv4 as dotted decimal, IPv6 in
// brackets as RFC 5952 recommends (§4, and §5's mixed notation for the
// IPv4-mapped and IPv4-translated prefixes: the text
// resolve.NormalizeIPv6Canonical writes), its zone, if any, written
// "%25zone" (RFC 6874 §2), which only a builder of RFC 6874's grammar
// takes ([ErrZone] otherwise).
func (b Builder) HostAddr(a netip.Addr) Builder {
	switch {
	case !a.IsValid():
		return b.fail("host", a.String(), ErrHost)
	case a.Is4():
		return b.setHost(a.String())
	}
	text := "[" + ipv6text.Text(a)
	if z := a.Zone(); z != "" {
		// ZoneID = 1*( unreserved / pct-encoded ): its own charset, not a
		// reg-name's, which keeps sub-delims. A grammar without the rule
		// has no zones.
		if !b.grammar().hasZones() {
			return b.fail("host", a.String(), ErrZone)
		}
		zone, err := b.grammar().EncodeRule("ZoneID", z)
		if err != nil {
			return b.fail("host", a.String(), err)
		}
		text += "%25" + zone
	}
	text += "]"
	if err := b.grammar().Validate(b.grammar().ipLiteralRule(), text); err != nil {
		return b.fail("host", a.String(), ErrHost)
	}
	return b.setHost(text)
}

// lowerOutsideEncodings lowers the case of s's ASCII letters but for the
// hexadecimal digits of its percent-encodings.
func lowerOutsideEncodings(s string) string {
	i := 0
	for i < len(s) && !('A' <= s[i] && s[i] <= 'Z') {
		if s[i] == '%' {
			i += 2
		}
		i++
	}
	if i >= len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		switch c := b[i]; {
		case c == '%':
			i += 2
		case 'A' <= c && c <= 'Z':
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func (b Builder) setHost(h string) Builder {
	b.parts.Host, b.parts.HasAuthority = h, true
	return b
}

// NoAuthority leaves the authority undefined: no userinfo, host or port.
func (b Builder) NoAuthority() Builder {
	b.parts.HasAuthority = false
	b.parts.Host, b.parts.Userinfo, b.parts.HasUserinfo, b.parts.Port, b.parts.HasPort = "", "", false, "", false
	return b
}

// Port sets the port.
func (b Builder) Port(port uint16) Builder {
	b.parts.Port, b.parts.HasPort = strconv.Itoa(int(port)), true
	return b
}

// Path sets an absolute path: "/" and the segments, each encoded ("/" in a
// segment is encoded, never a separator), joined with "/". Path() is the
// path "/"; with no authority, a first segment "" would make the path
// begin with "//" ([ErrEmptySegment]). A segment "." or ".." is written as
// it is: a dot segment, which resolution and normalization remove (§3.3,
// §5.2.4). Its dots are unreserved (§2.3) and not encoded: "%2E" would be
// a name to resolution, but "." again to a reader that decodes it.
func (b Builder) Path(segments ...string) Builder {
	var p strings.Builder
	for _, s := range segments {
		var e string
		e, b = b.encode(Segment, s, "path")
		p.WriteByte('/')
		p.WriteString(e)
	}
	if len(segments) == 0 {
		p.WriteByte('/')
	}
	b.parts.Path, b.relSegments = p.String(), nil
	return b
}

// RelativePath sets a rootless path: the segments, each encoded, joined
// with "/"; no segment is the empty path. Without a scheme the path is a
// relative-path reference, whose first segment keeps no ":" (it is
// encoded, §4.2). Its first segment may not be empty ([ErrEmptySegment]),
// and it may not follow an authority ([ErrRootless]), unless it is that one
// empty segment: the empty path, an authority's as well.
func (b Builder) RelativePath(segments ...string) Builder {
	b.parts.Path = ""
	b.relSegments = append([]string(nil), segments...)
	return b
}

// Query appends the pair key=value to the query, each encoded as a
// QueryPart ("&", "=" and "+" encoded too), joined to the pairs before
// with "&".
func (b Builder) Query(key, value string) Builder {
	k, b := b.encode(QueryPart, key, "query")
	v, b := b.encode(QueryPart, value, "query")
	return b.addPair(k + "=" + v)
}

// QueryKey appends a key without a value ("flag" in "a=1&flag") to the
// query, encoded as a QueryPart. An empty key is the empty part between
// two "&" ("a&&b"); alone, it is the empty query "?", which QueryPairs
// reads as no pair: no text tells one empty pair from none.
func (b Builder) QueryKey(key string) Builder {
	k, b := b.encode(QueryPart, key, "query")
	return b.addPair(k)
}

// addPair joins an encoded pair to the query.
func (b Builder) addPair(pair string) Builder {
	if b.parts.HasQuery && (b.parts.Query != "" || b.pairs > 0) {
		b.parts.Query += "&"
	}
	b.parts.Query += pair
	b.parts.HasQuery = true
	b.pairs++
	return b
}

// RawQuery sets the query to text, escaped (see [Parser.Escape]): what
// the query does not allow is encoded, and the percent-encodings text has
// are kept. RawQuery("") is the empty query of "http://a?".
func (b Builder) RawQuery(text string) Builder {
	s, err := b.grammar().Escape(Query, text)
	if err != nil {
		return b.fail("query", text, err)
	}
	b.parts.Query, b.parts.HasQuery, b.pairs = s, true, 0
	return b
}

// NoQuery leaves the query undefined.
func (b Builder) NoQuery() Builder {
	b.parts.Query, b.parts.HasQuery, b.pairs = "", false, 0
	return b
}

// Fragment sets the fragment from raw text, encoded.
func (b Builder) Fragment(raw string) Builder {
	s, b := b.encode(Fragment, raw, "fragment")
	b.parts.Fragment, b.parts.HasFragment = s, true
	return b
}

// NoFragment leaves the fragment undefined.
func (b Builder) NoFragment() Builder {
	b.parts.Fragment, b.parts.HasFragment = "", false
	return b
}

// Build returns the URI reference, checked by the grammar's parser: it
// parses into exactly the components set, and its decoded views give back
// the raw text given. The error is a [*BuildError].
func (b Builder) Build() (URI, error) {
	if b.err != nil {
		return URI{}, b.err
	}
	p := b.parts
	if b.relSegments != nil {
		if p.HasAuthority && !(len(b.relSegments) == 1 && b.relSegments[0] == "") {
			// (One empty segment is the empty path, which an authority
			// may have: path-abempty.)
			return URI{}, &BuildError{Component: "path", Input: strings.Join(b.relSegments, "/"), Err: ErrRootless}
		}
		if len(b.relSegments) > 0 && b.relSegments[0] == "" && len(b.relSegments) > 1 {
			return URI{}, &BuildError{Component: "path", Input: strings.Join(b.relSegments, "/"), Err: ErrEmptySegment}
		}
		var path strings.Builder
		for i, s := range b.relSegments {
			c := Segment
			if i == 0 && !p.HasScheme {
				c = FirstSegment
			}
			if s == "" {
				if i > 0 {
					path.WriteByte('/')
				}
				continue
			}
			e, err := b.grammar().Encode(c, s)
			if err != nil {
				return URI{}, &BuildError{Component: "path", Input: s, Err: err}
			}
			if i > 0 {
				path.WriteByte('/')
			}
			path.WriteString(e)
		}
		p.Path = path.String()
	}
	if !p.HasAuthority && (p.HasUserinfo || p.HasPort) {
		what := "port"
		if p.HasUserinfo {
			what = "userinfo"
		}
		in := p.Port
		if p.HasUserinfo {
			in = p.Userinfo
		}
		return URI{}, &BuildError{Component: what, Input: in, Err: ErrNoHost}
	}
	if p.HasAuthority && p.Path != "" && p.Path[0] != '/' {
		return URI{}, &BuildError{Component: "path", Input: p.Path, Err: ErrRootless}
	}
	if !p.HasAuthority && strings.HasPrefix(p.Path, "//") {
		return URI{}, &BuildError{Component: "path", Input: p.Path, Err: ErrEmptySegment}
	}
	if !p.HasScheme && !p.HasAuthority && b.relSegments == nil {
		// A path kept as written (a URI's, its scheme taken away): a ":"
		// in its first segment would read as a scheme's end (§4.2), and is
		// encoded, as RelativePath encodes it.
		first, _, _ := strings.Cut(p.Path, "/")
		if strings.Contains(first, ":") {
			p.Path = strings.ReplaceAll(first, ":", "%3A") + p.Path[len(first):]
		}
	}
	if n := p.Len(); n > MaxLength {
		// Longer than a URI may be (MaxLength): the longest component,
		// the one to shorten, is at fault, before the text is written.
		what, in := longestComponent(p)
		return URI{}, &BuildError{Component: what, Input: in,
			Err: fmt.Errorf("%w: the URI would be %d bytes, more than %d", ErrTooLong, n, MaxLength)}
	}
	u, err := b.grammar().FromParts(p)
	if err != nil {
		return URI{}, &BuildError{Component: "uri", Input: p.String(), Err: err}
	}
	return u, nil
}

// longestComponent names p's longest defined component, and returns it as
// written (encoded).
func longestComponent(p Parts) (string, string) {
	what, in := "path", p.Path
	for _, c := range []struct {
		defined    bool
		what, text string
	}{
		{p.HasScheme, "scheme", p.Scheme},
		{p.HasUserinfo, "userinfo", p.Userinfo},
		{p.HasAuthority, "host", p.Host},
		{p.HasPort, "port", p.Port},
		{p.HasQuery, "query", p.Query},
		{p.HasFragment, "fragment", p.Fragment},
	} {
		if c.defined && len(c.text) > len(in) {
			what, in = c.what, c.text
		}
	}
	return what, in
}

// String is Build's text, or "" when Build fails.
func (b Builder) String() string {
	u, err := b.Build()
	if err != nil {
		return ""
	}
	return u.String()
}

// schemeRule and ipLiteralRule are the rules the builder checks a scheme
// and an IP literal with.
func (s *Parser) schemeRule() string {
	if len(s.names) > 0 && s.names[0].Scheme != "" {
		return s.names[0].Scheme
	}
	return "scheme"
}

func (s *Parser) ipLiteralRule() string { return "IP-literal" }

// hasZones reports whether s's grammar has RFC 6874's zone identifiers: a
// rule ZoneID.
func (s *Parser) hasZones() bool {
	_, ok := s.Rule("ZoneID")
	return ok
}

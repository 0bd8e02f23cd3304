package parser

import (
	"strings"

	"github.com/peguri/rfc3986/syntax"
)

// The fast path. gen dfa compiles every rule of Appendix A (it has no
// recursion, so each rule's language is regular) to a minimal DFA over
// bytes, emitted as compact tables in internal/rfc3986gen/rfc3986_dfa.go
// and run by package syntax. The components of a valid URI reference are
// where an Appendix B scan, which is exact once the input is known to be
// valid, puts them; the host is classified with the IPv4address DFA. The
// error of an invalid input comes from the DFA's diagnostics (where, the
// innermost rule, what could have come).

// The split, folded into the DFA's walk. The Appendix B scan below, as
// an automaton over bytes (appendixB), marks the delimiters that begin or
// end a component; the URI rules' DFA determines its state (the minimal
// DFA already tells a scheme from a path, an authority from a query: the
// tests check it for every grammar of this module), so syntax folds the
// marks into the DFA's transitions (Table.Marked), and the walk that
// validates a reference records where its delimiters are, with no second
// pass over it (splitMarks). A grammar whose DFA does not determine the
// scan's state is split by the scan itself (split).

// The states of appendixB.
const (
	bStart        = iota // nothing read
	bScheme              // a scheme, or a first path segment: no ':', '/', '?', '#' yet
	bHier                // after the scheme's ':'
	bSlash               // one '/' at the start of the hierarchical part
	bAuth                // the authority, before any '@': userinfo, or host
	bHost                // the host, after '@'
	bLiteral             // inside an IP literal's brackets
	bAfterLiteral        // after the IP literal's ']'
	bPort                // the port, after the host's ':'
	bPath                // the path
	bQuery               // the query
	bFragment            // the fragment
)

// The marks of appendixB: each is the offset after its delimiter.
const (
	markScheme   = 1 + iota // the ':' that ends the scheme
	markAuth                // the second '/' of the "//" that begins the authority
	markAt                  // the '@' that ends the userinfo
	markColon               // a ':' in the authority outside an IP literal: the last is the port's, if after the host's start
	markAuthEnd             // the '/' that ends the authority
	markQuery               // the '?' that begins the query
	markFragment            // the '#' that begins the fragment
)

// appendixB is split as a syntax.Marker: it marks, in valid input, the
// delimiters split finds.
func appendixB(q int, c byte) (int, uint8) {
	// Everywhere but in the query and the fragment, '?' begins the query;
	// '#' begins the fragment everywhere but in it.
	switch {
	case c == '#' && q != bFragment:
		return bFragment, markFragment
	case c == '?' && q != bQuery && q != bFragment:
		return bQuery, markQuery
	}
	switch q {
	case bStart, bScheme:
		switch c {
		case ':':
			if q == bStart {
				return bPath, 0 // not valid in any URI rule
			}
			return bHier, markScheme
		case '/':
			if q == bStart {
				return bSlash, 0
			}
			return bPath, 0
		}
		return bScheme, 0
	case bHier:
		if c == '/' {
			return bSlash, 0
		}
		return bPath, 0
	case bSlash:
		if c == '/' {
			return bAuth, markAuth
		}
		return bPath, 0
	case bAuth, bHost, bLiteral, bAfterLiteral, bPort:
		switch {
		case c == '/':
			return bPath, markAuthEnd
		case q == bLiteral:
			if c == ']' {
				return bAfterLiteral, 0
			}
			return bLiteral, 0
		case c == '@' && q == bAuth:
			return bHost, markAt
		case c == '[' && (q == bAuth || q == bHost):
			return bLiteral, 0
		case c == ':' && q == bAuth:
			return bAuth, markColon // userinfo's, or the port's: '@' decides
		case c == ':' && (q == bHost || q == bAfterLiteral):
			return bPort, markColon
		}
		return q, 0
	}
	return q, 0 // bPath, bQuery, bFragment
}

// splitMarks is split from the marks appendixB left in a valid URI
// reference s. It works the offsets out in registers and stores each field
// of *u once, in the grammar of p (nil for RFC 3986's).
func (sy *Parser) splitMarks(u *URI, s string, m *syntax.Marks, p *Parser) {
	var flags uint8
	hash := len(s)
	if f := m[markFragment]; f != 0 {
		hash = int(f) - 1
		flags |= hasFragment
	}
	query := hash
	if q := m[markQuery]; q != 0 {
		query = int(q) - 1
		flags |= hasQuery
	}
	var schemeEnd uint32
	i := 0
	if e := m[markScheme]; e != 0 {
		schemeEnd, i = e-1, int(e)
		flags |= hasScheme
	}
	var hostStart, hostEnd uint32
	kind := HostNone
	if a := int(m[markAuth]); a != 0 {
		end := query
		if e := m[markAuthEnd]; e != 0 {
			end = int(e) - 1
		}
		flags |= hasAuthority
		hs := a
		if at := int(m[markAt]); at != 0 {
			hs = at
			flags |= hasUserinfo
		}
		he := end
		if c := int(m[markColon]); c > hs {
			he = c - 1
			flags |= hasPort
		}
		hostStart, hostEnd, kind = uint32(hs), uint32(he), sy.hostKind(s[hs:he])
		i = end
	}
	queryEnd := query
	if flags&hasQuery != 0 {
		queryEnd = hash
	}
	u.text = s
	u.schemeEnd, u.hostStart, u.hostEnd = schemeEnd, hostStart, hostEnd
	u.pathStart, u.pathEnd, u.queryEnd = uint32(i), uint32(query), uint32(queryEnd)
	u.flags, u.hostKind, u.p = flags, kind, p
}

// split cuts a valid URI reference into its components (RFC 3986
// Appendix B's regular expression, by hand): a scheme is what precedes a
// ':' that comes before any '/', '?' or '#'; an authority follows "//" up to
// the next '/', '?' or '#'; then the path, "?" query, "#" fragment. Within a
// valid authority, userinfo ends at the only '@', an IP literal at ']', and
// the port follows the next ':'. The URI is s and offsets in it; *u must be
// zero to begin with.
func (sy *Parser) split(u *URI, s string) {
	u.text = s
	i := 0
	for j := 0; j < len(s); j++ {
		c := s[j]
		if c == ':' {
			u.schemeEnd, u.flags, i = uint32(j), u.flags|hasScheme, j+1
			break
		}
		if c == '/' || c == '?' || c == '#' {
			break
		}
	}
	// In valid input, '#' appears only to start the fragment, and '?'
	// before it only to start the query; '/' ends the authority. Each is
	// found by one IndexByte over the part that can hold it.
	hash := len(s)
	if k := strings.IndexByte(s[i:], '#'); k >= 0 {
		hash = i + k
		u.flags |= hasFragment
	}
	query := hash
	if k := strings.IndexByte(s[i:hash], '?'); k >= 0 {
		query = i + k
		u.flags |= hasQuery
	}
	if query-i >= 2 && s[i] == '/' && s[i+1] == '/' {
		a := i + 2
		end := query
		if k := strings.IndexByte(s[a:query], '/'); k >= 0 {
			end = a + k
		}
		u.flags |= hasAuthority
		sy.splitAuthority(u, s, a, end)
		i = end
	}
	u.pathStart, u.pathEnd = uint32(i), uint32(query)
	u.queryEnd = uint32(query)
	if u.flags&hasQuery != 0 {
		u.queryEnd = uint32(hash)
	}
}

// splitAuthority splits the authority s[a:end].
func (sy *Parser) splitAuthority(u *URI, s string, a, end int) {
	hs := a
	if k := strings.IndexByte(s[a:end], '@'); k >= 0 {
		u.flags, hs = u.flags|hasUserinfo, a+k+1
	}
	he := end
	if hs < end && s[hs] == '[' {
		he = hs + strings.IndexByte(s[hs:end], ']') + 1
	} else if k := strings.IndexByte(s[hs:end], ':'); k >= 0 {
		he = hs + k
	}
	if he < end { // s[he] == ':'
		u.flags |= hasPort
	}
	u.hostStart, u.hostEnd, u.hostKind = uint32(hs), uint32(he), sy.hostKind(s[hs:he])
}

// hostKind is the kind of a valid host.
func (sy *Parser) hostKind(host string) HostKind {
	// §3.2.2: a host that matches IPv4address is IPv4, not a reg-name.
	switch {
	case len(host) > 1 && host[0] == '[' && (host[1] == 'v' || host[1] == 'V'):
		return HostIPvFuture
	case len(host) > 0 && host[0] == '[':
		return HostIPv6
	case len(host) >= 7 && isDigit(host[0]):
		if ok, _ := sy.ipv4DFA.Machine().Run(host); ok {
			return HostIPv4
		}
	}
	return HostRegName
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

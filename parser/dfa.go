package parser

import (
	"strings"

	"github.com/peguri/rfc3986/internal/appendixb"
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

// The marks of appendixB (see package appendixb): each is the offset
// after its delimiter.
const (
	markScheme   = appendixb.Scheme
	markAuth     = appendixb.Auth
	markAt       = appendixb.At
	markColon    = appendixb.Colon
	markAuthEnd  = appendixb.AuthEnd
	markQuery    = appendixb.Query
	markFragment = appendixb.Fragment
)

// appendixB is split as a syntax.Marker: it marks, in valid input, the
// delimiters split finds. gen dfa -walk writes the same marks into the
// walks it generates.
var appendixB syntax.Marker = appendixb.Marker

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
		// A host that begins with neither a digit nor '[' is a reg-name:
		// only the others need hostKind (a call whose spills cost more
		// than the test, on the common host).
		hostStart, hostEnd, kind = uint32(hs), uint32(he), HostRegName
		if hs < he && (s[hs] == '[' || isDigit(s[hs])) {
			kind = sy.hostKind(s[hs:he])
		}
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
	hs, he, user, port, _ := appendixb.SplitAuthority(s[a:end]) // valid: it splits
	hs, he = a+hs, a+he
	if user {
		u.flags |= hasUserinfo
	}
	if port {
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

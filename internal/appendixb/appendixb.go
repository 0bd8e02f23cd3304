// Package appendixb is RFC 3986 Appendix B's split of a URI reference into
// its components, as an automaton over bytes that marks the delimiters
// (a syntax.Marker). Package parser folds its marks into the URI rules'
// DFAs (syntax.Table.Marked) and reads the components' offsets off them;
// gen dfa -walk writes the same marks into the walks it generates, so the
// two must be this one automaton.
package appendixb

import "strings"

// The states of Marker.
const (
	start        = iota // nothing read
	scheme              // a scheme, or a first path segment: no ':', '/', '?', '#' yet
	hier                // after the scheme's ':'
	slash               // one '/' at the start of the hierarchical part
	auth                // the authority, before any '@': userinfo, or host
	host                // the host, after '@'
	literal             // inside an IP literal's brackets
	afterLiteral        // after the IP literal's ']'
	port                // the port, after the host's ':'
	path                // the path
	query               // the query
	fragment            // the fragment
)

// The marks of Marker: each is the offset after its delimiter, in
// syntax.Marks.
const (
	Scheme   = 1 + iota // the ':' that ends the scheme
	Auth                // the second '/' of the "//" that begins the authority
	At                  // the '@' that ends the userinfo
	Colon               // a ':' in the authority outside an IP literal: the last is the port's, if after the host's start
	AuthEnd             // the '/' that ends the authority
	Query               // the '?' that begins the query
	Fragment            // the '#' that begins the fragment
)

// Marker is the Appendix B split as a syntax.Marker: it marks, in valid
// input, the delimiters that package parser's scan finds.
func Marker(q int, c byte) (int, uint8) {
	// Everywhere but in the query and the fragment, '?' begins the query;
	// '#' begins the fragment everywhere but in it.
	switch {
	case c == '#' && q != fragment:
		return fragment, Fragment
	case c == '?' && q != query && q != fragment:
		return query, Query
	}
	switch q {
	case start, scheme:
		switch c {
		case ':':
			if q == start {
				return path, 0 // not valid in any URI rule
			}
			return hier, Scheme
		case '/':
			if q == start {
				return slash, 0
			}
			return path, 0
		}
		return scheme, 0
	case hier:
		if c == '/' {
			return slash, 0
		}
		return path, 0
	case slash:
		if c == '/' {
			return auth, Auth
		}
		return path, 0
	case auth, host, literal, afterLiteral, port:
		switch {
		case c == '/':
			return path, AuthEnd
		case q == literal:
			if c == ']' {
				return afterLiteral, 0
			}
			return literal, 0
		case c == '@' && q == auth:
			return host, At
		case c == '[' && (q == auth || q == host):
			return literal, 0
		case c == ':' && q == auth:
			return auth, Colon // userinfo's, or the port's: '@' decides
		case c == ':' && (q == host || q == afterLiteral):
			return port, Colon
		}
		return q, 0
	}
	return q, 0 // path, query, fragment
}

// SplitAuthority splits an authority as Marker's marks do, for every
// grammar of this module: the userinfo up to the "@" (which no userinfo
// or host holds), then the host, an IP literal up to its "]" or else up
// to a ":", then the port after that ":". It returns where the host
// begins and ends, whether there are a userinfo and a port, and false
// when an IP literal's "]" does not end the host (no valid authority
// has that).
func SplitAuthority(a string) (hostStart, hostEnd int, hasUserinfo, hasPort, ok bool) {
	if k := strings.IndexByte(a, '@'); k >= 0 {
		hostStart, hasUserinfo = k+1, true
	}
	hostEnd = len(a)
	if hostStart < len(a) && a[hostStart] == '[' {
		k := strings.IndexByte(a[hostStart:], ']')
		if k < 0 {
			return 0, 0, false, false, false
		}
		hostEnd = hostStart + k + 1
	} else if k := strings.IndexByte(a[hostStart:], ':'); k >= 0 {
		hostEnd = hostStart + k
	}
	if hostEnd < len(a) && a[hostEnd] != ':' {
		return 0, 0, false, false, false
	}
	return hostStart, hostEnd, hasUserinfo, hostEnd < len(a), true
}

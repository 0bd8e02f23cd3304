package parser

import "strings"

// ParseFrom parses s as a URI-reference, as ParseReference does, for less
// work when s begins with the scheme and authority of u as u writes them
// (u.String() up to the end of its authority) and a path, query or
// fragment follows: the whole of s is validated by the DFA, but only what
// follows u's authority is split; the scheme, authority and host kind are
// u's. It is how package resolve checks a target that keeps its base's, or
// its reference's, scheme and authority. When s does not begin so, it is
// ParseReference(s).
func ParseFrom(u URI, s string) (URI, error) {
	if len(s) > MaxLength {
		return URI{}, tooLong("URI-reference", s, MaxLength)
	}
	n := int(u.pathStart) // the end of u's authority, or of its scheme
	switch {
	case !u.has(hasScheme | hasAuthority), len(s) < n, s[:n] != u.text[:n]:
		// No prefix to reuse (a relative path's first segment decides
		// whether it is one), or not u's.
		return ParseReference(s)
	case u.has(hasAuthority) && n < len(s) && s[n] != '/' && s[n] != '?' && s[n] != '#':
		// The authority goes on past u's.
		return ParseReference(s)
	case !u.has(hasAuthority) && strings.HasPrefix(s[n:], "//"):
		// An authority begins where u has none.
		return ParseReference(s)
	}
	if ok, stop := rfc3986.uriDFA[0].Machine().Why(s); !ok {
		return URI{}, dfaError("URI-reference", s, stop)
	}
	// As split does, from n on: in valid input, '#' appears only to start
	// the fragment, and '?' before it only to start the query.
	v := URI{text: s, schemeEnd: u.schemeEnd, hostStart: u.hostStart, hostEnd: u.hostEnd,
		flags: u.flags & (hasScheme | hasAuthority | hasUserinfo | hasPort), hostKind: u.hostKind}
	hash := len(s)
	if k := strings.IndexByte(s[n:], '#'); k >= 0 {
		hash = n + k
		v.flags |= hasFragment
	}
	query, queryEnd := hash, hash
	if k := strings.IndexByte(s[n:hash], '?'); k >= 0 {
		query = n + k
		v.flags |= hasQuery
	} else {
		queryEnd = query
	}
	v.pathStart, v.pathEnd, v.queryEnd = uint32(n), uint32(query), uint32(queryEnd)
	return v, nil
}

package parser

import "strings"

// The fast path. gen dfa compiles every rule of Appendix A (it has no
// recursion, so each rule's language is regular) to a minimal DFA over
// bytes, emitted as compact tables in internal/rfc3986gen/rfc3986_dfa.go
// and run by package syntax. For a valid URI reference the components are
// then split by an Appendix B scan, which is exact once the input is known
// to be valid, and the host is classified with the IPv4address DFA.
// Invalid input goes to the pigeon parser, for an error with its offset and
// expected set.

// split cuts a valid URI reference into its components (RFC 3986
// Appendix B's regular expression, by hand): a scheme is what precedes a
// ':' that comes before any '/', '?' or '#'; an authority follows "//" up to
// the next '/', '?' or '#'; then the path, "?" query, "#" fragment. Within a
// valid authority, userinfo ends at the only '@', an IP literal at ']', and
// the port follows the next ':'. The URI is s and offsets in it.
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
	u.hostStart, u.hostEnd = uint32(hs), uint32(he)
	if he < end { // s[he] == ':'
		u.flags |= hasPort
	}
	// §3.2.2: a host that matches IPv4address is IPv4, not a reg-name.
	host := s[hs:he]
	switch {
	case len(host) > 1 && host[0] == '[' && (host[1] == 'v' || host[1] == 'V'):
		u.hostKind = HostIPvFuture
	case len(host) > 0 && host[0] == '[':
		u.hostKind = HostIPv6
	case len(host) >= 7 && isDigit(host[0]):
		if ok, _ := sy.ipv4DFA.Machine().Run(host); ok {
			u.hostKind = HostIPv4
		} else {
			u.hostKind = HostRegName
		}
	default:
		u.hostKind = HostRegName
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

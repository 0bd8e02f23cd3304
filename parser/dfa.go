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
// the port follows the next ':'. The result shares s's memory.
func (sy *Syntax) split(s string) URI {
	var u URI
	rest := s
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if c == ':' {
			u.scheme, u.flags, rest = rest[:i], u.flags|hasScheme, rest[i+1:]
			break
		}
		if c == '/' || c == '?' || c == '#' {
			break
		}
	}
	if len(rest) >= 2 && rest[0] == '/' && rest[1] == '/' {
		rest = rest[2:]
		end := len(rest)
		for i := 0; i < len(rest); i++ {
			if c := rest[i]; c == '/' || c == '?' || c == '#' {
				end = i
				break
			}
		}
		u.flags |= hasAuthority
		sy.splitAuthority(&u, rest[:end])
		rest = rest[end:]
	}
	end := len(rest)
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; c == '?' || c == '#' {
			end = i
			break
		}
	}
	u.path, rest = rest[:end], rest[end:]
	if len(rest) > 0 && rest[0] == '?' {
		rest = rest[1:]
		end := strings.IndexByte(rest, '#')
		if end < 0 {
			end = len(rest)
		}
		u.query, u.flags, rest = rest[:end], u.flags|hasQuery, rest[end:]
	}
	if len(rest) > 0 && rest[0] == '#' {
		u.fragment, u.flags = rest[1:], u.flags|hasFragment
	}
	return u
}

func (sy *Syntax) splitAuthority(u *URI, a string) {
	if i := strings.IndexByte(a, '@'); i >= 0 {
		u.userinfo, u.flags, a = a[:i], u.flags|hasUserinfo, a[i+1:]
	}
	hostEnd := len(a)
	if len(a) > 0 && a[0] == '[' {
		hostEnd = strings.IndexByte(a, ']') + 1
	} else if i := strings.IndexByte(a, ':'); i >= 0 {
		hostEnd = i
	}
	u.host = a[:hostEnd]
	if hostEnd < len(a) { // a[hostEnd] == ':'
		u.port, u.flags = a[hostEnd+1:], u.flags|hasPort
	}
	// §3.2.2: a host that matches IPv4address is IPv4, not a reg-name.
	switch {
	case len(u.host) > 1 && u.host[0] == '[' && (u.host[1] == 'v' || u.host[1] == 'V'):
		u.hostKind = HostIPvFuture
	case len(u.host) > 0 && u.host[0] == '[':
		u.hostKind = HostIPv6
	case len(u.host) >= 7 && isDigit(u.host[0]):
		if ok, _ := sy.ipv4DFA.Machine().Run(u.host); ok {
			u.hostKind = HostIPv4
		} else {
			u.hostKind = HostRegName
		}
	default:
		u.hostKind = HostRegName
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

package parser

import (
	"fmt"
	"strings"
	"sync"
)

// The fast path. gen dfa compiles every rule of Appendix A (it has no
// recursion, so each rule's language is regular) to a minimal DFA over
// bytes, emitted as compact tables in rfc3986_dfa.go. Here they are
// expanded, on first use, to direct [state][byte] tables, so that deciding
// membership costs one table load per input byte and no allocation. For a
// valid URI reference the components are then split by an Appendix B scan,
// which is exact once the input is known to be valid, and the host is
// classified with the IPv4address DFA. Invalid input goes to the pigeon
// parser, for an error with its offset and expected set.

// dfaTable is a DFA as gen dfa emits it (see rfc3986_dfa.go).
type dfaTable struct {
	states, nclass int
	wide           bool
	classes        string // class of each byte, 0 for none
	next           string // [state][class] → state; state 0 dead, 1 start
	accept         string // one byte per state
}

// dfa is a table expanded for matching: next[state<<8|byte]. loops[s],
// when not nil, marks the bytes on which state s stays in s: runs of them
// (a path segment, a query, a host name) are skipped by testing each byte
// on its own, without the load-to-load dependency of a table walk.
type dfa struct {
	next8  []uint8
	next16 []uint16
	accept []bool
	loops  []*[256]bool
	t      *dfaTable
}

// minLoop is the least number of self-looping bytes for which a state gets
// a skip table: below it, runs are short and the table walk is as fast.
const minLoop = 8

func (t *dfaTable) expand() *dfa {
	d := &dfa{accept: make([]bool, t.states), t: t}
	at := func(s, c int) int {
		i := s*t.nclass + c
		if t.wide {
			return int(t.next[2*i]) | int(t.next[2*i+1])<<8
		}
		return int(t.next[i])
	}
	if t.wide {
		d.next16 = make([]uint16, t.states<<8)
	} else {
		d.next8 = make([]uint8, t.states<<8)
	}
	d.loops = make([]*[256]bool, t.states)
	for s := 0; s < t.states; s++ {
		d.accept[s] = t.accept[s] == 1
		var loop [256]bool
		count := 0
		for b := 0; b < 256; b++ {
			n := at(s, int(t.classes[b]))
			if t.wide {
				d.next16[s<<8|b] = uint16(n)
			} else {
				d.next8[s<<8|b] = uint8(n)
			}
			if s != 0 && n == s {
				loop[b] = true
				count++
			}
		}
		if count >= minLoop {
			d.loops[s] = &loop
		}
	}
	return d
}

var dfas = func() map[string]func() *dfa {
	m := make(map[string]func() *dfa, len(dfaTables))
	for rule, t := range dfaTables {
		m[rule] = sync.OnceValue(t.expand)
	}
	return m
}()

// Hot machines, resolved once.
var (
	dfaReference   = dfas["URI-reference"]
	dfaURI         = dfas["URI"]
	dfaAbsolute    = dfas["absolute-URI"]
	dfaRelative    = dfas["relative-ref"]
	dfaIPv4address = dfas["IPv4address"]
)

// run reports whether the whole of s is accepted, and if not, the offset
// of the first byte that no valid input can have there: the length of the
// longest prefix of s that is a prefix of a valid input (len(s) when all of
// s is such a prefix but not itself valid).
func (d *dfa) run(s string) (ok bool, fail int) {
	if d.next8 != nil {
		next := d.next8
		loops := d.loops
		st := 1
		for i := 0; i < len(s); {
			st = int(next[st<<8|int(s[i])])
			if st == 0 {
				return false, i
			}
			i++
			if loop := loops[st]; loop != nil {
				for i < len(s) && loop[s[i]] {
					i++
				}
			}
		}
		return d.accept[st], len(s)
	}
	next := d.next16
	st := 1
	for i := 0; i < len(s); i++ {
		st = int(next[st<<8|int(s[i])])
		if st == 0 {
			return false, i
		}
	}
	return d.accept[st], len(s)
}

// expected describes what the DFA accepts after s[:off]: the bytes with a
// transition, as classes, and "EOF" where the input may end.
func (d *dfa) expected(s string, off int) []string {
	st := 1
	for i := 0; i < off; i++ {
		if d.next8 != nil {
			st = int(d.next8[st<<8|int(s[i])])
		} else {
			st = int(d.next16[st<<8|int(s[i])])
		}
	}
	var set []byte
	for b := 0; b < 256; b++ {
		var n int
		if d.next8 != nil {
			n = int(d.next8[st<<8|b])
		} else {
			n = int(d.next16[st<<8|b])
		}
		if n != 0 {
			set = append(set, byte(b))
		}
	}
	var out []string
	if len(set) > 0 {
		out = append(out, byteClass(set))
	}
	if d.accept[st] {
		out = append(out, "EOF")
	}
	return out
}

// byteClass formats sorted bytes as a pigeon-style class, or a literal
// for one byte.
func byteClass(set []byte) string {
	if len(set) == 1 {
		return fmt.Sprintf("%q", string(set))
	}
	var b strings.Builder
	b.WriteByte('[')
	dash := false
	for i := 0; i < len(set); {
		j := i
		for j+1 < len(set) && set[j+1] == set[j]+1 {
			j++
		}
		for _, r := range [][2]byte{{set[i], set[j]}} {
			lo, hi := r[0], r[1]
			if lo == '-' {
				dash = true
				if hi == lo {
					break
				}
				lo++
			}
			b.WriteString(classByte(lo))
			if hi > lo+1 {
				b.WriteByte('-')
			}
			if hi > lo {
				b.WriteString(classByte(hi))
			}
		}
		i = j + 1
	}
	if dash {
		b.WriteByte('-')
	}
	b.WriteByte(']')
	return b.String()
}

func classByte(c byte) string {
	switch {
	case c == ']' || c == '\\':
		return `\` + string(c)
	case c > 0x20 && c < 0x7f:
		return string(c)
	}
	return fmt.Sprintf(`\x%02X`, c)
}

// split cuts a valid URI reference into its components (RFC 3986
// Appendix B's regular expression, by hand): a scheme is what precedes a
// ':' that comes before any '/', '?' or '#'; an authority follows "//" up to
// the next '/', '?' or '#'; then the path, "?" query, "#" fragment. Within a
// valid authority, userinfo ends at the only '@', an IP literal at ']', and
// the port follows the next ':'. The result shares s's memory.
func split(s string) URI {
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
		splitAuthority(&u, rest[:end])
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

func splitAuthority(u *URI, a string) {
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
		if ok, _ := dfaIPv4address().run(u.host); ok {
			u.hostKind = HostIPv4
		} else {
			u.hostKind = HostRegName
		}
	default:
		u.hostKind = HostRegName
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

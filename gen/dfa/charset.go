package dfa

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/internal/fa"
)

// Charset is what a rule allows unencoded, as its minimal DFA says: the
// characters that, read after any complete string of the rule, give a
// complete string again, with the same continuations — for RFC 3986's
// segment = *pchar, the characters of pchar (unreserved, sub-delims, ":"
// and "@"); for segment-nz-nc, the same without ":". A text made of such
// characters and of percent-encodings (when Percent is set) matches the
// rule, whatever their order (but for a rule that needs at least one, such
// as segment-nz, for the empty text): it is what a percent-encoder for the
// rule may leave as is (RFC 3986 §2.4: "when producing the URI from its
// component parts"). Charsets are derived for every rule, never typed by
// hand; package syntax's Table carries them, and package parser encodes
// with them.
type Charset struct {
	// Ranges are the characters (code points, or bytes in a grammar of
	// octets), sorted and merged.
	Ranges []fa.Range
	// Percent is set when a percent-encoding ("%" and two hexadecimal
	// digits, in either case) is allowed wherever a character of Ranges
	// is: the rule can carry any character, encoded.
	Percent bool
}

// Charset derives m's charset (m is one of c's machines).
func (c *Compiler) Charset(m *Machine) Charset {
	d := m.DFA
	var accepting []int
	for s, ok := range d.Accept {
		if ok {
			accepting = append(accepting, s)
		}
	}
	if len(accepting) == 0 {
		return Charset{}
	}
	// run reads b from state s; -1 when it dies.
	run := func(s int, b []byte) int {
		for _, x := range b {
			next := -1
			for a, set := range d.Atoms {
				if set.Contains(rune(x)) {
					next = int(d.Next[s][a])
					break
				}
			}
			if next < 0 {
				return -1
			}
			s = next
		}
		return s
	}
	loops := func(b []byte) bool {
		for _, s := range accepting {
			if run(s, b) != s {
				return false
			}
		}
		return true
	}
	var out Charset
	for _, iv := range c.intervals() {
		var b []byte
		if c.g.Octets {
			b = []byte{byte(iv.Lo)}
		} else {
			b = utf8.AppendRune(nil, iv.Lo)
		}
		if loops(b) {
			if n := len(out.Ranges); n > 0 && out.Ranges[n-1].Hi+1 == iv.Lo {
				out.Ranges[n-1].Hi = iv.Hi
			} else {
				out.Ranges = append(out.Ranges, iv)
			}
		}
	}
	out.Percent = true
	for _, h := range []string{"%00", "%7f", "%80", "%ff", "%AF", "%9C", "%2F", "%25"} {
		if !loops([]byte(h)) {
			out.Percent = false
		}
	}
	return out
}

// intervals splits the characters into the intervals that no terminal of
// the grammar tells apart: each terminal's characters are a union of
// them, so that one character of an interval stands for all. The
// characters above are code points (not surrogates), or bytes in a
// grammar of octets.
func (c *Compiler) intervals() []fa.Range {
	if c.ivs != nil {
		return c.ivs
	}
	top := rune(utf8.MaxRune)
	if c.g.Octets {
		top = 0xff
	}
	cuts := map[rune]bool{0: true, top + 1: true, 0xD800: true, 0xE000: true}
	add := func(lo, hi rune) {
		cuts[lo], cuts[hi+1] = true, true
	}
	for _, r := range c.g.Rules {
		abnf.Walk(r.Expr, func(n abnf.Node) {
			switch n := n.(type) {
			case *abnf.NumVal:
				if n.Range {
					add(n.Vals[0], n.Vals[1])
					return
				}
				for _, v := range n.Vals {
					add(v, v)
				}
			case *abnf.CharVal:
				for _, ch := range []byte(n.Text) {
					add(rune(ch), rune(ch))
					if !n.Sensitive {
						l := strings.ToLower(string(ch))[0]
						u := strings.ToUpper(string(ch))[0]
						add(rune(l), rune(l))
						add(rune(u), rune(u))
					}
				}
			}
		})
	}
	points := make([]rune, 0, len(cuts))
	for p := range cuts {
		if p <= top+1 {
			points = append(points, p)
		}
	}
	slices.Sort(points)
	for i := 0; i+1 < len(points); i++ {
		lo, hi := points[i], points[i+1]-1
		if lo >= 0xD800 && hi <= 0xDFFF && !c.g.Octets {
			continue // surrogates: no UTF-8
		}
		c.ivs = append(c.ivs, fa.Range{Lo: lo, Hi: hi})
	}
	return c.ivs
}

// emitCharset writes cs as the charset fields of a syntax.Table.
func emitCharset(b *bytes.Buffer, cs Charset) {
	if len(cs.Ranges) == 0 {
		return
	}
	var parts []string
	for _, r := range cs.Ranges {
		parts = append(parts, fmt.Sprintf("%#x, %#x", r.Lo, r.Hi))
	}
	// Eight ranges a line: tables stay readable.
	var lines []string
	for i := 0; i < len(parts); i += 8 {
		lines = append(lines, strings.Join(parts[i:min(i+8, len(parts))], ", "))
	}
	fmt.Fprintf(b, "\t\tUnencoded: []rune{\n\t\t\t%s,\n\t\t},\n", strings.Join(lines, ",\n\t\t\t"))
	fmt.Fprintf(b, "\t\tPercent: %v,\n", cs.Percent)
}

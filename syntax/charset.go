package syntax

import (
	"fmt"
	"sort"
	"unicode/utf8"
)

// Charset is a set of characters that a rule allows unencoded: the
// characters that, read after any complete string of the rule, give a
// complete string again (gen dfa derives it from the rule's minimal DFA:
// for RFC 3986's segment, the characters of pchar), and whether a
// percent-encoding may stand for any character there. A percent-encoder
// for the rule (RFC 3986 §2.1, §2.4) leaves these characters as they are
// and encodes the rest. Its methods allocate nothing.
type Charset struct {
	ascii   [256]bool // the bytes below 0x80 in the set; for a grammar of octets, all bytes
	ranges  []rune    // pairs, from the table: the characters from 0x80 on
	percent bool
	octets  bool
}

// Charset returns the table's charset (nil when gen dfa wrote none: a rule
// whose strings cannot be extended, or a table from an older gen).
// octets says whether the grammar's values are bytes (gen's -octets)
// rather than code points in UTF-8.
func (t *Table) Charset(octets bool) *Charset {
	if len(t.Unencoded) == 0 {
		return nil
	}
	t.csOnce.Do(func() {
		cs := &Charset{ranges: t.Unencoded, percent: t.Percent, octets: octets}
		for i := 0; i+1 < len(t.Unencoded); i += 2 {
			hi := t.Unencoded[i+1]
			if !octets {
				hi = min(hi, utf8.RuneSelf-1)
			}
			for c := t.Unencoded[i]; c <= hi && c < 256; c++ {
				cs.ascii[c] = true
			}
		}
		t.cs = cs
	})
	return t.cs
}

// Byte reports whether the byte b (an ASCII character; or any byte in a
// grammar of octets) is in the set.
func (c *Charset) Byte(b byte) bool { return c.ascii[b] }

// Rune reports whether the character r is in the set.
func (c *Charset) Rune(r rune) bool {
	if r < utf8.RuneSelf || c.octets && r < 256 {
		return r >= 0 && c.ascii[r]
	}
	i := sort.Search(len(c.ranges)/2, func(i int) bool { return c.ranges[2*i+1] >= r })
	return i < len(c.ranges)/2 && c.ranges[2*i] <= r
}

// Wide reports whether the set has characters from U+0080 on (in a
// grammar of code points).
func (c *Charset) Wide() bool {
	n := len(c.ranges)
	return n > 0 && c.ranges[n-1] >= utf8.RuneSelf
}

// Percent reports whether a percent-encoding may stand for any character:
// whether everything can be encoded for the rule.
func (c *Charset) Percent() bool { return c.percent }

// Octets reports whether the grammar's characters are bytes.
func (c *Charset) Octets() bool { return c.octets }

// checkRanges checks the pairs of a table's Unencoded field.
func checkRanges(r []rune) error {
	if len(r)%2 != 0 {
		return fmt.Errorf("dfa: Unencoded has %d values, want pairs", len(r))
	}
	for i := 0; i < len(r); i += 2 {
		if r[i] < 0 || r[i] > r[i+1] || r[i+1] > utf8.MaxRune || i > 0 && r[i] <= r[i-1] {
			return fmt.Errorf("dfa: Unencoded range %d (%#x-%#x) is not sorted and within the characters", i/2, r[i], r[i+1])
		}
	}
	return nil
}

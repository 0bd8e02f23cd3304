package fa

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// matches reports whether b is accepted by one of the sequences.
func matches(seqs [][]ByteRange, b []byte) bool {
	for _, s := range seqs {
		if len(s) != len(b) {
			continue
		}
		ok := true
		for i, r := range s {
			if b[i] < r.Lo || b[i] > r.Hi {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// TestUTF8Sequences checks, for ranges around every boundary of the
// encoding and random ones, that the sequences accept the encoding of every
// code point in range and of none outside it.
func TestUTF8Sequences(t *testing.T) {
	ranges := [][2]rune{
		{0, 0x10FFFF}, {0, 0x7F}, {0x41, 0x5A}, {0x7F, 0x80}, {0x80, 0x7FF}, {0x7FF, 0x800},
		{0xA0, 0xD7FF}, {0xD7FF, 0xE000}, {0xE000, 0xF8FF}, {0xF900, 0xFDCF}, {0xFDF0, 0xFFEF},
		{0xFFFF, 0x10000}, {0x10000, 0x1FFFD}, {0xF0000, 0xFFFFD}, {0x100000, 0x10FFFD}, {0xE9, 0xE9},
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 40 {
		a, b := rune(rng.IntN(0x110000)), rune(rng.IntN(0x110000))
		ranges = append(ranges, [2]rune{min(a, b), max(a, b)})
	}
	var buf [4]byte
	for _, r := range ranges {
		seqs := UTF8Sequences(r[0], r[1])
		// Every code point, in range or not, near the range and sampled far.
		check := func(c rune) {
			if c < 0 || c > utf8.MaxRune || c >= 0xD800 && c <= 0xDFFF {
				return
			}
			n := utf8.EncodeRune(buf[:], c)
			want := c >= r[0] && c <= r[1]
			if got := matches(seqs, buf[:n]); got != want {
				t.Fatalf("range %X-%X: U+%04X matched %v, want %v (%v)", r[0], r[1], c, got, want, seqs)
			}
		}
		for c := r[0] - 300; c <= r[0]+300; c++ {
			check(c)
		}
		for c := r[1] - 300; c <= r[1]+300; c++ {
			check(c)
		}
		for range 20000 {
			check(rune(rng.IntN(0x110000)))
		}
		// No invalid encoding (surrogates, overlongs) is accepted.
		for _, bad := range [][]byte{{0xED, 0xA0, 0x80}, {0xC0, 0x80}, {0xE0, 0x80, 0x80}, {0xF4, 0x90, 0x80, 0x80}, {0x80}, {0xFF}} {
			if matches(seqs, bad) {
				t.Fatalf("range %X-%X accepts invalid % X", r[0], r[1], bad)
			}
		}
	}
}

// TestUTF8SequencesExhaustive: the whole code space, for the ranges of
// RFC 3987's ucschar.
func TestUTF8SequencesExhaustive(t *testing.T) {
	if testing.Short() {
		t.Skip("1.1 million code points")
	}
	ranges := [][2]rune{{0xA0, 0xD7FF}, {0xF900, 0xFDCF}, {0xFDF0, 0xFFEF}, {0x10000, 0x1FFFD}, {0xE1000, 0xEFFFD}}
	var buf [4]byte
	for _, r := range ranges {
		seqs := UTF8Sequences(r[0], r[1])
		for c := rune(0); c <= utf8.MaxRune; c++ {
			if c >= 0xD800 && c <= 0xDFFF {
				continue
			}
			n := utf8.EncodeRune(buf[:], c)
			if got, want := matches(seqs, buf[:n]), c >= r[0] && c <= r[1]; got != want {
				t.Fatalf("range %X-%X: U+%04X matched %v, want %v", r[0], r[1], c, got, want)
			}
		}
	}
}

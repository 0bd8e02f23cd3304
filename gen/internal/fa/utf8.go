package fa

import "unicode/utf8"

// ByteRange is an inclusive range of byte values.
type ByteRange struct{ Lo, Hi byte }

// UTF8Sequences returns the byte-range sequences whose concatenations are
// exactly the UTF-8 encodings of the code points lo…hi (surrogates, which
// have no encoding, left out). Each sequence has one range per byte of the
// encoding. This is the classic construction (as in RE2 and Rust's
// utf8-ranges): split the range where the encoding length changes, then
// where a continuation byte would not span its full range.
func UTF8Sequences(lo, hi rune) [][]ByteRange {
	var out [][]ByteRange
	var split func(lo, hi rune)
	split = func(lo, hi rune) {
		if lo > hi {
			return
		}
		// Surrogates have no UTF-8 encoding.
		if lo <= 0xDFFF && hi >= 0xD800 {
			split(lo, 0xD7FF)
			split(0xE000, hi)
			return
		}
		// One encoding length at a time.
		for _, max := range []rune{0x7F, 0x7FF, 0xFFFF} {
			if lo <= max && hi > max {
				split(lo, max)
				split(max+1, hi)
				return
			}
		}
		if hi < utf8.RuneSelf {
			out = append(out, []ByteRange{{byte(lo), byte(hi)}})
			return
		}
		// Within one length: the range must cover whole blocks of the
		// trailing continuation bytes, or be split until it does.
		n := utf8.RuneLen(lo)
		for i := 1; i < n; i++ {
			m := rune(1)<<(6*i) - 1 // the bits of the last i bytes
			if lo&^m != hi&^m {
				if lo&m != 0 {
					split(lo, lo|m)
					split((lo|m)+1, hi)
					return
				}
				if hi&m != m {
					split(lo, (hi&^m)-1)
					split(hi&^m, hi)
					return
				}
			}
		}
		var a, b [4]byte
		utf8.EncodeRune(a[:], lo)
		utf8.EncodeRune(b[:], hi)
		seq := make([]ByteRange, n)
		for i := range n {
			seq[i] = ByteRange{a[i], b[i]}
		}
		out = append(out, seq)
	}
	split(lo, hi)
	return out
}

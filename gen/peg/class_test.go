package peg

import (
	"math/rand/v2"
	"testing"

	"github.com/peguri/rfc3986/gen/internal/fa"
)

// TestClassEmission: every character set the translator emits reads back,
// under pigeon's rules, as the same set: '-' last, ']' and '\' escaped,
// '^' never first, no reversed ranges.
func TestClassEmission(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	special := []rune{'-', ']', '\\', '^', '[', '"', 0, 0x7f, 0xe9, 0x2d, 0x5c, 0x10ffff, 0xd7ff, 0xe000}
	for range 3000 {
		var s fa.CharSet
		for range 1 + rng.IntN(5) {
			switch rng.IntN(3) {
			case 0:
				s = s.Union(fa.Of(special[rng.IntN(len(special))]))
			case 1:
				lo := rune(0x20 + rng.IntN(0x60))
				s = s.Union(fa.Span(lo, lo+rune(rng.IntN(8))))
			default:
				lo := rune(rng.IntN(0x10ffff))
				s = s.Union(fa.Span(lo, min(lo+rune(rng.IntN(300)), 0x10ffff)))
			}
		}
		text := class(s)
		p := &pp{s: text}
		e, err := p.primary()
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if c, ok := e.(*pCls); ok {
			// The network reads classes the same way.
			var net fa.CharSet
			rs := classRanges(c)
			for i := 0; i < len(rs); i += 2 {
				net = net.Union(fa.Span(rs[i], rs[i+1]))
			}
			if !net.Equal(s) {
				t.Fatalf("%s: the network reads %v, want %v", text, net, s)
			}
		}
		var got fa.CharSet
		switch e := e.(type) {
		case *pLit:
			for _, r := range e.s {
				got = got.Union(fa.Of(r))
			}
		case *pCls:
			if e.invert {
				t.Fatalf("%s reads as an inverted class", text)
			}
			for _, c := range e.chars {
				got = got.Union(fa.Of(c))
			}
			for i := 0; i < len(e.ranges); i += 2 {
				if e.ranges[i] > e.ranges[i+1] {
					t.Fatalf("%s has a reversed range", text)
				}
				got = got.Union(fa.Span(e.ranges[i], e.ranges[i+1]))
			}
		}
		if !got.Equal(s) {
			t.Fatalf("set %v emitted as %s reads back as %v", s, text, got)
		}
	}
}

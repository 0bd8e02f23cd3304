package rfc3986_test

import (
	"testing"

	"github.com/peguri/rfc3986"
	"github.com/peguri/rfc3986/internal/benchcorpus"
)

// printable is the set of bytes %x21-7E: the floor benchmark's test.
var printable = func() (t [256]bool) {
	for c := 0x21; c <= 0x7e; c++ {
		t[c] = true
	}
	return t
}()

// scanPrintable reports whether every byte of s is in printable, one
// byte a step.
//
//go:noinline
func scanPrintable(s string) bool {
	for i := 0; i < len(s); i++ {
		if !printable[s[i]] {
			return false
		}
	}
	return true
}

// scanPrintable4 is scanPrintable four bytes a step, as Parse's walk
// tests its runs.
//
//go:noinline
func scanPrintable4(s string) bool {
	i := 0
	for ; i+4 <= len(s); i += 4 {
		if !printable[s[i]] || !printable[s[i+1]] || !printable[s[i+2]] || !printable[s[i+3]] {
			return false
		}
	}
	for ; i < len(s); i++ {
		if !printable[s[i]] {
			return false
		}
	}
	return true
}

// BenchmarkFloor puts Parse on the mixed corpus beside loops that do far
// less: one call per reference and nothing else ("call"), and one table
// test of every byte, with no structure and no components, one byte a
// step ("scan1") and four ("scan4"). They bound what a scalar parser of
// these 54-byte references can reach (docs/benchmarks.md, "What is
// left"); compare the MB/s of each line with benchstat.
func BenchmarkFloor(b *testing.B) {
	corpus, size := benchCorpus(b, benchcorpus.Mixed)
	for _, c := range []struct {
		name string
		f    func(string) bool
	}{
		{"call", func(s string) bool { return len(s) > 0 }},
		{"scan1", scanPrintable},
		{"scan4", scanPrintable4},
		{"parse", func(s string) bool { _, err := rfc3986.Parse(s); return err == nil }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				for _, s := range corpus {
					if !c.f(s) {
						b.Fatalf("%s: false on %q", c.name, s)
					}
				}
			}
		})
	}
}

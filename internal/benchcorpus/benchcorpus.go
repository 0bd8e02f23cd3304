// Package benchcorpus holds the benchmarks' inputs: it reads
// testdata/bench-corpus.txt and testdata/bench-long.txt, and generates the
// long corpus, deterministically, so that a test can check the file is what
// the generator writes (go test -run TestBenchLong -update . rewrites it).
package benchcorpus

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// Mixed and Long are the corpora's file names in testdata.
const (
	Mixed = "bench-corpus.txt"
	Long  = "bench-long.txt"
)

// Read returns the lines of a corpus in dir (a testdata directory) and
// their total size in bytes.
func Read(dir, name string) ([]string, int64, error) {
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return nil, 0, err
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var n int64
	for _, l := range lines {
		n += int64(len(l))
	}
	return lines, n, nil
}

// LongLines is how many references GenerateLong writes.
const LongLines = 16

// GenerateLong returns the long corpus, one reference a line: LongLines
// absolute URIs whose path and query are each 1 to 8 KiB (lengths drawn
// uniformly), made of what long URIs carry — words and identifiers with
// '-', '.', '_', '~', a percent-encoded non-ASCII character (UTF-8, two or
// three octets) about every 40 bytes of path and key=value pairs with base64url tokens and
// percent-encoded JSON in the query — and every fourth line a fragment. The
// generator is a PCG with a fixed seed, so the output never changes unless
// this code does.
func GenerateLong() string {
	r := rand.New(rand.NewPCG(3986, 21))
	var b strings.Builder
	hosts := []string{"www.example.com", "cdn.example.net:8443", "192.0.2.16", "[2001:db8::7]", "user:secret@api.example.org"}
	for line := range LongLines {
		fmt.Fprintf(&b, "https://%s", hosts[line%len(hosts)])
		path := 1024 + r.IntN(7*1024+1)
		start := b.Len()
		for b.Len()-start < path {
			b.WriteByte('/')
			segment(r, &b)
		}
		b.WriteByte('?')
		query := 1024 + r.IntN(7*1024+1)
		start = b.Len()
		for b.Len()-start < query {
			if b.Len() > start {
				b.WriteByte('&')
			}
			pair(r, &b)
		}
		if line%4 == 3 {
			b.WriteString("#section-")
			word(r, &b, 4+r.IntN(12))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

const (
	lower  = "abcdefghijklmnopqrstuvwxyz"
	alnum  = lower + "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b64url = alnum + "-_"
)

func word(r *rand.Rand, b *strings.Builder, n int) {
	for range n {
		b.WriteByte(lower[r.IntN(len(lower))])
	}
}

// segment writes a path segment: words joined by '-', '.', '_' or '~',
// with a percent-encoded character now and then.
func segment(r *rand.Rand, b *strings.Builder) {
	for n := 1 + r.IntN(4); n > 0; n-- {
		word(r, b, 3+r.IntN(10))
		switch k := r.IntN(10); {
		case k < 4:
			b.WriteByte("-._~"[r.IntN(4)])
		case k < 6:
			// A non-ASCII character, percent-encoded in UTF-8, as a
			// browser writes one: accented Latin (two octets) or
			// kana (three).
			c := rune(0xC0 + r.IntN(0x180))
			if r.IntN(2) == 0 {
				c = rune(0x3041 + r.IntN(0xB0))
			}
			for _, o := range []byte(string(c)) {
				fmt.Fprintf(b, "%%%02X", o)
			}
		}
	}
}

// pair writes a query parameter: a word, '=', and a token, a number or
// percent-encoded JSON.
func pair(r *rand.Rand, b *strings.Builder) {
	word(r, b, 2+r.IntN(10))
	b.WriteByte('=')
	switch r.IntN(3) {
	case 0:
		for range 16 + r.IntN(200) {
			b.WriteByte(b64url[r.IntN(len(b64url))])
		}
	case 1:
		fmt.Fprintf(b, "%d", r.IntN(1<<30))
	default:
		b.WriteString("%7B%22")
		word(r, b, 3+r.IntN(8))
		b.WriteString("%22%3A%22")
		word(r, b, 3+r.IntN(30))
		b.WriteString("%22%7D")
	}
}

package rfc3986_test

import (
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/peguri/rfc3986"
	"github.com/peguri/rfc3986/parser"
)

func benchCorpus(b *testing.B) ([]string, int64) {
	data, err := os.ReadFile("testdata/bench-corpus.txt")
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var n int64
	for _, l := range lines {
		n += int64(len(l))
	}
	return lines, n
}

// BenchmarkParse parses the whole corpus (testdata/bench-corpus.txt) per
// op: with rfc3986.Parse (the DFA fast path), with the pigeon parser alone
// (parser.ParseTree, which also builds the parse tree), and with
// net/url.Parse (which is no RFC 3986 validator: it accepts some invalid
// references and rejects some valid ones, such as IPvFuture hosts). Compare
// runs with benchstat.
func BenchmarkParse(b *testing.B) {
	corpus, size := benchCorpus(b)
	b.Run("dfa", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range corpus {
				if _, err := rfc3986.Parse(s); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(corpus)), "ns/uri")
	})
	b.Run("pigeon", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range corpus {
				if _, _, err := parser.ParseTree("URI-reference", s); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(corpus)), "ns/uri")
	})
	b.Run("net_url", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range corpus {
				if _, err := url.Parse(s); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(corpus)), "ns/uri")
	})
}

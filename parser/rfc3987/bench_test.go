package rfc3987_test

import (
	"strings"
	"testing"

	"github.com/peguri/rfc3986/internal/benchcorpus"
	"github.com/peguri/rfc3986/parser/rfc3987"
)

// BenchmarkParse parses IRI references: the mixed corpus
// (testdata/bench-corpus.txt, ASCII) and three IRIs of non-ASCII text, as
// IRI-reference with RFC 3987's parser (its generated walk, gen dfa
// -walk, on a wide table). Compare runs with benchstat.
func BenchmarkParse(b *testing.B) {
	corpus, _, err := benchcorpus.Read("../../testdata", benchcorpus.Mixed)
	if err != nil {
		b.Fatal(err)
	}
	corpus = append(corpus, "http://例え.テスト/パス/ファイル?クエリ=値#断片",
		"https://bücher.example/straße?q=grüße#tête", "/absolute/παράδειγμα")
	p := rfc3987.Parser()
	b.SetBytes(int64(len(strings.Join(corpus, ""))))
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range corpus {
			if _, err := p.Parse("IRI-reference", s); err != nil {
				b.Fatal(err)
			}
		}
	}
}

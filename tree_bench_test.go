package rfc3986_test

import (
	"testing"

	"github.com/peguri/rfc3986/internal/benchcorpus"
	"github.com/peguri/rfc3986/parser"
)

var sinkNode *parser.Node

// BenchmarkTree builds the parse tree of every URI of the corpus
// (testdata/bench-corpus.txt) per op: "generated" with parser.ParseRule,
// whose tree comes from the function gen dfa -tree generated once the DFA
// has accepted the input, "pigeon" with parser.ParsePEG, pigeon's parser
// alone (the reference, which builds the same tree), and "interleaved"
// both in every iteration, reporting the ratio of their times and ns/URI
// of each (see BenchmarkResolve).
func BenchmarkTree(b *testing.B) {
	corpus, _ := benchCorpus(b, benchcorpus.Mixed)
	tree := func(parse func(rule, in string) (*parser.Node, error)) func(b *testing.B) {
		return func(b *testing.B) {
			for _, s := range corpus {
				n, err := parse("URI-reference", s)
				if err != nil {
					b.Fatal(err)
				}
				sinkNode = n
			}
		}
	}
	pair(b, tree(parser.RFC3986().ParseRule), tree(parser.RFC3986().ParsePEG), "generated", "pigeon", len(corpus), "URI")
}

package parser

import (
	"testing"

	"github.com/peguri/rfc3986/internal/benchcorpus"
	"github.com/peguri/rfc3986/internal/walktest"
)

// walkSeeds are the benchmark corpora and references with every part of
// an authority, IP literals and percent-encodings.
func walkSeeds(t testing.TB) []string {
	seeds := []string{
		"http://u:p@[2001:db8::7]:8080/a%2Fb/../c;p?q=1&r#f",
		"foo://[v7.x:y]/", "//192.0.2.1:/x", "s:/%41%zz", "a:b:c", "?q", "#f",
		"http://[::ffff:192.0.2.1]", "mailto:a@b", "./a:b", "//u@h@x",
	}
	for _, name := range []string{benchcorpus.Mixed, benchcorpus.Long} {
		lines, _, err := benchcorpus.Read("../testdata", name)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, lines...)
	}
	return seeds
}

// TestWalk: Parse runs URI-reference's generated walk (gen dfa -walk),
// which decides and marks as the table walk does (RFC 3986 §4.1's
// URI-reference, Appendix B's split).
func TestWalk(t *testing.T) {
	d := rfc3986.uriMarked[0]
	if rfc3986.uriRules[0] != "URI-reference" || !d.machine().HasWalk() {
		t.Fatalf("%s: Parse does not run the generated walk", rfc3986.uriRules[0])
	}
	walk, table, err := walktest.Machines(d.t)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range append(walktest.Inputs(walkSeeds(t), 120), walktest.Runs()...) {
		if diff := walktest.Compare(walk, table, s); diff != "" {
			t.Fatal(diff)
		}
		n++
	}
	t.Logf("%d inputs", n)
}

// FuzzWalk is TestWalk on any input.
func FuzzWalk(f *testing.F) {
	for _, s := range walkSeeds(f) {
		f.Add(s)
	}
	walk, table, err := walktest.Machines(rfc3986.uriMarked[0].t)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if diff := walktest.Compare(walk, table, s); diff != "" {
			t.Fatal(diff)
		}
	})
}

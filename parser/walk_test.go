package parser

import (
	"testing"

	"github.com/peguri/rfc3986/internal/benchcorpus"
	"github.com/peguri/rfc3986/internal/walktest"
	"github.com/peguri/rfc3986/syntax"
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

// TestWalk: ParseReference and ParseURI run the generated walks of
// URI-reference and URI (gen dfa -walk), which decide and mark as the table
// walk does (RFC 3986 §4.1's URI-reference, §3's URI, Appendix B's split).
func TestWalk(t *testing.T) {
	walked := map[string]bool{}
	for i, d := range rfc3986.uriMarked {
		rule := rfc3986.uriRules[i]
		if d.t.Walk == nil {
			continue
		}
		if !d.machine().HasWalk() {
			t.Errorf("%s: the parser does not run its generated walk", rule)
			continue
		}
		walked[rule] = true
		walk, table, err := walktest.Machines(d.t)
		if err != nil {
			t.Fatal(err)
		}
		inputs := append(walktest.Inputs(walkSeeds(t), 120), walktest.Runs()...)
		for _, s := range inputs {
			if diff := walktest.Compare(walk, table, s); diff != "" {
				t.Fatalf("%s: %s", rule, diff)
			}
		}
		t.Logf("%s: %d inputs", rule, len(inputs))
	}
	if !walked["URI-reference"] || !walked["URI"] {
		t.Errorf("walks run for %v, want URI-reference and URI", walked)
	}
}

// FuzzWalk is TestWalk on any input.
func FuzzWalk(f *testing.F) {
	for _, s := range walkSeeds(f) {
		f.Add(s)
	}
	var walks, tables []*syntax.Machine
	for _, d := range rfc3986.uriMarked {
		if d.t.Walk == nil {
			continue
		}
		walk, table, err := walktest.Machines(d.t)
		if err != nil {
			f.Fatal(err)
		}
		walks, tables = append(walks, walk), append(tables, table)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for i := range walks {
			if diff := walktest.Compare(walks[i], tables[i], s); diff != "" {
				t.Fatal(diff)
			}
		}
	})
}

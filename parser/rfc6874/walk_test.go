package rfc6874

import (
	"testing"

	"github.com/peguri/rfc3986/internal/benchcorpus"
	"github.com/peguri/rfc3986/internal/walktest"
	"github.com/peguri/rfc3986/parser/rfc6874/internal/rfc6874gen"
)

// TestWalk: URI-reference's generated walk (gen dfa -walk) decides and
// marks as the table walk does, zone identifiers (RFC 6874 §2) included.
func TestWalk(t *testing.T) {
	walk, table, err := walktest.Machines(rfc6874gen.DFA()["URI-reference"])
	if err != nil {
		t.Fatal(err)
	}
	seeds := []string{
		"http://[fe80::a%25en1]:80/p?q#f", "//[fe80::1%25%65th0]", "http://[fe80::1%2]/",
		"http://u@[::1%25x.y~z]", "[fe80::1%25eth0]",
	}
	lines, _, err := benchcorpus.Read("../../testdata", benchcorpus.Mixed)
	if err != nil {
		t.Fatal(err)
	}
	inputs := append(walktest.Inputs(append(seeds, lines...), 100), walktest.Runs()...)
	for _, s := range inputs {
		if diff := walktest.Compare(walk, table, s); diff != "" {
			t.Fatal(diff)
		}
	}
	t.Logf("%d inputs", len(inputs))
}

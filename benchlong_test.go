package rfc3986_test

import (
	goflag "flag"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986"
	"github.com/peguri/rfc3986/internal/benchcorpus"
)

var update = goflag.Bool("update", false, "rewrite testdata/bench-long.txt from its generator")

// TestBenchLong checks that testdata/bench-long.txt is what its generator
// (internal/benchcorpus.GenerateLong) writes, that every line is a valid
// reference whose recomposition is its text, and that paths and queries are
// 1 to 8 KiB. -update rewrites the file.
func TestBenchLong(t *testing.T) {
	want := benchcorpus.GenerateLong()
	if *update {
		if err := os.WriteFile("testdata/"+benchcorpus.Long, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("testdata/" + benchcorpus.Long)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Fatalf("testdata/%s is not what the generator writes (go test -run TestBenchLong -update .): -want +got\n%.2000s", benchcorpus.Long, diff)
	}
	lines, _, err := benchcorpus.Read("testdata", benchcorpus.Long)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range lines {
		u, err := rfc3986.Parse(l)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if p, q := len(u.Path()), len(u.Query()); p < 1024 || p > 8*1024+64 || q < 1024 || q > 8*1024+256 {
			t.Errorf("line %d: path %d bytes, query %d: want 1 to 8 KiB", i+1, p, q)
		}
		if s := u.Parts().String(); s != l {
			t.Errorf("line %d: recomposition differs", i+1)
		}
	}
}

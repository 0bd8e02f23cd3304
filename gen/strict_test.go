package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/grammar"
	"github.com/peguri/rfc3986/internal/grammarindex"
)

// TestRealGrammarsStrict: every grammar of the project reads as RFC 5234
// writes concatenation (elements separated by white space), without
// -lenient and without a warning: the real grammars of testdata/grammars,
// the embedded grammars, and examples/urn's.
func TestRealGrammarsStrict(t *testing.T) {
	idx, err := grammarindex.Read(grammarsDir)
	if err != nil {
		t.Fatal(err)
	}
	read := func(name string, srcs []abnf.Source, octets bool) {
		t.Helper()
		g, err := abnf.Read(srcs, &abnf.Options{Octets: octets})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			return
		}
		if len(g.Warnings) > 0 {
			t.Errorf("%s: warnings %v", name, g.Warnings)
		}
	}
	for _, e := range idx {
		if e.Reject {
			continue
		}
		b, err := os.ReadFile(e.Path(grammarsDir))
		if err != nil {
			t.Fatal(err)
		}
		read(e.File, []abnf.Source{{Name: e.File, Text: b}}, e.Octets)
	}
	base, _ := grammar.Lookup("rfc3986")
	read("rfc3986", []abnf.Source{base}, false)
	for _, ext := range []string{"rfc6874", "rfc3987"} {
		s, _ := grammar.Lookup(ext)
		read(ext, []abnf.Source{base, s}, false)
	}
	urn := filepath.Join("..", "examples", "urn", "urn.abnf")
	b, err := os.ReadFile(urn)
	if err != nil {
		t.Fatal(err)
	}
	read(urn, []abnf.Source{base, {Name: urn, Text: b}}, false)
}

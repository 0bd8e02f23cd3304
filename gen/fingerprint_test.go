package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/peguri/rfc3986/abnf"
)

// TestFingerprintWritten: gen peg and gen dfa write one fingerprint, the
// grammar's (abnf.Fingerprint), into the PEG and into every table, and
// another grammar gets another: syntax.NewGrammar compares them.
func TestFingerprintWritten(t *testing.T) {
	const text = "pair  = digit \".\" digit\ndigit = %x30-39\n"
	source := regexp.MustCompile(`Source:\s+"([0-9a-f]+)"`)
	fingerprints := func(grammar string) (peg []string, dfa []string) {
		t.Helper()
		path := writeFile(t, "g.abnf", grammar)
		out, errs, code := runGen(t, "", "peg", "-grammar", path, "-package", "g")
		if code != 0 {
			t.Fatalf("gen peg: exit %d\n%s", code, errs)
		}
		for _, m := range source.FindAllStringSubmatch(out, -1) {
			peg = append(peg, m[1])
		}
		dfaFile := filepath.Join(t.TempDir(), "g_dfa.go")
		if _, errs, code := runGen(t, "", "dfa", "-grammar", path, "-package", "g", "-o", dfaFile); code != 0 {
			t.Fatalf("gen dfa: exit %d\n%s", code, errs)
		}
		b, err := os.ReadFile(dfaFile)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range source.FindAllStringSubmatch(string(b), -1) {
			dfa = append(dfa, m[1])
		}
		return peg, dfa
	}
	g, err := abnf.ReadString("g.abnf", text)
	if err != nil {
		t.Fatal(err)
	}
	want := abnf.Fingerprint(g)
	peg, dfa := fingerprints(text)
	if len(peg) != 1 || peg[0] != want {
		t.Errorf("gen peg wrote the fingerprints %q, want [%s]", peg, want)
	}
	if len(dfa) != 2 || dfa[0] != want || dfa[1] != want {
		t.Errorf("gen dfa wrote the fingerprints %q, want [%s %[2]s] (one per table)", dfa, want)
	}
	otherPEG, otherDFA := fingerprints("pair  = digit \",\" digit\ndigit = %x30-39\n")
	if len(otherPEG) != 1 || otherPEG[0] == want || len(otherDFA) != 2 || otherDFA[0] == want {
		t.Errorf("another grammar: gen peg %q, gen dfa %q; want fingerprints other than %s", otherPEG, otherDFA, want)
	}
}

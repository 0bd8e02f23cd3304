package grammar_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/grammar"
)

// appendixA splits the RFC's own Appendix A text (testdata, extracted from
// the RFC with its page break) into rule texts keyed by rule name.
func appendixA(t *testing.T) (map[string]string, []string) {
	b, err := os.ReadFile("../testdata/rfc3986-appendix-a.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	ruleStart := regexp.MustCompile(`^   ([A-Za-z][A-Za-z0-9-]*) +=`)
	texts := map[string]string{}
	var order []string
	var cur string
	var buf []string
	flush := func() {
		if cur != "" {
			texts[cur] = strings.TrimRight(strings.Join(buf, "\n"), "\n ")
		}
	}
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "Appendix "),
			strings.HasPrefix(l, "Berners-Lee"),
			strings.HasPrefix(l, "RFC 3986 "),
			l == "\f":
			continue // heading and page break
		case ruleStart.MatchString(l):
			flush()
			cur = ruleStart.FindStringSubmatch(l)[1]
			order = append(order, cur)
			buf = []string{l}
		case cur != "" && strings.TrimSpace(l) != "":
			buf = append(buf, l)
		}
	}
	flush()
	return texts, order
}

// TestAppendixAVerbatim: every rule of grammar/rfc3986.abnf has exactly the
// text (rules and comments, spacing included) of RFC 3986 Appendix A, in the
// same order, and no rule is missing.
func TestAppendixAVerbatim(t *testing.T) {
	want, order := appendixA(t)
	if len(order) != 36 {
		t.Fatalf("extracted %d rules from the RFC text, want 36", len(order))
	}
	g, err := abnf.Read([]abnf.Source{{Name: grammar.RFC3986Name, Text: grammar.RFC3986()}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var gotOrder []string
	for _, r := range g.Rules {
		if r.Core {
			continue
		}
		gotOrder = append(gotOrder, r.Name)
		if len(r.Defs) != 1 {
			t.Errorf("%s has %d definitions", r.Name, len(r.Defs))
		}
		if diff := cmp.Diff(want[r.Name], r.Defs[0].Text); diff != "" {
			t.Errorf("%s differs from Appendix A (-RFC +file):\n%s", r.Name, diff)
		}
	}
	if diff := cmp.Diff(order, gotOrder); diff != "" {
		t.Errorf("rule order (-RFC +file):\n%s", diff)
	}
}

// TestCoreRules: the core rules the grammar uses are RFC 5234 B.1's.
func TestCoreRules(t *testing.T) {
	g, err := abnf.Read([]abnf.Source{{Name: grammar.RFC3986Name, Text: grammar.RFC3986()}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"ALPHA":  "%x41-5A / %x61-7A",
		"DIGIT":  "%x30-39",
		"HEXDIG": `DIGIT / "A" / "B" / "C" / "D" / "E" / "F"`,
	}
	for name, text := range want {
		r := g.Rule(name)
		if r == nil || !r.Core || abnf.String(r.Expr) != text {
			t.Errorf("core %s = %v, want %s", name, r, text)
		}
	}
}

// TestSources: -grammar values are embedded grammars by name, files by
// path; a name is never a path.
func TestSources(t *testing.T) {
	dir := t.TempDir()
	file := dir + "/rfc3986"
	if err := os.WriteFile(file, []byte("x = \"x\"\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		in    []string
		names []string // the sources' names; nil for an error
	}{
		{[]string{"rfc3986"}, []string{grammar.RFC3986Name}},
		{[]string{"rfc3986", "rfc6874"}, []string{grammar.RFC3986Name, grammar.RFC6874Name}},
		{[]string{"rfc3986", "rfc3987"}, []string{grammar.RFC3986Name, grammar.RFC3987Name}},
		{[]string{file}, []string{file}},               // a file named like a grammar, by its path
		{[]string{"RFC3986"}, nil},                     // names are exact: this is a file, and there is none
		{[]string{"rfc3986", dir + "/none.abnf"}, nil}, // a missing file
	} {
		srcs, err := grammar.Sources(tt.in)
		var names []string
		for _, s := range srcs {
			names = append(names, s.Name)
		}
		if (err == nil) != (tt.names != nil) {
			t.Errorf("Sources(%q): error %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.names, names); diff != "" {
			t.Errorf("Sources(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
	// The texts are copies: changing one changes nothing else.
	b := grammar.RFC3986()
	b[0] = 'X'
	if s, _ := grammar.Lookup("rfc3986"); s.Text[0] == 'X' || grammar.RFC3986()[0] == 'X' {
		t.Error("the embedded grammar changed with a copy")
	}
}

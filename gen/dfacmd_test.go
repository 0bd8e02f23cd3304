package main

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDFARefusals: gen dfa exits 1 with a message naming the rule when
// there is nothing regular to build, when a start rule reaches
// self-embedding recursion, and when a limit is exceeded; the limits'
// flags raise them; limits must be positive.
func TestDFARefusals(t *testing.T) {
	nested := writeFile(t, "nested.abnf", "c = \"(\" *c \")\"\nd = \"[\" d \"]\" / \"x\"\n")
	mixed := writeFile(t, "mixed.abnf", "s = \"<\" c \">\"\nc = \"(\" *d \")\"\nd = c / \"a\"\nx = \"y\" x / \"z\"\n")
	hostile := writeFile(t, "hostile.abnf", "s = *(\"a\" / \"b\") \"a\" 15(\"a\" / \"b\")\n")
	empty := writeFile(t, "empty.abnf", "; no rules\n")
	for _, tc := range []struct {
		args []string
		code int
		want string // in stderr, or in stdout if code is 0
	}{
		{[]string{"dfa", "-report", "-grammar", nested}, 1, "gen dfa: nothing regular to build: every rule reaches self-embedding recursion (as in rules c)"},
		{[]string{"dfa", "-report", "-grammar", mixed, "-start", "s"}, 1, "gen dfa: " + mixed + ":1:1: s: reaches self-embedding recursion (rules c, d), so its language need not be regular"},
		{[]string{"dfa", "-report", "-grammar", mixed}, 0, "x: regular recursion compiled as jumps: x\n"},
		{[]string{"dfa", "-report", "-grammar", hostile}, 1, "gen dfa: " + hostile + ":1:1: s: subset construction exceeds 65535 DFA states (-max-dfa raises the limit)"},
		{[]string{"dfa", "-report", "-grammar", hostile, "-max-dfa", "70000"}, 0, "s                        36        65536        65536        4\n"},
		{[]string{"dfa", "-o", filepath.Join(t.TempDir(), "x.go"), "-grammar", hostile, "-max-dfa", "70000"}, 1, "gen dfa: s: its minimal DFA has 65536 states, and the 16-bit tables number at most 65535 besides the dead state"},
		{[]string{"dfa", "-report", "-grammar", hostile, "-max-work", "1000"}, 1, "subset construction visits more than 1000 NFA states (-max-work raises the limit)"},
		{[]string{"dfa", "-report", "-grammar", hostile, "-max-nfa", "10"}, 1, "s: with its repetitions written out it has 84 nodes, more than the limit of 10 (-max-nfa raises it)"},
		{[]string{"dfa", "-report", "-max-nfa", "0"}, 2, "gen dfa: dfa limits must be positive"},
		{[]string{"dfa", "-report", "-grammar", empty}, 1, empty + ":1:1: no rules: the grammar is empty or holds only comments"},
	} {
		out, errs, code := runGen(t, "", tc.args...)
		where := errs
		if tc.code == 0 {
			where = out
		}
		if code != tc.code || !strings.Contains(where, tc.want) {
			t.Errorf("gen %s: exit %d, want %d\nstdout %s\nstderr %s\nwant %q", strings.Join(tc.args, " "), code, tc.code, out, errs, tc.want)
		}
	}
}

// TestDFAOctets: with -octets, RFC 3629's UTF8-octets is valid UTF-8 (a
// minimal DFA of 8 states over bytes); without it, %xC2 is the code point
// U+00C2, and the automaton is another.
func TestDFAOctets(t *testing.T) {
	f := filepath.Join("..", "testdata", "grammars", "rfc3629.abnf")
	if _, err := os.Stat(f); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runGen(t, "", "dfa", "-report", "-octets", "-grammar", f, "-start", "UTF8-octets")
	if code != 0 || !strings.Contains(out, "UTF8-octets              12            8            8       12\n") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
	out, _, _ = runGen(t, "", "dfa", "-report", "-grammar", f, "-start", "UTF8-octets")
	if strings.Contains(out, "UTF8-octets              12            8            8       12\n") {
		t.Errorf("code-point mode gives the octet automaton:\n%s", out)
	}
}

// TestDFALeftRecursion: a left-recursive rule whose language is regular is
// compiled with diagnostics on (the default): the diagnoser cannot follow
// its derivations, which nest without end at the rule's first offset, so
// the rule gets none, and its tables are written all the same.
func TestDFALeftRecursion(t *testing.T) {
	f := writeFile(t, "left.abnf", "l = l \"a\" / \"b\"\nlist = list \",\" item / item\nitem = 1*ALPHA\nml = mb \"x\" / \"y\"\nmb = ml \"z\" / \"w\"\n")
	o := filepath.Join(t.TempDir(), "left_dfa.go")
	_, errs, code := runGen(t, "", "dfa", "-grammar", f, "-start", "l,list,ml", "-package", "left", "-o", o)
	if code != 0 {
		t.Fatalf("gen dfa on left recursion: exit %d %s", code, errs)
	}
	text, err := os.ReadFile(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, rule := range []string{`"l": {`, `"list": {`, `"ml": {`} {
		if !strings.Contains(string(text), rule) {
			t.Errorf("%s has no table for %s", o, rule)
		}
	}
}

// TestDFADiagnoseBudget: past -max-diagnose, the rules left with
// approximate or no diagnostics are named on standard error (they were
// not: RFC 3987's rules, all compiled, lost theirs without a word), and
// the tables are written all the same; with the default, none is.
func TestDFADiagnoseBudget(t *testing.T) {
	f := writeFile(t, "d.abnf", "a = \"x\" b\nb = 1*( \"y\" / \"z\" ) [ c ]\nc = \"w\" 2DIGIT\n")
	o := filepath.Join(t.TempDir(), "d_dfa.go")
	_, errs, code := runGen(t, "", "dfa", "-grammar", f, "-package", "d", "-max-diagnose", "1", "-o", o)
	want := "gen dfa: the diagnostics' budget (-max-diagnose 1) is spent: approximate or no diagnostics for a, b, c, DIGIT; raise -max-diagnose for errors that name rules\n"
	if code != 0 || errs != want {
		t.Errorf("-max-diagnose 1: exit %d, stderr %q; want 0 and %q", code, errs, want)
	}
	if _, err := os.Stat(o); err != nil {
		t.Error(err)
	}
	if _, errs, code = runGen(t, "", "dfa", "-grammar", f, "-package", "d", "-o", o); code != 0 || errs != "" {
		t.Errorf("default budget: exit %d, stderr %q", code, errs)
	}
	if _, errs, code = runGen(t, "", "dfa", "-grammar", f, "-report", "-max-diagnose", "0"); code != 2 {
		t.Errorf("-max-diagnose 0: exit %d, %s; want a usage error (2)", code, errs)
	}
}

// TestPackageFlag: -package must name a Go package (pigeon, or the Go
// compiler, would otherwise fail on what gen wrote, far from the flag);
// -capture and -nocapture are alternatives.
func TestPackageFlag(t *testing.T) {
	f := writeFile(t, "p.abnf", "a = \"x\"\n")
	for _, args := range [][]string{
		{"peg", "-grammar", f, "-package", "my-pkg"},
		{"peg", "-grammar", f, "-package", "type"},
		{"dfa", "-grammar", f, "-report", "-package", "func"},
		{"dfa", "-grammar", f, "-report", "-package", "_"},
		{"peg", "-grammar", f, "-capture", "a", "-nocapture", "a"},
	} {
		if _, errs, code := runGen(t, "", args...); code != 2 || !strings.Contains(errs, "-package") && !strings.Contains(errs, "alternatives") {
			t.Errorf("gen %q: exit %d, %s; want a usage error (2)", args, code, errs)
		}
	}
	if _, errs, code := runGen(t, "", "dfa", "-grammar", f, "-report", "-package", "mine"); code != 0 {
		t.Errorf("gen dfa -package mine: exit %d, %s", code, errs)
	}
}

// TestWalkNames: the walks' functions and tables name nothing twice, even
// for rules whose names are those of another walk's tables, and -walk
// finds rules whatever their case, as ABNF does (RFC 5234 §2.1).
func TestWalkNames(t *testing.T) {
	g := writeFile(t, "names.abnf", "a = \"x:\" 1*b\naClass = \"y:\" 1*b\naSet0 = \"z:\" 1*b\nb = ALPHA / DIGIT\n")
	out := filepath.Join(t.TempDir(), "w_dfa.go")
	if _, errs, code := runGen(t, "", "dfa", "-grammar", g, "-start", "a,aClass,aSet0", "-walk", "A,aclass,aSet0", "-package", "w", "-o", out); code != 0 {
		t.Fatalf("gen dfa -walk: exit %d: %s", code, errs)
	}
	f, err := parser.ParseFile(token.NewFileSet(), out, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	walks := 0
	for _, d := range f.Decls {
		var names []string
		switch d := d.(type) {
		case *ast.FuncDecl:
			names = append(names, d.Name.Name)
			if strings.HasPrefix(d.Name.Name, "walk") {
				walks++
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if v, ok := s.(*ast.ValueSpec); ok {
					for _, n := range v.Names {
						names = append(names, n.Name)
					}
				}
			}
		}
		for _, n := range names {
			if seen[n] {
				t.Errorf("%s declared twice", n)
			}
			seen[n] = true
		}
	}
	if walks != 3 {
		t.Errorf("%d walks, want 3", walks)
	}
	if _, errs, code := runGen(t, "", "dfa", "-grammar", g, "-walk", "a,A", "-o", out); code != 2 || !strings.Contains(errs, "-walk A: given twice") {
		t.Errorf("-walk a,A: exit %d: %s", code, errs)
	}
}

// TestWalkTypeChecks: what gen dfa -walk writes type-checks, for a rule
// whose every state runs or stops (path-empty: no transition to switch
// on) as for URI-reference.
func TestWalkTypeChecks(t *testing.T) {
	out := filepath.Join(t.TempDir(), "w_dfa.go")
	if _, errs, code := runGen(t, "", "dfa", "-start", "path-empty,URI-reference", "-walk", "path-empty,URI-reference", "-package", "w", "-o", out); code != 0 {
		t.Fatalf("gen dfa -walk: exit %d: %s", code, errs)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, out, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	if _, err := conf.Check("w", fset, []*ast.File{f}, nil); err != nil {
		t.Error(err)
	}
}

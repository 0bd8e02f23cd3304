package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/peg"
)

// treeMain compares, in a program built from a grammar, the trees of
// syntax.Grammar.Tree (the functions gen dfa -tree generates) with
// pigeon's (Grammar.Parse) on samples of every rule and near-misses, and
// prints per rule how many trees the generated function built; a valid
// input the generated function did not parse is MISSED.
const treeMain = `package main

import (
	"fmt"
	"os"
	"reflect"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/syntax"
)

func main() {
	src, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	ag, err := abnf.Read([]abnf.Source{{Name: os.Args[1], Text: src}}, &abnf.Options{Octets: len(os.Args) > 2 && os.Args[2] == "-octets"})
	if err != nil {
		panic(err)
	}
	g, err := syntax.NewGrammar("g", PEG(), DFA())
	if err != nil {
		panic(err)
	}
	s := abnf.NewSampler(ag, 1)
	for _, rule := range g.Rules() {
		fast, n := 0, 0
		for i := range 300 {
			b, err := s.Sample(rule)
			if err != nil {
				break
			}
			if i%3 == 2 && len(b) > 0 {
				b[i%len(b)] ^= byte(i)
			}
			n++
			t1, f1 := g.Tree(rule, b, 1<<20)
			t2, f2 := g.Parse(rule, b, 1<<20)
			if !reflect.DeepEqual(t1, t2) || !reflect.DeepEqual(f1, f2) {
				fmt.Printf("MISMATCH %s %q\n", rule, b)
			}
			if g.GeneratedTree(rule, string(b), 1<<20) != nil {
				fast++
			} else if ok, _ := g.DFA(rule).Machine().Run(string(b)); ok && g.HasTree(rule) {
				// The PEG is exact: what the DFA accepts, the tree
				// function parses.
				fmt.Printf("MISSED %s %q\n", rule, b)
			}
		}
		fmt.Printf("%s %v %d/%d\n", rule, g.HasTree(rule), fast, n)
	}
}
`

func TestTreeGrammars(t *testing.T) {
	if testing.Short() {
		t.Skip("builds parsers with pigeon")
	}
	leftrec := writeFile(t, "list.abnf", "list = list \",\" item / item\nitem = 1*ALPHA\nexpr = expr \"-\" term / term\nterm = term \"*\" DIGIT / DIGIT\n")
	rightrec := writeFile(t, "rlist.abnf", "rlist = item [ \",\" rlist ]\nitem = 1*ALPHA\n")
	// RFC 3501's sequence-set: self-embedding in form, regular in
	// language (ir's TailLoop), so it has a DFA, which decides; its PEG
	// asks the guide which turn of the loop ends where (the rule is
	// ambiguous: 1,1,1 splits two ways), so pigeon builds its trees.
	seqset := writeFile(t, "seqset.abnf", "sequence-set = (seq-number / seq-range) *(\",\" sequence-set)\nseq-range = seq-number \":\" seq-number\nseq-number = nz-number / \"*\"\nnz-number = %x31-39 *DIGIT\n")
	for _, tt := range []struct {
		file string
		fast []string // rules whose trees must come from generated functions
		slow []string // rules whose trees must be pigeon's
		args []string // more flags of gen dfa
	}{
		{"../testdata/grammars/rfc3339.abnf", []string{"date-time", "full-date", "time-numoffset"}, nil, nil},
		{"../testdata/grammars/rfc5646.abnf", []string{"Language-Tag", "langtag"}, nil, nil},
		// Exact continuation guards (local-number's *par before the
		// phone-context par): the generated functions ask the same
		// syntax.Lookahead as pigeon's parser.
		{"../testdata/grammars/rfc3966.abnf", []string{"telephone-uri", "local-number"}, nil, nil},
		// Left recursion is regular here, and has DFAs, but its trees are
		// folded by actions: pigeon builds them.
		{leftrec, nil, []string{"list", "expr"}, []string{"-diagnostics=false"}},
		{rightrec, []string{"rlist"}, nil, []string{"-diagnostics=false"}},
		{seqset, nil, []string{"sequence-set"}, nil},
		// Octets: each byte a character, for pigeon (which reads UTF-8)
		// mapped to the code point of its value. STRUCTURED-DATA consults the
		// exact recognizer: pigeon builds its trees.
		{"../testdata/grammars/rfc5424.abnf", []string{"SD-ELEMENT", "PARAM-VALUE", "UTF-8-STRING", "TIMESTAMP"}, []string{"STRUCTURED-DATA"}, []string{"-octets"}},
	} {
		t.Run(filepath.Base(tt.file), func(t *testing.T) {
			out := runTree(t, tt.file, tt.args...)
			got := map[string]string{}
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				if strings.HasPrefix(line, "MISMATCH") || strings.HasPrefix(line, "MISSED") {
					t.Error(line)
					continue
				}
				rule, rest, _ := strings.Cut(line, " ")
				got[rule] = rest
			}
			for _, r := range tt.fast {
				if !strings.HasPrefix(got[r], "true ") || strings.HasPrefix(got[r], "true 0/") {
					t.Errorf("%s: %q, want trees from the generated function", r, got[r])
				}
			}
			for _, r := range tt.slow {
				if !strings.HasPrefix(got[r], "false ") {
					t.Errorf("%s: %q, want pigeon's trees", r, got[r])
				}
			}
			t.Logf("\n%s", out)
		})
	}
}

// runTree generates a grammar's parser as generate.go does (gen peg,
// pigeon, gen dfa -tree) in a temporary module and runs treeMain on it.
func runTree(t *testing.T, file string, dfaArgs ...string) string {
	t.Helper()
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{abs}
	if slices.Contains(dfaArgs, "-octets") {
		args = append(args, "-octets")
	}
	return runTreeMain(t, file, treeMain, args, dfaArgs...)
}

// runTreeMain builds the parser of a grammar file as runTree does, with
// main as its main package, and runs it with args.
func runTreeMain(t *testing.T, file, main string, args []string, dfaArgs ...string) string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	octets := slices.Contains(dfaArgs, "-octets")
	g, err := abnf.Read([]abnf.Source{{Name: file, Text: src}}, &abnf.Options{Octets: octets})
	if err != nil {
		t.Fatal(err)
	}
	res, err := peg.Translate(g, peg.Options{Package: "main", Witnesses: -1})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mod, err := harnessModule()
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	run := harnessFiles(t, dir, map[string]string{"go.mod": mod, "grammar.peg": string(res.PEG), "main.go": main})
	run("go", "get", pigeonPkg+"@"+pigeonVersion)
	run("go", "run", pigeonPkg, "-optimize-parser", "-o", "parser.go", "grammar.peg")
	genArgs := append([]string{"dfa", "-grammar", abs, "-package", "main", "-tree", filepath.Join(dir, "parser.go"), "-o", filepath.Join(dir, "dfa.go")}, dfaArgs...)
	if out, errs, code := runGen(t, "", genArgs...); code != 0 {
		t.Fatalf("gen dfa: exit %d\n%s%s", code, out, errs)
	}
	run("go", "mod", "tidy")
	run("go", "vet", ".")
	run("go", "build", "-o", "prog", ".")
	return run(filepath.Join(dir, "prog"), args...)
}

// TestTreeFlagErrors: -tree with a file that is missing, or that is not a
// parser pigeon generated, is an error naming it; nothing is written.
func TestTreeFlagErrors(t *testing.T) {
	notPigeon := writeFile(t, "x.go", "package x\n\nvar g = 1\n")
	notGo := writeFile(t, "y.go", "this is not Go\n")
	for _, tt := range []struct {
		name, file, want string
	}{
		{"missing", filepath.Join(t.TempDir(), "none.go"), "none.go"},
		{"not pigeon's", notPigeon, "-tree " + notPigeon + ": pigeon's output: no grammar value g"},
		{"not Go", notGo, "-tree " + notGo + ": pigeon's output: 1:1: expected 'package'"},
		// examples/urn's gen peg -start leaves ldh out: a DFA for it would
		// be refused by syntax.NewGrammar at run time.
		{"a rule pigeon has no entrypoint for", "../examples/urn/internal/urngen/urn_peg.go", "ldh: compiled to a DFA, but not a start rule of the PEG"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := filepath.Join(t.TempDir(), "dfa.go")
			args := []string{"dfa", "-grammar", "rfc3986", "-start", "scheme", "-tree", tt.file, "-o", o}
			if strings.Contains(tt.file, "urn") {
				args = []string{"dfa", "-grammar", "rfc3986", "-grammar", "../examples/urn/urn.abnf", "-start", "NID,ldh", "-tree", tt.file, "-o", o}
			}
			_, errs, code := runGen(t, "", args...)
			if code == 0 || !strings.Contains(errs, tt.want) {
				t.Errorf("exit %d, stderr %q; want an error with %q", code, errs, tt.want)
			}
			if _, err := os.Stat(o); err == nil {
				t.Errorf("%s written", o)
			}
		})
	}
}

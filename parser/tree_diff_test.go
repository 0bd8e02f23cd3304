package parser_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc3987"
	"github.com/peguri/rfc3986/parser/rfc6874"
)

// The trees gen dfa -tree's functions build (ParseRule) must be pigeon's
// (ParsePEG), byte for byte, on every input and every rule of every
// grammar: the conformance suite's strings, the bench corpus, samples of
// every rule, and FuzzTree's inputs.

// treeGrammars are the grammars whose trees are compared.
var treeGrammars = []struct {
	name string
	p    func() *parser.Parser
	// fast lists rules that must have a generated tree function.
	fast []string
}{
	{"rfc3986", parser.RFC3986, []string{"URI-reference", "URI", "relative-ref", "absolute-URI", "authority", "host", "IPv6address", "path", "segment", "query"}},
	{"rfc6874", rfc6874.Parser, []string{"URI-reference", "URI", "relative-ref", "absolute-URI"}},
	{"rfc3987", rfc3987.Parser, []string{"IRI-reference", "IRI", "URI-reference", "ireg-name", "iquery"}},
}

// treeInputs are the strings of the conformance suite and the bench
// corpus, samples of every rule of Appendix A, and a few IRIs and invalid
// encodings.
func treeInputs(t testing.TB) []string {
	t.Helper()
	var out []string
	b, err := os.ReadFile("../conformance/rfc3986-suite.json")
	if err != nil {
		t.Fatal(err)
	}
	var suite any
	if err := json.Unmarshal(b, &suite); err != nil {
		t.Fatal(err)
	}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(suite)
	f, err := os.Open("../testdata/bench-corpus.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	g, err := appendixA()
	if err != nil {
		t.Fatal(err)
	}
	s := abnf.NewSampler(g, 7)
	for i := range 20 * len(g.Rules) {
		if b, err := s.Sample(g.Rules[i%len(g.Rules)].Name); err == nil {
			out = append(out, string(b))
		}
	}
	out = append(out, "http://例え.jp/ü?ö=1#ä", "//[fe80::1%25eth0]/", "http://[v1.x]/", "\xff", "a\xffb", "%C3%A9", "")
	slices.Sort(out)
	return slices.Compact(out)
}

// corpusInputs are the strings of the external corpora
// (testdata/conformance/*.jsonl): references other parsers' test suites
// hold.
func corpusInputs(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("../testdata/conformance/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpora: %v", err)
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(b, []byte("\n")) {
			var rec map[string]any
			if json.Unmarshal(line, &rec) != nil {
				continue
			}
			for _, v := range rec {
				if s, ok := v.(string); ok {
					out = append(out, s)
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// compareTree reports how the generated function's tree (or error)
// differs from pigeon's; fast says whether the generated function built it.
func compareTree(t *testing.T, p *parser.Parser, rule, in string) (fast bool) {
	t.Helper()
	got, gerr := p.ParseRule(rule, in)
	if len(in) > parser.MaxTreeLength {
		return false
	}
	if gerr != nil && !full() {
		// The DFA rejected it, no tree function ran: that the DFA and
		// pigeon agree is TestDifferential's (RFC3986_FULL checks here).
		return false
	}
	want, werr := p.ParsePEG(rule, in)
	if (gerr == nil) != (werr == nil) {
		t.Fatalf("%s %s %q: ParseRule error %v, ParsePEG error %v", p.Name(), rule, in, gerr, werr)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("%s %s %q: ParseRule's tree differs from pigeon's (-pigeon +generated):\n%s", p.Name(), rule, in, d)
	}
	if gerr != nil || !parser.HasTree(p, rule) {
		return false
	}
	if n := parser.GeneratedTree(p, rule, in); n == nil {
		t.Fatalf("%s %s %q: the generated function built no tree", p.Name(), rule, in)
	}
	return true
}

func TestTreeDifferential(t *testing.T) {
	inputs := shortInputs(treeInputs(t))
	for _, tt := range treeGrammars {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := tt.p()
			for _, r := range tt.fast {
				if !parser.HasTree(p, r) {
					t.Errorf("%s: no generated tree function", r)
				}
			}
			fast := 0
			for _, rule := range p.Rules() {
				for _, in := range inputs {
					if compareTree(t, p, rule, in) {
						fast++
					}
				}
			}
			// The external corpora, as the default rule.
			corpus := shortInputs(corpusInputs(t))
			for _, in := range corpus {
				if compareTree(t, p, p.DefaultRule(), in) {
					fast++
				}
			}
			if fast == 0 {
				t.Fatal("no tree came from a generated function")
			}
			t.Logf("%d inputs × %d rules, %d trees from generated functions", len(inputs), len(p.Rules()), fast)
		})
	}
}

func full() bool { return os.Getenv("RFC3986_FULL") != "" }

// shortInputs is every eighth of inputs with -short, all of them
// otherwise: .ci/run's race step runs -short, and under the race detector
// pigeon's trees of every input for every rule took 221 of the package's
// 299 seconds.
func shortInputs(inputs []string) []string {
	if !testing.Short() {
		return inputs
	}
	var some []string
	for i := 0; i < len(inputs); i += 8 {
		some = append(some, inputs[i])
	}
	return some
}

// FuzzTree compares the generated trees with pigeon's on arbitrary bytes,
// for a grammar and a rule chosen by the first byte.
func FuzzTree(f *testing.F) {
	for i, in := range shortInputs(append(treeInputs(f), corpusInputs(f)...)) {
		f.Add(byte(i), in)
	}
	f.Fuzz(func(t *testing.T, sel byte, in string) {
		g := treeGrammars[int(sel)%len(treeGrammars)]
		p := g.p()
		rules := p.Rules()
		rule := p.DefaultRule()
		if sel/3%2 == 1 {
			rule = rules[int(sel/6)%len(rules)]
		}
		compareTree(t, p, rule, in)
	})
}

// TestTreeAllocs: a tree from a generated function costs two allocations,
// its nodes and their kids, whatever its size (pigeon's cost hundreds).
func TestTreeAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops scratch space at random")
	}
	b, err := os.ReadFile("../testdata/bench-corpus.txt")
	if err != nil {
		t.Fatal(err)
	}
	p := parser.RFC3986()
	for _, in := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if _, err := p.ParseRule("URI-reference", in); err != nil || parser.GeneratedTree(p, "URI-reference", in) == nil {
			t.Fatalf("%q: %v, or no generated tree", in, err)
		}
		if a := testing.AllocsPerRun(20, func() { p.ParseRule("URI-reference", in) }); a != 2 {
			t.Errorf("%q: %v allocations, want 2", in, a)
		}
	}
}

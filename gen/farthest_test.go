package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/peg"
	"github.com/peguri/rfc3986/internal/grammarindex"
)

// errposABNF is the reviewer's grammar: r gives back ("ab" after a
// repetition of "a" / "b"), and q nests, so that r's decision is left to
// the exact recognizer.
const errposABNF = "s = r \",\" q\nr = 1*( \"a\" / \"b\" ) \"ab\"\nq = \"(\" r \")\" / \"[\" q \"]\"\n"

// farthestMain reads a JSON list of (start rule, input) pairs from the
// file its argument names and prints, for each, the error of Validate, ParseRule
// and ParsePEG of package parser (built with no DFA, as a recursive
// grammar is), separated by tabs: its offset, its message if it has one,
// and its expected set; "ok" for none.
const farthestMain = `package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	rfcparser "github.com/peguri/rfc3986/parser"
)

func show(err error) string {
	var pe *rfcparser.Error
	switch {
	case err == nil:
		return "ok"
	case errors.As(err, &pe):
		b, _ := json.Marshal(pe.Expected)
		if pe.Msg != "" {
			return fmt.Sprintf("%d msg %q %s", pe.Offset, pe.Msg, b)
		}
		return fmt.Sprintf("%d %s", pe.Offset, b)
	}
	return err.Error()
}

func main() {
	p := rfcparser.MustParser(rfcparser.NewParser("g", PEG(), nil))
	b, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var ins [][2][]byte // rule, input: bytes, so that JSON keeps those that are not UTF-8
	if err := json.Unmarshal(b, &ins); err != nil {
		panic(err)
	}
	for _, x := range ins {
		rule, in := string(x[0]), string(x[1])
		_, perr := p.ParseRule(rule, in)
		_, gerr := p.ParsePEG(rule, in)
		fmt.Printf("%s\t%s\t%s\n", show(p.Validate(rule, in)), show(perr), show(gerr))
	}
}
`

// runFarthest translates src (start rule start), builds the parser, and
// returns the errors of each input as farthestMain prints them.
func runFarthest(t *testing.T, src, start string, inputs []string) []string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a parser with pigeon")
	}
	g, err := abnf.ReadString("g.abnf", src)
	if err != nil {
		t.Fatal(err)
	}
	return runFarthestGrammar(t, g, start, inputs)
}

func runFarthestGrammar(t *testing.T, g *abnf.Grammar, start string, inputs []string) []string {
	t.Helper()
	var pairs [][2]string
	for _, in := range inputs {
		pairs = append(pairs, [2]string{start, in})
	}
	return runFarthestPairs(t, g, []string{start}, pairs)
}

// runFarthestPairs translates g for the start rules, builds the parser,
// and returns the errors of each (rule, input) pair.
func runFarthestPairs(t *testing.T, g *abnf.Grammar, starts []string, pairs [][2]string) []string {
	t.Helper()
	res, err := peg.Translate(g, peg.Options{Start: starts, Package: "main", Witnesses: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.PEG), "Enter(") && !strings.Contains(string(res.PEG), "Match(") {
		t.Fatalf("%v: no exact guard and no decision left to the recognizer: the test needs another grammar", starts)
	}
	return runFarthestPEG(t, res.PEG, pairs)
}

// runFarthestPEG builds the parser of a PEG that gen peg wrote and
// returns the errors of each (rule, input) pair.
func runFarthestPEG(t *testing.T, pegText []byte, pairs [][2]string) []string {
	t.Helper()
	// As bytes: a JSON string would carry each byte that is not UTF-8 as
	// U+FFFD, a different input (an octet grammar's, RFC 5424's, were).
	raw := make([][2][]byte, len(pairs))
	for i, p := range pairs {
		raw[i] = [2][]byte{[]byte(p[0]), []byte(p[1])}
	}
	b, err := json.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "inputs.json")
	if err := os.WriteFile(file, b, 0o666); err != nil {
		t.Fatal(err)
	}
	out := strings.Split(strings.TrimSuffix(runPigeon(t, pegText, farthestMain, file), "\n"), "\n")
	if len(out) != len(pairs) {
		t.Fatalf("%d lines for %d inputs:\n%s", len(out), len(pairs), strings.Join(out, "\n"))
	}
	return out
}

// TestGuidedErrorOffsets: where a grammar leaves decisions to the exact
// recognizer, the error of Validate, ParseRule and ParsePEG (no DFA) is
// where the input stops being a prefix of a string of the language, with
// what could come there, as abnf.Diagnoser finds it; not where the
// guided parse first saw the input could not complete, nor where the PEG
// with its guided decisions open, greedy where the grammar gives back,
// failed ("unexpected \",\" at offset 3" for each of these once).
func TestGuidedErrorOffsets(t *testing.T) {
	big := "aab," + strings.Repeat("[", 20000) + "(aab)" + strings.Repeat("]", 19999)
	tests := []struct {
		in, want string
	}{
		{"aab,[(aab)", `10 ["\"]\""]`},
		{"aab,[(aab)]x", `11 ["end of input"]`},
		{"aab,[(aba)]", `9 ["[ABab]"]`},
		{"aab,[(aab)],", `11 ["end of input"]`},
		{"aab,[(aab)]", "ok"},
		{"aab,(abab)", "ok"},
		{",", `0 ["[ABab]"]`},
		{"aab", `3 ["[,ABab]"]`},
		{"aab,(", `5 ["[ABab]"]`},
		{"aab,(aab))", `9 ["end of input"]`},
		{"ab,(aab)", `2 ["[ABab]"]`},
		{big, fmt.Sprintf(`%d ["\"]\""]`, len(big))},
	}
	var inputs []string
	for _, tt := range tests {
		inputs = append(inputs, tt.in)
	}
	out := runFarthest(t, errposABNF, "s", inputs)
	for i, tt := range tests {
		want := tt.want + "\t" + tt.want + "\t" + tt.want
		if out[i] != want {
			t.Errorf("%.40q: %s, want %s", tt.in, out[i], want)
		}
	}
	// And abnf's Diagnoser agrees on every offset.
	g, err := abnf.ReadString("g.abnf", errposABNF)
	if err != nil {
		t.Fatal(err)
	}
	d := abnf.NewDiagnoser(g)
	for i, tt := range tests {
		dg, err := d.Diagnose("s", tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if dg.Match != (tt.want == "ok") || !dg.Match && !strings.HasPrefix(out[i], fmt.Sprint(dg.Offset)+" ") {
			t.Errorf("%.40q: the Diagnoser says offset %d (match %v), the parser %s", tt.in, dg.Offset, dg.Match, out[i])
		}
	}
}

// TestGuardedErrorOffsets: where the PEG has exact guards and leaves no
// decision to the recognizer, a failing guard is no failure of pigeon's:
// its farthest failure was short of the error ("((x));aba" at offset 2,
// "aba" and "abc" at 0 with nothing expected). gen writes the network for
// the errors, and the error is where the input stops being viable.
func TestGuardedErrorOffsets(t *testing.T) {
	tests := []struct {
		src  string
		in   []string
		want []string
	}{
		{"s = q \";\" r\nr = 1*( \"a\" / \"b\" ) \"ab\"\nq = \"(\" q \")\" / \"x\"\n",
			[]string{"((x));aba", "((x));abab", "x;ab", "((x)", "(x));ab"},
			[]string{`9 ["[ABab]"]`, "ok", `4 ["[ABab]"]`, `4 ["\")\""]`, `3 ["\";\""]`}},
		{"s = 1*( \"a\" / \"b\" ) \"ab\"\n",
			[]string{"aba", "abc", "abab", "", "x", "ab\xffab"},
			[]string{`3 ["[ABab]"]`, `2 ["[ABab]"]`, "ok", `0 ["[ABab]"]`, `0 ["[ABab]"]`, `2 msg "invalid UTF-8" ["[ABab]"]`}},
	}
	for _, tt := range tests {
		g, err := abnf.ReadString("g.abnf", tt.src)
		if err != nil {
			t.Fatal(err)
		}
		out := runFarthestGrammar(t, g, "s", tt.in)
		d := abnf.NewDiagnoser(g)
		for i, in := range tt.in {
			want := tt.want[i] + "\t" + tt.want[i] + "\t" + tt.want[i]
			if out[i] != want {
				t.Errorf("%q: %s, want %s", in, out[i], want)
			}
			dg, err := d.Diagnose("s", in)
			if err != nil {
				t.Fatal(err)
			}
			if dg.Match != (tt.want[i] == "ok") || !dg.Match && !strings.HasPrefix(out[i], fmt.Sprint(dg.Offset)+" ") {
				t.Errorf("%q: the Diagnoser says offset %d (match %v), the parser %s", in, dg.Offset, dg.Match, out[i])
			}
		}
	}
}

// TestInvalidUTF8Expected: a byte that is not UTF-8 where the input stops
// being viable is the error's reason, and the error says what could have
// come there, as every error does, at offset 0 too (before 2026-12-08,
// pigeon's reason alone: it reads a character ahead and reports no
// expected set with it). In each kind of recursive grammar: pigeon alone,
// with decisions left to the exact recognizer, with exact guards. Where
// the prefix before the byte stops being viable first, that is the error.
func TestInvalidUTF8Expected(t *testing.T) {
	const invalid = `msg "invalid UTF-8" `
	for _, tt := range []struct {
		name, src string
		in        []string
		want      []string
	}{
		{"pigeon alone", "l = \"(\" l \")\" / \"x\" / \"ab\"\n",
			[]string{"\xff", "(\xff", "((x)\xff", "(a\xff", "(y\xff", "x\xff"},
			[]string{`0 ` + invalid + `["\"(\"","[Aa]","[Xx]"]`, `1 ` + invalid + `["\"(\"","[Aa]","[Xx]"]`,
				`4 ` + invalid + `["\")\""]`, `2 ` + invalid + `["[Bb]"]`, `1 ["\"(\"","[Aa]","[Xx]"]`,
				`1 ` + invalid + `["end of input"]`}},
		{"guided", errposABNF,
			[]string{"\xff", "aab,\xff", "aab,[(a\xff"},
			[]string{`0 ` + invalid + `["[ABab]"]`, `4 ` + invalid + `["[([]"]`, `7 ` + invalid + `["[ABab]"]`}},
		{"guarded", "s = 1*( \"a\" / \"b\" ) \"ab\"\n",
			[]string{"\xff", "ab\xffab"},
			[]string{`0 ` + invalid + `["[ABab]"]`, `2 ` + invalid + `["[ABab]"]`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g, err := abnf.ReadString("g.abnf", tt.src)
			if err != nil {
				t.Fatal(err)
			}
			start := g.Rules[0].Name
			res, err := peg.Translate(g, peg.Options{Start: []string{start}, Package: "main", Witnesses: -1})
			if err != nil {
				t.Fatal(err)
			}
			net := strings.Contains(string(res.PEG), "Enter(") || strings.Contains(string(res.PEG), "Match(")
			if net != (tt.name != "pigeon alone") {
				t.Fatalf("the PEG has the network: %v; the test needs another grammar", net)
			}
			var pairs [][2]string
			for _, in := range tt.in {
				pairs = append(pairs, [2]string{start, in})
			}
			out := runFarthestPEG(t, res.PEG, pairs)
			for i, in := range tt.in {
				want := tt.want[i] + "\t" + tt.want[i] + "\t" + tt.want[i]
				if out[i] != want {
					t.Errorf("%q: %s, want %s", in, out[i], want)
				}
			}
		})
	}
}

// TestGuidedErrorsDifferential: on near misses sampled from every grammar
// of testdata/grammars whose PEG has exact guards or leaves decisions to
// the exact recognizer (JSON, RFC 5322, HTTP/1.1, syslog, CDDL, …, each
// start rule of the index), and from small recursive grammars, the offset
// of the error of Validate, ParseRule and ParsePEG is abnf.Diagnoser's,
// wherever the Diagnoser finishes; and a valid sample is valid for both.
// (RFC3986_FULL=1 samples eight times as many, five times as long.)
func TestGuidedErrorsDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("builds parsers with pigeon")
	}
	t.Parallel() // 5 minutes of RFC3986_FULL=1: see TestRealGrammars
	type grammar struct {
		name   string
		g      *abnf.Grammar
		starts []string
	}
	var grammars []grammar
	idx, err := grammarindex.Read(grammarsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range idx {
		if e.Reject {
			continue
		}
		g, err := abnf.ReadFiles([]string{e.Path(grammarsDir)}, &abnf.Options{Octets: e.Octets})
		if err != nil {
			t.Fatal(err)
		}
		res, err := peg.Translate(g, peg.Options{Start: e.Starts, Package: "main", Witnesses: -1})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(res.PEG), "fallbackNet") {
			grammars = append(grammars, grammar{e.File, g, e.Starts})
		}
	}
	if len(grammars) < 5 {
		t.Fatalf("only %d grammars of testdata/grammars have guards or fallbacks", len(grammars))
	}
	for _, x := range []struct{ name, src, start string }{
		{"errpos", errposABNF, "s"},
		{"brackets", "v = \"[\" ws [ v ] ws \"]\" / \"1\"\nws = *\" \"\n", "v"},
		{"nest-ab", "s = q \";\" r\nr = 1*( \"a\" / \"b\" ) \"ab\"\nq = \"(\" q \")\" / \"x\" / \"(\" r \")\"\n", "s"},
		{"list", "l = \"(\" *( e \",\" ) e \")\"\ne = l / 1*( \"a\" / \"b\" ) \"b\" / \"a\"\n", "l"},
		{"guarded", "s = q \";\" r\nr = 1*( \"a\" / \"b\" ) \"ab\"\nq = \"(\" q \")\" / \"x\"\n", "s"},
	} {
		g, err := abnf.ReadString(x.name+".abnf", x.src)
		if err != nil {
			t.Fatal(err)
		}
		grammars = append(grammars, grammar{x.name, g, []string{x.start}})
	}
	// Short samples: the Diagnoser's threads multiply on ambiguous
	// grammars (RFC 5322's comments, "list" here), and it is the slow side.
	samples, maxLen := 24, 32
	if fullRun() {
		samples, maxLen = 200, 160
	}
	total, compared, invalid := 0, 0, 0
	for _, gr := range grammars {
		s := abnf.NewSampler(gr.g, 1)
		s.MaxLen = maxLen
		var pairs [][2]string
		for _, start := range gr.starts {
			for i := range samples {
				b, err := s.NearMiss(start)
				if i%10 == 0 {
					b, err = s.Sample(start)
				}
				if err == nil {
					pairs = append(pairs, [2]string{start, string(b)})
				}
			}
		}
		out := runFarthestPairs(t, gr.g, gr.starts, pairs)
		d := abnf.NewDiagnoser(gr.g)
		for i, p := range pairs {
			total++
			dg, err := d.Diagnose(p[0], p[1])
			if err != nil {
				continue // past the Diagnoser's bound
			}
			compared++
			a, _, _ := strings.Cut(out[i], "\t")
			if out[i] != a+"\t"+a+"\t"+a {
				t.Errorf("%s %s %.60q: Validate, ParseRule and ParsePEG disagree: %s", gr.name, p[0], p[1], out[i])
			}
			want := "ok"
			if !dg.Match {
				want = fmt.Sprint(dg.Offset) + " "
				invalid++
			}
			if !strings.HasPrefix(a, want) {
				t.Errorf("%s %s %.60q: %s; the Diagnoser's offset %d (match %v)", gr.name, p[0], p[1], a, dg.Offset, dg.Match)
			}
		}
	}
	t.Logf("%d grammars, %d inputs, %d compared with the Diagnoser (%d invalid)", len(grammars), total, compared, invalid)
	if compared < total*9/10 {
		t.Errorf("only %d of %d inputs compared", compared, total)
	}
}

// TestGuidedErrorsBounded: the search for the farthest viable prefix is
// the guide's, within the guide's budget: on inputs that nest n deep and
// fail at their end, the least budget with which syntax.Grammar.Parse
// reports the farthest error (not "too much work", nor an earlier offset)
// is within ParseRule's (10,000 plus 150 per byte), and at most 2.5 times
// as large when n doubles: counted, not timed.
func TestGuidedErrorsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a parser with pigeon")
	}
	g, err := abnf.ReadString("g.abnf", errposABNF)
	if err != nil {
		t.Fatal(err)
	}
	res, err := peg.Translate(g, peg.Options{Start: []string{"s"}, Package: "main", Witnesses: -1})
	if err != nil {
		t.Fatal(err)
	}
	const main = `package main

import (
	"fmt"
	"os"

	"github.com/peguri/rfc3986/syntax"
)

func main() {
	g, err := syntax.NewGrammar("g", PEG(), nil)
	if err != nil {
		panic(err)
	}
	for _, in := range os.Args[1:] {
		lo, hi := uint64(1), uint64(1)<<30
		for lo < hi {
			m := (lo + hi) / 2
			if _, f := g.Parse("s", []byte(in), m); f != nil && f.Msg == "" && f.Offset == len(in) {
				hi = m
			} else {
				lo = m + 1
			}
		}
		fmt.Printf("%d %d\n", len(in), lo)
	}
}
`
	var inputs []string
	for _, n := range []int{100, 200, 400, 800, 1600} {
		inputs = append(inputs, "aab,"+strings.Repeat("[", n)+"(abab)"+strings.Repeat("]", n-1))
	}
	out := runPigeon(t, res.PEG, main, inputs...)
	prev := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var n, budget int
		if _, err := fmt.Sscan(line, &n, &budget); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if budget > 10000+150*n {
			t.Errorf("%d bytes: the farthest error needs a budget of %d, past ParseRule's %d", n, budget, 10000+150*n)
		}
		if prev > 0 && float64(budget) > 2.5*float64(prev) {
			t.Errorf("%d bytes: budget %d, %.1f times the previous", n, budget, float64(budget)/float64(prev))
		}
		prev = budget
		t.Logf("%d bytes: %d", n, budget)
	}
}

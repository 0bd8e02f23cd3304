package main

import (
	"bytes"
	"fmt"
	"math/bits"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/peg"
)

// TestMain runs the test binary as gen itself when GEN_TEST_AS_GEN is set,
// so that tests can measure a gen process (hostile_test.go).
func TestMain(m *testing.M) {
	if os.Getenv("GEN_TEST_AS_GEN") == "1" {
		main()
	}
	os.Exit(m.Run())
}

func runGen(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCheckDefault(t *testing.T) {
	out, _, code := runGen(t, "", "check")
	if code != 0 {
		t.Fatalf("gen check exit %d\n%s", code, out)
	}
	for _, want := range []string{
		"rules (39):",
		"  URI              grammar/rfc3986.abnf:7:4",
		"  HEXDIG           RFC 5234 B.1:29:10 (core)",
		"possible start rules: URI-reference, absolute-URI, path, reserved",
		"problems:\n  none\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("gen check output lacks %q:\n%s", want, out)
		}
	}
}

func TestCheckErrors(t *testing.T) {
	f := writeFile(t, "bad.abnf", "a = b / \"x\n c = (\nd = a\nd = e\n")
	out, _, code := runGen(t, "", "check", f)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{
		f + ":1:9: error: quoted string not closed on its line",
		f + ":4:1: error: d is already defined at " + f + ":3:1; use =/ to add alternatives, or mark an override",
		f + ":4:5: error: undefined rule e",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("gen check output lacks %q:\n%s", want, out)
		}
	}
}

func TestCheckStart(t *testing.T) {
	out, _, code := runGen(t, "", "check", "-start", "URI")
	if code != 0 || !strings.Contains(out, "warning: relative-ref is unreachable from the start rules (URI)") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestMatch(t *testing.T) {
	in := "http://a/b\n1.2.3.456\n\n[::1]\nhttp://a\r\n{last"
	out, _, code := runGen(t, in, "match", "-rule", "host")
	// Every line is an input, the empty one included; "\r" is input.
	if want := "0\n1\n1\n1\n0\n0\n"; out != want || code != 0 {
		t.Errorf("gen match = %q (exit %d), want %q", out, code, want)
	}
	out, _, _ = runGen(t, "http://a\r\nhttp://a\n", "match", "-rule", "URI")
	if out != "0\n1\n" {
		t.Errorf("trailing CR: got %q", out)
	}
}

func TestMatchLayered(t *testing.T) {
	base := writeFile(t, "base.abnf", "host = name\nname = 1*ALPHA\n")
	ext := writeFile(t, "ext.abnf", "host =/ 1*DIGIT\n")
	out, errs, code := runGen(t, "abc\n123\nab1\n", "match", "-grammar", base, "-grammar", ext, "-rule", "host")
	if out != "1\n1\n0\n" || code != 0 {
		t.Errorf("layered match = %q (exit %d) %s", out, code, errs)
	}
}

func TestSample(t *testing.T) {
	a, _, code := runGen(t, "", "sample", "-rule", "IPv6address", "-n", "50", "-seed", "9")
	b, _, _ := runGen(t, "", "sample", "-rule", "IPv6address", "-n", "50", "-seed", "9")
	if code != 0 || a != b || strings.Count(a, "\n") != 50 {
		t.Fatalf("sample not deterministic or wrong count (exit %d):\n%s", code, a)
	}
	// Every sample matches.
	out, _, _ := runGen(t, a, "match", "-rule", "IPv6address")
	if strings.Contains(out, "0") {
		t.Errorf("a sample does not match:\n%s\n%s", a, out)
	}
	near, _, _ := runGen(t, "", "sample", "-rule", "IPv6address", "-n", "50", "-seed", "9", "-near")
	out, _, _ = runGen(t, near, "match", "-rule", "IPv6address")
	if !strings.Contains(out, "0") {
		t.Errorf("no near-miss fails to match:\n%s", near)
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{
		nil,
		{"nope"},
		{"match"},
		{"sample"},
		{"sample", "-rule", "IPv4address", "-n", "-5"},
		{"fidelity", "-rule", "IPv4address", "-n", "-1"},
		{"fidelity", "-rule", "IPv4address", "-max-states", "0"},
		{"check", "-bogus"},
	} {
		if _, _, code := runGen(t, "", args...); code != 2 {
			t.Errorf("gen %v: exit %d, want 2", args, code)
		}
	}
	// A rule the grammar lacks is a fact about the grammar, not a misuse
	// of the command: exit 1 and one line, as gen peg and gen dfa say it.
	for _, args := range [][]string{
		{"match", "-rule", "nope"},
		{"sample", "-rule", "nope"},
		{"fidelity", "-rule", "nope"},
		{"peg", "-start", "nope"},
		{"dfa", "-start", "nope", "-report"},
	} {
		_, errs, code := runGen(t, "", args...)
		if code != 1 || !strings.Contains(errs, "no rule nope in the grammar") || strings.Contains(errs, "usage") {
			t.Errorf("gen %v: exit %d, stderr %q; want exit 1 and \"no rule nope in the grammar\", no usage", args, code, errs)
		}
	}
}

// TestQuoted: -quoted carries inputs with CR, LF, NUL and invalid UTF-8
// (issue 9), from gen sample to gen match.
func TestQuoted(t *testing.T) {
	f := writeFile(t, "msg.abnf", "msg = 1*line\nline = *(%x00-09 / %x0B-0C / %x0E-FF) CRLF\n")
	samples, errs, code := runGen(t, "", "sample", "-grammar", f, "-rule", "msg", "-n", "40", "-quoted", "-octets")
	if code != 0 {
		t.Fatalf("gen sample -quoted: exit %d: %s", code, errs)
	}
	if !strings.Contains(samples, `\r\n`) || strings.Count(samples, "\n") != 40 {
		t.Errorf("quoted samples lack CRLF or are not 40 lines:\n%s", samples)
	}
	out, errs, code := runGen(t, samples, "match", "-grammar", f, "-rule", "msg", "-quoted", "-octets")
	if code != 0 || out != strings.Repeat("1\n", 40) {
		t.Errorf("gen match -quoted on samples = %q (exit %d) %s", out, code, errs)
	}
	in := `"a\r\n"` + "\n" + `"a\r\nb\r\n"` + "\n" + `"\x00\xff\r\n"` + "\r\n" + `"a"` + "\n" + `"a\nb\r\n"` + "\n"
	out, _, code = runGen(t, in, "match", "-grammar", f, "-rule", "msg", "-quoted", "-octets")
	if want := "1\n1\n1\n0\n0\n"; out != want || code != 0 {
		t.Errorf("gen match -quoted = %q (exit %d), want %q", out, code, want)
	}
	// Without -octets, \xff is no code point: invalid UTF-8 matches nothing.
	out, _, _ = runGen(t, `"\xff\r\n"`+"\n", "match", "-grammar", f, "-rule", "msg", "-quoted")
	if out != "0\n" {
		t.Errorf("code-point mode on invalid UTF-8 = %q, want 0", out)
	}
	// A line that does not unquote stops gen with its line number, after
	// the verdicts of the lines before it.
	out, errs, code = runGen(t, `"a\r\n"`+"\nraw line\n"+`"a\r\n"`+"\n", "match", "-grammar", f, "-rule", "msg", "-quoted")
	if code != 1 || out != "1\n" || !strings.Contains(errs, `gen match: line 2: not a Go double-quoted string: "raw line"`) {
		t.Errorf("bad quoted line: %q, exit %d, stderr %q", out, code, errs)
	}
}

// TestReadFlags: -octets and -max-nesting reach the reader in every
// command, and an empty grammar is an error (issue 9: gen check exited 0).
func TestReadFlags(t *testing.T) {
	utf8f := writeFile(t, "o.abnf", "r = %xC3.A9\n")
	out, _, _ := runGen(t, "é\n", "match", "-grammar", utf8f, "-rule", "r")
	if out != "0\n" {
		t.Errorf("code points: %%xC3.A9 matches é: %q", out)
	}
	out, _, _ = runGen(t, "é\n", "match", "-grammar", utf8f, "-rule", "r", "-octets")
	if out != "1\n" {
		t.Errorf("-octets: %%xC3.A9 does not match é: %q", out)
	}
	big := writeFile(t, "b.abnf", "r = %x100\n")
	for _, args := range [][]string{
		{"check", "-octets", big},
		{"match", "-octets", "-grammar", big, "-rule", "r"},
		{"sample", "-octets", "-grammar", big, "-rule", "r"},
		{"peg", "-octets", "-grammar", big},
		{"dfa", "-octets", "-grammar", big, "-report"},
		{"fidelity", "-octets", "-grammar", big, "-rule", "r"},
	} {
		out, errs, code := runGen(t, "", args...)
		if code != 1 || !strings.Contains(out+errs, "value 100 is above %xFF: the grammar's values are octets") {
			t.Errorf("gen %v: exit %d, output %q %q", args, code, out, errs)
		}
	}
	deep := writeFile(t, "d.abnf", "r = (((\"a\")))\n")
	out, _, code := runGen(t, "", "check", "-max-nesting", "2", deep)
	if code != 1 || !strings.Contains(out, "d.abnf:1:7: error: groups and options nested more than 2 deep") {
		t.Errorf("gen check -max-nesting 2: exit %d\n%s", code, out)
	}
	if _, _, code := runGen(t, "", "check", "-max-nesting", "3", deep); code != 0 {
		t.Errorf("gen check -max-nesting 3: exit %d", code)
	}
	for _, src := range []string{"", "; only a comment\n"} {
		empty := writeFile(t, "e.abnf", src)
		out, _, code := runGen(t, "", "check", empty)
		if code != 1 || !strings.Contains(out, "e.abnf:1:1: error: no rules: the grammar is empty or holds only comments") {
			t.Errorf("gen check on %q: exit %d\n%s", src, code, out)
		}
	}
}

// TestSampleHostile: gen sample refuses a rule whose shortest string is
// too long, naming it (issue 9: 9 GB, then out of memory).
func TestSampleHostile(t *testing.T) {
	f := writeFile(t, "h.abnf", "s = 65536(65536\"a\")\n")
	// 4 GiB, past where lengths saturate on a 32-bit platform (2^30).
	n := map[int]string{64: "4294967296", 32: "more than 2^30"}[bits.UintSize]
	_, errs, code := runGen(t, "", "sample", "-grammar", f, "-rule", "s")
	if code != 1 || !strings.Contains(errs, "gen sample: s: its shortest string is "+n+" bytes") {
		t.Errorf("exit %d: %s", code, errs)
	}
	out, _, _ := runGen(t, "", "check", f)
	if !strings.Contains(out, "warning: s: its shortest string is "+n+" bytes, above the 1048576") {
		t.Errorf("gen check does not report the shortest string:\n%s", out)
	}
}

// TestLeftRecursion: left-recursive grammars match and sample through gen
// (issue 9: IMAP's t = "y" / t " " t refused the whole grammar).
func TestLeftRecursion(t *testing.T) {
	f := writeFile(t, "imap.abnf", "r = t\nt = \"y\" / t \" \" t\n")
	out, errs, code := runGen(t, "y\ny y y\ny  y\n", "match", "-grammar", f, "-rule", "r")
	if out != "1\n1\n0\n" || code != 0 {
		t.Errorf("gen match = %q (exit %d) %s", out, code, errs)
	}
	if _, errs, code := runGen(t, "", "sample", "-grammar", f, "-rule", "r", "-n", "20"); code != 0 {
		t.Errorf("gen sample: exit %d %s", code, errs)
	}
}

// TestFidelityQuoted: gen fidelity -in reads quoted lines too; it builds
// the generated parser with pigeon, so it is skipped under -short.
func TestFidelityQuoted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a parser with pigeon")
	}
	in := `"http://a/b"` + "\n" + `"http://a\r"` + "\n" + `"\xff"` + "\n" + "bad\n"
	out, errs, code := runGen(t, in, "fidelity", "-rule", "URI", "-in", "-", "-quoted")
	if out != "1 1\n0 0\n0 0\n" || code != 1 || !strings.Contains(errs, "gen fidelity: line 4: not a Go double-quoted string") {
		t.Errorf("gen fidelity -in - -quoted = %q (exit %d) %s", out, code, errs)
	}
}

// TestFidelitySamples: gen fidelity samples, builds the generated parser
// and compares it with the matcher. The harness parses on every core and
// answers in input order; samples and near-misses alternate, so an answer
// out of order is a disagreement.
func TestFidelitySamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a parser with pigeon")
	}
	out, errs, code := runGen(t, "", "fidelity", "-rule", "URI-reference", "-n", "2000")
	if code != 0 || !strings.HasPrefix(out, "URI-reference: 4000 inputs (") || !strings.HasSuffix(out, "valid under the ABNF), 0 disagreements\n") {
		t.Errorf("gen fidelity -rule URI-reference -n 2000 = %q (exit %d) %s", out, code, errs)
	}
}

// TestLeftRecursionPEG: gen peg takes left recursion anywhere — here off
// the start rule's path, as in IMAP — and reports how it rewrote the rules
// on the path.
func TestLeftRecursionPEG(t *testing.T) {
	f := writeFile(t, "imap.abnf", "r = \"a\" / u\nt = \"y\" / t \" \" t\nu = u \",\" \"b\" / \"b\"\n")
	out, errs, code := runGen(t, "", "peg", "-grammar", f, "-start", "r", "-report", "-o", filepath.Join(t.TempDir(), "x.peg"))
	if code != 0 || !strings.Contains(out, "u: left-recursion: u is left-recursive (with u): rewritten as its seeds followed by iterations") || strings.Contains(out, "t: left-recursion") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
}

// TestLeftRecursionTree: the parse tree of a rewritten left-recursive rule
// has the grammar's left-nested shape and names, built by the pigeon
// parser gen generates.
func TestLeftRecursionTree(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a parser with pigeon")
	}
	// Direct left recursion (list, expr, term); issue 25's expression
	// grammar, whose postfix rules (t, s, m, i) reach each other through p
	// (one hub); three rules that each reach the two others (two hubs,
	// whose equations are solved together).
	src := "list = list \",\" item / item\nitem = 1*ALPHA\nexpr = expr \"-\" term / term\nterm = term \"*\" DIGIT / DIGIT\n" +
		"e = p / e \"+\" p\np = a / t / s / m / i\nt = p \".\" 1*DIGIT\ns = p \".\" n\nm = p \".\" n \"(\" [ e *( \",\" e ) ] \")\"\n" +
		"i = p \"[\" e \"]\"\na = n / \"(\" e \")\" / n \"(\" [ e *( \",\" e ) ] \")\"\nn = ALPHA *( ALPHA / DIGIT )\n" +
		"x = y \"1\" / z \"2\" / \"x\"\ny = x \"3\" / z \"4\" / \"y\"\nz = x \"5\" / y \"6\" / \"z\"\n"
	g, err := abnf.ReadString("list.abnf", src)
	if err != nil {
		t.Fatal(err)
	}
	res, err := peg.Translate(g, peg.Options{Start: []string{"list", "expr", "e", "x", "z"}, Package: "main", Witnesses: -1})
	if err != nil {
		t.Fatal(err)
	}
	main := `package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/peguri/rfc3986/syntax"
)

func show(n *syntax.Node, in string) string {
	var kids []string
	for _, k := range n.Kids {
		kids = append(kids, show(k, in))
	}
	s := n.Rule + "[" + in[n.Start:n.End] + "]"
	if len(kids) > 0 {
		s += "(" + strings.Join(kids, " ") + ")"
	}
	return s
}

func main() {
	g, err := syntax.NewGrammar("lists", PEG(), nil)
	if err != nil {
		panic(err)
	}
	for _, a := range os.Args[1:] {
		rule, in, _ := strings.Cut(a, "=")
		n, f := g.Parse(rule, []byte(in), 1<<20)
		if f != nil {
			fmt.Println("error", f.Offset)
			continue
		}
		fmt.Println(show(n, in))
	}
}
`
	out := runPigeon(t, res.PEG, main, "list=a", "list=a,bc,d", "expr=1-2*3*4-5", "list=a,",
		"e=f.g(x)[y]+z", "e=f.12", "e=(f)", "x=y1", "x=x362", "z=x36", "x=x35")
	want := "list[a](item[a])\n" +
		"list[a,bc,d](list[a,bc](list[a](item[a]) item[bc]) item[d])\n" +
		"expr[1-2*3*4-5](expr[1-2*3*4](expr[1](term[1]) term[2*3*4](term[2*3](term[2]))) term[5])\n" +
		"error 2\n" +
		"e[f.g(x)[y]+z](e[f.g(x)[y]](p[f.g(x)[y]](i[f.g(x)[y]](p[f.g(x)](m[f.g(x)](p[f](a[f](n[f])) n[g] e[x](p[x](a[x](n[x]))))) e[y](p[y](a[y](n[y])))))) p[z](a[z](n[z])))\n" +
		"e[f.12](p[f.12](t[f.12](p[f](a[f](n[f])))))\n" +
		"e[(f)](p[(f)](a[(f)](e[f](p[f](a[f](n[f]))))))\n" +
		"x[y1](y[y])\n" +
		"x[x362](z[x36](y[x3](x[x])))\n" +
		"z[x36](y[x3](x[x]))\n" +
		"error 2\n"
	if out != want {
		t.Errorf("trees:\n%s\nwant:\n%s", out, want)
	}
}

// runPigeon builds a program from a PEG and a main.go in a temporary
// module, as gen fidelity does, and runs it with args.
func runPigeon(t *testing.T, pegText []byte, main string, args ...string) string {
	t.Helper()
	dir := t.TempDir()
	mod, err := harnessModule()
	if err != nil {
		t.Fatal(err)
	}
	run := harnessFiles(t, dir, map[string]string{"go.mod": mod, "grammar.peg": string(pegText), "main.go": main})
	run("go", "get", pigeonPkg+"@"+pigeonVersion)
	run("go", "run", pigeonPkg, "-optimize-parser", "-o", "parser.go", "grammar.peg")
	run("go", "mod", "tidy")
	run("go", "build", "-o", "prog", ".")
	return run(filepath.Join(dir, "prog"), args...)
}

// harnessFiles writes files into dir, a temporary module, and returns a
// function that runs a command there and fails the test, with its output,
// when the command fails.
func harnessFiles(t *testing.T, dir string, files map[string]string) func(name string, args ...string) string {
	t.Helper()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return func(name string, args ...string) string {
		t.Helper()
		c := exec.Command(name, args...)
		c.Dir = dir
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
}

// TestNestedRepetitionPEG: a repetition whose body is a repetition ("[ 1*SP
// ]", "*( 1*"a" )") is written with the body in parentheses, which
// pigeon's grammar needs ("x+*" is no PEG), and the parser pigeon builds
// from it accepts exactly what the ABNF does.
func TestNestedRepetitionPEG(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a parser with pigeon")
	}
	src := "num = [ \"-\" ] 1*DIGIT [ 1*SP ] \";\"\n" +
		"r1 = *( 1*\"a\" ) \"b\"\nr2 = *( *\"a\" ) \"b\"\nr3 = 1*( *\"a\" ) \"c\"\nr4 = 3*( 1*\"a\" ) \"b\"\n" +
		"r5 = [ *\"a\" ] \"d\"\nr6 = 2*3( 1*2\"a\" ) \"e\"\n"
	g, err := abnf.ReadString("nested.abnf", src)
	if err != nil {
		t.Fatal(err)
	}
	rules := []string{"num", "r1", "r2", "r3", "r4", "r5", "r6"}
	res, err := peg.Translate(g, peg.Options{Start: rules, Package: "main", Witnesses: -1})
	if err != nil {
		t.Fatal(err)
	}
	m, err := abnf.NewMatcher(g)
	if err != nil {
		t.Fatal(err)
	}
	var args []string
	var want strings.Builder
	for _, r := range rules {
		for _, in := range []string{"", "1;", "-12  ;", "12 ", "1 ;;", "b", "ab", "aab", "c", "aac", "ab b", "aaab", "aaaab", "d", "ad", "aad",
			"ae", "aae", "aaae", "aaaaae", "aaaaaaae", "aaaaaaaae"} {
			args = append(args, r+"="+in)
			ok, err := m.Match(r, []byte(in))
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&want, "%s=%s %v\n", r, in, ok)
		}
	}
	main := `package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/peguri/rfc3986/syntax"
)

func main() {
	g, err := syntax.NewGrammar("nested", PEG(), nil)
	if err != nil {
		panic(err)
	}
	for _, a := range os.Args[1:] {
		rule, in, _ := strings.Cut(a, "=")
		_, f := g.Parse(rule, []byte(in), 1<<20)
		fmt.Printf("%s %v\n", a, f == nil)
	}
}
`
	if out := runPigeon(t, res.PEG, main, args...); out != want.String() {
		t.Errorf("pigeon's parser against the ABNF:\n%s\nwant:\n%s", out, want.String())
	}
}

// TestFallbackErrors: a grammar that leaves decisions to the exact
// recognizer (here the white space before "]", which the optional v may
// or may not end with) reports an invalid input's error where the input
// stops being viable, with what was expected there, not at the start of
// the guided rule, where the recognizer first sees that the input cannot
// complete.
func TestFallbackErrors(t *testing.T) {
	out := runGuided(t, "v = \"[\" ws [ v ] ws \"]\" / \"1\"\nws = *\" \"\n", 1<<20, "[ [1] ]", "[[2]]", "[[1]]]", "[ [ ]", "[1", "x")
	want := `"[ [1] ]" ok
"[[2]]" 2 ["[ 1[\\]]"] 
"[[1]]]" 5 ["EOF"] 
"[ [ ]" 5 ["[ \\]]"] 
"[1" 2 ["[ \\]]"] 
"x" 0 ["[1[]"] 
`
	if out != want {
		t.Errorf("errors:\n%s\nwant:\n%s", out, want)
	}
}

// TestFallbackErrorsBounded: the PEG alone, which reports a guided
// parse's error, backtracks without the guide's answers, exponentially on
// some grammars; it gets a budget linear in the input, past which the
// error stays the guided parse's. Here (w's two alternatives each try v,
// and each v's three alternatives try w) an input of 81 bytes would take
// the unbounded PEG hours; the guided parse rejects it at once, and so
// the test finishes.
func TestFallbackErrorsBounded(t *testing.T) {
	n := 27
	hostile := strings.Repeat("(", n) + "1" + strings.Repeat(")b", n-1) + ")c"
	out := runGuided(t, "v = \"(\" w \")\" \"a\" / \"(\" w \")\" \"b\" / \"1\"\nw = v ws / ws v\nws = *\" \"\n", 1<<40, hostile, "(1)a")
	if lines := strings.Split(out, "\n"); len(lines) != 3 || strings.HasSuffix(lines[0], " ok") || lines[1] != `"(1)a" ok` {
		t.Errorf("the hostile input then a valid one:\n%s", out)
	}
}

// TestGuidedInvalid: invalid inputs of ambiguous grammars, which a guide
// can only reject by going everywhere a derivation of a prefix goes (cubic
// in the input: IMAP's t = "y" / t " " t), get their errors, where and
// what, within the budget of package parser's parses (10,000 expressions
// and 150 per byte): the network's filter, a regular superset of the
// language, rejects them first (syntax/filter.go). Without it, each of
// these parses gave up with "too much work" at offset 0 from about 150
// bytes. Valid inputs of the same length parse.
func TestGuidedInvalid(t *testing.T) {
	ys := func(n int) string { return "y" + strings.Repeat(" y", n) }
	commas := strings.Repeat(" ,", 1000)
	for _, c := range []struct {
		src, in, want string
	}{
		{"v = \"y\" / v \" \" v\n", ys(200) + " ", `402 ["[Yy]"]`},
		{"v = \"y\" / v \" \" v\n", ys(1000) + " ", `2002 ["[Yy]"]`},
		{"v = \"y\" / v \" \" v\n", ys(1000) + "x", `2001 ["\" \"" "EOF"]`},
		{"v = \"y\" / v \" \" v\n", ys(500) + "  " + ys(500), `1002 ["[Yy]"]`},
		{"v = \"y\" / v \" \" v\n", ys(1000), "ok"},
		// Invalid UTF-8 after the error: pigeon reads it ahead, and its
		// offset is no viable prefix (helper 45: the parse gave up at
		// 2,002, past the error).
		{"v = \"y\" / v \" \" v\n", ys(1000) + "x\xff", `2001 ["\" \"" "EOF"] | 2001 [] parse abandoned: too much work for the input's length`},
		{"v = ws \"x\"\nws = *(\" \" / c)\nc = \",\" ws\n", commas + "y", `2000 ["\" \"" "\",\"" "[Xx]"]`},
		{"v = ws \"x\"\nws = *(\" \" / c)\nc = \",\" ws\n", commas + "x", "ok"},
		// The exact search gives up, and the PEG alone fails at the "!",
		// 2,001 (its loop of t took the " y" that v needs): a viable
		// prefix, not the error, which the filter puts at 2,002. Where
		// the two differ, the parse says it gave up (helper 38's case:
		// the error was 2001 [" "]), as far as the exact search saw the
		// input viable: 2,002, the error.
		{"v = t \" y\" \"!\"\nt = \"y\" / t \" \" t\n", ys(1000) + "!x", `2002 ["EOF"] | 2002 [] parse abandoned: too much work for the input's length`},
	} {
		out := runGuided(t, c.src, uint64(10000+150*len(c.in)), c.in)
		got := strings.TrimSuffix(strings.TrimPrefix(out, strconv.Quote(c.in)+" "), "\n")
		got = strings.TrimSuffix(got, " ")
		if !slices.Contains(strings.Split(c.want, " | "), got) {
			t.Errorf("%.40q… (%d bytes): %s, want %s", c.in, len(c.in), got, c.want)
		}
	}
}

// TestGaveUpWhere: a parse abandoned for its budget says how far it got,
// not offset 0: the farthest position the guide's search visited (every
// one ends a viable prefix, as in Net.Farthest) or where pigeon was, and
// for an input the filter rejects, where the PEG alone got to. The offset
// is never past the input's error, and grows with the budget.
func TestGaveUpWhere(t *testing.T) {
	src := "v = *(p \";\")\np = \"(\" p \")\" \"a\" / \"(\" p \")\" \"b\" / \"x\"\n"
	valid := strings.Repeat("((x)a)b;", 100)
	invalid := valid[:400] + "((x)a)c;" + valid[400:] // the error: "c" at 406
	const errAt = 406
	last := map[string]int{}
	for _, budget := range []uint64{300, 500, 1000, 2000, 5000, 100000} {
		out := strings.Split(strings.TrimSuffix(runGuided(t, src, budget, valid, invalid), "\n"), "\n")
		for i, in := range []string{valid, invalid} {
			name := [...]string{"valid", "invalid"}[i]
			line, _ := strings.CutPrefix(out[i], strconv.Quote(in)+" ")
			line = strings.TrimSuffix(line, " ")
			limit := len(in)
			if i == 1 {
				limit = errAt
			}
			var off int
			switch {
			case line == "ok" && i == 0, line == `406 ["[ABab]"]` && i == 1:
				off = limit
			case strings.HasSuffix(line, "parse abandoned: too much work for the input's length"):
				if _, err := fmt.Sscan(line, &off); err != nil || off > limit {
					t.Errorf("%s, budget %d: %s, want an offset of at most %d", name, budget, line, limit)
				}
			default:
				t.Errorf("%s, budget %d: %s", name, budget, line)
			}
			if off < last[name] {
				t.Errorf("%s, budget %d: offset %d, where a smaller budget got to %d", name, budget, off, last[name])
			}
			t.Logf("%s, budget %d: %s", name, budget, line)
			last[name] = off
			if budget == 500 && off < 100 {
				t.Errorf("%s, budget %d: %s, want the parse to have got past the first 100 bytes", name, budget, line)
			}
		}
		if budget == 100000 && (last["valid"] != len(valid) || last["invalid"] != errAt) {
			t.Errorf("budget %d: %v, want the answers", budget, last)
		}
	}
}

// runGuided translates the ABNF src (start rule v), checks that it leaves
// a decision to the exact recognizer, builds its parser with pigeon, and
// parses each input with budget maxExpr: a line each, "ok" or the
// failure's offset, expected set and message.
func runGuided(t *testing.T, src string, maxExpr uint64, inputs ...string) string {
	t.Helper()
	return runGuidedBudget(t, src, "v", strconv.FormatUint(maxExpr, 10), inputs...)
}

// runGuidedRule is runGuided for start rule start, with ParseRule's
// budget for each input (10,000 expressions and 150 per byte).
func runGuidedRule(t *testing.T, src, start string, inputs ...string) string {
	t.Helper()
	return runGuidedBudget(t, src, start, fmt.Sprintf("%d+%d*uint64(len(in))", parseRuleBase, parseRulePerByte), inputs...)
}

// runGuidedBudget is runGuided with a budget given as a Go expression of
// the input, in.
func runGuidedBudget(t *testing.T, src, start, budget string, inputs ...string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a parser with pigeon")
	}
	g, err := abnf.ReadString("v.abnf", src)
	if err != nil {
		t.Fatal(err)
	}
	res, err := peg.Translate(g, peg.Options{Start: []string{start}, Package: "main", Witnesses: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.PEG), "Enter(") {
		t.Fatal("the grammar no longer leaves a decision to the recognizer: the test needs another")
	}
	main := fmt.Sprintf(`package main

import (
	"fmt"
	"os"

	"github.com/peguri/rfc3986/syntax"
)

func main() {
	g, err := syntax.NewGrammar("v", PEG(), nil)
	if err != nil {
		panic(err)
	}
	for _, in := range os.Args[1:] {
		_, f := g.Parse(%q, []byte(in), %s)
		if f == nil {
			fmt.Printf("%%q ok\n", in)
			continue
		}
		fmt.Printf("%%q %%d %%q %%s\n", in, f.Offset, f.Expected, f.Msg)
	}
}
`, start, budget)
	return runPigeon(t, res.PEG, main, inputs...)
}

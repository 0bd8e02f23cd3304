package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/dfa"
	"github.com/peguri/rfc3986/gen/peg"
	"github.com/peguri/rfc3986/internal/grammarindex"
)

// The real grammars of testdata/grammars, end to end, as a user of gen runs
// them: every start rule of the index is translated by gen peg, turned into
// Go by pigeon v1.3.0 and compiled; where the rule is regular, gen dfa's
// tables are compiled too. On samples and near-misses of each start rule,
// the three must agree: pigeon parser = DFA (where regular) = the exact
// ABNF matcher.
//
// go test ./... runs 400 samples and 400 near-misses per start rule;
// RFC3986_FULL=1 (as .ci/run sets it) runs 10,000 of each: 20,000 inputs per
// start rule.

const grammarsDir = "../testdata/grammars"

// goabnfPkg is the independent ABNF engine the benchmark (GEN_BENCH=1)
// compares with: a dependency of the test's module only.
const goabnfPkg = "github.com/pandatix/go-abnf@v0.5.5"

// staticcheck is the version the project's own code is checked with.
const staticcheck = "honnef.co/go/tools/cmd/staticcheck@v0.8.2"

var update = flag.Bool("update", false, "rewrite the golden files of TestRealGrammarsRejected")

// fullRun reports whether the long versions of the differential tests are
// asked for.
func fullRun() bool { return os.Getenv("RFC3986_FULL") != "" }

// TestRealGrammarsRejected: the files the index marks "must be rejected"
// are, with exactly the errors of their golden files
// (testdata/rejected/FILE.errors; -update rewrites them).
func TestRealGrammarsRejected(t *testing.T) {
	idx, err := grammarindex.Read(grammarsDir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range idx {
		if !e.Reject {
			continue
		}
		n++
		_, err := abnf.ReadFiles([]string{e.Path(grammarsDir)}, &abnf.Options{Octets: e.Octets})
		got := "(no error)\n"
		var list abnf.ErrorList
		if errors.As(err, &list) {
			got = ""
			for _, e := range list {
				got += e.Error() + "\n"
			}
		} else if err != nil {
			got = err.Error() + "\n"
		}
		got = strings.ReplaceAll(got, grammarsDir+"/", "")
		golden := filepath.Join("testdata", "rejected", e.File+".errors")
		if *update {
			if err := os.WriteFile(golden, []byte(got), 0o666); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s: errors (-want +got):\n%s", e.File, lineDiff(string(want), got))
		}
		// And gen check says the same, exit 1.
		out, _, code := runGen(t, "", "check", e.Path(grammarsDir))
		if code != 1 || !strings.Contains(out, "error:") {
			t.Errorf("gen check %s: exit %d\n%s", e.File, code, out)
		}
	}
	if n == 0 {
		t.Error("no file of the index is marked \"must be rejected\"")
	}
}

func lineDiff(want, got string) string {
	var b strings.Builder
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var x, y string
		if i < len(w) {
			x = w[i]
		}
		if i < len(g) {
			y = g[i]
		}
		if x != y {
			fmt.Fprintf(&b, "-%s\n+%s\n", x, y)
		}
	}
	return b.String()
}

// workCases are valid inputs on which exact guards and the exact
// recognizer once spent work in proportion to the rest of the input at
// every iteration of a repetition (issue 25): ParseRule must accept them
// within its default budget, which the test checks by the expressions
// each needs (the least budget with which the parse succeeds).
var workCases = []struct{ file, rule, name, in string }{
	{"rfc3966.abnf", "telephone-uri", `"tel:2" + ";a"×64 + ";phone-context=a"`, "tel:2" + strings.Repeat(";a", 64) + ";phone-context=a"},
	{"rfc3966.abnf", "telephone-uri", `"tel:2" + ";a"×640 + ";phone-context=a"`, "tel:2" + strings.Repeat(";a", 640) + ";phone-context=a"},
	{"rfc3966.abnf", "telephone-uri", `"tel:2" + ";a"×6400 + ";phone-context=a"`, "tel:2" + strings.Repeat(";a", 6400) + ";phone-context=a"},
	{"rfc8610-cddl.abnf", "cddl", `"a=[(" + 16 spaces + "//" + 16 spaces + ")]"`, "a=[(" + strings.Repeat(" ", 16) + "//" + strings.Repeat(" ", 16) + ")]"},
	// The valid sample of RFC 5322's message that ParseRule gave up on:
	// comments and folding white space between received-tokens.
	{"rfc5322.abnf", "message", "a 536-byte sample", "reTuRN-pAtH:<>\r\nREceiVeD:9}^|~.z.!#&%/./@\t   [\a\t   \r\n\tZ^\t\t\t \r\n\t \t \t\r\n\t  \t \r\n\t\r\n\t  \t]\t  \t\r\n \t '*+=\t \r\n\t \t\t\t() \r\n \r\n\t   \t\r\n  \t\t\t\r\n (\\e\t) \t \t +~~(() \r\n\t \f \t\t  \\\f\r\n  \t\t(8))(\\\x00\\\f\t\t \r\n\t \t\r\n\t \\~ \t \t\r\n (\t\t\t \r\n \t\t\r\n   \t\r\n\t \t)\r\n \t \t )   \t\t\r\n\t \t\t \r\n\t\r\n \t  \t\r\n\t\t (] \r\n  \t\t\t\r\n \t\t\r\n \t  \r\n\t  (\t\t '\t\t\r\n\t   \x7f\t\t  \t\r\n \r\n\t\r\n \t \t )\\\t ( ))((\t\t3(\\\nu) \t \t\r\n \t\t  \\\t) )  \t\t (\t \r\n\t\t\t\t(    \r\n \t\t\t \r\n  \t\t \f\\\r( \r\n\t\t\t\r\n )(\r\n\t \t \t)  \t\t \r\n\t \t )\t\r\n\tw\t  \t\t\r\n ) \t  \t\r\n \t\t\r\n\t\t \t \r\n   \r\n\t \t\t@\r\n [\b \r\n\t^\t\t  \\\r]<@\t(\t\t  ) \t  \t(!  \t\r\n\t\t  \t\r\n \t \r\n  \r\n\t\t\t ())!:{@?>;9OCT6999:93A\r\n"},
	{"rfc5322.abnf", "message", `"Received:a" + " (a) "×400 + "b" + " (a) "×400 + "c;" date-time CRLF`, "Received:a" + strings.Repeat(" (a) ", 400) + "b" + strings.Repeat(" (a) ", 400) + "c;1 Jan 2000 00:00 +0000\r\n"},
	// The valid sample of the full run (RFC3986_FULL=1) that ParseRule
	// gave up on: nested comments and folding white space between
	// obs-received's received-tokens.
	{"rfc5322.abnf", "message", "a 516-byte sample", "RecEivED:{#&'~\t \t\r\n \t \r\n \t \t(  \t\t\r\n\t) \t\r\n  \r\n\t\t \t \r\n\t \r\n\t\t\t(   ()\t\r\n \t\t \r\n\t \t (( \t \r\n\t)\t\r\n\t\t\t\t\r\n  \t \r\n \r\n \t   ~\t\r\n \t \t \\\v')\\\n\t \t \t*)( \t \t\r\n     ()\\ )\t(\t\t  \t\r\n\t\r\n\t\t\t \t\r\n\t\r\n\t\t\t  ~\t\t \t ) \t   \r\n  \t\t \r\n\t \t\t \r\n \r\n (\t(\\\t])\\\n(\t\r\n\t  \r\n \r\n\t\t\t\t\t\r\n \\!\\\n \t  \r\n\t   \t\x7f \r\n \t \t\t())% \t \t\t)+/=*(   (\t#\t\r\n \t)\\y\t()  \t \r\n\t \t  \r\n\t\r\n\t \r\n\t\t%\t   \r\n\t \t )\t \t  \r\n\t\r\n \t \t\t(\\\x00\t (\\ \t \t \r\n  ('(\t \t\t\tH\t \\! \x1b;\r\n )\\\x00)\t\t \t (\t \t \t\r\n  \t\\\x01\t \\\t \r\n \t\t \t\r\n \r\n\t \t  \r\n\t \t\t )~\t \t)()( \t \t \r\n\t\r\n\t\t  \r\n   \t\t)\t \t \r\n\t) \r\n\t \t\r\n  \t\t\r\n\t\r\n\t  (\t  \t\r\n \t \t \r\n\t\r\n \t\t  ) \t\t#\r\n"},
	// Comments inside a display name (issue 20): quadratic before.
	{"rfc5322.abnf", "message", `"To:a" + " (a) "×400 + "b<c@d>" CRLF`, "To:a" + strings.Repeat(" (a) ", 400) + "b<c@d>\r\n"},
}

// ParseRule's budget (package parser: exprBase, exprPerByte).
const parseRuleBase, parseRulePerByte = 10000, 150

// realCase is one start rule of one grammar in the harness.
type realCase struct {
	entry   grammarindex.Entry
	g       *abnf.Grammar
	rule    string
	pkg     string
	pigeon  string // the pigeon entrypoint
	regular bool   // the harness has its DFA
}

func TestRealGrammars(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a pigeon parser for every grammar of testdata/grammars")
	}
	// The package's longest test (11 minutes of RFC3986_FULL=1's 20): in
	// parallel with the other long ones, so that .ci/run stays within its
	// 30 minutes on 2 cores.
	t.Parallel()
	perRule := 400
	if fullRun() {
		perRule = 10000
	}
	idx, err := grammarindex.Read(grammarsDir)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mod, err := harnessModule()
	if err != nil {
		t.Fatal(err)
	}
	mod = strings.Replace(mod, "module fidelity", "module realgrammars", 1)
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", mod)
	var cases []*realCase
	var imports, table strings.Builder
	for i, e := range idx {
		if e.Reject {
			continue
		}
		g, err := abnf.ReadFiles([]string{e.Path(grammarsDir)}, &abnf.Options{Octets: e.Octets})
		if err != nil {
			t.Fatalf("%s: %v", e.File, err)
		}
		for _, p := range abnf.Check(g, e.Starts) {
			if p.Severity == abnf.SeverityError {
				t.Errorf("%s: gen check: %s", e.File, p)
			}
		}
		pkg := fmt.Sprintf("g%d", i)
		start := time.Now()
		res, err := peg.Translate(g, peg.Options{Start: e.Starts, Package: pkg, Witnesses: -1})
		if err != nil {
			t.Fatalf("%s: gen peg: %v", e.File, err)
		}
		t.Logf("%s: gen peg -start %s: %v, %d proven, %d guarded, %d fallbacks", e.File, strings.Join(e.Starts, ","), time.Since(start).Round(time.Millisecond), res.Report.Proven, res.Report.Guarded, res.Report.Fallbacks)
		write(pkg+"/grammar.peg", string(res.PEG))
		// The DFA of every start rule that is regular; the others must be
		// refused for their self-embedding recursion, not for a limit.
		var ms []*dfa.Machine
		regular := map[string]bool{}
		c, err := dfa.NewCompiler(g, dfa.Options{})
		if err != nil {
			t.Fatalf("%s: gen dfa: %v", e.File, err)
		}
		for _, r := range e.Starts {
			m, err := c.Build([]string{r})
			if err != nil {
				if !strings.Contains(err.Error(), "self-embedding") {
					t.Errorf("%s: gen dfa -start %s: %v", e.File, r, err)
				}
				continue
			}
			ms = append(ms, m...)
			regular[r] = true
		}
		if len(ms) > 0 {
			src, err := dfa.Emit(pkg, "Code generated by TestRealGrammars; DO NOT EDIT.", ms)
			if err != nil {
				t.Fatal(err)
			}
			write(pkg+"/dfa.go", string(src))
		}
		fmt.Fprintf(&imports, "\t%q\n", "realgrammars/"+pkg)
		tables := "nil"
		if len(ms) > 0 {
			tables = pkg + ".DFA()"
		}
		for _, r := range e.Starts {
			rc := &realCase{entry: e, g: g, rule: r, pkg: pkg, pigeon: res.Entries[g.Rule(r).Name], regular: regular[r]}
			cases = append(cases, rc)
			d := "nil"
			if rc.regular {
				d = fmt.Sprintf("%s.DFA()[%q].Machine()", pkg, g.Rule(r).Name)
			}
			abs, err := filepath.Abs(e.Path(grammarsDir))
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&table, "\t{grammar(%s.PEG()), newParser(%s.PEG(), %s), %q, %s, %q, %v},\n", pkg, pkg, tables, g.Rule(r).Name, d, abs, e.Octets)
		}
	}
	write("main.go", strings.NewReplacer("IMPORTS\n", imports.String(), "CASES\n", table.String()).Replace(realHarness))
	run := func(name string, args ...string) {
		t.Helper()
		c := exec.Command(name, args...)
		c.Dir = dir
		var out bytes.Buffer
		c.Stdout, c.Stderr = &out, &out
		if err := c.Run(); err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out.Bytes())
		}
	}
	start := time.Now()
	run("go", "get", pigeonPkg+"@"+pigeonVersion, goabnfPkg)
	for _, rc := range cases {
		if _, err := os.Stat(filepath.Join(dir, rc.pkg, "parser.go")); err == nil {
			continue
		}
		run("go", "run", pigeonPkg, "-optimize-parser", "-o", rc.pkg+"/parser.go", rc.pkg+"/grammar.peg")
	}
	run("go", "mod", "tidy")
	run("go", "build", "-o", "harness", ".")
	t.Logf("pigeon and go build: %v", time.Since(start).Round(time.Millisecond))
	// Issue 20: a team's go vet ./... (and staticcheck) runs on the code
	// gen and pigeon wrote, which it must not edit. vet checks, among the
	// rest, that the runtime's types are written with keyed fields.
	start = time.Now()
	run("go", "vet", "./...")
	run("go", "run", staticcheck, "./...")
	t.Logf("go vet and staticcheck: %v", time.Since(start).Round(time.Millisecond))

	h := exec.Command(filepath.Join(dir, "harness"))
	h.Stderr = os.Stderr
	stdin, err := h.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := h.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		h.Wait()
	}()
	in, out := bufio.NewWriter(stdin), bufio.NewReader(stdout)
	var benchRows []string
	defer func() {
		if len(benchRows) > 0 {
			t.Logf("valid samples, ns per byte, best of 5 interleaved rounds:\n| file | rule | inputs | generated parser | gen's matcher | go-abnf | matcher / parser | go-abnf / parser |\n|---|---|---:|---:|---:|---:|---:|---:|\n%s", strings.Join(benchRows, "\n"))
		}
	}()
	for k, rc := range cases {
		m, err := abnf.NewMatcher(rc.g)
		if err != nil {
			t.Fatal(err)
		}
		s := abnf.NewSampler(rc.g, uint64(k+1))
		inputs := make([][]byte, 2*perRule)
		for i := range inputs {
			if i%2 == 0 {
				inputs[i], err = s.Sample(rc.rule)
			} else {
				inputs[i], err = s.NearMiss(rc.rule)
			}
			if err != nil {
				t.Fatalf("%s %s: %v", rc.entry.File, rc.rule, err)
			}
		}
		start := time.Now()
		werr := make(chan error, 1)
		go func() {
			for _, b := range inputs {
				fmt.Fprintf(in, "%d %s\n", k, hex.EncodeToString(b))
			}
			werr <- in.Flush()
		}()
		var valid, bad, gaveUp int
		for i, b := range inputs {
			want, _ := m.Match(rc.rule, b)
			line, err := out.ReadString('\n')
			if err != nil {
				t.Fatalf("harness: %v", err)
			}
			p, d, pr := line[0] == '1', line[2], line[4] == '1'
			if want {
				valid++
			}
			if i%2 == 0 && !want {
				t.Errorf("%s %s: sample %q does not match its rule", rc.entry.File, rc.rule, b)
			}
			if want && p && !pr && strings.Contains(line, "too much work") {
				// ParseRule gave up on its budget: counted, and an error
				// below (issue 25: on no valid sample of go test's run or
				// of the full run).
				gaveUp++
				if gaveUp <= 3 {
					t.Logf("%s %s: ParseRule gave up on its default budget on the valid %d-byte %q", rc.entry.File, rc.rule, len(b), b)
				}
				continue
			}
			if p != want || rc.regular && (d == '1') != want || pr != want {
				bad++
				if bad <= 10 {
					t.Errorf("%s %s %q: ABNF %v, pigeon %v, DFA %c, ParseRule (default budget) %v: %s", rc.entry.File, rc.rule, b, want, p, d, pr, line[6:len(line)-1])
				}
			}
		}
		if err := <-werr; err != nil {
			t.Fatal(err)
		}
		if os.Getenv("GEN_BENCH") != "" {
			benchRows = append(benchRows, benchCase(t, in, out, k, rc, inputs, m))
		}
		if gaveUp > 0 {
			t.Errorf("%s %s: ParseRule gave up on its default budget on %d of %d valid inputs", rc.entry.File, rc.rule, gaveUp, valid)
		}
		for _, wc := range workCases {
			if wc.file != rc.entry.File || wc.rule != rc.rule {
				continue
			}
			if ok, _ := m.Match(rc.rule, []byte(wc.in)); !ok {
				t.Fatalf("%s %s: %.40q… does not match", wc.file, wc.rule, wc.in)
			}
			fmt.Fprintf(in, "%d %s\n%d %s work\n", k, hex.EncodeToString([]byte(wc.in)), k, hex.EncodeToString([]byte(wc.in)))
			if err := in.Flush(); err != nil {
				t.Fatal(err)
			}
			verdict, err := out.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			line, err := out.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			var w int
			fmt.Sscan(line, &w)
			budget := parseRuleBase + parseRulePerByte*len(wc.in)
			t.Logf("%s %s, %s (%d bytes): %d expressions (%.1f per byte), ParseRule's budget %d", wc.file, wc.rule, wc.name, len(wc.in), w, float64(w)/float64(len(wc.in)), budget)
			if w == 0 || w > budget || verdict[4] != '1' {
				t.Errorf("%s %s, %s: valid, but needs %d expressions (0: none suffice), ParseRule's budget is %d: %s", wc.file, wc.rule, wc.name, w, budget, verdict)
			}
		}
		kind := "pigeon = ParseRule = matcher"
		if rc.regular {
			kind = "pigeon = ParseRule = DFA = matcher"
		}
		t.Logf("%s %s: %d inputs (%d valid), %d disagreements (%s), ParseRule gave up on %d, %v", rc.entry.File, rc.rule, len(inputs), valid, bad, kind, gaveUp, time.Since(start).Round(time.Millisecond))
	}
}

// benchCase times case k on its valid samples (the generated parser, gen's
// matcher and go-abnf, interleaved: GEN_BENCH=1) and returns its row of the
// table the test logs.
func benchCase(t *testing.T, in *bufio.Writer, out *bufio.Reader, k int, rc *realCase, inputs [][]byte, m *abnf.Matcher) string {
	t.Helper()
	var b strings.Builder
	for i, x := range inputs {
		if i >= 400 { // 200 samples, most of them valid
			break
		}
		if ok, _ := m.Match(rc.rule, x); ok {
			fmt.Fprintf(&b, "%s\n", hex.EncodeToString(x))
		}
	}
	file := filepath.Join(t.TempDir(), "bench.hex")
	if err := os.WriteFile(file, []byte(b.String()), 0o666); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(in, "%d bench %s\n", k, file)
	if err := in.Flush(); err != nil {
		t.Fatal(err)
	}
	line, err := out.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var n, bytes int
	var p, ma, ga string
	var pa, maa, gaa string
	fmt.Sscan(line, &n, &bytes, &p, &pa, &ma, &maa, &ga, &gaa)
	ratio := func(a, b string) string {
		var x, y float64
		if _, err := fmt.Sscan(a, &x); err != nil {
			return "-"
		}
		if _, err := fmt.Sscan(b, &y); err != nil || x == 0 {
			return "-"
		}
		return fmt.Sprintf("%.2f", y/x)
	}
	return fmt.Sprintf("| %s | `%s` | %d (%d B) | %s | %s | %s | %s | %s |", rc.entry.File, rc.rule, n, bytes, p, ma, ga, ratio(p, ma), ratio(p, ga))
}

// realHarness answers, for each line "K HEX", the verdicts of case K's
// pigeon parser and DFA ("-" when it has none) on the decoded input.
const realHarness = `package main

import (
	"bufio"
	"encoding/hex"
	"os"
	"strconv"
	"strings"

	"fmt"
	"time"

	goabnf "github.com/pandatix/go-abnf"
	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/syntax"

IMPORTS
)

var cases = []struct {
	g      *syntax.Grammar
	p      *parser.Parser
	rule   string
	dfa    *syntax.Machine
	file   string // the ABNF, for the benchmark's matchers
	octets bool
}{
CASES
}

func grammar(p *syntax.PEG) *syntax.Grammar {
	g, err := syntax.NewGrammar("real", p, nil)
	if err != nil {
		panic(err)
	}
	return g
}

// bench times, in one interleaved run, the generated parser (with
// ParseRule's budget), gen's matcher and go-abnf on the inputs of file (hex
// lines), and returns the best of five rounds of each, in ns per byte,
// with the inputs' bytes.
func bench(g *syntax.Grammar, rule, grammarFile string, octets bool, file string) string {
	text, err := os.ReadFile(file)
	if err != nil {
		return err.Error()
	}
	var inputs [][]byte
	total := 0
	for _, h := range strings.Fields(string(text)) {
		b, _ := hex.DecodeString(h)
		inputs = append(inputs, b)
		total += len(b)
	}
	ag, err := abnf.ReadFiles([]string{grammarFile}, &abnf.Options{Octets: octets})
	if err != nil {
		return err.Error()
	}
	m, err := abnf.NewMatcher(ag)
	if err != nil {
		return err.Error()
	}
	src, err := os.ReadFile(grammarFile)
	if err != nil {
		return err.Error()
	}
	if !strings.Contains(string(src), "\r\n") {
		src = []byte(strings.ReplaceAll(string(src), "\n", "\r\n"))
	}
	gg, gerr := goabnf.ParseABNF(src, goabnf.WithRedefineCoreRules(true))
	engines := []func(b []byte) bool{
		func(b []byte) bool { _, f := g.Parse(rule, b, uint64(10000+150*len(b))); return f == nil },
		func(b []byte) bool { ok, _ := m.Match(rule, b); return ok },
		func(b []byte) bool { ok, _ := gg.IsValid(rule, b); return ok },
	}
	if gerr != nil {
		engines = engines[:2]
	}
	best := []time.Duration{1 << 62, 1 << 62, 1 << 62}
	accepted := make([]int, 3)
	for range 5 {
		for e, run := range engines {
			start := time.Now()
			n := 0
			for _, b := range inputs {
				if run(b) {
					n++
				}
			}
			best[e] = min(best[e], time.Since(start))
			accepted[e] = n
		}
	}
	out := fmt.Sprintf("%d %d", len(inputs), total)
	for e := range 3 {
		if e >= len(engines) {
			out += " - -"
			continue
		}
		out += fmt.Sprintf(" %.1f %d", float64(best[e].Nanoseconds())/float64(total), accepted[e])
	}
	if gerr != nil {
		out += " go-abnf: " + strconv.Quote(gerr.Error())
	}
	return out
}

func newParser(p *syntax.PEG, t syntax.Tables) *parser.Parser {
	return parser.MustParser(parser.NewParser("real", p, t))
}

// work returns the least expression budget (pigeon's, the guide's, the
// lookahead's) with which the parse succeeds, 0 if none up to 2^40 does.
func work(g *syntax.Grammar, rule string, b []byte) uint64 {
	if _, f := g.Parse(rule, b, 1<<40); f != nil {
		return 0
	}
	lo, hi := uint64(0), uint64(1<<40) // fails at lo, succeeds at hi
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if _, f := g.Parse(rule, b, mid); f == nil {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			break
		}
		f := strings.Split(line[:len(line)-1], " ")
		i, _ := strconv.Atoi(f[0])
		b, _ := hex.DecodeString(f[1])
		c := cases[i]
		if len(f) > 2 && f[1] == "bench" { // "K bench FILE"
			out.WriteString(bench(c.g, c.rule, c.file, c.octets, f[2]) + "\n")
			out.Flush()
			continue
		}
		if len(f) > 2 { // "K HEX work"
			out.WriteString(strconv.FormatUint(work(c.g, c.rule, b), 10) + "\n")
			out.Flush()
			continue
		}
		p, d, pr, why := "0", "-", "1", "-"
		if _, f := c.g.Parse(c.rule, b, 1<<40); f == nil {
			p = "1"
		}
		if c.dfa != nil {
			d = "0"
			if ok, _ := c.dfa.Run(string(b)); ok {
				d = "1"
			}
		}
		if _, err := c.p.ParseRule(c.rule, string(b)); err != nil {
			pr, why = "0", strconv.Quote(err.Error())
		}
		out.WriteString(p + " " + d + " " + pr + " " + why + "\n")
		if in.Buffered() == 0 {
			out.Flush()
		}
	}
	out.Flush()
}
`

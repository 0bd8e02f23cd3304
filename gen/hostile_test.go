package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/peguri/rfc3986/gen/dfa"
)

// hostileGrammars are the legal but hostile grammars of issues 9 and 20,
// each a few bytes or a long chain: every command of gen must give a result
// or a clean error naming the grammar's position or rule, never a panic, a
// stack overflow or a run away. Each command runs as its own process (the
// test binary re-executed as gen, with GEN_STATS=1), and its work is
// bounded by counts, not times, so that a loaded machine cannot fail the
// test: the steps gen's stages count (package work), the allocations, and
// the peak memory the kernel reports (the 1 GiB). The long chains
// run in full under RFC3986_FULL=1; by default their costliest commands
// (peg, dfa) run on the 5,000-rule chain only.
var hostileGrammars = []struct {
	name, src string
	full      bool // only under RFC3986_FULL=1, for every command but check
}{
	{"an NFA of 1.2 million states", "s = 1100( 1100\"a\" )\n", false},
	{"a DFA of 65,536 states", "s = *(\"a\" / \"b\") \"a\" 15(\"a\" / \"b\")\n", false},
	{"a long string repeated 60,000 times", "s = 60000\"abcdefghijklmnopqrstuvwxyzabcdefghijkl\"\n", false},
	{"an empty grammar", "", false},
	{"a grammar of comments only", "; nothing\n; here\n", false},
	{"300,000 nested parentheses", "s = " + strings.Repeat("(", 300000) + "\"a\"" + strings.Repeat(")", 300000) + "\n", false},
	{"a shortest string of 4 GiB", "s = 65536(65536\"a\")\n", false},
	{"30,000 copies of one character", "s = 30000\"a\"\n", false},
	{"options nested 3,000 deep", "s = " + strings.Repeat("[ \"a\" ", 3000) + strings.Repeat("] ", 3000) + "\n", false},
	{"a chain of 800 rules", chain(800), false},
	{"only recursive rules", "c = \"(\" *c \")\"\nd = \"[\" d \"]\" / \"x\"\n", false},
	{"nested nullable repetitions", "s = *(*(*\"a\"))\n", false},
	{"left recursion, self-embedding", "t = \"y\" / t \" \" t\n", false},
	{"a cycle", "r = s\ns = [ r ]\n", false},
	// Shapes that were quadratic in gen peg: 27 s for one choice of 5,000
	// keywords, 44 s and 1.5 GB for a chain of 6,000 choices.
	{"one choice of 5,000 keywords", keywords(5000), false},
	{"a chain of 4,000 choices", choiceChain(4000), false},
	// Issue 20: nested counted repetition (86 bytes at 24 levels; gen peg
	// took time doubling per level, 190 s at 24), and chains of rules
	// (abnf.Analyze was quadratic: 16 s at 5,000 rules).
	{"counted repetition nested 16 deep", nestedCounts(16), false},
	{"counted repetition nested 24 deep", nestedCounts(24), false},
	{"counted repetition nested 32 deep", nestedCounts(32), false},
	{"a chain of 5,000 rules", refChain(5000), false},
	{"a chain of 100,000 rules", refChain(100000), true},
}

// nestedCounts is r = 2(2(…2("a" / "b")…)), n levels.
func nestedCounts(n int) string {
	return "s = " + strings.Repeat("2(", n) + "\"a\" / \"b\"" + strings.Repeat(")", n) + "\n"
}

// refChain is s = "a" r1, r1 = "a" r2, …: each rule uses the next.
func refChain(n int) string {
	var b strings.Builder
	b.WriteString("s = \"a\" r1\n")
	for i := 1; i < n-1; i++ {
		fmt.Fprintf(&b, "r%d = \"a\" r%d\n", i, i+1)
	}
	fmt.Fprintf(&b, "r%d = \"a\"\n", n-1)
	return b.String()
}

func keywords(n int) string {
	kw := make([]string, n)
	for i := range kw {
		kw[i] = fmt.Sprintf("\"w%05d\"", i)
	}
	return "s = " + strings.Join(kw, " / ") + "\n"
}

func choiceChain(n int) string {
	var b strings.Builder
	for i := range n - 1 {
		fmt.Fprintf(&b, "r%d = r%d / \"a%d\"\n", i, i+1, i)
	}
	fmt.Fprintf(&b, "r%d = \"z\"\n", n-1)
	return b.String()
}

func chain(n int) string {
	var b strings.Builder
	for i := range n - 1 {
		fmt.Fprintf(&b, "r%d = r%d \"a\" / \"b\"\n", i, i+1)
	}
	fmt.Fprintf(&b, "r%d = \"c\"\n", n-1)
	return b.String()
}

// The bounds of one gen process. gen peg's default work budget (500
// million search steps, -total-work) bounds the costliest shapes here (a
// chain of 800 rules: 8.8 s of CPU on this project's loaded 2-core
// machine, 24.5 million allocations): the bounds are that budget and what
// the stages count besides (hostileOther: the most any other command took
// is 22 million steps, gen dfa on the chain of 100,000 rules), about 10 s
// of CPU (the bound), counted. By default the test gives peg a
// tenth of its budgets, which the costliest shapes spend, and gen dfa a
// tenth of its -max-total, to save time; RFC3986_FULL=1 runs the
// defaults.
const (
	hostileTotalWork = 500_000_000
	hostileOther     = 100_000_000
	hostileMallocs   = 60_000_000
	hostileRSS       = 1 << 30
	hostileBudget    = 10 // the divisor of peg's budgets, by default
)

// procUsage is what one gen process cost.
type procUsage struct {
	steps, mallocs int64
	maxRSS         int64 // bytes
}

// statsLine is the line GEN_STATS=1 makes gen print.
var statsLine = regexp.MustCompile(`(?m)^gen stats: steps=(\d+) mallocs=(\d+) alloc-bytes=(\d+)\n`)

// runGenProcess runs gen in a process of its own: this test binary, which
// TestMain turns into gen when GEN_TEST_AS_GEN is set. The process ends
// with the test if it has not ended before.
func runGenProcess(t *testing.T, stdin string, args ...string) (string, string, int, procUsage) {
	t.Helper()
	c := exec.CommandContext(t.Context(), os.Args[0], args...)
	c.Env = append(os.Environ(), "GEN_TEST_AS_GEN=1", "GEN_STATS=1")
	c.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("gen %s: %v", strings.Join(args, " "), err)
	}
	stderr := errb.String()
	if code < 0 || strings.Contains(stderr, "goroutine ") {
		t.Errorf("gen %s: crashed (exit %d):\n%.2000s", strings.Join(args, " "), code, stderr)
	}
	var u procUsage
	if m := statsLine.FindStringSubmatch(stderr); m != nil {
		u.steps, _ = strconv.ParseInt(m[1], 10, 64)
		u.mallocs, _ = strconv.ParseInt(m[2], 10, 64)
		stderr = strings.Replace(stderr, m[0], "", 1)
	} else if code >= 0 {
		t.Errorf("gen %s: no stats line in its standard error:\n%.2000s", strings.Join(args, " "), stderr)
	}
	if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
		u.maxRSS = int64(ru.Maxrss) << 10 // Linux reports KiB (an int32 on 32-bit platforms)
	}
	return out.String(), stderr, code, u
}

// cleanError is what a failure must look like: the file position or a
// rule's name, and why.
var cleanError = regexp.MustCompile(`(h\.abnf:\d+:\d+: |gen \w+: )`)

func TestHostileGrammars(t *testing.T) {
	t.Parallel() // 3 minutes of RFC3986_FULL=1: see TestRealGrammars; it counts its processes' work, not time
	full := os.Getenv("RFC3986_FULL") != ""
	var most procUsage
	for _, hg := range hostileGrammars {
		t.Run(hg.name, func(t *testing.T) {
			f := writeFile(t, "h.abnf", hg.src)
			rule := "s"
			if m := regexp.MustCompile(`(?m)^(\w+) =`).FindStringSubmatch(hg.src); m != nil {
				rule = m[1]
			}
			out := filepath.Join(t.TempDir(), "out")
			for _, args := range [][]string{
				{"check", f},
				{"peg", "-grammar", f, "-o", out + ".peg"},
				{"peg", "-grammar", f, "-start", rule, "-report", "-o", out + ".peg"},
				{"dfa", "-grammar", f, "-o", out + ".go"},
				{"sample", "-grammar", f, "-rule", rule, "-n", "20"},
				{"sample", "-grammar", f, "-rule", rule, "-n", "20", "-near"},
				{"match", "-grammar", f, "-rule", rule},
			} {
				if hg.full && !full && args[0] != "check" {
					continue
				}
				total := int64(hostileTotalWork)
				if !full && args[0] == "peg" {
					total /= hostileBudget
					args = append(args, "-total-work", fmt.Sprint(total), "-inline-work", fmt.Sprint(total/2))
				}
				if !full && args[0] == "dfa" {
					args = append(args, "-max-total", fmt.Sprint(dfa.DefaultMaxTotal/hostileBudget))
				}
				steps, mallocs := total+hostileOther, int64(hostileMallocs)
				stdout, stderr, code, use := runGenProcess(t, strings.Repeat("a", 2000)+"\n(())\ny y\n\n", args...)
				cmd := strings.Join(args[:1], " ")
				if use.steps > steps || use.mallocs > mallocs || use.maxRSS > hostileRSS {
					t.Errorf("gen %s: %d steps, %d allocations and %d MiB of memory; the bounds are %d, %d and %d MiB", strings.Join(args, " "), use.steps, use.mallocs, use.maxRSS>>20, steps, mallocs, hostileRSS>>20)
				}
				most.steps, most.mallocs, most.maxRSS = max(most.steps, use.steps), max(most.mallocs, use.mallocs), max(most.maxRSS, use.maxRSS)
				switch {
				case code == 2:
					t.Errorf("gen %s: usage error: %s", strings.Join(args, " "), stderr)
				case code == 1 && args[0] != "check" && !cleanError.MatchString(stderr):
					t.Errorf("gen %s: failure without a position or a rule:\n%s", cmd, stderr)
				case code == 1 && args[0] == "check" && !strings.Contains(stdout, "error:"):
					t.Errorf("gen check: exit 1 without an error:\n%s", stdout)
				case code == 1 && strings.Count(stderr, "\n") > 1 && args[0] != "check":
					t.Errorf("gen %s: more than one line of error:\n%.2000s", cmd, stderr)
				}
				if testing.Verbose() {
					first, _, _ := strings.Cut(stderr, "\n")
					t.Logf("gen %s: exit %d, %d steps, %d allocations, %d MiB: %.200s", cmd, code, use.steps, use.mallocs, use.maxRSS>>20, first)
				}
			}
		})
	}
	t.Logf("most of any command: %d steps, %d allocations, %d MiB", most.steps, most.mallocs, most.maxRSS>>20)
}

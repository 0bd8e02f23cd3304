package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostileGrammars are the legal but hostile grammars of issue 9, each a few
// bytes: every command of gen must give a result or a clean error naming
// the grammar's position or rule, never a panic, a stack overflow or a run
// away. Each command runs as its own process (the test binary re-executed as
// gen), so that its CPU time and peak memory are the kernel's account of
// them: at most hostileCPU and hostileRSS, the 10 s and 1 GiB. CPU
// time, not wall time, so that a loaded machine does not fail the test; a
// command still running after hostileWall is killed and fails it.
var hostileGrammars = []struct {
	name, src string
}{
	{"an NFA of 1.2 million states", "s = 1100( 1100\"a\" )\n"},
	{"a DFA of 65,536 states", "s = *(\"a\" / \"b\") \"a\" 15(\"a\" / \"b\")\n"},
	{"a long string repeated 60,000 times", "s = 60000\"abcdefghijklmnopqrstuvwxyzabcdefghijkl\"\n"},
	{"an empty grammar", ""},
	{"a grammar of comments only", "; nothing\n; here\n"},
	{"300,000 nested parentheses", "s = " + strings.Repeat("(", 300000) + "\"a\"" + strings.Repeat(")", 300000) + "\n"},
	{"a shortest string of 4 GiB", "s = 65536(65536\"a\")\n"},
	{"30,000 copies of one character", "s = 30000\"a\"\n"},
	{"options nested 3,000 deep", "s = " + strings.Repeat("[ \"a\" ", 3000) + strings.Repeat("] ", 3000) + "\n"},
	{"a chain of 800 rules", chain(800)},
	{"only recursive rules", "c = \"(\" *c \")\"\nd = \"[\" d \"]\" / \"x\"\n"},
	{"nested nullable repetitions", "s = *(*(*\"a\"))\n"},
	{"left recursion, self-embedding", "t = \"y\" / t \" \" t\n"},
	{"a cycle", "r = s\ns = [ r ]\n"},
	// Shapes that were quadratic in gen peg: 27 s for one choice of 5,000
	// keywords, 44 s and 1.5 GB for a chain of 6,000 choices.
	{"one choice of 5,000 keywords", keywords(5000)},
	{"a chain of 4,000 choices", choiceChain(4000)},
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

const (
	hostileCPU  = 10 * time.Second
	hostileRSS  = 1 << 30
	hostileWall = 2 * time.Minute
)

// procUsage is what one gen process cost.
type procUsage struct {
	cpu    time.Duration // user and system
	maxRSS int64         // bytes
}

// runGenProcess runs gen in a process of its own: this test binary, which
// TestMain turns into gen when GEN_TEST_AS_GEN is set.
func runGenProcess(t *testing.T, stdin string, args ...string) (string, string, int, procUsage) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostileWall)
	defer cancel()
	c := exec.CommandContext(ctx, os.Args[0], args...)
	c.Env = append(os.Environ(), "GEN_TEST_AS_GEN=1")
	c.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	if ctx.Err() != nil {
		t.Fatalf("gen %s: still running after %v", strings.Join(args, " "), hostileWall)
	}
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("gen %s: %v", strings.Join(args, " "), err)
	}
	if code < 0 || strings.Contains(errb.String(), "goroutine ") {
		t.Errorf("gen %s: crashed (exit %d):\n%s", strings.Join(args, " "), code, errb.String())
	}
	var u procUsage
	if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
		u.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		u.maxRSS = ru.Maxrss << 10 // Linux reports KiB
	}
	return out.String(), errb.String(), code, u
}

// cleanError is what a failure must look like: the file position or a
// rule's name, and why.
var cleanError = regexp.MustCompile(`(h\.abnf:\d+:\d+: |gen \w+: )`)

func TestHostileGrammars(t *testing.T) {
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
				stdout, stderr, code, use := runGenProcess(t, strings.Repeat("a", 2000)+"\n(())\ny y\n\n", args...)
				cmd := strings.Join(args[:1], " ")
				if use.cpu > hostileCPU || use.maxRSS > hostileRSS {
					t.Errorf("gen %s: %v of CPU and %d MiB of memory; the bound is %v and %d MiB", strings.Join(args, " "), use.cpu, use.maxRSS>>20, hostileCPU, hostileRSS>>20)
				}
				switch {
				case code == 2:
					t.Errorf("gen %s: usage error: %s", strings.Join(args, " "), stderr)
				case code == 1 && args[0] != "check" && !cleanError.MatchString(stderr):
					t.Errorf("gen %s: failure without a position or a rule:\n%s", cmd, stderr)
				case code == 1 && args[0] == "check" && !strings.Contains(stdout, "error:"):
					t.Errorf("gen check: exit 1 without an error:\n%s", stdout)
				}
				if testing.Verbose() {
					first, _, _ := strings.Cut(stderr, "\n")
					t.Logf("gen %s: exit %d, %v CPU, %d MiB: %s", cmd, code, use.cpu.Round(time.Millisecond), use.maxRSS>>20, first)
				}
			}
		})
	}
}

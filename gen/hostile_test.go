package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// hostileGrammars are the legal but hostile grammars of issue 9, each a few
// bytes: every command of gen must give a result or a clean error naming
// the grammar's position or rule, never a panic, a stack overflow or a run
// away. (go test's timeout bounds the time; the test bounds the memory
// allocated.)
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
}

func chain(n int) string {
	var b strings.Builder
	for i := range n - 1 {
		fmt.Fprintf(&b, "r%d = r%d \"a\" / \"b\"\n", i, i+1)
	}
	fmt.Fprintf(&b, "r%d = \"c\"\n", n-1)
	return b.String()
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
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				stdout, stderr, code := runGen(t, strings.Repeat("a", 2000)+"\n(())\ny y\n\n", args...)
				runtime.ReadMemStats(&after)
				cmd := strings.Join(args[:1], " ")
				if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<30 {
					t.Errorf("gen %s: allocated %d MiB", cmd, alloc>>20)
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
					t.Logf("gen %s: exit %d %s", cmd, code, first)
				}
			}
		})
	}
}

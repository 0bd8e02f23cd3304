package abnf_test

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/peguri/rfc3986/abnf"
)

// Hostile grammars and inputs of issue 9. The matcher must answer each
// within bounds: the tests compare work (states and items visited) and
// memory allocated at two input sizes, never wall-clock times, so that they
// hold on any machine; each case runs in well under a second.

func mustMatcher(t testing.TB, src string, opts *abnf.Options) *abnf.Matcher {
	t.Helper()
	g, err := abnf.Read([]abnf.Source{{Name: "h.abnf", Text: []byte(src)}}, opts)
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	m, err := abnf.NewMatcher(g)
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	return m
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

var hostileMatchTests = []struct {
	name, grammar string
	input         func(n int) string // an input of about n units
	want          bool
	n             int     // the smaller size; the larger is 2n
	growth        float64 // the largest ratio of work at 2n and n; 0: 2.5, linear
}{
	{"nested repetitions (issue 9: 2,000 characters took over 60 s)",
		`s = *(*(*"a"))`, func(n int) string { return strings.Repeat("a", n) }, true, 2000, 0},
	{"nested repetitions, rejected at the end",
		`s = *(*(*"a"))`, func(n int) string { return strings.Repeat("a", n) + "b" }, false, 2000, 0},
	{"counted loop of counted loops, not unrolled",
		`s = 1100( 1100"a" )`, func(n int) string { return strings.Repeat("a", n) }, false, 100000, 0},
	{"a long string repeated 60000 times",
		`s = 60000"abcdefghijklmnopqrstuvwxyzabcdefghijkl"`,
		func(n int) string { return strings.Repeat("abcdefghijklmnopqrstuvwxyzabcdefghijkl", n) }, false, 20000, 0},
	{"2^32 characters at least",
		`s = 65536(65536"a")`, func(n int) string { return strings.Repeat("a", n) }, false, 100000, 0},
	{"counted loop with a nullable body",
		`s = 65536( ["a"] )`, func(n int) string { return strings.Repeat("a", n) }, true, 20000, 0},
	{"counted loops of nullable bodies",
		`s = 65536(65536["a"])`, func(n int) string { return strings.Repeat("a", n) }, true, 20000, 0},
	{"counted loop of a variable body, short input",
		`s = 60000(1*3"a")`, func(n int) string { return strings.Repeat("a", n) }, false, 4000, 0},
	{"self-embedding recursion",
		`c = "(" *c ")"`, func(n int) string { return strings.Repeat("(", n) + strings.Repeat(")", n) }, true, 50000, 0},
	{"direct left recursion",
		"list = list \",\" item / item\nitem = \"x\"\n", func(n int) string { return "x" + strings.Repeat(",x", n) }, true, 50000, 0},
	{"indirect left recursion",
		"a = b \"x\" / \"y\"\nb = a \"z\"\n", func(n int) string { return "y" + strings.Repeat("zx", n) }, true, 50000, 0},
	// Earley is cubic on a grammar this ambiguous: every split of the
	// input is a derivation.
	{"ambiguous left recursion (IMAP)",
		`t = "y" / t " " t`, func(n int) string { return "y" + strings.Repeat(" y", n) }, true, 150, 8.5},
	{"tail recursion",
		"ldh = ld / ld ldh\nld = ALPHA / DIGIT / \"-\"\n", func(n int) string { return strings.Repeat("a-1", n) }, true, 50000, 0},
	{"right recursion that is not a tail call",
		"r = \"a\" [r] \"b\"\n", func(n int) string { return strings.Repeat("a", n) + strings.Repeat("b", n) }, true, 50000, 0},
}

func TestMatchHostile(t *testing.T) {
	for _, tt := range hostileMatchTests {
		t.Run(tt.name, func(t *testing.T) {
			m := mustMatcher(t, tt.grammar+"\n", nil)
			rule := mustGrammar(t, tt.grammar+"\n").Rules[0].Name
			var steps [2]int
			var mem [2]uint64
			for i, n := range []int{tt.n, 2 * tt.n} {
				in := []byte(tt.input(n))
				var ok bool
				mem[i] = allocated(func() {
					var err error
					ok, steps[i], err = abnf.MatchSteps(m, rule, in)
					if err != nil {
						t.Fatal(err)
					}
				})
				if ok != tt.want {
					t.Fatalf("Match(%s, %d bytes) = %v, want %v", rule, len(in), ok, tt.want)
				}
			}
			// Twice the input, at most about twice the work and the memory
			// (2.5 allows for fixed costs and slice growth).
			growth := tt.growth
			if growth == 0 {
				growth = 2.5
			}
			if r := float64(steps[1]) / float64(steps[0]); r > growth {
				t.Errorf("work grows by %.2f for twice the input (%d → %d steps)", r, steps[0], steps[1])
			}
			if mem[1] > 1<<20 && float64(mem[1])/float64(mem[0]) > growth {
				t.Errorf("memory grows by %.2f for twice the input (%d → %d bytes)", float64(mem[1])/float64(mem[0]), mem[0], mem[1])
			}
			if mem[1] > 256<<20 {
				t.Errorf("%d bytes allocated for %d bytes of input", mem[1], len(tt.input(2*tt.n)))
			}
		})
	}
}

func mustGrammar(t testing.TB, src string) *abnf.Grammar {
	t.Helper()
	g, err := abnf.ReadString("h.abnf", src)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestMatchHugeCounts matches the inputs at the exact bounds of counted
// loops too large to unroll.
func TestMatchHugeCounts(t *testing.T) {
	if testing.Short() {
		t.Skip("megabytes of input")
	}
	m := mustMatcher(t, "s = 1100( 1100\"a\" )\n", nil)
	in := bytes.Repeat([]byte("a"), 1100*1100)
	for _, tt := range []struct {
		in   []byte
		want bool
	}{{in, true}, {in[1:], false}, {append(in, 'a'), false}} {
		if got, _ := m.Match("s", tt.in); got != tt.want {
			t.Errorf("1100(1100\"a\"): Match(%d a's) = %v, want %v", len(tt.in), got, tt.want)
		}
	}
	m = mustMatcher(t, "s = 60000\"abcdefghijklmnopqrstuvwxyzabcdefghijkl\"\n", nil)
	in = bytes.Repeat([]byte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL"), 60000)
	for _, tt := range []struct {
		in   []byte
		want bool
	}{{in, true}, {in[:len(in)-1], false}, {in[:len(in)-38], false}} {
		if got, _ := m.Match("s", tt.in); got != tt.want {
			t.Errorf("60000\"abc…\": Match(%d bytes) = %v, want %v", len(tt.in), got, tt.want)
		}
	}
}

// TestMatchLongURI: 1 MiB of URI through the Appendix A matcher (issue 9:
// 16 KiB took 632 MB, 64 KiB ran out of memory). Appendix A compiles to
// one NFA, so memory does not grow with the input at all.
func TestMatchLongURI(t *testing.T) {
	m, err := abnf.NewMatcher(rfc3986(t))
	if err != nil {
		t.Fatal(err)
	}
	if !abnf.Simple(m, "URI-reference") {
		t.Error("URI-reference needs calls or counters; want a plain NFA")
	}
	for _, n := range []int{1 << 16, 1 << 20} {
		in := []byte("http://a/" + strings.Repeat("a", n))
		var ok bool
		mem := allocated(func() { ok, _ = m.Match("URI-reference", in) })
		if !ok {
			t.Errorf("URI-reference of %d bytes does not match", len(in))
		}
		if mem > 4<<20 {
			t.Errorf("URI-reference of %d bytes: %d bytes allocated", len(in), mem)
		}
	}
}

// BenchmarkMatchLongURI: one URI of 1 MiB.
func BenchmarkMatchLongURI(b *testing.B) {
	m, err := abnf.NewMatcher(rfc3986(b))
	if err != nil {
		b.Fatal(err)
	}
	in := []byte("http://a/" + strings.Repeat("a/b%20", 1<<20/6))
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if ok, _ := m.Match("URI-reference", in); !ok {
			b.Fatal("no match")
		}
	}
}

// BenchmarkMatchNested: the nested repetitions of issue 9 on 2,000
// characters.
func BenchmarkMatchNested(b *testing.B) {
	m := mustMatcher(b, "s = *(*(*\"a\"))\n", nil)
	in := bytes.Repeat([]byte("a"), 2000)
	b.ReportAllocs()
	for b.Loop() {
		if ok, _ := m.Match("s", in); !ok {
			b.Fatal("no match")
		}
	}
}

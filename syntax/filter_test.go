package syntax

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

type filterNet struct {
	name     string
	net      func() *Net
	alphabet string
	exact    bool // the filter's superset is the language itself
}

// filterNets are networks whose filters the tests check: the ambiguous
// grammars whose invalid inputs made the guide cubic (IMAP's t, white space
// with comma-led runs), where forgetting the stack loses nothing, and
// nesting and hidden left recursion, where it does.
var filterNets = []filterNet{
	// gen rewrites the left recursion of t = "y" / t " " t as a loop:
	// t = "y" *(" " t), still ambiguous.
	{"t = y *(sp t)", func() *Net {
		return buildNet([]string{"t"}, []nx{seq(lit("y"), star(seq(lit(" "), call(0))))})
	}, "y x", true},
	{"s = ws x, ws = *(sp / c), c = , ws", func() *Net {
		return buildNet([]string{"s", "ws", "c"}, []nx{
			seq(call(1), lit("x")),
			star(alt(lit(" "), call(2))),
			seq(lit(","), call(1)),
		})
	}, " ,xy", true},
	{"v = [ v ] / 1", func() *Net {
		return buildNet([]string{"v"}, []nx{alt(seq(lit("["), call(0), lit("]")), lit("1"))})
	}, "[]1", false},
	{"s = b s x / y, b = [b]", func() *Net {
		return buildNet([]string{"s", "b"}, []nx{
			alt(seq(call(1), call(0), lit("x")), lit("y")),
			opt(lit("b")),
		})
	}, "bxy", false},
	{"s = *(s / a)", func() *Net {
		return buildNet([]string{"s"}, []nx{star(alt(call(0), lit("a")))})
	}, "ab", true},
}

// TestFilter: on every input of up to 7 characters over each grammar's
// alphabet, the filter never rejects an input of the language, and where
// it rejects, the input's error (the exact search's farthest prefix) is at
// or before its offset; where the superset is the language, the filter
// rejects every invalid input at its error. It fails when a call's return
// is left out of the approximation (valid inputs rejected), or when the
// offset is that of the last character read rather than of the first one
// refused.
func TestFilter(t *testing.T) {
	for _, c := range filterNets {
		for _, lazy := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/lazy=%v", c.name, lazy), func(t *testing.T) {
				testFilter(t, c, lazy)
			})
		}
	}
}

// rejecter returns the rejects of rule 0's filter: the DFA made at once,
// or the lazy one (which the filters of these small grammars are not).
func rejecter(t testing.TB, n *Net, lazy bool) func(in []byte) (int, bool) {
	if !lazy {
		if f := n.filter(0); f == nil || f.dfa == nil {
			t.Fatal("no filter")
		}
		return func(in []byte) (int, bool) { return n.rejects(0, in, 1<<30) }
	}
	n.states()
	x, start, final := n.filterAutomaton(0)
	if x == nil {
		t.Fatal("no automaton")
	}
	f := n.lazyFilterOf(x, start, final)
	if f == nil {
		t.Fatal("no lazy filter")
	}
	return func(in []byte) (int, bool) { return f.lazy.rejects(in, 1<<30) }
}

func testFilter(t *testing.T, c filterNet, lazy bool) {
	{
		{
			n := c.net()
			rejects := rejecter(t, n, lazy)
			valid, rejected, unknown := 0, 0, 0
			for _, in := range strs(c.alphabet, 7) {
				// (With hidden left recursion, the search of a prefix
				// such as "bbb" never ends: s calls itself at the same
				// offset, with one more "x" to come. It gives up.)
				far, _, match, ok := n.Farthest(0, []byte(in), 1<<16)
				if !ok {
					unknown++
					continue
				}
				off, rej := rejects([]byte(in))
				switch {
				case match && rej:
					t.Fatalf("%q: valid, rejected at %d", in, off)
				case match:
					valid++
				case rej && off < far:
					t.Fatalf("%q: rejected at %d, but viable up to %d", in, off, far)
				case rej:
					rejected++
					if c.exact && off != far {
						t.Fatalf("%q: rejected at %d, the error is at %d", in, off, far)
					}
				case c.exact:
					t.Fatalf("%q: invalid (error at %d), not rejected", in, far)
				}
			}
			t.Logf("%d valid inputs, %d invalid rejected, %d the search gave up on", valid, rejected, unknown)
			if valid == 0 || rejected == 0 {
				t.Error("the inputs test nothing")
			}
		}
	}
}

// strs returns every string of at most n characters over alphabet.
func strs(alphabet string, n int) []string {
	out := []string{""}
	level := []string{""}
	for range n {
		var next []string
		for _, s := range level {
			for _, c := range alphabet {
				next = append(next, s+string(c))
			}
		}
		out = append(out, next...)
		level = next
	}
	return out
}

// TestFilterLong: the filter rejects long invalid inputs of t at their
// errors, in one pass, and lets valid ones through. (Its work is two table
// lookups per character: the test counts none, but a filter that searched
// would not finish on 100,000 bytes. gen's TestGuidedInvalid shows what it
// saves a generated parser.)
func TestFilterLong(t *testing.T) {
	for _, lazy := range []bool{false, true} {
		testFilterLong(t, lazy)
	}
}

func testFilterLong(t *testing.T, lazy bool) {
	rejects := rejecter(t, filterNets[0].net(), lazy)
	for _, size := range []int{200, 2000, 100000} {
		valid := "y" + strings.Repeat(" y", size/2)
		for _, c := range []struct {
			in  string
			off int
		}{
			{valid + " ", len(valid) + 1},
			{valid + "x", len(valid)},
			{valid[:size/2+1] + " " + valid[size/2+1:], size/2 + 2},
		} {
			if valid[size/2+1] != ' ' {
				t.Fatalf("the middle of the input must be a space")
			}
			if off, rej := rejects([]byte(c.in)); !rej || off != c.off {
				t.Errorf("lazy %v, %d bytes: rejects = %d, %v; want %d, true", lazy, len(c.in), off, rej, c.off)
			}
		}
		if _, rej := rejects([]byte(valid)); rej {
			t.Errorf("lazy %v, %d bytes: valid input rejected", lazy, len(valid))
		}
	}
}

// TestFilterLimits: a network whose filter's DFA would pass the limits
// of one made at once gets a lazy one, which makes the states its inputs
// reach, keeps them for the next run, and proves nothing past its states'
// limit or its run's budget; a network that fails Check has no filter.
// Here the DFA needs 2^11 states (the eleventh character from the end is
// an "a"), and 2^15, past the lazy limits.
func TestFilterLimits(t *testing.T) {
	ab := alt(lit("a"), lit("b"))
	fromEnd := func(k int) *Net {
		tail := []nx{lit("a")}
		for range k - 1 {
			tail = append(tail, ab)
		}
		return buildNet([]string{"s"}, []nx{seq(star(ab), seq(tail...))})
	}
	n := fromEnd(11)
	f := n.filter(0)
	if f == nil || f.dfa != nil || f.lazy == nil {
		t.Fatalf("filter = %+v, want a lazy one", f)
	}
	if off, rej := n.rejects(0, []byte("abc"), 1<<20); !rej || off != 2 {
		t.Errorf("rejects(abc) = %d, %v; want 2, true", off, rej)
	}
	// Random input reaches new states: a run with too small a budget
	// proves nothing, and leaves its states for the next, which then
	// needs less.
	rnd := make([]byte, 4000)
	seed := uint32(1)
	for i := range rnd {
		seed = seed*1664525 + 1013904223
		rnd[i] = "ab"[seed>>31]
	}
	bad := append(slices.Clone(rnd), 'c')
	if _, rej := n.rejects(0, bad, 1000); rej {
		t.Error("a run past its budget proved something")
	}
	if off, rej := n.rejects(0, bad, 1<<30); !rej || off != len(rnd) {
		t.Errorf("rejects = %d, %v; want %d, true", off, rej, len(rnd))
	}
	if off, rej := n.rejects(0, bad, 1); !rej || off != len(rnd) {
		t.Errorf("with its states made: rejects = %d, %v; want %d, true within one unit of work", off, rej, len(rnd))
	}
	if got := len(f.lazy.sets); got < 1000 || got > 1<<11 {
		t.Errorf("%d states made, want more than 1,000 and at most 2^11", got)
	}
	// Past the states' limit, runs that need new states prove nothing.
	big := fromEnd(15)
	long := make([]byte, 100000)
	for i := range long {
		seed = seed*1664525 + 1013904223
		long[i] = "ab"[seed>>31]
	}
	long = append(long, 'c')
	if _, rej := big.rejects(0, long, 1<<30); rej {
		t.Error("a lazy filter past its states' limit proved something")
	}
	if got := len(big.filter(0).lazy.sets); got != maxLazyStates {
		t.Errorf("%d states made, want the limit, %d", got, maxLazyStates)
	}
	if off, rej := big.rejects(0, []byte("ac"), 1<<20); !rej || off != 1 {
		t.Errorf("rejects(ac) = %d, %v; want 1, true: the states made serve", off, rej)
	}
	small := buildNet([]string{"s"}, []nx{seq(star(ab), lit("a"), ab, ab)})
	if f := small.filter(0); f == nil || f.dfa == nil {
		t.Fatal("no filter made at once for 8 states")
	}
	if off, rej := small.rejects(0, []byte("abbc"), 0); !rej || off != 3 {
		t.Errorf("rejects(abbc) = %d, %v; want 3, true", off, rej)
	}
	if _, rej := small.rejects(0, []byte("ab\xff"), 0); rej {
		t.Error("bytes that are not UTF-8 rejected by the filter: pigeon's reason must stand")
	}
	if n.filter(-1) != nil || n.filter(1) != nil {
		t.Error("a filter for a rule the network does not have")
	}
	// Many classes: their symbols alone pass the work limit (counted
	// before the symbols are made: helper 38's network of 5,000
	// single-character classes took 5.6 s to fail when only the closures
	// were counted).
	var many []nx
	for c := rune(0x100); c < 0x100+5000; c++ {
		many = append(many, lit(string(c)))
	}
	tail := []nx{lit("a")}
	for range 10 {
		tail = append(tail, ab)
	}
	wide := buildNet([]string{"s", "w"}, []nx{seq(star(alt(many[:2000]...)), call(1), seq(tail...)), alt(many[2000:]...)})
	if wide.filter(0) != nil {
		t.Error("a filter of 5,000 classes was built")
	}
}

// FuzzFilter is TestFilter on inputs of any length over each grammar's
// alphabet: a valid input is never rejected, an invalid one never past its
// error, and exactly at it where the superset is the language (inputs the
// exact search gives up on are skipped), and the lazy filter says what
// the one made at once says.
func FuzzFilter(f *testing.F) {
	f.Add(uint8(0), []byte("y y y y  y"))
	f.Add(uint8(1), []byte(" , ,, ,y"))
	f.Add(uint8(2), []byte("[[[1]]]]"))
	f.Add(uint8(3), []byte("bbyxxx"))
	f.Add(uint8(4), []byte("aaab"))
	nets := make([]*Net, len(filterNets))
	lazies := make([]func([]byte) (int, bool), len(filterNets))
	for i, c := range filterNets {
		nets[i] = c.net()
		lazies[i] = rejecter(f, nets[i], true)
	}
	f.Fuzz(func(t *testing.T, which uint8, raw []byte) {
		if len(raw) > 64 {
			return
		}
		i := int(which) % len(filterNets)
		c, n := filterNets[i], nets[i]
		in := make([]byte, len(raw))
		for k, b := range raw {
			in[k] = c.alphabet[int(b)%len(c.alphabet)]
		}
		far, _, match, ok := n.Farthest(0, in, 1<<18)
		if !ok {
			return
		}
		off, rej := n.rejects(0, in, 1<<30)
		if loff, lrej := lazies[i](in); loff != off || lrej != rej {
			t.Fatalf("%s: %q: the lazy filter says %d, %v; the one made at once %d, %v", c.name, in, loff, lrej, off, rej)
		}
		switch {
		case match && rej:
			t.Fatalf("%s: %q valid, rejected at %d", c.name, in, off)
		case rej && off < far:
			t.Fatalf("%s: %q rejected at %d, viable up to %d", c.name, in, off, far)
		case c.exact && !match && (!rej || off != far):
			t.Fatalf("%s: %q invalid at %d: rejects = %d, %v", c.name, in, far, off, rej)
		}
	})
}

// TestLazyFilterConcurrent: parses running at once share a lazy filter,
// whose states and moves they make under its lock; each gets the answer a
// filter of its own would give (go test -race checks the sharing).
func TestLazyFilterConcurrent(t *testing.T) {
	ab := alt(lit("a"), lit("b"))
	tail := []nx{lit("a")}
	for range 10 {
		tail = append(tail, ab)
	}
	net := func() *Net { return buildNet([]string{"s"}, []nx{seq(star(ab), seq(tail...))}) }
	shared, own := net(), net()
	inputs := make([][]byte, 64)
	seed := uint32(7)
	for i := range inputs {
		in := make([]byte, 200+i*10)
		for k := range in {
			seed = seed*1664525 + 1013904223
			in[k] = "ab"[seed>>31]
		}
		if i%2 == 1 {
			in[len(in)-5] = 'c'
		}
		inputs[i] = in
	}
	type answer struct {
		off int
		rej bool
	}
	want := make([]answer, len(inputs))
	for i, in := range inputs {
		off, rej := own.rejects(0, in, 1<<30)
		want[i] = answer{off, rej}
	}
	got := make([]answer, len(inputs))
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(inputs); i += 8 {
				off, rej := shared.rejects(0, inputs[i], 1<<30)
				got[i] = answer{off, rej}
			}
		}()
	}
	wg.Wait()
	for i := range inputs {
		if got[i] != want[i] {
			t.Errorf("input %d: %v, want %v", i, got[i], want[i])
		}
	}
	if f := shared.filter(0); f == nil || f.lazy == nil {
		t.Fatal("no lazy filter")
	}
}

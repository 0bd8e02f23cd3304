package syntax

import (
	"strings"
	"testing"
)

// filterNets are networks whose filters the tests check: the ambiguous
// grammars whose invalid inputs made the guide cubic (IMAP's t, white space
// with comma-led runs), where forgetting the stack loses nothing, and
// nesting and hidden left recursion, where it does.
var filterNets = []struct {
	name     string
	net      func() *Net
	alphabet string
	exact    bool // the filter's superset is the language itself
}{
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
		t.Run(c.name, func(t *testing.T) {
			n := c.net()
			if n.filter(0) == nil {
				t.Fatal("no filter")
			}
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
				off, rej := n.rejects(0, []byte(in))
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
		})
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
	n := filterNets[0].net()
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
			if off, rej := n.rejects(0, []byte(c.in)); !rej || off != c.off {
				t.Errorf("%d bytes: rejects = %d, %v; want %d, true", len(c.in), off, rej, c.off)
			}
		}
		if _, rej := n.rejects(0, []byte(valid)); rej {
			t.Errorf("%d bytes: valid input rejected", len(valid))
		}
	}
}

// TestFilterLimits: a network whose filter would pass the limits has none
// (the rule is then parsed as before), and proves nothing; a network that
// fails Check has none either. Here the filter's DFA needs 2^11 states:
// the eleventh character from the end is an "a".
func TestFilterLimits(t *testing.T) {
	ab := alt(lit("a"), lit("b"))
	tail := []nx{lit("a")}
	for range 10 {
		tail = append(tail, ab)
	}
	n := buildNet([]string{"s"}, []nx{seq(star(ab), seq(tail...))})
	if n.filter(0) != nil {
		t.Fatal("a filter of 2^11 states was built")
	}
	if _, rej := n.rejects(0, []byte("c")); rej {
		t.Error("no filter, and an input rejected")
	}
	small := buildNet([]string{"s"}, []nx{seq(star(ab), lit("a"), ab, ab)})
	if small.filter(0) == nil {
		t.Fatal("no filter for 8 states")
	}
	if off, rej := small.rejects(0, []byte("abbc")); !rej || off != 3 {
		t.Errorf("rejects(abbc) = %d, %v; want 3, true", off, rej)
	}
	if _, rej := small.rejects(0, []byte("ab\xff")); rej {
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
	wide := buildNet([]string{"s", "w"}, []nx{seq(star(alt(many[:2000]...)), call(1), seq(tail...)), alt(many[2000:]...)})
	if wide.filter(0) != nil {
		t.Error("a filter of 5,000 classes was built")
	}
}

// FuzzFilter is TestFilter on inputs of any length over each grammar's
// alphabet: a valid input is never rejected, an invalid one never past its
// error, and exactly at it where the superset is the language (inputs the
// exact search gives up on are skipped).
func FuzzFilter(f *testing.F) {
	f.Add(uint8(0), []byte("y y y y  y"))
	f.Add(uint8(1), []byte(" , ,, ,y"))
	f.Add(uint8(2), []byte("[[[1]]]]"))
	f.Add(uint8(3), []byte("bbyxxx"))
	f.Add(uint8(4), []byte("aaab"))
	nets := make([]*Net, len(filterNets))
	for i, c := range filterNets {
		nets[i] = c.net()
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
		off, rej := n.rejects(0, in)
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

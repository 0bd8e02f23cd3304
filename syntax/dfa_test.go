package syntax_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/syntax"
)

// table builds the compact form of a DFA over the byte classes given by
// classOf (0: no transition); next[s][c] for states 0 (dead) … n-1.
func table(classOf func(b byte) byte, nclass int, next [][]int, accept []bool, wide bool) *syntax.Table {
	var cls, nx, acc strings.Builder
	for b := 0; b < 256; b++ {
		cls.WriteByte(classOf(byte(b)))
	}
	for _, row := range next {
		for _, n := range row {
			if wide {
				nx.WriteByte(byte(n))
				nx.WriteByte(byte(n >> 8))
			} else {
				nx.WriteByte(byte(n))
			}
		}
	}
	for _, a := range accept {
		if a {
			acc.WriteByte(1)
		} else {
			acc.WriteByte(0)
		}
	}
	return &syntax.Table{States: len(next), NClass: nclass, Wide: wide, Classes: cls.String(), Next: nx.String(), Accept: acc.String()}
}

// "a" [a-z]* "." : state 1 start, 2 in the loop (long enough a class for
// the run-skipping path), 3 accepting.
func abDot(wide bool) *syntax.Machine {
	classOf := func(b byte) byte {
		switch {
		case b == 'a':
			return 1
		case b >= 'b' && b <= 'z':
			return 2
		case b == '.':
			return 3
		}
		return 0
	}
	next := [][]int{
		{0, 0, 0, 0}, // dead
		{0, 2, 0, 0}, // start: "a"
		{0, 2, 2, 3}, // loop on [a-z], "." ends
		{0, 0, 0, 0}, // accept
	}
	return table(classOf, 4, next, []bool{false, false, false, true}, wide).Machine()
}

func TestRun(t *testing.T) {
	tests := []struct {
		in   string
		ok   bool
		fail int
	}{
		{"a.", true, 0},
		{"abcdefghijklmnopqrstuvwxyz.", true, 0},
		{"a" + strings.Repeat("q", 1000) + ".", true, 0},
		{"", false, 0},
		{"a", false, 1},                                     // a prefix of a valid input, not valid
		{"b.", false, 0},                                    // no valid input starts with "b"
		{"abc!.", false, 3},                                 // "!" can never follow "abc"
		{"a" + strings.Repeat("q", 100) + "Q.", false, 101}, // inside a skipped run
		{"a..", false, 2},                                   // nothing follows the end
	}
	for _, wide := range []bool{false, true} {
		m := abDot(wide)
		for _, tt := range tests {
			ok, fail := m.Run(tt.in)
			if ok != tt.ok || !ok && fail != tt.fail {
				t.Errorf("wide=%v Run(%.20q) = %v, %d; want %v, %d", wide, tt.in, ok, fail, tt.ok, tt.fail)
			}
		}
	}
}

func TestExpected(t *testing.T) {
	m := abDot(false)
	for _, tt := range []struct {
		in   string
		off  int
		want []string
	}{
		{"", 0, []string{`"a"`}},
		{"ab", 2, []string{"[.a-z]"}},
		{"a.", 2, []string{"EOF"}},
	} {
		if diff := cmp.Diff(tt.want, m.Expected(tt.in, tt.off)); diff != "" {
			t.Errorf("Expected(%q, %d) (-want +got):\n%s", tt.in, tt.off, diff)
		}
	}
}

func TestNoAllocs(t *testing.T) {
	m := abDot(false)
	in := "a" + strings.Repeat("z", 200) + "."
	if n := testing.AllocsPerRun(100, func() { m.Run(in) }); n != 0 {
		t.Errorf("Run allocates %v times", n)
	}
}

package syntax

import (
	"fmt"
	"strings"
	"testing"
)

// errposNet is the reviewer's grammar: s = r "," q, r = 1*( "a" / "b" )
// "ab", q = "(" r ")" / "[" q "]".
func errposNet() *Net {
	ab := alt(lit("a"), lit("b"))
	return buildNet([]string{"s", "r", "q"}, []nx{
		seq(call(1), lit(","), call(2)),
		seq(ab, star(ab), lit("ab")),
		alt(seq(lit("("), call(1), lit(")")), seq(lit("["), call(2), lit("]"))),
	})
}

// TestNetFarthest: the search finds the longest prefix of the input that
// begins a string of the rule's language, and what could come there.
func TestNetFarthest(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"aab,[(aab)", `10 ["\"]\""]`},
		{"aab,[(aab)]x", `11 ["EOF"]`},
		{"aab,[(aba)]", `9 ["[ab]"]`},
		{"aab,[(aab)],", `11 ["EOF"]`},
		{"aab,[(aab)]", "match"},
		{"", `0 ["[ab]"]`},
		{"aab", `3 ["[,ab]"]`},
		{"x", `0 ["[ab]"]`},
		{"ab\xffab", `2 ["[ab]"]`},
	} {
		off, exp, match, ok := errposNet().Farthest(0, []byte(tc.in), 1<<20)
		got := fmt.Sprintf("%d %q", off, exp)
		if match {
			got = "match"
		}
		if !ok || got != tc.want {
			t.Errorf("%q: %s (ok %v), want %s", tc.in, got, ok, tc.want)
		}
	}
}

// TestNetFarthestWork: the search's work is linear in the input: inputs
// nested n deep that fail at their end are searched within 8 steps a
// byte, and a budget too small gives up (ok false), without panicking,
// saying how far it got.
func TestNetFarthestWork(t *testing.T) {
	n := errposNet()
	for _, d := range []int{10, 100, 1000, 10000} {
		in := "aab," + strings.Repeat("[", d) + "(abab)" + strings.Repeat("]", d-1)
		off, _, match, ok := n.Farthest(0, []byte(in), 8*len(in))
		if !ok || match || off != len(in) {
			t.Errorf("depth %d: offset %d, match %v, ok %v; want %d within %d steps", d, off, match, ok, len(in), 8*len(in))
		}
		// Giving up, it says how far it got: a viable prefix.
		if off, _, _, ok := n.Farthest(0, []byte(in), len(in)/2); ok || off < len(in)/8 || off > len(in) {
			t.Errorf("depth %d: searched within %d steps (ok %v), or gave up at %d, want a prefix of at least %d bytes", d, len(in)/2, ok, off, len(in)/8)
		}
	}
	if _, _, _, ok := n.Farthest(7, []byte("a"), 100); ok {
		t.Error("a rule the network does not have: ok")
	}
}

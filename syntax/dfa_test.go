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

// abDotTable is the table of "a" [a-z]* ".": state 1 start, 2 in the
// loop (long enough a class for the run-skipping path), 3 accepting.
func abDotTable(wide bool) *syntax.Table {
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
	return table(classOf, 4, next, []bool{false, false, false, true}, wide)
}

// abDot is abDotTable's machine.
func abDot(wide bool) *syntax.Machine { return abDotTable(wide).Machine() }

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
		{"a.", 2, []string{"end of input"}},
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

func TestTableCheck(t *testing.T) {
	for _, tt := range []struct {
		name   string
		change func(*syntax.Table)
		want   string // the error; "" for none
	}{
		{"as emitted", func(*syntax.Table) {}, ""},
		{"wide", func(d *syntax.Table) {
			d.Wide, d.Next = true, "\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x02\x00"
		}, ""},
		{"no start state", func(d *syntax.Table) { d.States, d.Next, d.Accept = 1, "\x00\x00", "\x00" }, "dfa: 1 states: a table has at least the dead state and the start"},
		{"too many states for bytes", func(d *syntax.Table) { d.States = 257 }, "dfa: 257 states do not fit transitions of 8 bits"},
		{"no classes", func(d *syntax.Table) { d.NClass = 0 }, "dfa: 0 byte classes: want 1 to 256"},
		{"classes not one per byte", func(d *syntax.Table) { d.Classes = d.Classes[:255] }, "dfa: 255 byte classes listed, want one per byte (256)"},
		{"a byte's class out of range", func(d *syntax.Table) { d.Classes = "\x02" + d.Classes[1:] }, "dfa: byte 0x00 in class 2, want below 2"},
		{"transitions short", func(d *syntax.Table) { d.Next = d.Next[:5] }, "dfa: 5 bytes of transitions, want 6 (3 states × 2 classes × 1)"},
		{"a transition out of range", func(d *syntax.Table) { d.Next = "\x00\x00\x00\x03\x00\x02" }, "dfa: state 1, class 1 goes to state 3, want below 3"},
		{"accept flags short", func(d *syntax.Table) { d.Accept = "\x00\x00" }, "dfa: 2 accept flags, want one per state (3)"},
		{"an accept flag that is not 0 or 1", func(d *syntax.Table) { d.Accept = "\x00\x00\x02" }, "dfa: state 2 has accept flag 2, want 0 or 1"},
		{"the dead state accepts", func(d *syntax.Table) { d.Accept = "\x01\x00\x01" }, "dfa: the dead state accepts"},
	} {
		d := aPlus()
		tt.change(d)
		err := d.Check()
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s: Check() = %q, want %q", tt.name, got, tt.want)
		}
		if err == nil {
			// A table that passes runs on any input without going out
			// of range.
			m := d.Machine()
			for _, in := range []string{"", "a", "aaa", "ab", "\xff"} {
				ok, _ := m.Run(in)
				if want := in != "" && strings.Trim(in, "a") == ""; ok != want {
					t.Errorf("%s: Run(%q) = %v, want %v", tt.name, in, ok, want)
				}
			}
		}
	}
}

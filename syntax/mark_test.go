package syntax_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/syntax"
)

// wordMarker marks, in "a" [a-z]* ".", the end of the first "a" (mark 1),
// every "q" (mark 2: the last is recorded) and the "." (mark 3). Its
// state, 0 before the "a" and 1 after, is the DFA's.
func wordMarker(q int, b byte) (int, uint8) {
	switch {
	case q == 0:
		return 1, 1
	case b == 'q':
		return 1, 2
	case b == '.':
		return 1, 3
	}
	return 1, 0
}

func TestRunMarks(t *testing.T) {
	long := strings.Repeat("z", 100)
	for _, wide := range []bool{false, true} {
		m, err := abDotTable(wide).Marked(wordMarker)
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct {
			in    string
			ok    bool
			fail  int
			marks syntax.Marks
		}{
			{"a.", true, 2, syntax.Marks{1: 1, 3: 2}},
			{"aq.", true, 3, syntax.Marks{1: 1, 2: 2, 3: 3}},
			{"a" + long + "q" + long + "q" + long + ".", true, 304, syntax.Marks{1: 1, 2: 203, 3: 304}},
			{"a" + long + "q" + long, false, 202, syntax.Marks{1: 1, 2: 102}},
			{"a" + long + "!", false, 101, syntax.Marks{1: 1}},
			{"b", false, 0, syntax.Marks{}},
		} {
			var marks syntax.Marks
			ok, fail, _ := m.RunMarks(tt.in, &marks)
			marks[0] = 0 // scratch
			if ok != tt.ok || fail != tt.fail {
				t.Errorf("wide=%v RunMarks(%.20q) = %v, %d; want %v, %d", wide, tt.in, ok, fail, tt.ok, tt.fail)
			}
			if diff := cmp.Diff(tt.marks, marks); diff != "" {
				t.Errorf("wide=%v RunMarks(%.20q): marks (-want +got):\n%s", wide, tt.in, diff)
			}
			// The verdict and the reason are Run's and Why's.
			if rok, rfail := m.Run(tt.in); rok != ok || rfail != fail && !ok {
				t.Errorf("wide=%v %.20q: Run = %v, %d; RunMarks %v, %d", wide, tt.in, rok, rfail, ok, fail)
			}
			if !ok {
				_, why := m.Why(tt.in)
				_, _, st := m.RunMarks(tt.in, &marks)
				if diff := cmp.Diff(why, m.StopAt(tt.in, fail, st)); diff != "" {
					t.Errorf("wide=%v %.20q: StopAt (-Why +StopAt):\n%s", wide, tt.in, diff)
				}
			}
		}
	}
}

func TestMarkedErrors(t *testing.T) {
	// The parity of the letters read: the DFA's loop state does not know
	// it.
	parity := func(q int, b byte) (int, uint8) { return 1 - q, 0 }
	if _, err := abDotTable(false).Marked(parity); err == nil || !strings.Contains(err.Error(), "does not determine it") {
		t.Errorf("a marker the DFA does not determine: %v", err)
	}
	big := func(q int, b byte) (int, uint8) { return 0, syntax.MaxMark + 1 }
	if _, err := abDotTable(false).Marked(big); err == nil || !strings.Contains(err.Error(), "mark 8") {
		t.Errorf("a mark above MaxMark: %v", err)
	}
	bad := abDotTable(false)
	bad.Accept = "\x01\x00\x00\x01"
	if _, err := bad.Marked(wordMarker); err == nil {
		t.Error("Marked accepted a table that fails Check")
	}
	defer func() {
		if recover() == nil {
			t.Error("RunMarks on a machine without marks did not panic")
		}
	}()
	var marks syntax.Marks
	abDotTable(false).Machine().RunMarks("a.", &marks)
}

func TestRunMarksNoAllocs(t *testing.T) {
	m, err := abDotTable(false).Marked(wordMarker)
	if err != nil {
		t.Fatal(err)
	}
	in := "a" + strings.Repeat("zq", 100) + "."
	var marks syntax.Marks
	if n := testing.AllocsPerRun(100, func() { m.RunMarks(in, &marks) }); n != 0 {
		t.Errorf("RunMarks allocates %v times", n)
	}
}

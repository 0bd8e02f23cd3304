package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/peg"
)

// TestGuidedRightRecursion: a list written as a right recursion, whose
// every item could end it (values = val "," values / val [ "," ], TOML's
// and many RFCs' way), with the decision between the two alternatives
// left to the exact recognizer. The least budget with which
// syntax.Grammar.Parse accepts (or gets the error) was about 4n² for n
// bytes (418,273 at 643 bytes; ParseRule refused valid arrays from about
// 200 bytes): every origin's list of ends held every later item. It must
// be linear: within ParseRule's budget, and at most 2.5 times as large
// when the input doubles; the invalid inputs get their errors, and
// smaller budgets give up, with no error that is not the input's.
func TestGuidedRightRecursion(t *testing.T) {
	const common = "val = \"1\" / array\narray = \"[\" [ values ] \"]\"\n"
	for _, c := range []struct{ src, afterComma string }{
		{common + "values = val \",\" values / val [ \",\" ]\n", `[1[\]]`},
		// The tail call made by another rule at its own origin (rest
		// with no spaces): helper 45's case, quadratic while links were
		// made only for calls after the caller's origin.
		{common + "values = val \",\" rest / val [ \",\" ]\nrest = *\" \" values\n", `[ 1[\]]`},
	} {
		testGuidedRightRecursion(t, c.src, c.afterComma)
	}
}

// testGuidedRightRecursion is TestGuidedRightRecursion's test of one
// grammar, where afterComma is the class of what may follow a comma.
func testGuidedRightRecursion(t *testing.T, src, afterComma string) {
	g, err := abnf.ReadString("list.abnf", src)
	if err != nil {
		t.Fatal(err)
	}
	res, err := peg.Translate(g, peg.Options{Start: []string{"val"}, Package: "main", Witnesses: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.PEG), "Enter(") {
		t.Fatal("the grammar no longer leaves a decision to the recognizer: the test needs another")
	}
	sizes := []int{40, 80, 160, 320, 640, 1280}
	// want: "" to accept, or the error's class and its offset from the
	// end of the input.
	shapes := []struct {
		name, before, item, after, want string
		back                            int
	}{
		{"flat", "[1", ",1", "]", "", 0},
		{"trailing comma", "[1", ",1", ",]", "", 0},
		{"nested", "[[1", ",1", "],[1,1]]", "", 0},
		{"lists of lists", "[[1]", ",[1]", "]", "", 0},
		{"unclosed", "[1", ",1", "", `[,\]]`, 0},
		{"two commas", "[1", ",1", ",,1]", afterComma, 3},
	}
	var inputs []string
	for _, s := range shapes {
		for _, n := range sizes {
			inputs = append(inputs, s.before+strings.Repeat(s.item, n)+s.after)
		}
	}
	const main = `package main

import (
	"fmt"
	"os"

	"github.com/peguri/rfc3986/syntax"
)

func main() {
	g, err := syntax.NewGrammar("list", PEG(), nil)
	if err != nil {
		panic(err)
	}
	for _, in := range os.Args[1:] {
		show := func(f *syntax.Failure) string {
			if f == nil {
				return "<nil>"
			}
			return fmt.Sprintf("%d %q %s", f.Offset, f.Expected, f.Msg)
		}
		_, f := g.Parse("val", []byte(in), 10000+150*uint64(len(in)))
		res := show(f)
		// The least budget with which Parse gives that answer. Below
		// it, the parse gives up: never a mismatch that is not the
		// input's error (it was offset 0, nothing expected, where the
		// guide had said no and the searches after it ran out).
		lo, hi := uint64(1), uint64(1)<<24
		for lo < hi {
			m := (lo + hi) / 2
			if _, f := g.Parse("val", []byte(in), m); show(f) == res {
				hi = m
			} else {
				lo = m + 1
			}
		}
		for _, m := range []uint64{lo / 8, lo / 4, lo / 2, lo - 1} {
			if _, bf := g.Parse("val", []byte(in), m); bf == nil || bf.Msg == "" {
				res = fmt.Sprintf("budget %d: %s", m, show(bf))
			}
		}
		fmt.Printf("%d %d %s\n", len(in), lo, res)
	}
}
`
	out := runPigeon(t, res.PEG, main, inputs...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(inputs) {
		t.Fatalf("%d lines for %d inputs:\n%s", len(lines), len(inputs), out)
	}
	for i, line := range lines {
		in, s := inputs[i], shapes[i/len(sizes)]
		var size, need int
		if _, err := fmt.Sscanf(line, "%d %d", &size, &need); err != nil || size != len(in) {
			t.Fatalf("%.30q…: %q: %v", in, line, err)
		}
		t.Logf("%.40q…, %s, %d bytes: least budget %d (%.1f per byte)", src[len(src)-40:], s.name, size, need, float64(need)/float64(size))
		res := strings.TrimSpace(line[len(fmt.Sprintf("%d %d ", size, need)):])
		want := "<nil>"
		if s.want != "" {
			want = fmt.Sprintf("%d %q", size-s.back, []string{s.want})
		}
		if res != want {
			t.Errorf("%s, %d bytes: %s, want %s", s.name, size, res, want)
		}
		if budget := parseRuleBase + parseRulePerByte*size; need > budget {
			t.Errorf("%s, %d bytes: a budget of %d needed, ParseRule's is %d", s.name, size, need, budget)
		}
		if i%len(sizes) > 0 {
			var prev int
			fmt.Sscanf(lines[i-1], "%d %d", new(int), &prev)
			if float64(need) > 2.5*float64(prev) {
				t.Errorf("%s, %d bytes: a budget of %d needed, more than 2.5 times the %d of half the items", s.name, size, need, prev)
			}
		}
	}
}

package peg_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/peg"
)

// TestRandomLeftRecursion: random sets of rules that call each other at
// the left (cycles through several rules, which the rewriting cuts with
// one hub or more), translated and run by the PEG interpreter, agree with
// the matcher on every string of up to four characters and on samples; and the PEG stays
// linear in the grammar's size (issue 25: Kleene's algorithm over the
// whole set squared it at each rule).
func TestRandomLeftRecursion(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 1))
	count := 60 // of which 5 need two hubs or three
	if os.Getenv("RFC3986_FULL") != "" {
		count = 600
	}
	tried := 0
	for i := 0; tried < count && i < 20*count; i++ {
		n := 2 + rng.IntN(5)
		var b strings.Builder
		for r := range n {
			var alts []string
			for range 1 + rng.IntN(3) {
				switch rng.IntN(4) {
				case 0:
					alts = append(alts, fmt.Sprintf("%q", []string{"a", "b", "ab"}[rng.IntN(3)]))
				default: // a left call, followed by a token or a call
					tail := fmt.Sprintf("%q", []string{"a", "b", "c", "bc"}[rng.IntN(4)])
					if rng.IntN(4) == 0 {
						tail = fmt.Sprintf("r%d", rng.IntN(n))
					}
					alts = append(alts, fmt.Sprintf("r%d %s", rng.IntN(n), tail))
				}
			}
			fmt.Fprintf(&b, "r%d = %s\n", r, strings.Join(alts, " / "))
		}
		src := b.String()
		g, err := abnf.ReadString("left.abnf", src)
		if err != nil {
			continue
		}
		bad := false
		for _, p := range abnf.Check(g, []string{"r0"}) {
			bad = bad || p.Severity == abnf.SeverityError
		}
		a := abnf.Analyze(g)
		if bad || len(a.LeftRecursive()) == 0 {
			continue
		}
		tried++
		res, err := peg.Translate(g, peg.Options{Start: []string{"r0"}, Witnesses: -1})
		if err != nil {
			t.Fatalf("%s\n%v", src, err)
		}
		if max := 2000 + 400*len(src); len(res.PEG) > max {
			t.Errorf("%s: a PEG of %d bytes, want at most %d (linear in the grammar)", src, len(res.PEG), max)
		}
		prog, err := peg.LoadPEG(string(res.PEG))
		if err != nil {
			t.Fatalf("%s\n%v\n%s", src, err, res.PEG)
		}
		if diffs := agree(t, g, res, prog, "r0", 40, "abc", 4); len(diffs) > 0 {
			t.Errorf("grammar:\n%s\nPEG:\n%s\ndisagreements: %v", src, res.PEG, diffs[:min(5, len(diffs))])
		}
	}
	if tried < count*2/3 {
		t.Errorf("only %d left-recursive grammars", tried)
	}
}

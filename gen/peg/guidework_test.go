package peg_test

import (
	"strings"
	"testing"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/peg"
)

// TestGuardWork: exact guards and the exact recognizer cost work in
// proportion to the text they decide, not to the rest of the input at
// every iteration of a repetition (issue 25). Counted in the steps of the
// lookahead and the guide, run by the PEG interpreter: within ParseRule's
// default budget (10,000 plus 150 per byte), and, for the tel URIs, a few
// steps per byte whatever their length.
func TestGuardWork(t *testing.T) {
	for _, c := range []struct {
		file, rule, name, in string
		perByte              float64 // the most steps per byte, 0 for the budget alone
	}{
		{"rfc3966.abnf", "telephone-uri", "tel ;a×64", "tel:2" + strings.Repeat(";a", 64) + ";phone-context=a", 3},
		{"rfc3966.abnf", "telephone-uri", "tel ;a×640", "tel:2" + strings.Repeat(";a", 640) + ";phone-context=a", 3},
		{"rfc3966.abnf", "telephone-uri", "tel ;a×6400", "tel:2" + strings.Repeat(";a", 6400) + ";phone-context=a", 3},
		{"rfc8610-cddl.abnf", "cddl", "CDDL a=[( // )]", "a=[(" + strings.Repeat(" ", 16) + "//" + strings.Repeat(" ", 16) + ")]", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := abnf.ReadFiles([]string{"../../testdata/grammars/" + c.file}, nil)
			if err != nil {
				t.Fatal(err)
			}
			res, prog := translate(t, g, peg.Options{Start: []string{c.rule}, Witnesses: -1})
			budget := 10000 + 150*len(c.in)
			ok, _, steps, err := prog.GuideRun(res.Entries[c.rule], []byte(c.in), res, budget)
			per := float64(steps) / float64(len(c.in))
			t.Logf("%d bytes: %d steps (%.1f per byte)", len(c.in), steps, per)
			if !ok || err != nil {
				t.Fatalf("valid input rejected with ParseRule's budget (%d): %v", budget, err)
			}
			if c.perByte > 0 && per > c.perByte {
				t.Errorf("%.1f steps per byte, want at most %v", per, c.perByte)
			}
		})
	}
}

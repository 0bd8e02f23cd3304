package peg_test

import (
	"strings"
	"testing"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/peg"
)

// rfc5322Message536 is a valid sample of RFC 5322's message (nested
// comments and folding white space between received-tokens).
const rfc5322Message536 = "reTuRN-pAtH:<>\r\nREceiVeD:9}^|~.z.!#&%/./@\t   [\a\t   \r\n\tZ^\t\t\t \r\n\t \t \t\r\n\t  \t \r\n\t\r\n\t  \t]\t  \t\r\n \t '*+=\t \r\n\t \t\t\t() \r\n \r\n\t   \t\r\n  \t\t\t\r\n (\\e\t) \t \t +~~(() \r\n\t \f \t\t  \\\f\r\n  \t\t(8))(\\\x00\\\f\t\t \r\n\t \t\r\n\t \\~ \t \t\r\n (\t\t\t \r\n \t\t\r\n   \t\r\n\t \t)\r\n \t \t )   \t\t\r\n\t \t\t \r\n\t\r\n \t  \t\r\n\t\t (] \r\n  \t\t\t\r\n \t\t\r\n \t  \r\n\t  (\t\t '\t\t\r\n\t   \x7f\t\t  \t\r\n \r\n\t\r\n \t \t )\\\t ( ))((\t\t3(\\\nu) \t \t\r\n \t\t  \\\t) )  \t\t (\t \r\n\t\t\t\t(    \r\n \t\t\t \r\n  \t\t \f\\\r( \r\n\t\t\t\r\n )(\r\n\t \t \t)  \t\t \r\n\t \t )\t\r\n\tw\t  \t\t\r\n ) \t  \t\r\n \t\t\r\n\t\t \t \r\n   \r\n\t \t\t@\r\n [\b \r\n\t^\t\t  \\\r]<@\t(\t\t  ) \t  \t(!  \t\r\n\t\t  \t\r\n \t \r\n  \r\n\t\t\t ())!:{@?>;9OCT6999:93A\r\n"

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
		// The valid sample of TestRealGrammars on which ParseRule gave up
		// (103,294 steps; 65,113 since a call of the parser's invocations
		// is searched as a frame of its own, Guide.callReach).
		{"rfc5322.abnf", "message", "RFC 5322 message, 536 bytes", rfc5322Message536, 0},
		// Comments between the received-tokens: each token's [CFWS] ends
		// anywhere in the run, and the lists of its ends from every
		// position of the run took 14,834 steps per byte.
		{"rfc5322.abnf", "message", "RFC 5322 Received, (a)×400", "Received:a" + strings.Repeat(" (a) ", 400) + "b" + strings.Repeat(" (a) ", 400) + "c;1 Jan 2000 00:00 +0000\r\n", 100},
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

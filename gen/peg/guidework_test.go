package peg_test

import (
	"strings"
	"testing"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/peg"
)

func TestGuideWorkProbe(t *testing.T) {
	for _, c := range []struct {
		file, rule string
		in         string
	}{
		{"rfc3966.abnf", "telephone-uri", "tel:2" + strings.Repeat(";a", 64) + ";phone-context=a"},
		{"rfc3966.abnf", "telephone-uri", "tel:2" + strings.Repeat(";a", 640) + ";phone-context=a"},
		{"rfc8610-cddl.abnf", "cddl", "a=[(" + strings.Repeat(" ", 16) + "//" + strings.Repeat(" ", 16) + ")]"},
	} {
		g, err := abnf.ReadFiles([]string{"../../testdata/grammars/" + c.file}, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := peg.Translate(g, peg.Options{Start: []string{c.rule}, Witnesses: -1})
		if err != nil {
			t.Fatal(err)
		}
		prog, err := peg.LoadPEG(string(res.PEG))
		if err != nil {
			t.Fatal(err)
		}
		ok, psteps, steps, err := prog.GuideRun(res.Entries[c.rule], []byte(c.in), res, 1<<40)
		t.Logf("%s %d bytes: ok %v, %d peg steps, %d guide steps (%.1f/byte), %v; fallbacks %d", c.rule, len(c.in), ok, psteps, steps, float64(steps)/float64(len(c.in)), err, res.Report.Fallbacks)
	}
}

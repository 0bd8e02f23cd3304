package peg_test

import (
	"os"
	"testing"

	"github.com/peguri/rfc3986/gen/abnf"
	"github.com/peguri/rfc3986/gen/peg"
)

func TestProfGrammar(t *testing.T) {
	f, rule := os.Getenv("PROF_FILE"), os.Getenv("PROF_RULE")
	if f == "" {
		t.Skip()
	}
	g, err := abnf.ReadFiles([]string{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := peg.Translate(g, peg.Options{Start: []string{rule}, Witnesses: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(res.Report.Proven, res.Report.Guarded, res.Report.Fallbacks)
}

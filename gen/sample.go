package main

import (
	"fmt"
	"io"

	"github.com/peguri/rfc3986/abnf"
)

func cmdSample(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("sample", stderr)
	var files grammarFiles
	fs.Var(&files, "grammar", grammarUsage)
	rule := fs.String("rule", "", "the `rule` to derive samples from")
	n := fs.Int("n", 10, "number of samples")
	seed := fs.Uint64("seed", 1, "random seed")
	near := fs.Bool("near", false, "print near-misses (samples with one to three edits) instead")
	quoted := addQuotedFlag(fs)
	rf := addReadFlags(fs)
	if err := fs.Parse(args); err != nil {
		return flagError{err}
	}
	if *rule == "" || fs.NArg() > 0 {
		return usageError{"sample needs -rule"}
	}
	if *n < 0 {
		return usageError{fmt.Sprintf("-n must be 0 or more, not %d", *n)}
	}
	g, err := loadClean(files, rf.options(), stderr)
	if err != nil {
		return err
	}
	if g.Rule(*rule) == nil {
		return fmt.Errorf("no rule %s in the grammar", *rule)
	}
	s := abnf.NewSampler(g, *seed)
	for range *n {
		var b []byte
		if *near {
			b, err = s.NearMiss(*rule)
		} else {
			b, err = s.Sample(*rule)
		}
		if err != nil {
			return err
		}
		if err := writeInput(stdout, b, *quoted); err != nil {
			return err
		}
	}
	return nil
}

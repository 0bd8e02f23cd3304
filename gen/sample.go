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
	maxLine := addLineFlag(fs)
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
	if *maxLine <= 0 {
		return usageError{"-max-line must be positive"}
	}
	if err := rf.check(); err != nil {
		return err
	}
	rf.starts = []string{*rule}
	g, err := loadClean(files, rf, stderr)
	if err != nil {
		return err
	}
	if _, err := ruleFlag(g, *rule); err != nil {
		return err
	}
	s := abnf.NewSampler(g, *seed)
	for i := range *n {
		var b []byte
		if *near {
			b, err = s.NearMiss(*rule)
		} else {
			b, err = s.Sample(*rule)
		}
		if err != nil {
			return err
		}
		if len(b) > *maxLine {
			return fmt.Errorf("sample %d: %d bytes, longer than %d (-max-line raises the limit)", i+1, len(b), *maxLine)
		}
		if err := writeInput(stdout, b, *quoted); err != nil {
			return ioError{err}
		}
	}
	return nil
}

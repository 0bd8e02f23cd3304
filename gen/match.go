package main

import (
	"fmt"
	"io"

	"github.com/peguri/rfc3986/abnf"
)

func cmdMatch(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("match", stderr)
	var files grammarFiles
	fs.Var(&files, "grammar", grammarUsage)
	rule := fs.String("rule", "", "the `rule` to match")
	quoted := addQuotedFlag(fs)
	maxLine := addLineFlag(fs)
	maxMatch := addMatchFlag(fs)
	rf := addReadFlags(fs)
	if err := fs.Parse(args); err != nil {
		return flagError{err}
	}
	if *rule == "" || fs.NArg() > 0 {
		return usageError{"match needs -rule and reads inputs from standard input"}
	}
	if *maxLine <= 0 {
		return usageError{"-max-line must be positive"}
	}
	if *maxMatch <= 0 {
		return usageError{"-max-match must be positive"}
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
	m, err := abnf.NewMatcher(g)
	if err != nil {
		return err
	}
	m.MaxWorkPerByte = *maxMatch
	n := 0
	return eachInput(stdin, *quoted, *maxLine, func(line []byte) error {
		n++
		ok, err := matchLine(m, *rule, line)
		if err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		if ok {
			_, err = io.WriteString(stdout, "1\n")
		} else {
			_, err = io.WriteString(stdout, "0\n")
		}
		if err != nil {
			return ioError{err}
		}
		return nil
	})
}

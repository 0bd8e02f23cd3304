package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/peguri/rfc3986/abnf"
)

func cmdCheck(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("check", stderr)
	start := fs.String("start", "", "comma-separated start `rules` (default: the rules no rule references)")
	var overrides grammarFiles
	fs.Var(&overrides, "override", "`rule` whose later definition replaces the earlier one (repeatable)")
	rf := addReadFlags(fs)
	if err := fs.Parse(args); err != nil {
		return flagError{err}
	}
	if err := rf.check(); err != nil {
		return err
	}
	rf.override = overrides
	if *start != "" {
		rf.starts = strings.Split(*start, ",")
	}
	g, err := load(fs.Args(), rf, io.Discard) // the problems below list the warnings
	var el abnf.ErrorList
	if err != nil && !errors.As(err, &el) {
		return err
	}
	var starts []string
	if *start != "" {
		starts = strings.Split(*start, ",")
		if len(el) == 0 {
			if err := startFlag(g, starts); err != nil {
				return err
			}
		}
	}
	nerr := len(el)
	a := abnf.Analyze(g)
	if len(el) == 0 {
		fmt.Fprintf(stdout, "rules (%d):\n", len(g.Rules))
		for _, r := range g.Rules {
			var tags []string
			if r.Core {
				tags = append(tags, "core")
			}
			if a.RuleNullable(r) {
				tags = append(tags, "nullable")
			}
			for _, d := range r.Defs[1:] {
				if d.Override {
					tags = append(tags, "overridden at "+d.Pos.String())
				} else {
					tags = append(tags, "=/ at "+d.Pos.String())
				}
			}
			tag := ""
			if len(tags) > 0 {
				tag = " (" + strings.Join(tags, "; ") + ")"
			}
			fmt.Fprintf(stdout, "  %-16s %s%s\n", r.Name, r.Pos, tag)
		}
		var roots []string
		for _, r := range abnf.Roots(g) {
			roots = append(roots, r.Name)
		}
		fmt.Fprintf(stdout, "possible start rules: %s\n", strings.Join(roots, ", "))
	}
	fmt.Fprintln(stdout, "problems:")
	n := 0
	// Errors and warnings are listed on standard output, with the rest of
	// the report, and each is also a line on standard error, as every
	// failure of gen is (docs/gen.md).
	for _, e := range el {
		fmt.Fprintf(stdout, "  %s: error: %s\n", e.Pos, e.Msg)
		fmt.Fprintf(stderr, "%s: error: %s\n", e.Pos, e.Msg)
		n++
	}
	for _, w := range g.Warnings {
		fmt.Fprintf(stdout, "  %s\n", w)
		fmt.Fprintf(stderr, "%s\n", w)
		n++
	}
	if len(el) == 0 {
		for _, p := range abnf.Check(g, starts) {
			fmt.Fprintf(stdout, "  %s\n", p)
			n++
			if p.Severity == abnf.SeverityError {
				fmt.Fprintf(stderr, "%s\n", p)
				nerr++
			}
		}
	}
	if n == 0 {
		fmt.Fprintln(stdout, "  none")
	}
	if nerr > 0 {
		return failed{}
	}
	return nil
}

package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/resolve"
)

// components writes the five components as the RFC names them, with
// "undefined" for an undefined one.
func components(c parser.Parts) string {
	q := func(s string, defined bool) string {
		if !defined {
			return "undefined"
		}
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("scheme=%s authority=%s path=%q query=%s fragment=%s",
		q(c.Scheme, c.HasScheme), q(c.Authority(), c.HasAuthority), c.Path, q(c.Query, c.HasQuery), q(c.Fragment, c.HasFragment))
}

// writeTrace writes resolve -trace's steps for people: each step's section
// and pseudocode, T after it when it changed, the merge, and the
// remove_dot_segments table in the layout of §5.2.4's example when a dot
// segment was removed.
func writeTrace(w io.Writer, tr *resolve.Trace) {
	field(w, "mode", tr.Mode)
	field(w, "Base", components(tr.Base))
	field(w, "R", components(tr.Reference))
	var last parser.Parts
	for i, s := range tr.Steps {
		for j, line := range s.Code {
			label := ""
			if j == 0 {
				label = "§" + s.Section
			}
			fmt.Fprintf(w, "%-9s %s\n", label, line)
		}
		if m := s.Merge; m != nil {
			fmt.Fprintf(w, "%-9s merge(%q, %q) = %q (%s)\n", "", m.BasePath, m.RefPath, m.Result, m.Rule)
		}
		if s.Dots != nil && removesDots(s.Dots) {
			writeDots(w, s.Dots)
		}
		if i == 0 || s.T != last {
			fmt.Fprintf(w, "%-9s T: %s\n", "", components(s.T))
		}
		last = s.T
	}
	if tr.Guarded {
		fmt.Fprintf(w, "%-9s the path begins with \"//\" and there is no authority: written with \"/.\" in front (§3.3)\n", "")
	}
}

// removesDots reports whether a rule other than E (moving a segment)
// applied.
func removesDots(d []resolve.DotStep) bool {
	for _, s := range d {
		if strings.Contains("ABCD", s.Rule) {
			return true
		}
	}
	return false
}

// writeDots writes a remove_dot_segments table as §5.2.4 prints its
// example.
func writeDots(w io.Writer, d []resolve.DotStep) {
	width := len("OUTPUT BUFFER")
	for _, s := range d {
		width = max(width, len(s.Output))
	}
	fmt.Fprintf(w, "%-9s STEP   %-*s   INPUT BUFFER\n", "", width, "OUTPUT BUFFER")
	for _, s := range d {
		step := " 2" + s.Rule + ":"
		switch s.Rule {
		case "1":
			step = " 1 :"
		case "3":
			step = " 3 :"
		}
		fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("%-9s %s   %-*s   %s", "", step, width, s.Output, s.Input), " "))
	}
}

// writeSteps writes normalize -explain's changes for people.
func writeSteps(w io.Writer, steps []resolve.NormalStep) {
	if len(steps) == 0 {
		field(w, "steps", "none: already in normal form")
		return
	}
	for _, s := range steps {
		before, after := fmt.Sprintf("%q", s.Before), fmt.Sprintf("%q", s.After)
		if !s.DefinedBefore {
			before = "undefined"
		}
		if !s.DefinedAfter {
			after = "undefined"
		}
		sec := "§" + s.Section
		if strings.HasPrefix(s.Section, "RFC") {
			sec = s.Section
		}
		fmt.Fprintf(w, "%-9s %s %s: %s → %s\n", sec, s.Name, s.Component, before, after)
		fmt.Fprintf(w, "%-9s   = %s\n", "", s.URI)
	}
}

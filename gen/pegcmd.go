package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/peguri/rfc3986/gen/peg"
)

func cmdPeg(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("peg", stderr)
	var files grammarFiles
	fs.Var(&files, "grammar", grammarUsage)
	out := fs.String("o", "", "write the PEG to `file` (default: standard output)")
	report := fs.Bool("report", false, "print the translation report (every rewrite and why) instead of the PEG, unless -o is given")
	start := fs.String("start", "", "comma-separated start `rules` (default: every rule)")
	def := fs.String("default", "", "the default entrypoint's start `rule` (default: the first rule no rule references)")
	capture := fs.String("capture", "", "comma-separated `rules` that become parse tree nodes (default: every rule that is not a single character set)")
	nocapture := fs.String("nocapture", "", "comma-separated `rules` left out of the parse tree")
	pkg := fs.String("package", "parser", "Go `package` of the generated parser")
	lim := addLimitFlags(fs)
	fs.IntVar(&lim.Witnesses, "witnesses", 200, "`samples` per start rule searched for a witness of each fallback decision (-report); -1: none")
	rf := addReadFlags(fs)
	if err := fs.Parse(args); err != nil {
		return flagError{err}
	}
	if fs.NArg() > 0 {
		return usageError{"peg takes no arguments; grammars come with -grammar"}
	}
	if err := checkPackage(*pkg); err != nil {
		return err
	}
	if *capture != "" && *nocapture != "" {
		return usageError{"-capture and -nocapture are alternatives: give one"}
	}
	if err := lim.check(); err != nil {
		return err
	}
	if lim.Witnesses == 0 {
		lim.Witnesses = -1
	}
	if err := rf.check(); err != nil {
		return err
	}
	rf.starts = split(*start)
	g, err := loadClean(files, rf, stderr)
	if err != nil {
		return err
	}
	if err := startFlag(g, split(*start)); err != nil {
		return err
	}
	if *def != "" && g.Rule(*def) == nil {
		return fmt.Errorf("-default: no rule %s in the grammar", *def)
	}
	opts := peg.Options{
		Start:     split(*start),
		Default:   *def,
		NoCapture: split(*nocapture),
		Package:   *pkg,
		Header:    header("peg", args, files),
		Origin:    origin("peg", args, files),

		MaxStates:  lim.MaxStates,
		MaxGuard:   lim.MaxGuard,
		InlineWork: lim.InlineWork,
		TotalWork:  lim.TotalWork,
		MaxPigeon:  lim.MaxPigeon,
		Witnesses:  lim.Witnesses,
	}
	if *capture != "" {
		opts.Capture = split(*capture)
	}
	res, err := peg.Translate(g, opts)
	if err != nil {
		return err
	}
	if *report {
		if _, err := res.Report.WriteTo(stdout); err != nil {
			return ioError{err}
		}
	}
	switch {
	case *out != "":
		if err := writeOutput(*out, res.PEG); err != nil {
			return ioError{err}
		}
	case !*report:
		if _, err := stdout.Write(res.PEG); err != nil {
			return ioError{err}
		}
	}
	return nil
}

func split(s string) []string {
	if s == "" {
		return nil
	}
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// limitFlags are gen peg's limits, which gen fidelity takes too: its
// translation must be the one gen peg makes with the same flags, and the
// limit errors name these flags.
type limitFlags struct{ peg.Options }

func addLimitFlags(fs *flag.FlagSet) *limitFlags {
	lim := &limitFlags{}
	fs.IntVar(&lim.MaxStates, "max-states", peg.DefaultMaxStates, "most NFA `states` of a start rule inlined whole (past it, its rules are translated one by one; a rule alone past it is an error)")
	fs.IntVar(&lim.MaxGuard, "max-guard", peg.DefaultMaxGuard, "most DFA `states` of an exact guard (past it, the decision falls back to the exact recognizer)")
	fs.IntVar(&lim.InlineWork, "inline-work", peg.DefaultInlineWork, "most search `steps` proving the decisions of one inlined start rule (past it, the rule is translated modularly)")
	fs.IntVar(&lim.TotalWork, "total-work", peg.DefaultTotalWork, "most search `steps` proving decisions in all (past it, the remaining start rules are translated modularly)")
	fs.IntVar(&lim.MaxPigeon, "max-pigeon", peg.DefaultMaxPigeon, "most `units` (about 5 µs each) the PEG may cost pigeon: bytes weighted by 2 to the nesting of groups without ?, * or +, and labels × code blocks per rule")
	return lim
}

func (lim *limitFlags) check() error {
	for _, l := range []struct {
		name string
		v    int
	}{{"max-states", lim.MaxStates}, {"max-guard", lim.MaxGuard}, {"inline-work", lim.InlineWork}, {"total-work", lim.TotalWork}, {"max-pigeon", lim.MaxPigeon}} {
		if l.v <= 0 {
			return usageError{fmt.Sprintf("-%s must be positive", l.name)}
		}
	}
	return nil
}

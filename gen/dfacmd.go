package main

import (
	"fmt"
	"go/token"
	"io"
	"os"
	"slices"
	"strings"
	"unicode"

	"github.com/peguri/rfc3986/gen/dfa"
	"github.com/peguri/rfc3986/internal/appendixb"
)

func cmdDFA(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("dfa", stderr)
	var files grammarFiles
	fs.Var(&files, "grammar", grammarUsage)
	out := fs.String("o", "", "write the Go tables to `file`")
	report := fs.Bool("report", false, "print NFA, DFA and minimal DFA sizes and byte classes per rule")
	start := fs.String("start", "", "comma-separated `rules` to compile (default: every rule that reaches no self-embedding recursion)")
	pkg := fs.String("package", "parser", "Go `package` of the tables")
	diag := fs.Bool("diagnostics", true, "emit per-state diagnostics, so that errors name the grammar's rules and what could come next")
	tree := fs.String("tree", "", "also emit, for each rule compiled, a function that builds pigeon's parse tree without pigeon, read from pigeon's Go output `file` for this grammar (see syntax.Grammar.Tree)")
	walk := fs.String("walk", "", "also emit, for each of these comma-separated `rules` (rules it compiles, whose DFA determines the split), its DFA with the marks of RFC 3986 Appendix B's split as Go code, which package parser's Parse runs instead of the tables (see syntax.WalkFunc)")
	rf := addReadFlags(fs)
	var opts dfa.Options
	fs.IntVar(&opts.MaxNFA, "max-nfa", dfa.DefaultMaxNFA, "most NFA `states` per rule (and nodes per rule with repetitions written out)")
	fs.IntVar(&opts.MaxDFA, "max-dfa", dfa.DefaultMaxDFA, "most DFA `states` per rule during subset construction")
	fs.IntVar(&opts.MaxWork, "max-work", dfa.DefaultMaxWork, "most NFA `states` visited by subset construction per rule (bounds its time)")
	fs.IntVar(&opts.MaxTotal, "max-total", dfa.DefaultMaxTotal, "most NFA `states` of all the rules compiled, in all")
	fs.IntVar(&opts.MaxDiagnose, "max-diagnose", dfa.DefaultMaxDiagnose, "most `work` of the diagnostics, states and byte classes diagnosed over all the rules (past it, a rule's errors name bytes rather than rules: gen dfa says which)")
	if err := fs.Parse(args); err != nil {
		return flagError{err}
	}
	if fs.NArg() > 0 {
		return usageError{"dfa takes no arguments; grammars come with -grammar"}
	}
	if *out == "" && !*report {
		return usageError{"dfa needs -o, -report or both"}
	}
	if err := checkPackage(*pkg); err != nil {
		return err
	}
	if opts.MaxNFA <= 0 || opts.MaxDFA <= 0 || opts.MaxWork <= 0 || opts.MaxTotal <= 0 || opts.MaxDiagnose <= 0 {
		return usageError{"dfa limits must be positive"}
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
	c, err := dfa.NewCompiler(g, opts)
	if err != nil {
		return err
	}
	rules := split(*start)
	if len(rules) == 0 {
		if rules, err = c.DefaultStart(); err != nil {
			return err
		}
	}
	ms, err := c.Build(rules)
	if err != nil {
		return err
	}
	if *report {
		fmt.Fprint(stdout, dfa.Report(ms))
	}
	if *out == "" {
		return nil
	}
	for _, m := range ms {
		cs := c.Charset(m)
		m.Charset = &cs
	}
	if *diag {
		var short []string
		for _, m := range ms {
			if err := c.Diagnose(m); err != nil {
				return err
			}
			if m.DiagBudget {
				short = append(short, m.Rule)
			}
		}
		if len(short) > 0 {
			// The tables are right without them, but errors name bytes,
			// not the grammar's rules: say so, and what to raise.
			fmt.Fprintf(stderr, "gen dfa: the diagnostics' budget (-max-diagnose %d) is spent: approximate or no diagnostics for %s; raise -max-diagnose for errors that name rules\n", opts.MaxDiagnose, strings.Join(short, ", "))
		}
	}
	if err := setWalks(ms, split(*walk)); err != nil {
		return err
	}
	var tc *dfa.TreeCode
	if *tree != "" {
		src, err := os.ReadFile(*tree)
		if err != nil {
			return ioError{err}
		}
		rules := make([]string, len(ms))
		for i, m := range ms {
			rules[i] = m.Rule
		}
		if tc, err = dfa.Trees(src, rules); err != nil {
			return fmt.Errorf("-tree %s: %w", *tree, err)
		}
		for _, r := range rules {
			if tc.Skipped[r] == dfa.NoEntrypoint {
				// syntax.NewGrammar would refuse the tables at run time.
				return fmt.Errorf("%s: compiled to a DFA, but not a start rule of the PEG that %s was made from: add it to gen peg -start, or leave it out of gen dfa -start", r, *tree)
			}
		}
		if *report {
			for _, r := range rules {
				if why, ok := tc.Skipped[r]; ok {
					fmt.Fprintf(stdout, "tree %s: pigeon's (%s)\n", r, why)
				}
			}
		}
	}
	src, err := dfa.EmitTrees(*pkg, header("dfa", args, files), ms, tc)
	if err != nil {
		return err
	}
	if err := writeOutput(*out, src); err != nil {
		return ioError{err}
	}
	return nil
}

// checkPackage says whether -package names a Go package: an identifier, not
// a keyword, not "_" (what gen writes would not compile).
func checkPackage(name string) error {
	if !token.IsIdentifier(name) || name == "_" {
		return usageError{fmt.Sprintf("-package %q: not a Go package name (an identifier, not a keyword)", name)}
	}
	return nil
}

// setWalks writes the walk of each rule of -walk (ABNF rule names are
// case-insensitive), with Appendix B's marks (what package parser folds
// into its URI rules' DFAs): the function named walk and the rule's name,
// its tables walk and the walk's number, which no function's name can
// be (a rule's name begins with a letter).
func setWalks(ms []*dfa.Machine, rules []string) error {
	taken := map[string]bool{}
	done := map[int]bool{}
	for k, r := range rules {
		i := slices.IndexFunc(ms, func(m *dfa.Machine) bool { return strings.EqualFold(m.Rule, r) })
		if i < 0 {
			return usageError{fmt.Sprintf("-walk %s: not a rule gen dfa compiles (see -start)", r)}
		}
		if done[i] {
			return usageError{fmt.Sprintf("-walk %s: given twice", r)}
		}
		done[i] = true
		base := "walk" + strings.Map(func(c rune) rune {
			if c < 128 && (unicode.IsLetter(c) || unicode.IsDigit(c)) {
				return c
			}
			return '_'
		}, ms[i].Rule)
		name := base
		for n := 2; taken[name]; n++ {
			name = fmt.Sprintf("%s_%d", base, n)
		}
		taken[name] = true
		if err := ms[i].SetWalk(name, fmt.Sprintf("walk%d", k), appendixb.Marker); err != nil {
			return fmt.Errorf("-walk %w", err)
		}
	}
	return nil
}

// Command gen reads ABNF grammars and derives everything else from them: an
// exact matcher, samples, a PEG for pigeon, and fidelity reports that check a
// generated parser against the grammar.
//
// Usage:
//
//	gen check [-start RULE,…] [FILE…]
//	gen match [-grammar FILE]… -rule RULE
//	gen sample [-grammar FILE]… -rule RULE [-n N] [-seed S] [-near]
//
// With no grammar files, gen uses RFC 3986 Appendix A (grammar/rfc3986.abnf,
// embedded). Several files are read in order as one grammar: later files may
// add alternatives to earlier rules with "=/".
//
// check lists the rules, the possible start rules (those no rule references)
// and every problem found, one per line as file:line:col: severity: message;
// it exits 1 if any is an error.
//
// match reads inputs from standard input, one per line — every line is an
// input, the empty line included; a trailing carriage return is part of the
// input — and prints 1 or 0 for each: whether the whole line matches RULE
// under ABNF's meaning.
//
// sample prints N strings derived from RULE, one per line, deterministic
// for a seed; with -near, near-misses instead (samples with one to three
// edits, which may or may not match).
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/peguri/rfc3986/gen/abnf"
	"github.com/peguri/rfc3986/grammar"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// usageError is reported with exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

const usage = `usage:
  gen check [-start RULE,…] [FILE…]
  gen match [-grammar FILE]… -rule RULE            < inputs
  gen sample [-grammar FILE]… -rule RULE [-n N] [-seed S] [-near]
  gen peg [-grammar FILE]… [-start R,…] [-capture R,…|-nocapture R,…] [-o FILE] [-report]
  gen fidelity [-grammar FILE]… -rule RULE [-n N] [-seed S] [-in FILE|-]
  gen dfa [-grammar FILE]… [-start R,…] [-o FILE] [-report]
`

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmds := map[string]func([]string, io.Reader, io.Writer, io.Writer) error{
		"check":    cmdCheck,
		"match":    cmdMatch,
		"sample":   cmdSample,
		"peg":      cmdPeg,
		"fidelity": cmdFidelity,
		"dfa":      cmdDFA,
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "gen: unknown command %q\n%s", args[0], usage)
		return 2
	}
	out := bufio.NewWriter(stdout)
	err := cmd(args[1:], stdin, out, stderr)
	if ferr := out.Flush(); err == nil && ferr != nil {
		err = ferr
	}
	var ue usageError
	var fail failed
	var fe flagError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &fe):
		return 2 // the flag package has said why
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "gen %s: %s\n%s", args[0], ue.msg, usage)
		return 2
	case errors.As(err, &fail):
		return 1
	}
	fmt.Fprintf(stderr, "gen %s: %v\n", args[0], err)
	return 1
}

// flagError is a flag parsing error, already reported by the flag package.
type flagError struct{ error }

// failed means the command ran and found what it reports as failure (errors
// in a grammar, disagreements); it has already said why.
type failed struct{}

func (failed) Error() string { return "failed" }

// grammarFiles is a repeatable -grammar flag.
type grammarFiles []string

func (g *grammarFiles) String() string     { return strings.Join(*g, ",") }
func (g *grammarFiles) Set(s string) error { *g = append(*g, s); return nil }

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("gen "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// load reads the grammar files in order, or the embedded RFC 3986 grammar.
func load(files []string, opts *abnf.Options) (*abnf.Grammar, error) {
	if len(files) == 0 {
		return abnf.Read([]abnf.Source{{Name: grammar.RFC3986Name, Text: grammar.RFC3986}}, opts)
	}
	return abnf.ReadFiles(files, opts)
}

// loadClean is load for commands that need a usable grammar: it also refuses
// grammars with errors found by abnf.Check.
func loadClean(files []string, stderr io.Writer) (*abnf.Grammar, error) {
	g, err := load(files, nil)
	if err != nil {
		var el abnf.ErrorList
		if errors.As(err, &el) {
			for _, e := range el {
				fmt.Fprintln(stderr, e)
			}
			return nil, failed{}
		}
		return nil, err
	}
	bad := false
	for _, p := range abnf.Check(g, nil) {
		if p.Severity == abnf.SeverityError {
			fmt.Fprintln(stderr, p)
			bad = true
		}
	}
	if bad {
		return nil, failed{}
	}
	return g, nil
}

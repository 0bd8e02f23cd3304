// Command gen reads ABNF grammars and derives everything else from them: an
// exact matcher, samples, a PEG for pigeon, and fidelity reports that check a
// generated parser against the grammar.
//
// Usage:
//
//	gen check [-start RULE,…] [-octets] [-max-nesting N] [GRAMMAR…]
//	gen match [-grammar GRAMMAR]… -rule RULE [-quoted] [-octets] [-max-nesting N]
//	gen sample [-grammar GRAMMAR]… -rule RULE [-n N] [-seed S] [-near] [-quoted] [-octets] [-max-nesting N]
//	gen peg, gen fidelity, gen dfa: see the usage text (gen with no arguments)
//
// Every limit of peg and dfa (automaton sizes, search work) has a flag that
// raises it, and passing one is an error naming the rule, or, where the
// translation can do without (peg's work budgets), a warning in the report:
// a decision left unproven is settled by the exact recognizer, so limits
// cost proofs, never exactness.
//
// A GRAMMAR is an ABNF file or the name of a grammar embedded in gen:
// rfc3986 (RFC 3986 Appendix A, grammar/rfc3986.abnf), rfc6874 (RFC 6874
// zone identifiers) or rfc3987 (RFC 3987 IRIs), the last two to read after
// rfc3986; a file of one of those names is written ./rfc3986. With no
// grammar, gen uses rfc3986. Several grammars are read in order as one
// grammar: later ones may add alternatives to earlier rules with "=/".
//
// gen runs from any module that requires github.com/peguri/rfc3986, as
// go run github.com/peguri/rfc3986/gen. The files peg and dfa write start
// with a header that records the command and gen's version ("(devel)" when
// gen is built from a checkout, as with go run ./gen, or from a module
// whose go.mod replaces this one with a directory).
//
// Every command that reads a grammar takes -octets and -max-nesting. With
// -octets, numeric values are octets (bytes 0–255, as RFC 3629's
// UTF8-octets means them) rather than Unicode code points matched in UTF-8,
// the default; a value above %xFF is then an error. -max-nesting (default
// 1000) is the deepest nesting of groups and options read; deeper is an
// error at file:line:col.
//
// check lists the rules, the possible start rules (those no rule references)
// and every problem found, one per line as file:line:col: severity: message;
// it exits 1 if any is an error. A grammar with no rules is an error.
//
// match reads inputs from standard input and prints 1 or 0 for each: whether
// the whole input matches RULE under ABNF's meaning.
//
// sample prints N strings derived from RULE, one per line, deterministic
// for a seed; with -near, near-misses instead (samples with one to three
// edits, which may or may not match). A rule whose shortest string is
// longer than 1 MiB is refused, by name.
//
// # Inputs and outputs, one per line
//
// match, sample and fidelity -in read or write one input per line, in one of
// two modes:
//
//   - raw (the default): every line is an input, the empty line included;
//     only the "\n" ends it, so a trailing carriage return is part of the
//     input. An input cannot hold a line feed.
//   - quoted (-quoted): every line is a Go double-quoted string, as
//     strconv.Quote writes it ("GET / HTTP/1.1\r\n", "\x00\xff"), and the
//     input is its value, so that inputs holding CR, LF, NUL or invalid
//     UTF-8 survive. A "\r" after the closing quote is ignored. A line that
//     does not unquote stops the command with its line number, exit status
//     1, after the verdicts of the lines before it.
//
// Exit status: 0 on success, 1 when the command fails (a grammar with
// errors, a disagreement, an input line that does not unquote), 2 on a
// usage error.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/grammar"
	"github.com/peguri/rfc3986/internal/lines"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// usageError is reported with exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

const usage = `usage:
  gen check [-start RULE,…] [GRAMMAR…]
  gen match [-grammar GRAMMAR]… -rule RULE [-quoted]  < inputs
  gen sample [-grammar GRAMMAR]… -rule RULE [-n N] [-seed S] [-near] [-quoted]
  gen peg [-grammar GRAMMAR]… [-start R,…] [-capture R,…|-nocapture R,…] [-package P] [-o FILE] [-report]
  gen fidelity [-grammar GRAMMAR]… -rule RULE [-n N] [-seed S] [-in FILE|-] [-quoted]
  gen dfa [-grammar GRAMMAR]… [-start R,…] [-package P] [-o FILE] [-report]
GRAMMAR: an ABNF file, or an embedded grammar: rfc3986 (the default), rfc6874, rfc3987
limits (an error names the rule and the flag; gen peg -h, gen dfa -h):
  peg, fidelity: -max-states -max-guard -inline-work -total-work (peg also -witnesses)
  dfa: -max-nfa -max-dfa -max-work
every command that reads a grammar also takes:
  -octets          numeric values are octets, not code points in UTF-8
  -max-nesting N   deepest nesting of groups and options read (default 1000, at most 10000)
-quoted: one Go double-quoted string per line (strconv.Quote), for inputs
  with CR, LF, NUL or invalid UTF-8; default: raw lines, a trailing CR kept
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
	err := safely(func() error { return cmd(args[1:], stdin, out, stderr) })
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

// safely runs f, turning a panic — a broken invariant of gen, never an
// expected outcome: every limit and bad input is an error of its own — into
// an error, so that gen always ends with a message and an exit status.
func safely(f func() error) (err error) {
	defer func() {
		if e := recover(); e != nil {
			err = fmt.Errorf("internal error (a bug of gen; please report it with the grammar and the command): %v", e)
		}
	}()
	return f()
}

// flagError is a flag parsing error, already reported by the flag package.
type flagError struct{ error }

// failed means the command ran and found what it reports as failure (errors
// in a grammar, disagreements); it has already said why.
type failed struct{}

func (failed) Error() string { return "failed" }

// grammarUsage is the help of -grammar.
const grammarUsage = "ABNF `file`, or the name of an embedded grammar: rfc3986, rfc6874, rfc3987 (repeatable, read in order; default: rfc3986, RFC 3986 Appendix A)"

// grammarFiles is a repeatable -grammar flag.
type grammarFiles []string

func (g *grammarFiles) String() string     { return strings.Join(*g, ",") }
func (g *grammarFiles) Set(s string) error { *g = append(*g, s); return nil }

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("gen "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// load reads the grammars in order — each the name of an embedded grammar
// (rfc3986, rfc6874, rfc3987) or an ABNF file — or, with none, the embedded
// RFC 3986 grammar.
func load(files []string, opts *abnf.Options) (*abnf.Grammar, error) {
	if len(files) == 0 {
		files = []string{defaultGrammar}
	}
	return grammar.Read(files, opts)
}

// defaultGrammar is the grammar of a command given none: RFC 3986
// Appendix A, embedded.
const defaultGrammar = "rfc3986"

// readFlags are the flags of every command that reads a grammar.
type readFlags struct {
	octets  bool
	nesting int
}

// addReadFlags registers -octets and -max-nesting on fs.
func addReadFlags(fs *flag.FlagSet) *readFlags {
	rf := &readFlags{}
	fs.BoolVar(&rf.octets, "octets", false, "numeric values are octets (bytes 0-255, as in RFC 3629's UTF8-octets), not code points matched in UTF-8")
	fs.IntVar(&rf.nesting, "max-nesting", abnf.DefaultMaxNesting, "deepest nesting of groups and options to read")
	return rf
}

// options returns the reader's options the flags ask for.
func (rf *readFlags) options() *abnf.Options {
	return &abnf.Options{Octets: rf.octets, MaxNesting: rf.nesting}
}

// addQuotedFlag registers -quoted, the I/O mode of match, sample and
// fidelity -in.
func addQuotedFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("quoted", false, "one Go double-quoted string per line (strconv.Quote), so that inputs may hold CR, LF, NUL or invalid UTF-8")
}

// eachInput calls f for every input of r, in the raw or quoted line mode.
func eachInput(r io.Reader, quoted bool, f func(in []byte) error) error {
	if quoted {
		return lines.EachQuoted(r, f)
	}
	return lines.Each(r, f)
}

// writeInput writes one input as a line, quoted or raw.
func writeInput(w io.Writer, b []byte, quoted bool) error {
	var err error
	if quoted {
		_, err = io.WriteString(w, strconv.Quote(string(b))+"\n")
	} else {
		_, err = fmt.Fprintf(w, "%s\n", b)
	}
	return err
}

// loadClean is load for commands that need a usable grammar: it also refuses
// grammars with errors found by abnf.Check.
func loadClean(files []string, opts *abnf.Options, stderr io.Writer) (*abnf.Grammar, error) {
	g, err := load(files, opts)
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

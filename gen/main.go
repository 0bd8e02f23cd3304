// Command gen reads ABNF grammars and derives everything else from them: an
// exact matcher, samples, a PEG for pigeon, DFA tables (with the functions
// that build pigeon's parse trees without pigeon, -tree), and fidelity
// reports that check a generated parser against the grammar.
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
// # Limits
//
// Every input gen reads is bounded: a grammar file larger than
// -max-grammar bytes (default 16 MiB, every command) and an input line
// longer than -max-line bytes (default 16 MiB: match, fidelity -in; and
// every sample sample writes) stop the command with one line of error, exit
// status 1, after the output of the lines before it.
//
// gen keeps a soft memory limit of 768 MiB unless GOMEMLIMIT is set. With
// GEN_STATS=1 in its environment it prints, after the command, the work it
// did as counts (gen stats: steps=… mallocs=… alloc-bytes=…), which tests
// bound instead of time; docs/gen.md says what a step is.
//
// # Leniency
//
// The reader follows RFC 5234 §4, with two leniencies kept by default (rules
// may be indented; lines may end in LF) and the ones -lenient allows, each
// with a warning on standard error (gen check also lists it): elements of
// a concatenation written without white space between them ("a""b").
//
// # Exit status
//
// The same as the uri command's: 0 on success; 1 when the grammar or an
// input is invalid or passes a limit (a grammar with errors, a
// disagreement, an input line that does not unquote or is too long, a
// translation limit, a -rule or -start naming no rule of the grammar); 2 on
// a usage error (a bad flag or flag value, an unknown command); 3 on an I/O
// error (a file that cannot be read or written, standard output closed,
// the go command that fidelity runs failing).
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/internal/work"
	"github.com/peguri/rfc3986/grammar"
	"github.com/peguri/rfc3986/internal/lines"
)

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		// A soft limit: past it the collector runs more often, which keeps
		// gen within 1 GiB on grammars of 100,000 rules (it peaked at
		// 1.1 GB with the default of collecting at twice the live heap)
		// for a tenth more time; a grammar that needs more still runs.
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// defaultMemoryLimit is gen's soft memory limit when GOMEMLIMIT is not set.
const defaultMemoryLimit = 768 << 20

// Exit statuses, as the uri command's.
const (
	exitOK      = 0
	exitInvalid = 1 // the grammar or an input is invalid, or passes a limit
	exitUsage   = 2
	exitIO      = 3
)

// usageError is reported with exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// ioError is an error reading or writing a file or a stream, or running
// the go command: exit status 3.
type ioError struct{ err error }

func (e ioError) Error() string { return e.err.Error() }
func (e ioError) Unwrap() error { return e.err }

const usage = `usage:
  gen check [-start RULE,…] [GRAMMAR…]
  gen match [-grammar GRAMMAR]… -rule RULE [-quoted]  < inputs
  gen sample [-grammar GRAMMAR]… -rule RULE [-n N] [-seed S] [-near] [-quoted]
  gen peg [-grammar GRAMMAR]… [-start R,…] [-default R] [-capture R,…|-nocapture R,…] [-package P] [-o FILE] [-report]
  gen fidelity [-grammar GRAMMAR]… -rule RULE [-n N] [-seed S] [-in FILE|-] [-quoted] [-keep DIR]
  gen dfa [-grammar GRAMMAR]… [-start R,…] [-package P] [-tree PIGEON.go] [-walk R,…] [-o FILE] [-report]
GRAMMAR: an ABNF file, or an embedded grammar: rfc3986 (the default), rfc6874, rfc3987
limits (an error names the rule and the flag; gen peg -h, gen dfa -h):
  peg, fidelity: -max-states -max-guard -inline-work -total-work -max-pigeon (peg also -witnesses)
  dfa: -max-nfa -max-dfa -max-work -max-total -max-diagnose
every command that reads a grammar also takes:
  -octets          numeric values are octets, not code points in UTF-8
  -lenient         accept what RFC 5234 forbids but grammars write ("a""b"), with a warning
  -max-nesting N   deepest nesting of groups and options read (default 1000, at most 10000)
  -max-grammar N   largest grammar file read, in bytes (default 16 MiB)
match, fidelity -in, sample: -max-line N, the longest input line (default 16 MiB)
match, fidelity -in: -max-match N, the matcher's steps per byte of a line (default 10000)
-quoted: one Go double-quoted string per line (strconv.Quote), for inputs
  with CR, LF, NUL or invalid UTF-8; default: raw lines, a trailing CR kept
exit status: 0 ok, 1 invalid grammar or input, or a limit, 2 usage error, 3 I/O error
`

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		fmt.Fprint(stderr, usage)
		return exitUsage
	case args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help":
		// Asked for: the answer, on standard output, and success.
		fmt.Fprint(stdout, usage)
		return exitOK
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
		return exitUsage
	}
	out := bufio.NewWriter(stdout)
	err := safely(func() error { return cmd(args[1:], stdin, out, stderr) })
	if os.Getenv("GEN_STATS") != "" {
		printStats(stderr)
	}
	if ferr := out.Flush(); ferr != nil && (err == nil || errors.As(err, new(failed))) {
		err = ioError{fmt.Errorf("writing the output: %w", ferr)}
	}
	var ue usageError
	var fail failed
	var fe flagError
	var ie ioError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK // gen CMD -h: the flag package has printed the flags
	case errors.As(err, &fe):
		return exitUsage // the flag package has said why
	case errors.As(err, &ue):
		// The command's usage, its flags, as gen CMD -h prints them.
		fmt.Fprintf(stderr, "gen %s: %s\n", args[0], ue.msg)
		_ = cmd([]string{"-h"}, strings.NewReader(""), io.Discard, stderr)
		return exitUsage
	case errors.As(err, &fail):
		return exitInvalid
	case errors.As(err, &ie):
		fmt.Fprintf(stderr, "gen %s: %v\n", args[0], err)
		return exitIO
	}
	fmt.Fprintf(stderr, "gen %s: %v\n", args[0], err)
	return exitInvalid
}

// printStats prints, for GEN_STATS=1, the work the process did as counts
// rather than times — the steps of gen's stages (package work), the
// allocations — so that tests can bound a gen process on a loaded machine,
// where its time says little.
func printStats(w io.Writer) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(w, "gen stats: steps=%d mallocs=%d alloc-bytes=%d\n", work.Steps(), ms.Mallocs, ms.TotalAlloc)
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

func (e flagError) Unwrap() error { return e.error }

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
// (rfc3986, rfc6874, rfc3987) or an ABNF file of at most rf.maxGrammar
// bytes — or, with none, the embedded RFC 3986 grammar. The warnings of
// -lenient go to stderr.
func load(files []string, rf *readFlags, stderr io.Writer) (*abnf.Grammar, error) {
	if len(files) == 0 {
		files = []string{defaultGrammar}
	}
	var srcs []abnf.Source
	for _, n := range files {
		if s, ok := grammar.Lookup(n); ok {
			srcs = append(srcs, s)
			continue
		}
		b, err := readLimited(n, rf.maxGrammar)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, abnf.Source{Name: n, Text: b})
	}
	g, err := abnf.Read(srcs, rf.options())
	if g != nil {
		for _, w := range g.Warnings {
			fmt.Fprintln(stderr, w)
		}
	}
	return g, err
}

// readLimited reads a file of at most max bytes: /dev/zero, a FIFO that
// never ends or a runaway file is an error after max+1 bytes, not an
// exhausted memory.
func readLimited(name string, max int) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, ioError{err}
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
	if err != nil {
		return nil, ioError{err}
	}
	if len(b) > max {
		return nil, fmt.Errorf("%s: the grammar is larger than %d bytes (-max-grammar raises the limit)", name, max)
	}
	return b, nil
}

// defaultGrammar is the grammar of a command given none: RFC 3986
// Appendix A, embedded.
const defaultGrammar = "rfc3986"

// readFlags are the flags of every command that reads a grammar.
type readFlags struct {
	octets     bool
	lenient    bool
	nesting    int
	maxGrammar int
	override   []string
	// starts are the command's start rules (-start, -rule): prose values
	// are errors only in the rules they reach (abnf.Options.Starts).
	starts []string
}

// DefaultMaxGrammar is the default -max-grammar: far above any grammar of
// an RFC (RFC 9110's is 13 KB), far below what the machine holds.
const defaultMaxGrammar = 16 << 20

// addReadFlags registers -octets, -lenient, -max-nesting and -max-grammar
// on fs.
func addReadFlags(fs *flag.FlagSet) *readFlags {
	rf := &readFlags{}
	fs.BoolVar(&rf.octets, "octets", false, "numeric values are octets (bytes 0-255, as in RFC 3629's UTF8-octets), not code points matched in UTF-8")
	fs.BoolVar(&rf.lenient, "lenient", false, "accept, with a warning, what RFC 5234 forbids but grammars write: concatenated elements without white space between them (\"a\"\"b\")")
	fs.IntVar(&rf.nesting, "max-nesting", abnf.DefaultMaxNesting, "deepest nesting of groups and options to read")
	fs.IntVar(&rf.maxGrammar, "max-grammar", defaultMaxGrammar, "largest grammar file to read, in `bytes`")
	return rf
}

// check validates the flags' values.
func (rf *readFlags) check() error {
	if rf.maxGrammar <= 0 {
		return usageError{"-max-grammar must be positive"}
	}
	if rf.nesting <= 0 {
		// (The reader would take it for its default.)
		return usageError{"-max-nesting must be positive"}
	}
	return nil
}

// options returns the reader's options the flags ask for.
func (rf *readFlags) options() *abnf.Options {
	return &abnf.Options{Octets: rf.octets, MaxNesting: rf.nesting, Lenient: rf.lenient, Override: rf.override, Starts: rf.starts}
}

// defaultMaxLine is the default -max-line: the longest input uri takes
// (parser.MaxLength), far above any input of an RFC grammar.
const defaultMaxLine = 16 << 20

// addLineFlag registers -max-line: the longest input line read or sample
// written.
func addLineFlag(fs *flag.FlagSet) *int {
	return fs.Int("max-line", defaultMaxLine, "longest input line (raw or quoted) read, or sample written, in `bytes`")
}

// defaultMaxMatch is -max-match's default: the matcher's steps per byte
// of a line (at least a thousand bytes' worth). Linear grammars take far
// fewer (RFC 3986's URI-reference some tens a byte); an ambiguous one
// can take a number that grows with the cube of the line's length, and
// this stops it after seconds rather than hours (s = "v" *( ";" s ) on
// 2,001 bytes: refused after 20 million steps, about a second, where the
// match took 169 million, 10 s; a step is 50 to 70 ns).
const defaultMaxMatch = 10_000

// addMatchFlag registers -max-match, the matcher's budget (match and
// fidelity -in).
func addMatchFlag(fs *flag.FlagSet) *int {
	return fs.Int("max-match", defaultMaxMatch, "most `steps` of the ABNF matcher per byte of an input (at least 1,000 bytes' worth a line): past them the line's verdict is unknown, an error")
}

// matchLine is m.Match with the budget's error in gen's terms.
func matchLine(m *abnf.Matcher, rule string, line []byte) (bool, error) {
	ok, err := m.Match(rule, line)
	if errors.Is(err, abnf.ErrMatchWork) {
		return false, fmt.Errorf("%w (-max-match raises the limit)", err)
	}
	return ok, err
}

// addQuotedFlag registers -quoted, the I/O mode of match, sample and
// fidelity -in.
func addQuotedFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("quoted", false, "one Go double-quoted string per line (strconv.Quote), so that inputs may hold CR, LF, NUL or invalid UTF-8")
}

// eachInput calls f for every input of r, in the raw or quoted line mode,
// and stops at the first line longer than max bytes, without reading the
// rest of it (standard input may be /dev/zero).
func eachInput(r io.Reader, quoted bool, max int, f func(in []byte) error) error {
	n := 0
	return eachLine(r, max, func(line []byte) error {
		n++
		if !quoted {
			return f(line)
		}
		text := line
		if k := len(text); k > 0 && text[k-1] == '\r' {
			text = text[:k-1]
		}
		if len(text) < 2 || text[0] != '"' {
			return &lines.SyntaxError{Line: n, Text: string(line)}
		}
		s, err := strconv.Unquote(string(text))
		if err != nil {
			return &lines.SyntaxError{Line: n, Text: string(line)}
		}
		return f([]byte(s))
	})
}

// eachLine calls f for every line of r, without its "\n" (a last line
// without one included), and returns an error at the first line longer
// than max bytes, read no further than max+1 bytes into it.
func eachLine(r io.Reader, max int, f func(line []byte) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	for n := 1; ; n++ {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long[:0], line...)
			for err == bufio.ErrBufferFull && len(long) <= max {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		size := len(line)
		if size > 0 && line[size-1] == '\n' {
			size--
		}
		if size > max {
			return fmt.Errorf("line %d: longer than %d bytes (-max-line raises the limit)", n, max)
		}
		if len(line) > 0 {
			if ferr := f(line[:size]); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return ioError{err}
		}
	}
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
func loadClean(files []string, rf *readFlags, stderr io.Writer) (*abnf.Grammar, error) {
	g, err := load(files, rf, stderr)
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

// ruleFlag returns the rule -rule names. A rule the grammar lacks is a
// fact about the grammar, not a misuse of the command: exit status 1, one
// line.
func ruleFlag(g *abnf.Grammar, name string) (*abnf.Rule, error) {
	r := g.Rule(name)
	if r == nil {
		return nil, fmt.Errorf("-rule: no rule %s in the grammar", name)
	}
	return r, nil
}

// startFlag checks that every rule -start names is in the grammar (exit
// status 1 otherwise, as ruleFlag).
func startFlag(g *abnf.Grammar, names []string) error {
	for _, n := range names {
		if g.Rule(n) == nil {
			return fmt.Errorf("-start: no rule %s in the grammar", n)
		}
	}
	return nil
}

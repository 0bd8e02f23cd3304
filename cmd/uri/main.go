// Command uri parses, resolves, normalizes and compares URI references
// with the parser generated from RFC 3986 Appendix A.
//
// Usage:
//
//	uri SUBCOMMAND [flags] [ARGS…] [-- ARGS…]
//
// With no ARGS, inputs are read from standard input, one per line: every
// line is an input, the empty line included (it is a valid relative
// reference), and a trailing "\r" is part of the input. Inputs stream: a
// million lines take constant memory, and a line longer than the parser
// takes (16 MiB) is read in bounded memory and reported, with a prefix of
// it, as too long. Errors come from the parser's DFA, so that an invalid
// input costs about what a valid one does: the offset, the innermost rule
// that could not continue, and what could have come there, in the
// grammar's terms (explain says more).
//
// Flags may come before or after the arguments; "--" ends them, so that an
// input that begins with "-" goes after it. -json switches every subcommand
// to JSON Lines, one object per input, in input order.
//
// Lines of standard input are processed on every core, in chunks, and
// written in input order: the output is the sequential one, byte for byte,
// in bounded memory. -j N (every subcommand that reads lines: all but
// equal and build) sets the number of goroutines; -j 1 processes one line
// after another.
//
// Exit status: 0 when every input is valid (for equal: equivalent); 1 when
// some input is invalid, or valid but beyond a limit (too long for a tree,
// a result too long to be a URI), each reported on its own record (for
// equal: not equivalent, or an argument that does not parse, with its
// error); 2 for a usage error; 3 for an I/O or internal error, reported on
// standard error.
//
// Subcommands:
//
//	parse [-rule R] [-grammar G] [-decode] [-json] [INPUT…]
//		parse as rule R (default URI-reference; any rule of the grammar) and
//		print the components; -grammar picks a built-in parser: rfc3986
//		(the default), rfc6874 (with IPv6 zone identifiers) or rfc3987
//		(IRIs; its default rule is IRI-reference); -decode adds the decoded
//		views (components percent-decoded, segments, query pairs, port, address)
//	tree [-rule R] [-grammar G] [-json] [INPUT…]
//		print the parse tree: every captured rule with its byte span
//	explain [-rule R] [-grammar G] [-json] [INPUT…]
//		why each input is or is not valid, in Appendix A's terms: for an
//		invalid one, the innermost rule that could not continue, the
//		offset, the rule's ABNF text, the expected characters and the
//		enclosing rules; for a valid one, a condensed tree of rule spans
//		and each host's kind with §3.2.2's reason
//	resolve [-non-strict] [-trace] [-json] BASE [REF…]
//		resolve each REF against BASE (RFC 3986 §5.2; -non-strict: §5.2.2's
//		backward-compatible mode); errors name the argument that failed;
//		-trace prints §5.2.2's steps, T after each, §5.2.3's merge and
//		§5.2.4's remove_dot_segments table
//	normalize [-scheme] [-ipv6] [-explain] [-json] [INPUT…]
//		§6.2.2 syntax-based normalization; -scheme adds §6.2.3 for http,
//		https, ws, wss and ftp; -ipv6 writes IPv6 literals as RFC 5952 says;
//		-explain lists each step that changed something, before and after
//	equal [-level simple|syntax|scheme] [-json] A B
//		§6.2 comparison (default: after syntax- and scheme-based
//		normalization); exit 0 when equivalent, 1 when not
//	iri-to-uri [-json] [INPUT…]
//		map each IRI to its URI (RFC 3987 §3.1)
//	uri-to-iri [-json] [INPUT…]
//		map each URI to its IRI (RFC 3987 §3.2): decode the
//		percent-encoded UTF-8 an IRI allows, keep the rest encoded
//	encode [-component C] [-escape] [-grammar G] [-json] [INPUT…]
//		percent-encode each input (any bytes) for a component: userinfo,
//		host, segment (the default), first-segment, query, fragment,
//		query-part; -escape keeps the input's percent-encodings
//	decode [-form] [-json] [INPUT…]
//		percent-decode each input; a malformed "%" is an error at its
//		offset; -form reads "+" as a space
//	build [-scheme S] [-userinfo U] [-host H] [-port N] [-path SEG]…
//	      [-absolute] [-query K=V]… [-raw-query Q] [-fragment F] [-grammar G] [-json]
//		a URI from raw components, each encoded with its component's
//		characters: -path once per segment (absolute after a host or with
//		-absolute), -query once per key=value pair (split at the first
//		"="); exit 1 with the component at fault when none can be valid
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/peguri/rfc3986/internal/lines"
	"github.com/peguri/rfc3986/parser"
)

func main() {
	if os.Getenv("GOGC") == "" {
		// The batch commands hold a few chunks of lines and allocate per
		// line: with the default (100) and a live heap of a few MB, the
		// collector runs hundreds of times per million lines. 400 halves
		// the CPU time of parse -json at about 25 MB.
		debug.SetGCPercent(400)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage: uri SUBCOMMAND [flags] [ARGS…] [-- ARGS…]   (no ARGS: one input per line of standard input)

  parse [-rule R] [-grammar G] [-decode] [-json] [INPUT…]    components of each input (-decode: decoded too)
  tree  [-rule R] [-grammar G] [-json] [INPUT…]              parse tree of each input
  explain [-rule R] [-grammar G] [-json] [INPUT…]            the Appendix A rule that failed, or the rules that matched
  resolve [-non-strict] [-trace] [-json] BASE [REF…]         RFC 3986 §5.2 target of each REF (-trace: step by step)
  normalize [-scheme] [-ipv6] [-explain] [-json] [INPUT…]    §6.2.2 (and §6.2.3) normal form (-explain: each change)
  equal [-level L] [-json] A B                               §6.2 equivalence; exit 0 if equivalent
  iri-to-uri [-json] [INPUT…]                                RFC 3987 §3.1 mapping of each IRI
  uri-to-iri [-json] [INPUT…]                                RFC 3987 §3.2 mapping of each URI
  encode [-component C] [-escape] [-grammar G] [-json] [INPUT…]  percent-encode each input for a component
  decode [-form] [-json] [INPUT…]                            percent-decode each input
  build [-scheme S] [-userinfo U] [-host H] [-port N] [-path SEG]… [-absolute]
        [-query K=V]… [-raw-query Q] [-fragment F] [-grammar G] [-json]   a URI from raw components

Flags may follow the arguments; "--" ends them (an input beginning with "-" goes after it).
Lines of standard input are processed on every core, the output in input order (-j N: N goroutines).
exit status: 0 all valid (equal: equivalent), 1 some input invalid or beyond a limit
(equal: not equivalent, or an argument that does not parse), 2 usage error, 3 I/O error
`

type command func(args []string, stdin io.Reader, out *output, stderr io.Writer) error

var commands = map[string]command{
	"parse":      cmdParse,
	"tree":       cmdTree,
	"resolve":    cmdResolve,
	"normalize":  cmdNormalize,
	"equal":      cmdEqual,
	"iri-to-uri": cmdIRIToURI,
	"uri-to-iri": cmdURIToIRI,
	"explain":    cmdExplain,
	"encode":     cmdEncode,
	"decode":     cmdDecode,
	"build":      cmdBuild,
}

// usageError is reported with exit status 2.
type usageError struct {
	msg string
	fs  *flag.FlagSet // for a flag's error: the command's flags, printed after msg
}

func (e usageError) Error() string { return e.msg }

// errInvalid means some input was invalid or beyond a limit, or the
// arguments of equal are not equivalent (exit status 1); each was reported
// on its own record.
var errInvalid = errors.New("some input is invalid")

// Exit statuses.
const (
	exitOK      = 0
	exitInvalid = 1
	exitUsage   = 2
	exitIO      = 3
)

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		fmt.Fprint(stderr, usage)
		return exitUsage
	case args[0] == "help" && len(args) == 2 && commands[args[1]] != nil:
		// uri help parse: parse's flags, as uri parse -h prints them,
		// but on standard output, as uri help's answer is.
		return run([]string{args[1], "-h"}, stdin, stdout, stdout)
	case args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help":
		// Asked for: the answer, on standard output, and success.
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "uri: unknown subcommand %q\n%s", args[0], usage)
		return exitUsage
	}
	out := newOutput(stdout)
	err := cmd(args[1:], stdin, out, stderr)
	if ferr := out.flush(); ferr != nil && (err == nil || errors.Is(err, errInvalid)) {
		err = fmt.Errorf("writing the output: %w", ferr)
	}
	var ue usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errInvalid):
		return exitInvalid
	case errors.Is(err, flag.ErrHelp):
		return exitOK // uri CMD -h: the flag package has printed the flags
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "uri %s: %s\n", args[0], ue.msg)
		if ue.fs != nil {
			ue.fs.Usage()
		}
		return exitUsage
	}
	fmt.Fprintf(stderr, "uri %s: %v\n", args[0], err)
	return exitIO
}

// output writes human text or JSON Lines.
type output struct {
	w    *bufio.Writer
	enc  *json.Encoder
	json bool
	n    int // records written
	// workers is the number of goroutines that process lines of standard
	// input (-j); 0 means GOMAXPROCS.
	workers int
}

func newOutput(w io.Writer) *output { return newOutputSize(w, 64<<10) }

// newOutputSize is newOutput with a buffer of size bytes.
func newOutputSize(w io.Writer, size int) *output {
	bw := bufio.NewWriterSize(w, size)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &output{w: bw, enc: enc}
}

func (o *output) flush() error { return o.w.Flush() }

// record writes one JSON object, or one block of human text separated from
// the previous one by a blank line. It returns the first write error, so
// that a command stops at once when its output fails.
func (o *output) record(v any, human func(w io.Writer)) error {
	o.n++
	if o.json {
		return o.enc.Encode(v)
	}
	if o.n > 1 {
		o.w.WriteByte('\n')
	}
	human(o.w)
	_, err := o.w.Write(nil) // bufio.Writer keeps the first error
	return err
}

// jobsFlag adds -j, the goroutines that process the lines of standard
// input (see eachInput).
func jobsFlag(fs *flag.FlagSet, out *output) {
	fs.Var((*jobs)(&out.workers), "j", fmt.Sprintf("process the lines of standard input on `n` goroutines, in chunks, the output in input order (0: GOMAXPROCS; 1: one line after another; at most %d)", maxJobs))
}

// maxJobs bounds -j: each goroutine holds chunks of lines in flight (about
// ChunkBytes each, a few per goroutine), so that an unbounded count would
// be unbounded memory, and more goroutines than cores gain nothing.
const maxJobs = 1024

// jobs is -j's value: 0 to maxJobs.
type jobs int

func (j *jobs) String() string { return strconv.Itoa(int(*j)) }

func (j *jobs) Set(s string) error {
	n, err := strconv.Atoi(s)
	switch {
	case err != nil:
		return errors.New("not a number")
	case n < 0 || n > maxJobs:
		return fmt.Errorf("%d goroutines: from 0 (GOMAXPROCS) to %d", n, maxJobs)
	}
	*j = jobs(n)
	return nil
}

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("uri "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags parses the flags wherever they are among args, and returns
// the other arguments: "uri parse X -json" is "uri parse -json X". "--"
// ends the flags: every argument after it is an input, even one that
// begins with "-". Flag errors are usage errors, which run prints with
// the command's flags.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			rest = append(rest, args[i+1:]...)
			i = len(args)
		case len(a) > 1 && a[0] == '-':
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if strings.Contains(name, "=") {
				continue
			}
			// A flag that takes a value takes the next argument.
			if f := fs.Lookup(name); f != nil && !isBoolFlag(f) && i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
		default:
			rest = append(rest, a)
		}
	}
	// The flag package would print an error, then the usage; run prints
	// the error once, then the usage (it printed the error twice).
	w := fs.Output()
	fs.SetOutput(io.Discard)
	err := fs.Parse(flags)
	fs.SetOutput(w)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.Usage()
			return nil, err
		}
		msg := err.Error()
		if strings.HasPrefix(msg, "flag provided but not defined") {
			msg += ` (an input that begins with "-" goes after "--")`
		}
		return nil, usageError{msg, fs}
	}
	return rest, nil
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// input is one input: an argument or a line of standard input.
type input struct {
	// s is the input; for one longer than parser.MaxLength, its first
	// longPrefix bytes.
	s string
	// size is the input's length in bytes.
	size int
	// batch: the input is a line of standard input.
	batch bool
}

// longPrefix is how much of an input longer than the parser takes is
// kept, to report it.
const longPrefix = 100

// tooLong reports whether the input is longer than the parser takes, and
// so was not kept whole.
func (in input) tooLong() bool { return in.size > parser.MaxLength }

// lengthError is the error of an input longer than the parser takes, as
// the parser reports it, but for the prefix that in holds.
func (in input) lengthError(rule string) *parser.Error {
	return &parser.Error{Input: in.s, Offset: parser.MaxLength, Rule: rule, Err: parser.ErrTooLong,
		Msg: fmt.Sprintf("input is %d bytes, longer than the %d the parser takes", in.size, parser.MaxLength)}
}

// eachInput calls f for each argument, or each line of stdin if there are
// none, with the output to write its record on. It returns errInvalid if f
// reported an input as invalid. Lines of stdin are processed in chunks on
// out.workers goroutines (0: GOMAXPROCS), each chunk written to a buffer
// of its own, and the buffers are written in input order: the output is
// the sequential one, byte for byte, and stops where it would (see
// eachLine).
func eachInput(args []string, stdin io.Reader, out *output, f func(out *output, in input) (valid bool, err error)) error {
	invalid := false
	if len(args) > 0 {
		for _, a := range args {
			ok, err := f(out, clip(input{s: a, size: len(a)}))
			if !ok {
				invalid = true
			}
			if err != nil {
				return err
			}
		}
	} else if err := eachLine(stdin, out, f, &invalid); err != nil {
		return err
	}
	if invalid {
		return errInvalid
	}
	return nil
}

// clip keeps the prefix of an input longer than the parser takes.
func clip(in input) input {
	if in.tooLong() && len(in.s) > longPrefix {
		in.s = in.s[:longPrefix]
	}
	return in
}

// chunkResult is what a chunk of lines wrote: its records, in buf, and
// whether some input was invalid; err is the error that stopped it, after
// its records.
type chunkResult struct {
	buf     *bytes.Buffer
	records int
	invalid bool
	err     error
}

// eachLine runs f on each line of stdin, in chunks, on out.workers
// goroutines (lines.Ordered), each chunk writing its records to a buffer
// of its own: a chunk's first record is preceded by the blank line that
// separates human records, dropped when it is the first record of all.
// The first error stops the output after the records written before it,
// as in sequence.
func eachLine(stdin io.Reader, out *output, f func(out *output, in input) (bool, error), invalid *bool) error {
	workers := out.workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	free := make(chan *bytes.Buffer, 4*workers)
	work := func(ls []lines.Line) chunkResult {
		var b *bytes.Buffer
		select {
		case b = <-free:
			b.Reset()
		default:
			b = new(bytes.Buffer)
		}
		o := newOutputSize(b, 4<<10)
		o.json, o.n = out.json, 1
		r := chunkResult{buf: b}
		for _, l := range ls {
			text := l.Text
			if l.Size > parser.MaxLength {
				text = text[:longPrefix]
			}
			// The chunk's buffer is never written again (lines.Ordered):
			// the input may alias it.
			s := ""
			if len(text) > 0 {
				s = unsafe.String(&text[0], len(text))
			}
			ok, err := f(o, clip(input{s: s, size: l.Size, batch: true}))
			if !ok {
				r.invalid = true
			}
			if err != nil {
				r.err = err
				break
			}
		}
		if err := o.flush(); err != nil && r.err == nil {
			r.err = err
		}
		r.records = o.n - 1
		return r
	}
	write := func(r chunkResult) error {
		data := r.buf.Bytes()
		if out.n == 0 && r.records > 0 && !out.json && len(data) > 0 && data[0] == '\n' {
			data = data[1:]
		}
		out.n += r.records
		_, werr := out.w.Write(data)
		select {
		case free <- r.buf:
		default:
		}
		if r.invalid {
			*invalid = true
		}
		if r.err != nil {
			return r.err
		}
		return werr
	}
	return lines.Ordered(stdin, parser.MaxLength, workers, work, write)
}

// show formats a value for people: as is when printable ASCII, quoted
// otherwise, so that "" and control characters are visible.
func show(s string) string {
	if s == "" {
		return `""`
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f || s[i] == ' ' {
			return strconv.Quote(s)
		}
	}
	return s
}

// showInput is show(in.s), saying so when it is a prefix of the input.
func showInput(in input) string {
	if in.tooLong() {
		return fmt.Sprintf("%s… (the first %d of %d bytes)", show(in.s), len(in.s), in.size)
	}
	return show(in.s)
}

// quoted is the Go double-quoted form of s (strconv.Unquote gives the bytes
// back) when s is not valid UTF-8, for the "…Quoted" fields of the JSON:
// a JSON string holds U+FFFD in place of invalid bytes, while offsets count
// the bytes. It is nil for valid UTF-8.
func quoted(s string) *string {
	if utf8.ValidString(s) {
		return nil
	}
	q := strconv.Quote(s)
	return &q
}

// field writes an aligned "name: value" line.
func field(w io.Writer, name, value string) {
	fmt.Fprintf(w, "%-9s %s\n", name+":", value)
}

// indentCaret indents the lines of a caret rendering under a field.
func indentCaret(c string) string {
	return strings.ReplaceAll(c, "\n", "\n          ")
}

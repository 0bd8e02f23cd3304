// Command uri parses, resolves, normalizes and compares URI references
// with the parser generated from RFC 3986 Appendix A.
//
// Usage:
//
//	uri SUBCOMMAND [flags] [ARGS…]
//
// With no ARGS, inputs are read from standard input, one per line: every
// line is an input, the empty line included (it is a valid relative
// reference), and a trailing "\r" is part of the input. Inputs stream: a
// million lines take constant memory. -json switches every subcommand to
// JSON Lines, one object per input, in input order. Exit status: 0 when every
// input is valid, 1 when some input is invalid, 2 for a usage error.
//
// Subcommands:
//
//	parse [-rule R] [-grammar G] [-json] [INPUT…]
//		parse as rule R (default URI-reference; any rule of the grammar) and
//		print the components; -grammar picks a built-in parser: rfc3986
//		(the default), rfc6874 (with IPv6 zone identifiers) or rfc3987
//		(IRIs; its default rule is IRI-reference)
//	tree [-rule R] [-grammar G] [-json] [INPUT…]
//		print the parse tree: every captured rule with its byte span
//	resolve [-non-strict] [-json] BASE [REF…]
//		resolve each REF against BASE (RFC 3986 §5.2; -non-strict: §5.2.2's
//		backward-compatible mode); errors name the argument that failed
//	normalize [-scheme] [-ipv6] [-json] [INPUT…]
//		§6.2.2 syntax-based normalization; -scheme adds §6.2.3 for http,
//		https, ws, wss and ftp; -ipv6 writes IPv6 literals as RFC 5952 says
//	equal [-level simple|syntax|scheme] [-json] A B
//		§6.2 comparison (default: after syntax- and scheme-based
//		normalization); exit 0 when equivalent, 1 when not
//	iri-to-uri [-json] [INPUT…]
//		map each IRI to its URI (RFC 3987 §3.1)
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/peguri/rfc3986/internal/lines"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage: uri SUBCOMMAND [flags] [ARGS…]   (no ARGS: one input per line of standard input)

  parse [-rule R] [-grammar G] [-json] [INPUT…]   components of each input
  tree  [-rule R] [-grammar G] [-json] [INPUT…]   parse tree of each input
  resolve [-non-strict] [-json] BASE [REF…]       RFC 3986 §5.2 target of each REF
  normalize [-scheme] [-ipv6] [-json] [INPUT…]    §6.2.2 (and §6.2.3) normal form
  equal [-level L] [-json] A B                    §6.2 equivalence; exit 0 if equivalent
  iri-to-uri [-json] [INPUT…]                     RFC 3987 §3.1 mapping of each IRI

exit status: 0 every input valid, 1 some input invalid, 2 usage error
`

type command func(args []string, stdin io.Reader, out *output, stderr io.Writer) error

var commands = map[string]command{
	"parse":      cmdParse,
	"tree":       cmdTree,
	"resolve":    cmdResolve,
	"normalize":  cmdNormalize,
	"equal":      cmdEqual,
	"iri-to-uri": cmdIRIToURI,
}

// usageError is reported with exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// errInvalid means some input was invalid (exit status 1); each was reported
// on its own line.
var errInvalid = errors.New("some input is invalid")

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "help" {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "uri: unknown subcommand %q\n%s", args[0], usage)
		return 2
	}
	out := newOutput(stdout)
	err := cmd(args[1:], stdin, out, stderr)
	if ferr := out.flush(); err == nil {
		err = ferr
	}
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errInvalid):
		return 1
	case errors.Is(err, flag.ErrHelp):
		return 2
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "uri %s: %s\n", args[0], ue.msg)
		return 2
	}
	fmt.Fprintf(stderr, "uri %s: %v\n", args[0], err)
	return 1
}

// output writes human text or JSON Lines.
type output struct {
	w    *bufio.Writer
	enc  *json.Encoder
	json bool
	n    int // records written
}

func newOutput(w io.Writer) *output {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &output{w: bw, enc: enc}
}

func (o *output) flush() error { return o.w.Flush() }

// record writes one JSON object, or one block of human text separated from
// the previous one by a blank line.
func (o *output) record(v any, human func(w io.Writer)) error {
	o.n++
	if o.json {
		return o.enc.Encode(v)
	}
	if o.n > 1 {
		o.w.WriteByte('\n')
	}
	human(o.w)
	return nil
}

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("uri "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags parses flags, turning flag errors into usage errors (the flag
// package has already printed them).
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err.Error()}
	}
	return nil
}

// eachInput calls f for each argument, or each line of stdin if there are
// none. It returns errInvalid if f reported an invalid input.
func eachInput(args []string, stdin io.Reader, f func(in string) (valid bool, err error)) error {
	invalid := false
	call := func(in string) error {
		ok, err := f(in)
		if !ok {
			invalid = true
		}
		return err
	}
	if len(args) > 0 {
		for _, a := range args {
			if err := call(a); err != nil {
				return err
			}
		}
	} else if err := lines.Each(stdin, func(l []byte) error { return call(string(l)) }); err != nil {
		return err
	}
	if invalid {
		return errInvalid
	}
	return nil
}

// show formats a value for people: as is when printable ASCII, quoted
// otherwise, so that "" and control characters are visible.
func show(s string) string {
	if s == "" {
		return `""`
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f || s[i] == ' ' {
			return fmt.Sprintf("%q", s)
		}
	}
	return s
}

// field writes an aligned "name: value" line.
func field(w io.Writer, name, value string) {
	fmt.Fprintf(w, "%-9s %s\n", name+":", value)
}

// indentCaret indents the lines of a caret rendering under a field.
func indentCaret(c string) string {
	return strings.ReplaceAll(c, "\n", "\n          ")
}

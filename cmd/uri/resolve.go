package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/peguri/rfc3986/internal/records"
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc3987"
	"github.com/peguri/rfc3986/resolve"
)

// resultJSON is the -json object of resolve, normalize and iri-to-uri
// (package records holds it, for the beam module's pipeline too).
type resultJSON = records.Result

// extra is what -trace and -explain add to a valid result's record.
type extra struct {
	trace *resolve.Trace
	steps *[]resolve.NormalStep
}

// argErrorJ says which argument failed, or the result, where (when it
// did not parse) and why.
type argErrorJ = records.ArgError

// describe turns an error of package resolve or parser into its JSON and
// human forms: which argument (resolve's own name for it, unless arg is
// given; "result" is always resolve's), where when it did not parse, and
// why.
func describe(err error, arg string) *argErrorJ {
	var re *resolve.ArgError
	if errors.As(err, &re) && (arg == "" || re.Arg == "result") {
		arg = re.Arg
	}
	j := &argErrorJ{Argument: arg, Message: err.Error()}
	var pe *parser.Error
	var de *parser.DecodeError
	switch {
	case errors.As(err, &pe):
		off := pe.Offset
		j.Offset = &off
		j.Message = pe.Reason()
	case errors.As(err, &de):
		off := de.Offset
		j.Offset = &off
	}
	return j
}

// parseRef parses an input as a URI-reference.
func parseRef(in input) (parser.URI, error) {
	if in.tooLong() {
		return parser.URI{}, in.lengthError("URI-reference")
	}
	return parser.ParseReference(in.s)
}

// where says, after an error's message, which argument it is in, and
// where in it: " (in the reference, at offset 1)", " (the result)".
func where(e *argErrorJ) string {
	arg := "the " + e.Argument
	if e.Argument == "a" || e.Argument == "b" {
		arg = e.Argument // equal's: "in a", not "in the a"
	}
	if e.Offset != nil {
		return fmt.Sprintf(" (in %s, at offset %d)", arg, *e.Offset)
	}
	return fmt.Sprintf(" (%s)", arg)
}

func writeResult(out *output, in input, base *string, result string, err error, arg string) error {
	return writeResultExtra(out, in, base, result, err, arg, extra{})
}

func writeResultExtra(out *output, in input, base *string, result string, err error, arg string, x extra) error {
	j := resultJSON{Input: in.s, InputQuoted: quoted(in.s), Truncated: in.tooLong(), Base: base}
	if base != nil {
		j.BaseQuoted = quoted(*base)
	}
	if err != nil {
		e := describe(err, arg)
		j.Error = e
		return out.record(j, func(w io.Writer) {
			if base != nil {
				field(w, "base", show(*base))
			}
			field(w, "input", showInput(in))
			field(w, "error", e.Message+where(e))
			var pe *parser.Error
			if errors.As(err, &pe) && !in.tooLong() {
				fmt.Fprintf(w, "          %s\n", indentCaret(caretOnly(pe)))
			}
		})
	}
	j.Result, j.ResultQuoted = &result, quoted(result)
	j.Trace, j.Steps = x.trace, x.steps
	return out.record(j, func(w io.Writer) {
		if base != nil {
			field(w, "base", show(*base))
		}
		field(w, "input", show(in.s))
		if x.trace != nil {
			writeTrace(w, x.trace)
		}
		if x.steps != nil {
			writeSteps(w, *x.steps)
		}
		field(w, "result", show(result))
	})
}

func cmdResolve(args []string, stdin io.Reader, out *output, stderr io.Writer) error {
	fs := newFlags("resolve", stderr)
	nonStrict := fs.Bool("non-strict", false, "resolve as RFC 3986 §5.2.2's backward-compatible parsers: a reference with the base's scheme is relative")
	trace := fs.Bool("trace", false, "print §5.2.2's steps: the branch taken, T after each step, §5.2.3's merge and §5.2.4's remove_dot_segments table")
	fs.BoolVar(&out.json, "json", false, "print JSON Lines")
	jobsFlag(fs, out)
	inputs, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(inputs) < 1 {
		return usageError{msg: "resolve needs a BASE, then REFs (or one per line of standard input)"}
	}
	base := inputs[0]
	mode := resolve.Strict
	if *nonStrict {
		mode = resolve.NonStrict
	}
	b, berr := parser.ParseReference(base)
	if berr != nil {
		berr = &resolve.ArgError{Arg: "base", Input: base, Err: berr}
	}
	err = eachInput(inputs[1:], stdin, out, func(out *output, in input) (bool, error) {
		if berr != nil {
			return false, writeResult(out, in, &base, "", berr, "")
		}
		r, err := parseRef(in)
		if err != nil {
			return false, writeResult(out, in, &base, "", err, "reference")
		}
		if *trace {
			tr, err := resolve.TraceResolve(b, r, mode)
			return err == nil, writeResultExtra(out, in, &base, tr.Result, err, "", extra{trace: &tr})
		}
		t, err := resolve.Resolve(b, r, mode)
		return err == nil, writeResult(out, in, &base, t.String(), err, "")
	})
	if err == nil && berr != nil {
		// No reference to report it with: an invalid base is still an
		// error, on standard error.
		fmt.Fprintf(stderr, "uri resolve: base %q: %v\n", base, berr.(*resolve.ArgError).Err)
		return errInvalid
	}
	return err
}

func cmdNormalize(args []string, stdin io.Reader, out *output, stderr io.Writer) error {
	fs := newFlags("normalize", stderr)
	scheme := fs.Bool("scheme", false, "add §6.2.3 scheme-based normalization (http, https, ws, wss, ftp: default port, empty path)")
	ipv6 := fs.Bool("ipv6", false, "write IPv6 literals in RFC 5952's canonical text")
	explain := fs.Bool("explain", false, "list each step of §6.2.2 and §6.2.3 that changed something, with before and after")
	fs.BoolVar(&out.json, "json", false, "print JSON Lines")
	jobsFlag(fs, out)
	inputs, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	n := resolve.Normalizer{Steps: resolve.NormalizeSyntax, Schemes: resolve.DefaultSchemes()}
	if *scheme {
		n.Steps |= resolve.NormalizeSchemeBased
	}
	if *ipv6 {
		n.Steps |= resolve.NormalizeIPv6Canonical
	}
	return eachInput(inputs, stdin, out, func(out *output, in input) (bool, error) {
		u, err := parseRef(in)
		if err != nil {
			return false, writeResult(out, in, nil, "", err, "input")
		}
		// A normal form too long to be a URI is the result's fault: the
		// error's argument is "result".
		if *explain {
			v, steps, err := n.Explain(u)
			if steps == nil {
				steps = []resolve.NormalStep{}
			}
			return err == nil, writeResultExtra(out, in, nil, v.String(), err, "input", extra{steps: &steps})
		}
		v, err := n.Normalize(u)
		return err == nil, writeResult(out, in, nil, v.String(), err, "input")
	})
}

// equalJSON is the -json object of equal. Equivalent is absent when an
// argument does not parse: there is no answer, only the error.
type equalJSON struct {
	A          string     `json:"a"`
	AQuoted    *string    `json:"aQuoted,omitempty"`
	B          string     `json:"b"`
	BQuoted    *string    `json:"bQuoted,omitempty"`
	Equivalent *bool      `json:"equivalent,omitempty"`
	Level      string     `json:"level"`
	Error      *argErrorJ `json:"error,omitempty"`
}

func cmdEqual(args []string, _ io.Reader, out *output, stderr io.Writer) error {
	fs := newFlags("equal", stderr)
	level := fs.String("level", "scheme", "comparison `level` of RFC 3986 §6.2: simple (the text), syntax (§6.2.2) or scheme (§6.2.2 and §6.2.3)")
	fs.BoolVar(&out.json, "json", false, "print JSON")
	inputs, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	levels := map[string]resolve.Level{"simple": resolve.CompareSimple, "syntax": resolve.CompareSyntax, "scheme": resolve.CompareScheme}
	l, ok := levels[*level]
	if !ok {
		return usageError{msg: fmt.Sprintf("-level must be simple, syntax or scheme, not %q", *level)}
	}
	if len(inputs) != 2 {
		return usageError{msg: "equal needs two arguments, A and B"}
	}
	a, b := inputs[0], inputs[1]
	eq, err := resolve.EqualString(a, b, l)
	j := equalJSON{A: a, AQuoted: quoted(a), B: b, BQuoted: quoted(b), Level: *level}
	if err != nil {
		j.Error = describe(err, "")
	} else {
		j.Equivalent = &eq
	}
	if werr := out.record(j, func(w io.Writer) {
		field(w, "a", show(a))
		field(w, "b", show(b))
		field(w, "level", *level)
		if j.Error != nil {
			field(w, "error", j.Error.Message+where(j.Error))
			var pe *parser.Error
			if errors.As(err, &pe) {
				fmt.Fprintf(w, "          %s\n", indentCaret(caretOnly(pe)))
			}
			return
		}
		if eq {
			field(w, "result", "equivalent")
		} else {
			field(w, "result", "not equivalent")
		}
	}); werr != nil {
		return werr
	}
	if !eq || err != nil {
		return errInvalid
	}
	return nil
}

func cmdIRIToURI(args []string, stdin io.Reader, out *output, stderr io.Writer) error {
	fs := newFlags("iri-to-uri", stderr)
	fs.BoolVar(&out.json, "json", false, "print JSON Lines")
	jobsFlag(fs, out)
	inputs, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	return eachInput(inputs, stdin, out, func(out *output, in input) (bool, error) {
		if in.tooLong() {
			return false, writeResult(out, in, nil, "", in.lengthError("IRI-reference"), "input")
		}
		u, err := rfc3987.ToURI(in.s)
		arg := "input"
		var re *rfc3987.ResultError
		if errors.As(err, &re) {
			arg = "result" // a valid IRI whose URI is too long
		}
		return err == nil, writeResult(out, in, nil, u.String(), err, arg)
	})
}

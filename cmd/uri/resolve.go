package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc3987"
	"github.com/peguri/rfc3986/resolve"
)

// resultJSON is the -json object of resolve, normalize and iri-to-uri.
type resultJSON struct {
	Input  string     `json:"input"`
	Base   *string    `json:"base,omitempty"`
	Result *string    `json:"result,omitempty"`
	Error  *argErrorJ `json:"error,omitempty"`
}

// argErrorJ says which argument failed, where (when it did not parse) and
// why.
type argErrorJ struct {
	Argument string `json:"argument"`
	Offset   *int   `json:"offset,omitempty"`
	Message  string `json:"message"`
}

// describe turns an error of package resolve or parser into its JSON and
// human forms: which argument (resolve's own name for it, unless arg is
// given), where when it did not parse, and why.
func describe(err error, arg string) *argErrorJ {
	var re *resolve.ArgError
	if errors.As(err, &re) && arg == "" {
		arg = re.Arg
	}
	j := &argErrorJ{Argument: arg, Message: err.Error()}
	var pe *parser.Error
	if errors.As(err, &pe) {
		off := pe.Offset
		j.Offset = &off
		j.Message = pe.Reason()
	}
	return j
}

func writeResult(out *output, in string, base *string, result string, err error, arg string) error {
	if err != nil {
		e := describe(err, arg)
		return out.record(resultJSON{Input: in, Base: base, Error: e}, func(w io.Writer) {
			if base != nil {
				field(w, "base", show(*base))
			}
			field(w, "input", show(in))
			where := ""
			if e.Offset != nil {
				where = fmt.Sprintf(" (in the %s, at offset %d)", e.Argument, *e.Offset)
			} else {
				where = fmt.Sprintf(" (the %s)", e.Argument)
			}
			field(w, "error", e.Message+where)
			var pe *parser.Error
			if errors.As(err, &pe) {
				fmt.Fprintf(w, "          %s\n", indentCaret(caretOnly(pe)))
			}
		})
	}
	return out.record(resultJSON{Input: in, Base: base, Result: &result}, func(w io.Writer) {
		if base != nil {
			field(w, "base", show(*base))
		}
		field(w, "input", show(in))
		field(w, "result", show(result))
	})
}

func cmdResolve(args []string, stdin io.Reader, out *output, stderr io.Writer) error {
	fs := newFlags("resolve", stderr)
	nonStrict := fs.Bool("non-strict", false, "resolve as RFC 3986 §5.2.2's backward-compatible parsers: a reference with the base's scheme is relative")
	fs.BoolVar(&out.json, "json", false, "print JSON Lines")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() < 1 {
		return usageError{"resolve needs a BASE, then REFs (or one per line of standard input)"}
	}
	base := fs.Arg(0)
	mode := resolve.Strict
	if *nonStrict {
		mode = resolve.NonStrict
	}
	return eachInput(fs.Args()[1:], stdin, func(ref string) (bool, error) {
		res, err := resolve.ResolveString(base, ref, mode)
		return err == nil, writeResult(out, ref, &base, res, err, "")
	})
}

func cmdNormalize(args []string, stdin io.Reader, out *output, stderr io.Writer) error {
	fs := newFlags("normalize", stderr)
	scheme := fs.Bool("scheme", false, "add §6.2.3 scheme-based normalization (http, https, ws, wss, ftp: default port, empty path)")
	ipv6 := fs.Bool("ipv6", false, "write IPv6 literals in RFC 5952's canonical text")
	fs.BoolVar(&out.json, "json", false, "print JSON Lines")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	steps := resolve.NormalizeSyntax
	if *scheme {
		steps |= resolve.NormalizeSchemeBased
	}
	if *ipv6 {
		steps |= resolve.NormalizeIPv6Canonical
	}
	return eachInput(fs.Args(), stdin, func(in string) (bool, error) {
		res, err := resolve.NormalizeString(in, steps)
		return err == nil, writeResult(out, in, nil, res, err, "input")
	})
}

// equalJSON is the -json object of equal.
type equalJSON struct {
	A          string     `json:"a"`
	B          string     `json:"b"`
	Equivalent bool       `json:"equivalent"`
	Level      string     `json:"level"`
	Error      *argErrorJ `json:"error,omitempty"`
}

func cmdEqual(args []string, _ io.Reader, out *output, stderr io.Writer) error {
	fs := newFlags("equal", stderr)
	level := fs.String("level", "scheme", "comparison `level` of RFC 3986 §6.2: simple (the text), syntax (§6.2.2) or scheme (§6.2.2 and §6.2.3)")
	fs.BoolVar(&out.json, "json", false, "print JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	levels := map[string]resolve.Level{"simple": resolve.CompareSimple, "syntax": resolve.CompareSyntax, "scheme": resolve.CompareScheme}
	l, ok := levels[*level]
	if !ok {
		return usageError{fmt.Sprintf("-level must be simple, syntax or scheme, not %q", *level)}
	}
	if fs.NArg() != 2 {
		return usageError{"equal needs two arguments, A and B"}
	}
	a, b := fs.Arg(0), fs.Arg(1)
	eq, err := resolve.EqualString(a, b, l)
	j := equalJSON{A: a, B: b, Equivalent: eq, Level: *level}
	if err != nil {
		j.Error = describe(err, "")
	}
	if werr := out.record(j, func(w io.Writer) {
		field(w, "a", show(a))
		field(w, "b", show(b))
		field(w, "level", *level)
		if j.Error != nil {
			field(w, "error", fmt.Sprintf("%s (%s)", j.Error.Message, j.Error.Argument))
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
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	return eachInput(fs.Args(), stdin, func(in string) (bool, error) {
		u, err := rfc3987.ToURI(in)
		return err == nil, writeResult(out, in, nil, u.String(), err, "input")
	})
}

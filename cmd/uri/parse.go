package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/peguri/rfc3986/parser"
)

// parseJSON is the -json object of a valid input of a URI-level rule;
// undefined components are null.
type parseJSON struct {
	Input       string  `json:"input"`
	InputQuoted *string `json:"inputQuoted,omitempty"`
	Valid       bool    `json:"valid"`
	Rule        string  `json:"rule"`
	Scheme      *string `json:"scheme"`
	Userinfo    *string `json:"userinfo"`
	Host        *string `json:"host"`
	HostKind    *string `json:"hostKind"`
	Port        *string `json:"port"`
	Path        string  `json:"path"`
	Query       *string `json:"query"`
	Fragment    *string `json:"fragment"`
}

// ruleJSON is the -json object of a valid input of any other rule.
type ruleJSON struct {
	Input       string  `json:"input"`
	InputQuoted *string `json:"inputQuoted,omitempty"`
	Valid       bool    `json:"valid"`
	Rule        string  `json:"rule"`
}

// invalidJSON is the -json object of an input that is invalid, or valid
// but too long for a tree (Valid is then true, and Error says so).
type invalidJSON struct {
	Input       string    `json:"input"`
	InputQuoted *string   `json:"inputQuoted,omitempty"`
	Truncated   bool      `json:"truncated,omitempty"`
	Valid       bool      `json:"valid"`
	Rule        string    `json:"rule"`
	Error       errorJSON `json:"error"`
}

type errorJSON struct {
	Offset  int    `json:"offset"`
	Message string `json:"message"`
}

func opt(s string, defined bool) *string {
	if !defined {
		return nil
	}
	return &s
}

func cmdParse(args []string, stdin io.Reader, out *output, stderr io.Writer) error {
	fs := newFlags("parse", stderr)
	rule := fs.String("rule", "", "parse as this `rule`, any rule of the grammar (default: URI-reference; IRI-reference for rfc3987)")
	grammar := fs.String("grammar", "rfc3986", "built-in `grammar`: "+grammarNames())
	fs.BoolVar(&out.json, "json", false, "print JSON Lines")
	inputs, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	g, name, err := lookup(*grammar, *rule)
	if err != nil {
		return err
	}
	return eachInput(inputs, stdin, func(in input) (bool, error) {
		if in.tooLong() {
			return false, writeInvalid(out, in, name, in.lengthError(name))
		}
		syn := g
		var u parser.URI
		var err error
		if syn.IsURIRule(name) {
			u, err = syn.Parse(name, in.s)
		} else {
			err = syn.Validate(name, in.s)
		}
		if err != nil {
			return false, writeInvalid(out, in, name, err)
		}
		if !g.IsURIRule(name) {
			return true, out.record(ruleJSON{Input: in.s, InputQuoted: quoted(in.s), Valid: true, Rule: name}, func(w io.Writer) {
				field(w, "input", show(in.s))
				field(w, "valid", "true")
				field(w, "rule", name)
			})
		}
		j := parseJSON{
			Input: in.s, InputQuoted: quoted(in.s), Valid: true, Rule: name,
			Scheme:   opt(u.Scheme(), u.HasScheme()),
			Userinfo: opt(u.Userinfo(), u.HasUserinfo()),
			Host:     opt(u.Host(), u.HasAuthority()),
			HostKind: opt(u.HostKind().String(), u.HasAuthority()),
			Port:     opt(u.Port(), u.HasPort()),
			Path:     u.Path(),
			Query:    opt(u.Query(), u.HasQuery()),
			Fragment: opt(u.Fragment(), u.HasFragment()),
		}
		return true, out.record(j, func(w io.Writer) {
			field(w, "input", show(in.s))
			field(w, "valid", "true")
			field(w, "rule", name)
			for _, f := range []struct {
				name string
				v    *string
			}{{"scheme", j.Scheme}, {"userinfo", j.Userinfo}, {"host", j.Host}, {"hostKind", j.HostKind}, {"port", j.Port}, {"path", &j.Path}, {"query", j.Query}, {"fragment", j.Fragment}} {
				if f.v == nil {
					field(w, f.name, "(undefined)")
				} else {
					field(w, f.name, show(*f.v))
				}
			}
		})
	})
}

// writeInvalid reports an input the parser refused, or a valid one too
// long for a tree, on its own record.
func writeInvalid(out *output, in input, rule string, err error) error {
	var pe *parser.Error
	if !errors.As(err, &pe) {
		return fmt.Errorf("%.80q: %w", in.s, err) // not expected: every parse error is one
	}
	valid := errors.Is(err, parser.ErrTooLongForTree)
	return out.record(invalidJSON{Input: in.s, InputQuoted: quoted(in.s), Truncated: in.tooLong(), Valid: valid, Rule: rule,
		Error: errorJSON{Offset: pe.Offset, Message: pe.Reason()}}, func(w io.Writer) {
		field(w, "input", showInput(in))
		field(w, "valid", fmt.Sprint(valid))
		field(w, "rule", rule)
		field(w, "error", pe.Reason())
		if !valid && !in.tooLong() {
			fmt.Fprintf(w, "          %s\n", indentCaret(caretOnly(pe)))
		}
	})
}

// caretOnly is the input and the caret line of pe.Caret, without the
// message repeated.
func caretOnly(pe *parser.Error) string {
	c := pe.Caret()
	for i, n := 0, 0; i < len(c); i++ {
		if c[i] == '\n' {
			n++
			if n == 2 {
				return c[:i]
			}
		}
	}
	return c
}

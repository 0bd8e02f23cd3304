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
	Input    string  `json:"input"`
	Valid    bool    `json:"valid"`
	Rule     string  `json:"rule"`
	Scheme   *string `json:"scheme"`
	Userinfo *string `json:"userinfo"`
	Host     *string `json:"host"`
	HostKind *string `json:"hostKind"`
	Port     *string `json:"port"`
	Path     string  `json:"path"`
	Query    *string `json:"query"`
	Fragment *string `json:"fragment"`
}

// ruleJSON is the -json object of a valid input of any other rule.
type ruleJSON struct {
	Input string `json:"input"`
	Valid bool   `json:"valid"`
	Rule  string `json:"rule"`
}

// invalidJSON is the -json object of an invalid input.
type invalidJSON struct {
	Input string    `json:"input"`
	Valid bool      `json:"valid"`
	Rule  string    `json:"rule"`
	Error errorJSON `json:"error"`
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
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	g, name, err := lookup(*grammar, *rule)
	if err != nil {
		return err
	}
	return eachInput(fs.Args(), stdin, func(in string) (bool, error) {
		var u parser.URI
		var err error
		if g.IsURIRule(name) {
			u, err = g.Parse(name, in)
		} else {
			err = g.Validate(name, in)
		}
		if err != nil {
			return false, writeInvalid(out, in, name, err)
		}
		if !g.IsURIRule(name) {
			return true, out.record(ruleJSON{Input: in, Valid: true, Rule: name}, func(w io.Writer) {
				field(w, "input", show(in))
				field(w, "valid", "true")
				field(w, "rule", name)
			})
		}
		p := u.Parts()
		j := parseJSON{
			Input: in, Valid: true, Rule: name,
			Scheme:   opt(p.Scheme, p.HasScheme),
			Userinfo: opt(p.Userinfo, p.HasUserinfo),
			Host:     opt(p.Host, p.HasAuthority),
			HostKind: opt(u.HostKind().String(), p.HasAuthority),
			Port:     opt(p.Port, p.HasPort),
			Path:     p.Path,
			Query:    opt(p.Query, p.HasQuery),
			Fragment: opt(p.Fragment, p.HasFragment),
		}
		return true, out.record(j, func(w io.Writer) {
			field(w, "input", show(in))
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

// writeInvalid reports an invalid input on its own record.
func writeInvalid(out *output, in, rule string, err error) error {
	var pe *parser.Error
	if !errors.As(err, &pe) {
		return err
	}
	return out.record(invalidJSON{Input: in, Valid: false, Rule: rule, Error: errorJSON{Offset: pe.Offset, Message: pe.Reason()}}, func(w io.Writer) {
		field(w, "input", show(in))
		field(w, "valid", "false")
		field(w, "rule", rule)
		field(w, "error", pe.Reason())
		fmt.Fprintf(w, "          %s\n", indentCaret(caretOnly(pe)))
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

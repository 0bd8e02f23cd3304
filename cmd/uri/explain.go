package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/peguri/rfc3986/explain"
	"github.com/peguri/rfc3986/parser"
)

// explainJSON is the -json object of explain: the explanation, with the
// input's Go-quoted form when it is not valid UTF-8.
type explainJSON struct {
	*explain.Explanation
	InputQuoted *string `json:"inputQuoted,omitempty"`
	// Error is, for an invalid input, the error object every subcommand
	// gives: the offset, and the failure in one line.
	Error *errorJSON `json:"error,omitempty"`
}

// failureMessage is a failure in one line.
func failureMessage(f *explain.Diagnosis) string {
	return fmt.Sprintf("%s could not continue at offset %d: found %s; expected %s", f.Rule, f.Offset, f.Found, strings.Join(f.Expected, ", "))
}

var (
	explainersMu sync.Mutex
	explainers   = map[string]*explain.Explainer{}
)

// explainer returns the Explainer of a built-in grammar, read once.
func explainer(name string) (*explain.Explainer, error) {
	explainersMu.Lock()
	defer explainersMu.Unlock()
	if x, ok := explainers[name]; ok {
		return x, nil
	}
	x, err := explain.New(name)
	if err != nil {
		return nil, err
	}
	explainers[name] = x
	return x, nil
}

func cmdExplain(args []string, stdin io.Reader, out *output, stderr io.Writer) error {
	fs := newFlags("explain", stderr)
	rule := fs.String("rule", "", "explain as this `rule`, any rule of the grammar (default: URI-reference; IRI-reference for rfc3987)")
	grammar := fs.String("grammar", "rfc3986", "built-in `grammar`: "+grammarNames())
	fs.BoolVar(&out.json, "json", false, "print JSON Lines")
	jobsFlag(fs, out)
	inputs, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	g, name, err := lookup(*grammar, *rule)
	if err != nil {
		return err
	}
	x, err := explainer(*grammar)
	if err != nil {
		return err
	}
	return eachInput(inputs, stdin, out, func(out *output, in input) (bool, error) {
		if in.tooLong() {
			return false, writeInvalid(out, in, name, in.lengthError(name))
		}
		if len(in.s) > parser.MaxTreeLength {
			// As tree does: a valid input is valid, but too long for a
			// tree (ErrTooLongForTree); an invalid one gets the DFA's
			// error.
			_, err := g.ParseRule(name, in.s)
			return false, writeInvalid(out, in, name, err)
		}
		ex, err := x.Explain(name, in.s)
		if err != nil {
			if errors.Is(err, parser.ErrUnknownRule) {
				return false, usageError{msg: err.Error()}
			}
			return false, err
		}
		j := explainJSON{Explanation: ex, InputQuoted: quoted(in.s)}
		msg := ""
		if f := ex.Failure; f != nil {
			// The error as parse gives it, from the generated parser,
			// which the tests hold to the explanation's offset and rule;
			// the explanation's own words are its failure.
			j.Error = &errorJSON{Offset: f.Offset, Message: failureMessage(f)}
			var pe *parser.Error
			if errors.As(g.Validate(name, in.s), &pe) {
				j.Error = &errorJSON{Offset: pe.Offset, Message: pe.Reason()}
			}
			msg = j.Error.Message
		}
		return ex.Valid, out.record(j, func(w io.Writer) { writeExplanation(w, ex, msg) })
	})
}

// dedent splits text into lines and removes the indentation they all
// share: a rule's continuation lines keep theirs, under its "=".
func dedent(text string) []string {
	lines := strings.Split(text, "\n")
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	common := -1
	for _, l := range lines {
		if strings.TrimSpace(l) != "" && (common < 0 || indent(l) < common) {
			common = indent(l)
		}
	}
	for i, l := range lines {
		lines[i] = l[min(max(common, 0), indent(l)):]
	}
	return lines
}

// writeExplanation writes ex for people; msg is the error's message.
func writeExplanation(w io.Writer, ex *explain.Explanation, msg string) {
	field(w, "input", show(ex.Input))
	field(w, "valid", fmt.Sprint(ex.Valid))
	field(w, "rule", ex.Rule)
	if f := ex.Failure; f != nil {
		field(w, "error", msg)
		fmt.Fprintf(w, "          %s\n", indentCaret(caretOnly(&parser.Error{Input: ex.Input, Offset: f.Offset})))
		field(w, "failing", fmt.Sprintf("%s, from offset %d (%s):", f.Rule, f.Start, f.Source))
		for _, l := range dedent(f.ABNF) {
			fmt.Fprintf(w, "          %s\n", l)
		}
		var chain []string
		for _, r := range f.Chain {
			chain = append(chain, fmt.Sprintf("%s@%d", r.Rule, r.Start))
		}
		chain = append(chain, fmt.Sprintf("%s@%d", f.Rule, f.Start))
		field(w, "chain", strings.Join(chain, " > "))
		for i, o := range f.Open {
			label := ""
			if i == 0 {
				label = "open:"
			}
			what := "could go on with " + strings.Join(o.Expected, ", ")
			if len(o.Expected) == 1 && o.Expected[0] == "end of input" {
				what = "could end here"
			}
			fmt.Fprintf(w, "%-9s %s@%d %s\n", label, o.Rule, o.Start, what)
		}
		return
	}
	var walk func(s *explain.Span, depth int)
	walk = func(s *explain.Span, depth int) {
		label := ""
		if depth == 0 {
			label = "tree:"
		}
		fmt.Fprintf(w, "%-9s %s%s [%d,%d) %s\n", label, strings.Repeat("  ", depth), s.Rule, s.Start, s.End, show(s.Text))
		for _, k := range s.Kids {
			walk(k, depth+1)
		}
	}
	if ex.Tree != nil {
		walk(ex.Tree, 0)
	}
	for _, h := range ex.Hosts {
		field(w, "host", fmt.Sprintf("%s [%d,%d) is %s: %s", show(h.Text), h.Start, h.End, h.Kind, h.Reason))
	}
}

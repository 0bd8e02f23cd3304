package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/peguri/rfc3986/parser"
)

// treeJSON is one node of the -json tree.
type treeJSON struct {
	Rule     string      `json:"rule"`
	Start    int         `json:"start"`
	End      int         `json:"end"`
	Text     string      `json:"text"`
	Children []*treeJSON `json:"children"`
}

func toJSON(in string, n *parser.Node) *treeJSON {
	j := &treeJSON{Rule: n.Rule, Start: n.Start, End: n.End, Text: in[n.Start:n.End], Children: []*treeJSON{}}
	for _, k := range n.Kids {
		j.Children = append(j.Children, toJSON(in, k))
	}
	return j
}

func cmdTree(args []string, stdin io.Reader, out *output, stderr io.Writer) error {
	fs := newFlags("tree", stderr)
	rule := fs.String("rule", "", "parse as this `rule`, any rule of the grammar (default: URI-reference; IRI-reference for rfc3987)")
	grammar := fs.String("grammar", "rfc3986", "built-in `grammar`: "+grammarNames())
	fs.BoolVar(&out.json, "json", false, "print JSON Lines: one nested tree per input")
	jobsFlag(fs, out)
	inputs, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	g, name, err := lookup(*grammar, *rule)
	if err != nil {
		return err
	}
	return eachInput(inputs, stdin, out, func(out *output, in input) (bool, error) {
		if in.tooLong() {
			return false, writeInvalid(out, in, name, in.lengthError(name))
		}
		// A valid input longer than parser.MaxTreeLength gets an error
		// wrapping parser.ErrTooLongForTree: writeInvalid says it is
		// valid, and too long for a tree.
		n, err := g.ParseRule(name, in.s)
		if err != nil {
			return false, writeInvalid(out, in, name, err)
		}
		if out.json {
			if b, ok := appendTreeJSON(out.w.AvailableBuffer(), in.s, n); ok {
				out.n++
				_, err := out.w.Write(b)
				return true, err
			}
		}
		return true, out.record(toJSON(in.s, n), func(w io.Writer) {
			var walk func(*parser.Node, int)
			walk = func(n *parser.Node, depth int) {
				fmt.Fprintf(w, "%s%s [%d,%d) %q\n", strings.Repeat("  ", depth), n.Rule, n.Start, n.End, in.s[n.Start:n.End])
				for _, k := range n.Kids {
					walk(k, depth+1)
				}
			}
			walk(n, 0)
		})
	})
}

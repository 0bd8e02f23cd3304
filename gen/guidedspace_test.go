package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/peg"
)

// TestGuidedWhiteSpace: valid JSON (RFC 8259) with a long run of white
// space before a value, which two guided rules could share (JSON-text =
// ws value ws, and value may begin with begin-array = ws %x5B ws), through
// the runtime as a user runs it: gen peg's translation built by pigeon,
// package parser's Validate and ParseRule (ParseRule's budget, 10,000 plus
// 150 per byte), and the least budget with which syntax.Grammar.Parse
// accepts, which counts the guide's steps and pigeon's expressions. That
// budget was about 3n² (1,249,521 at n = 640: ParseRule refused valid JSON
// from about 88 spaces, "too much work"); it must be linear: within
// ParseRule's, and at most 2.5 times as large when the run doubles.
func TestGuidedWhiteSpace(t *testing.T) {
	g, err := abnf.ReadFiles([]string{grammarsDir + "/rfc8259-json.abnf"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := peg.Translate(g, peg.Options{Start: []string{"JSON-text"}, Package: "main", Witnesses: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.PEG), "Enter(") {
		t.Fatal("JSON-text no longer leaves a decision to the recognizer: the test needs another grammar")
	}
	sizes := []int{80, 160, 320, 640, 1280, 2560}
	shapes := [][2]string{{"", "1"}, {"[1,\n", "1]"}, {`{"a":`, "1}"}}
	var inputs []string
	for _, s := range shapes {
		for _, n := range sizes {
			inputs = append(inputs, s[0]+strings.Repeat(" ", n)+s[1])
		}
	}
	const main = `package main

import (
	"fmt"
	"os"

	rfcparser "github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/syntax"
)

func main() {
	p, err := rfcparser.NewParser("json", PEG(), nil)
	if err != nil {
		panic(err)
	}
	g, err := syntax.NewGrammar("json", PEG(), nil)
	if err != nil {
		panic(err)
	}
	for _, in := range os.Args[1:] {
		verr := p.Validate("JSON-text", in)
		_, perr := p.ParseRule("JSON-text", in)
		// The least budget with which Parse accepts.
		lo, hi := uint64(1), uint64(1)<<24
		for lo < hi {
			m := (lo + hi) / 2
			if _, f := g.Parse("JSON-text", []byte(in), m); f == nil {
				hi = m
			} else {
				lo = m + 1
			}
		}
		fmt.Printf("%d %d %q %q\n", len(in), lo, fmt.Sprint(verr), fmt.Sprint(perr))
	}
}
`
	out := runPigeon(t, res.PEG, main, inputs...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(inputs) {
		t.Fatalf("%d lines for %d inputs:\n%s", len(lines), len(inputs), out)
	}
	for i, line := range lines {
		in, n := inputs[i], sizes[i%len(sizes)]
		var size, need int
		var verr, perr string
		if _, err := fmt.Sscanf(line, "%d %d %q %q", &size, &need, &verr, &perr); err != nil || size != len(in) {
			t.Fatalf("%q: %q: %v", in, line, err)
		}
		shape := shapes[i/len(sizes)]
		t.Logf("%q + %d spaces + %q: %d bytes, least budget %d (%.1f per byte)", shape[0], n, shape[1], size, need, float64(need)/float64(size))
		if verr != "<nil>" || perr != "<nil>" {
			t.Errorf("%d spaces: Validate: %s; ParseRule: %s", n, verr, perr)
		}
		if budget := parseRuleBase + parseRulePerByte*size; need > budget {
			t.Errorf("%d spaces: a budget of %d needed, ParseRule's is %d", n, need, budget)
		}
		if i%len(sizes) > 0 {
			var prev int
			fmt.Sscanf(lines[i-1], "%d %d", new(int), &prev)
			if float64(need) > 2.5*float64(prev) {
				t.Errorf("%d spaces: a budget of %d needed, more than 2.5 times the %d of %d spaces", n, need, prev, n/2)
			}
		}
	}
}

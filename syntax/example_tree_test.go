package syntax_test

import (
	"fmt"

	"github.com/peguri/rfc3986/syntax"
)

// treeDigits is what gen dfa -tree writes for pigeon's entry rule of
// `digits = 1*DIGIT`, digits "digits" <- v:([0-9]+) { return
// c.capture("digits", v) }, folded into one function: pigeon's
// expressions evaluated in pigeon's order, each counted, and the capture.
func treeDigits(p *syntax.TreeParser) bool {
	p.Names = []string{"digits"}
	p.N++ // the capture action
	start, m := p.Pos, p.Mark()
	n := 0
	for p.Check() {
		p.N++ // one [0-9]
		if p.Pos == len(p.In) || p.In[p.Pos] < '0' || p.In[p.Pos] > '9' {
			break
		}
		p.Pos++
		n++
	}
	if n == 0 {
		return false
	}
	p.Capture(0, start, m)
	return p.Pos == len(p.In)
}

func ExampleGrammar_Tree() {
	// The grammar of ExampleNewGrammar, its pigeon parser written by hand,
	// with the DFA of 1*DIGIT and its tree function, as gen dfa -tree
	// emits them.
	peg := digitsPEG()
	classes := make([]byte, 256)
	for c := '0'; c <= '9'; c++ {
		classes[c] = 1
	}
	dfa := syntax.Tables{"digits": {
		States: 3, NClass: 2, Classes: string(classes),
		Next:   "\x00\x00" + "\x00\x02" + "\x00\x02",
		Accept: "\x00\x00\x01",
		Tree:   treeDigits,
	}}
	g, err := syntax.NewGrammar("digits", peg, dfa)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.HasTree("digits"))
	n := g.GeneratedTree("digits", "123", 1000) // built by treeDigits
	fmt.Println(n.Rule, n.Start, n.End)
	n, _ = g.Tree("digits", []byte("4567"), 1000) // the same, from bytes
	fmt.Println(n.Rule, n.Start, n.End)
	fmt.Println(g.GeneratedTree("digits", "12x", 1000) == nil) // no tree: pigeon says why
	_, f := g.TreeString("digits", "12x", 1000)
	fmt.Println(f.Offset, f.Expected)
	fmt.Println(g.GeneratedTree("digits", "123", 2) == nil) // past pigeon's expression limit
	// Output:
	// true
	// digits 0 3
	// digits 0 4
	// true
	// 2 [[0-9]]
	// true
}

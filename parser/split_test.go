package parser_test

import (
	"testing"

	"github.com/peguri/rfc3986/parser"
)

// Parse splits a reference with the marks the Appendix B scan leaves in
// the DFA's walk (syntax's Table.Marked); the scan itself (split) is the
// reference it is held to, and the parse tree (TestDifferential, FuzzParse,
// TestTreeDifferential) the reference of both.

// TestMarksFold: the marks fold into the URI rules' DFAs of every grammar
// of this module, so that none of them splits in a second pass.
func TestMarksFold(t *testing.T) {
	for _, g := range treeGrammars {
		if !parser.MarksFold(g.p()) {
			t.Errorf("%s: the Appendix B scan's marks do not fold into the URI rules' DFAs", g.name)
		}
	}
}

// checkSplit checks that every URI rule of p that accepts in splits it as
// the scan does, and as the parse tree does.
func checkSplit(t *testing.T, p *parser.Parser, in string) {
	t.Helper()
	for _, rule := range p.URIRules() {
		u, err := p.Parse(rule, in)
		if err != nil {
			continue
		}
		if scan := parser.SplitScan(p, in); u != scan {
			t.Fatalf("%s %s %q: marks split %#v (%v), the scan %#v (%v)", p.Name(), rule, in, u.Parts(), u.HostKind(), scan.Parts(), scan.HostKind())
		}
		if len(in) > parser.MaxTreeLength {
			continue
		}
		if tree, _, err := p.ParseTree(rule, in); err != nil || tree != u {
			t.Fatalf("%s %s %q: marks split %#v (%v), the parse tree %#v (%v), %v", p.Name(), rule, in, u.Parts(), u.HostKind(), tree.Parts(), tree.HostKind(), err)
		}
	}
}

// TestSplitMarks runs the conformance suite, the bench corpus, samples of
// every rule and the external corpora through every URI rule of every
// grammar.
func TestSplitMarks(t *testing.T) {
	inputs := append(treeInputs(t), corpusInputs(t)...)
	inputs = append(inputs, "//u:p@h:1/", "//u:p:q@[::1]:80/", "//@", "//:", "//h:", "//[v7.a:b]:/", "a://b@c@d", "//a:b@", "s:/:/?:#:", "?a?b#c?#")
	for _, g := range treeGrammars {
		p := g.p()
		for _, in := range inputs {
			checkSplit(t, p, in)
		}
	}
}

// FuzzSplit checks the marks' split on arbitrary bytes, in a grammar
// chosen by the first byte.
func FuzzSplit(f *testing.F) {
	for i, in := range append(treeInputs(f), corpusInputs(f)...) {
		f.Add(byte(i), in)
	}
	f.Fuzz(func(t *testing.T, sel byte, in string) {
		checkSplit(t, treeGrammars[int(sel)%len(treeGrammars)].p(), in)
	})
}

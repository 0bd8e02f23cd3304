package abnf_test

import (
	"bufio"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/parser"
)

// smallCounts reports whether every repetition count of g is at most 64:
// the slow reference unrolls counts one step at a time, so that nested large
// counts would take it hours.
func smallCounts(g *abnf.Grammar) bool {
	ok := true
	for _, r := range g.Rules {
		abnf.Walk(r.Expr, func(n abnf.Node) {
			if rep, is := n.(*abnf.Repeat); is && (rep.Min > 64 || rep.Max > 64) {
				ok = false
			}
		})
	}
	return ok
}

// FuzzMatchReference: on any grammar that reads and any input, the matcher
// (in its three configurations) agrees with the slow reference where that
// applies (no left recursion), and with the least-fixpoint oracle on short
// inputs, left recursion included.
func FuzzMatchReference(f *testing.F) {
	for _, tt := range matchSemanticsTests {
		f.Add(tt.grammar+"\n", []byte(tt.in))
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for range 50 {
		f.Add(randGrammar(rng, 1+rng.IntN(3)), []byte("abcab"[:rng.IntN(6)]))
	}
	f.Fuzz(func(t *testing.T, src string, in []byte) {
		if len(src) > 400 || len(in) > 32 {
			return
		}
		g, err := abnf.ReadString("f.abnf", src)
		if err != nil || !smallCounts(g) {
			return
		}
		rule := g.Rules[0].Name
		nfa, earley, counted := matchers(t, g)
		got := mustMatch(t, nfa, rule, in)
		if g2 := mustMatch(t, earley, rule, in); g2 != got {
			t.Fatalf("%sMatch(%q): NFA path %v, Earley %v", src, in, got, g2)
		}
		if g3 := mustMatch(t, counted, rule, in); g3 != got {
			t.Fatalf("%sMatch(%q): NFA path %v, counters and calls %v", src, in, got, g3)
		}
		if slow, err := abnf.NewSlowMatcher(g); err == nil {
			if want, _ := slow(rule, in); want != got {
				t.Fatalf("%sMatch(%q) = %v, slow reference %v", src, in, got, want)
			}
		}
		if len(in) <= 12 {
			if want := fixpointMatch(g, rule, in); want != got {
				t.Fatalf("%sMatch(%q) = %v, fixpoint reference %v", src, in, got, want)
			}
		}
	})
}

// FuzzMatchParser: the matcher on RFC 3986 Appendix A agrees with the
// project's generated pigeon parser (parser.ParseRule, which takes inputs of
// up to 64 KiB) on every rule.
func FuzzMatchParser(f *testing.F) {
	for i, tt := range matchTests {
		f.Add(uint8(i), tt.in)
	}
	if fh, err := os.Open(filepath.Join("..", "..", "testdata", "bench-corpus.txt")); err == nil {
		sc := bufio.NewScanner(fh)
		for i := 0; sc.Scan(); i++ {
			f.Add(uint8(i), sc.Text())
		}
		fh.Close()
	}
	m, err := abnf.NewMatcher(rfc3986(f))
	if err != nil {
		f.Fatal(err)
	}
	rules := parser.Rules()
	f.Fuzz(func(t *testing.T, ri uint8, in string) {
		if len(in) > parser.MaxTreeLength {
			return
		}
		rule := rules[int(ri)%len(rules)]
		_, perr := parser.ParseRule(rule, in)
		if got := mustMatch(t, m, rule, []byte(in)); got != (perr == nil) {
			t.Fatalf("%s %q: matcher %v, parser.ParseRule error %v", rule, in, got, perr)
		}
	})
}

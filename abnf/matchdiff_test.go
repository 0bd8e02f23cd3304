package abnf_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/internal/grammarindex"
)

// matchers returns three Matchers for g: as compiled (NFA simulation where
// the program allows it), forced to the general Earley recognizer, and with
// the compiler's limits at zero, so that every rule is called and every
// bounded repetition counts.
func matchers(t testing.TB, g *abnf.Grammar) (nfa, earley, counted *abnf.Matcher) {
	t.Helper()
	nfa, err := abnf.NewMatcher(g)
	if err != nil {
		t.Fatal(err)
	}
	earley, _ = abnf.NewMatcher(g)
	abnf.ForceEarley(earley)
	counted, _ = abnf.NewMatcher(g)
	abnf.SetLimits(counted, 0, 0)
	return nfa, earley, counted
}

// TestMatchRandomGrammars checks the matcher against the two references on
// random grammars: the slow memoizing matcher where it applies (no left
// recursion) on every string of up to five letters, and the least-fixpoint
// oracle, which takes left recursion, on every string of up to four.
func TestMatchRandomGrammars(t *testing.T) {
	ngrammars := 400
	if testing.Short() {
		ngrammars = 60
	}
	rng := rand.New(rand.NewPCG(1, 2))
	inputs5 := allStrings("abc", 5)
	var slowN, fixN, leftRec int
	for gi := range ngrammars {
		src := randGrammar(rng, 1+rng.IntN(4))
		g, err := abnf.ReadString("r.abnf", src)
		if err != nil {
			t.Fatalf("random grammar does not read: %v\n%s", err, src)
		}
		nfa, earley, counted := matchers(t, g)
		slow, slowErr := abnf.NewSlowMatcher(g)
		if slowErr != nil {
			leftRec++
		}
		for _, in := range inputs5 {
			got, err := nfa.Match("r0", in)
			if err != nil {
				t.Fatal(err)
			}
			if got2, _ := earley.Match("r0", in); got2 != got {
				t.Fatalf("grammar %d:\n%sMatch(r0, %q): NFA path %v, Earley %v", gi, src, in, got, got2)
			}
			if got3, _ := counted.Match("r0", in); got3 != got {
				t.Fatalf("grammar %d:\n%sMatch(r0, %q): NFA path %v, with counters and calls %v", gi, src, in, got, got3)
			}
			if slowErr == nil {
				want, _ := slow("r0", in)
				slowN++
				if got != want {
					t.Fatalf("grammar %d:\n%sMatch(r0, %q) = %v, slow reference %v", gi, src, in, got, want)
				}
			}
			if len(in) <= 4 && (slowErr != nil || gi%4 == 0) {
				fixN++
				if want := fixpointMatch(g, "r0", in); got != want {
					t.Fatalf("grammar %d:\n%sMatch(r0, %q) = %v, fixpoint reference %v", gi, src, in, got, want)
				}
			}
		}
	}
	t.Logf("%d grammars (%d left-recursive): %d comparisons with the slow matcher, %d with the fixpoint oracle", ngrammars, leftRec, slowN, fixN)
}

// TestMatchAppendixADiff compares the matcher with the slow reference on
// samples and near-misses of every rule of RFC 3986 Appendix A.
func TestMatchAppendixADiff(t *testing.T) {
	g := rfc3986(t)
	nfa, earley, counted := matchers(t, g)
	slow, err := abnf.NewSlowMatcher(g)
	if err != nil {
		t.Fatal(err)
	}
	n := 300
	if testing.Short() {
		n = 40
	}
	count, yes := 0, 0
	for _, r := range g.Rules {
		s := abnf.NewSampler(g, 11)
		for i := range 2 * n {
			var in []byte
			if i%2 == 0 {
				in, err = s.Sample(r.Name)
			} else {
				in, err = s.NearMiss(r.Name)
			}
			if err != nil {
				t.Fatal(err)
			}
			want, _ := slow(r.Name, in)
			got, _ := nfa.Match(r.Name, in)
			got2, _ := earley.Match(r.Name, in)
			got3, _ := counted.Match(r.Name, in)
			count++
			if want {
				yes++
			}
			if got != want || got2 != want || got3 != want {
				t.Errorf("Match(%s, %q) = %v (Earley %v, counted %v), slow reference %v", r.Name, in, got, got2, got3, want)
			}
		}
	}
	t.Logf("%d inputs, %d valid", count, yes)
}

// TestMatchRealGrammars compares the matcher with the slow reference on
// samples and near-misses of every start rule of the real grammars.
func TestMatchRealGrammars(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 20
	}
	total := 0
	idx, err := grammarindex.Read("../testdata/grammars")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range idx {
		if f.Reject {
			continue
		}
		g, err := abnf.ReadFiles([]string{f.Path("../testdata/grammars")}, &abnf.Options{Octets: f.Octets})
		if err != nil {
			t.Fatalf("%s: %v", f.File, err)
		}
		m, err := abnf.NewMatcher(g)
		if err != nil {
			t.Fatal(err)
		}
		slow, err := abnf.NewSlowMatcher(g)
		if err != nil && strings.Contains(err.Error(), "left recursion") {
			// The reference takes no left recursion; gen's tests check
			// the matcher on these against the generated parsers.
			t.Logf("%s: skipped: %v", f.File, err)
			continue
		}
		if err != nil {
			t.Fatalf("%s: slow reference: %v", f.File, err)
		}
		for _, rule := range f.Starts {
			s := abnf.NewSampler(g, 3)
			s.MaxLen = 200 // the slow reference is quadratic in memory
			for i := range 2 * n {
				var in []byte
				if i%2 == 0 {
					in, err = s.Sample(rule)
				} else {
					in, err = s.NearMiss(rule)
				}
				if err != nil {
					t.Fatal(err)
				}
				got := mustMatch(t, m, rule, in)
				want, _ := slow(rule, in)
				total++
				if got != want || i%2 == 0 && !got {
					t.Errorf("%s %s %q: matcher %v, slow reference %v", f.File, rule, in, got, want)
				}
			}
		}
	}
	t.Logf("%d inputs", total)
}

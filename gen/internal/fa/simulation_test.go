package fa

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// TestSimulationKeepsLanguage: subset construction with every set pruned
// of the states another simulates gives the same minimal DFA as without,
// on random NFAs (a pruned set accepts what the whole set does).
func TestSimulationKeepsLanguage(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	pruned := 0
	for i := range 3000 {
		n := randomNFA(rng)
		from := []int32{n.Start}
		plain, err := determinize(n, from, Limits{}, false)
		if err != nil {
			t.Fatal(err)
		}
		sim, err := determinize(n, from, Limits{}, true)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := sim.Minimize(), plain.Minimize(); got.Key() != want.Key() {
			t.Fatalf("case %d: pruned subset construction differs:\n%s\n%s", i, got.Key(), want.Key())
		}
		if len(sim.Next) < len(plain.Next) {
			pruned++
		}
	}
	if pruned == 0 {
		t.Error("pruning never made a DFA smaller: the test tests nothing")
	}
	t.Logf("%d of 3000 DFAs smaller pruned", pruned)
}

// TestSimulationCounters: a bounded repetition that can start at every
// character, after a loop on everything (RFC 5424's SD-NAME =
// 1*32PRINTUSASCII after PARAM-VALUE = *OCTET), makes subset construction
// track every subset of the repetition's positions; pruned, it tracks the
// least advanced, as the minimal DFA does.
func TestSimulationCounters(t *testing.T) {
	// Σ* "[" (x (x (x …)?)?)? "]" with x any of a, "[", "]": every "["
	// may start a new count while the older ones go on.
	b := &Builder{}
	s := b.State()
	b.Edge(s, s, Of('a', '[', ']'))
	cur := b.State()
	b.Edge(s, cur, Of('['))
	end := b.State()
	b.Eps(cur, end)
	for range 24 {
		next := b.State()
		b.Edge(cur, next, Of('a', '[', ']'))
		b.Eps(next, end)
		cur = next
	}
	acc := b.State()
	b.Edge(end, acc, Of(']'))
	n := b.NFA(s, acc)
	_, err := DeterminizeLimits(n, []int32{s}, Limits{States: 65535})
	var le *LimitError
	if !errors.As(err, &le) {
		t.Fatalf("unpruned: %v, want the state limit", err)
	}
	var d *DFA
	steps := stepsOf(func() { d, err = DeterminizeLimits(n, []int32{s}, Limits{States: 65535, Simulate: true}) })
	if err != nil {
		t.Fatalf("pruned: %v", err)
	}
	m := d.Minimize()
	if len(d.Next) > 2*len(m.Next) {
		t.Errorf("pruned: %d DFA states for a minimal DFA of %d", len(d.Next), len(m.Next))
	}
	t.Logf("pruned: %d DFA states, minimal %d, %d steps (the unpruned try included)", len(d.Next), len(m.Next), steps)
}

package syntax

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// randomRegularNet is a network of rules that call only the rules after
// them (so every rule is regular), with ε-edges, character edges on ASCII
// and wider classes, and calls, on a few states per rule.
func randomRegularNet(rng *rand.Rand) *Net {
	classes := [][]rune{{'a', 'a'}, {'b', 'c'}, {' ', ' '}, {'a', 'z'}, {0xE9, 0xE9}, {0x100, 0x2FF}, {'0', '9', 0x4E00, 0x4E10}}
	n := &Net{Classes: classes}
	var edges [][]NetEdge
	state := func() int32 { edges = append(edges, nil); return int32(len(edges) - 1) }
	rules := 2 + rng.IntN(5)
	var states [][]int32 // each rule's: start, final, inner states
	for i := range rules {
		n.Rules = append(n.Rules, NetRule{Name: string(rune('A' + i)), Start: state(), Final: state()})
		own := []int32{n.Rules[i].Start, n.Rules[i].Final}
		for range 1 + rng.IntN(4) {
			own = append(own, state())
		}
		states = append(states, own)
	}
	for i, own := range states {
		for range 2 + rng.IntN(7) {
			from := own[rng.IntN(len(own))]
			if from == n.Rules[i].Final {
				from = n.Rules[i].Start
			}
			to := own[rng.IntN(len(own))]
			switch k := rng.IntN(4); {
			case k == 0:
				edges[from] = append(edges[from], NetEdge{To: to, Class: -1, Call: -1})
			case k == 1 && i+1 < rules:
				edges[from] = append(edges[from], NetEdge{To: to, Class: -1, Call: int32(i + 1 + rng.IntN(rules-i-1))})
			default:
				edges[from] = append(edges[from], NetEdge{To: to, Class: int32(rng.IntN(len(classes))), Call: -1})
			}
		}
	}
	return withEdges(n, edges)
}

// TestGuideDFA holds the ends that regular rules' DFAs find to those the
// simulation finds, on random regular networks and inputs of ASCII, wider
// and invalid UTF-8.
func TestGuideDFA(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "b", "c", " ", "z", "é", "ɐ", "0", "\u4e05", "\xff"}
	compared, withDFA := 0, 0
	for range 300 {
		withDFAs := randomRegularNet(rng)
		simulated := &Net{Rules: withDFAs.Rules, Index: withDFAs.Index, Edges: withDFAs.Edges, Classes: withDFAs.Classes, noDFA: true}
		if withDFAs.Check() != nil {
			continue
		}
		for range 10 {
			var in []byte
			for range rng.IntN(9) {
				in = append(in, pieces[rng.IntN(len(pieces))]...)
			}
			for r := range withDFAs.Rules {
				for p := 0; p <= len(in); p++ {
					// A guide per question: one origin, so that the
					// simulation does not give up on another's pairs.
					g1, g2 := NewGuide(withDFAs, in, 1<<20), NewGuide(simulated, in, 1<<20)
					e1, ok1 := g1.end(int32(r), int32(p))
					e2, ok2 := g2.end(int32(r), int32(p))
					if !ok2 {
						continue
					}
					compared++
					if withDFAs.dfa(int32(r)) != nil {
						withDFA++
					}
					if !ok1 || !slices.Equal(e1, e2) {
						t.Fatalf("rule %d at %d of %q: DFA ends %v (%v), simulation %v", r, p, in, e1, ok1, e2)
					}
				}
			}
		}
	}
	if withDFA < compared/2 {
		t.Fatalf("%d of %d questions went to a DFA", withDFA, compared)
	}
	t.Logf("%d questions, %d by DFAs", compared, withDFA)
}

// TestGuideDFAConcurrent: guides of one network, in goroutines of their
// own, build its DFAs at once and agree (go test -race checks the
// publication of each DFA).
func TestGuideDFAConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		net := randomRegularNet(rng)
		if net.Check() != nil {
			continue
		}
		in := []byte("ab c é0ɐ\u4e05za")
		var wg sync.WaitGroup
		got := make([][][]int32, 4)
		for w := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := range net.Rules {
					e, ok := NewGuide(net, in, 1<<20).end(int32(r), 0)
					if !ok {
						e = []int32{-1}
					}
					got[w] = append(got[w], slices.Clone(e))
				}
			}()
		}
		wg.Wait()
		for w := range got[1:] {
			if !slices.EqualFunc(got[0], got[w+1], slices.Equal) {
				t.Fatalf("goroutines disagree: %v and %v", got[0], got[w+1])
			}
		}
	}
}

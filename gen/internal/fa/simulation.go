package fa

import "slices"

// Simulation prunes subset construction. A state q simulates a state p
// when q accepts if p does and, for every atom, whatever p moves to is
// simulated by something q moves to: then every string p accepts, q
// accepts. A set of NFA states that holds both accepts what it accepts
// without p, so that the DFA state can stand for the set without p.
//
// Bounded repetitions make this matter. x{1,32} is 32 copies of x, each
// optional after the first; its NFA state after i copies is simulated by
// every state after fewer (more copies are left). Where the repetition can
// start at every character (RFC 5424's SD-NAME = 1*32PRINTUSASCII, after
// a PARAM-VALUE = *OCTET that may end anywhere), the sets of subset
// construction hold any subset of the 32 positions: 2^32 DFA states, of
// which the minimal DFA keeps a few, since only the least advanced copy
// matters. Pruned, each set keeps that one, and subset construction stays
// near the size of the minimal DFA.
//
// The relation is the greatest simulation over the states that closures
// keep (those with transitions, and the accepting state), computed by
// refinement from "accepts if p does and has a move on every atom p has":
// a pair is dropped when some move of p has no counterpart, until none is.
// It is computed only for NFAs of at most maxSim such states, within a
// work budget; past either, subset construction runs unpruned. The DFA
// built is then larger, never different once minimized: minimal DFAs are
// canonical.
type simulation struct {
	core  []int32 // the core states, sorted
	at    []int32 // at[s]: the index of state s in core, or -1
	above []Bits  // above[i]: the core states (by index) that simulate core[i], itself excluded
}

// maxSim bounds the core states of an NFA whose simulation is computed:
// the relation takes a bit per pair.
const maxSim = 4096

// simWork bounds the steps of computing a simulation.
const simWork = 1 << 26

// newSimulation computes the simulation of n, or returns nil when n is too
// large or the computation passes its budget. It counts its steps in
// c.work.
func newSimulation(n *NFA, c *closer) *simulation {
	sim := &simulation{at: make([]int32, len(n.States))}
	for s := range n.States {
		sim.at[s] = -1
		if len(n.States[s].Trans) > 0 || int32(s) == n.Accept {
			if len(sim.core) == maxSim {
				return nil
			}
			sim.at[s] = int32(len(sim.core))
			sim.core = append(sim.core, int32(s))
		}
	}
	m := len(sim.core)
	k := len(n.Atoms)
	// moves[i]: the moves of core[i], each a set of atoms and the closure
	// (as core indexes) they lead to; atoms[i]: the atoms it moves on.
	type move struct {
		on Bits
		to []int32
	}
	moves := make([][]move, m)
	atoms := make([]Bits, m)
	budget := simWork
	var targets [][]int32
	for i, s := range sim.core {
		atoms[i] = NewBits(k)
		targets = targets[:0]
		for len(targets) < k {
			targets = append(targets, nil)
		}
		for _, t := range n.States[s].Trans {
			atoms[i].Or(t.On)
			t.On.Each(func(a int) { targets[a] = append(targets[a], t.To) })
		}
		byKey := map[string]int{}
		for a := range k {
			if len(targets[a]) == 0 {
				continue
			}
			cl := c.closure(targets[a])
			budget -= len(cl) + 1
			if budget < 0 {
				return nil
			}
			key := Key(cl)
			j, ok := byKey[key]
			if !ok {
				to := make([]int32, len(cl))
				for x, q := range cl {
					to[x] = sim.at[q]
				}
				j = len(moves[i])
				byKey[key] = j
				moves[i] = append(moves[i], move{on: NewBits(k), to: to})
			}
			moves[i][j].on.Set(a)
		}
	}
	// The initial relation: q may simulate p if it accepts when p does and
	// moves on every atom p moves on.
	rel := make([]Bits, m)
	for i := range m {
		rel[i] = NewBits(m)
		accP := sim.core[i] == n.Accept
		for j := range m {
			if j == i {
				continue
			}
			if accP && sim.core[j] != n.Accept {
				continue
			}
			if atoms[i].SubsetOf(atoms[j]) {
				rel[i].Set(j)
			}
		}
	}
	// onAtom returns the closure core[j] reaches on atom a.
	onAtom := func(j, a int) []int32 {
		for _, mv := range moves[j] {
			if mv.on.Has(a) {
				return mv.to
			}
		}
		return nil
	}
	// simulated reports whether some state of qs simulates p (or is p).
	simulated := func(p int32, qs []int32) bool {
		for _, q := range qs {
			budget--
			if q == p || rel[p].Has(int(q)) {
				return true
			}
		}
		return false
	}
	for changed := true; changed; {
		changed = false
		for i := range m {
			budget -= m / 64
			for j := range m {
				if !rel[i].Has(j) {
					continue
				}
				budget--
				ok := true
				for _, mv := range moves[i] {
					// The atoms of one move of p may lead q to different
					// closures: each is checked.
					mv.on.Each(func(a int) {
						if !ok {
							return
						}
						qs := onAtom(j, a)
						for _, p := range mv.to {
							if !simulated(p, qs) {
								ok = false
								return
							}
						}
					})
					if !ok {
						break
					}
				}
				if budget < 0 {
					return nil
				}
				if !ok {
					rel[i].Clear(j)
					changed = true
				}
			}
		}
	}
	sim.above = rel
	c.work += simWork - budget
	return sim
}

// prune removes from the sorted set of core states those another state of
// the set simulates; of states that simulate each other, it keeps the
// first.
func (sim *simulation) prune(set []int32) []int32 {
	if sim == nil || len(set) < 2 {
		return set
	}
	out := set[:0:0]
	for x, p := range set {
		i := sim.at[p]
		dominated := false
		for y, q := range set {
			if y == x {
				continue
			}
			j := int(sim.at[q])
			if sim.above[i].Has(j) && (!sim.above[j].Has(int(i)) || y < x) {
				dominated = true
				break
			}
		}
		if !dominated {
			out = append(out, p)
		}
	}
	if len(out) == len(set) {
		return set
	}
	return slices.Clip(out)
}

// SubsetOf reports whether every integer of b is in c (of the same size).
func (b Bits) SubsetOf(c Bits) bool {
	for i, w := range b {
		if w&^c[i] != 0 {
			return false
		}
	}
	return true
}

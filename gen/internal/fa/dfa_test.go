package fa

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/peguri/rfc3986/gen/internal/work"
)

// minimizeMoore is the reference minimization (the algorithm Minimize used
// before Hopcroft's): Moore's refinement by transition signatures until the
// number of classes stops growing, then the same breadth-first renumbering.
// It is quadratic, and simple enough to trust.
func minimizeMoore(d *DFA) *DFA {
	n := len(d.Next)
	live := make([]bool, n)
	for changed := true; changed; {
		changed = false
		for s := 0; s < n; s++ {
			if live[s] {
				continue
			}
			if d.Accept[s] {
				live[s], changed = true, true
				continue
			}
			for _, t := range d.Next[s] {
				if t >= 0 && live[t] {
					live[s], changed = true, true
					break
				}
			}
		}
	}
	next := func(s, a int) int32 {
		t := d.Next[s][a]
		if t < 0 || !live[t] {
			return -1
		}
		return t
	}
	class := make([]int32, n)
	for s := range class {
		if d.Accept[s] {
			class[s] = 1
		}
	}
	distinct := func(c []int32) int {
		seen := map[int32]bool{}
		for _, x := range c {
			seen[x] = true
		}
		return len(seen)
	}
	for {
		sig := map[string]int32{}
		newClass := make([]int32, n)
		for s := 0; s < n; s++ {
			key := []int32{class[s]}
			for a := range d.Atoms {
				t := next(s, a)
				if t < 0 {
					key = append(key, -1)
				} else {
					key = append(key, class[t])
				}
			}
			k := fmt.Sprint(key)
			c, ok := sig[k]
			if !ok {
				c = int32(len(sig))
				sig[k] = c
			}
			newClass[s] = c
		}
		same := distinct(newClass) == distinct(class)
		class = newClass
		if same {
			break
		}
	}
	m := &DFA{Atoms: d.Atoms}
	if !live[0] {
		row := make([]int32, len(d.Atoms))
		for a := range row {
			row[a] = -1
		}
		m.Next, m.Accept = [][]int32{row}, []bool{false}
		return m
	}
	num := map[int32]int32{class[0]: 0}
	rep := []int{0}
	for i := 0; i < len(rep); i++ {
		s := rep[i]
		row := make([]int32, len(d.Atoms))
		for a := range d.Atoms {
			t := next(s, a)
			if t < 0 {
				row[a] = -1
				continue
			}
			j, ok := num[class[t]]
			if !ok {
				j = int32(len(rep))
				num[class[t]] = j
				rep = append(rep, int(t))
			}
			row[a] = j
		}
		m.Next = append(m.Next, row)
		m.Accept = append(m.Accept, d.Accept[s])
	}
	return m
}

// randomDFA returns a DFA with n states over k atoms; density is the
// probability of a transition, and targets are drawn from few states when
// narrow is set, so that many states come out equivalent.
func randomDFA(rng *rand.Rand, n, k int, density float64, narrow bool) *DFA {
	d := &DFA{}
	for a := range k {
		d.Atoms = append(d.Atoms, Of(rune('a'+a)))
	}
	targets := n
	if narrow {
		targets = 1 + rng.IntN(min(n, 4))
	}
	for range n {
		row := make([]int32, k)
		for a := range row {
			row[a] = -1
			if rng.Float64() < density {
				row[a] = int32(rng.IntN(targets))
				if !narrow {
					row[a] = int32(rng.IntN(n))
				}
			}
		}
		d.Next = append(d.Next, row)
		d.Accept = append(d.Accept, rng.IntN(3) == 0)
	}
	return d
}

func equalDFA(x, y *DFA) bool {
	if len(x.Next) != len(y.Next) || !slices.Equal(x.Accept, y.Accept) {
		return false
	}
	for s := range x.Next {
		if !slices.Equal(x.Next[s], y.Next[s]) {
			return false
		}
	}
	return true
}

// TestMinimizeMatchesMoore: Hopcroft's result is Moore's, state for state,
// on random DFAs (complete and partial, with and without many equivalent
// states, with unreachable and dead states) and on structured ones.
func TestMinimizeMatchesMoore(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	cases := 0
	for i := range 3000 {
		n := 1 + rng.IntN(40)
		if i%100 == 0 {
			n = 200 + rng.IntN(300)
		}
		k := 1 + rng.IntN(5)
		density := []float64{1, 0.9, 0.5, 0.2}[rng.IntN(4)]
		d := randomDFA(rng, n, k, density, rng.IntN(2) == 0)
		got, want := d.Minimize(), minimizeMoore(d)
		if !equalDFA(got, want) {
			t.Fatalf("case %d: Minimize differs from Moore's\ninput %v %v\ngot  %v %v\nwant %v %v", i, d.Next, d.Accept, got.Next, got.Accept, want.Next, want.Accept)
		}
		cases++
	}
	// Structured: chains, cycles and binary counters, where refinement
	// takes many rounds.
	for _, d := range []*DFA{chainDFA(50, false), chainDFA(50, true), cycleDFA(60, 3), cycleDFA(64, 2), counterDFA(6)} {
		if got, want := d.Minimize(), minimizeMoore(d); !equalDFA(got, want) {
			t.Fatalf("structured DFA of %d states: Minimize differs from Moore's", len(d.Next))
		}
	}
}

// chainDFA: a→a→…→a, n states; accepting at the end, or everywhere.
func chainDFA(n int, all bool) *DFA {
	d := &DFA{Atoms: []CharSet{Of('a')}}
	for s := range n {
		t := int32(s + 1)
		if s == n-1 {
			t = -1
		}
		d.Next = append(d.Next, []int32{t})
		d.Accept = append(d.Accept, all || s == n-1)
	}
	return d
}

// cycleDFA: a cycle of n states accepting every m-th; when m divides n, its
// minimal DFA has m states.
func cycleDFA(n, m int) *DFA {
	d := &DFA{Atoms: []CharSet{Of('a'), Of('b')}}
	for s := range n {
		d.Next = append(d.Next, []int32{int32((s + 1) % n), int32((s + 2) % n)})
		d.Accept = append(d.Accept, s%m == 0)
	}
	return d
}

// counterDFA: the last bits bits of a binary string, 2^bits states, all
// distinct.
func counterDFA(bits int) *DFA {
	n := 1 << bits
	d := &DFA{Atoms: []CharSet{Of('0'), Of('1')}}
	for s := range n {
		d.Next = append(d.Next, []int32{int32(s << 1 % n), int32((s<<1 | 1) % n)})
		d.Accept = append(d.Accept, s&(n>>1) != 0)
	}
	return d
}

// TestMinimizeCanonical: minimizing twice, or a DFA with its states
// shuffled, gives the same DFA.
func TestMinimizeCanonical(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		d := randomDFA(rng, 1+rng.IntN(30), 1+rng.IntN(4), 0.7, rng.IntN(2) == 0)
		m := d.Minimize()
		if mm := m.Minimize(); !equalDFA(m, mm) {
			t.Fatalf("minimize is not idempotent")
		}
		// Shuffle the states, keeping 0 as the start.
		n := len(d.Next)
		perm := append([]int32{0}, shuffled(rng, n)...)
		e := &DFA{Atoms: d.Atoms, Next: make([][]int32, n), Accept: make([]bool, n)}
		for s := range n {
			row := make([]int32, len(d.Atoms))
			for a, x := range d.Next[s] {
				row[a] = -1
				if x >= 0 {
					row[a] = perm[x]
				}
			}
			e.Next[perm[s]] = row
			e.Accept[perm[s]] = d.Accept[s]
		}
		if !equalDFA(m, e.Minimize()) {
			t.Fatalf("minimize depends on state numbering")
		}
	}
}

func shuffled(rng *rand.Rand, n int) []int32 {
	p := make([]int32, n-1)
	for i := range p {
		p[i] = int32(i + 1)
	}
	rng.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}

// TestMinimizeLarge: a chain of 200,000 states and a 2^16-state counter
// minimize in O(m log n) steps (Moore's refinement takes minutes on the
// chain: one round per state). Steps are counted, not timed, so that a
// loaded machine cannot fail the test.
func TestMinimizeLarge(t *testing.T) {
	for _, d := range []*DFA{chainDFA(200000, false), counterDFA(16), cycleDFA(100002, 7)} {
		var m *DFA
		steps := stepsOf(func() { m = d.Minimize() })
		n, k := len(d.Next), len(d.Atoms)
		t.Logf("%d states, %d atoms: %d steps", n, k, steps)
		if max := int64(4 * n * k * bits.Len(uint(n))); steps > max {
			t.Errorf("%d states: %d steps, want at most %d (4 m log n)", n, steps, max)
		}
		if len(d.Next) == 100002 && len(m.Next) != 7 || len(d.Next) != 100002 && len(m.Next) != len(d.Next) {
			t.Errorf("%d states: minimal %d", len(d.Next), len(m.Next))
		}
	}
}

// stepsOf returns the work f did, as package work counts it.
func stepsOf(f func()) int64 {
	before := work.Steps()
	f()
	return work.Steps() - before
}

// referenceDeterminize is subset construction on whole ε-closures, as
// Determinize did before it kept only the states that matter.
func referenceDeterminize(n *NFA, from []int32) *DFA {
	d := &DFA{Atoms: n.Atoms}
	index := map[string]int32{}
	var sets [][]int32
	add := func(s []int32) int32 {
		k := Key(s)
		if i, ok := index[k]; ok {
			return i
		}
		i := int32(len(sets))
		index[k] = i
		sets = append(sets, s)
		d.Next = append(d.Next, nil)
		d.Accept = append(d.Accept, Contains(s, n.Accept))
		return i
	}
	add(n.Closure(from, nil))
	for i := 0; i < len(sets); i++ {
		next := make([]int32, len(n.Atoms))
		for a := range n.Atoms {
			t := n.Step(sets[i], a)
			if len(t) == 0 {
				next[a] = -1
				continue
			}
			next[a] = add(n.Closure(t, nil))
		}
		d.Next[i] = next
	}
	return d
}

// randomNFA builds a random NFA with ε-edges (chains and cycles of them
// included) over a few overlapping sets.
func randomNFA(rng *rand.Rand) *NFA {
	b := &Builder{}
	n := 2 + rng.IntN(25)
	for range n {
		b.State()
	}
	sets := []CharSet{Of('a'), Of('b'), Span('a', 'c'), Span('b', 'e'), Of('e', 'x')}
	for range rng.IntN(3 * n) {
		from, to := int32(rng.IntN(n)), int32(rng.IntN(n))
		if rng.IntN(3) == 0 {
			b.Eps(from, to)
		} else {
			b.Edge(from, to, sets[rng.IntN(len(sets))])
		}
	}
	return b.NFA(0, int32(rng.IntN(n)))
}

// TestDeterminizeMatchesReference: keeping only the states that matter, and
// skipping ε-chains, gives the same minimal DFA as whole closures.
func TestDeterminizeMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 3000 {
		n := randomNFA(rng)
		if i%2 == 0 {
			// An NFA not made by a Builder: no precomputed tables.
			n = &NFA{Atoms: n.Atoms, States: n.States, Start: n.Start, Accept: n.Accept}
		}
		from := []int32{n.Start}
		if i%5 == 0 {
			from = append(from, int32(rng.IntN(len(n.States))))
		}
		d, err := Determinize(n, from, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, want := d.Minimize(), referenceDeterminize(n, from).Minimize()
		if got.Key() != want.Key() {
			t.Fatalf("case %d: Determinize differs from whole-closure subset construction:\n%s\n%s", i, got.Key(), want.Key())
		}
	}
}

// TestDeterminizeLimits: both limits stop the construction with an error
// that says which, and both match ErrTooBig.
func TestDeterminizeLimits(t *testing.T) {
	// (a|b)* a (a|b)^12: 2^13 DFA states.
	b := &Builder{}
	s := b.State()
	b.Edge(s, s, Of('a', 'b'))
	x := b.State()
	b.Edge(s, x, Of('a'))
	for range 12 {
		y := b.State()
		b.Edge(x, y, Of('a', 'b'))
		x = y
	}
	n := b.NFA(s, x)
	if _, err := Determinize(n, []int32{s}, 1000); err != ErrTooBig {
		t.Errorf("Determinize with limit 1000: %v", err)
	}
	if d, err := Determinize(n, []int32{s}, 0); err != nil || len(d.Minimize().Next) != 1<<13 {
		t.Errorf("Determinize without limit: %v", err)
	}
	_, err := DeterminizeLimits(n, []int32{s}, Limits{States: 1000})
	var le *LimitError
	if !errors.As(err, &le) || le.Work || !errors.Is(err, ErrTooBig) {
		t.Errorf("state limit: %v", err)
	}
	_, err = DeterminizeLimits(n, []int32{s}, Limits{Work: 5000})
	if !errors.As(err, &le) || !le.Work || !errors.Is(err, ErrTooBig) {
		t.Errorf("work limit: %v", err)
	}
}

// TestDeterminizeEpsChain: 0*k "a" as Thompson builds it (k nested
// options, whose exits form an ε-chain) determinizes in time linear in k.
func TestDeterminizeEpsChain(t *testing.T) {
	const k = 40000
	b := &Builder{}
	// a (a (a …)?)?: each level's exit is an ε-edge to the enclosing
	// level's exit.
	start := b.State()
	cur, exit := start, b.State()
	b.Eps(cur, exit)
	for range k {
		mid := b.State()
		b.Edge(cur, mid, Of('a'))
		inner, innerExit := b.State(), b.State()
		b.Eps(mid, inner)
		b.Eps(inner, innerExit)
		b.Eps(innerExit, exit)
		cur, exit = inner, innerExit
	}
	// The outermost exit is the one accept reaches.
	n := b.NFA(start, 1)
	var d *DFA
	var err error
	steps := stepsOf(func() { d, err = DeterminizeLimits(n, []int32{start}, Limits{Work: 1 << 24}) })
	if err != nil {
		t.Fatal(err)
	}
	if max := int64(20 * k); steps > max {
		t.Errorf("%d steps, want at most %d: linear in the nesting", steps, max)
	}
	if m := d.Minimize(); len(m.Next) != k+1 {
		t.Errorf("minimal DFA has %d states, want %d", len(m.Next), k+1)
	}
}

// oldPartition is Partition as it was: every piece against every set.
func oldPartition(sets []CharSet) []CharSet {
	var pts []rune
	for _, s := range sets {
		for _, r := range s.r {
			pts = append(pts, r.Lo, r.Hi+1)
		}
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i] < pts[j] })
	pts = slices.Compact(pts)
	byKey := map[string]int{}
	var atoms []CharSet
	for i := 0; i+1 < len(pts); i++ {
		lo, hi := pts[i], pts[i+1]-1
		var key []byte
		for j, s := range sets {
			if s.Contains(lo) {
				key = fmt.Appendf(key, "%d,", j)
			}
		}
		if key == nil {
			continue
		}
		a, ok := byKey[string(key)]
		if !ok {
			a = len(atoms)
			byKey[string(key)] = a
			atoms = append(atoms, CharSet{})
		}
		atoms[a] = atoms[a].Union(Span(lo, hi))
	}
	return atoms
}

func TestPartitionMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		var sets []CharSet
		for range rng.IntN(8) {
			var s CharSet
			for range 1 + rng.IntN(3) {
				lo := rune(rng.IntN(40))
				s = s.Union(Span(lo, lo+rune(rng.IntN(8))))
			}
			sets = append(sets, s)
			if rng.IntN(4) == 0 {
				sets = append(sets, s) // duplicates count once
			}
		}
		if i%50 == 0 {
			sets = append(sets, Span(0, 0x10FFFF), CharSet{})
		}
		got, want := Partition(sets), oldPartition(sets)
		if len(got) != len(want) {
			t.Fatalf("sets %v: %v, want %v", sets, got, want)
		}
		for j := range got {
			if !got[j].Equal(want[j]) {
				t.Fatalf("sets %v: %v, want %v", sets, got, want)
			}
		}
		// AtomsOf through the index agrees with overlap tests.
		b := &Builder{}
		s := b.State()
		for _, x := range sets {
			b.Edge(s, s, x)
		}
		n := b.NFA(s, s)
		for _, x := range sets {
			bits := n.AtomsOf(x)
			for a, atom := range n.Atoms {
				if bits.Has(a) != atom.Overlaps(x) {
					t.Fatalf("AtomsOf(%v) has atom %v: %v", x, atom, bits.Has(a))
				}
			}
		}
	}
}

// TestEdgesKey: Edges and Key keep their format (Key is a map key across
// packages; its text was fixed before they were made faster).
func TestEdgesKey(t *testing.T) {
	d := &DFA{
		Atoms:  []CharSet{Of('a'), Span('b', 'c'), Of('d'), Of('x')},
		Next:   [][]int32{{1, 1, 0, -1}, {-1, -1, -1, 1}},
		Accept: []bool{false, true},
	}
	want := "0false:[d]>0,[a-c]>1,;1true:[x]>1,;"
	if got := d.Key(); got != want {
		t.Errorf("Key = %q, want %q", got, want)
	}
	e := d.Edges(0)
	if len(e) != 2 || !e[1].On.Equal(Span('a', 'c')) || e[1].To != 1 {
		t.Errorf("Edges(0) = %v", e)
	}
}

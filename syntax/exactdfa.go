package syntax

import (
	"cmp"
	"slices"
	"sync/atomic"
	"unicode/utf8"
)

// The DFAs of regular rules. Most rules of a network call no rule on a
// cycle of calls: white space, words, dates, the unstructured text of a
// header field. gen leaves them in the network because decisions it could
// not prove call them, not because they need a stack. Guide.end simulated
// them like any rule, state by state and call by call (each call a
// simulation of its own, memoized); on RFC 5322 messages, simulations of
// such rules and of the rules they call were two thirds of the guide's
// steps. Such a rule's language is regular, and end reads it with its DFA
// instead: the rule's automaton with every call expanded in place,
// determinized at the rule's first use (once per network), then one table
// lookup per character. A rule whose expansion or DFA would pass the
// limits below keeps the simulation (its callees may still have DFAs).

const (
	maxExpandedStates = 1024 // NFA states of a rule with its calls expanded
	maxDFAStates      = 256
	// maxSubsetWork bounds the subset construction of one rule: the
	// states of the sets it makes, in all. (On RFC 5322's rules, from a
	// few to a thousand.) Building a DFA is not counted in a parse's
	// steps: it is done once per rule and network, whatever the input.
	maxSubsetWork = 1 << 14
)

// ruleDFA is the DFA of a regular rule. Characters are read as symbols:
// the classes of characters that every class of the rule's expansion
// treats alike.
type ruleDFA struct {
	nsym    int32
	ascii   [128]int32 // the symbol of each ASCII character, -1 for none
	high    []rune     // the first characters of the intervals from 128 up, sorted
	highSym []int32    // the symbol of each interval, -1 for none
	next    []int32    // next[d*nsym+σ]: the state after state d reads symbol σ, -1 for none; 0 is the start
	accept  []bool
	// base numbers the states in the guide's table of covered pairs
	// (Guide.cover), apart from the network's states: state d is
	// coverBit|(base+d).
	base uint32
}

// coverBit sets the keys of DFA states in Guide.cover apart from those of
// the network's states, which are below 2³¹.
const coverBit = 1 << 31

// noDFA stands for a rule that has no DFA: it is not regular, or passed
// the limits.
var noDFA = &ruleDFA{}

// symbol returns the symbol of c, -1 if no class of the rule has it.
func (d *ruleDFA) symbol(c rune) int32 {
	if c < 128 {
		return d.ascii[c]
	}
	lo, hi := 0, len(d.high) // the last interval that starts at or before c
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if d.high[m] <= c {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return -1
	}
	return d.highSym[lo-1]
}

// dfa returns the DFA of rule r, or nil if it has none: it is built at the
// first call, by whichever guide makes it (guides of one network may run
// concurrently: they build the same DFA, and the first one stored wins).
func (n *Net) dfa(r int32) *ruleDFA {
	l := &n.layout
	if l.dfas == nil || !l.regular[r] || n.noDFA {
		return nil
	}
	if d := l.dfas[r].Load(); d != nil && d != noDFA {
		return d // the guide's common case, without a call
	}
	return loadDFA(&l.dfas[r], func() *ruleDFA { return n.buildDFA(r) })
}

// loadDFA returns the DFA in p, building it first if p holds none (nil
// past the limits, recorded as noDFA). Guides of one network may ask
// concurrently: they build the same DFA, and the first one stored wins.
func loadDFA(p *atomic.Pointer[ruleDFA], build func() *ruleDFA) *ruleDFA {
	d := p.Load()
	if d == nil {
		if d = build(); d == nil {
			d = noDFA
		}
		if !p.CompareAndSwap(nil, d) {
			d = p.Load()
		}
	}
	if d == noDFA {
		return nil
	}
	return d
}

// expansion is a rule's automaton with every call replaced by a copy of
// the callee's, as a nondeterministic automaton over the network's
// classes.
type expansion struct {
	n     *Net
	eps   [][]int32   // ε-edges by state
	chars [][]NetEdge // character edges by state (To, Class)
	limit int         // the most states; 0 for maxExpandedStates
	over  bool        // past the limit
	// kernel: determinize keeps, of each closure, the states that read a
	// character and the final state, which are all that tell two closures
	// apart (the filter's automaton has many ε-states). Its work is then
	// the states the closures go through, the symbols its moves reach
	// (edge by edge), and the symbols' classes times their bounds.
	kernel bool
}

func (x *expansion) state() int32 {
	if limit := cmp.Or(x.limit, maxExpandedStates); len(x.eps) >= limit {
		x.over = true
	}
	x.eps = append(x.eps, nil)
	x.chars = append(x.chars, nil)
	return int32(len(x.eps) - 1)
}

// rule adds a copy of rule r, with its calls expanded, and returns its
// start and final states.
func (x *expansion) rule(r int32) (start, final int32) {
	n := x.n
	rule := n.Rules[r]
	ids := map[int32]int32{}
	var queue []int32
	id := func(s int32) int32 {
		if v, ok := ids[s]; ok {
			return v
		}
		v := x.state()
		ids[s] = v
		queue = append(queue, s)
		return v
	}
	start = id(rule.Start)
	for i := 0; i < len(queue) && !x.over; i++ {
		s := queue[i]
		for _, e := range n.Edges[n.Index[s]:n.Index[s+1]] {
			from, to := ids[s], id(e.To)
			switch {
			case e.Class >= 0:
				x.chars[from] = append(x.chars[from], NetEdge{To: to, Class: e.Class, Call: -1})
			case e.Call >= 0:
				cs, cf := x.rule(e.Call)
				if x.over {
					return 0, 0
				}
				x.eps[from] = append(x.eps[from], cs)
				x.eps[cf] = append(x.eps[cf], to)
			default:
				x.eps[from] = append(x.eps[from], to)
			}
		}
	}
	return start, id(rule.Final)
}

// buildDFA determinizes the expansion of regular rule r (the subset
// construction), or returns nil past the limits.
func (n *Net) buildDFA(r int32) *ruleDFA {
	x := &expansion{n: n}
	start, final := x.rule(r)
	if x.over {
		return nil
	}
	d := n.determinize(x, start, final, maxDFAStates, maxSubsetWork)
	if d == nil {
		return nil
	}
	states := uint32(len(d.accept))
	base := n.layout.dfaKeys.Add(states) - states
	if uint64(base)+uint64(states) > coverBit {
		return nil
	}
	d.base = base
	return d
}

// alphabet is the partition of the characters an expansion reads into
// symbols: the intervals between the bounds of every class it uses,
// merged when the same classes hold them. members[σ][k] says whether
// used[k] holds symbol σ; ascii, high and highSym map characters to
// symbols as ruleDFA.symbol reads them.
type alphabet struct {
	used       []int32
	members    [][]bool
	classIndex map[int32]int
	ascii      [128]int32
	high       []rune
	highSym    []int32
}

// alphabet returns x's alphabet, or nil when, for an expansion of
// kernels, the symbols alone would take more than maxWork.
func (n *Net) alphabet(x *expansion, maxWork int) *alphabet {
	var used []int32
	seenClass := map[int32]bool{}
	for _, es := range x.chars {
		for _, e := range es {
			if !seenClass[e.Class] {
				seenClass[e.Class] = true
				used = append(used, e.Class)
			}
		}
	}
	bounds := []rune{0, 128}
	for _, c := range used {
		cs := n.Classes[c]
		for i := 0; i+1 < len(cs); i += 2 {
			bounds = append(bounds, cs[i], min(cs[i+1], utf8.MaxRune)+1)
		}
	}
	slices.Sort(bounds)
	bounds = slices.Compact(bounds)
	if x.kernel && len(bounds)*len(used) > maxWork {
		return nil
	}
	al := &alphabet{used: used, classIndex: map[int32]int{}}
	symOf := map[string]int32{}
	isym := make([]int32, len(bounds))
	for i, lo := range bounds {
		key := make([]byte, len(used))
		any := false
		for k, c := range used {
			if lo <= utf8.MaxRune && n.inClass(c, lo) {
				key[k], any = 1, true
			}
		}
		if !any {
			isym[i] = -1
			continue
		}
		σ, ok := symOf[string(key)]
		if !ok {
			σ = int32(len(al.members))
			symOf[string(key)] = σ
			m := make([]bool, len(used))
			for k := range key {
				m[k] = key[k] == 1
			}
			al.members = append(al.members, m)
		}
		isym[i] = σ
	}
	for c := range rune(128) {
		i, _ := slices.BinarySearch(bounds, c+1)
		al.ascii[c] = isym[i-1]
	}
	for i, lo := range bounds {
		if lo >= 128 {
			al.high = append(al.high, lo)
			al.highSym = append(al.highSym, isym[i])
		}
	}
	for k, c := range used {
		al.classIndex[c] = k
	}
	return al
}

// symbols gives d the alphabet's symbols.
func (al *alphabet) symbols(d *ruleDFA) {
	d.nsym = int32(len(al.members))
	d.ascii, d.high, d.highSym = al.ascii, al.high, al.highSym
}

// classSyms returns, for each used class (by its index), the symbols it
// holds.
func (al *alphabet) classSyms() [][]int32 {
	out := make([][]int32, len(al.used))
	for σ, m := range al.members {
		for k, in := range m {
			if in {
				out[k] = append(out[k], int32(σ))
			}
		}
	}
	return out
}

// determinize is the subset construction of x's automaton from start,
// accepting at final: a DFA over symbols (see ruleDFA), or nil past
// maxStates states or maxWork states of the sets it makes, in all.
func (n *Net) determinize(x *expansion, start, final int32, maxStates, maxWork int) *ruleDFA {
	al := n.alphabet(x, maxWork)
	if al == nil {
		return nil // the symbols alone would take more work
	}
	d := &ruleDFA{}
	al.symbols(d)
	members, classIndex := al.members, al.classIndex
	// The subset construction, over sorted sets of the expansion's states.
	mark := make([]int32, len(x.eps))
	stamp := int32(0)
	var stack []int32
	visited := 0 // states the closures went through, in all
	closure := func(set []int32) []int32 {
		stamp++
		out := set[:0:0]
		stack = append(stack[:0], set...)
		for _, s := range set {
			mark[s] = stamp
		}
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			visited++
			if !x.kernel || len(x.chars[s]) > 0 || s == final {
				out = append(out, s)
			}
			for _, t := range x.eps[s] {
				if mark[t] != stamp {
					mark[t] = stamp
					stack = append(stack, t)
				}
			}
		}
		slices.Sort(out)
		return out
	}
	key := func(set []int32) string {
		b := make([]byte, 0, 4*len(set))
		for _, s := range set {
			b = append(b, byte(s), byte(s>>8), byte(s>>16), byte(s>>24))
		}
		return string(b)
	}
	sets := [][]int32{closure([]int32{start})}
	index := map[string]int32{key(sets[0]): 0}
	work := 0
	// With kernels, the moves of a set on every symbol are found in one
	// pass over its edges, each edge going to the symbols of its class
	// (the filter's sets have many edges and its grammars many symbols).
	var classSyms, moves [][]int32
	if x.kernel {
		classSyms = al.classSyms()
		moves = make([][]int32, d.nsym)
	}
	for i := 0; i < len(sets); i++ {
		d.accept = append(d.accept, slices.Contains(sets[i], final))
		if x.kernel {
			for σ := range moves {
				moves[σ] = moves[σ][:0]
			}
			for _, s := range sets[i] {
				for _, e := range x.chars[s] {
					syms := classSyms[classIndex[e.Class]]
					visited += len(syms)
					for _, σ := range syms {
						moves[σ] = append(moves[σ], e.To)
					}
				}
			}
			if visited > maxWork {
				return nil
			}
		}
		for σ := range d.nsym {
			var move []int32
			if x.kernel {
				slices.Sort(moves[σ])
				move = slices.Compact(moves[σ])
			} else {
				stamp++
				for _, s := range sets[i] {
					for _, e := range x.chars[s] {
						if members[σ][classIndex[e.Class]] && mark[e.To] != stamp {
							mark[e.To] = stamp
							move = append(move, e.To)
						}
					}
				}
			}
			if len(move) == 0 {
				d.next = append(d.next, -1)
				continue
			}
			set := closure(move)
			if work += len(set); work > maxWork || x.kernel && visited > maxWork {
				return nil
			}
			k := key(set)
			t, ok := index[k]
			if !ok {
				if len(sets) == maxStates {
					return nil
				}
				t = int32(len(sets))
				index[k] = t
				sets = append(sets, set)
			}
			d.next = append(d.next, t)
		}
	}
	return d
}

// endDFA is Guide.end for a rule with a DFA: it runs the DFA from p and
// lists the positions where it accepts, giving up as a simulation does
// when it reaches a (state, position) pair that a run from another origin
// covered and went on past.
func (g *Guide) endDFA(r, p int32, k uint64, d *ruleDFA) ([]int32, bool) {
	off := len(g.arena)
	st, q := int32(0), p
	gaveUp := false
	for g.step() {
		g.far = max(g.far, q)
		if g.rec != nil {
			g.recDFA(d, st, q)
		}
		if d.accept[st] {
			g.arena = append(g.arena, q)
		}
		c, w := g.char(q)
		if w == 0 {
			break
		}
		σ := d.symbol(c)
		if σ < 0 {
			break
		}
		next := d.next[st*d.nsym+σ]
		if next < 0 {
			break
		}
		if !g.covers(r, p, q, int32(coverBit|(d.base+uint32(st)))) {
			gaveUp = true
			break
		}
		st, q = next, q+w
	}
	if gaveUp || g.err != nil {
		g.arena = g.arena[:off]
		g.ends.put(k, span{n: -1, last: -1})
		return nil, false
	}
	g.ends.put(k, span{off: off, n: len(g.arena) - off, last: q})
	return g.arena[off:len(g.arena):len(g.arena)], true
}

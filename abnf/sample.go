package abnf

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"unicode/utf8"
)

// Sampler derives random strings from a grammar: positive samples, which
// match the rule they were derived from, and near-misses, positive samples
// with one to three edits, which may or may not match. It is deterministic:
// the same grammar, seed and sequence of calls give the same strings.
//
// Over many samples a Sampler covers every alternative of every alternation
// it reaches and both extremes of every repetition: half of its choices go
// to the least-used alternative or extreme, the rest are uniform.
type Sampler struct {
	// MaxDepth bounds rule nesting: deeper, the sampler takes the shortest
	// derivations only. It matters for recursive grammars.
	MaxDepth int
	// MaxExtra bounds an unbounded repetition to min+MaxExtra iterations, and
	// the largest count ever chosen for a bounded one to min+MaxExtra*16.
	MaxExtra int
	// MaxLen is a soft bound on sample length in bytes: past it, the sampler
	// takes the shortest derivations.
	MaxLen int
	// MaxShortest bounds the shortest string of what the sampler derives:
	// Sample refuses a rule whose shortest string is longer (naming it), and
	// no choice takes an alternative or an extra iteration whose shortest
	// string is longer, so that a hostile grammar (65536(65536"a"), 4 GiB)
	// can neither exhaust memory nor run for hours. The default is
	// [ShortestLimit].
	MaxShortest int

	g        *Grammar
	a        *Analysis
	rng      *rand.Rand
	altUse   map[*Alt][]int
	repUse   map[*Repeat]*[2]int
	alphabet map[string][]string // per rule: characters for near-miss edits
	ruleCost map[*Rule]cost      // per rule: its cheapest derivation
	costs    []leastValue[cost]  // per vertex of the analysis's expression graph: the cheapest derivation
	// What gen asks at every visit, kept per node: the costs of an
	// alternation's alternatives, of a repetition's body, the rule a
	// reference names (nodeCost's lookups, by interface, and Rule's case
	// folding were two thirds of the time of drawing a sample).
	altCost  map[*Alt][]cost
	bodyCost map[*Repeat]cost
	refRule  map[*RuleRef]*Rule
	cands    []int // gen's candidates at an alternation
	steps    int   // nodes visited by the current sample
	work     int   // nodes visited by every sample, costed and walked in all: a count for tests
}

// maxSteps bounds the nodes one sample visits before the sampler takes the
// shortest derivations only: a cyclic grammar (r = *(1*r)) derives the empty
// string in ever deeper trees, which neither MaxLen nor, soon enough,
// MaxDepth would stop.
func (s *Sampler) maxSteps() int { return 4096 + 64*s.MaxLen }

// cost ranks derivations: by the length of the string, then by the height of
// the derivation. Always taking the cheapest alternative terminates, since
// the height of a cheapest derivation drops at each rule reference, and
// makes the shortest strings.
type cost struct {
	len, height int
	ok          bool // some finite string
}

func (c cost) less(d cost) bool {
	if c.ok != d.ok {
		return c.ok
	}
	return c.len < d.len || c.len == d.len && c.height < d.height
}

// outside holds characters outside most grammars' alphabets that near-misses
// also insert: ASCII delimiters that URIs exclude, controls, a Latin-1 letter,
// KELVIN SIGN (which folds to "k" under Unicode, not ASCII, rules) and a byte
// that is not UTF-8. Line feed is left out so that samples stay one per line.
var outside = [...]string{" ", "\"", "<", ">", "\\", "^", "`", "{", "|", "}", "\x00", "\x7f", "\t", "\r", "é", "\u212a", "\xff", "%"}

// NewSampler returns a sampler for g seeded with seed. The grammar must read
// without errors.
func NewSampler(g *Grammar, seed uint64) *Sampler {
	s := &Sampler{
		MaxDepth:    24,
		MaxExtra:    4,
		MaxLen:      512,
		MaxShortest: ShortestLimit,
		g:           g,
		a:           Analyze(g),
		rng:         rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		altUse:      map[*Alt][]int{},
		repUse:      map[*Repeat]*[2]int{},
		alphabet:    map[string][]string{},
		ruleCost:    map[*Rule]cost{},
		altCost:     map[*Alt][]cost{},
		bodyCost:    map[*Repeat]cost{},
		refRule:     map[*RuleRef]*Rule{},
	}
	// The cheapest derivation of every rule and node, in O(n log n)
	// (least): rounds over the rules took as many as the longest chain.
	s.work = s.a.eg.nvert + len(s.a.eg.args)
	s.costs = least(s.a.eg, leastRules[cost]{
		less: cost.less,
		leaf: func(n Node) cost {
			l, _ := s.a.nodeShortest(n)
			return cost{l, 0, true}
		},
		empty: cost{ok: true},
		concat: func(items []cost) cost {
			c := cost{ok: true}
			for _, x := range items {
				c.len = satAdd(c.len, x.len)
				c.height = max(c.height, x.height)
			}
			return c
		},
		repeat: func(min int, b cost) cost { return cost{satMulLen(min, b.len), b.height, true} },
		rule:   func(c cost) cost { c.height++; return c },
	})
	for i, r := range g.Rules {
		if c := s.costs[i]; c.ok {
			s.ruleCost[r] = c.v
		}
	}
	return s
}

// nodeCost returns the cheapest derivation of n: computed for every node
// of the grammar by NewSampler, and here for any other.
func (s *Sampler) nodeCost(n Node) cost {
	s.work++
	if v, ok := s.a.index[n]; ok {
		return s.costs[v].v // the zero cost, not ok, where there is no finite string
	}
	var c cost
	switch n := n.(type) {
	case *Alt:
		for _, x := range n.Alts {
			if xc := s.nodeCost(x); xc.less(c) {
				c = xc
			}
		}
	case *Concat:
		c.ok = true
		for _, x := range n.Items {
			xc := s.nodeCost(x)
			c.ok = c.ok && xc.ok
			c.len = satAdd(c.len, xc.len)
			c.height = max(c.height, xc.height)
		}
	case *Repeat:
		c.ok = true
		if n.Min > 0 {
			b := s.nodeCost(n.Body)
			c = cost{satMulLen(n.Min, b.len), b.height, b.ok}
		}
	case *RuleRef:
		c = s.ruleCost[s.g.Rule(n.Name)]
	case *CharVal, *NumVal:
		l, _ := s.a.nodeShortest(n)
		c = cost{l, 0, true}
	case *Prose:
		c.ok = true // under a zero repetition
	}
	return c
}

// Sample returns a random string derived from rule.
func (s *Sampler) Sample(rule string) ([]byte, error) {
	r := s.g.Rule(rule)
	if r == nil {
		return nil, fmt.Errorf("no rule %s in the grammar", rule)
	}
	if _, ok := s.a.height[r]; !ok {
		return nil, fmt.Errorf("%s derives no finite string", r.Name)
	}
	if l, _ := s.a.Shortest(r); l > s.MaxShortest {
		return nil, fmt.Errorf("%s: its shortest string is %s bytes, above the sampler's limit of %d (Sampler.MaxShortest)", r.Name, lengthString(l), s.MaxShortest)
	}
	var b []byte
	s.steps = 0
	s.gen(r.Expr, 0, &b)
	return b, nil
}

// NearMiss returns a sample of rule with one to three random edits: a
// character inserted, deleted, replaced or duplicated, or two swapped. New
// characters come mostly from the grammar's own alphabet (its string
// characters, range ends and the values just outside them), sometimes from
// [Outside].
func (s *Sampler) NearMiss(rule string) ([]byte, error) {
	b, err := s.Sample(rule)
	if err != nil {
		return nil, err
	}
	alpha := s.alphabetOf(rule)
	pick := func() string {
		if s.rng.IntN(8) == 0 || len(alpha) == 0 {
			return outside[s.rng.IntN(len(outside))]
		}
		return alpha[s.rng.IntN(len(alpha))]
	}
	edits := 1 + s.rng.IntN(3)
	for range edits {
		// Edit at character boundaries so that UTF-8 stays intact unless an
		// invalid byte is inserted on purpose.
		var cuts []int
		for i := 0; i < len(b); {
			cuts = append(cuts, i)
			_, w := utf8.DecodeRune(b[i:])
			if s.g.Octets {
				w = 1 // in octet mode, characters are bytes
			}
			i += w
		}
		cuts = append(cuts, len(b))
		n := len(cuts) - 1 // characters
		op := s.rng.IntN(5)
		if n == 0 {
			op = 0
		}
		switch op {
		case 0: // insert
			at := cuts[s.rng.IntN(len(cuts))]
			b = splice(b, at, at, pick())
		case 1: // delete
			i := s.rng.IntN(n)
			b = splice(b, cuts[i], cuts[i+1], "")
		case 2: // replace
			i := s.rng.IntN(n)
			b = splice(b, cuts[i], cuts[i+1], pick())
		case 3: // duplicate
			i := s.rng.IntN(n)
			b = splice(b, cuts[i], cuts[i], string(b[cuts[i]:cuts[i+1]]))
		case 4: // swap two neighbours
			if n < 2 {
				continue
			}
			i := s.rng.IntN(n - 1)
			x, y := string(b[cuts[i]:cuts[i+1]]), string(b[cuts[i+1]:cuts[i+2]])
			b = splice(b, cuts[i], cuts[i+2], y+x)
		}
	}
	return b, nil
}

func splice(b []byte, from, to int, s string) []byte {
	out := make([]byte, 0, len(b)-(to-from)+len(s))
	out = append(out, b[:from]...)
	out = append(out, s...)
	return append(out, b[to:]...)
}

// alphabetOf collects the characters the rule's grammar uses.
func (s *Sampler) alphabetOf(rule string) []string {
	if a, ok := s.alphabet[rule]; ok {
		return a
	}
	r := s.g.Rule(rule)
	set := map[string]bool{}
	addRune := func(c rune) {
		switch {
		case c == '\n' || c < 0:
		case s.g.Octets:
			if c <= 0xFF {
				set[string([]byte{byte(c)})] = true
			}
		case c <= utf8.MaxRune && !(c >= 0xD800 && c <= 0xDFFF):
			set[string(c)] = true
		}
	}
	for t := range s.a.Reachable([]*Rule{r}) {
		Walk(t.Expr, func(n Node) {
			s.work++
			switch n := n.(type) {
			case *CharVal:
				for _, c := range n.Text {
					addRune(c)
					if !n.Sensitive {
						addRune(rune(lowerASCII(byte(c))))
						addRune(rune(upperASCII(byte(c))))
					}
				}
			case *NumVal:
				if n.Range {
					lo, hi := n.Vals[0], n.Vals[1]
					for _, c := range []rune{lo - 1, lo, (lo + hi) / 2, hi, hi + 1} {
						addRune(c)
					}
				} else {
					for _, c := range n.Vals {
						addRune(c)
					}
				}
			}
		})
	}
	a := make([]string, 0, len(set))
	for c := range set {
		a = append(a, c)
	}
	sort.Strings(a) // map order must not leak into the sequence
	s.alphabet[rule] = a
	return a
}

func (s *Sampler) gen(n Node, depth int, b *[]byte) {
	s.steps++
	s.work++
	short := depth > s.MaxDepth || len(*b) > s.MaxLen || s.steps > s.maxSteps()
	switch n := n.(type) {
	case *Alt:
		use := s.altUse[n]
		if use == nil {
			use = make([]int, len(n.Alts))
			s.altUse[n] = use
		}
		costs, ok := s.altCost[n]
		if !ok {
			costs = make([]cost, len(n.Alts))
			for i, x := range n.Alts {
				costs[i] = s.nodeCost(x)
			}
			s.altCost[n] = costs
		}
		cands := s.cands[:0] // done with before gen goes down: shared
		var best cost
		for i, c := range costs {
			if !c.ok || c.len > s.MaxShortest {
				continue
			}
			if short {
				switch {
				case len(cands) == 0 || c.less(best):
					best, cands = c, append(cands[:0], i)
				case c == best:
					cands = append(cands, i)
				}
				continue
			}
			cands = append(cands, i)
		}
		if len(cands) == 0 {
			return // cannot happen: the caller's cost bounds this node's
		}
		i := cands[s.rng.IntN(len(cands))]
		if !short && s.rng.IntN(2) == 0 {
			least := cands[0]
			for _, c := range cands {
				if use[c] < use[least] {
					least = c
				}
			}
			i = least
		}
		s.cands = cands
		use[i]++
		s.gen(n.Alts[i], depth, b)
	case *Concat:
		for _, x := range n.Items {
			s.gen(x, depth, b)
		}
	case *Repeat:
		if n.Max == 0 {
			return
		}
		count := n.Min
		bc, ok := s.bodyCost[n]
		if !ok {
			bc = s.nodeCost(n.Body)
			s.bodyCost[n] = bc
		}
		if !short && bc.len <= s.MaxShortest {
			hi := n.Max
			if hi == Inf || hi > n.Min+s.MaxExtra*16 {
				hi = n.Min + s.MaxExtra*16
			}
			if n.Max == Inf {
				hi = n.Min + s.MaxExtra
			}
			use := s.repUse[n]
			if use == nil {
				use = &[2]int{}
				s.repUse[n] = use
			}
			switch {
			case s.rng.IntN(3) == 0:
				if use[0] <= use[1] {
					count = n.Min
				} else {
					count = hi
				}
			default:
				count = n.Min + s.rng.IntN(min(hi, n.Min+s.MaxExtra)-n.Min+1)
			}
			if count == n.Min {
				use[0]++
			}
			if count == hi {
				use[1]++
			}
		}
		for i := range count {
			if i >= n.Min && (len(*b) > s.MaxLen || s.steps > s.maxSteps()) {
				// Past the bounds, iterations chosen before are dropped:
				// with each level of 1*( "a" 1*( … ) ) finishing its
				// pending iterations in full, a sample grew with the
				// square of the nesting.
				break
			}
			s.gen(n.Body, depth, b)
		}
	case *RuleRef:
		r, ok := s.refRule[n]
		if !ok {
			r = s.g.Rule(n.Name)
			s.refRule[n] = r
		}
		s.gen(r.Expr, depth+1, b)
	case *CharVal:
		for i := 0; i < len(n.Text); i++ {
			c := n.Text[i]
			if !n.Sensitive && s.rng.IntN(2) == 0 {
				if c >= 'a' && c <= 'z' {
					c = upperASCII(c)
				} else {
					c = lowerASCII(c)
				}
			}
			*b = append(*b, c)
		}
	case *NumVal:
		put := func(c rune) {
			if s.g.Octets {
				*b = append(*b, byte(c)) // values are octets
			} else {
				*b = utf8.AppendRune(*b, c)
			}
		}
		if !n.Range {
			for _, c := range n.Vals {
				put(c)
			}
			return
		}
		lo, hi := n.Vals[0], n.Vals[1]
		var c rune
		switch s.rng.IntN(4) {
		case 0:
			c = lo
		case 1:
			c = hi
		default:
			c = lo + rune(s.rng.Int64N(int64(hi-lo)+1))
		}
		if c >= 0xD800 && c <= 0xDFFF && !s.g.Octets {
			c = lo
			if c >= 0xD800 && c <= 0xDFFF {
				c = hi
			}
		}
		put(c)
	}
}

// Coverage reports the alternatives never chosen and the repetition
// extremes never reached so far, one line each, for tests and reports.
func (s *Sampler) Coverage() []string {
	var out []string
	for _, r := range s.g.Rules {
		Walk(r.Expr, func(n Node) {
			switch n := n.(type) {
			case *Alt:
				use, ok := s.altUse[n]
				if !ok {
					return
				}
				for i, u := range use {
					if u == 0 {
						out = append(out, fmt.Sprintf("%s: %s: alternative %d (%s) never chosen", n.Pos, r.Name, i+1, String(n.Alts[i])))
					}
				}
			case *Repeat:
				use, ok := s.repUse[n]
				if !ok {
					return
				}
				if use[0] == 0 {
					out = append(out, fmt.Sprintf("%s: %s: %s never at its minimum", n.Pos, r.Name, String(n)))
				}
				if use[1] == 0 {
					out = append(out, fmt.Sprintf("%s: %s: %s never at its maximum", n.Pos, r.Name, String(n)))
				}
			}
		})
	}
	return out
}

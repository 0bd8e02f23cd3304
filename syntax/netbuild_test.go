package syntax

// Networks for tests, built from expressions with the ABNF meaning, as gen
// builds them from its PEG (one automaton per rule, ε-edges between the
// parts): buildNet(names, bodies), with bodies made of lit, call, seq, alt,
// star and opt.

type netBuilder struct {
	n     *Net
	edges [][]NetEdge
	cls   map[rune]int32
}

// nx adds an expression's automaton and returns its entry and exit states.
type nx func(b *netBuilder) (int32, int32)

func (b *netBuilder) state() int32 {
	b.edges = append(b.edges, nil)
	return int32(len(b.edges) - 1)
}

func (b *netBuilder) eps(from, to int32) {
	b.edges[from] = append(b.edges[from], NetEdge{to, -1, -1})
}

// lit matches s, one character at a time.
func lit(s string) nx {
	return func(b *netBuilder) (int32, int32) {
		s0 := b.state()
		p := s0
		for _, c := range s {
			k, ok := b.cls[c]
			if !ok {
				k = int32(len(b.n.Classes))
				b.n.Classes = append(b.n.Classes, []rune{c, c})
				b.cls[c] = k
			}
			q := b.state()
			b.edges[p] = append(b.edges[p], NetEdge{q, k, -1})
			p = q
		}
		return s0, p
	}
}

// call calls rule r.
func call(r int32) nx {
	return func(b *netBuilder) (int32, int32) {
		s, f := b.state(), b.state()
		b.edges[s] = append(b.edges[s], NetEdge{f, -1, r})
		return s, f
	}
}

func seq(xs ...nx) nx {
	return func(b *netBuilder) (int32, int32) {
		s := b.state()
		p := s
		for _, x := range xs {
			a, z := x(b)
			b.eps(p, a)
			p = z
		}
		return s, p
	}
}

func alt(xs ...nx) nx {
	return func(b *netBuilder) (int32, int32) {
		s, f := b.state(), b.state()
		for _, x := range xs {
			a, z := x(b)
			b.eps(s, a)
			b.eps(z, f)
		}
		return s, f
	}
}

func star(x nx) nx {
	return func(b *netBuilder) (int32, int32) {
		s, f := b.state(), b.state()
		a, z := x(b)
		b.eps(s, a)
		b.eps(s, f)
		b.eps(z, a)
		b.eps(z, f)
		return s, f
	}
}

func opt(x nx) nx { return alt(x, seq()) }

// buildNet returns the network of the rules named names, rule i being
// bodies[i].
func buildNet(names []string, bodies []nx) *Net {
	b := &netBuilder{n: &Net{}, cls: map[rune]int32{}}
	for _, name := range names {
		b.n.Rules = append(b.n.Rules, NetRule{name, b.state(), b.state()})
	}
	for i, body := range bodies {
		s, f := body(b)
		b.eps(b.n.Rules[i].Start, s)
		b.eps(f, b.n.Rules[i].Final)
	}
	return withEdges(b.n, b.edges)
}

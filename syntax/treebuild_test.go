package syntax

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTreeParserMatchers: the matchers generated code calls match as
// pigeon's do, on UTF-8 and on octets, folding case or not.
func TestTreeParserMatchers(t *testing.T) {
	var az [4]uint64 // [a-z], and é (0xE9) for octets
	for c := 'a'; c <= 'z'; c++ {
		az[c>>6] |= 1 << (c & 63)
	}
	az[0xE9>>6] |= 1 << (0xE9 & 63)
	tests := []struct {
		name   string
		in     string
		octets bool
		match  func(p *TreeParser) bool
		ok     bool
		pos    int
	}{
		{"lit", "abc", false, func(p *TreeParser) bool { return p.Lit("ab", false) }, true, 2},
		{"lit short", "a", false, func(p *TreeParser) bool { return p.Lit("ab", false) }, false, 0},
		{"lit fold", "AbC", false, func(p *TreeParser) bool { return p.Lit("abc", true) }, true, 3},
		{"lit fold stays", "AbD", false, func(p *TreeParser) bool { return p.Lit("abc", true) }, false, 0},
		{"lit fold Kelvin", "\u212A", false, func(p *TreeParser) bool { return p.Lit("k", true) }, true, 3},
		{"lit utf-8", "ée", false, func(p *TreeParser) bool { return p.Lit("é", false) }, true, 2},
		{"lit octets", "\xe9e", true, func(p *TreeParser) bool { return p.Lit("é", false) }, true, 1},
		{"class ascii", "q", false, func(p *TreeParser) bool { return p.Class(&az, nil, []rune{'a', 'z'}, false, false) }, true, 1},
		{"class ascii no", "Q", false, func(p *TreeParser) bool { return p.Class(&az, nil, []rune{'a', 'z'}, false, false) }, false, 0},
		{"class rune", "é", false, func(p *TreeParser) bool { return p.Class(&az, []rune{'é'}, nil, false, false) }, true, 2},
		{"class rune fold", "É", false, func(p *TreeParser) bool { return p.Class(&az, []rune{'é'}, nil, true, false) }, true, 2},
		{"class rune range", "例", false, func(p *TreeParser) bool { return p.Class(&az, nil, []rune{0x4E00, 0x9FFF}, false, false) }, true, 3},
		{"class inverted", "例", false, func(p *TreeParser) bool { return p.Class(&az, nil, []rune{'a', 'z'}, false, true) }, true, 3},
		{"class inverted no", "例", false, func(p *TreeParser) bool { return p.Class(&az, nil, []rune{0x4E00, 0x9FFF}, false, true) }, false, 0},
		{"class octets", "\xe9", true, func(p *TreeParser) bool { return p.Class(&az, nil, nil, false, false) }, true, 1},
		{"class end", "", false, func(p *TreeParser) bool { return p.Class(&az, nil, nil, false, true) }, false, 0},
		{"any", "é", false, (*TreeParser).Any, true, 2},
		{"any octets", "\xc3\xa9", true, (*TreeParser).Any, true, 1},
		{"any end", "", false, (*TreeParser).Any, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &TreeParser{In: tt.in, Octets: tt.octets}
			ok := tt.match(p)
			if d := cmp.Diff([2]any{tt.ok, tt.pos}, [2]any{ok, p.Pos}); d != "" {
				t.Errorf("(ok, pos) (-want +got):\n%s", d)
			}
		})
	}
}

// TestTreeParserCapture: nodes are captured with their kids, cut when an
// expression fails, and copied out into two allocations.
func TestTreeParserCapture(t *testing.T) {
	p := &TreeParser{In: "ab", Names: []string{"a", "b", "s", "x"}}
	m := p.Mark()
	p.Pos = 1
	p.Capture(0, 0, m) // a [0,1)
	m2 := p.Mark()
	p.Pos = 2
	p.Capture(3, 1, m2) // x [1,2), then cut: an alternative that failed
	p.Cut(m2)
	p.Capture(1, 1, m2) // b [1,2)
	p.Capture(2, 0, m)  // s [0,2) (a b)
	if p.Mark() != 1 {
		t.Fatalf("%d nodes left, want 1", p.Mark())
	}
	got := p.tree(p.stack[0])
	want := &Node{Rule: "s", Start: 0, End: 2, Kids: []*Node{{Rule: "a", Start: 0, End: 1}, {Rule: "b", Start: 1, End: 2}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("tree (-want +got):\n%s", d)
	}
	if n := testing.AllocsPerRun(100, func() { p.tree(p.stack[0]) }); n != 2 {
		t.Errorf("copying the tree out: %v allocations, want 2", n)
	}
}

package syntax

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// parens is the network of one rule, balanced parentheses:
//
//	S = "(" S ")" S / ""
//
// state 0 is S's start, 1 its final; 2 -"("-> 3 -S-> 4 -")"-> 5 -S-> 1.
func parens() *Net {
	return &Net{
		Rules: []NetRule{{"S", 0, 1}},
		Index: []int32{0, 2, 2, 3, 4, 5, 6},
		Edges: []NetEdge{
			{2, -1, -1}, {1, -1, -1}, // 0: ε to 2, ε to the final state
			{3, 0, -1}, // 2: "("
			{4, -1, 0}, // 3: S
			{5, 1, -1}, // 4: ")"
			{1, -1, 0}, // 5: S
		},
		Classes: [][]rune{{'(', '('}, {')', ')'}},
	}
}

func TestGuideEnter(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"", true}, {"()", true}, {"(())()", true}, {"((()))(())", true},
		{"(", false}, {")", false}, {"(()", false}, {"())", false}, {"x", false},
	} {
		g := NewGuide(parens(), []byte(tc.in), 1<<20)
		if got := g.Enter(0, 0) && g.Can(0, 0); got != tc.want || g.Err() != nil {
			t.Errorf("%q: Enter(S, 0), Can(start, 0) = %v (err %v), want %v", tc.in, got, g.Err(), tc.want)
		}
	}
}

// The guide follows the parser's stack: an inner S may end only where its
// caller can still complete the whole input.
func TestGuideCan(t *testing.T) {
	g := NewGuide(parens(), []byte("()"), 1<<20)
	if !g.Enter(0, 0) {
		t.Fatal("Enter(S, 0) on \"()\" = false")
	}
	for _, tc := range []struct {
		state, pos int
		want       bool
	}{
		{0, 0, true},  // at the start: "()" is an S
		{1, 0, false}, // ending at 0 leaves ")" unread
		{3, 1, true},  // after "(": S ")" S completes
		{5, 2, true},  // after "()": the empty S ends at 2
		{4, 0, false}, // ")" is not at 0
		{1, 2, true},
	} {
		if got := g.Can(tc.state, tc.pos); got != tc.want {
			t.Errorf("Can(%d, %d) = %v, want %v", tc.state, tc.pos, got, tc.want)
		}
	}
	// The inner S, called from state 3 at 1, returning to state 4.
	if !g.Call(4) || !g.Enter(0, 1) {
		t.Fatal("Enter(S, 1) from state 3 = false")
	}
	if !g.Can(1, 1) {
		t.Error("inner S: Can(final, 1) = false: the empty S at 1 lets the caller read \")\"")
	}
	if g.Can(2, 1) {
		t.Error("inner S: Can(2, 1) = true: there is no \"(\" at 1")
	}
	// Leave pops one invocation per call: two succeed, the third finds the
	// stack empty.
	first, second, third := g.Leave(), g.Leave(), g.Leave()
	if !first || !second || third {
		t.Errorf("Leave three times = %v, %v, %v; the stack should hold two invocations", first, second, third)
	}
}

func TestGuideWork(t *testing.T) {
	in := []byte("((((((((((((((((((((()))))))))))))))))))))")
	g := NewGuide(parens(), in, 10)
	if g.Enter(0, 0) && g.Can(0, 0) || !errors.Is(g.Err(), ErrWork) {
		t.Errorf("Enter, Can with 10 steps of work: err %v, want ErrWork", g.Err())
	}
	if g.Steps() != 10 {
		t.Errorf("Steps() = %d, want the whole budget, 10", g.Steps())
	}
	g = NewGuide(parens(), in, 1<<20)
	if !g.Enter(0, 0) || !g.Can(0, 0) || g.Steps() == 0 || g.Steps() > 1<<20 {
		t.Errorf("Enter, Can: %v, Steps() = %d", g.Err(), g.Steps())
	}
}

// Networks built by hand never make the guide panic: a network that fails
// Check makes every answer false, with Check's error.
func TestGuideBadNetwork(t *testing.T) {
	bad := []*Net{
		nil,
		{},
		{Rules: []NetRule{{"S", 0, 1}}, Index: []int32{0, 1, 1}, Edges: []NetEdge{{7, -1, -1}}},
		{Rules: []NetRule{{"S", 0, 9}}, Index: []int32{0, 0, 0}},
		{Rules: []NetRule{{"S", 0, 1}}, Index: []int32{0, 1, 1}, Edges: []NetEdge{{1, 3, -1}}},
		{Rules: []NetRule{{"S", 0, 1}}, Index: []int32{0, 1, 1}, Edges: []NetEdge{{1, -1, 5}}},
		{Rules: []NetRule{{"S", 0, 1}}, Index: []int32{0, 1, 1}, Edges: []NetEdge{{1, 0, -1}}, Classes: [][]rune{{'b', 'a'}}},
	}
	for i, n := range bad {
		g := NewGuide(n, []byte("ab"), 1<<20)
		if g.Enter(0, 0) || g.Call(0) && g.Can(0, 0) || g.Err() == nil {
			t.Errorf("network %d: the guide answered, err %v", i, g.Err())
		}
	}
	var g *Guide
	if g.Enter(0, 0) || g.Can(0, 0) || g.Call(0) || g.Leave() || g.Err() == nil || g.Steps() != 0 {
		t.Error("a nil guide answered")
	}
}

// A network whose edges cross from one rule's automaton into another's
// (gen never emits one) is still answered, with one numbering for all.
func TestGuideCrossingNetwork(t *testing.T) {
	n := &Net{
		Rules: []NetRule{{"A", 0, 1}, {"B", 2, 3}},
		Index: []int32{0, 1, 1, 2, 2},
		Edges: []NetEdge{
			{3, 0, -1}, // A's start reads "a" into B's final state
			{3, 0, -1}, // and so does B's
		},
		Classes: [][]rune{{'a', 'a'}},
	}
	if l := n.states(); l.maxSize != 4 {
		t.Errorf("crossing network: layout of %d states per rule, want the identity (4)", l.maxSize)
	}
	g := NewGuide(n, []byte("a"), 1<<20)
	g.Enter(0, 0) // whatever it answers, it does not panic
	if g.Err() != nil {
		t.Error(g.Err())
	}
}

// chain is r0 = r1 "a" / "b", …, r(n-1) = "c": a guide for it nests n
// levels deep, each with the scratch space of one rule, not of the network.
func chain(n int) *Net {
	net := &Net{Classes: [][]rune{{'a', 'a'}, {'b', 'b'}, {'c', 'c'}}}
	var edges [][]NetEdge
	state := func() int32 { edges = append(edges, nil); return int32(len(edges) - 1) }
	for i := range n {
		net.Rules = append(net.Rules, NetRule{fmt.Sprintf("r%d", i), state(), state()})
	}
	for i, r := range net.Rules {
		if i == n-1 {
			edges[r.Start] = append(edges[r.Start], NetEdge{r.Final, 2, -1})
			continue
		}
		mid := state()
		edges[r.Start] = append(edges[r.Start], NetEdge{mid, -1, int32(i + 1)}, NetEdge{r.Final, 1, -1})
		edges[mid] = append(edges[mid], NetEdge{r.Final, 0, -1})
	}
	return withEdges(net, edges)
}

// withEdges sets the edges of n from a list per state, and returns n.
func withEdges(n *Net, edges [][]NetEdge) *Net {
	for _, es := range edges {
		n.Index = append(n.Index, int32(len(n.Edges)))
		n.Edges = append(n.Edges, es...)
	}
	n.Index = append(n.Index, int32(len(n.Edges)))
	return n
}

func TestGuideScratchPerRule(t *testing.T) {
	const n = 800
	net := chain(n)
	net.noDFA = true // the chain is regular: its DFAs would nest nothing
	in := []byte("c")
	for range n - 1 {
		in = append(in, 'a')
	}
	g := NewGuide(net, in, 1<<30)
	if !g.Enter(0, 0) || !g.Can(int(net.Rules[0].Start), 0) || g.Err() != nil {
		t.Fatalf("Enter(r0), Can(start) on c a^%d: false, %v", n-1, g.Err())
	}
	// r2 … r(n-1), each inside the one before (r1, called by the parser's
	// invocation of r0 and on no cycle, is searched as a frame: callReach).
	if len(g.scratch) < n-2 {
		t.Fatalf("the guide nested %d deep, want %d", len(g.scratch), n-2)
	}
	for d, sc := range g.scratch {
		if len(sc.marks) > 3 {
			t.Fatalf("depth %d: %d marks, more than the 3 states of one rule", d, len(sc.marks))
		}
	}
	if g := NewGuide(net, []byte("caa"), 1<<30); g.Enter(0, 0) && g.Can(int(net.Rules[0].Start), 0) {
		t.Error("Enter(r0), Can(start) on caa: true")
	}
}

func BenchmarkGuideChain(b *testing.B) {
	net := chain(800)
	in := []byte("b")
	for range 400 {
		in = append(in, 'a')
	}
	b.ReportAllocs()
	for b.Loop() {
		if g := NewGuide(net, in, 1<<30); !g.Enter(0, 0) || !g.Can(int(net.Rules[0].Start), 0) {
			b.Fatal("not matched")
		}
	}
}

// TestGuideReuse: a guide built on the buffers a released one gave back
// answers as a new one does, with the same steps, input after input.
func TestGuideReuse(t *testing.T) {
	net := parens()
	inputs := []string{"((()))(())", "", "(()", "(())()", "())", "()", "x", "((((((((((()))))))))))"}
	steps := map[string]int{}
	answers := map[string]bool{}
	for round := range 3 {
		for _, in := range inputs {
			g := NewGuide(net, []byte(in), 1<<20)
			got := g.Enter(0, 0) && g.Can(0, 0)
			if g.Err() != nil {
				t.Fatalf("round %d, %q: %v", round, in, g.Err())
			}
			if round == 0 {
				steps[in], answers[in] = g.Steps(), got
			} else if got != answers[in] || g.Steps() != steps[in] {
				t.Errorf("round %d, %q: %v in %d steps, want %v in %d", round, in, got, g.Steps(), answers[in], steps[in])
			}
			g.release()
		}
	}
	g := NewGuide(net, nil, 1)
	g.release()
	if g.Err() == nil || g.Enter(0, 0) {
		t.Error("a released guide answers")
	}
}

// TestGuideStampWrap: marks stay right when the stamp wraps around in the
// middle of a parse, with marks left by an earlier parse on the same
// buffers (the stamp carries over from parse to parse).
func TestGuideStampWrap(t *testing.T) {
	inputs := []string{"((()))(())", "(()", "((((((((((()))))))))))", "()()()()()()()()()()()()()()", "(((((((((((((((((((("}
	for _, in := range inputs {
		fresh := NewGuide(parens(), []byte(in), 1<<20)
		want := fresh.Enter(0, 0) && fresh.Can(0, 0)
		for i := range 3 * len(inputs) {
			before := uint32(i / len(inputs))
			old := NewGuide(parens(), []byte(inputs[i%len(inputs)]), 1<<20)
			old.Enter(0, 0) // marks with stamps from 1 up
			g := NewGuide(parens(), []byte(in), 1<<20)
			g.cmarks, g.scratch, g.stamp = old.cmarks, old.scratch, ^uint32(0)-before
			if got := g.Enter(0, 0) && g.Can(0, 0); got != want || g.Steps() != fresh.Steps() {
				t.Errorf("%q, %d stamps before the wrap: %v in %d steps, want %v in %d", in, before, got, g.Steps(), want, fresh.Steps())
			}
			if g.stamp > 1<<20 {
				t.Errorf("%q: the stamp did not wrap (%d)", in, g.stamp)
			}
		}
	}
}

// aliases is a network with rules that are another rule under a new name
// (a left recursion's seed, display-name = phrase), and some that look like
// one and are not:
//
//	S = A "c"      0 -ε-> 2 -A-> 3 -"c"-> 1
//	A = B          4 -ε-> 6 -B-> 7 -ε-> 5     an alias of B
//	B = "x" B / "x"  8 -ε-> 10 -"x"-> 11 -B-> 9;  8 -ε-> 12 -"x"-> 9
//	C = A          13 -A-> 14                 an alias of B, through A
//	D = E          15 -E-> 16                 D and E: a cycle that matches nothing
//	E = D          17 -D-> 18
//	F = B "d"      19 -B-> 20 -"d"-> 21       not an alias: the call is not last
func aliases() *Net {
	return withEdges(&Net{
		Rules:   []NetRule{{"S", 0, 1}, {"A", 4, 5}, {"B", 8, 9}, {"C", 13, 14}, {"D", 15, 16}, {"E", 17, 18}, {"F", 19, 21}},
		Classes: [][]rune{{'c', 'c'}, {'x', 'x'}, {'d', 'd'}},
	}, [][]NetEdge{
		{{2, -1, -1}},                // 0
		nil,                          // 1
		{{3, -1, 1}},                 // 2: A
		{{1, 0, -1}},                 // 3: "c"
		{{6, -1, -1}},                // 4
		nil,                          // 5
		{{7, -1, 2}},                 // 6: B
		{{5, -1, -1}},                // 7
		{{10, -1, -1}, {12, -1, -1}}, // 8
		nil,                          // 9
		{{11, 1, -1}},                // 10: "x"
		{{9, -1, 2}},                 // 11: B
		{{9, 1, -1}},                 // 12: "x"
		{{14, -1, 1}},                // 13: A
		nil,                          // 14
		{{16, -1, 5}},                // 15: E
		nil,                          // 16
		{{18, -1, 4}},                // 17: D
		nil,                          // 18
		{{20, -1, 2}},                // 19: B
		{{21, 2, -1}},                // 20: "d"
		nil,                          // 21
	})
}

// A rule that is another under a new name shares its ends; the parser's
// invocation of a rule whose ends its caller's search computed is answered
// from them and the caller's answers.
func TestGuideAlias(t *testing.T) {
	net := aliases()
	if err := net.Check(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int32{-1, 2, -1, 2, -1, -1, -1}, net.states().alias); diff != "" {
		t.Fatalf("aliases (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		in   string
		rule int32
		want []int32 // the ends at 0, nil if none
	}{
		{"xxxc", 0, []int32{4}},
		{"xxxc", 1, []int32{1, 2, 3}},
		{"xxxc", 3, []int32{1, 2, 3}},
		{"xxxd", 6, []int32{4}},
		{"xxxd", 4, nil},
		{"xxxd", 5, nil},
	} {
		g := NewGuide(net, []byte(tc.in), 1<<20)
		ends, ok := g.end(tc.rule, 0)
		if !ok || len(ends) == 0 && tc.want == nil {
			ends = nil
		}
		if diff := cmp.Diff(tc.want, ends); diff != "" || !ok {
			t.Errorf("%q: ends of %s at 0 (ok %v) (-want +got):\n%s", tc.in, net.Rules[tc.rule].Name, ok, diff)
		}
	}
	// "xxxc": S's search computes A's ends at 0 (1, 2 and 3); of those,
	// only 3 lets S complete.
	g := NewGuide(net, []byte("xxxc"), 1<<20)
	if !g.Enter(0, 0) || !g.Call(3) || !g.Enter(1, 0) {
		t.Fatalf("Enter(S, 0), Call(3), Enter(A, 0) on \"xxxc\": false (%v)", g.Err())
	}
	if !g.Can(5, 3) || g.Can(5, 2) || g.Can(5, 1) {
		t.Errorf("A ending at 3, 2, 1: %v, %v, %v; want true, false, false", g.Can(5, 3), g.Can(5, 2), g.Can(5, 1))
	}
	// "xxxd": S fails, after computing A's ends; A alone, invoked next at
	// the top, must end at the end of the input, and none of them does.
	g = NewGuide(net, []byte("xxxd"), 1<<20)
	if g.Enter(0, 0) {
		t.Fatal("Enter(S, 0) on \"xxxd\" = true")
	}
	if g.Enter(1, 0) {
		t.Error("Enter(A, 0) on \"xxxd\", after S's search = true: no end of A is the input's end")
	}
	if !g.Enter(6, 0) || g.Err() != nil {
		t.Errorf("Enter(F, 0) on \"xxxd\" = false (%v)", g.Err())
	}
}

// Under left recursion through an alias (networks built by hand: gen
// rewrites left recursion), the alias is asked for its ends while its
// callee's simulation still runs: it must not keep that unfinished answer
// as its own.
func TestGuideAliasLeftRecursion(t *testing.T) {
	// B = A "x" / "y"; A = B.
	net := buildNet([]string{"B", "A"}, []nx{
		alt(seq(call(1), lit("x")), lit("y")),
		call(0),
	})
	net.noDFA = true
	g := NewGuide(net, []byte("yxx"), 1<<20)
	b, okB := g.end(0, 0)
	a, okA := g.end(1, 0)
	if !okA || !okB || !slices.Equal(a, b) || len(b) == 0 {
		t.Errorf("ends at 0: B %v (%v), its alias A %v (%v); want the same, not empty", b, okB, a, okA)
	}
}

// An alias of a rule whose simulation gives up shares that rule's shared
// search: the rules that call the alias then get shared searches too, and
// the work does not multiply with the contexts they are called in. In
//
//	S = B "!" / " " C
//	C = X "a" / X "b" / …   (k contexts)
//	X = A W
//	A = B                   (an alias)
//	B = " "* ("(" B ")")?
//	W = " "*
//
// on " "×640 and a letter, B at 1 gives up (B at 0 covered the same
// pairs). 16 contexts take about 6 times the steps of one, as before
// aliases were read as such (31,196 and 5,144); when A had no shared
// search, X was searched as a frame once per context: 21 times (111,384).
func TestGuideAliasShared(t *testing.T) {
	steps := map[int]int{}
	for _, k := range []int{1, 16} {
		var ctx []nx
		for i := range k {
			ctx = append(ctx, seq(call(2), lit(string(rune('a'+i)))))
		}
		net := buildNet([]string{"S", "C", "X", "A", "B", "W"}, []nx{
			alt(seq(call(4), lit("!")), seq(lit(" "), call(1))),
			alt(ctx...),
			seq(call(3), call(5)),
			call(4),
			seq(star(lit(" ")), opt(seq(lit("("), call(4), lit(")")))),
			star(lit(" ")),
		})
		if a := net.states().alias[3]; a != 4 {
			t.Fatalf("A is an alias of rule %d, want 4 (B)", a)
		}
		in := []byte(strings.Repeat(" ", 640) + string(rune('a'+k-1)))
		g := NewGuide(net, in, 1<<30)
		if !g.Enter(0, 0) || g.Err() != nil {
			t.Fatalf("k = %d: Enter(S, 0) = false (%v)", k, g.Err())
		}
		if g.nodes[uint64(3)<<32|1] == nil || g.nodes[uint64(4)<<32|1] == nil {
			t.Errorf("k = %d: no shared search of A and B at 1", k)
		}
		steps[k] = g.Steps()
	}
	if steps[16] > 8*steps[1] {
		t.Errorf("16 contexts took %d steps, 1 context %d: the work multiplies with the contexts", steps[16], steps[1])
	}
}

// TestOctetExpected: in a grammar of octets, pigeon's text of a terminal
// holds its bytes as the characters U+0080 to U+00FF (see octetText); a
// failure writes them as the bytes they are.
func TestOctetExpected(t *testing.T) {
	f := octetFailure(&Failure{Offset: 1, Expected: []string{"\"\u00c3\u00a9\"", "[\u0080-\u00ff]", "\"a\""}}, nil, true)
	if want := []string{`"\xC3\xA9"`, `[\x80-\xFF]`, `"a"`}; !slices.Equal(f.Expected, want) {
		t.Errorf("expected %q, want %q", f.Expected, want)
	}
	if f := octetFailure(&Failure{Expected: []string{"\"é\""}}, nil, false); f.Expected[0] != "\"é\"" {
		t.Errorf("a grammar of code points: %q", f.Expected)
	}
}

// TestLiteralPrefix: a failure that pigeon records where an expected
// string begins moves past the part of it the input holds, with the
// string's next character expected; strings not begun, classes, and a
// string the input holds whole leave it.
func TestLiteralPrefix(t *testing.T) {
	for _, tt := range []struct {
		text     string
		off      int
		expected []string
		wantOff  int
		want     []string
	}{
		{`{"a": tru}`, 6, []string{`"false"`, `"null"`, `"true"`, `[0-9]`}, 9, []string{`"e"`}},
		{"GET / HTTX/1.1", 6, []string{`"HTTP"`}, 9, []string{`"P"`}},
		{"a\rb", 1, []string{`"\r\n"`, `[a-z]`}, 2, []string{`"\n"`}},
		{"fRx", 0, []string{`"fri"i`, `"frz"`}, 2, []string{`"i"i`}},
		{"Fri", 0, []string{`"fri"i`}, 0, []string{`"fri"i`}}, // whole: not where it failed
		{"x", 0, []string{`"true"`, `[0-9]`}, 0, []string{`"true"`, `[0-9]`}},
		{"é!", 0, []string{`"éa"`}, 2, []string{`"a"`}},
		{"\u00e9x", 0, []string{"\"\u00e8\""}, 0, []string{"\"\u00e8\""}}, // one character, begun only in its bytes
	} {
		f := literalPrefix(&Failure{Offset: tt.off, Expected: tt.expected}, []byte(tt.text))
		if f.Offset != tt.wantOff || !slices.Equal(f.Expected, tt.want) {
			t.Errorf("%q at %d expecting %q: %d %q; want %d %q", tt.text, tt.off, tt.expected, f.Offset, f.Expected, tt.wantOff, tt.want)
		}
	}
}

// TestGuideDepth: the search recurses as the input nests, and a goroutine
// whose stack runs out dies of a fatal error that no recover catches; past
// searchStack bytes of its recursion the guide gives up with ErrDepth. A
// chain of 12 rules per parenthesis, as in an expression grammar's levels
// of precedence (r0 = r1 *("a" r1), …, r11 = "(" r0 ")" / "x"), nested
// 100,000 deep overflowed Go's stack without it; 1,000 deep it is followed.
func TestGuideDepth(t *testing.T) {
	const levels = 12
	names := make([]string, levels)
	bodies := make([]nx, levels)
	for i := range levels - 1 {
		names[i] = fmt.Sprint("r", i)
		bodies[i] = seq(call(int32(i+1)), star(seq(lit(string(rune('a'+i))), call(int32(i+1)))))
	}
	names[levels-1] = "r11"
	bodies[levels-1] = alt(seq(lit("("), call(0), lit(")")), lit("x"))
	n := buildNet(names, bodies)
	for _, tc := range []struct {
		depth int
		want  error
	}{{1000, nil}, {100000, ErrDepth}} {
		in := strings.Repeat("(", tc.depth) + "x" + strings.Repeat(")", tc.depth)
		g := NewGuide(n, []byte(in), 1<<30)
		ok := g.Enter(0, 0) && g.Can(int(n.Rules[0].Start), 0)
		if g.Err() != tc.want || ok != (tc.want == nil) {
			t.Errorf("nested %d deep: Enter(r0, 0), Can(start, 0) = %v, error %v; want %v", tc.depth, ok, g.Err(), tc.want)
		}
	}
}

// TestGuideHiddenLeftRecursion: in a network built by hand (gen rewrites
// left recursion), s = b s "x" / "y" with b = *"b" calls s again at the
// same position through b's empty match, and the search of "bbb" with a
// budget of 2^24 steps recursed until the stack overflowed; it stops at
// ErrDepth, and inputs of the language are still recognized.
func TestGuideHiddenLeftRecursion(t *testing.T) {
	n := buildNet([]string{"s", "b"}, []nx{alt(seq(call(1), call(0), lit("x")), lit("y")), star(lit("b"))})
	for _, tc := range []struct {
		in   string
		ok   bool
		want error
	}{{"y", true, nil}, {"byx", true, nil}, {"bbyxx", true, nil}, {"bbb", false, ErrDepth}} {
		g := NewGuide(n, []byte(tc.in), 1<<24)
		ok := g.Enter(0, 0) && g.Can(int(n.Rules[0].Start), 0)
		if ok != tc.ok || g.Err() != tc.want {
			t.Errorf("%q: %v, error %v; want %v, %v", tc.in, ok, g.Err(), tc.ok, tc.want)
		}
	}
}

// TestGuideEnterDepth: the guide refuses to enter a rule MaxRuleNesting
// deep in the parser's stack, with ErrDepth, which bounds the recursion
// of parsers gen wrote before its rules checked pigeon's rule stack.
func TestGuideEnterDepth(t *testing.T) {
	const depth = MaxRuleNesting + 10
	in := []byte(strings.Repeat("(", depth) + strings.Repeat(")", depth))
	g := NewGuide(parens(), in, 1<<30)
	entered := 0
	for i := 0; i < depth; i++ {
		if i > 0 && !g.Call(4) { // S's call after "(" (state 3) returns to 4
			break
		}
		if !g.Enter(0, i) {
			break
		}
		entered++
	}
	if entered != MaxRuleNesting || g.Err() != ErrDepth {
		t.Errorf("entered %d rules deep, error %v; want %d, %v", entered, g.Err(), MaxRuleNesting, ErrDepth)
	}
}

// TestTreeParserNest: the frames of the functions on cycles of calls
// take at most treeStack bytes, and the parse gives up past that (Over).
func TestTreeParserNest(t *testing.T) {
	var p TreeParser
	const frame = 1 << 10
	for i := 0; i < treeStack/frame; i++ {
		if !p.Nest(frame) {
			t.Fatalf("Nest failed at depth %d", i+1)
		}
	}
	p.Unnest(frame)
	if !p.Nest(frame) {
		t.Fatal("Nest failed after Unnest")
	}
	if p.Nest(1) || !p.Over {
		t.Errorf("Nest past %d bytes: ok, Over %v; want a failure", treeStack, p.Over)
	}
}

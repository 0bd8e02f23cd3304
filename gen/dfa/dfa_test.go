package dfa

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/internal/fa"
	"github.com/peguri/rfc3986/gen/internal/ir"
	"github.com/peguri/rfc3986/gen/internal/work"
	"github.com/peguri/rfc3986/syntax"
)

// runner decides membership with a minimal DFA, byte by byte.
type runner struct {
	d     *fa.DFA
	class [256]int
}

func newRunner(m *Machine) *runner {
	r := &runner{d: m.DFA}
	for i := range r.class {
		r.class[i] = -1
	}
	for a, set := range m.DFA.Atoms {
		for _, rg := range set.Ranges() {
			for c := rg.Lo; c <= rg.Hi && c < 256; c++ {
				r.class[c] = a
			}
		}
	}
	return r
}

func (r *runner) accepts(in []byte) bool {
	s := int32(0)
	for _, b := range in {
		a := r.class[b]
		if a < 0 {
			return false
		}
		if s = r.d.Next[s][a]; s < 0 {
			return false
		}
	}
	return r.d.Accept[s]
}

func read(t *testing.T, name, text string, octets bool) *abnf.Grammar {
	t.Helper()
	g, err := abnf.Read([]abnf.Source{{Name: name, Text: []byte(text)}}, &abnf.Options{Octets: octets})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, p := range abnf.Check(g, nil) {
		if p.Severity == abnf.SeverityError {
			t.Fatalf("%s: %v", name, p)
		}
	}
	return g
}

func readFile(t *testing.T, file string, octets bool) *abnf.Grammar {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return read(t, file, string(b), octets)
}

// agree checks the machine of rule against the ABNF matcher on samples,
// near-misses and the extra inputs.
func agree(t *testing.T, g *abnf.Grammar, m *Machine, n int, extra [][]byte) {
	t.Helper()
	mt, err := abnf.NewMatcher(g)
	if err != nil {
		t.Fatal(err)
	}
	run := newRunner(m)
	smp := abnf.NewSampler(g, 1)
	check := func(in []byte) {
		want, err := mt.Match(m.Rule, in)
		if err != nil {
			t.Fatal(err)
		}
		if got := run.accepts(in); got != want {
			t.Fatalf("%s: DFA says %v, matcher %v on %q", m.Rule, got, want, in)
		}
	}
	for range n {
		s, err := smp.Sample(m.Rule)
		if err != nil {
			t.Fatal(err)
		}
		check(s)
		nm, err := smp.NearMiss(m.Rule)
		if err != nil {
			t.Fatal(err)
		}
		check(nm)
	}
	for _, in := range extra {
		check(in)
	}
}

// strings returns every string of length up to n over the alphabet.
func allStrings(alpha string, n int) [][]byte {
	out := [][]byte{{}}
	prev := [][]byte{{}}
	for range n {
		var next [][]byte
		for _, p := range prev {
			for i := 0; i < len(alpha); i++ {
				next = append(next, append(append([]byte(nil), p...), alpha[i]))
			}
		}
		out = append(out, next...)
		prev = next
	}
	return out
}

func build1(t *testing.T, g *abnf.Grammar, opts Options, rules ...string) []*Machine {
	t.Helper()
	c, err := NewCompiler(g, opts)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := c.Build(rules)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// TestTailRecursionRFC6265: RFC 6265's ldh-str is tail-recursive; the rules
// above it are regular and compile, and agree with the matcher.
func TestTailRecursionRFC6265(t *testing.T) {
	g := readFile(t, "../../testdata/grammars/rfc6265-adapted.abnf", false)
	rules := []string{"ldh-str", "label", "domain-value", "set-cookie-string", "cookie-string"}
	ms := build1(t, g, Options{}, rules...)
	for _, m := range ms {
		if m.Rule != "cookie-string" && (len(m.Recursive) != 1 || m.Recursive[0] != "ldh-str") {
			t.Errorf("%s: recursion compiled %v, want ldh-str", m.Rule, m.Recursive)
		}
		agree(t, g, m, 1500, nil)
	}
	// Labels exhaustively over a small alphabet: ldh-str can end in a
	// hyphen, a label cannot.
	agree(t, g, ms[1], 0, allStrings("a1-.", 6))
	agree(t, g, ms[0], 0, allStrings("a1-.", 5))
}

// TestRegularRecursion compiles mutual tail recursion, tail references
// under options, components referenced from several places and in context,
// and components that reference other components, and compares each rule
// with the matcher on every short string over the grammar's alphabet.
func TestRegularRecursion(t *testing.T) {
	for _, tc := range []struct {
		grammar string
		alpha   string
		samples int // of agree; the exhaustive strings suffice where the matcher is slow
	}{
		{"s = a\na = \"x\" b / \"y\"\nb = \"z\" a / \"w\" [a]\n", "xyzw", 200},
		{"s = \"(\" a \")\" a\na = \"x\" a / \"y\"\n", "()xy", 200},
		{"s = a \"-\" a\na = \"x\" [a]\n", "x-", 200},
		{"s = a / b\na = \"x\" b / \"y\"\nb = \"z\" a / \"y\" a / \"q\"\n", "xyzq", 200},
		// a's component references c's component from inside.
		{"s = a\na = c \"x\" a / \"y\"\nc = \"z\" c / \"w\"\n", "xyzw", 200},
		// A nullable tail-recursive rule, repeated (gen/internal/ir derives its
		// non-empty part, another component).
		{"s = *a \".\"\na = [\"x\" a]\n", "x.", 200},
		{"s = 1*(a \",\")\na = \"x\" / \"y\" a\n", "xy,", 200},
		// Self-embedding in form, regular in language (ir's TailLoop):
		// RFC 3501's sequence-set, a loop alone, and one used in context
		// and inside another tail-recursive rule. Every string up to 7
		// bytes, no samples: the matcher takes seconds on the long ones,
		// which have as many derivations as binary trees.
		{"s = (n / n \":\" n) *(\",\" s)\nn = \"1\" / \"*\"\n", "1*:,", 0},
		{"s = *(\"x\" s)\n", "xy", 0},
		{"s = \"(\" t \")\" t\nt = \"x\" *(\" \" [\"y\"] t)\n", "() xy", 0},
		{"s = \"a\" s / t\nt = \"x\" *(\",\" t)\n", "ax,", 0},
	} {
		g := read(t, "t", tc.grammar, false)
		c, err := NewCompiler(g, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rules, err := c.DefaultStart()
		if err != nil {
			t.Fatal(err)
		}
		ms, err := c.Build(rules)
		if err != nil {
			t.Fatalf("%q: %v", tc.grammar, err)
		}
		for _, m := range ms {
			n := 6
			if tc.samples == 0 {
				n = 7
			}
			agree(t, g, m, tc.samples, allStrings(tc.alpha, n))
		}
	}
}

// TestRandomRegularRecursion: random grammars with strongly regular
// recursion (tail references, some under options), referenced in context;
// every rule against the matcher on short strings, samples and near-misses;
// and the NFA has exactly the estimated size.
func TestRandomRegularRecursion(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	n := 60
	if testing.Short() {
		n = 15
	}
	recursive, compared := 0, 0
	defer func() {
		// The generator must make what the test is about.
		if !t.Failed() && (recursive < n/2 || compared < n) {
			t.Errorf("%d rules compiled with recursion as jumps, %d compared, of %d grammars", recursive, compared, n)
		}
	}()
	for i := range n {
		text := randomGrammar(rng)
		g := read(t, fmt.Sprint("random ", i), text, false)
		c, err := NewCompiler(g, Options{})
		if err != nil {
			t.Fatalf("%s\n%v", text, err)
		}
		rules, err := c.DefaultStart()
		if err != nil {
			t.Fatalf("%s\n%v", text, err)
		}
		ms, err := c.Build(rules)
		if err != nil {
			t.Fatalf("%s\n%v", text, err)
		}
		for _, m := range ms {
			if m.Rule != "s" && m.Rule != "r0" {
				continue
			}
			if len(m.Recursive) > 0 {
				recursive++
			}
			compared++
			t.Run(fmt.Sprint(i, m.Rule), func(t *testing.T) {
				defer func() {
					if t.Failed() {
						t.Logf("grammar:\n%s", text)
					}
				}()
				agree(t, g, m, 100, allStrings("abc(", 5))
			})
		}
		checkEstimates(t, c, rules)
	}
}

// randomGrammar: rules r0…r3 in one or two components of tail recursion,
// helpers h0, h1 without recursion, and s using them in context.
func randomGrammar(rng *rand.Rand) string {
	term := func() string {
		return []string{`"a"`, `"b"`, `"c"`, `"ab"`, `("a" / "c")`, `*"a"`, `[h0]`, `h1`}[rng.IntN(8)]
	}
	// The first item of an alternative that recurses cannot be empty:
	// that would be head recursion too (which gen/internal/ir refuses).
	solid := func() string {
		return []string{`"a"`, `"b"`, `"c"`, `"ab"`, `("a" / "c")`, `1*"a"`, `h0`, `h1`}[rng.IntN(8)]
	}
	var b strings.Builder
	b.WriteString("s = " + []string{`r0`, `"(" r0 "(" r0`, `*(r0 "(")`, `r0 [r2]`, `h0 r1 "c"`}[rng.IntN(5)] + "\n")
	split := rng.IntN(2) == 0 // r0,r1 and r2,r3 apart, or one component
	for r := range 4 {
		var alts []string
		alts = append(alts, term()) // a way out
		for range 1 + rng.IntN(3) {
			items := []string{solid()}
			for range rng.IntN(2) {
				items = append(items, term())
			}
			target := rng.IntN(4)
			if split {
				target = r&^1 | rng.IntN(2)
			}
			tail := fmt.Sprintf("r%d", target)
			switch rng.IntN(4) {
			case 0:
				tail = "[" + tail + "]"
			case 1:
				// A reference to the other component, in the middle.
				if split {
					items = append(items, fmt.Sprintf("r%d", (r+2)%4))
					if r >= 2 {
						items = items[:len(items)-1]
					}
				}
			}
			alts = append(alts, strings.Join(append(items, tail), " "))
		}
		fmt.Fprintf(&b, "r%d = %s\n", r, strings.Join(alts, " / "))
	}
	b.WriteString("h0 = \"b\" / \"c\" \"a\"\nh1 = 1*2\"c\"\n")
	return b.String()
}

// checkEstimates: the NFA inline builds has exactly the size estimate
// predicts (the limit is checked on the estimate, before building).
func checkEstimates(t *testing.T, c *Compiler, rules []string) {
	t.Helper()
	for _, name := range rules {
		checkEstimate(t, c, c.lg.Rule(name))
	}
}

func checkEstimate(t *testing.T, c *Compiler, r *ir.Rule) {
	t.Helper()
	est, err := c.estimateRule(r)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := c.nfa(r, est); int64(len(n.States)) != est {
		t.Errorf("%s: estimated %d NFA states, built %d", r.Name, est, len(n.States))
	}
}

// TestLeftLinear compiles head recursion, which gen/internal/ir does not lower yet
// (it rewrites it away, or refuses it), from lowered grammars built by
// hand, and compares with regular expressions on all short strings.
func TestLeftLinear(t *testing.T) {
	set := func(c rune) ir.Expr { return &ir.Set{Set: fa.Of(c)} }
	// l = l "," "x" / "x"
	l := &ir.Rule{Name: "l"}
	l.Body = &ir.Alt{Alts: []ir.Expr{&ir.Seq{Items: []ir.Expr{&ir.Ref{Rule: l}, set(','), set('x')}}, set('x')}}
	// a = b "x" / "y"; b = a "z" / "w" (mutual head recursion)
	a, b := &ir.Rule{Name: "a"}, &ir.Rule{Name: "b"}
	a.Body = &ir.Alt{Alts: []ir.Expr{&ir.Seq{Items: []ir.Expr{&ir.Ref{Rule: b}, set('x')}}, set('y')}}
	b.Body = &ir.Alt{Alts: []ir.Expr{&ir.Seq{Items: []ir.Expr{&ir.Ref{Rule: a}, set('z')}}, set('w')}}
	// s = "(" l ")" a
	s := &ir.Rule{Name: "s", Body: &ir.Seq{Items: []ir.Expr{set('('), &ir.Ref{Rule: l}, set(')'), &ir.Ref{Rule: a}}}}
	lg := &ir.Grammar{Rules: []*ir.Rule{s, l, a, b}}
	comps, _ := lg.Recursion()
	for _, comp := range comps {
		if comp.SelfEmbedding || !comp.Left {
			t.Fatalf("component %v: want head recursion", comp.Rules)
		}
	}
	c := newCompiler(nil, lg, Options{})
	for _, tc := range []struct {
		r  *ir.Rule
		re string
	}{
		{l, `x(,x)*`},
		{a, `(y|wx)(zx)*`},
		{b, `(w|yz)(xz)*`},
		{s, `\(x(,x)*\)(y|wx)(zx)*`},
	} {
		m, err := c.machine(tc.r)
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(`^(?:` + tc.re + `)$`)
		run := newRunner(m)
		for _, in := range allStrings("x,yzw()", 6) {
			if got, want := run.accepts(in), re.Match(in); got != want {
				t.Fatalf("%s: DFA %v, %s %v on %q", tc.r.Name, got, tc.re, want, in)
			}
		}
		checkEstimate(t, c, tc.r)
	}
}

// TestSelfEmbeddingRefused: a rule that reaches self-embedding recursion is
// refused with the component's rules named; the default start set leaves
// it out; a grammar with nothing regular is an error.
func TestSelfEmbeddingRefused(t *testing.T) {
	g := read(t, "t", "s = \"<\" c \">\" / x\nc = \"(\" *d \")\"\nd = c / \"a\"\nx = \"y\" x / \"z\"\n", false)
	c, err := NewCompiler(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	start, err := c.DefaultStart()
	if err != nil || strings.Join(start, ",") != "x" {
		t.Errorf("default start = %v, %v; want x", start, err)
	}
	_, err = c.Build([]string{"s"})
	want := "t:1:1: s: reaches self-embedding recursion (rules c, d), so its language need not be regular"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Build(s) = %v, want %q", err, want)
	}
	g = read(t, "t", "c = \"(\" *c \")\"\nd = \"[\" d \"]\" / \"x\"\n", false)
	c, err = NewCompiler(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.DefaultStart(); err == nil || !strings.Contains(err.Error(), "nothing regular to build: every rule reaches self-embedding recursion (as in rules c)") {
		t.Errorf("DefaultStart on all-recursive grammar: %v", err)
	}
	if _, err := c.Build(nil); err == nil {
		t.Errorf("Build with no rules: no error")
	}
}

// TestOctets: RFC 3629's UTF8-octets read with octet values accepts exactly
// the valid UTF-8 byte strings; in code-point mode the same grammar means
// something else (%xC2 is U+00C2, two bytes).
func TestOctets(t *testing.T) {
	g := readFile(t, "../../testdata/grammars/rfc3629.abnf", true)
	m := build1(t, g, Options{}, "UTF8-octets")[0]
	run := newRunner(m)
	check := func(in []byte) {
		if got, want := run.accepts(in), utf8.Valid(in); got != want {
			t.Fatalf("UTF8-octets: DFA %v, utf8.Valid %v on % X", got, want, in)
		}
	}
	// Every string of up to three bytes whose first byte is not ASCII
	// (ASCII is one state, looping), and every one of up to two.
	for x := range 256 {
		check([]byte{byte(x)})
		for y := range 256 {
			check([]byte{byte(x), byte(y)})
			if x < 0x80 {
				continue
			}
			for z := range 256 {
				check([]byte{byte(x), byte(y), byte(z)})
			}
		}
	}
	// Four-byte edges: around U+10000, U+10FFFF, surrogates, overlongs.
	for _, r := range []rune{0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF} {
		check([]byte(string(r)))
		check([]byte("a" + string(r) + "b"))
	}
	for _, in := range [][]byte{{0xF4, 0x90, 0x80, 0x80}, {0xF0, 0x8F, 0xBF, 0xBF}, {0xED, 0xA0, 0x80}, {0xC0, 0xAF}, {0xF8, 0x88, 0x80, 0x80, 0x80}} {
		check(in)
	}
	rng := rand.New(rand.NewPCG(2, 3))
	for range 200000 {
		var in []byte
		for range rng.IntN(12) {
			switch rng.IntN(3) {
			case 0:
				in = append(in, byte(rng.IntN(256)))
			default:
				in = utf8.AppendRune(in, rune(rng.IntN(0x110000)))
			}
		}
		check(in)
	}
	// Code-point mode: %xC2-DF UTF8-tail is two code points, four bytes;
	// é (C3 A9) is not a match, its double encoding is.
	g = readFile(t, "../../testdata/grammars/rfc3629.abnf", false)
	run = newRunner(build1(t, g, Options{}, "UTF8-octets")[0])
	if run.accepts([]byte("é")) || !run.accepts([]byte("Ã©")) {
		t.Errorf("code-point mode: é %v, Ã© %v", run.accepts([]byte("é")), run.accepts([]byte("Ã©")))
	}
	// A value above %xFF in octet mode cannot be a byte (if the reader
	// lets it through).
	if g, err := abnf.Read([]abnf.Source{{Name: "t", Text: []byte("s = %x100\n")}}, &abnf.Options{Octets: true}); err == nil {
		if _, err := build(g, "s"); err == nil || !strings.Contains(err.Error(), "is not an octet") {
			t.Errorf("%%x100 in octet mode: %v", err)
		}
	}
}

func build(g *abnf.Grammar, rules ...string) ([]*Machine, error) {
	c, err := NewCompiler(g, Options{})
	if err != nil {
		return nil, err
	}
	return c.Build(rules)
}

// TestHostile: grammars of a few bytes whose automata would be huge stop at
// a limit, quickly, with an error that names the rule and the flag.
func TestHostile(t *testing.T) {
	for _, tc := range []struct {
		grammar string
		opts    Options
		want    string
	}{
		{`s = *("a" / "b") "a" 15("a" / "b")`, Options{}, `t:1:1: s: subset construction exceeds 65535 DFA states (-max-dfa raises the limit)`},
		{`s = 65536(65536"a")`, Options{}, `t:1:1: s: with its repetitions written out it has 12885098497 nodes, more than the limit of 1048576 (-max-nfa raises it): the repetition 65536(65536"a") at t:1:5 alone has 12885098497 (bounded repetitions are written out as copies, and nested ones multiply); gen refuses to lower it`},
		{`s = 4(4(4(4(4(4(4(4(4(4(4("a" / "b")))))))))))`, Options{}, `t:1:1: s: with its repetitions written out it has 25165821 nodes, more than the limit of 1048576 (-max-nfa raises it): the repetition 4(4(4(4(4(4(4(4(4("a" / "b"))))))))) at t:1:9 alone has 1572861 (bounded repetitions are written out as copies, and nested ones multiply); gen refuses to lower it`},
		{`s = 1100( 1100"a" )`, Options{}, `t:1:1: s: with its repetitions written out it has 3633301 nodes`},
		{`s = 60000"abcdefghijklmnopqrstuvwxyzabcdefghijkl"`, Options{}, `t:1:1: s: with its repetitions written out it has 2400001 nodes`},
		// Past the expansion check, the NFA estimate, then subset
		// construction's limits.
		{"s = a a a a a a a a a a a a a a a a a a a a\na = 60000\"a\"", Options{}, `t:1:1: s: its NFA would have 1200040 states, more than the limit of 1048576 (-max-nfa raises it)`},
		{`s = 65536"a" 10"b"`, Options{}, `t:1:1: s: subset construction exceeds 65535 DFA states`},
		{`s = 0*60000"a"`, Options{MaxWork: 100000}, `t:1:1: s: subset construction visits more than 100000 NFA states (-max-work raises the limit)`},
		{`s = 65536(65536(65536(65536"a")))`, Options{}, `t:1:1: s: with its repetitions written out it has 2^61 or more nodes`},
		// Each rule doubles the last: the error names the rule where a
		// limit was exceeded, reached from s.
		{"s = r0\n" + doubling(40), Options{}, `t:1:1: s: in r24, which it reaches: subset construction exceeds 65535 DFA states (-max-dfa raises the limit)`},
	} {
		g := read(t, "t", tc.grammar+"\n", false)
		var err error
		steps := stepsOf(func() { _, err = build1e(g, tc.opts, "s") })
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: %v\nwant %s", tc.grammar, err, tc.want)
		}
		// Quickly: within what the limits allow (MaxWork closure steps
		// and MaxNFA states per rule), not just eventually.
		if max := int64(DefaultMaxWork + 4*DefaultMaxNFA); steps > max {
			t.Errorf("%s: %d steps, want at most %d", tc.grammar, steps, max)
		}
	}
}

// doubling: r0 = r1 r1, r1 = r2 r2, …, rn = "a" / "b".
func doubling(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "r%d = r%d r%d\n", i, i+1, i+1)
	}
	fmt.Fprintf(&b, "r%d = \"a\" / \"b\"", n)
	return b.String()
}

func build1e(g *abnf.Grammar, opts Options, rules ...string) ([]*Machine, error) {
	c, err := NewCompiler(g, opts)
	if err != nil {
		return nil, err
	}
	return c.Build(rules)
}

// TestLargeButFine: a chain of 30,000 characters (Moore's minimization took
// ten minutes on it), 0*20000"a" (nested options: an ε-chain per state)
// and an 800-rule chain with every rule a start rule build in seconds.
func TestLargeButFine(t *testing.T) {
	var chain strings.Builder
	for i := range 800 {
		fmt.Fprintf(&chain, "r%d = r%d \"a\" / \"b\"\n", i, i+1)
	}
	chain.WriteString("r800 = \"a\"\n")
	for _, tc := range []struct {
		grammar  string
		states   int // of the first rule's minimal DFA
		perState int // steps per NFA and DFA state built, at most
	}{
		{`s = 30000"a"`, 30001, 100},
		{`s = 0*20000"a"`, 20001, 100},
		{chain.String(), 1601, 100},
	} {
		g := read(t, "t", tc.grammar+"\n", false)
		var ms []*Machine
		steps := stepsOf(func() {
			c, err := NewCompiler(g, Options{})
			if err != nil {
				t.Fatal(err)
			}
			rules, err := c.DefaultStart()
			if err != nil {
				t.Fatal(err)
			}
			if ms, err = c.Build(rules); err != nil {
				t.Fatal(err)
			}
		})
		if ms[0].States() != tc.states {
			t.Errorf("%.20s: %d states, want %d", tc.grammar, ms[0].States(), tc.states)
		}
		// Linear in the states built: Moore's minimization took ten
		// minutes on the first.
		total := 0
		for _, m := range ms {
			total += m.NFAStates + m.DFAStates
		}
		if max := int64(tc.perState * total); steps > max {
			t.Errorf("%.20s: %d steps for %d states, want at most %d", tc.grammar, steps, total, max)
		}
		t.Logf("%.20s: %d steps for %d states", tc.grammar, steps, total)
	}
}

// TestDeepNesting: options nested 3,000 deep, as gen/internal/ir lowers them, build
// in linear time. (They are built here directly: lowering that grammar is
// gen/internal/ir's business.)
func TestDeepNesting(t *testing.T) {
	var x ir.Expr = &ir.Set{Set: fa.Of('a')}
	for range 3000 {
		x = &ir.Rep{Min: 0, Max: 1, Body: &ir.Seq{Items: []ir.Expr{&ir.Set{Set: fa.Of('b')}, x}}}
	}
	s := &ir.Rule{Name: "s", Body: x}
	c := newCompiler(nil, &ir.Grammar{Rules: []*ir.Rule{s}}, Options{})
	var m *Machine
	var err error
	steps := stepsOf(func() { m, err = c.machine(s) })
	if err != nil {
		t.Fatal(err)
	}
	if max := int64(40 * 3000); steps > max {
		t.Errorf("%d steps, want at most %d: linear in the depth", steps, max)
	}
	if m.States() != 3002 {
		t.Errorf("%d states", m.States())
	}
}

// stepsOf returns the work f did, as package work counts it: the tests of
// this package bound work, not time, so that a loaded machine cannot fail
// them.
func stepsOf(f func()) int64 {
	before := work.Steps()
	f()
	return work.Steps() - before
}

// TestEmitLimit: a minimal DFA too large for 16-bit tables is refused by
// Emit, not written wrong.
func TestEmitLimit(t *testing.T) {
	d := &fa.DFA{Atoms: []fa.CharSet{fa.Of('a')}}
	for i := range MaxTableStates {
		d.Next = append(d.Next, []int32{int32(i + 1)})
		d.Accept = append(d.Accept, true)
	}
	d.Next[len(d.Next)-1][0] = -1
	_, err := Emit("p", "h", []*Machine{{Rule: "big", DFA: d}})
	if err == nil || !strings.Contains(err.Error(), "big: its minimal DFA has 65536 states, and the 16-bit tables number at most 65535 besides the dead state") {
		t.Errorf("Emit: %v", err)
	}
	d.Next, d.Accept = d.Next[1:], d.Accept[1:]
	d.Next[len(d.Next)-1][0] = -1
	if _, err := Emit("p", "h", []*Machine{{Rule: "big", DFA: d}}); err != nil {
		t.Errorf("Emit of 65535 states: %v", err)
	}
}

// TestGrammars builds every regular rule of the real grammars in testdata
// with the defaults, checks the estimate, and compares the emitted tables
// (run by package syntax) and the matcher on samples and near-misses.
func TestGrammars(t *testing.T) {
	files, err := filepath.Glob("../../testdata/grammars/*.abnf")
	if err != nil || len(files) == 0 {
		t.Fatal("no grammars", err)
	}
	n := 60
	if testing.Short() {
		n = 10
	}
	built := 0
	for _, f := range files {
		src, _ := os.ReadFile(f)
		g, err := abnf.Read([]abnf.Source{{Name: f, Text: src}}, &abnf.Options{Octets: strings.Contains(f, "rfc3629")})
		if err != nil {
			continue // the files that must be rejected
		}
		c, err := NewCompiler(g, Options{})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		rules, err := c.DefaultStart()
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		ms, err := c.Build(rules)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		checkEstimates(t, c, rules)
		tables := emitted(t, ms)
		mt, err := abnf.NewMatcher(g)
		if err != nil {
			t.Fatal(err)
		}
		smp := abnf.NewSampler(g, 7)
		for _, m := range ms {
			run := newRunner(m)
			tab := tables[m.Rule].Machine()
			for i := range 2 * n {
				in, err := smp.Sample(m.Rule)
				if i%2 == 1 {
					in, err = smp.NearMiss(m.Rule)
				}
				if err != nil {
					t.Fatal(err)
				}
				got := run.accepts(in)
				if ok, _ := tab.Run(string(in)); ok != got {
					t.Fatalf("%s %s: tables %v, DFA %v on %q", f, m.Rule, ok, got, in)
				}
				if g.Octets {
					continue // the matcher reads code points
				}
				if want, _ := mt.Match(m.Rule, in); got != want {
					t.Fatalf("%s %s: DFA %v, matcher %v on %q", f, m.Rule, got, want, in)
				}
			}
			built++
		}
	}
	if built < 100 {
		t.Errorf("only %d rules built", built)
	}
}

// emitted turns machines into the tables package syntax runs, as Emit lays
// them out.
func emitted(t *testing.T, ms []*Machine) map[string]*syntax.Table {
	out := map[string]*syntax.Table{}
	for _, m := range ms {
		if m.States()+1 > MaxTableStates {
			t.Fatalf("%s: %d states", m.Rule, m.States())
		}
		classes, next, accept, wide := tables(m)
		out[m.Rule] = &syntax.Table{States: len(accept), NClass: m.Classes() + 1, Wide: wide, Classes: string(classes), Next: string(next), Accept: string(accept)}
	}
	return out
}

// TestCompositionKeepsAtoms: building a rule with the minimal DFAs of the
// rules it references in place of their NFAs gives exactly the DFA, byte
// classes included, of inlining everything (as gen dfa did before, and as
// the committed tables were made).
func TestCompositionKeepsAtoms(t *testing.T) {
	for _, f := range []string{"../../grammar/rfc3986.abnf", "../../testdata/grammars/rfc6265-adapted.abnf", "../../testdata/grammars/rfc5646.abnf", "../../testdata/grammars/rfc9110.abnf"} {
		g := readFile(t, f, false)
		c, err := NewCompiler(g, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rules, err := c.DefaultStart()
		if err != nil {
			t.Fatal(err)
		}
		ms, err := c.Build(rules)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			ref := inlineAll(t, c, c.lg.Rule(m.Rule))
			if len(ref.Atoms) != len(m.DFA.Atoms) {
				t.Fatalf("%s %s: %d atoms, inlining gives %d", f, m.Rule, len(m.DFA.Atoms), len(ref.Atoms))
			}
			for i := range ref.Atoms {
				if !ref.Atoms[i].Equal(m.DFA.Atoms[i]) {
					t.Fatalf("%s %s: atom %d is %v, inlining gives %v", f, m.Rule, i, m.DFA.Atoms[i], ref.Atoms[i])
				}
			}
			if ref.Key() != m.DFA.Key() {
				t.Fatalf("%s %s: DFA differs from inlining's", f, m.Rule)
			}
		}
	}
}

// inlineAll builds the minimal DFA of r by inlining every reference (one
// copy of a component per reference from outside it).
func inlineAll(t *testing.T, c *Compiler, r *ir.Rule) *fa.DFA {
	b := &fa.Builder{}
	var inline func(x ir.Expr, f *frame) (int32, int32)
	var copyOf func(comp *ir.Component) *frame
	inline = func(x ir.Expr, f *frame) (int32, int32) {
		s := b.State()
		switch x := x.(type) {
		case *ir.Set:
			e := b.State()
			for _, seq := range c.sequences(x) {
				prev := s
				for i, br := range seq {
					next := e
					if i < len(seq)-1 {
						next = b.State()
					}
					b.Edge(prev, next, fa.Span(rune(br.Lo), rune(br.Hi)))
					prev = next
				}
			}
			return s, e
		case *ir.Empty:
			return s, s
		case *ir.Seq:
			prev := s
			for _, y := range x.Items {
				ys, ye := inline(y, f)
				b.Eps(prev, ys)
				prev = ye
			}
			return s, prev
		case *ir.Alt:
			e := b.State()
			for _, y := range x.Alts {
				ys, ye := inline(y, f)
				b.Eps(s, ys)
				b.Eps(ye, e)
			}
			return s, e
		case *ir.Rep:
			ys, ye := inline(x.Body, f)
			e := b.State()
			b.Eps(s, ys)
			b.Eps(ye, e)
			if x.Min == 0 {
				b.Eps(s, e)
			}
			if x.Max != 1 {
				b.Eps(ye, ys)
			}
			return s, e
		case *ir.Ref:
			tc := c.of[x.Rule]
			if tc == nil {
				ys, ye := inline(x.Rule.Body, nil)
				b.Eps(s, ys)
				return s, ye
			}
			if f == nil || f.comp != tc {
				f = copyOf(tc)
			}
			e := b.State()
			b.Eps(s, f.entry[x.Rule])
			b.Eps(f.exit[x.Rule], e)
			return s, e
		}
		t.Fatalf("unknown %T", x)
		return 0, 0
	}
	copyOf = func(comp *ir.Component) *frame {
		f := &frame{comp: comp, entry: map[*ir.Rule]int32{}, exit: map[*ir.Rule]int32{}}
		for _, r := range comp.Rules {
			f.entry[r], f.exit[r] = b.State(), b.State()
		}
		for _, r := range comp.Rules {
			s, e := inline(r.Body, f)
			b.Eps(f.entry[r], s)
			b.Eps(e, f.exit[r])
		}
		return f
	}
	s, e := inline(&ir.Ref{Rule: r}, nil)
	d, err := fa.Determinize(b.NFA(s, e), []int32{s}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return d.Minimize()
}

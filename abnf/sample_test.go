package abnf_test

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/peguri/rfc3986/abnf"
)

// TestSamplesMatch: every positive sample of every Appendix A rule matches
// the rule it was derived from.
func TestSamplesMatch(t *testing.T) {
	g := rfc3986(t)
	m, err := abnf.NewMatcher(g)
	if err != nil {
		t.Fatal(err)
	}
	n := 2000
	if testing.Short() {
		n = 200
	}
	for _, r := range g.Rules {
		s := abnf.NewSampler(g, 42)
		for range n {
			b, err := s.Sample(r.Name)
			if err != nil {
				t.Fatal(err)
			}
			if ok, _ := m.Match(r.Name, b); !ok {
				t.Errorf("sample %q of %s does not match it", b, r.Name)
			}
		}
	}
}

// TestSamplesMatchRecursive does the same on RFC 5234's recursive grammar of
// ABNF itself: every sample of rulelist is an ABNF text the grammar accepts.
func TestSamplesMatchRecursive(t *testing.T) {
	g := readFile(t, "../testdata/rfc5234-abnf.abnf")
	m, err := abnf.NewMatcher(g)
	if err != nil {
		t.Fatal(err)
	}
	s := abnf.NewSampler(g, 7)
	s.MaxLen = 200
	for range 300 {
		b, err := s.Sample("rulelist")
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := m.Match("rulelist", b); !ok {
			t.Errorf("sample %q of rulelist does not match it", b)
		}
	}
}

// TestSampleCoverage: over many samples of the start rules every
// alternative is chosen and every repetition reaches both extremes.
func TestSampleCoverage(t *testing.T) {
	g := rfc3986(t)
	s := abnf.NewSampler(g, 1)
	for _, r := range abnf.Roots(g) {
		for range 3000 {
			if _, err := s.Sample(r.Name); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, c := range s.Coverage() {
		t.Error(c)
	}
}

func TestSamplerDeterministic(t *testing.T) {
	g := rfc3986(t)
	gen := func(seed uint64) []byte {
		s := abnf.NewSampler(g, seed)
		var all []byte
		for range 200 {
			b, _ := s.Sample("URI-reference")
			all = append(append(all, b...), '\n')
			b, _ = s.NearMiss("URI-reference")
			all = append(append(all, b...), '\n')
		}
		return all
	}
	if !bytes.Equal(gen(5), gen(5)) {
		t.Error("same seed, different samples")
	}
	if bytes.Equal(gen(5), gen(6)) {
		t.Error("different seeds, same samples")
	}
}

// TestNearMisses: near-misses stay close (a few edits), include both
// matching and non-matching strings, and never contain a line feed.
func TestNearMisses(t *testing.T) {
	g := rfc3986(t)
	m, _ := abnf.NewMatcher(g)
	s := abnf.NewSampler(g, 3)
	var yes, no int
	for range 2000 {
		b, err := s.NearMiss("URI-reference")
		if err != nil {
			t.Fatal(err)
		}
		if bytes.IndexByte(b, '\n') >= 0 {
			t.Fatalf("near-miss %q has a line feed", b)
		}
		if ok, _ := m.Match("URI-reference", b); ok {
			yes++
		} else {
			no++
		}
	}
	if yes < 100 || no < 100 {
		t.Errorf("near-misses: %d match, %d do not; want both kinds", yes, no)
	}
}

func TestSampleErrors(t *testing.T) {
	g, _ := abnf.ReadString("t.abnf", "r = \"x\" r\n")
	s := abnf.NewSampler(g, 1)
	if _, err := s.Sample("r"); err == nil {
		t.Error("Sample of a rule with no finite derivation succeeded")
	}
	if _, err := s.Sample("nope"); err == nil {
		t.Error("Sample of an unknown rule succeeded")
	}
}

func BenchmarkSample(b *testing.B) {
	g := rfc3986(b)
	s := abnf.NewSampler(g, 1)
	var n int
	for b.Loop() {
		x, _ := s.Sample("URI-reference")
		n += len(x)
	}
	b.ReportMetric(float64(n)/float64(b.N), "bytes/sample")
}

// TestSampleLeftRecursive: the sampler takes left recursion (issue 9), and
// every sample matches.
func TestSampleLeftRecursive(t *testing.T) {
	for _, src := range []string{
		"list = list \",\" item / item\nitem = \"x\" / \"yz\"\n",
		"t = \"y\" / t \" \" t\n",
		"a = b \"x\" / \"y\"\nb = a \"z\"\n",
		"r = r \"a\" / \"\"\n",
		"r = n r \"a\" / \"b\"\nn = *\"x\"\n",
	} {
		g := mustGrammar(t, src)
		m, err := abnf.NewMatcher(g)
		if err != nil {
			t.Fatal(err)
		}
		rule := g.Rules[0].Name
		s := abnf.NewSampler(g, 5)
		s.MaxLen = 64 // the matcher is cubic on the ambiguous t
		long := 0
		for range 500 {
			b, err := s.Sample(rule)
			if err != nil {
				t.Fatalf("%q: %v", src, err)
			}
			if len(b) > 3 {
				long++
			}
			if !mustMatch(t, m, rule, b) {
				t.Errorf("%q: sample %q does not match %s", src, b, rule)
			}
		}
		if long == 0 {
			t.Errorf("%q: no sample longer than 3 bytes: the recursion is never taken", src)
		}
		for _, c := range s.Coverage() {
			t.Errorf("%q: %s", src, c)
		}
	}
}

// TestSampleHostile: hostile grammars of issue 9 give an error naming the
// rule, or samples, at once.
func TestSampleHostile(t *testing.T) {
	for _, tt := range []struct {
		src, rule string
		err       string // the error, or "" for samples
		maxLen    int    // the longest sample allowed
	}{
		{`s = 65536(65536"a")`, "s", "s: its shortest string is " + bytes4G + " bytes, above the sampler's limit of 1048576 (Sampler.MaxShortest)", 0},
		{`s = 1100( 1100"a" )`, "s", "s: its shortest string is 1210000 bytes, above the sampler's limit of 1048576 (Sampler.MaxShortest)", 0},
		{`s = 60000"abcdefghijklmnopqrstuvwxyzabcdefghijkl"`, "s", "s: its shortest string is 2280000 bytes, above the sampler's limit of 1048576 (Sampler.MaxShortest)", 0},
		{`s = 65536(65536(65536(65536"a")))`, "s", "s: its shortest string is " + saturatedString + " bytes, above the sampler's limit of 1048576 (Sampler.MaxShortest)", 0},
		// The huge alternative and iterations are never taken.
		{`s = "a" / 65536(65536"a")`, "s", "", 1},
		{`s = *(65536(65536"a")) "b"`, "s", "", 1},
		{`s = [65536(65536"a")] "b"`, "s", "", 1},
		// Large but allowed: the minimum is made, not more.
		{`s = 1000(1000"a")`, "s", "", 1000 * 1000},
		{`s = *("a" / "b") "a" 15("a" / "b")`, "s", "", 1000},
	} {
		g := mustGrammar(t, tt.src+"\n")
		s := abnf.NewSampler(g, 1)
		for range 20 {
			b, err := s.Sample(tt.rule)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Errorf("%s: Sample = %v, want error %q", tt.src, err, tt.err)
				}
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", tt.src, err)
			}
			if len(b) > tt.maxLen {
				t.Errorf("%s: sample of %d bytes, want at most %d", tt.src, len(b), tt.maxLen)
				break
			}
		}
	}
}

// TestSampleDeepNesting: options nested 3,000 deep (issue 9: 14 s in gen)
// cost the sampler work linear in the depth: nodes costed and visited,
// counted, not timed, so that a loaded machine cannot fail the test.
// Doubling the depth may double the work (quadratic would quadruple it),
// and 40 samples and near-misses visit each node a few times at most.
func TestSampleDeepNesting(t *testing.T) {
	for _, shape := range []struct{ open, close string }{
		{`[ "a" `, "]"},   // options
		{`1*( "a" `, ")"}, // repetitions that must repeat: each costs its body
	} {
		sample := func(depth int) int {
			src := "s = " + strings.Repeat(shape.open, depth) + strings.Repeat(shape.close, depth) + "\n"
			g, err := abnf.Read([]abnf.Source{{Name: "d.abnf", Text: []byte(src)}}, &abnf.Options{MaxNesting: depth})
			if err != nil {
				t.Fatal(err)
			}
			s := abnf.NewSampler(g, 1)
			for range 20 {
				if _, err := s.Sample("s"); err != nil {
					t.Fatal(err)
				}
				if _, err := s.NearMiss("s"); err != nil {
					t.Fatal(err)
				}
			}
			return abnf.SamplerWork(s)
		}
		small, large := sample(1500), sample(3000)
		if r := float64(large) / float64(small); r > 2.2 {
			t.Errorf("%s…: depth 1500: work %d, depth 3000: work %d: ratio %.2f, want linear (2)", shape.open, small, large, r)
		}
		if max := 3000 * 4 * 50; large > max {
			t.Errorf("%s…: depth 3000: work %d, want at most %d (a few visits per node and sample)", shape.open, large, max)
		}
		t.Logf("%s…: work: depth 1500 %d, depth 3000 %d", shape.open, small, large)
	}
}

// TestSampleOctets: in octet mode, values are bytes; RFC 3629's
// UTF8-octets then yields exactly valid UTF-8, and near-misses edit bytes.
func TestSampleOctets(t *testing.T) {
	g, err := abnf.ReadFiles([]string{"../testdata/grammars/rfc3629.abnf"}, &abnf.Options{Octets: true})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := abnf.NewMatcher(g)
	s := abnf.NewSampler(g, 9)
	var multi, invalid int
	for range 2000 {
		b, err := s.Sample("UTF8-octets")
		if err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(b) || !mustMatch(t, m, "UTF8-octets", b) {
			t.Errorf("sample %q is not valid UTF-8 or does not match", b)
		}
		if utf8.RuneCount(b) < len(b) {
			multi++
		}
		nm, err := s.NearMiss("UTF8-octets")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := mustMatch(t, m, "UTF8-octets", nm), utf8.Valid(nm); got != want {
			t.Errorf("near-miss %q: match %v, utf8.Valid %v", nm, got, want)
		}
		if !utf8.Valid(nm) {
			invalid++
		}
	}
	if multi < 100 || invalid < 100 {
		t.Errorf("%d samples with multi-byte characters, %d invalid near-misses; want both", multi, invalid)
	}
	g = mustGrammarOpts(t, "r = %xE9 / %x80-FF\n", &abnf.Options{Octets: true})
	s = abnf.NewSampler(g, 1)
	for range 50 {
		if b, _ := s.Sample("r"); len(b) != 1 || b[0] < 0x80 {
			t.Errorf("octet sample %q, want one high byte", b)
		}
	}
}

func mustGrammarOpts(t testing.TB, src string, opts *abnf.Options) *abnf.Grammar {
	t.Helper()
	g, err := abnf.Read([]abnf.Source{{Name: "t.abnf", Text: []byte(src)}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

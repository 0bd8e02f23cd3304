package abnf_test

import (
	"bytes"
	"testing"

	"github.com/peguri/rfc3986/gen/abnf"
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
	g := readFile(t, "../../testdata/rfc5234-abnf.abnf")
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

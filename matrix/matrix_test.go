package matrix_test

import (
	"bytes"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/matrix"
)

const suiteFile = "../conformance/rfc3986-suite.json"

func loadSuite(t testing.TB) *matrix.Suite {
	t.Helper()
	s, err := matrix.LoadSuite(suiteFile)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestResultsFresh: RESULTS.md is what go run ./cmd/matrix writes. The
// page reports net/url of one Go release; with another, net/url may
// answer otherwise, so the test then says so and skips.
func TestResultsFresh(t *testing.T) {
	got, err := os.ReadFile("RESULTS.md")
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`as built by (go[0-9.]+)`).FindSubmatch(got); m == nil {
		t.Fatal("RESULTS.md does not say which Go release built net/url")
	} else if string(m[1]) != matrix.GoRelease() {
		t.Skipf("RESULTS.md reports net/url of %s; this is %s", m[1], matrix.GoRelease())
	}
	want, summary, err := matrix.Document(suiteFile)
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if spliced, err := matrix.SpliceReadme(readme, summary); err != nil || !bytes.Equal(spliced, readme) {
		t.Errorf("README.md's matrix table is stale (%v): run go run ./cmd/matrix in matrix/", err)
	}
	if !bytes.Equal(want, got) {
		diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n"))
		if len(diff) > 3000 {
			diff = diff[:3000] + "\n…"
		}
		t.Errorf("matrix/RESULTS.md is stale: run go run ./cmd/matrix in matrix/ (-generated +on disk):\n%s", diff)
	}
}

// TestReference: this project's library answers every case of the suite,
// and as the RFC does.
func TestReference(t *testing.T) {
	r := matrix.Run(loadSuite(t), matrix.RFC3986{})
	for _, sec := range matrix.Sections {
		if tl := r.Sections[sec]; tl.Fail != 0 || tl.NA != 0 || tl.Pass == 0 {
			t.Errorf("%s: %+v; mismatches %v", sec, *tl, r.Mismatches[sec])
		}
	}
}

// lossy is this project's library with net/url's habit of lowercasing the
// scheme and of losing empty fragments: the runner must see both.
type lossy struct{ matrix.RFC3986 }

func (lossy) Name() string { return "lossy" }

func (l lossy) Parse(s string) (matrix.Components, error) {
	c, err := l.RFC3986.Parse(s)
	if c.Scheme != nil {
		low := strings.ToLower(*c.Scheme)
		c.Scheme = &low
	}
	if c.Fragment != nil && *c.Fragment == "" {
		c.Fragment = nil
	}
	return c, err
}

func TestRunnerSeesMismatches(t *testing.T) {
	r := matrix.Run(loadSuite(t), lossy{})
	var ids []string
	for _, m := range r.Mismatches["components"] {
		ids = append(ids, m.Input)
	}
	joined := strings.Join(ids, " ")
	if !strings.Contains(joined, `"#"`) || r.Sections["components"].Fail == 0 {
		t.Errorf("the runner missed lost fragments: %v", ids)
	}
	if r.Sections["resolution"].Fail != 0 {
		t.Errorf("resolution: %+v", r.Sections["resolution"])
	}
}

// TestAdapters: the adapters read their libraries as documented.
func TestAdapters(t *testing.T) {
	s := func(x string) *string { return &x }
	for _, tc := range []struct {
		a    matrix.Adapter
		in   string
		want matrix.Components
	}{
		{matrix.NetURL{}, "HTTP://u@[::1]:80/p?#f", matrix.Components{Scheme: s("http"), Authority: s("u@[::1]:80"), Userinfo: s("u"), Host: s("[::1]"), Port: s("80"), Path: "/p", Query: s(""), Fragment: s("f")}},
		{matrix.NetURL{}, "mailto:a@b", matrix.Components{Scheme: s("mailto"), Path: "a@b"}},
		{matrix.FredbiURI{}, "http://u@a:80/p?q#f", matrix.Components{Scheme: s("http"), Authority: s("u@a:80"), Userinfo: s("u"), Host: s("a"), Port: s("80"), Path: "/p", Fragment: s("f"), Unknown: []string{"query"}}},
		{matrix.RFC3986{}, "//a?", matrix.Components{Authority: s("a"), Host: s("a"), Query: s("")}},
	} {
		got, err := tc.a.Parse(tc.in)
		if err != nil {
			t.Errorf("%s: Parse(%q): %v", tc.a.Name(), tc.in, err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: Parse(%q) (-want +got):\n%s", tc.a.Name(), tc.in, diff)
		}
	}
}

// TestFredbiVersion: the page names the version go.mod requires.
func TestFredbiVersion(t *testing.T) {
	b, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^\s*(require\s+)?github.com/fredbi/uri ` + regexp.QuoteMeta(matrix.FredbiVersion) + `\b`).Match(b) {
		t.Errorf("go.mod does not require github.com/fredbi/uri %s", matrix.FredbiVersion)
	}
}

// sloppy is this project's library with three habits of other
// libraries: a query-part's space written "+" (valid, and it round-trips
// under the forms convention), a segment's "/" left as it is (not valid
// for a segment), and an empty fragment dropped (valid, but it decodes
// to no fragment). The runner must tell the first from the other two.
type sloppy struct{ matrix.RFC3986 }

func (sloppy) Name() string { return "sloppy" }

func (s sloppy) Encode(component, raw string) (string, error) {
	out, err := s.RFC3986.Encode(component, raw)
	switch component {
	case "query-part":
		out = strings.ReplaceAll(out, "%20", "+")
	case "segment":
		out = strings.ReplaceAll(out, "%2F", "/")
	}
	return out, err
}

func (s sloppy) Build(in matrix.BuildInput) (string, error) {
	out, err := s.RFC3986.Build(in)
	return strings.TrimSuffix(out, "#"), err
}

func TestRunnerJudgesProducedText(t *testing.T) {
	suite := loadSuite(t)
	r := matrix.Run(suite, sloppy{})
	flawed := map[string]bool{}
	mismatched := map[string]bool{}
	for _, sec := range matrix.Producing {
		for _, m := range r.Mismatches[sec] {
			mismatched[m.Input] = true
			flawed[m.Input] = m.Flawed
		}
	}
	for _, tc := range []struct {
		input  string
		flawed bool
	}{
		{`encode query-part " "`, false},
		{`encode segment "/"`, true},
		{`fragment ""`, true},
	} {
		if !mismatched[tc.input] || flawed[tc.input] != tc.flawed {
			t.Errorf("%s: mismatched %v, flawed %v; want a mismatch, flawed %v", tc.input, mismatched[tc.input], flawed[tc.input], tc.flawed)
		}
	}
	if e := r.Sections["encoding"]; e.Valid == e.Texts || e.RoundTrip != e.Texts || e.Exact == e.Texts {
		t.Errorf("encoding: %+v: want some texts invalid, all round-tripping, some not exact", *e)
	}
	if b := r.Sections["building"]; b.Valid != b.Texts || b.RoundTrip == b.Texts {
		t.Errorf("building: %+v: want every text valid, some not round-tripping", *b)
	}
	// The reference writes the RFC's text everywhere.
	ref := matrix.Run(suite, matrix.RFC3986{})
	for _, sec := range matrix.Producing {
		if tl := ref.Sections[sec]; tl.Texts == 0 || tl.Exact != tl.Texts || tl.Valid != tl.Texts || tl.RoundTrip != tl.Texts {
			t.Errorf("reference, %s: %+v", sec, *tl)
		}
	}
}

// TestProducingAdapters: the adapters call their libraries as
// documented.
func TestProducingAdapters(t *testing.T) {
	s := func(x string) *string { return &x }
	n := func(x int) *int { return &x }
	for _, tc := range []struct {
		a         matrix.Adapter
		component string
		in, want  string
	}{
		{matrix.NetURL{}, "segment", "a b/c", "a%20b%2Fc"},
		{matrix.NetURL{}, "query-part", "a b&c", "a+b%26c"},
		{matrix.NetURL{}, "userinfo", "u:p@x", "u:p%40x"},
		{matrix.NetURL{}, "host", "a:b c", "a:b%20c"},
		{matrix.NetURL{}, "fragment", "x y#", "x%20y%23"},
		{matrix.RFC3986{}, "first-segment", "a:b", "a%3Ab"},
	} {
		got, err := tc.a.(matrix.Encoder).Encode(tc.component, tc.in)
		if err != nil || got != tc.want {
			t.Errorf("%s: Encode(%s, %q) = %q, %v; want %q", tc.a.Name(), tc.component, tc.in, got, err, tc.want)
		}
	}
	if _, err := (matrix.NetURL{}).Encode("query", "a"); err != matrix.ErrUnsupported {
		t.Errorf("net/url encodes a whole query: %v", err)
	}
	for _, tc := range []struct {
		a    matrix.Adapter
		in   matrix.BuildInput
		want string
	}{
		{matrix.NetURL{}, matrix.BuildInput{Scheme: s("https"), Host: s("::1"), Port: n(80), Path: []string{"a b", "c/d"}, Absolute: true,
			Query: []matrix.Pair{{Key: "q", Value: "1&2"}}, Fragment: s("x y")}, "https://[::1]:80/a%20b/c%2Fd?q=1%262#x%20y"},
		{matrix.NetURL{}, matrix.BuildInput{Path: []string{"a:b"}}, "./a:b"},
		{matrix.NetURL{}, matrix.BuildInput{Query: []matrix.Pair{}}, "?"},
		{matrix.FredbiURI{}, matrix.BuildInput{Scheme: s("https"), Host: s("example.com"), Path: []string{"a"}, Absolute: true}, "https://example.com/a"},
		{matrix.RFC3986{}, matrix.BuildInput{Host: s("::1")}, "//[::1]"},
	} {
		got, err := tc.a.(matrix.Builder).Build(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("%s: Build(%s) = %q, %v; want %q", tc.a.Name(), tc.in, got, err, tc.want)
		}
	}
	var de *matrix.DecodeError
	if _, err := (matrix.RFC3986{}).Decode("a%2", false); !errors.As(err, &de) || de.Offset != 1 {
		t.Errorf("RFC3986.Decode(a%%2): %v, want a DecodeError at 1", err)
	}
	if got, err := (matrix.NetURL{}).Decode("a+b%20", true); err != nil || got != "a b " {
		t.Errorf("NetURL.Decode(a+b%%20, form) = %q, %v", got, err)
	}
}

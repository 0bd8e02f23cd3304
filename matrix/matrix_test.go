package matrix_test

import (
	"bytes"
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
	if !regexp.MustCompile(`(?m)^\s*github.com/fredbi/uri ` + regexp.QuoteMeta(matrix.FredbiVersion) + `\b`).Match(b) {
		t.Errorf("go.mod does not require github.com/fredbi/uri %s", matrix.FredbiVersion)
	}
}

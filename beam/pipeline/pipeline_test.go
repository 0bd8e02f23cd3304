package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	//lint:ignore SA1019 direct is deprecated, but is uripipe's default: measured faster than prism (docs/beam.md)
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/direct"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/internal/records"
	"github.com/peguri/rfc3986/parser"
)

func TestMain(m *testing.M) {
	// A worker started by prism (loopback) runs this binary's DoFns.
	beam.Init()
	QuietLogs()
	os.Exit(m.Run())
}

// root is the main module's directory.
const root = "../.."

// suiteLines are the inputs of the conformance suite: every text it
// parses, normalizes or compares as a line, and each resolution case as
// a pair.
func suiteLines(t *testing.T) []string {
	b, err := os.ReadFile(filepath.Join(root, "conformance", "rfc3986-suite.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Validity, Components, RemoveDotSegments, Normalization, Decoding []struct{ Input string }
		Equivalence                                                      []struct{ A, B string }
		Resolution                                                       []struct{ Base, Reference string }
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, cases := range [][]struct{ Input string }{s.Validity, s.Components, s.RemoveDotSegments, s.Normalization, s.Decoding} {
		for _, c := range cases {
			out = append(out, c.Input)
		}
	}
	for _, c := range s.Equivalence {
		out = append(out, c.A, c.B)
	}
	for _, c := range s.Resolution {
		out = append(out, c.Base+"\t"+c.Reference)
	}
	if len(out) < 2000 {
		t.Fatalf("the suite gave %d lines", len(out))
	}
	return out
}

// generated are n lines from RFC 3986's ABNF, seeded: URI-references,
// absolute URIs, near misses (invalid), and pairs of a reference and one
// of a few bases, an invalid one among them.
func generated(t *testing.T, n int) []string {
	g, err := abnf.ReadFiles([]string{filepath.Join(root, "grammar", "rfc3986.abnf")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := abnf.NewSampler(g, 20261205)
	bases := []string{"http://a/b/c/d;p?q", "HTTP://Example.COM:80/x/./y/", "urn:isbn:0451450523", "http://[::1/"}
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		var b []byte
		var err error
		switch i % 10 {
		case 0:
			b, err = s.NearMiss("URI-reference")
		case 1:
			b, err = s.Sample("URI")
		case 2, 3:
			b, err = s.Sample("relative-ref")
			b = append([]byte(bases[i%len(bases)]+"\t"), b...)
		default:
			b, err = s.Sample("URI-reference")
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// cli is cmd/uri, built from the main module.
func cli(t *testing.T) string {
	bin := filepath.Join(t.TempDir(), "uri")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/uri")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/uri: %v\n%s", err, out)
	}
	return bin
}

// runCLI runs uri ARGS -json with the lines on its standard input, and
// returns its records, one per line.
func runCLI(t *testing.T, bin string, lines []string, args ...string) []string {
	if len(lines) == 0 {
		return nil
	}
	cmd := exec.Command(bin, append(args, "-json")...)
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil && cmd.ProcessState.ExitCode() != 1 { // 1: some input invalid
		t.Fatalf("uri %v: %v\n%s", args, err, stderr.Bytes())
	}
	recs := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(recs) != len(lines) {
		t.Fatalf("uri %v: %d records for %d lines", args, len(recs), len(lines))
	}
	return recs
}

func isError(t *testing.T, rec string) bool {
	var r records.Result
	if err := json.Unmarshal([]byte(rec), &r); err != nil {
		t.Fatal(err)
	}
	return r.Error != nil
}

func resultOf(t *testing.T, rec string) string {
	var r records.Result
	if err := json.Unmarshal([]byte(rec), &r); err != nil {
		t.Fatal(err)
	}
	return *r.Result
}

// want is what the pipeline must write, computed from the CLI's records.
type want struct {
	sets    map[string][]string // per output, sorted
	summary SummaryRecord
}

// expect runs the CLI over the lines as the pipeline's options say: uri
// normalize with the same flags for each URI; uri resolve BASE for the
// references of each base; and for the deduplication key, the CLI's result
// at the level (the line itself for simple), so that the distinct URIs
// are a sort-uniq of the CLI's output.
func expect(t *testing.T, bin string, lines []string, o Options) want {
	var uris []string
	refs := map[string][]string{}
	var bases []string
	for _, l := range lines {
		base, ref, pair := strings.Cut(l, "\t")
		if !pair {
			uris = append(uris, l)
			continue
		}
		if _, ok := refs[base]; !ok {
			bases = append(bases, base)
		}
		refs[base] = append(refs[base], ref)
	}
	normArgs := []string{"normalize"}
	if o.Scheme {
		normArgs = append(normArgs, "-scheme")
	}
	if o.IPv6 {
		normArgs = append(normArgs, "-ipv6")
	}
	w := want{sets: map[string][]string{}}
	norm := runCLI(t, bin, uris, normArgs...)
	var keys []string
	switch o.Level {
	case "":
	case "simple":
		keys = uris
	case "syntax":
		keys = runCLI(t, bin, uris, "normalize")
	case "scheme":
		keys = runCLI(t, bin, uris, "normalize", "-scheme")
	}
	rep := map[string]int{} // key: the index of the least line with it
	for i, rec := range norm {
		if isError(t, rec) {
			w.sets[Invalid] = append(w.sets[Invalid], rec)
			continue
		}
		w.summary.URIs++
		key := resultOf(t, rec)
		if o.Level == "simple" {
			key = keys[i]
		} else if keys != nil {
			key = resultOf(t, keys[i])
		}
		if j, ok := rep[key]; !ok || uris[i] < uris[j] {
			rep[key] = i
		}
	}
	hosts, schemes := map[string]int{}, map[string]int{}
	for _, i := range rep {
		w.sets[Normalized] = append(w.sets[Normalized], norm[i])
		u, err := parser.ParseReference(resultOf(t, norm[i]))
		if err != nil {
			t.Fatal(err)
		}
		hosts[component(u.HasAuthority(), u.Host())]++
		schemes[component(u.HasScheme(), u.Scheme())]++
	}
	w.summary.Distinct = len(rep)
	for _, base := range bases {
		for _, rec := range runCLI(t, bin, refs[base], "resolve", base) {
			if isError(t, rec) {
				w.sets[Invalid] = append(w.sets[Invalid], rec)
			} else {
				w.sets[Resolved] = append(w.sets[Resolved], rec)
				w.summary.Resolved++
			}
		}
	}
	w.summary.Invalid = len(w.sets[Invalid])
	w.summary.Lines = len(lines)
	countRecords := func(m map[string]int, rec func(*string, int) any) []string {
		var out []string
		for v, n := range m {
			var p *string
			if s, ok := strings.CutPrefix(v, "="); ok {
				p = &s
			}
			b, _ := json.Marshal(rec(p, n))
			out = append(out, string(b))
		}
		return out
	}
	w.sets[Hosts] = countRecords(hosts, func(p *string, n int) any { return HostCount{p, n} })
	w.sets[Schemes] = countRecords(schemes, func(p *string, n int) any { return SchemeCount{p, n} })
	b, _ := json.Marshal(w.summary)
	w.sets[Summary] = []string{string(b)}
	for _, s := range w.sets {
		sort.Strings(s)
	}
	return w
}

// readSet reads an output file set, its records sorted.
func readSet(t *testing.T, prefix string) []string {
	files, err := filepath.Glob(prefix + "-*-of-*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > 0 {
			out = append(out, strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")...)
		}
	}
	sort.Strings(out)
	return out
}

// TestPipelineEqualsCLI runs the pipeline in process over the conformance
// suite's inputs and 100,000 generated lines (some twice, so that there
// is something to deduplicate), and compares every output with what
// cmd/uri writes for the same lines: the records byte for byte, one
// distinct URI per key of a sort-uniq of the CLI's results, each
// resolved pair and invalid line once, the counts, and lines = URIs +
// resolved + invalid.
func TestPipelineEqualsCLI(t *testing.T) {
	n := 100_000
	if testing.Short() {
		n = 5_000
	}
	lines := append(suiteLines(t), generated(t, n)...)
	lines = append(lines, lines[:len(lines)/20]...) // duplicates
	// The files as textio splits them: on "\n", the last line's newline
	// optional; a sample that holds a newline is two lines.
	dir := t.TempDir()
	half := len(lines) / 2
	for i, part := range [][]string{lines[:half], lines[half:]} {
		text := strings.Join(part, "\n")
		if i == 0 {
			text += "\n"
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("in%d.txt", i)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var fileLines []string
	for i := range 2 {
		b, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("in%d.txt", i)))
		fileLines = append(fileLines, strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")...)
	}
	bin := cli(t)
	tests := []struct {
		name   string
		runner string
		opts   Options
	}{
		{"default", DefaultRunner, Options{}},
		{"scheme", DefaultRunner, Options{Scheme: true}},
		{"syntax steps, scheme level", DefaultRunner, Options{Level: "scheme"}},
		{"simple level, ipv6", DefaultRunner, Options{IPv6: true, Level: "simple"}},
		{"prism", "prism", Options{Scheme: true, Level: "syntax"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.runner != DefaultRunner && testing.Short() {
				t.Skip("-short: the default runner only")
			}
			w := expect(t, bin, fileLines, tt.opts)
			out := t.TempDir()
			p, s := beam.NewPipelineWithRoot()
			Build(s, Config{Inputs: []string{filepath.Join(dir, "*.txt")}, Out: out, Options: tt.opts})
			if _, err := beam.Run(context.Background(), tt.runner, p); err != nil {
				t.Fatal(err)
			}
			for _, name := range Outputs {
				if diff := cmp.Diff(w.sets[name], readSet(t, filepath.Join(out, name))); diff != "" {
					t.Errorf("%s (-CLI +pipeline):\n%s", name, diff)
				}
			}
			sum := w.summary
			if sum.Lines != sum.URIs+sum.Resolved+sum.Invalid || sum.Lines != len(fileLines) || slices.Contains([]int{sum.URIs, sum.Resolved, sum.Invalid}, 0) {
				t.Errorf("the CLI's counts %+v for %d lines: the test's inputs do not exercise every output", sum, len(fileLines))
			}
			t.Logf("%+v", sum)
		})
	}
}

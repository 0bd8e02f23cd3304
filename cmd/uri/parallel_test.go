package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc3987"
)

// batchInputs are n lines: the bench corpus and invalid references,
// interleaved, an empty line, control bytes and invalid UTF-8 among them.
func batchInputs(t testing.TB, n int) string {
	t.Helper()
	data, err := os.ReadFile("../../testdata/bench-corpus.txt")
	if err != nil {
		t.Fatal(err)
	}
	corpus := strings.Split(strings.TrimSpace(string(data)), "\n")
	corpus = append(corpus, "", "http://[::1", "a b", "%zz", "\xff", "http://a/%2", "//[v1.x]:8/", "\r", "?q#f")
	var b strings.Builder
	for i := range n {
		b.WriteString(corpus[(i*7)%len(corpus)])
		if i%97 == 0 {
			fmt.Fprintf(&b, "/%d", i)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestParallelOrder runs each batch command over stdin with -j 1 (one
// line after another) and with 2, 3 and 8 goroutines: the output, the
// standard error and the exit status must be the same, for many chunks of
// lines (valid and invalid, human and JSON).
func TestParallelOrder(t *testing.T) {
	small := batchInputs(t, 100)
	big := batchInputs(t, 5000) // about ten chunks
	tests := []struct {
		name  string
		args  []string
		input string
	}{
		{"parse", []string{"parse"}, big},
		{"parse-json", []string{"parse", "-json"}, big},
		{"parse-rule", []string{"parse", "-rule", "host", "-json"}, small},
		{"normalize", []string{"normalize", "-json"}, big},
		{"normalize-explain", []string{"normalize", "-explain"}, small},
		{"resolve", []string{"resolve", "http://a/b/c/d;p?q"}, big},
		{"resolve-json", []string{"resolve", "-json", "http://a/b/c/d;p?q"}, big},
		{"resolve-bad-base", []string{"resolve", "-json", "http://[x"}, small},
		{"tree", []string{"tree"}, big},
		{"tree-json", []string{"tree", "-json"}, big},
		{"tree-rfc3987", []string{"tree", "-grammar", "rfc3987", "-json"}, small},
		{"explain", []string{"explain"}, small},
		{"explain-json", []string{"explain", "-json"}, big},
		{"explain-unknown-rule", []string{"explain", "-rule", "nope"}, small},
		{"encode", []string{"encode", "-component", "query-part", "-json"}, big},
		{"encode-escape", []string{"encode", "-escape"}, small},
		{"decode", []string{"decode", "-json"}, big},
		{"decode-form", []string{"decode", "-form"}, small},
		{"uri-to-iri", []string{"uri-to-iri", "-json"}, big},
		{"iri-to-uri", []string{"iri-to-uri"}, big},
		{"all-valid", []string{"parse", "-json"}, "http://a/\n//b\n"},
		{"empty", []string{"tree"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seqOut, seqErr, seqCode := runURI(t, tt.input, append(tt.args, "-j", "1")...)
			for _, j := range []string{"2", "3", "8"} {
				out, errs, code := runURI(t, tt.input, append(tt.args, "-j", j)...)
				if code != seqCode {
					t.Errorf("-j %s: exit %d, -j 1: exit %d", j, code, seqCode)
				}
				if d := cmp.Diff(seqOut, out); d != "" {
					t.Errorf("-j %s: output differs from -j 1's (-seq +par):\n%.2000s", j, d)
				}
				if d := cmp.Diff(seqErr, errs); d != "" {
					t.Errorf("-j %s: standard error differs (-seq +par):\n%s", j, d)
				}
			}
		})
	}
}

// errWriter fails every write after the first n bytes.
type errWriter struct{ n int }

func (w *errWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, fmt.Errorf("disk full")
	}
	w.n -= len(p)
	return len(p), nil
}

// TestParallelWriteError: a failing output stops the command with exit 3,
// with any number of goroutines.
func TestParallelWriteError(t *testing.T) {
	input := batchInputs(t, 20000)
	for _, j := range []string{"1", "2"} {
		var errb strings.Builder
		code := run([]string{"parse", "-json", "-j", j}, strings.NewReader(input), &errWriter{n: 100 << 10}, &errb)
		if code != exitIO || !strings.Contains(errb.String(), "disk full") {
			t.Errorf("-j %s: exit %d, stderr %q; want %d and the error", j, code, errb.String(), exitIO)
		}
	}
}

// BenchmarkBatch runs the batch commands over 200,000 lines of the bench
// corpus repeated, one line after another (-j 1) and on GOMAXPROCS
// goroutines (-j 0), and reports lines per second.
func BenchmarkBatch(b *testing.B) {
	data, err := os.ReadFile("../../testdata/bench-corpus.txt")
	if err != nil {
		b.Fatal(err)
	}
	corpus := strings.Split(strings.TrimSpace(string(data)), "\n")
	const lines = 200000
	var in strings.Builder
	for i := range lines {
		in.WriteString(corpus[i%len(corpus)])
		in.WriteByte('\n')
	}
	input := in.String()
	for _, args := range [][]string{{"parse", "-json"}, {"tree", "-json"}, {"explain", "-json"}, {"normalize", "-json"}} {
		for _, j := range []string{"1", "0"} {
			b.Run(strings.Join(args, "_")+"/j="+j, func(b *testing.B) {
				b.SetBytes(int64(len(input)))
				for b.Loop() {
					if code := run(append(args, "-j", j), strings.NewReader(input), io.Discard, io.Discard); code != 0 {
						b.Fatalf("exit %d", code)
					}
				}
				b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
			})
		}
	}
}

// TestAppendParseURI: parse -json's records appended by hand are the
// encoder's, byte for byte, for the valid inputs of the batch tests; inputs
// the encoder must escape are left to it.
func TestAppendParseURI(t *testing.T) {
	inputs := append(strings.Split(batchInputs(t, 300), "\n"), `a"b`, `a\b`, "a<b>&", "\x7f", "é", "\u2028", "\xff", "http://u@h:1/p?q#f", "//[::1]", "//1.2.3.4", "?", "#")
	fast := 0
	for _, in := range inputs {
		u, err := parser.ParseReference(in)
		if err != nil {
			continue
		}
		j := parseJSON{Input: in, InputQuoted: quoted(in), Valid: true, Rule: "URI-reference",
			Scheme: opt(u.Scheme(), u.HasScheme()), Userinfo: opt(u.Userinfo(), u.HasUserinfo()),
			Host: opt(u.Host(), u.HasAuthority()), HostKind: opt(u.HostKind().String(), u.HasAuthority()),
			Port: opt(u.Port(), u.HasPort()), Path: u.Path(), Query: opt(u.Query(), u.HasQuery()), Fragment: opt(u.Fragment(), u.HasFragment())}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(j); err != nil {
			t.Fatal(err)
		}
		got, ok := appendParseURI(nil, in, "URI-reference", u)
		if !ok {
			continue
		}
		fast++
		if d := cmp.Diff(want.String(), string(got)); d != "" {
			t.Errorf("%q: (-encoder +appended):\n%s", in, d)
		}
	}
	if fast < len(inputs)/2 {
		t.Errorf("only %d of %d records appended by hand", fast, len(inputs))
	}
}

// TestAppendTreeJSON: tree -json's records appended by hand are the
// encoder's, byte for byte, for the valid inputs of the batch tests, as
// URI-reference and as IRI-reference; inputs the encoder must escape are
// left to it.
func TestAppendTreeJSON(t *testing.T) {
	inputs := append(strings.Split(batchInputs(t, 300), "\n"), `a"b`, "a<b>&", "é", "\xff", "http://u@[::1]:1/p?q#f", "//1.2.3.4", "//[v1.x]")
	fast := 0
	for _, p := range []*parser.Parser{parser.RFC3986(), rfc3987.Parser()} {
		for _, in := range inputs {
			n, err := p.ParseRule(p.DefaultRule(), in)
			if err != nil {
				continue
			}
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(toJSON(in, n)); err != nil {
				t.Fatal(err)
			}
			got, ok := appendTreeJSON(nil, in, n)
			if !ok {
				continue
			}
			fast++
			if d := cmp.Diff(want.String(), string(got)); d != "" {
				t.Errorf("%q: (-encoder +appended):\n%s", in, d)
			}
		}
	}
	if fast < len(inputs) {
		t.Errorf("only %d records appended by hand", fast)
	}
}

// TestJobsBound: -j takes 0 to 1024 goroutines; more, whose chunks in
// flight would be unbounded memory, or fewer is a usage error (exit 2).
func TestJobsBound(t *testing.T) {
	for _, j := range []string{"1025", "1000000000", "-1", "x"} {
		if _, errs, code := runURI(t, "http://a\n", "parse", "-j", j); code != 2 || !strings.Contains(errs, "flag -j") {
			t.Errorf("parse -j %s: exit %d, %q; want 2 and a message about -j", j, code, errs)
		}
	}
	if out, _, code := runURI(t, "http://a\n", "parse", "-json", "-j", "1024"); code != 0 || !strings.Contains(out, `"valid":true`) {
		t.Errorf("parse -j 1024: exit %d, %q", code, out)
	}
}

// TestResolveInvalidBaseNoRefs: an invalid base with no reference to
// report it with is still an error (exit 1, on standard error), not a
// silent success.
func TestResolveInvalidBaseNoRefs(t *testing.T) {
	out, errs, code := runURI(t, "", "resolve", "a b")
	if code != 1 || out != "" || !strings.Contains(errs, `base "a b": parse "a b"`) {
		t.Errorf("resolve 'a b' < empty: exit %d, %q, %q; want 1 and the base's error on stderr", code, out, errs)
	}
	if _, _, code := runURI(t, "", "resolve", "http://a/"); code != 0 {
		t.Errorf("resolve with a valid base and no reference: exit %d, want 0", code)
	}
}

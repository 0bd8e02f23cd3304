package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/parser"
)

// The tests of this file answer, one each, the items of the bad-input
// list of issue 11: what the command did wrong when attacked, and what it
// does now.

// TestFlagsAfterArguments: flags are flags wherever they are ("uri parse
// 'http://a' -json" printed "-json" as a reference); "--" ends them; an
// unknown one is a usage error that says how to pass an input beginning
// with "-".
func TestFlagsAfterArguments(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string // the output, or the start of standard error for exit 2
		code int
	}{
		{[]string{"parse", "http://a", "-json"}, `{"input":"http://a","valid":true,"rule":"URI-reference","scheme":"http","userinfo":null,"host":"a","hostKind":"regname","port":null,"path":"","query":null,"fragment":null}` + "\n", 0},
		{[]string{"parse", "http://a", "-rule", "URI", "-json", "b"}, `{"input":"http://a","valid":true,"rule":"URI","scheme":"http","userinfo":null,"host":"a","hostKind":"regname","port":null,"path":"","query":null,"fragment":null}
{"input":"b","valid":false,"rule":"URI","error":{"offset":1,"message":"URI could not continue at offset 1: found end of input; expected ALPHA, DIGIT, \"+\", \"-\", \".\" or \":\""}}
`, 1},
		{[]string{"parse", "-json", "-rule=port", "80"}, `{"input":"80","valid":true,"rule":"port"}` + "\n", 0},
		// "--" ends the flags: "-json" is then an input (a valid relative
		// reference), and so is "--".
		{[]string{"parse", "-json", "--", "-json", "--"}, `{"input":"-json","valid":true,"rule":"URI-reference","scheme":null,"userinfo":null,"host":null,"hostKind":null,"port":null,"path":"-json","query":null,"fragment":null}
{"input":"--","valid":true,"rule":"URI-reference","scheme":null,"userinfo":null,"host":null,"hostKind":null,"port":null,"path":"--","query":null,"fragment":null}
`, 0},
		// "-" alone is an input.
		{[]string{"parse", "-json", "-"}, `{"input":"-","valid":true,"rule":"URI-reference","scheme":null,"userinfo":null,"host":null,"hostKind":null,"port":null,"path":"-","query":null,"fragment":null}` + "\n", 0},
		{[]string{"resolve", "-json", "http://a/b", "c", "-non-strict", "http:d"}, `{"input":"c","base":"http://a/b","result":"http://a/c"}
{"input":"http:d","base":"http://a/b","result":"http://a/d"}
`, 0},
		{[]string{"equal", "http://a", "HTTP://A", "-level", "simple"}, "a:        http://a\nb:        HTTP://A\nlevel:    simple\nresult:   not equivalent\n", 1},
		// A flag's error once (it was twice: the flag package's, then
		// run's), then the command's flags.
		{[]string{"parse", "http://a", "-x"}, "uri parse: flag provided but not defined: -x", 2},
		{[]string{"parse", "-rule"}, "uri parse: flag needs an argument: -rule\nUsage of uri parse:\n", 2},
		{[]string{"normalize", "a", "-json=maybe"}, `uri normalize: invalid boolean value "maybe" for -json`, 2},
	} {
		out, errOut, code := runURI(t, "", tt.args...)
		got := out
		if tt.code == 2 {
			got = errOut[:min(len(errOut), len(tt.want))]
		}
		if diff := cmp.Diff(tt.want, got); diff != "" || code != tt.code {
			t.Errorf("uri %q: exit %d, want %d (-want +got):\n%s", tt.args, code, tt.code, diff)
		}
		if tt.code == 2 && strings.Count(errOut, strings.TrimPrefix(tt.want[:min(len(tt.want), 40)], "uri "+tt.args[0]+": ")) != 1 {
			t.Errorf("uri %q: the error is not said once:\n%s", tt.args, errOut)
		}
		if tt.code == 2 && strings.Contains(tt.want, "flag provided") && !strings.Contains(errOut, `goes after "--"`) {
			t.Errorf("uri %q: stderr does not say how to pass an input beginning with \"-\":\n%s", tt.args, errOut)
		}
	}
}

// failWriter fails every write, as /dev/full does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// failReader returns some lines, then fails.
type failReader struct{ done bool }

func (r *failReader) Read(p []byte) (int, error) {
	if !r.done {
		r.done = true
		return copy(p, "http://a\n"), nil
	}
	return 0, errors.New("input/output error")
}

// TestExitCodes: 0 all valid or equivalent, 1 some input invalid or not
// equivalent, 2 usage, 3 an I/O error (which exited 1, like an invalid
// input). An argument of equal that does not parse is a 1 with its error,
// and no "equivalent" at all (it said "equivalent":false).
func TestExitCodes(t *testing.T) {
	for _, tt := range []struct {
		name   string
		args   []string
		stdin  io.Reader
		stdout io.Writer
		code   int
		stderr string
	}{
		{"valid", []string{"parse", "http://a"}, nil, nil, 0, ""},
		{"invalid", []string{"parse", "a b"}, nil, nil, 1, ""},
		{"equivalent", []string{"equal", "http://a", "HTTP://a:80/"}, nil, nil, 0, ""},
		{"not equivalent", []string{"equal", "http://a", "http://b"}, nil, nil, 1, ""},
		{"equal, unparsable argument", []string{"equal", "http://a", "b c"}, nil, nil, 1, ""},
		{"usage", []string{"equal", "a"}, nil, nil, 2, "uri equal: equal needs two arguments"},
		{"write error, human", []string{"parse", "http://a"}, nil, failWriter{}, 3, "uri parse: writing the output: no space left on device"},
		{"write error, JSON", []string{"normalize", "-json", "http://a"}, nil, failWriter{}, 3, "uri normalize: writing the output: no space left on device"},
		{"write error, invalid input", []string{"parse", "a b"}, nil, failWriter{}, 3, "uri parse: writing the output"},
		{"read error", []string{"parse"}, &failReader{}, nil, 3, "uri parse: input/output error"},
	} {
		stdin, stdout := tt.stdin, tt.stdout
		if stdin == nil {
			stdin = strings.NewReader("")
		}
		var out bytes.Buffer
		if stdout == nil {
			stdout = &out
		}
		var errb bytes.Buffer
		code := run(tt.args, stdin, stdout, &errb)
		if code != tt.code || !strings.HasPrefix(errb.String(), tt.stderr) || (tt.stderr == "" && errb.Len() > 0) {
			t.Errorf("%s: uri %q: exit %d, stderr %q; want %d, %q", tt.name, tt.args, code, errb.String(), tt.code, tt.stderr)
		}
	}
	// A stream to a full disk stops at the first record, not at the end
	// of its input.
	in := strings.Repeat("http://a\n", 100000)
	r := strings.NewReader(in)
	if code := run([]string{"parse", "-json"}, r, failWriter{}, io.Discard); code != 3 || r.Len() < len(in)/2 {
		t.Errorf("parse to a failing writer: exit %d after reading %d of %d bytes", code, len(in)-r.Len(), len(in))
	}
	// equal's error names the argument, with its offset, human and JSON.
	out, _, _ := runURI(t, "", "equal", "http://a", "b c")
	if !strings.Contains(out, `error:    segment-nz-nc could not continue at offset 1: found " ";`) || !strings.Contains(out, "(in b, at offset 1)") || strings.Contains(out, "equivalent") {
		t.Errorf("equal with an invalid argument:\n%s", out)
	}
}

// TestLongLines: a line longer than the parser takes (16 MiB) is read in
// bounded memory (a 400 MiB line took 1.9 GB), and its record holds a
// prefix of it, not the whole input.
func TestLongLines(t *testing.T) {
	if testing.Short() {
		t.Skip("reads lines of 20 and 60 MiB")
	}
	line := func(n int) io.Reader {
		return io.MultiReader(strings.NewReader("http://a/"), io.LimitReader(repeatReader('b'), int64(n-9)), strings.NewReader("\nhttp://c\n"))
	}
	measure := func(n int) (string, uint64) {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		var out bytes.Buffer
		code := run([]string{"parse", "-json"}, line(n), &out, io.Discard)
		runtime.ReadMemStats(&m1)
		if code != 1 {
			t.Errorf("%d-byte line: exit %d, want 1", n, code)
		}
		return out.String(), m1.TotalAlloc - m0.TotalAlloc
	}
	small, large := parser.MaxLength+4<<20, parser.MaxLength+44<<20
	out, ms := measure(small)
	_, ml := measure(large)
	t.Logf("lines of %d and %d bytes: %d and %d bytes allocated", small, large, ms, ml)
	if float64(ml) > 1.5*float64(ms) {
		t.Errorf("a %d-byte line allocates %d bytes, %.1f times the %d of a %d-byte line: memory grows with the line", large, ml, float64(ml)/float64(ms), ms, small)
	}
	want := fmt.Sprintf(`{"input":"http://a/%s","truncated":true,"valid":false,"rule":"URI-reference","error":{"offset":%d,"message":"input is %d bytes, longer than the %d the parser takes"}}
{"input":"http://c","valid":true,"rule":"URI-reference","scheme":"http","userinfo":null,"host":"c","hostKind":"regname","port":null,"path":"","query":null,"fragment":null}
`, strings.Repeat("b", longPrefix-9), parser.MaxLength, small, parser.MaxLength)
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	// Every command reports it the same way.
	for _, args := range [][]string{{"resolve", "-json", "http://x/"}, {"normalize", "-json"}, {"iri-to-uri", "-json"}, {"tree", "-json"}} {
		var out bytes.Buffer
		code := run(args, line(small), &out, io.Discard)
		first, _, _ := strings.Cut(out.String(), "\n")
		var j map[string]any
		if err := json.Unmarshal([]byte(first), &j); err != nil || code != 1 || j["truncated"] != true || len(first) > 600 ||
			!strings.Contains(first, fmt.Sprintf("input is %d bytes", small)) {
			t.Errorf("uri %q with a %d-byte line: exit %d, first record %.300s", args, small, code, first)
		}
	}
}

type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// TestNonUTF8: JSON strings cannot hold invalid UTF-8 (encoding/json
// writes U+FFFD instead), while offsets count bytes: every echoed input
// that is not valid UTF-8 comes with its Go-quoted form, which gives the
// bytes back.
func TestNonUTF8(t *testing.T) {
	for _, tt := range []struct {
		args  []string
		stdin string
		field string
		want  string
	}{
		{[]string{"parse", "-json", "a\xffb"}, "", "inputQuoted", "a\xffb"},
		{[]string{"parse", "-json"}, "\xfe\n", "inputQuoted", "\xfe"},
		{[]string{"tree", "-json", "x\x80"}, "", "inputQuoted", "x\x80"},
		{[]string{"resolve", "-json", "http://a/\xff", "b"}, "", "baseQuoted", "http://a/\xff"},
		{[]string{"resolve", "-json", "http://a/", "b\xff"}, "", "inputQuoted", "b\xff"},
		{[]string{"normalize", "-json", "\xc3"}, "", "inputQuoted", "\xc3"},
		{[]string{"iri-to-uri", "-json", "http://\xe9/"}, "", "inputQuoted", "http://\xe9/"},
		{[]string{"equal", "-json", "a", "\xff"}, "", "bQuoted", "\xff"},
	} {
		out, _, code := runURI(t, tt.stdin, tt.args...)
		var j map[string]any
		if err := json.Unmarshal([]byte(out), &j); err != nil || code != 1 {
			t.Errorf("uri %q: exit %d, %v:\n%s", tt.args, code, err, out)
			continue
		}
		q, _ := j[tt.field].(string)
		got, err := strconv.Unquote(q)
		if err != nil || got != tt.want {
			t.Errorf("uri %q: %s = %q, which unquotes to %q, %v; want %q", tt.args, tt.field, q, got, err, tt.want)
		}
	}
	// The decoded views: each value that is not UTF-8 has its quoted form
	// beside it, the segments all together.
	out, _, _ := runURI(t, "", "parse", "-decode", "-json", "http://%ff@a/%ff/x?%ff=%fe&k#%ff")
	var rec struct {
		Decoded struct {
			UserinfoQuoted, FragmentQuoted string
			SegmentsQuoted                 []string
			Query                          []struct{ KeyQuoted, ValueQuoted string }
		}
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatal(err)
	}
	d := rec.Decoded
	want := []string{`"\xff"`, `"\xff"`, `"\xff"`, `"x"`, `"\xff"`, `"\xfe"`, "", ""}
	got := append([]string{d.UserinfoQuoted, d.FragmentQuoted}, d.SegmentsQuoted...)
	for _, p := range d.Query {
		got = append(got, p.KeyQuoted, p.ValueQuoted)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parse -decode -json: the quoted forms of the decoded views (-want +got):\n%s\n%s", diff, out)
	}
	// Valid UTF-8 has no quoted form.
	out, _, _ = runURI(t, "", "parse", "-json", "-grammar", "rfc3987", "http://é/")
	if strings.Contains(out, "Quoted") {
		t.Errorf("valid UTF-8 got a quoted form: %s", out)
	}
}

// TestTreeTooLong: tree on a valid 1 MiB URI said "valid":false; it is
// valid, too long for a tree, and the record says so (exit 1: no tree was
// printed). An invalid one that long gets the DFA's error.
func TestTreeTooLong(t *testing.T) {
	valid := "http://a/" + strings.Repeat("b", 1<<20)
	out, _, code := runURI(t, valid+"\n"+valid+" \n", "tree", "-json")
	want := fmt.Sprintf(`{"input":%q,"valid":true,"rule":"URI-reference","error":{"offset":%d,"message":"valid, but too long for a parse tree: %d bytes, the limit is %d"}}
{"input":%q,"valid":false,"rule":"URI-reference","error":{"offset":%d,"message":"segment could not continue at offset %d: found \" \"; expected pchar, \"#\", \"/\", \"?\" or end of input"}}
`, valid, parser.MaxTreeLength, len(valid), parser.MaxTreeLength, valid+" ", len(valid), len(valid))
	if diff := cmp.Diff(want, out); diff != "" || code != 1 {
		t.Errorf("exit %d (-want +got):\n%.2000s", code, diff)
	}
	out, _, _ = runURI(t, "", "tree", valid)
	if !strings.Contains(out, "valid:    true\n") || !strings.Contains(out, "error:    valid, but too long for a parse tree") {
		t.Errorf("human output:\n%.300s", out[len(out)-300:])
	}
}

// checkResultError: out is one JSON record of a result too long, exit 1:
// no result, the error's argument "result", no offset, and message want.
func checkResultError(t *testing.T, out string, code int, want string) {
	t.Helper()
	var j struct {
		Result *string
		Error  struct {
			Argument string
			Offset   *int
			Message  string
		}
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil || code != 1 {
		t.Fatalf("exit %d, %v", code, err)
	}
	if j.Result != nil || j.Error.Argument != "result" || j.Error.Offset != nil || j.Error.Message != want {
		t.Errorf("error = %+v, want argument result and message %q", j.Error, want)
	}
}

// TestNormalizeResultTooLong: the normal form of a valid 16 MiB
// "http://aaa…" is one byte too long; the error blames the result (it
// blamed the input, "input is 16777217 bytes").
func TestNormalizeResultTooLong(t *testing.T) {
	if testing.Short() {
		t.Skip("normalizes a 16 MiB input")
	}
	in := "http://" + strings.Repeat("a", parser.MaxLength-7)
	out, _, code := runURI(t, in+"\n", "normalize", "-json", "-scheme")
	want := fmt.Sprintf("resolve: result: the normal form is %d bytes, longer than the %d a URI can have", parser.MaxLength+1, parser.MaxLength)
	checkResultError(t, out, code, want)
}

// TestIRIToURIResultTooLong: a valid IRI of 6 MiB of "é" maps to a URI
// of 18 MiB; the error blames the result, with no offset (it blamed the
// input, at offset 16777216, past the input's end).
func TestIRIToURIResultTooLong(t *testing.T) {
	if testing.Short() {
		t.Skip("maps a 16 MiB URI")
	}
	n := parser.MaxLength/6 + 1 // 6 bytes each in the URI
	in := "/" + strings.Repeat("é", n)
	out, _, code := runURI(t, in+"\n", "iri-to-uri", "-json")
	want := fmt.Sprintf("rfc3987: the URI is %d bytes, longer than the %d a URI can have", 1+6*n, parser.MaxLength)
	checkResultError(t, out, code, want)
}

// TestBatchErrors: every error is the DFA's, which costs about what a
// valid input does (every error went through pigeon, and an invalid line
// cost 50 times a valid one): the same for an argument and for a line of
// standard input, and for parse, normalize and resolve, whose errors name
// the argument. "//[:m" fails at offset 4, in IPv6address: no valid input
// has "m" there.
func TestBatchErrors(t *testing.T) {
	const in = "//[:m"
	arg, _, _ := runURI(t, "", "parse", "-json", in)
	batch, _, _ := runURI(t, in+"\n", "parse", "-json")
	want := `{"input":"//[:m","valid":false,"rule":"URI-reference","error":{"offset":4,"message":"IPv6address could not continue at offset 4: found \"m\"; expected \":\""}}` + "\n"
	if diff := cmp.Diff(want, arg); diff != "" {
		t.Errorf("argument (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, batch); diff != "" {
		t.Errorf("line of standard input (-want +got):\n%s", diff)
	}
	out, _, _ := runURI(t, in+"\n", "normalize", "-json")
	if want := `{"input":"//[:m","error":{"argument":"input","offset":4,"message":"IPv6address could not continue at offset 4: found \"m\"; expected \":\""}}` + "\n"; out != want {
		t.Errorf("normalize, batch:\n%s\nwant\n%s", out, want)
	}
	out, _, _ = runURI(t, in+"\n", "resolve", "-json", "http://a/")
	if want := `{"input":"//[:m","base":"http://a/","error":{"argument":"reference","offset":4,"message":"IPv6address could not continue at offset 4: found \"m\"; expected \":\""}}` + "\n"; out != want {
		t.Errorf("resolve, batch:\n%s\nwant\n%s", out, want)
	}
}

// BenchmarkBatchErrors runs "uri parse -json" over 100,000 lines of
// standard input, valid or invalid (the benchmark corpus, each line with a
// space inserted at a third of its length), and reports lines per second.
// Invalid lines must cost at most 5 times valid ones; compare the two with
// benchstat (the README quotes the ratio).
func BenchmarkBatchErrors(b *testing.B) {
	data, err := os.ReadFile("../../testdata/bench-corpus.txt")
	if err != nil {
		b.Fatal(err)
	}
	corpus := strings.Split(strings.TrimSpace(string(data)), "\n")
	const lines = 100000
	for _, kind := range []string{"valid", "invalid"} {
		var in strings.Builder
		for i := range lines {
			s := corpus[i%len(corpus)]
			if kind == "invalid" {
				s = s[:len(s)/3] + " " + s[len(s)/3:]
			}
			in.WriteString(s)
			in.WriteByte('\n')
		}
		input := in.String()
		b.Run(kind, func(b *testing.B) {
			b.SetBytes(int64(len(input)))
			want := 0
			if kind == "invalid" {
				want = 1
			}
			for b.Loop() {
				if code := run([]string{"parse", "-json"}, strings.NewReader(input), io.Discard, io.Discard); code != want {
					b.Fatalf("exit %d", code)
				}
			}
			b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
		})
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func runURI(t testing.TB, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func TestParseHuman(t *testing.T) {
	out, _, code := runURI(t, "", "parse", "http://user@[::1]:80/a?#f", "a b")
	want := `input:    http://user@[::1]:80/a?#f
valid:    true
rule:     URI-reference
scheme:   http
userinfo: user
host:     [::1]
hostKind: ipv6
port:     80
path:     /a
query:    ""
fragment: f

input:    "a b"
valid:    false
rule:     URI-reference
error:    segment-nz-nc could not continue at offset 1: found " "; expected pct-encoded, unreserved, sub-delims, ALPHA, DIGIT, "#", "+", "-", ".", "/", ":", "?", "@" or end of input
          a b
           ^
`
	if diff := cmp.Diff(want, out); diff != "" || code != 1 {
		t.Errorf("exit %d (-want +got):\n%s", code, diff)
	}
}

func TestParseJSON(t *testing.T) {
	out, _, code := runURI(t, "", "parse", "-json", "http://a", "x:", "//h:/?#", "%zz")
	want := `{"input":"http://a","valid":true,"rule":"URI-reference","scheme":"http","userinfo":null,"host":"a","hostKind":"regname","port":null,"path":"","query":null,"fragment":null}
{"input":"x:","valid":true,"rule":"URI-reference","scheme":"x","userinfo":null,"host":null,"hostKind":null,"port":null,"path":"","query":null,"fragment":null}
{"input":"//h:/?#","valid":true,"rule":"URI-reference","scheme":null,"userinfo":null,"host":"h","hostKind":"regname","port":"","path":"/","query":"","fragment":""}
{"input":"%zz","valid":false,"rule":"URI-reference","error":{"offset":1,"message":"pct-encoded could not continue at offset 1: found \"z\"; expected HEXDIG"}}
`
	if diff := cmp.Diff(want, out); diff != "" || code != 1 {
		t.Errorf("exit %d (-want +got):\n%s", code, diff)
	}
}

func TestParseRules(t *testing.T) {
	out, _, code := runURI(t, "", "parse", "-json", "-rule", "HOST", "1.2.3.4", "a b")
	want := `{"input":"1.2.3.4","valid":true,"rule":"host"}
{"input":"a b","valid":false,"rule":"host","error":{"offset":1,"message":"reg-name could not continue at offset 1: found \" \"; expected pct-encoded, unreserved, sub-delims or end of input"}}
`
	if diff := cmp.Diff(want, out); diff != "" || code != 1 {
		t.Errorf("exit %d (-want +got):\n%s", code, diff)
	}
	for _, rule := range []string{"URI", "absolute-URI", "relative-ref"} {
		out, _, _ := runURI(t, "", "parse", "-json", "-rule", rule, "http://a/b#f")
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatal(err)
		}
		if _, ok := m["scheme"]; m["valid"] == true && !ok {
			t.Errorf("%s: a URI-level rule must print the components: %s", rule, out)
		}
	}
}

// TestStdin: every line is an input, the empty line included; a trailing
// "\r" is part of the input.
func TestStdin(t *testing.T) {
	out, _, code := runURI(t, "http://a\n\nb\r\n", "parse", "-json")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 || code != 1 {
		t.Fatalf("exit %d, %d records:\n%s", code, len(lines), out)
	}
	for i, want := range []string{`"input":"http://a","valid":true`, `"input":"","valid":true`, `"input":"b\r","valid":false`} {
		if !strings.Contains(lines[i], want) {
			t.Errorf("record %d = %s, want %s", i, lines[i], want)
		}
	}
	if _, _, code := runURI(t, "a\nb\n", "parse"); code != 0 {
		t.Errorf("all valid: exit %d, want 0", code)
	}
}

func TestTree(t *testing.T) {
	out, _, code := runURI(t, "", "tree", "-rule", "authority", "u@h:1")
	want := `authority [0,5) "u@h:1"
  userinfo [0,1) "u"
  host [2,3) "h"
    reg-name [2,3) "h"
  port [4,5) "1"
`
	if diff := cmp.Diff(want, out); diff != "" || code != 0 {
		t.Errorf("exit %d (-want +got):\n%s", code, diff)
	}
	out, _, _ = runURI(t, "", "tree", "-json", "-rule", "port", "80")
	if out != `{"rule":"port","start":0,"end":2,"text":"80","children":[]}`+"\n" {
		t.Errorf("tree -json = %s", out)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		nil,
		{"nope"},
		{"parse", "-rule", "nope", "x"},
		{"parse", "-grammar", "nope", "x"},
		{"parse", "-bogus"},
		{"tree", "-rule", "nope", "x"},
	} {
		if _, _, code := runURI(t, "", args...); code != 2 {
			t.Errorf("uri %v: exit %d, want 2", args, code)
		}
	}
	// Help asked for is an answer: on standard output for the command's
	// usage, exit 0.
	for _, args := range [][]string{{"-h"}, {"help"}, {"--help"}, {"parse", "-h"}, {"resolve", "-help"}} {
		out, errs, code := runURI(t, "", args...)
		if code != 0 || !strings.Contains(out+errs, "usage") && !strings.Contains(out+errs, "Usage") {
			t.Errorf("uri %v: exit %d, %q %q; want 0 and the usage", args, code, out, errs)
		}
	}
	// uri help CMD is CMD's flags (it was the general usage), on standard
	// output as uri help's answer is.
	if out, errs, code := runURI(t, "", "help", "parse"); code != 0 || !strings.Contains(out, "Usage of uri parse:") || !strings.Contains(out, "-decode") || errs != "" {
		t.Errorf("uri help parse: exit %d, %q %q; want 0 and parse's flags", code, out, errs)
	}
}

// BenchmarkParseLines runs "uri parse -json" over 1,000,000 lines (the
// benchmark corpus repeated) and reports lines per second.
func BenchmarkParseLines(b *testing.B) {
	data, err := os.ReadFile("../../testdata/bench-corpus.txt")
	if err != nil {
		b.Fatal(err)
	}
	corpus := strings.Split(strings.TrimSpace(string(data)), "\n")
	var in strings.Builder
	const lines = 1000000
	for i := range lines {
		in.WriteString(corpus[i%len(corpus)])
		in.WriteByte('\n')
	}
	input := in.String()
	for _, args := range [][]string{{"parse", "-json"}, {"parse"}} {
		b.Run(strings.Join(args, "_"), func(b *testing.B) {
			b.SetBytes(int64(len(input)))
			for b.Loop() {
				if code := run(args, strings.NewReader(input), io.Discard, io.Discard); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
			b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
		})
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
		code int
	}{
		{"§5.4.1 normal examples", []string{"resolve", "-json", "http://a/b/c/d;p?q", "g:h", "../g", "?y", "#s", "", "//g"},
			`{"input":"g:h","base":"http://a/b/c/d;p?q","result":"g:h"}
{"input":"../g","base":"http://a/b/c/d;p?q","result":"http://a/b/g"}
{"input":"?y","base":"http://a/b/c/d;p?q","result":"http://a/b/c/d;p?y"}
{"input":"#s","base":"http://a/b/c/d;p?q","result":"http://a/b/c/d;p?q#s"}
{"input":"","base":"http://a/b/c/d;p?q","result":"http://a/b/c/d;p?q"}
{"input":"//g","base":"http://a/b/c/d;p?q","result":"http://g"}
`, 0},
		{"§5.4.2 strict and non-strict", []string{"resolve", "-json", "-non-strict", "http://a/b/c/d;p?q", "http:g"},
			`{"input":"http:g","base":"http://a/b/c/d;p?q","result":"http://a/b/c/g"}
`, 0},
		{"bad reference", []string{"resolve", "-json", "http://a/", "a b"},
			`{"input":"a b","base":"http://a/","error":{"argument":"reference","offset":1,"message":"segment-nz-nc could not continue at offset 1: found \" \"; expected pct-encoded, unreserved, sub-delims, ALPHA, DIGIT, \"#\", \"+\", \"-\", \".\", \"/\", \":\", \"?\", \"@\" or end of input"}}
`, 1},
		{"base without scheme (§5.1)", []string{"resolve", "-json", "a/b", "x"},
			`{"input":"x","base":"a/b","error":{"argument":"base","message":"resolve: base \"a/b\" has no scheme: RFC 3986 §5.1 requires an absolute base URI"}}
`, 1},
		{"human, with a caret", []string{"resolve", "http://a/b", "x", "%"},
			`base:     http://a/b
input:    x
result:   http://a/x

base:     http://a/b
input:    %
error:    pct-encoded could not continue at offset 1: found end of input; expected HEXDIG (in the reference, at offset 1)
          %
           ^
`, 1},
		{"normalize §6.2.2", []string{"normalize", "-json", "HTTP://User@Example.COM:80/%7efoo/./a/../b?%3f#F"},
			`{"input":"HTTP://User@Example.COM:80/%7efoo/./a/../b?%3f#F","result":"http://User@example.com:80/~foo/b?%3F#F"}
`, 0},
		{"normalize -scheme §6.2.3", []string{"normalize", "-json", "-scheme", "HTTP://Example.COM:80", "ftp://h:21/", "http://h:/"},
			`{"input":"HTTP://Example.COM:80","result":"http://example.com/"}
{"input":"ftp://h:21/","result":"ftp://h/"}
{"input":"http://h:/","result":"http://h/"}
`, 0},
		{"normalize -ipv6 (RFC 5952)", []string{"normalize", "-json", "-ipv6", "//[2001:0DB8:0:0:0:0:0:1]/"},
			`{"input":"//[2001:0DB8:0:0:0:0:0:1]/","result":"//[2001:db8::1]/"}
`, 0},
		{"normalize invalid", []string{"normalize", "-json", "%g"},
			`{"input":"%g","error":{"argument":"input","offset":1,"message":"pct-encoded could not continue at offset 1: found \"g\"; expected HEXDIG"}}
`, 1},
		{"equal", []string{"equal", "HTTP://A:80/%7e", "http://a/~"},
			`a:        HTTP://A:80/%7e
b:        http://a/~
level:    scheme
result:   equivalent
`, 0},
		{"equal -level syntax", []string{"equal", "-json", "-level", "syntax", "HTTP://A:80/%7e", "http://a/~"},
			`{"a":"HTTP://A:80/%7e","b":"http://a/~","equivalent":false,"level":"syntax"}
`, 1},
		{"equal -level simple", []string{"equal", "-json", "-level", "simple", "http://a", "http://a"},
			`{"a":"http://a","b":"http://a","equivalent":true,"level":"simple"}
`, 0},
		{"equal invalid", []string{"equal", "-json", "http://a", "b c"},
			`{"a":"http://a","b":"b c","level":"scheme","error":{"argument":"b","offset":1,"message":"segment-nz-nc could not continue at offset 1: found \" \"; expected pct-encoded, unreserved, sub-delims, ALPHA, DIGIT, \"#\", \"+\", \"-\", \".\", \"/\", \":\", \"?\", \"@\" or end of input"}}
`, 1},
		{"iri-to-uri (RFC 3987 §3.1)", []string{"iri-to-uri", "-json", "http://résumé.example/ü?q=ä#%C3%A9", "http://[x"},
			`{"input":"http://résumé.example/ü?q=ä#%C3%A9","result":"http://r%C3%A9sum%C3%A9.example/%C3%BC?q=%C3%A4#%C3%A9"}
{"input":"http://[x","error":{"argument":"input","offset":8,"message":"IP-literal could not continue at offset 8: found \"x\"; expected HEXDIG, \"::\" or \"v\""}}
`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, code := runURI(t, "", tt.args...)
			if diff := cmp.Diff(tt.want, out); diff != "" || code != tt.code {
				t.Errorf("exit %d, want %d (-want +got):\n%s", code, tt.code, diff)
			}
			if strings.Contains(strings.Join(tt.args, " "), "-json") {
				for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
					if !json.Valid([]byte(line)) {
						t.Errorf("not JSON: %s", line)
					}
				}
			}
		})
	}
}

func TestResolveUsage(t *testing.T) {
	for _, args := range [][]string{
		{"resolve"},
		{"equal", "a"},
		{"equal", "-level", "fuzzy", "a", "b"},
		{"normalize", "-nope"},
	} {
		_, errOut, code := runURI(t, "", args...)
		if code != 2 || errOut == "" {
			t.Errorf("%q: exit %d, stderr %q; want 2 and a message", args, code, errOut)
		}
	}
}

func TestResolveStdin(t *testing.T) {
	out, _, code := runURI(t, "g\n\n../..\n", "resolve", "-json", "http://a/b/c/d;p?q")
	want := `{"input":"g","base":"http://a/b/c/d;p?q","result":"http://a/b/c/g"}
{"input":"","base":"http://a/b/c/d;p?q","result":"http://a/b/c/d;p?q"}
{"input":"../..","base":"http://a/b/c/d;p?q","result":"http://a/"}
`
	if diff := cmp.Diff(want, out); diff != "" || code != 0 {
		t.Errorf("exit %d (-want +got):\n%s", code, diff)
	}
}

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
error:    unexpected " " at offset 1; expected "#", "%", "/", ":", "?", [!$&-,.0-9;=@-Z_a-z~-], [+.0-9A-Za-z-], EOF
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
{"input":"%zz","valid":false,"rule":"URI-reference","error":{"offset":1,"message":"unexpected \"z\" at offset 1; expected [0-9A-Fa-f]"}}
`
	if diff := cmp.Diff(want, out); diff != "" || code != 1 {
		t.Errorf("exit %d (-want +got):\n%s", code, diff)
	}
}

func TestParseRules(t *testing.T) {
	out, _, code := runURI(t, "", "parse", "-json", "-rule", "HOST", "1.2.3.4", "a b")
	want := `{"input":"1.2.3.4","valid":true,"rule":"host"}
{"input":"a b","valid":false,"rule":"host","error":{"offset":1,"message":"unexpected \" \" at offset 1; expected \"%\", [!$&-,.0-9;=A-Z_a-z~-], EOF"}}
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

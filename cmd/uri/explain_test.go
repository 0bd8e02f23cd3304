package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// goldenTests are the outputs of explain, resolve -trace and normalize
// -explain, human and JSON, in testdata/NAME.golden (go test -update
// rewrites them).
var goldenTests = []struct {
	name string
	code int
	args []string
}{
	// The examples: the failing rule, with its ABNF text.
	{"explain-ipv6", 1, []string{"explain", "http://[::1.2.3.4.5]/"}},
	{"explain-space", 1, []string{"explain", "http://a b/"}},
	{"explain-json", 1, []string{"explain", "-json", "http://[::1.2.3.4.5]/", "http://a b/", "http://1.2.3.4.5/x"}},
	// §3.2.2: why 1.2.3.4.5 is a reg-name, and 1.2.3.4 an IPv4 address.
	{"explain-hosts", 0, []string{"explain", "http://1.2.3.4.5/x", "//1.2.3.4", "http://[v1.x]/", "file:///p"}},
	{"explain-rfc6874", 1, []string{"explain", "-grammar", "rfc6874", "http://[fe80::1%25eth0]/", "http://[fe80::1%eth0]/"}},
	{"explain-rfc3987", 1, []string{"explain", "-grammar", "rfc3987", "http://例え.jp/引き", "http://例 え/"}},
	{"explain-rule", 1, []string{"explain", "-rule", "IPv4address", "1.2.3.4", "1.2.3", "1.2.3.256"}},
	// §5.4.2: "../../../g" climbs above the root; the trace shows §5.2.3's
	// merge and §5.2.4's table.
	{"resolve-trace", 0, []string{"resolve", "-trace", "http://a/b/c/d;p?q", "../../../g"}},
	{"resolve-trace-rfc-table", 0, []string{"resolve", "-trace", "http://a/b/c/d;p?q", "/a/b/c/./../../g", "g?y", "//g", ""}},
	{"resolve-trace-nonstrict", 0, []string{"resolve", "-trace", "-non-strict", "http://a/b/c/d;p?q", "http:g"}},
	{"resolve-trace-json", 0, []string{"resolve", "-trace", "-json", "http://a/b/c/d;p?q", "../../../g", "?y"}},
	{"resolve-trace-guard", 0, []string{"resolve", "-trace", "foo:/a/", "..//bar"}},
	// parse -decode: the decoded query is null (undefined) without a "?",
	// an empty list for the empty query, as docs/cli.md says (§3.4).
	{"parse-decode", 0, []string{"parse", "-decode", "a", "http://a", "http://a?", "http://a?&k=v"}},
	{"parse-decode-json", 0, []string{"parse", "-decode", "-json", "a", "http://a", "http://a?", "http://a?&k=v"}},
	{"normalize-explain", 0, []string{"normalize", "-explain", "-scheme", "HTTP://Example.COM:80/%7efoo/./a/../b", "http://a/"}},
	{"normalize-explain-json", 0, []string{"normalize", "-explain", "-json", "-scheme", "-ipv6", "HTTP://[0:0::1]:/a%2fb/../%61?%7E#%7e", "x"}},
}

func TestGolden(t *testing.T) {
	for _, tc := range goldenTests {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := runURI(t, "", tc.args...)
			if code != tc.code || errs != "" {
				t.Errorf("uri %s: exit %d, want %d; stderr %q", strings.Join(tc.args, " "), code, tc.code, errs)
			}
			path := filepath.Join("testdata", tc.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), out); diff != "" {
				t.Errorf("uri %s (-%s +got; go test -update ./cmd/uri rewrites it):\n%s", strings.Join(tc.args, " "), path, diff)
			}
		})
	}
}

// TestExplainStdin: one input per line, flags after the inputs, exit 1
// when one is invalid, a usage error for an unknown rule.
func TestExplainStdin(t *testing.T) {
	out, _, code := runURI(t, "a:b\nhttp://a b/\n", "explain", "-json")
	if code != 1 || strings.Count(out, "\n") != 2 || !strings.Contains(out, `"rule":"reg-name"`) {
		t.Errorf("exit %d:\n%s", code, out)
	}
	if _, errs, code := runURI(t, "", "explain", "-rule", "nope", "x"); code != 2 || !strings.Contains(errs, "nope") {
		t.Errorf("unknown rule: exit %d, %q", code, errs)
	}
	if _, _, code := runURI(t, "", "explain", "x", "-grammar", "rfc9999"); code != 2 {
		t.Errorf("unknown grammar: exit %d", code)
	}
	// Past the tree's limit: valid, too long for a tree; or the DFA's
	// error. Exit 1 either way (beyond a limit).
	long := "/" + strings.Repeat("a", 70000)
	out, _, code = runURI(t, "", "explain", "-json", long, long+" ")
	if code != 1 || !strings.Contains(out, `"valid":true,"rule":"URI-reference","error":{"offset":65536`) || !strings.Contains(out, `"valid":false,"rule":"URI-reference","error":{"offset":70001`) {
		t.Errorf("long inputs: exit %d:\n%.600s", code, out)
	}
}

// TestExplainErrorIsParse: explain's error object is parse's, as the docs
// say ("error as every subcommand gives it"), in every grammar and for a
// rule of each; its message named characters where parse's names rules.
func TestExplainErrorIsParse(t *testing.T) {
	lines := "http://a b/\nhttp://[::1x]/\n%zz\nhttp://a\tb\n\xff\nhttp://a/b c?d#e\n"
	for _, args := range [][]string{
		{"-grammar", "rfc3986"},
		{"-grammar", "rfc6874"},
		{"-grammar", "rfc3987"},
		{"-grammar", "rfc3986", "-rule", "IPv4address"},
		{"-grammar", "rfc3987", "-rule", "ihost"},
	} {
		parse, _, _ := runURI(t, lines, append([]string{"parse", "-json"}, args...)...)
		explain, _, _ := runURI(t, lines, append([]string{"explain", "-json"}, args...)...)
		p, e := strings.Split(strings.TrimSpace(parse), "\n"), strings.Split(strings.TrimSpace(explain), "\n")
		if len(p) != len(e) {
			t.Fatalf("%v: %d records of parse, %d of explain", args, len(p), len(e))
		}
		for i := range p {
			var pj, ej struct{ Error *errorJSON }
			if err := json.Unmarshal([]byte(p[i]), &pj); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(e[i]), &ej); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(pj.Error, ej.Error); diff != "" {
				t.Errorf("%v, line %d: the error of parse (-) and of explain (+):\n%s", args, i+1, diff)
			}
		}
	}
}

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runGen(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCheckDefault(t *testing.T) {
	out, _, code := runGen(t, "", "check")
	if code != 0 {
		t.Fatalf("gen check exit %d\n%s", code, out)
	}
	for _, want := range []string{
		"rules (39):",
		"  URI              grammar/rfc3986.abnf:7:4",
		"  HEXDIG           RFC 5234 B.1:29:10 (core)",
		"possible start rules: URI-reference, absolute-URI, path, reserved",
		"problems:\n  none\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("gen check output lacks %q:\n%s", want, out)
		}
	}
}

func TestCheckErrors(t *testing.T) {
	f := writeFile(t, "bad.abnf", "a = b / \"x\n c = (\nd = a\nd = e\n")
	out, _, code := runGen(t, "", "check", f)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{
		f + ":1:9: error: quoted string not closed on its line",
		f + ":4:1: error: d is already defined at " + f + ":3:1; use =/ to add alternatives, or mark an override",
		f + ":4:5: error: undefined rule e",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("gen check output lacks %q:\n%s", want, out)
		}
	}
}

func TestCheckStart(t *testing.T) {
	out, _, code := runGen(t, "", "check", "-start", "URI")
	if code != 0 || !strings.Contains(out, "warning: relative-ref is unreachable from the start rules (URI)") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestMatch(t *testing.T) {
	in := "http://a/b\n1.2.3.456\n\n[::1]\nhttp://a\r\n{last"
	out, _, code := runGen(t, in, "match", "-rule", "host")
	// Every line is an input, the empty one included; "\r" is input.
	if want := "0\n1\n1\n1\n0\n0\n"; out != want || code != 0 {
		t.Errorf("gen match = %q (exit %d), want %q", out, code, want)
	}
	out, _, _ = runGen(t, "http://a\r\nhttp://a\n", "match", "-rule", "URI")
	if out != "0\n1\n" {
		t.Errorf("trailing CR: got %q", out)
	}
}

func TestMatchLayered(t *testing.T) {
	base := writeFile(t, "base.abnf", "host = name\nname = 1*ALPHA\n")
	ext := writeFile(t, "ext.abnf", "host =/ 1*DIGIT\n")
	out, errs, code := runGen(t, "abc\n123\nab1\n", "match", "-grammar", base, "-grammar", ext, "-rule", "host")
	if out != "1\n1\n0\n" || code != 0 {
		t.Errorf("layered match = %q (exit %d) %s", out, code, errs)
	}
}

func TestSample(t *testing.T) {
	a, _, code := runGen(t, "", "sample", "-rule", "IPv6address", "-n", "50", "-seed", "9")
	b, _, _ := runGen(t, "", "sample", "-rule", "IPv6address", "-n", "50", "-seed", "9")
	if code != 0 || a != b || strings.Count(a, "\n") != 50 {
		t.Fatalf("sample not deterministic or wrong count (exit %d):\n%s", code, a)
	}
	// Every sample matches.
	out, _, _ := runGen(t, a, "match", "-rule", "IPv6address")
	if strings.Contains(out, "0") {
		t.Errorf("a sample does not match:\n%s\n%s", a, out)
	}
	near, _, _ := runGen(t, "", "sample", "-rule", "IPv6address", "-n", "50", "-seed", "9", "-near")
	out, _, _ = runGen(t, near, "match", "-rule", "IPv6address")
	if !strings.Contains(out, "0") {
		t.Errorf("no near-miss fails to match:\n%s", near)
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{
		nil,
		{"nope"},
		{"match"},
		{"match", "-rule", "nope"},
		{"sample"},
		{"check", "-bogus"},
	} {
		if _, _, code := runGen(t, "", args...); code != 2 {
			t.Errorf("gen %v: exit %d, want 2", args, code)
		}
	}
}

package main

import (
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// zeros is an endless input, as /dev/zero is.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.n += int64(len(p))
	return len(p), nil
}

// failWriter fails every write, as a closed standard output does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// TestExitCodes: gen's exit statuses are the uri command's — 0 ok, 1 an
// invalid grammar or input or a limit, 2 a usage error, 3 an I/O error —
// and a limit is one line of error, never a crash.
func TestExitCodes(t *testing.T) {
	sep := writeFile(t, "sep.abnf", "r = \"a\"\"b\"\n")
	ok := writeFile(t, "ok.abnf", "r = 1*\"a\"\n")
	undefined := writeFile(t, "undefined.abnf", "r = x\n")
	prose := writeFile(t, "prose.abnf", "s = \"a\"\nx = <imported, see RFC 1>\n")
	missing := filepath.Join(t.TempDir(), "missing.abnf")
	// "a:" and "a::" end in one DFA state, and in two states of Appendix
	// B's split (after the scheme, in the path).
	colons := writeFile(t, "colons.abnf", "r = 1*(\"a\" / \":\")\n")
	// Ambiguous: the matcher's work grows with the cube of the input's
	// length (192,458 steps on 201 bytes).
	nest := writeFile(t, "nest.abnf", "s = \"v\" *( \";\" s )\n")
	semis := "v" + strings.Repeat(";v", 100) + "\n"
	for _, tt := range []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stderr string // a substring of standard error; "" for none at all
		stdout string // a substring of standard output
	}{
		{"strict reader", []string{"check", sep}, "", 1, "sep.abnf:1:8: error: elements of a concatenation", "sep.abnf:1:8: error: elements of a concatenation must be separated by white space (RFC 5234 §4: concatenation = repetition *(1*c-wsp repetition)): insert a space before quoted string"},
		{"lenient reader", []string{"check", "-lenient", sep}, "", 0, "sep.abnf:1:8: warning: elements of a concatenation must be separated by white space", "sep.abnf:1:8: warning:"},
		{"lenient match", []string{"match", "-lenient", "-grammar", sep, "-rule", "r"}, "ab\nabb\n", 0, "warning:", "1\n0\n"},
		{"strict match", []string{"match", "-grammar", sep, "-rule", "r"}, "ab\n", 1, "insert a space before quoted string", ""},
		{"missing file", []string{"check", missing}, "", 3, "gen check: open " + missing + ": no such file or directory\n", ""},
		{"missing -grammar", []string{"sample", "-grammar", missing, "-rule", "r"}, "", 3, "no such file or directory", ""},
		{"unknown rule", []string{"match", "-grammar", ok, "-rule", "nope"}, "", 1, "gen match: -rule: no rule nope in the grammar\n", ""},
		{"grammar limit", []string{"check", "-max-grammar", "5", ok}, "", 1, "gen check: " + ok + ": the grammar is larger than 5 bytes (-max-grammar raises the limit)\n", ""},
		{"bad grammar limit", []string{"check", "-max-grammar", "0", ok}, "", 2, "-max-grammar must be positive", ""},
		{"bad nesting limit", []string{"check", "-max-nesting", "0", ok}, "", 2, "-max-nesting must be positive", ""},
		{"negative nesting limit", []string{"peg", "-grammar", ok, "-max-nesting", "-3"}, "", 2, "-max-nesting must be positive", ""},
		{"check error", []string{"check", undefined}, "", 1, "undefined.abnf:1:5: error:", "undefined.abnf:1:5: error:"},
		// Prose is an error in the rules the start rules reach, only.
		{"prose reached", []string{"peg", "-grammar", prose}, "", 1, "prose.abnf:2:5: prose value <imported, see RFC 1> has no machine meaning", ""},
		{"prose not reached", []string{"peg", "-grammar", prose, "-start", "s"}, "", 0, "", "E_s"},
		{"prose not reached by match", []string{"match", "-grammar", prose, "-rule", "s"}, "a\nb\n", 0, "", "1\n0\n"},
		{"prose reached by match", []string{"match", "-grammar", prose, "-rule", "x"}, "a\n", 1, "prose value <imported, see RFC 1>", ""},
		{"line limit", []string{"match", "-grammar", ok, "-rule", "r", "-max-line", "3"}, "aaa\naaaa\naa\n", 1, "gen match: line 2: longer than 3 bytes (-max-line raises the limit)\n", "1\n"},
		{"quoted line limit", []string{"match", "-grammar", ok, "-rule", "r", "-max-line", "5", "-quoted"}, "\"aaa\"\n\"aaaa\"\n", 1, "gen match: line 2: longer than 5 bytes", "1\n"},
		{"sample limit", []string{"sample", "-grammar", ok, "-rule", "r", "-n", "50", "-max-line", "1"}, "", 1, "-max-line raises the limit", ""},
		{"bad line limit", []string{"match", "-grammar", ok, "-rule", "r", "-max-line", "-1"}, "", 2, "-max-line must be positive", ""},
		{"match budget", []string{"match", "-grammar", nest, "-rule", "s", "-max-match", "100"}, "v;v\n" + semis, 1, "gen match: line 2: abnf: s on 201 bytes: more than 100000 steps: the matcher's work budget is spent (-max-match raises the limit)\n", "1\n"},
		{"match within budget", []string{"match", "-grammar", nest, "-rule", "s", "-max-match", "200"}, "v;v\n" + semis, 0, "", "1\n1\n"},
		{"bad match budget", []string{"match", "-grammar", nest, "-rule", "s", "-max-match", "0"}, "", 2, "-max-match must be positive", ""},
		{"fidelity -in budget", []string{"fidelity", "-grammar", nest, "-rule", "s", "-in", "-", "-max-match", "100"}, semis, 1, "gen fidelity: line 1: abnf: s on 201 bytes: more than 100000 steps", ""},
		// gen dfa -walk: rules it compiles whose DFA determines Appendix
		// B's split, 8-bit tables and wide ones.
		{"walk", []string{"dfa", "-grammar", ok, "-walk", "r", "-o", filepath.Join(t.TempDir(), "w.go")}, "", 0, "", ""},
		{"walk of no rule", []string{"dfa", "-grammar", ok, "-walk", "nope", "-o", filepath.Join(t.TempDir(), "w.go")}, "", 2, "-walk nope: not a rule gen dfa compiles", ""},
		{"walk of a wide table", []string{"dfa", "-grammar", "rfc3986", "-grammar", "rfc3987", "-start", "IRI-reference", "-walk", "IRI-reference", "-o", filepath.Join(t.TempDir(), "w.go")}, "", 0, "", ""},
		{"walk where the split does not fold", []string{"dfa", "-grammar", colons, "-walk", "r", "-o", filepath.Join(t.TempDir(), "w.go")}, "", 1, "-walk r: dfa: the marker is in states", ""},
		{"usage", []string{"match"}, "", 2, "match needs -rule", ""},
		{"a usage error of gen's own is followed by the command's flags", []string{"check", "-max-nesting", "0", ok}, "", 2, "gen check: -max-nesting must be positive\nUsage of gen check:\n", ""},
		{"help", []string{"help"}, "", 0, "", "usage:"},
		{"help flag", []string{"peg", "-h"}, "", 0, "-package", ""},
		{"no command", nil, "", 2, "usage:", ""},
	} {
		out, errs, code := runGen(t, tt.stdin, tt.args...)
		if code != tt.code || !strings.Contains(errs, tt.stderr) || !strings.Contains(out, tt.stdout) {
			t.Errorf("%s: gen %s: exit %d, want %d\nstdout %q (want %q)\nstderr %q (want %q)", tt.name, strings.Join(tt.args, " "), code, tt.code, out, tt.stdout, errs, tt.stderr)
		}
		if code == 1 && tt.args[0] != "check" && strings.Count(errs, "\n") != 1 && !strings.Contains(tt.name, "strict") {
			t.Errorf("%s: not one line of error: %q", tt.name, errs)
		}
	}
}

// TestEndlessInput: /dev/zero as a grammar or as standard input is an
// error after the limit, one line, exit 1 — not the Go runtime's "out of
// memory" (issue 20, exit 2 then) — and reads no further than the limit.
func TestEndlessInput(t *testing.T) {
	out, errs, code := runGen(t, "", "check", "/dev/zero")
	if want := "gen check: /dev/zero: the grammar is larger than 16777216 bytes (-max-grammar raises the limit)\n"; code != 1 || errs != want || out != "" {
		t.Errorf("gen check /dev/zero: exit %d, stdout %q, stderr %q; want exit 1, %q", code, out, errs, want)
	}
	ok := writeFile(t, "ok.abnf", "r = 1*\"a\"\n")
	for _, quoted := range []bool{false, true} {
		args := []string{"match", "-grammar", ok, "-rule", "r", "-max-line", "1000000"}
		if quoted {
			args = append(args, "-quoted")
		}
		z := &zeros{}
		var outb, errb strings.Builder
		code := run(args, z, &outb, &errb)
		if want := "gen match: line 1: longer than 1000000 bytes (-max-line raises the limit)\n"; code != 1 || errb.String() != want {
			t.Errorf("gen %s < /dev/zero: exit %d, stderr %q; want exit 1, %q", strings.Join(args, " "), code, errb.String(), want)
		}
		if z.n > 1000000+128<<10 {
			t.Errorf("gen %s < /dev/zero read %d bytes, past its line limit of 1000000", strings.Join(args, " "), z.n)
		}
	}
}

// TestWriteError: a closed standard output is an I/O error, exit 3.
func TestWriteError(t *testing.T) {
	var errb strings.Builder
	code := run([]string{"sample", "-rule", "URI", "-n", "100000"}, strings.NewReader(""), failWriter{}, &errb)
	if code != 3 || !strings.Contains(errb.String(), "broken pipe") {
		t.Errorf("gen sample to a failing writer: exit %d, stderr %q; want 3", code, errb.String())
	}
	code = run([]string{"check"}, strings.NewReader(""), failWriter{}, io.Discard)
	if code != 3 {
		t.Errorf("gen check to a failing writer: exit %d, want 3", code)
	}
}

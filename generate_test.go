package rfc3986_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGenerated proves the committed generated files fresh: it copies the
// repository without them, runs "go generate ./..." in the copy — in this
// module and in every module nested in it (examples/urn, whose go.mod
// replaces this one with the copy's root) — and fails on a committed
// generated file that was not regenerated, one that differs from its
// regeneration, and a generated file that is not committed. Generated code
// is never edited by hand and never stale, and every generated file has a
// step in a go:generate line that makes it.
func TestGenerated(t *testing.T) {
	t.Parallel()
	for _, p := range regenerate(t, nil) {
		t.Error(p)
	}
}

// TestGeneratedStepDropped shows that TestGenerated can fail: with one
// generate step removed from generate.go, the file it makes is missing
// from the copy, and that is the one problem found. (Before, TestGenerated
// copied the committed files into its copy first, and passed without the
// "gen dfa" line.) It regenerates everything as TestGenerated does, so it
// runs with RFC3986_FULL=1 (as .ci/run sets it).
func TestGeneratedStepDropped(t *testing.T) {
	if os.Getenv("RFC3986_FULL") == "" {
		t.Skip("regenerates everything again: set RFC3986_FULL=1")
	}
	t.Parallel()
	const (
		step = "//go:generate go run github.com/peguri/rfc3986/gen dfa -grammar rfc3986 -package rfc3986gen -tree parser/internal/rfc3986gen/rfc3986_peg.go -walk URI-reference,URI -o parser/internal/rfc3986gen/rfc3986_dfa.go\n"
		made = "parser/internal/rfc3986gen/rfc3986_dfa.go"
	)
	problems := regenerate(t, func(dir string) {
		path := filepath.Join(dir, "generate.go")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte(step)) {
			t.Fatalf("generate.go has no line %q", step)
		}
		if err := os.WriteFile(path, bytes.Replace(b, []byte(step), nil, 1), 0o666); err != nil {
			t.Fatal(err)
		}
	})
	want := []string{made + ": not regenerated: is its go:generate step missing?"}
	if diff := cmp.Diff(want, problems); diff != "" {
		t.Errorf("problems with the gen dfa step dropped (-want +got):\n%s", diff)
	}
}

// regenerate copies the repository, but for its generated files, into a
// temporary directory, lets edit change the copy, runs go generate in each
// of its modules, and returns what is wrong with the result.
func regenerate(t *testing.T, edit func(dir string)) []string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs gen and pigeon")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	committed, modules, err := copyTree(".", dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(committed, "grammar/uri.peg") || !slices.Contains(committed, "examples/urn/internal/urngen/urn_peg.go") {
		t.Fatalf("generated files found: %v; want grammar/uri.peg, examples/urn/internal/urngen/urn_peg.go and the others", committed)
	}
	if edit != nil {
		edit(dir)
	}
	for _, m := range modules {
		cmd := exec.Command("go", "generate", "./...")
		cmd.Dir = filepath.Join(dir, m)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go generate ./... in %s: %v\n%s", m, err, out)
		}
	}
	var problems []string
	for _, path := range committed {
		want, err := os.ReadFile(filepath.FromSlash(path))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(path)))
		switch {
		case err != nil:
			problems = append(problems, path+": not regenerated: is its go:generate step missing?")
		case !bytes.Equal(got, want):
			problems = append(problems, fmt.Sprintf("%s is stale or hand-edited -- run go generate (-generated +on disk):\n%s", path, cmp.Diff(string(got), string(want))))
		}
	}
	after, _, err := copyTree(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range after {
		if !slices.Contains(committed, path) {
			problems = append(problems, path+": generated, but not committed")
		}
	}
	return problems
}

// copyTree copies the files of the repository at src into dst (if dst is
// not empty), leaving out hidden directories, testdata, and the generated
// files, which go generate must make again. It returns the generated files
// (by their marker) and the directories of its modules, "." first, as
// slash-separated paths relative to src.
func copyTree(src, dst string) (generated, modules []string, err error) {
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); rel != "." && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			if dst == "" {
				return nil
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o777)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if d.Name() == "go.mod" {
			modules = append(modules, filepath.ToSlash(filepath.Dir(rel)))
		}
		if isGenerated(b) {
			generated = append(generated, filepath.ToSlash(rel))
			return nil // left out of the copy
		}
		if dst == "" {
			return nil
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o666)
	})
	slices.Sort(modules) // "." first
	return generated, modules, err
}

// isGenerated reports whether a file carries the generated-code marker
// (go help generate) in its first lines.
func isGenerated(b []byte) bool {
	for _, line := range bytes.SplitN(b, []byte("\n"), 5) {
		if bytes.HasPrefix(line, []byte("// Code generated ")) && bytes.HasSuffix(line, []byte("DO NOT EDIT.")) {
			return true
		}
	}
	return false
}

// TestGeneratedUsesRuntime: the runtime that generated parsers share
// (package syntax) is imported by the generated Go files, never pasted
// into them: no line of its code appears in any of them, and each imports
// it.
func TestGeneratedUsesRuntime(t *testing.T) {
	runtime := map[string]string{} // a line of the runtime's code → its file
	srcs, err := filepath.Glob("syntax/*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range srcs {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		eachCodeLine(t, f, func(line string) {
			// Lines long enough to be the runtime's own, not any Go
			// code's ("return nil, err").
			if len(line) >= 24 {
				runtime[line] = f
			}
		})
	}
	if len(runtime) < 100 {
		t.Fatalf("only %d lines of runtime code found in syntax/*.go", len(runtime))
	}
	generated, _, err := copyTree(".", "")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range generated {
		if !strings.HasSuffix(path, ".go") {
			continue
		}
		n++
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte("\n\t\"github.com/peguri/rfc3986/syntax\"\n")) && !bytes.Contains(b, []byte("\nimport \"github.com/peguri/rfc3986/syntax\"\n")) {
			t.Errorf("%s does not import the runtime, github.com/peguri/rfc3986/syntax", path)
		}
		pasted := 0
		eachCodeLine(t, path, func(line string) {
			if f, ok := runtime[line]; ok {
				if pasted++; pasted <= 3 {
					t.Errorf("%s holds a line of the runtime's %s: %s", path, f, line)
				}
			}
		})
	}
	if n < 8 {
		t.Errorf("only %d generated Go files found, want the PEG and DFA files of rfc3986, rfc6874, rfc3987 and urn", n)
	}
}

// eachCodeLine calls f with every line of a Go file that is code, not
// blank or comment, trimmed of its indentation.
func eachCodeLine(t *testing.T, path string, f func(string)) {
	t.Helper()
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "//") {
			f(line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

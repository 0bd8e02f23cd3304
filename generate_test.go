package rfc3986_test

import (
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
// module without them, runs "go generate ./..." in the copy, and fails on a
// committed generated file that was not regenerated, one that differs
// from its regeneration, and a generated file that is not committed.
// Generated code is never edited by hand and never stale, and every file
// has a go:generate step that makes it.
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
// "gen dfa" line.)
func TestGeneratedStepDropped(t *testing.T) {
	t.Parallel()
	const step = "//go:generate go run ./gen dfa -o parser/rfc3986_dfa.go\n"
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
	want := []string{filepath.FromSlash("parser/rfc3986_dfa.go") + ": not regenerated: is its go:generate step missing?"}
	if diff := cmp.Diff(want, problems); diff != "" {
		t.Errorf("problems with the gen dfa step dropped (-want +got):\n%s", diff)
	}
}

// regenerate copies the module, but for its generated files, into a
// temporary directory, lets edit change the copy, runs go generate there,
// and returns what is wrong with the result.
func regenerate(t *testing.T, edit func(dir string)) []string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs gen and pigeon")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	var generated []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dir, path), 0o777)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if isGenerated(b) {
			generated = append(generated, path) // left out of the copy
			return nil
		}
		return os.WriteFile(filepath.Join(dir, path), b, 0o666)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(generated) < 2 {
		t.Fatalf("found %d generated files, want at least grammar/uri.peg and parser/rfc3986_peg.go", len(generated))
	}
	if edit != nil {
		edit(dir)
	}
	cmd := exec.Command("go", "generate", "./...")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go generate: %v\n%s", err, out)
	}
	var problems []string
	for _, path := range generated {
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, path))
		switch {
		case err != nil:
			problems = append(problems, path+": not regenerated: is its go:generate step missing?")
		case !bytes.Equal(got, want):
			problems = append(problems, fmt.Sprintf("%s is stale or hand-edited -- run go generate (-generated +on disk):\n%s", path, cmp.Diff(string(got), string(want))))
		}
	}
	// A generated file that is not committed.
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if isGenerated(b) && !slices.Contains(generated, rel) {
			problems = append(problems, rel+": generated, but not committed")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return problems
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

package rfc3986_test

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGenerated runs "go generate ./..." in a copy of the module and fails
// if any generated file differs from the committed one: generated code is
// never edited by hand and never stale.
func TestGenerated(t *testing.T) {
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
			generated = append(generated, path)
		}
		return os.WriteFile(filepath.Join(dir, path), b, 0o666)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(generated) < 2 {
		t.Fatalf("found %d generated files, want at least grammar/uri.peg and parser/rfc3986_peg.go", len(generated))
	}
	cmd := exec.Command("go", "generate", "./...")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go generate: %v\n%s", err, out)
	}
	for _, path := range generated {
		want, _ := os.ReadFile(path)
		got, err := os.ReadFile(filepath.Join(dir, path))
		if err != nil {
			t.Errorf("%s: not regenerated: %v", path, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale or hand-edited -- run go generate (-generated +on disk):\n%s", path, cmp.Diff(string(got), string(want)))
		}
	}
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

package repotest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// modulePath is the main module's path.
const modulePath = "github.com/peguri/rfc3986"

// repoRoot is the root of the repository: the main module's directory,
// two levels up from this package.
var repoRoot = sync.OnceValues(func() (string, error) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	if !bytes.HasPrefix(b, []byte("module "+modulePath+"\n")) {
		return "", fmt.Errorf("%s/go.mod is not module %s", root, modulePath)
	}
	return root, nil
})

func root(t *testing.T) string {
	t.Helper()
	r, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// goCommand returns the go command's path, skipping the test when there
// is none (the only reason these tests skip).
func goCommand(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command on $PATH: %v", err)
	}
	return p
}

// command runs name with args in dir and returns its standard output,
// failing the test, with its standard error, when it fails.
func command(t *testing.T, dir string, env []string, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s (in %s): %v\n%s", name, strings.Join(args, " "), dir, err, stderr.Bytes())
	}
	return out
}

// trackedFile is a file in git's index.
type trackedFile struct {
	Path   string // slash-separated, from the repository root
	Mode   string // git's: 100644, 100755, 120000 (symbolic link), 160000 (submodule)
	Object string // the blob's name
}

// tracked lists the files in git's index, skipping the test when the
// repository is not a git work tree (a module zip has no .git).
func tracked(t *testing.T) []trackedFile {
	t.Helper()
	r := root(t)
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skipf("no git command on $PATH: %v", err)
	}
	if err := exec.Command(git, "-C", r, "rev-parse", "--is-inside-work-tree").Run(); err != nil {
		t.Skipf("%s is not a git work tree: %v", r, err)
	}
	var files []trackedFile
	for _, rec := range bytes.Split(command(t, r, nil, git, "ls-files", "--stage", "-z"), []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		// <mode> SP <object> SP <stage> TAB <path>
		meta, path, ok := strings.Cut(string(rec), "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			t.Fatalf("git ls-files --stage: unexpected record %q", rec)
		}
		files = append(files, trackedFile{Path: path, Mode: f[0], Object: f[1]})
	}
	if len(files) == 0 {
		t.Fatal("git ls-files lists no file")
	}
	return files
}

// blobs reads the tracked files' contents from git (what is committed or
// staged, not what the work tree holds), calling fn for each.
func blobs(t *testing.T, files []trackedFile, fn func(f trackedFile, content []byte)) {
	t.Helper()
	cmd := exec.Command("git", "-C", root(t), "cat-file", "--batch")
	var in bytes.Buffer
	for _, f := range files {
		if f.Mode == "160000" { // a submodule's commit, not a blob
			continue
		}
		fmt.Fprintln(&in, f.Object)
	}
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git cat-file --batch: %v", err)
	}
	for _, f := range files {
		if f.Mode == "160000" {
			continue
		}
		// <object> SP <type> SP <size> LF <contents> LF
		header, rest, ok := bytes.Cut(out, []byte{'\n'})
		var obj, typ string
		var size int
		if !ok {
			t.Fatalf("git cat-file --batch: output ends before %s", f.Path)
		}
		if _, err := fmt.Sscanf(string(header), "%s %s %d", &obj, &typ, &size); err != nil || obj != f.Object || typ != "blob" || len(rest) < size+1 {
			t.Fatalf("git cat-file --batch: header %q for %s (%s)", header, f.Path, f.Object)
		}
		fn(f, rest[:size])
		out = rest[size+1:]
	}
}

// pkg is what go list says of a package.
type pkg struct {
	ImportPath                string
	Standard                  bool
	Imports, Deps             []string
	TestImports, XTestImports []string
	Module                    *struct{ Path string }
	Error                     *struct{ Err string }
	DepsErrors                []*struct{ Err string }
}

// goList runs go list -json with args in dir and decodes its packages.
func goList(t *testing.T, dir string, args ...string) []pkg {
	t.Helper()
	out := command(t, dir, []string{"GOFLAGS=", "GOWORK=off"}, goCommand(t), append([]string{"list", "-e", "-json=ImportPath,Standard,Imports,Deps,TestImports,XTestImports,Module,Error"}, args...)...)
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list: %v", err)
		}
		if p.Error != nil {
			t.Errorf("go list: %s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

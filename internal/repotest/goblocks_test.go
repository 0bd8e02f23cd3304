package repotest

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// Every ```go block of README.md and docs/*.md is code a reader will copy,
// so TestGoBlocks compiles and runs each one: as the body of a main
// function, with the imports its package names ask for, in a module that
// requires this one. A block may declare what it likes: each variable it
// declares is also used, so that "declared and not used" never fails a
// block that shows a value in a comment. A block that is a whole file
// (it begins with "package") is compiled as it is.

// blockImports are the packages a block may name, by the name it uses.
var blockImports = map[string]string{
	"rfc3986": "github.com/peguri/rfc3986",
	"parser":  "github.com/peguri/rfc3986/parser",
	"resolve": "github.com/peguri/rfc3986/resolve",
	"explain": "github.com/peguri/rfc3986/explain",
	"rfc3987": "github.com/peguri/rfc3986/parser/rfc3987",
	"rfc6874": "github.com/peguri/rfc3986/parser/rfc6874",
	"abnf":    "github.com/peguri/rfc3986/abnf",
	"fmt":     "fmt",
	"url":     "net/url",
	"netip":   "net/netip",
	"log":     "log",
	"errors":  "errors",
	"strings": "strings",
}

var goFenceRE = regexp.MustCompile("(?ms)^```go\n(.*?)^```")

type goBlock struct {
	file string
	line int
	text string
}

func goBlocks(t *testing.T) []goBlock {
	r := root(t)
	var out []goBlock
	for _, f := range docFiles(t) {
		b, err := os.ReadFile(filepath.Join(r, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range goFenceRE.FindAllSubmatchIndex(b, -1) {
			out = append(out, goBlock{f, bytes.Count(b[:m[0]], []byte("\n")) + 1, string(b[m[2]:m[3]])})
		}
	}
	return out
}

// program makes a main package of a block.
func program(b goBlock) (string, error) {
	if strings.HasPrefix(strings.TrimSpace(b.text), "package ") {
		return b.text, nil
	}
	body := "package main\n\nfunc main() {\n" + b.text + "\n}\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "block.go", body, 0)
	if err != nil {
		return "", fmt.Errorf("%s:%d: the block does not parse as statements: %v", b.file, b.line, err)
	}
	// The variables the block declares, and the packages its selectors
	// name.
	seen, used := map[string]bool{}, map[string]bool{}
	var uses []string
	ast.Inspect(f, func(n ast.Node) bool {
		var ids []*ast.Ident
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, e := range n.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						ids = append(ids, id)
					}
				}
			}
		case *ast.ValueSpec:
			ids = n.Names
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		for _, id := range ids {
			if id.Name != "_" && !seen[id.Name] {
				seen[id.Name] = true
				uses = append(uses, id.Name)
			}
		}
		return true
	})
	var imports []string
	for name, path := range blockImports {
		if used[name] && !seen[name] {
			imports = append(imports, fmt.Sprintf("%s %q", name, path))
		}
	}
	sort.Strings(imports)
	src := "package main\n\nimport (\n\t" + strings.Join(imports, "\n\t") + "\n)\n\nfunc main() {\n" + b.text + "\n}\n"
	return strings.TrimSuffix(src, "}\n") + useLines(uses) + "}\n", nil
}

func useLines(vars []string) string {
	var b strings.Builder
	for _, v := range vars {
		fmt.Fprintf(&b, "\t_ = %s\n", v)
	}
	return b.String()
}

// TestGoBlocks: every ```go block of the documents compiles and runs
// without a panic.
func TestGoBlocks(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds and runs the documents' Go blocks in a new module")
	}
	blocks := goBlocks(t)
	if len(blocks) == 0 {
		t.Fatal("no Go block in README.md or docs/")
	}
	goCmd := goCommand(t)
	dir := t.TempDir()
	env := []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local"}
	command(t, dir, env, goCmd, "mod", "init", "example.com/blocks")
	command(t, dir, env, goCmd, "mod", "edit", "-require", modulePath+"@v0.0.0-00010101000000-000000000000", "-replace", modulePath+"="+root(t))
	for i, b := range blocks {
		src, err := program(b)
		if err != nil {
			t.Error(err)
			continue
		}
		pkg := filepath.Join(dir, fmt.Sprintf("b%d", i))
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkg, "main.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	command(t, dir, env, goCmd, "mod", "tidy")
	for i, b := range blocks {
		t.Run(fmt.Sprintf("%s:%d", b.file, b.line), func(t *testing.T) {
			cmd := fmt.Sprintf("./b%d", i)
			out, err := runGo(dir, env, goCmd, "run", cmd)
			if err != nil {
				t.Errorf("%s:%d: the Go block does not build or run: %v\n%s", b.file, b.line, err, out)
			}
		})
	}
}

// runGo runs the go command in dir, returning its combined output.
func runGo(dir string, env []string, goCmd string, args ...string) ([]byte, error) {
	cmd := exec.Command(goCmd, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	return cmd.CombinedOutput()
}

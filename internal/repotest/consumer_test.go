package repotest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConsumerModule: a module that uses the library, and nothing else,
// gets nothing else from go mod tidy: its go.mod requires this module
// alone (issue 24: a tools.go in the root package once brought pigeon,
// x/tools, x/mod and x/sync to every user). The consumer is then built
// and run, so that what was tidied is what a user compiles.
func TestConsumerModule(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs go mod tidy and go run in a new module")
	}
	goCmd := goCommand(t)
	dir := t.TempDir()
	// The module cache as the user's; the toolchain this one, not one go
	// mod tidy might want to fetch; no go.work, no -mod flag from outside.
	env := []string{"GOFLAGS=", "GOWORK=off", "GOTOOLCHAIN=local"}
	command(t, dir, env, goCmd, "mod", "init", "example.com/consumer")
	command(t, dir, env, goCmd, "mod", "edit", "-require", modulePath+"@v0.0.0-00010101000000-000000000000", "-replace", modulePath+"="+root(t))
	main := `package main

import (
	"fmt"

	"github.com/peguri/rfc3986"
)

func main() {
	u, err := rfc3986.Parse("http://user@[::1]:8080/a?q#f")
	if err != nil {
		panic(err)
	}
	fmt.Println(u.Host(), u.Port())
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	command(t, dir, env, goCmd, "mod", "tidy")

	var mod struct {
		Require []struct {
			Path     string
			Indirect bool
		}
		Tool []struct{ Path string }
	}
	if err := json.Unmarshal(command(t, dir, env, goCmd, "mod", "edit", "-json"), &mod); err != nil {
		t.Fatal(err)
	}
	var reqs []string
	for _, r := range mod.Require {
		reqs = append(reqs, r.Path)
	}
	if strings.Join(reqs, " ") != modulePath || len(mod.Tool) != 0 {
		gomod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
		t.Errorf("after go mod tidy, a module that imports %s alone requires %q and has tools %v; want %s alone. Its go.mod:\n%s", modulePath, reqs, mod.Tool, modulePath, gomod)
	}
	if sum, err := os.ReadFile(filepath.Join(dir, "go.sum")); err == nil {
		t.Logf("go.sum (hashes the module graph needed, not requirements):\n%s", sum)
	}
	if out := string(command(t, dir, env, goCmd, "run", ".")); out != "[::1] 8080\n" {
		t.Errorf("the consumer printed %q", out)
	}
}

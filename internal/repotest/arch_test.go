package repotest

import (
	"strings"
	"testing"
)

// underPath reports whether import path p is dir or a package under it
// (dir relative to the module: "" is the root package).
func underPath(p, dir string) bool {
	d := modulePath
	if dir != "" {
		d += "/" + dir
	}
	return p == d || strings.HasPrefix(p, d+"/")
}

// archRule is one "never" of docs/ARCHITECTURE.md.
type archRule struct {
	name string
	// of: the packages the rule binds (import paths of the main module).
	of func(p string) bool
	// never: an import they must not have, directly or through another.
	never func(imp string) bool
	// tests: the rule binds their tests' imports too.
	tests bool
}

var archRules = []archRule{
	{
		name: "the runtime (syntax) and what a user imports (parser, resolve, the root package) never import gen/...",
		of: func(p string) bool {
			return p == modulePath || underPath(p, "syntax") || underPath(p, "parser") || underPath(p, "resolve")
		},
		never: func(imp string) bool { return underPath(imp, "gen") },
	},
	{
		name:  "parser never imports resolve (resolution is built on the parser, not the reverse)",
		of:    func(p string) bool { return underPath(p, "parser") },
		never: func(imp string) bool { return underPath(imp, "resolve") },
	},
	{
		name:  "no package outside cmd/ imports cmd/... (commands are leaves)",
		of:    func(p string) bool { return !underPath(p, "cmd") },
		never: func(imp string) bool { return underPath(imp, "cmd") },
		tests: true,
	},
	{
		name:  "no package outside gen/ imports gen/... (the generator is a command; the playground, its own module, is the one exception)",
		of:    func(p string) bool { return !underPath(p, "gen") },
		never: func(imp string) bool { return underPath(imp, "gen") },
		tests: true,
	},
	{
		name:  "no package imports a module but the standard library and this one (go-cmp is for tests; go-abnf is required only by the temporary module TestRealGrammars generates; pigeon is a go.mod tool)",
		of:    func(p string) bool { return true },
		never: nil, // checked with go list's Standard flag
	},
}

// TestArchitecture enforces archRules on every package of the main module
// (go list ./...; matrix, playground and examples/urn are modules of their
// own), with go list -deps: an import through another package counts.
func TestArchitecture(t *testing.T) {
	pkgs := goList(t, root(t), "-deps", "./...")
	std := map[string]bool{}
	var ours []pkg
	for _, p := range pkgs {
		switch {
		case p.Standard:
			std[p.ImportPath] = true
		case p.Module != nil && p.Module.Path == modulePath:
			ours = append(ours, p)
		}
	}
	if len(ours) < 10 {
		t.Fatalf("go list -deps ./... names %d packages of %s", len(ours), modulePath)
	}
	for _, r := range archRules {
		for _, p := range ours {
			if !r.of(p.ImportPath) {
				continue
			}
			var bad []string
			for _, d := range p.Deps {
				if r.never == nil && !std[d] && !underPath(d, "") || r.never != nil && r.never(d) {
					bad = append(bad, d)
				}
			}
			if len(bad) > 0 {
				t.Errorf("%s imports %s: %s", p.ImportPath, strings.Join(bad, ", "), r.name)
			}
			if !r.tests || r.never == nil {
				continue
			}
			bad = nil
			for _, d := range append(p.TestImports, p.XTestImports...) {
				if r.never(d) {
					bad = append(bad, d)
				}
			}
			if len(bad) > 0 {
				t.Errorf("tests of %s import %s: %s", p.ImportPath, strings.Join(bad, ", "), r.name)
			}
		}
	}
}

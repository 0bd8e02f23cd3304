package repotest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// docFiles are the documents checked: README.md and every .md under docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	r := root(t)
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(r, "docs"), func(p string, e os.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return filepath.SkipDir
			}
			return err
		}
		if !e.IsDir() && strings.HasSuffix(p, ".md") {
			rel, err := filepath.Rel(r, p)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// docs parses Markdown files of the repository by path, once each.
type docs struct {
	t    *testing.T
	root string
	read map[string]*mdDoc
}

func (ds *docs) get(file string) *mdDoc {
	if d, ok := ds.read[file]; ok {
		return d
	}
	b, err := os.ReadFile(filepath.Join(ds.root, filepath.FromSlash(file)))
	if err != nil {
		ds.t.Fatal(err)
	}
	d := parseMarkdown(file, string(b))
	ds.read[file] = d
	return d
}

var schemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// lineAnchorRE: GitHub's anchors for lines of a file that is not Markdown.
var lineAnchorRE = regexp.MustCompile(`^L[0-9]+(-L[0-9]+)?$`)

// checkLink says why a link of doc does not resolve: dest is a path
// relative to doc (or, with a leading "/", to the repository's root) that
// names a tracked file or a folder holding one, and its #fragment, if
// any, is an anchor of that Markdown file, or a line of another file.
// Links with a scheme, and network-path references (//host/…), are not
// checked: they leave the repository.
func checkLink(ds *docs, exists func(p string) bool, doc *mdDoc, dest string) error {
	if schemeRE.MatchString(dest) || strings.HasPrefix(dest, "//") {
		return nil
	}
	p, frag, _ := strings.Cut(dest, "#")
	p, _, _ = strings.Cut(p, "?")
	p, err := url.PathUnescape(p)
	if err != nil {
		return err
	}
	target := doc.path
	switch {
	case strings.HasPrefix(p, "/"):
		target = path.Clean(strings.TrimPrefix(p, "/"))
	case p != "":
		target = path.Join(path.Dir(doc.path), p)
	}
	if target == ".." || strings.HasPrefix(target, "../") {
		return fmt.Errorf("%s is outside the repository", target)
	}
	if !exists(target) {
		return fmt.Errorf("%s is not a file of the repository", target)
	}
	if frag == "" {
		return nil
	}
	if frag, err = url.PathUnescape(frag); err != nil {
		return err
	}
	if !strings.HasSuffix(target, ".md") || !exists(target) {
		if lineAnchorRE.MatchString(frag) {
			return nil
		}
		return fmt.Errorf("#%s: %s is not Markdown, so it has no anchors but lines (#L12)", frag, target)
	}
	if !ds.get(target).anchors[frag] {
		return fmt.Errorf("%s has no heading whose anchor is #%s (GitHub's anchors: lower case, spaces to -, punctuation dropped but - and _)", target, frag)
	}
	return nil
}

// TestDocLinks: every relative link of README.md and docs/*.md names a
// file (or folder) the repository tracks, and every #anchor a heading of
// the Markdown file it points into.
func TestDocLinks(t *testing.T) {
	r := root(t)
	exists := trackedSet(t)
	ds := &docs{t: t, root: r, read: map[string]*mdDoc{}}
	var n int
	for _, f := range docFiles(t) {
		d := ds.get(f)
		for _, l := range d.links {
			n++
			if err := checkLink(ds, exists, d, l.dest); err != nil {
				t.Errorf("%s:%d: link %q: %v", f, l.line, l.dest, err)
			}
		}
	}
	t.Logf("%d links checked", n)
}

// trackedSet reports whether a path is a tracked file, or a folder that
// holds one; without git (a module zip), whether it exists.
func trackedSet(t *testing.T) func(p string) bool {
	r := root(t)
	if _, err := exec.LookPath("git"); err != nil || exec.Command("git", "-C", r, "rev-parse", "--is-inside-work-tree").Run() != nil {
		return func(p string) bool {
			_, err := os.Stat(filepath.Join(r, filepath.FromSlash(p)))
			return err == nil
		}
	}
	set := map[string]bool{}
	for _, f := range tracked(t) {
		set[f.Path] = true
		for d := path.Dir(f.Path); d != "."; d = path.Dir(d) {
			set[d] = true
		}
	}
	set["."] = true
	return func(p string) bool { return set[p] }
}

// TestLinkCheck: what checkLink accepts and refuses, on a small
// repository of its own.
func TestLinkCheck(t *testing.T) {
	files := map[string]string{
		"README.md":    "# rfc3986\n\n## The parser\n\n## `uri` JSON\n\n## Resolution, normalization, comparison\n\n## The parser\n\nSetext heading\n--------------\n\n<a id=\"custom\"></a>\n",
		"docs/gen.md":  "# gen: the translation\n\n## Go's URI libraries, and 3.2.2\n\n### Étape für Übung\n",
		"docs/img.png": "",
		"go.mod":       "",
	}
	ds := &docs{t: t, read: map[string]*mdDoc{}}
	for f, text := range files {
		ds.read[f] = parseMarkdown(f, text)
	}
	exists := func(p string) bool {
		if _, ok := files[p]; ok {
			return true
		}
		for f := range files {
			if strings.HasPrefix(f, p+"/") {
				return true
			}
		}
		return false
	}
	readme, gen := ds.read["README.md"], ds.read["docs/gen.md"]
	for _, tc := range []struct {
		doc  *mdDoc
		dest string
		ok   bool
	}{
		{readme, "#the-parser", true},
		{readme, "#the-parser-1", true}, // the second heading of that name
		{readme, "#the-parser-2", false},
		{readme, "#uri-json", true},
		{readme, "#resolution-normalization-comparison", true},
		{readme, "#setext-heading", true},
		{readme, "#custom", true},
		{readme, "#The-Parser", false},
		{readme, "#nowhere", false},
		{readme, "docs/gen.md", true},
		{readme, "docs/gen.md#gen-the-translation", true},
		{readme, "docs/gen.md#gos-uri-libraries-and-322", true},
		{readme, "docs/gen.md#étape-für-übung", true},
		{readme, "docs/gen.md#%C3%A9tape-f%C3%BCr-%C3%BCbung", true},
		{readme, "docs/gen.md#the-parser", false},
		{readme, "docs/img.png", true},
		{readme, "docs/img.png#L3", true},
		{readme, "docs/img.png#top", false},
		{readme, "docs", true},
		{readme, "docs/", true},
		{readme, "docs/missing.md", false},
		{readme, "./go.mod", true},
		{readme, "https://www.rfc-editor.org/rfc/rfc3986#section-3", true},
		{readme, "mailto:someone@example.com", true},
		{gen, "../README.md#the-parser", true},
		{gen, "../README.md#gen", false},
		{gen, "/README.md", true},
		{gen, "../../outside.md", false},
		{gen, "#gen-the-translation", true},
		{gen, "img.png", true},
	} {
		err := checkLink(ds, exists, tc.doc, tc.dest)
		if (err == nil) != tc.ok {
			t.Errorf("%s: link %q: %v, want ok %v", tc.doc.path, tc.dest, err, tc.ok)
		}
	}
}

func TestParseMarkdown(t *testing.T) {
	text := "# Title\n" +
		"See [the gen page](docs/gen.md#flags), ![shot](docs/a.png \"title\") and <a href=\"LICENSE\">the licence</a>.\n" +
		"Not a link: `[x](nowhere.md)`, nor ``a ` [y](nor.md)``.\n" +
		"Nor is `<!-- run: exit 1 -->` a marker, or text <!-- run: exit 2 --> after text.\n" +
		"[ref]: <testdata/README.md>\n" +
		"\n" +
		"```go\n" +
		"x := a[i](b) // [z](code.md)\n" +
		"<!-- run: exit 1 -->\n" +
		"```\n" +
		"\n" +
		"<!-- run: in a temp dir; exit 3; needs git (says \"hello\", then fails) -->\n" +
		"\n" +
		"```sh\n" +
		"echo hello\n" +
		"exit 3\n" +
		"```\n" +
		"<!-- run: -->\n" +
		"~~~~bash\n" +
		"echo '```'\n" +
		"~~~~\n"
	d := parseMarkdown("x.md", text)
	if len(d.errs) != 0 {
		t.Errorf("errors: %q", d.errs)
	}
	var dests []string
	for _, l := range d.links {
		dests = append(dests, l.dest)
	}
	if diff := cmp.Diff([]string{"docs/gen.md#flags", "docs/a.png", "testdata/README.md", "LICENSE"}, dests, cmp.Transformer("sort", func(s []string) []string { s = slices.Clone(s); sort.Strings(s); return s })); diff != "" {
		t.Errorf("links (-want +got):\n%s", diff)
	}
	want := []runBlock{
		{file: "x.md", line: 12, where: inTempDir, exit: 3, needs: []string{"git"}, note: `says "hello", then fails`, text: "echo hello\nexit 3\n"},
		{file: "x.md", line: 18, where: inRepository, text: "echo '```'\n"},
	}
	if diff := cmp.Diff(want, d.blocks, cmp.AllowUnexported(runBlock{})); diff != "" {
		t.Errorf("blocks (-want +got):\n%s", diff)
	}

	for _, tc := range []struct{ text, err string }{
		{"<!-- run: in a tmp dir -->\n```sh\ntrue\n```\n", `unknown option "in a tmp dir"`},
		{"<!-- run: exit 256 -->\n```sh\ntrue\n```\n", "0 to 255"},
		{"<!-- run: exit 1; exit 2 -->\n```sh\ntrue\n```\n", "already 1"},
		{"<!-- run: in a temp dir; in the repository -->\n```sh\ntrue\n```\n", "already"},
		{"<!-- run: needs a b -->\n```sh\ntrue\n```\n", "needs names one command"},
		{"<!-- run: (unclosed -->\n```sh\ntrue\n```\n", "does not end"},
		{"<!-- run: -->\nSome text.\n```sh\ntrue\n```\n", "followed by a fenced sh block"},
		{"<!-- run: -->\n```go\npackage x\n```\n", `"go" block`},
		{"<!-- run: -->\n", "followed by no block"},
		{"<!-- run: -->\n```sh\ntrue\n", "not closed"},
		{"<!--run exit 1-->\n```sh\ntrue\n```\n", "looks like a run marker"},
		{"<!-- run: in a fresh module -->\n```sh\ngo mod tidy\n```\n", "exactly one line starting \"go mod init \""},
	} {
		d := parseMarkdown("x.md", tc.text)
		if len(d.errs) != 1 || !strings.Contains(d.errs[0], tc.err) {
			t.Errorf("%q: errors %q, want one with %q", tc.text, d.errs, tc.err)
		}
	}
}

// TestRunMarkers: every run marker of README.md and docs/*.md parses and
// is followed by a fenced shell block (TestRunDocs runs them).
func TestRunMarkers(t *testing.T) {
	ds := &docs{t: t, root: root(t), read: map[string]*mdDoc{}}
	var n int
	for _, f := range docFiles(t) {
		d := ds.get(f)
		for _, e := range d.errs {
			t.Error(e)
		}
		n += len(d.blocks)
	}
	if n == 0 {
		t.Error("no block of README.md or docs/*.md is marked runnable: the recipe is (<!-- run: in a fresh module -->)")
	}
	t.Logf("%d blocks marked runnable", n)
}

// TestRunDocs runs every block marked runnable in README.md and docs/*.md
// (.ci/run docs; .ci/run recipe runs those in a fresh module alone) when
// RFC3986_RUN_DOCS=1, and checks its exit status. Their output goes to
// the test's standard output.
func TestRunDocs(t *testing.T) {
	if os.Getenv("RFC3986_RUN_DOCS") != "1" {
		t.Skip("RFC3986_RUN_DOCS=1 runs the blocks marked runnable (.ci/run docs)")
	}
	r := root(t)
	ds := &docs{t: t, root: r, read: map[string]*mdDoc{}}
	for _, f := range docFiles(t) {
		for _, b := range ds.get(f).blocks {
			t.Run(b.name(), func(t *testing.T) {
				fmt.Printf("== %s\n", b.name())
				if err := b.run(t.Context(), r, t.TempDir(), os.Stdout); err != nil {
					t.Error(err)
				}
			})
		}
	}
}

// run runs the block from root, or in tmp, as its marker says, writing
// its output to out.
func (b runBlock) run(ctx context.Context, root, tmp string, out io.Writer) error {
	for _, c := range b.needs {
		if _, err := exec.LookPath(c); err != nil {
			return fmt.Errorf("%s needs %s: %v", b.name(), c, err)
		}
	}
	script, dir := b.text, root
	switch b.where {
	case inTempDir:
		dir = tmp
	case inFreshMod:
		dir = tmp
		// The module is not published: after "go mod init", a replace to
		// the clone (and nothing else is added).
		var s strings.Builder
		for _, line := range strings.SplitAfter(b.text, "\n") {
			s.WriteString(line)
			if strings.HasPrefix(line, "go mod init ") {
				fmt.Fprintf(&s, "go mod edit -replace %s=%s\n", modulePath, root)
			}
		}
		script = s.String()
	}
	cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", script)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = out, out
	err := cmd.Run()
	var ee *exec.ExitError
	code := 0
	switch {
	case errors.As(err, &ee) && ee.Exited():
		code = ee.ExitCode()
	case err != nil:
		return fmt.Errorf("%s: %v", b.name(), err)
	}
	if code != b.exit {
		return fmt.Errorf("%s: exit status %d, want %d (in %s)", b.name(), code, b.exit, dir)
	}
	return nil
}

// TestRunBlock: the runner's places and exit statuses, on blocks of its
// own.
func TestRunBlock(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skipf("no bash: %v", err)
	}
	r := root(t)
	for _, tc := range []struct {
		name string
		b    runBlock
		out  string // a line the output has
		err  string // "" for none
	}{
		{"repository", runBlock{where: inRepository, text: "test -f go.mod && pwd\n"}, r + "\n", ""},
		{"temp dir", runBlock{where: inTempDir, text: "test ! -e go.mod && ls -A | wc -l\n"}, "0\n", ""},
		{"exit 3", runBlock{where: inRepository, exit: 3, text: "echo before\nexit 3\necho after\n"}, "before\n", ""},
		{"exit 3 expected, 0 got", runBlock{where: inRepository, exit: 3, text: "true\n"}, "", "exit status 0, want 3"},
		{"-e: the first failure ends it", runBlock{where: inRepository, text: "false\necho unreached\n"}, "", "exit status 1, want 0"},
		{"pipefail", runBlock{where: inRepository, text: "false | cat\n"}, "", "exit status 1, want 0"},
		{"needs", runBlock{where: inRepository, needs: []string{"no-such-command-rfc3986"}, text: "true\n"}, "", "needs no-such-command-rfc3986"},
		{"fresh module", runBlock{where: inFreshMod, text: "mkdir m && cd m\ngo mod init example.com/m\ngo mod edit -json | grep -c '\"Path\": \"" + r + "\"'\n"}, "1\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.b.where == inFreshMod {
				goCommand(t)
			}
			tc.b.file, tc.b.line = "test.md", 1
			var out bytes.Buffer
			err := tc.b.run(t.Context(), r, t.TempDir(), &out)
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("error %v, want %q", err, tc.err)
			}
			if !strings.Contains(out.String(), tc.out) || strings.Contains(out.String(), "unreached") || strings.Contains(out.String(), "after") {
				t.Errorf("output %q, want a line %q", out.String(), tc.out)
			}
		})
	}
}

package resolve_test

import (
	"os"
	"strings"
	"testing"

	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/resolve"
)

// Resolve makes an RFC 3986 target's URI from the components it wrote,
// without parsing the text back (see build in resolve.go); these tests
// hold every such URI to the parse of its text (ResolveChecked).

// checkShortcut resolves ref against base in both modes, with and without
// the parse of the target, and fails unless both give the same URI, or
// both an error.
func checkShortcut(t *testing.T, base, ref parser.URI) {
	t.Helper()
	for _, mode := range []resolve.Mode{resolve.Strict, resolve.NonStrict} {
		got, err := resolve.Resolve(base, ref, mode)
		want, werr := resolve.ResolveChecked(base, ref, mode)
		if (err == nil) != (werr == nil) {
			t.Fatalf("%q against %q (%v): error %v, with the parse %v", ref, base, mode, err, werr)
		}
		if got != want {
			t.Fatalf("%q against %q (%v): the target is %q, %#v (%v); parsed, %q, %#v (%v)", ref, base, mode,
				got, got.Parts(), got.HostKind(), want, want.Parts(), want.HostKind())
		}
	}
}

// shortcutBases are bases with and without an authority, with and without
// "/" in their paths, and with every part an authority can have.
var shortcutBases = append([]string{
	"a:", "a:/", "a://", "a:///", "a:b/c", "a:/b//c", "a:.//b", "a://h", "a://h/", "a://u@h:1/p/q",
	"a://u:p@[::1]:/p", "a://[v9.z]/p/", "a://1.2.3.4:5/x/y", "a://%41@h:8/", "a:b:c/d", "a:?q#f",
}, propertyBases...)

// shortcutRefs are references that take every branch of §5.2.2, and
// paths that the guard must take care of.
var shortcutRefs = append([]string{
	"", ".", "..", "./", "../", "/", "//", "///", "//h", "//u@h:1", "//[::1]:80/x", ".//g", "..//g", "/.//g",
	"/..//g", "g//", "./g:h", "g:h", "a:", "a:b", "a://x/../..//y", "a:/..//y", "a:.//y", "?", "#", "?q#f",
	"/%2E%2E//x", "g?//x#//y", "../../../../", "b/..//c", "./..//.",
}, propertyRefs()...)

// TestResolveShortcut runs every base of shortcutBases and propertyBases,
// and the bench corpus's URIs, against every reference of shortcutRefs,
// propertyRefs and the bench corpus.
func TestResolveShortcut(t *testing.T) {
	data, err := os.ReadFile("../testdata/bench-corpus.txt")
	if err != nil {
		t.Fatal(err)
	}
	corpus := strings.Split(strings.TrimSpace(string(data)), "\n")
	var bases, refs []parser.URI
	for _, s := range append(shortcutBases, corpus...) {
		if u, err := parser.ParseReference(s); err == nil && u.HasScheme() {
			bases = append(bases, u)
		}
	}
	for _, s := range append(shortcutRefs, corpus...) {
		if u, err := parser.ParseReference(s); err == nil {
			refs = append(refs, u)
		}
	}
	for _, b := range bases {
		for _, r := range refs {
			checkShortcut(t, b, r)
		}
	}
	t.Logf("%d bases × %d references", len(bases), len(refs))
}

// FuzzResolveShortcut is TestResolveShortcut on any base and reference.
func FuzzResolveShortcut(f *testing.F) {
	for i, b := range shortcutBases {
		for j, r := range shortcutRefs {
			if (i+j)%5 == 0 {
				f.Add(b, r)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b, r string) {
		base, err := parser.ParseReference(b)
		if err != nil || !base.HasScheme() {
			return
		}
		ref, err := parser.ParseReference(r)
		if err != nil {
			return
		}
		checkShortcut(t, base, ref)
	})
}

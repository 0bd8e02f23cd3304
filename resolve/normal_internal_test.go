package resolve

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/parser"
)

// alreadyNormalCases are inputs at the edges of each of alreadyNormal's
// conditions, in and out of normal form.
var alreadyNormalCases = []string{
	"", "a", "../g", "../..", "../../g", "a/../b", "./a", "a/.", "/a/./b", "/a/../b", "/..", "..",
	"http://a", "http://a/", "http://a:80/", "http://a:/", "http://a:8080", "HTTP://a/", "http://A/",
	"http://a/%7e", "http://a/%7E", "http://a/%41", "http://a/%2f", "http://a/%2F", "foo://a", "foo://a:80",
	"ftp://h:021/", "http://[::1]/", "http://[::A]/", "mailto:x@Y", "urn:a:B", "//a", "//a:80/", "?q", "#f",
	"http://u@a:443/", "https://a:443/", "ws://a:0080/x", "g;x=1/../y", "a//b/..", "http://%41/",
}

// TestAlreadyNormal checks alreadyNormal against normalizeParts on the
// edge cases and the conformance corpora's valid references: when it says
// a URI is normal, normalizing its components changes nothing, for every
// subset of the Default steps.
func TestAlreadyNormal(t *testing.T) {
	inputs := append([]string(nil), alreadyNormalCases...)
	for _, name := range []string{"bench-corpus.txt"} {
		data, err := os.ReadFile("../testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, strings.Split(strings.TrimSpace(string(data)), "\n")...)
	}
	normal := 0
	for _, s := range inputs {
		normal += checkAlreadyNormal(t, s)
	}
	if normal == 0 {
		t.Error("no input was found normal")
	}
}

// checkAlreadyNormal checks alreadyNormal on s (if it parses), and
// returns how many step sets it found s normal under.
func checkAlreadyNormal(t *testing.T, s string) int {
	u, err := parser.ParseReference(s)
	if err != nil {
		return 0
	}
	normal := 0
	for steps := Steps(0); steps <= NormalizeDefault; steps++ {
		if steps&^NormalizeDefault != 0 || !alreadyNormal(u, steps, defaultSchemes) {
			continue
		}
		normal++
		p := u.Parts()
		np := normalizeParts(p, u.HostKind(), steps, defaultSchemes, true)
		if diff := cmp.Diff(p, np); diff != "" {
			t.Errorf("%q, %v: alreadyNormal, but normalizing changes it (-in +out):\n%s", s, steps, diff)
		}
	}
	return normal
}

// FuzzAlreadyNormal is TestAlreadyNormal on any input.
func FuzzAlreadyNormal(f *testing.F) {
	for _, s := range alreadyNormalCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkAlreadyNormal(t, s) })
}

// FuzzDotSegments holds the two ways of finding a dot segment in a path,
// from "." to "." with IndexByte (hasDotSegment) and byte by byte
// (dotSegmentShort), to the definition: a segment, between slashes, that
// is "." or "..".
func FuzzDotSegments(f *testing.F) {
	for _, s := range []string{"", ".", "..", "...", "/.", "/..", "./", "../", "a/.", "a/..", "a/./b", ".a", "a.", "/a./b",
		"index.html", "/a/b/c/./../../g", strings.Repeat("/segment", 8) + "/..", strings.Repeat("a.b/", 12) + ".c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		want := slices.ContainsFunc(strings.Split(p, "/"), func(s string) bool { return s == "." || s == ".." })
		if got := dotSegmentShort(p); got != want {
			t.Errorf("dotSegmentShort(%q) = %v, want %v", p, got, want)
		}
		if got := hasDotSegment(p); got != want {
			t.Errorf("hasDotSegment(%q) = %v, want %v", p, got, want)
		}
	})
}

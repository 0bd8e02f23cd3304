package abnf_test

import (
	"math/bits"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/abnf"
)

var checkTests = []struct {
	src   string
	start []string
	want  []string
}{
	{"r = \"a\"\n", nil, nil},
	// Issue 9: left recursion is accepted, so it is a note.
	{"r = r \"a\" / \"b\"\n", nil, []string{
		"t.abnf:1:1: note: left recursion: r can reach itself without consuming input (rules: r); the matcher and the sampler take it, gen peg rewrites it",
		"t.abnf:1:1: note: recursion: r is recursive (rules: r); the DFA back end compiles it only where the recursion is regular (no self-embedding)",
	}},
	{"a = [\"x\"] b\nb = *\"y\" a \"z\" / \"w\"\n", nil, []string{
		"t.abnf:1:1: warning: every rule is referenced by another, so there is no evident start rule; name one",
		"t.abnf:1:1: note: left recursion: a can reach itself without consuming input (rules: a, b); the matcher and the sampler take it, gen peg rewrites it",
		"t.abnf:1:1: note: recursion: a is recursive (rules: a, b); the DFA back end compiles it only where the recursion is regular (no self-embedding)",
	}},
	// Issue 9 (IMAP): left recursion off the start rule's path is not
	// reported at all.
	{"r = \"a\"\nt = \"y\" / t \" \" t\n", []string{"r"}, []string{
		"t.abnf:2:1: note: recursion: t is recursive (rules: t); the DFA back end compiles it only where the recursion is regular (no self-embedding)",
		"t.abnf:2:1: warning: t is unreachable from the start rules (r)",
	}},
	{"r = \"a\"\nt = \"y\" / t \" \" t\n", []string{"t"}, []string{
		"t.abnf:1:1: warning: r is unreachable from the start rules (t)",
		"t.abnf:2:1: note: left recursion: t can reach itself without consuming input (rules: t); the matcher and the sampler take it, gen peg rewrites it",
		"t.abnf:2:1: note: recursion: t is recursive (rules: t); the DFA back end compiles it only where the recursion is regular (no self-embedding)",
	}},
	// Issue 9: shortest strings beyond ShortestLimit (2^20 bytes), with
	// saturating arithmetic.
	{"s = 65536(65536\"a\")\n", nil, []string{
		"t.abnf:1:1: warning: s: its shortest string is " + bytes4G + " bytes, above the 1048576 that samples and automata take",
	}},
	{"s = 60000\"abcdefghijklmnopqrstuvwxyzabcdefghijkl\"\n", nil, []string{
		"t.abnf:1:1: warning: s: its shortest string is 2280000 bytes, above the 1048576 that samples and automata take",
	}},
	// Lengths are in bytes: U+00E9 takes two in UTF-8.
	{"s = 1024(1024%xE9)\n", nil, []string{
		"t.abnf:1:1: warning: s: its shortest string is 2097152 bytes, above the 1048576 that samples and automata take",
	}},
	{"s = 65536(65536(65536(65536(65536\"a\"))))\n", nil, []string{
		"t.abnf:1:1: warning: s: its shortest string is " + saturatedString + " bytes, above the 1048576 that samples and automata take",
	}},
	{"s = 1024\"a\" 1024(1023\"b\")\n", nil, nil}, // 1,048,576 bytes: at the limit
	{"s = 1025\"a\" 1024(1023\"b\")\n", nil, []string{
		"t.abnf:1:1: warning: s: its shortest string is 1048577 bytes, above the 1048576 that samples and automata take",
	}},
	{"r = \"(\" r \")\" / \"x\"\n", nil, []string{
		"t.abnf:1:1: note: recursion: r is recursive (rules: r); the DFA back end compiles it only where the recursion is regular (no self-embedding)",
	}},
	{"r = \"x\" r\n", nil, []string{
		"t.abnf:1:1: note: recursion: r is recursive (rules: r); the DFA back end compiles it only where the recursion is regular (no self-embedding)",
		"t.abnf:1:1: error: r derives no finite string: every alternative needs r again",
	}},
	{"r = *( [\"a\"] \"\" )\n", nil, []string{
		`t.abnf:1:5: warning: repetition body ["a"] "" can match the empty string; a PEG would loop on it (gen rewrites it)`,
	}},
	{"r = 2*5( *\"a\" )\n", nil, []string{
		`t.abnf:1:5: warning: repetition body *"a" can match the empty string; a PEG would loop on it (gen rewrites it)`,
	}},
	{"r = [ *\"a\" ]\n", nil, nil}, // an option may be nullable: it is not a loop
	{"r = a\na = \"a\"\nb = \"b\"\nc = b\n", []string{"r"}, []string{
		"t.abnf:3:1: warning: b is unreachable from the start rules (r)",
		"t.abnf:4:1: warning: c is unreachable from the start rules (r)",
	}},
	{"r = \"a\"\n", []string{"nope"}, []string{
		"error: start rule nope is not defined",
	}},
	// Isolated cycles are unreachable even from the default start rules.
	{"r = \"a\"\nx = \"(\" y \")\"\ny = x / \"\"\n", nil, []string{
		"t.abnf:2:1: note: recursion: x is recursive (rules: x, y); the DFA back end compiles it only where the recursion is regular (no self-embedding)",
		"t.abnf:2:1: warning: x is unreachable from the start rules (r)",
		"t.abnf:3:1: warning: y is unreachable from the start rules (r)",
	}},
}

func TestCheck(t *testing.T) {
	for _, tt := range checkTests {
		g, err := abnf.ReadString("t.abnf", tt.src)
		if err != nil {
			t.Fatalf("%q: %v", tt.src, err)
		}
		var got []string
		for _, p := range abnf.Check(g, tt.start) {
			got = append(got, p.String())
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Check(%q) (-want +got):\n%s", tt.src, diff)
		}
	}
}

func TestCheckRFC3986(t *testing.T) {
	g := rfc3986(t)
	if ps := abnf.Check(g, nil); len(ps) != 0 {
		t.Errorf("Appendix A problems: %v", ps)
	}
	var roots []string
	for _, r := range abnf.Roots(g) {
		roots = append(roots, r.Name)
	}
	want := []string{"URI-reference", "absolute-URI", "path", "reserved"}
	if diff := cmp.Diff(want, roots); diff != "" {
		t.Errorf("roots (-want +got):\n%s", diff)
	}
	ps := abnf.Check(g, []string{"URI-reference"})
	var got []string
	for _, p := range ps {
		got = append(got, p.Msg)
	}
	want = []string{
		"absolute-URI is unreachable from the start rules (URI-reference)",
		"path is unreachable from the start rules (URI-reference)",
		"reserved is unreachable from the start rules (URI-reference)",
		"gen-delims is unreachable from the start rules (URI-reference)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("unreachable from URI-reference (-want +got):\n%s", diff)
	}
}

// How lengths read where they saturate: at 2^62 on 64-bit platforms, at
// 2^30 on 32-bit ones, where 4 GiB is past it. (Values, not an init
// function: the test tables that use them are initialized first.)
var (
	saturatedString = map[int]string{64: "more than 2^62", 32: "more than 2^30"}[bits.UintSize]
	bytes4G         = map[int]string{64: "4294967296", 32: "more than 2^30"}[bits.UintSize]
)

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestIDsStable: the committed ledger gives every case of the suite its
// id, and has lost no line: the numbers of each prefix are 1 to N, as an
// append-only ledger leaves them (a line taken out leaves a gap, and its
// number would be given again).
func TestIDsStable(t *testing.T) {
	l, err := readLedger("ids.txt", false)
	if err != nil {
		t.Fatal(err)
	}
	nums := map[string][]int{}
	for _, x := range l.lines {
		prefix, n, err := splitID(x.id)
		if err != nil {
			t.Fatal(err)
		}
		nums[prefix] = append(nums[prefix], n)
	}
	for prefix, ns := range nums {
		slices.Sort(ns)
		for i, n := range ns {
			if n != i+1 {
				t.Errorf("ids.txt: %s%d is missing (the numbers of %s are %d to %d, %d of them): a line was taken out", prefix, i+1, prefix, ns[0], ns[len(ns)-1], len(ns))
				break
			}
		}
	}
	s := load(t)
	ids := suiteIDs(s)
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Errorf("%s: two cases", id)
		}
		seen[id] = true
	}
	for _, id := range ids {
		if !l.ids[id] {
			t.Errorf("%s: not in ids.txt", id)
		}
	}
}

// TestIDsAssigned: ids follow their cases, not their places. A case
// added in front takes the next number of its prefix, a case taken out
// keeps its number from being given again, and one question asked by two
// provenances is two cases.
func TestIDsAssigned(t *testing.T) {
	rfc := Provenance{Kind: "rfc", Ref: "§5.4.1"}
	corpus := Provenance{Kind: "corpus", Source: "testdata/conformance/x.jsonl", Origin: "x.go:1"}
	res := func(ref string, p Provenance) Resolution {
		return Resolution{Base: "http://a/b/c/d;p?q", Reference: ref, Mode: "strict", Provenance: p}
	}
	val := func(rule, in string) Validity {
		return Validity{Rule: rule, Input: in, Provenance: Provenance{Kind: "boundary"}}
	}
	// positional numbers them as the builders do before stableIDs.
	positional := func(s *Suite) {
		count := map[string]int{}
		for i := range s.Validity {
			count[s.Validity[i].Rule]++
			s.Validity[i].ID = fmt.Sprintf("validity/%s/%d", s.Validity[i].Rule, count[s.Validity[i].Rule])
		}
		for i := range s.Resolution {
			s.Resolution[i].ID = fmt.Sprintf("resolution/%d", i+1)
		}
	}
	ids := func(s *Suite) []string {
		var out []string
		for _, c := range s.Validity {
			out = append(out, c.ID)
		}
		for _, c := range s.Resolution {
			out = append(out, c.ID)
		}
		return out
	}
	path := filepath.Join(t.TempDir(), "ids.txt")
	l, err := readLedger(path, true) // none yet: empty
	if err != nil {
		t.Fatal(err)
	}
	v1 := &Suite{
		Validity:   []Validity{val("URI", "a:b"), val("URI", "a:"), val("scheme", "a")},
		Resolution: []Resolution{res("g", rfc), res("../g", rfc), res("../g", corpus)},
	}
	positional(v1)
	if err := stableIDs(v1, l); err != nil {
		t.Fatal(err)
	}
	want := []string{"validity/URI/1", "validity/URI/2", "validity/scheme/1", "resolution/1", "resolution/2", "resolution/3"}
	if diff := cmp.Diff(want, ids(v1)); diff != "" {
		t.Errorf("version 1 (-want +got):\n%s", diff)
	}
	// Version 2 reads version 1's ledger, as the file.
	if err := writeFile(path, l.bytes()); err != nil {
		t.Fatal(err)
	}
	if l, err = readLedger(path, false); err != nil {
		t.Fatal(err)
	}
	v2 := &Suite{
		// A case in front, one taken out (URI "a:"), the rest moved.
		Validity:   []Validity{val("URI", "b:c"), val("scheme", "a"), val("URI", "a:b"), val("URI", "c:")},
		Resolution: []Resolution{res("../g", corpus), res("h", rfc), res("g", rfc)},
	}
	positional(v2)
	if err := stableIDs(v2, l); err != nil {
		t.Fatal(err)
	}
	want = []string{"validity/URI/3", "validity/scheme/1", "validity/URI/1", "validity/URI/4", "resolution/3", "resolution/4", "resolution/1"}
	if diff := cmp.Diff(want, ids(v2)); diff != "" {
		t.Errorf("version 2 (-want +got):\n%s", diff)
	}
	// The ledger kept version 1's lines, in their order, then the new.
	var got []string
	for _, x := range l.lines {
		got = append(got, x.id)
	}
	want = []string{"validity/URI/1", "validity/URI/2", "validity/scheme/1", "resolution/1", "resolution/2", "resolution/3", "validity/URI/3", "validity/URI/4", "resolution/4"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ledger (-want +got):\n%s", diff)
	}
}

// TestIDsBySection: one key in two sections (the same input and
// provenance as a components case and a removeDotSegments case) is two
// cases with ids of their own sections; one key twice in a section is an
// error, since only the cases' order could tell them apart.
func TestIDsBySection(t *testing.T) {
	written := Provenance{Kind: "written"}
	l, err := readLedger(filepath.Join(t.TempDir(), "ids.txt"), true)
	if err != nil {
		t.Fatal(err)
	}
	s := &Suite{
		Components:        []Components{{ID: "components/1", Input: "/a/./b", Provenance: written}},
		RemoveDotSegments: []DotSegments{{ID: "removeDotSegments/1", Input: "/a/./b", Provenance: written}},
	}
	if err := stableIDs(s, l); err != nil {
		t.Fatal(err)
	}
	if got := []string{s.Components[0].ID, s.RemoveDotSegments[0].ID}; got[0] != "components/1" || got[1] != "removeDotSegments/1" {
		t.Errorf("ids %q, want [components/1 removeDotSegments/1]", got)
	}
	s.Components = append(s.Components, Components{ID: "components/2", Input: "/a/./b", Provenance: written})
	if err := stableIDs(s, l); err == nil {
		t.Error("two components cases with one key: no error")
	}
}

// TestLedgerRefuses: a ledger that gives one id twice, or two ids to one
// case, or an id without a number, or no ledger (but with -init), is an
// error, not a guess.
func TestLedgerRefuses(t *testing.T) {
	if _, err := readLedger(filepath.Join(t.TempDir(), "none.txt"), false); err == nil {
		t.Error("a missing ledger: no error")
	}
	for _, text := range []string{
		"resolution/1 \"g\" rfc\nresolution/1 \"h\" rfc\n",
		"resolution/1 \"g\" rfc\nresolution/2 \"g\" rfc\n",
		"resolution/x \"g\" rfc\n",
		"resolution/01 \"g\" rfc\n",
		"resolution/+1 \"g\" rfc\n",
		"resolution/1\n",
	} {
		path := filepath.Join(t.TempDir(), "ids.txt")
		if err := writeFile(path, []byte(text)); err != nil {
			t.Fatal(err)
		}
		if _, err := readLedger(path, false); err == nil {
			t.Errorf("%q: no error", text)
		}
	}
}

func writeFile(path string, b []byte) error { return os.WriteFile(path, b, 0o644) }

// suiteIDs are the ids of every case of s.
func suiteIDs(s *Suite) []string {
	var ids []string
	for _, c := range s.Validity {
		ids = append(ids, c.ID)
	}
	for _, c := range s.Components {
		ids = append(ids, c.ID)
	}
	for _, c := range s.Resolution {
		ids = append(ids, c.ID)
	}
	for _, c := range s.RemoveDotSegments {
		ids = append(ids, c.ID)
	}
	for _, c := range s.Normalization {
		ids = append(ids, c.ID)
	}
	for _, c := range s.Equivalence {
		ids = append(ids, c.ID)
	}
	for _, c := range s.Encoding {
		ids = append(ids, c.ID)
	}
	for _, c := range s.Decoding {
		ids = append(ids, c.ID)
	}
	for _, c := range s.Building {
		ids = append(ids, c.ID)
	}
	return ids
}

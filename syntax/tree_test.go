package syntax_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/syntax"
)

func TestCapture(t *testing.T) {
	a := &syntax.Node{Rule: "a", Start: 0, End: 1}
	b := &syntax.Node{Rule: "b", Start: 1, End: 2}
	c := &syntax.Node{Rule: "c", Start: 2, End: 3}
	for _, tt := range []struct {
		name string
		v    any
		kids []*syntax.Node
	}{
		{"no value: a rule of terminals", nil, nil},
		{"text: pigeon's value of a literal", []byte("x"), nil},
		{"one node", a, []*syntax.Node{a}},
		{"nested sequences, in order", []any{a, []any{[]byte("-"), b, []any{c}}}, []*syntax.Node{a, b, c}},
		{"an option that did not match", []any{nil, a}, []*syntax.Node{a}},
	} {
		got := syntax.Capture("r", 0, 3, tt.v)
		want := &syntax.Node{Rule: "r", Start: 0, End: 3, Kids: tt.kids}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: Capture (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestFold: list = list "," item / item, rewritten as a seed (item) and
// steps ("," item), folds back into the left-nested tree.
func TestFold(t *testing.T) {
	item := func(s, e int) *syntax.Node { return &syntax.Node{Rule: "item", Start: s, End: e} }
	seed := syntax.Capture("list", 0, 1, item(0, 1)) // "a"
	step1 := syntax.Extend("list", 4, []any{[]byte(","), item(2, 4)})
	step2 := syntax.Extend("list", 6, []any{[]byte(","), item(5, 6)})
	got := syntax.Fold("list", 0, 6, []any{seed, []any{step1, step2}}) // "a,bc,d"
	want := &syntax.Node{Rule: "list", Start: 0, End: 6, Kids: []*syntax.Node{
		{Rule: "list", Start: 0, End: 4, Kids: []*syntax.Node{
			{Rule: "list", Start: 0, End: 1, Kids: []*syntax.Node{item(0, 1)}},
			item(2, 4),
		}},
		item(5, 6),
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Fold (-want +got):\n%s", diff)
	}
	// No steps: the seed's node is the rule's.
	if got := syntax.Fold("list", 0, 1, []any{seed, []any{}}); got != seed {
		t.Errorf("Fold of a seed alone = %+v, want the seed's node", got)
	}
	// A value of another shape (its node ends elsewhere) is captured as
	// is, so that a tree is always built.
	got = syntax.Fold("list", 0, 9, []any{seed})
	want = &syntax.Node{Rule: "list", Start: 0, End: 9, Kids: []*syntax.Node{seed}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Fold of a short value (-want +got):\n%s", diff)
	}
}

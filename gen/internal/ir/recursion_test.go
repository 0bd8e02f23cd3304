package ir_test

import (
	"testing"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/internal/ir"
)

func TestRecursion(t *testing.T) {
	for _, tc := range []struct {
		name, grammar string
		want          string // "" none, "right", "left", "self", "tail loop" (self-embedding, TailLoop)
	}{
		{"none", "s = a \"x\"\na = \"y\"\n", ""},
		{"tail", "ldh-str = let-dig-hyp / let-dig-hyp ldh-str\nlet-dig-hyp = ALPHA / DIGIT / \"-\"\n", "right"},
		{"mutual tail", "a = \"x\" b / \"z\"\nb = \"y\" a\n", "right"},
		{"nested", "c = \"(\" *c \")\"\n", "self"},
		{"option tail", "a = \"x\" [a]\n", "right"},
		{"loop", "a = *(\"x\" a) \"y\"\n", "self"},
		{"regular but self-embedding", "t = \"y\" *(\" \" t)\n", "tail loop"},
		{"RFC 3501's sequence-set", "sequence-set = (seq-number / seq-range) *(\",\" sequence-set)\nseq-range = seq-number \":\" seq-number\nseq-number = 1*DIGIT / \"*\"\n", "tail loop"},
		{"a tail loop alone", "t = *(\"x\" t)\n", "tail loop"},
		{"a tail loop and another reference", "t = \"y\" [t] *(\" \" t)\n", "self"},
		{"not at the end of the loop", "t = \"y\" *(t \" \")\n", "self"},
		{"not at the end of the rule", "t = \"y\" *(\" \" t) \";\"\n", "self"},
		{"one alternative", "t = \"y\" *(\" \" t) / \"z\"\n", "self"},
		{"at least once", "t = \"y\" 1*(\" \" t)\n", "self"},
		{"bounded", "t = \"y\" 0*3(\" \" t)\n", "self"},
		{"two rules", "a = \"x\" *(\",\" b)\nb = \"y\" *(\";\" a)\n", "self"},
	} {
		g, err := abnf.ReadString(tc.name, tc.grammar)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		lg, err := ir.Lower(g, ir.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		comps, _ := lg.Recursion()
		got := ""
		if len(comps) > 0 {
			switch c := comps[0]; {
			case c.TailLoop:
				got = "tail loop"
			case c.SelfEmbedding:
				got = "self"
			case c.Left:
				got = "left"
			default:
				got = "right"
			}
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

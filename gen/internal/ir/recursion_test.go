package ir_test

import (
	"testing"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/internal/ir"
)

func TestRecursion(t *testing.T) {
	for _, tc := range []struct {
		name, grammar string
		want          string // "" none, "right", "left", "self"
	}{
		{"none", "s = a \"x\"\na = \"y\"\n", ""},
		{"tail", "ldh-str = let-dig-hyp / let-dig-hyp ldh-str\nlet-dig-hyp = ALPHA / DIGIT / \"-\"\n", "right"},
		{"mutual tail", "a = \"x\" b / \"z\"\nb = \"y\" a\n", "right"},
		{"nested", "c = \"(\" *c \")\"\n", "self"},
		{"option tail", "a = \"x\" [a]\n", "right"},
		{"loop", "a = *(\"x\" a) \"y\"\n", "self"},
		{"regular but self-embedding", "t = \"y\" *(\" \" t)\n", "self"},
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

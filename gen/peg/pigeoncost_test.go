package peg

import (
	"strings"
	"testing"

	"github.com/peguri/rfc3986/abnf"
)

// TestPigeonCost: bytes weighted by 2 to the groups around them that no
// suffix follows (pigeon reads each such group twice), code and comments
// as pigeon reads them, labels × code blocks per rule.
func TestPigeonCost(t *testing.T) {
	for _, tc := range []struct {
		peg   string
		rules []ruleCost
	}{
		// "R <-", then ` "a"` and the line's end.
		{"R <- \"a\"\n", []ruleCost{{name: "R", cost: 4 + 5}}},
		// Within the group, the 9 bytes and its ")" count twice.
		{"R <- (\"a\" / \"b\")\n", []ruleCost{{name: "R", cost: 4 + 2 + 2*10 + 1, depth: 1}}},
		// Suffixed, it counts once.
		{"R <- (\"a\" / \"b\")*\n", []ruleCost{{name: "R", cost: 4 + 14}}},
		// Nested: 4 levels of ( … ) cost 2^4 for the innermost.
		{"R <- ((((\"a\"))))\n", []ruleCost{{name: "R", cost: 4 + 1 + (1 + 2 + 4 + 8) + 16*3 + (16 + 8 + 4 + 2) + 1, depth: 4}}},
		// Labels and code blocks: two of each, four more units; the
		// comment and the strings' parentheses and braces are nothing.
		{"// R = (x\nR \"r\" <- v:(p:\"(\" &{ return p != nil, nil }) {\n\treturn v, nil\n}\n",
			[]ruleCost{{name: "R", depth: 1, labels: 2, blocks: 2, cost: 100}}},
	} {
		_, rules := pigeonCost([]byte(tc.peg))
		if len(rules) != len(tc.rules) {
			t.Errorf("%q: %+v, want %+v", tc.peg, rules, tc.rules)
			continue
		}
		for i := range rules {
			if rules[i] != tc.rules[i] {
				t.Errorf("%q: %+v, want %+v", tc.peg, rules[i], tc.rules[i])
			}
		}
	}
}

// TestPigeonLimit: a translation pigeon would take too long on is refused,
// naming the costliest rule and the measure.
func TestPigeonLimit(t *testing.T) {
	g, err := abnf.ReadString("t.abnf", "r = \"x\" ( \"a\" ( \"b\" / \"c\" ( \"d\" / \"e\" ) ) / \"f\" )\n")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Translate(g, Options{Start: []string{"r"}, Witnesses: -1, MaxPigeon: 100})
	if err == nil || !strings.Contains(err.Error(), "more than the limit of 100 (-max-pigeon raises it), in ") || !strings.Contains(err.Error(), "; its costliest rule, r, costs") || !strings.Contains(err.Error(), "groups nested 3 deep") {
		t.Errorf("Translate: %v", err)
	}
	if _, err := Translate(g, Options{Start: []string{"r"}, Witnesses: -1}); err != nil {
		t.Errorf("Translate with the default limit: %v", err)
	}
}

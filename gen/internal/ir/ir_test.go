package ir_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/internal/ir"
)

// TestLower pins the shapes lowering produces, one construct per case. The
// languages are checked elsewhere: gen/peg's tests run every translation
// (which starts with Lower) against the exact matcher.
func TestLower(t *testing.T) {
	tests := []struct {
		name, src string
		rules     []string // "name flags: body"; flags: c captured, s char set (inlined), n nullable, d derived
		rewrites  []string // "rule kind"
	}{
		{"single characters fold into one class (RFC 5234 §2.3: quoted strings are case-insensitive)",
			"a = \"x\" / \"y\" / %x30-39\n",
			[]string{"a s: [0-9X-Yx-y]"}, []string{"a fold"}},
		{"bounded repetition expands into copies and nested options",
			"a = 2*3\"x\"\n",
			[]string{"a c: [Xx] [Xx] [Xx]?"}, []string{"a expand"}},
		{"a nullable loop body is replaced by its non-empty part",
			"a = *( [\"x\"] )\n",
			[]string{"a cn: [Xx]*"}, []string{"a nonempty"}},
		{"a nullable rule under a loop gets a derived non-empty rule",
			"a = *b \"z\"\nb = [\"x\"] [\"y\"]\n",
			[]string{"a c: b* [Zz]", "b cn: [Xx]? [Yy]?", "b cd: [Xx] [Yy]? / [Yy]"}, []string{"a nonempty"}},
		{"an uncaptured character-set rule is inlined",
			"a = c \"x\"\nc = \"q\" / \"r\"\n",
			[]string{"a c: [Q-Rq-r] [Xx]", "c s: [Q-Rq-r]"}, []string{"c fold"}},
		{"RFC 7405 case-sensitive strings stay literal",
			"a = %s\"Ab\" / \"cD\"\n",
			[]string{`a c: "Ab" / [Cc] [Dd]`}, nil},
		{"values above %x7F are code points",
			"a = %x100-10FFFF\n",
			[]string{`a s: [\u0100-\U0010FFFF]`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := abnf.ReadString("t.abnf", tt.src)
			if err != nil {
				t.Fatal(err)
			}
			lg, err := ir.Lower(g, ir.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var rules, rewrites []string
			for _, r := range lg.Rules {
				flags := ""
				for _, f := range []struct {
					on bool
					c  string
				}{{r.Capture, "c"}, {r.CharSet, "s"}, {r.Nullable, "n"}, {r.NonEmpty != nil, "d"}} {
					if f.on {
						flags += f.c
					}
				}
				rules = append(rules, fmt.Sprintf("%s %s: %s", r.Name, flags, ir.Format(r.Body)))
			}
			for _, rw := range lg.Rewrites {
				rewrites = append(rewrites, rw.Rule+" "+rw.Kind)
			}
			if diff := cmp.Diff(tt.rules, rules); diff != "" {
				t.Errorf("rules (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.rewrites, rewrites); diff != "" {
				t.Errorf("rewrites (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCapture: Options.Capture decides the tree nodes, and an uncaptured
// rule that is not a character set is still a rule.
func TestCapture(t *testing.T) {
	g, err := abnf.ReadString("t.abnf", "a = b b\nb = \"x\" \"y\"\n")
	if err != nil {
		t.Fatal(err)
	}
	lg, err := ir.Lower(g, ir.Options{Capture: func(n string) bool { return n == "a" }})
	if err != nil {
		t.Fatal(err)
	}
	if r := lg.Rule("b"); r == nil || r.Capture {
		t.Errorf("b: %+v, want an uncaptured rule", r)
	}
	if r := lg.Rule("A"); r == nil || !r.Capture {
		t.Errorf("A (rule names are case-insensitive): %+v, want the captured rule a", r)
	}
}

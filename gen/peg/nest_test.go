package peg

import (
	"strconv"
	"strings"
	"testing"

	"github.com/peguri/rfc3986/abnf"
)

// TestNestChecks: every cycle of references among the emitted rules
// passes through a rule that starts with the depth check (nestCall), so
// that pigeon's rule stack cannot grow without one; and the glue's limit
// is RuleNesting of the deepest nesting of a rule's expressions. On the
// recursive grammars of testdata/grammars and on shapes written for the
// check: mutual recursion, right recursion, left recursion (rewritten),
// hidden left recursion, a chain of precedence levels, nested repetitions.
func TestNestChecks(t *testing.T) {
	if testing.Short() {
		t.Skip("translates the real grammars")
	}
	var chain strings.Builder
	for i := 1; i <= 16; i++ {
		chain.WriteString("e" + strconv.Itoa(i) + " = e" + strconv.Itoa(i+1) + " *(\"" + string(rune('a'+i)) + "\" e" + strconv.Itoa(i+1) + ")\n")
	}
	chain.WriteString("e17 = \"(\" e1 \")\" / \"x\"\n")
	for _, tc := range []struct {
		name, file, src, start string
		none                   bool // no cycle
	}{
		{name: "json", file: "rfc8259-json.abnf", start: "JSON-text"},
		{name: "expr-postfix", file: "expr-postfix.abnf", start: "expression"},
		{name: "leftrec-postfix", file: "leftrec-postfix.abnf", start: "e"},
		{name: "rfc5322 message", file: "rfc5322.abnf", start: "message"},
		{name: "rfc5322 address-list", file: "rfc5322.abnf", start: "address-list"},
		{name: "cddl", file: "rfc8610-cddl.abnf", start: "cddl"},
		{name: "abnf", file: "rfc5234.abnf", start: "rulelist"},
		{name: "http Via", file: "rfc7230.abnf", start: "Via"},
		{name: "mutual", src: "c = \"(\" d \")\" / \"x\"\nd = \"<\" c \">\" / \"y\"\n", start: "c"},
		{name: "right", src: "l = i [ \",\" l ]\ni = 1*ALPHA\n", start: "l"},
		// Rewritten into iteration: no cycle, no check.
		{name: "left", src: "l = l \",\" i / i\ni = 1*ALPHA\n", start: "l", none: true},
		{name: "hidden left", src: "s = b s \"x\" / \"y\"\nb = *\"b\"\n", start: "s"},
		{name: "chain", src: chain.String(), start: "e1"},
		{name: "nested repetitions", src: "s = \"(\" " + strings.Repeat("*( ", 30) + "s" + strings.Repeat(" )", 30) + " \")\" / \"x\"\n", start: "s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var g *abnf.Grammar
			var err error
			if tc.file != "" {
				g, err = abnf.ReadFiles([]string{"../../testdata/grammars/" + tc.file}, nil)
			} else {
				g, err = abnf.ReadString(tc.name+".abnf", tc.src)
			}
			if err != nil {
				t.Fatal(err)
			}
			res, err := Translate(g, Options{Start: []string{tc.start}, Witnesses: -1})
			if err != nil {
				t.Fatal(err)
			}
			prog, err := loadPEG(string(res.PEG))
			if err != nil {
				t.Fatal(err)
			}
			checked := map[string]bool{}
			depth := 0
			for name, x := range prog.rules {
				if s, ok := x.(*pSeq); ok && len(s.items) > 0 {
					if c, ok := s.items[0].(*pCode); ok && c.op == "Nest" {
						checked[name] = true
					}
				}
				depth = max(depth, exprDepth(x))
			}
			// Without the checked rules, the references have no cycle:
			// peel off rules that reference no remaining rule.
			refs := map[string]map[string]bool{}
			for name, x := range prog.rules {
				if checked[name] {
					continue
				}
				refs[name] = map[string]bool{}
				walkP(x, func(e pexpr) {
					if r, ok := e.(*pRef); ok && prog.rules[r.name] != nil && !checked[r.name] {
						refs[name][r.name] = true
					}
				})
			}
			for changed := true; changed; {
				changed = false
				for name, rs := range refs {
					live := false
					for r := range rs {
						if _, ok := refs[r]; ok {
							live = true
							break
						}
					}
					if !live {
						delete(refs, name)
						changed = true
					}
				}
			}
			if len(refs) > 0 {
				var names []string
				for n := range refs {
					names = append(names, n)
				}
				t.Errorf("a cycle without a check, among (or leading to it): %v", names)
			}
			if (len(checked) == 0) != tc.none {
				t.Fatalf("%d rules check the depth, want some: %v", len(checked), !tc.none)
			}
			if tc.none {
				if strings.Contains(string(res.PEG), "nest(") {
					t.Error("a grammar without cycles has the depth check's glue")
				}
				return
			}
			// The glue's limit follows the deepest rule (the loaded rules
			// include the check's own sequence, one level more).
			want := "syntax.RuleNesting(" + strconv.Itoa(res.exprDepth) + ")"
			if !strings.Contains(string(res.PEG), want) || res.exprDepth < depth-1 {
				t.Errorf("the glue's limit: want %s, rules nest %d deep", want, depth)
			}
			t.Logf("%d rules, %d checked, expressions %d deep", len(prog.rules), len(checked), res.exprDepth)
		})
	}
}

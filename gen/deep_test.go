package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/peg"
	"github.com/peguri/rfc3986/syntax"
)

// deepMain parses, for each argument "open mid close n", the input open×n
// + mid + close×n as the start rule of the grammar, with ParseRule's budget
// (10,000 + 150 a byte), and prints the verdict.
const deepMain = `package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/peguri/rfc3986/syntax"
)

func main() {
	g, err := syntax.NewGrammar("g", PEG(), nil)
	if err != nil {
		panic(err)
	}
	start := os.Args[1]
	for _, a := range os.Args[2:] {
		f := strings.Split(a, " ")
		n, _ := strconv.Atoi(f[3])
		in := strings.Repeat(f[0], n) + f[1] + strings.Repeat(f[2], n)
		_, fail := g.Parse(start, []byte(in), uint64(10000+150*len(in)))
		if fail == nil {
			fmt.Printf("%d ok\n", n)
			continue
		}
		fmt.Printf("%d %d %q %s\n", n, fail.Offset, fail.Expected, fail.Msg)
	}
}
`

// TestDeepNesting: pigeon's parser and the exact recognizer's search
// recurse as the input nests, and a goroutine whose stack runs out dies of
// a fatal error (Go's stack limit), which no recover catches. Input that
// nests deeper than syntax.MaxRuleNesting rules gets syntax.ErrDepth, from
// the check gen peg writes at the start of each recursive rule (pigeon's
// rule stack) or from the guide (its own recursion, and the guided rules
// it is told about); input within it parses. Each grammar here, before the
// checks, killed the process: a recursive grammar without a guide at
// 300,000 levels, a chain of 17 rules per level at 30,000 within
// ParseRule's 64 KiB (512 MiB of stack), and expr-postfix.abnf's
// expression, guided, at 23,464 parentheses (47 KB) in the guide's search;
// and, with a check that counted rules alone, a rule of 30 nested
// repetitions at 32,000.
func TestDeepNesting(t *testing.T) {
	if testing.Short() {
		t.Skip("builds parsers with pigeon")
	}
	var chain strings.Builder
	ops := ",=?|&^<>+-*/%!~@"
	for i := 1; i <= 16; i++ {
		fmt.Fprintf(&chain, "e%d = e%d *(%q e%d)\n", i, i+1, ops[i-1:i], i+1)
	}
	chain.WriteString("e17 = \"(\" e1 \")\" / \"x\"\n")
	exprPostfix, err := os.ReadFile("../testdata/grammars/expr-postfix.abnf")
	if err != nil {
		t.Fatal(err)
	}
	// A rule whose expressions nest deep takes more of pigeon's stack
	// for each invocation: 30 nested repetitions around the recursion,
	// 32,000 deep (64,001 bytes, within ParseRule's limit), overflowed the
	// stack when the check counted rules alone (syntax.RuleNesting).
	nested := "s = \"(\" " + strings.Repeat("*( ", 30) + "s" + strings.Repeat(" )", 30) + " \")\" / \"x\"\n"
	depth := fmt.Sprint(syntax.ErrDepth)
	for _, tt := range []struct {
		name, src, start string
		guided           bool
		open, mid, close string
		ok, deep         []int // repetitions that parse, and that are too deep
	}{
		// No decision left to the guide: only the rules' check bounds it.
		{"unguided", "c = \"(\" d \")\" / \"x\"\nd = \"<\" c \">\" / \"y\"\n", "c", false, "(<", "x", ">)", []int{10000}, []int{40000, 300000}},
		{"chain of 17 rules", chain.String(), "e1", false, "(", "x", ")", []int{1000}, []int{30000}},
		{"guided", string(exprPostfix), "expression", true, "(", "x", ")", []int{1000}, []int{30000}},
		{"30 nested repetitions", nested, "s", true, "(", "x", ")", nil, []int{32000}},
		// The guide's search recurses once per token it follows: a list
		// as long as ParseRule allows (64 KiB) is within its bound.
		{"a long list", string(exprPostfix), "expression", true, "x,", "x", "", []int{32000}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g, err := abnf.ReadString("g.abnf", tt.src)
			if err != nil {
				t.Fatal(err)
			}
			res, err := peg.Translate(g, peg.Options{Start: []string{tt.start}, Package: "main", Witnesses: -1})
			if err != nil {
				t.Fatal(err)
			}
			if guided := strings.Contains(string(res.PEG), "Enter("); guided != tt.guided {
				t.Fatalf("the PEG asks the guide: %v; the test needs another grammar", guided)
			}
			args := []string{tt.start}
			for _, n := range append(append([]int{}, tt.ok...), tt.deep...) {
				args = append(args, fmt.Sprintf("%s %s %s %d", tt.open, tt.mid, tt.close, n))
			}
			out := runPigeon(t, res.PEG, deepMain, args...)
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if len(lines) != len(tt.ok)+len(tt.deep) {
				t.Fatalf("output:\n%s", out)
			}
			for i, line := range lines {
				if i < len(tt.ok) {
					if want := fmt.Sprintf("%d ok", tt.ok[i]); line != want {
						t.Errorf("got %q, want %q", line, want)
					}
				} else if !strings.HasSuffix(line, depth) {
					t.Errorf("got %q, want %q", line, depth)
				}
			}
			t.Logf("\n%s", out)
		})
	}
}

// deepTreeMain asks, for each argument n, for the tree of "a," × n + "a"
// as rule l (syntax.Grammar.Tree: the generated tree function, or pigeon
// where it gives up), with a budget that does not stop it, and prints the
// verdict.
const deepTreeMain = `package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/peguri/rfc3986/syntax"
)

func main() {
	g, err := syntax.NewGrammar("g", PEG(), DFA())
	if err != nil {
		panic(err)
	}
	fmt.Println(g.HasTree("l"))
	for _, a := range os.Args[1:] {
		n, _ := strconv.Atoi(a)
		in := strings.Repeat("a,", n) + "a"
		if _, f := g.Tree("l", []byte(in), 1<<40); f != nil {
			fmt.Printf("%d %d %s\n", n, f.Offset, f.Msg)
		} else {
			fmt.Printf("%d ok\n", n)
		}
	}
}
`

// TestDeepTree: the tree functions of gen dfa -tree recurse as their
// rules do (l = i [ "," l ], right recursion, is regular and gets one),
// one frame per item here; syntax.Grammar.Tree, which has no length limit
// of its own, takes a list of 5,000,000 items (10 MB): the function's
// frames stop at their bound (TreeParser.Nest), and pigeon, which Tree
// then asks, at its own (ErrDepth). A list of 10,000 items gets the
// function's tree.
func TestDeepTree(t *testing.T) {
	if testing.Short() {
		t.Skip("builds parsers with pigeon")
	}
	file := writeFile(t, "list.abnf", "l = i [ \",\" l ]\ni = 1*ALPHA\n")
	out := runTreeMain(t, file, deepTreeMain, []string{"10000", "5000000"}, "-diagnostics=false")
	want := "true\n10000 ok\n5000000 "
	if !strings.HasPrefix(out, want) || !strings.HasSuffix(strings.TrimSpace(out), fmt.Sprint(syntax.ErrDepth)) {
		t.Errorf("got\n%s\nwant %q…, then %v", out, want, syntax.ErrDepth)
	}
	t.Logf("\n%s", out)
}

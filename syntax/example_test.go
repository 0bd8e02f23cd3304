package syntax_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/peguri/rfc3986/syntax"
)

// mismatch stands for pigeon's unexported parser error in ExampleNewGrammar.
type mismatch struct {
	at       int
	expected []string
}

func (m mismatch) Error() string { return fmt.Sprintf("no match at %d", m.at) }

// digitsPEG is what gen peg and pigeon generate for `digits = 1*DIGIT` —
// the PEG function of the generated package — written by hand: pigeon's
// Parse from an entrypoint, and a reader of its errors.
func digitsPEG() *syntax.PEG {
	return &syntax.PEG{
		Entries: map[string]string{"digits": "E_digits"},
		Default: "digits",
		Parse: func(entry string, text []byte, maxExpr uint64, _ *syntax.Guide) (any, error) {
			for i, c := range text {
				if c < '0' || c > '9' {
					return nil, mismatch{i, []string{"[0-9]"}}
				}
			}
			if len(text) == 0 {
				return nil, mismatch{0, []string{"[0-9]"}}
			}
			return syntax.Capture("digits", 0, len(text), nil), nil
		},
		Errors: func(err error) []syntax.PEGError {
			var m mismatch
			if !errors.As(err, &m) {
				return nil
			}
			return []syntax.PEGError{{Err: err, Offset: m.at, Expected: m.expected, Inner: err}}
		},
		InvalidEncoding: errors.New("invalid encoding"),
		MaxExpressions:  errors.New("max number of expressions parsed"),
	}
}

func ExampleNewGrammar() {
	peg := digitsPEG() // gen peg and pigeon's output for digits = 1*DIGIT, by hand
	g, err := syntax.NewGrammar("digits", peg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Rules(), g.DefaultRule())
	n, _ := g.Parse("digits", []byte("123"), 1000)
	fmt.Println(n.Rule, n.Start, n.End)
	_, f := g.Parse("digits", []byte("12x"), 1000)
	fmt.Println(f.Offset, f.Expected)
	// Output:
	// [digits] digits
	// digits 0 3
	// 2 [[0-9]]
}

func ExampleTable_Machine() {
	// The DFA of 1*"a" in the compact form gen dfa emits: the class of
	// each byte (1 for "a", 0 for every other byte), then the next state
	// by state and class (state 0 is dead, 1 the start), and the accepting
	// states.
	classes := make([]byte, 256)
	classes['a'] = 1
	t := &syntax.Table{
		States:  3,
		NClass:  2,
		Classes: string(classes),
		Next:    "\x00\x00" + "\x00\x02" + "\x00\x02",
		Accept:  "\x00\x00\x01",
	}
	if err := t.Check(); err != nil {
		fmt.Println(err)
		return
	}
	m := t.Machine()
	for _, in := range []string{"aaa", "aab", ""} {
		ok, fail := m.Run(in)
		fmt.Println(ok, fail, m.Expected(in, fail))
	}
	// Output:
	// true 3 ["a" end of input]
	// false 2 ["a" end of input]
	// false 0 ["a"]
}

func ExampleTable_Marked() {
	// The DFA of 1*"a" "=" *"b" (classes: 1 "a", 2 "=", 3 "b", 0 the
	// rest), with a marker that marks the "=": Marks[1] is then the
	// offset just after it, found by the walk that validates the input.
	classes := make([]byte, 256)
	classes['a'], classes['='], classes['b'] = 1, 2, 3
	t := &syntax.Table{
		States:  4,
		NClass:  4,
		Classes: string(classes),
		Next:    "\x00\x00\x00\x00" + "\x00\x02\x00\x00" + "\x00\x02\x03\x00" + "\x00\x00\x00\x03",
		Accept:  "\x00\x00\x00\x01",
	}
	m, err := t.Marked(func(q int, b byte) (int, uint8) {
		if b == '=' {
			return 1, 1 // after the "=": the marker's state 1, and mark 1
		}
		return q, 0
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, in := range []string{"aa=bbb", "aa=bab"} {
		var marks syntax.Marks
		ok, fail, state := m.RunMarks(in, &marks)
		if !ok {
			stop := m.StopAt(in, fail, state)
			fmt.Println(in, "stops at", stop.Offset, stop.Expected)
			continue
		}
		fmt.Printf("%s: key %q, value %q\n", in, in[:marks[1]-1], in[marks[1]:])
	}
	// Output:
	// aa=bbb: key "aa", value "bbb"
	// aa=bab stops at 4 ["b" end of input]
}

func ExampleFold() {
	// list = list "," item / item, which gen rewrites into a seed and
	// iterations, on "a,b,c": the generated actions capture the seed,
	// extend it by each iteration, and fold the whole back into the
	// left-nested tree the grammar describes.
	item := func(at int) *syntax.Node { return &syntax.Node{Rule: "item", Start: at, End: at + 1} }
	seed := syntax.Capture("list", 0, 1, item(0))
	steps := []any{syntax.Extend("list", 3, item(2)), syntax.Extend("list", 5, item(4))}
	n := syntax.Fold("list", 0, 5, []any{seed, steps})
	var show func(n *syntax.Node, depth int)
	show = func(n *syntax.Node, depth int) {
		fmt.Printf("%s%s [%d,%d)\n", strings.Repeat("  ", depth), n.Rule, n.Start, n.End)
		for _, k := range n.Kids {
			show(k, depth+1)
		}
	}
	show(n, 0)
	// Output:
	// list [0,5)
	//   list [0,3)
	//     list [0,1)
	//       item [0,1)
	//     item [2,3)
	//   item [4,5)
}

func ExampleMachine_GoWalk() {
	// The table and marker of the Table.Marked example: 1*"a" "=" *"b",
	// with the "=" marked.
	table := func() *syntax.Table {
		classes := make([]byte, 256)
		classes['a'], classes['='], classes['b'] = 1, 2, 3
		return &syntax.Table{
			States:  4,
			NClass:  4,
			Classes: string(classes),
			Next:    "\x00\x00\x00\x00" + "\x00\x02\x00\x00" + "\x00\x02\x03\x00" + "\x00\x00\x00\x03",
			Accept:  "\x00\x00\x00\x01",
		}
	}
	marker := func(q int, b byte) (int, uint8) {
		if b == '=' {
			return 1, 1
		}
		return q, 0
	}
	m, err := table().Marked(marker)
	if err != nil {
		fmt.Println(err)
		return
	}
	// gen dfa -walk writes the code into the generated file, and the
	// table's Walk and WalkSum: the function and sum.
	code, sum, err := m.GoWalk("walkKV", "kv")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range strings.Split(code, "\n") {
		if strings.HasPrefix(line, "func ") {
			fmt.Println(line)
		}
	}
	// A table holds its walk; Marked runs it only with the right sum.
	// Here a stand-in for the generated function: the table walk itself.
	walk := func(_ *syntax.Machine, s string) (marks syntax.Marks, ok bool, fail, state int) {
		ok, fail, state = m.RunMarks(s, &marks)
		return marks, ok, fail, state
	}
	for _, sum := range []uint64{sum, sum + 1} {
		t := table()
		t.Walk, t.WalkSum = walk, sum
		w, err := t.Marked(marker)
		if err != nil {
			fmt.Println(err)
			return
		}
		marks, ok, _, _ := w.WalkMarks("aa=bbb")
		fmt.Println(w.HasWalk(), ok, marks[1])
	}
	// Output:
	// func walkKV(d *syntax.Machine, s string) (marks syntax.Marks, ok bool, fail, state int) {
	// true true 3
	// false true 3
}

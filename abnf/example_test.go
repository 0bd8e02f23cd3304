package abnf_test

import (
	"fmt"

	"github.com/peguri/rfc3986/abnf"
)

// A grammar where PEG's ordered choice would go wrong: "1" is a prefix of
// "10", and ABNF's alternation is unordered.
const octets = `
octet = "1" / "10" / "2"
pair  = octet "." octet
`

func ExampleReadString() {
	g, err := abnf.ReadString("octets.abnf", octets)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Names())
	_, err = abnf.ReadString("bad.abnf", "a = \"x\" /\n")
	fmt.Println(err)
	// Output:
	// [octet pair]
	// bad.abnf:1:10: expected an element, found end of rule
}

func ExampleCheck() {
	g, _ := abnf.ReadString("rec.abnf", "list = list \",\" item / item\nitem = \"x\"\nlost = \"y\"\n")
	for _, p := range abnf.Check(g, []string{"list"}) {
		fmt.Println(p)
	}
	// Output:
	// rec.abnf:1:1: note: left recursion: list can reach itself without consuming input (rules: list); the matcher and the sampler take it, gen peg rewrites it
	// rec.abnf:1:1: note: recursion: list is recursive (rules: list); the DFA back end compiles it only where the recursion is regular (no self-embedding)
	// rec.abnf:3:1: warning: lost is unreachable from the start rules (list)
}

func ExampleMatcher() {
	g, _ := abnf.ReadString("octets.abnf", octets)
	m, _ := abnf.NewMatcher(g)
	for _, in := range []string{"10.2", "1.10", "12.1"} {
		ok, _ := m.Match("pair", []byte(in))
		fmt.Println(in, ok)
	}
	// Output:
	// 10.2 true
	// 1.10 true
	// 12.1 false
}

func ExampleFormat() {
	g, _ := abnf.ReadString("x.abnf", "a=  \"x\"/%x41-5A   *2b\nb = %d48.49\n")
	fmt.Print(string(abnf.Format(g)))
	// Output:
	// a = "x" / %x41-5A *2b
	// b = %d48.49
}

func ExampleSampler() {
	g, _ := abnf.ReadString("octets.abnf", octets)
	s := abnf.NewSampler(g, 1)
	m, _ := abnf.NewMatcher(g)
	for i := 0; i < 4; i++ {
		in, _ := s.Sample("pair")
		ok, _ := m.Match("pair", in)
		fmt.Println(ok) // every sample matches the rule it came from
	}
	// Output:
	// true
	// true
	// true
	// true
}

func ExampleRead_lenient() {
	// RFC 5234 §4 separates the elements of a concatenation by white
	// space; grammars in the wild sometimes do not.
	src := []abnf.Source{{Name: "t.abnf", Text: []byte("r = \"a\"\"b\"\n")}}
	if _, err := abnf.Read(src, nil); err != nil {
		fmt.Println(err)
	}
	g, err := abnf.Read(src, &abnf.Options{Lenient: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(abnf.String(g.Rule("r").Expr))
	for _, w := range g.Warnings {
		fmt.Println(w.Pos, w.Severity)
	}
	// Output:
	// t.abnf:1:8: elements of a concatenation must be separated by white space (RFC 5234 §4: concatenation = repetition *(1*c-wsp repetition)): insert a space before quoted string (gen's -lenient flag, the Lenient option, accepts it with a warning)
	// "a" "b"
	// t.abnf:1:8 warning
}

package grammar_test

import (
	"fmt"

	"github.com/peguri/rfc3986/grammar"
)

func ExampleRead() {
	// As gen's -grammar takes them: embedded grammars by name, ABNF files
	// by path, read in order as one grammar.
	g, err := grammar.Read([]string{"rfc3986", "rfc6874"}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	// RFC 6874 replaces Appendix A's IP-literal.
	for _, d := range g.Rule("IP-literal").Defs {
		fmt.Println(d.Pos, d.Override)
	}
	fmt.Println(grammar.Names())
	// Output:
	// grammar/rfc3986.abnf:32:4 false
	// grammar/ext/rfc6874.abnf:7:1 true
	// [rfc3986 rfc6874 rfc3987]
}

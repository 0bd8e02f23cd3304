package parser_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/peguri/rfc3986/parser"
)

// An error says where the input stops, which rule of Appendix A could not
// continue there, and what could have come instead, in the RFC's terms; it
// costs what parsing a valid input of the same length does, and one
// allocation. Package explain says more (the enclosing rules, what each
// open rule could have read).
func ExampleError() {
	for _, in := range []string{"http://a/b c", "http://[::1.2.3.4.5]/", "//[:m"} {
		_, err := parser.ParseReference(in)
		var pe *parser.Error
		if errors.As(err, &pe) {
			fmt.Printf("%d %s %q\n", pe.Offset, pe.Innermost, pe.Expected)
		}
	}
	_, err := parser.ParseReference("http://a/b c")
	fmt.Println(err)
	// Output:
	// 10 segment ["pchar" "\"#\"" "\"/\"" "\"?\"" "end of input"]
	// 17 IPv4address ["DIGIT" "\"]\""]
	// 4 IPv6address ["\":\""]
	// parse "http://a/b c" as URI-reference: segment could not continue at offset 10: found " "; expected pchar, "#", "/", "?" or end of input
}

// A valid input longer than MaxTreeLength gets no parse tree, and an error
// that says it is valid; Parse and Validate take it.
func ExampleErrTooLongForTree() {
	long := "http://a/" + strings.Repeat("b", parser.MaxTreeLength)
	_, err := parser.ParseRule("URI", long)
	fmt.Println(errors.Is(err, parser.ErrTooLongForTree), parser.Validate("URI", long))
	// Output: true <nil>
}

func ExampleErrUnknownRule() {
	_, err := parser.ParseRule("no-such-rule", "x")
	fmt.Println(errors.Is(err, parser.ErrUnknownRule), err)
	// Output: true parser: no rule "no-such-rule" in rfc3986 (39 start rules, which Rules lists; gen peg and gen dfa make a rule of the grammar one with -start)
}

func ExampleErrUndefinedComponent() {
	_, err := parser.FromParts(parser.Parts{Host: "h", Path: "/x"})
	fmt.Println(errors.Is(err, parser.ErrUndefinedComponent), err)
	// Output: true parser: FromParts: Host "h" without HasAuthority: component set but undefined
}

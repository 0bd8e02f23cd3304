package parser_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/peguri/rfc3986/parser"
)

// For batch work, a syntax whose errors come from the DFA alone: an invalid
// input costs about what a valid one does. Its offset is the longest prefix
// some valid input starts with; pigeon's names the terminal it could not
// match.
func ExampleSyntax_QuickErrors() {
	quick := parser.RFC3986().QuickErrors()
	_, err := quick.Parse("URI-reference", "//[:m")
	fmt.Println(err.(*parser.Error).Reason())
	_, err = parser.RFC3986().Parse("URI-reference", "//[:m")
	fmt.Println(err.(*parser.Error).Reason())
	// Output:
	// unexpected "m" at offset 4; expected ":"
	// unexpected ":" at offset 3; expected "::", [0-9A-Fa-f], [Vv]
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
	// Output: true parser: no rule "no-such-rule" in rfc3986
}

func ExampleErrUndefinedComponent() {
	_, err := parser.FromParts(parser.Parts{Host: "h", Path: "/x"})
	fmt.Println(errors.Is(err, parser.ErrUndefinedComponent), err)
	// Output: true parser: FromParts: Host "h" without HasAuthority: component set but undefined
}

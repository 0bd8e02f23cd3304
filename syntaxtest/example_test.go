package syntaxtest_test

import (
	"fmt"
	"testing"

	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/syntaxtest"
)

func ExampleCheck() {
	// RFC 3986's generated parsers against the grammar they came from.
	c := syntaxtest.Config{Parser: parser.RFC3986(), Grammar: []string{"rfc3986"}}
	fmt.Println(syntaxtest.Check(c, "URI", "http://a/b?q#f"))
	fmt.Println(syntaxtest.Check(c, "IPv4address", "1.2.3.256"))
	// The same parsers against RFC 6874's grammar, which takes zone
	// identifiers: they disagree.
	c.Grammar = []string{"rfc3986", "rfc6874"}
	fmt.Println(syntaxtest.Check(c, "IP-literal", "[fe80::1%25eth0]") != nil)
	// Output:
	// <nil>
	// <nil>
	// true
}

// In the tests of a package that serves generated parsers, Run checks
// every rule on samples and near-misses, each rule a parallel subtest.
func ExampleRun() {
	TestDifferential := func(t *testing.T) {
		n := syntaxtest.Run(t, syntaxtest.Config{
			Parser:  parser.RFC3986(),
			Grammar: []string{"rfc3986"}, // or {"rfc3986", "my.abnf"}: gen's -grammar values
			PerURI:  20000,
			PerRule: 2000,
			Seed:    1,
		})
		t.Logf("%d inputs", n)
	}
	_ = TestDifferential
}

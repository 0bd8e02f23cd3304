package syntaxtest_test

import (
	"strings"
	"testing"

	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc6874"
	"github.com/peguri/rfc3986/syntaxtest"
)

// TestRun: the generated parsers of RFC 3986 and RFC 6874 agree with
// their grammars on a few rules.
func TestRun(t *testing.T) {
	for _, c := range []syntaxtest.Config{
		{Parser: parser.RFC3986(), Grammar: []string{"rfc3986"}, Rules: []string{"URI-reference", "host", "IPv6address"}, PerURI: 400, PerRule: 400, Seed: 1},
		{Parser: rfc6874.Parser(), Grammar: []string{"rfc3986", "rfc6874"}, Rules: []string{"URI", "IP-literal"}, PerURI: 400, PerRule: 400, Seed: 2},
	} {
		if n, want := syntaxtest.Run(t, c), int64(400*len(c.Rules)); n != want {
			t.Errorf("%s: Run checked %d inputs, want %d", c.Parser.Name(), n, want)
		}
	}
	// Rule names in any case, as in ABNF: "uri-REFERENCE" is the URI rule
	// URI-reference, checked with PerURI inputs and the URI-level checks.
	c := syntaxtest.Config{Parser: parser.RFC3986(), Grammar: []string{"rfc3986"}, Rules: []string{"uri-REFERENCE", "HOST"}, PerURI: 30, PerRule: 20, Seed: 3}
	if n := syntaxtest.Run(t, c); n != 50 {
		t.Errorf("Run with rule names in other cases checked %d inputs, want 30 + 20", n)
	}
}

// TestCheckFails: Check sees every kind of disagreement it guards against,
// so that Run can fail.
func TestCheckFails(t *testing.T) {
	for _, tt := range []struct {
		name string
		c    syntaxtest.Config
		rule string
		in   string
		want string // in the error
	}{
		{
			"the parsers reject what the grammar accepts",
			syntaxtest.Config{Parser: parser.RFC3986(), Grammar: []string{"rfc3986", "rfc6874"}},
			"URI", "http://[fe80::1%25eth0]/",
			"matcher true",
		},
		{
			"the parsers accept what the grammar rejects",
			syntaxtest.Config{Parser: rfc6874.Parser(), Grammar: []string{"rfc3986"}},
			"IP-literal", "[fe80::1%25eth0]",
			"matcher false",
		},
		{
			"no grammar",
			syntaxtest.Config{Parser: parser.RFC3986()},
			"URI", "a:b",
			"no Grammar",
		},
		{
			"no such rule",
			syntaxtest.Config{Parser: parser.RFC3986(), Grammar: []string{"rfc3986"}},
			"IRI", "a:b",
			`no rule "IRI"`,
		},
		{
			"a grammar file that is not there",
			syntaxtest.Config{Parser: parser.RFC3986(), Grammar: []string{"rfc3986", "testdata/none.abnf"}},
			"URI", "a:b",
			"none.abnf",
		},
	} {
		err := syntaxtest.Check(tt.c, tt.rule, tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Check(%s, %q) = %v, want an error with %q", tt.name, tt.rule, tt.in, err, tt.want)
		}
	}
}

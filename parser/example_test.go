package parser_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/internal/rfc3986gen"
)

func ExampleParseReference() {
	u, _ := parser.ParseReference("//user@[v1.x]:8080?q")
	fmt.Println(u.HasScheme(), u.Userinfo(), u.Host(), u.HostKind(), u.Port(), u.HasQuery(), u.HasFragment())
	// Output: false user [v1.x] ipvfuture 8080 true false
}

func ExampleParseURI() {
	_, err := parser.ParseURI("//host/path")
	fmt.Println(err)
	// Output: parse "//host/path" as URI: URI could not continue at offset 0: found "/"; expected ALPHA
}

func ExampleParseAbsolute() {
	_, err := parser.ParseAbsolute("http://a/b#frag")
	fmt.Println(err)
	// Output: parse "http://a/b#frag" as absolute-URI: segment could not continue at offset 10: found "#"; expected pchar, "/", "?" or end of input
}

func ExampleParseRelative() {
	u, _ := parser.ParseRelative("./a:b")
	fmt.Println(u.Path())
	_, err := parser.ParseRelative("a:b")
	fmt.Println(err != nil) // "a:b" is a URI with scheme "a" (§4.2)
	// Output:
	// ./a:b
	// true
}

func ExampleParseAs() {
	// Any URI-level rule of Appendix A; components are split as §3 says.
	u, _ := parser.ParseAs("URI", "mailto:John.Doe@example.com")
	fmt.Printf("%q %q %v\n", u.Scheme(), u.Path(), u.HasAuthority())
	// Output: "mailto" "John.Doe@example.com" false
}

func ExampleFromParts() {
	u, _ := parser.FromParts(parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true, Host: "a", Path: "/b", HasQuery: true})
	fmt.Println(u)
	// A path that starts "//" needs an authority (§3.3).
	_, err := parser.FromParts(parser.Parts{Path: "//x"})
	fmt.Println(err != nil)
	// Output:
	// http://a/b?
	// true
}

// Len is the length of the text the parts recompose to: a normalizer or
// a builder checks it against MaxLength before it writes the text.
func ExampleParts_Len() {
	p := parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true, Host: "a", Port: "8080", HasPort: true, Path: "/b", HasFragment: true}
	fmt.Println(p.Len(), len(p.String()), p.String())
	// Output:
	// 16 16 http://a:8080/b#
}

func ExampleValidate() {
	// Any rule of Appendix A, by its ABNF name, for grammar work.
	for _, in := range []string{"192.168.0.1", "256.1.1.1", "01.1.1.1"} {
		fmt.Println(in, parser.Validate("IPv4address", in) == nil)
	}
	// Output:
	// 192.168.0.1 true
	// 256.1.1.1 false
	// 01.1.1.1 false
}

func ExampleRules() {
	// Appendix A's 36 rules and the three core rules it uses.
	rules := parser.Rules()
	fmt.Println(len(rules), strings.Join(rules[:4], " "))
	// Output: 39 ALPHA DIGIT HEXDIG IP-literal
}

func ExampleParseRule() {
	n, _ := parser.ParseRule("authority", "user@host:80")
	var walk func(n *parser.Node, depth int)
	walk = func(n *parser.Node, depth int) {
		fmt.Printf("%s%s [%d,%d)\n", strings.Repeat("  ", depth), n.Rule, n.Start, n.End)
		for _, k := range n.Kids {
			walk(k, depth+1)
		}
	}
	walk(n, 0)
	// Output:
	// authority [0,12)
	//   userinfo [0,4)
	//   host [5,9)
	//     reg-name [5,9)
	//   port [10,12)
}

func ExampleParseTree() {
	u, tree, _ := parser.ParseTree("URI-reference", "a:b")
	fmt.Println(u.Scheme(), tree.Rule, tree.Kids[0].Rule)
	// Output: a URI-reference URI
}

func ExampleError_Caret() {
	_, err := parser.ParseReference("http://[::1/")
	var pe *parser.Error
	if errors.As(err, &pe) {
		fmt.Println(pe.Offset, pe.Rule, pe.Innermost, pe.Expected)
		fmt.Println(pe.Caret())
	}
	// Output:
	// 11 URI-reference IPv6address [DIGIT HEXDIG "." ":" "]"]
	// http://[::1/
	//            ^
	// parse "http://[::1/" as URI-reference: IPv6address could not continue at offset 11: found "/"; expected DIGIT, HEXDIG, ".", ":" or "]"
}

func ExampleURIRules() {
	fmt.Println(parser.URIRules())
	// Output: [URI-reference URI absolute-URI relative-ref]
}

func ExampleNewParser() {
	// A package serves a generated grammar — a scheme's own rules, say —
	// with a Parser built from what gen generated into its internal
	// package: the PEG function (gen peg, then pigeon) and the DFA function
	// (gen dfa). Here Appendix A's, without Names: no typed URI, but every
	// rule validates and parses into a tree.
	s, err := parser.NewParser("appendix-a", rfc3986gen.PEG(), rfc3986gen.DFA())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.DefaultRule(), s.Validate("IPv6address", "::1"))
	n, _ := s.ParseRule("IP-literal", "[v1.x]")
	fmt.Println(n.Rule, n.Kids[0].Rule)
	// Output:
	// URI-reference <nil>
	// IP-literal IPvFuture
}

func ExampleParser() {
	// Every generated grammar is a Parser; RFC3986 is Appendix A.
	s := parser.RFC3986()
	fmt.Println(s.Name(), s.DefaultRule(), s.URIRules())
	u, _ := s.Parse("relative-ref", "//h/p")
	fmt.Println(u.Host(), u.Path())
	// Output:
	// rfc3986 URI-reference [URI-reference URI absolute-URI relative-ref]
	// h /p
}

func ExampleURI_Set() {
	// Set parses in place: into a field or an element, without copying a
	// URI; on failure the URI is left as it was.
	links := make([]parser.URI, 2)
	for i, s := range []string{"../up?x", "mailto:a@example.com"} {
		if err := links[i].Set(s); err != nil {
			panic(err)
		}
	}
	fmt.Println(links[0].Path(), links[0].Query(), links[1].Scheme())
	fmt.Println(links[1].Set("%zz") != nil, links[1])
	// Output:
	// ../up x mailto
	// true mailto:a@example.com
}

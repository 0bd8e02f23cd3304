package resolve_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/resolve"
)

func ExampleTraceResolve() {
	base, _ := parser.ParseReference("http://a/b/c/d;p?q")
	ref, _ := parser.ParseReference("../../../g")
	tr, err := resolve.TraceResolve(base, ref, resolve.Strict)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range tr.Steps {
		if s.Merge != nil {
			fmt.Printf("§%s merge: %q\n", s.Section, s.Merge.Result)
		}
		for _, d := range s.Dots {
			fmt.Printf("§%s %s: %q %q\n", s.Section, d.Rule, d.Output, d.Input)
		}
	}
	fmt.Println(tr.Result)
	// Output:
	// §5.2.3 merge: "/b/c/../../../g"
	// §5.2.4 1: "" "/b/c/../../../g"
	// §5.2.4 E: "/b" "/c/../../../g"
	// §5.2.4 E: "/b/c" "/../../../g"
	// §5.2.4 C: "/b" "/../../g"
	// §5.2.4 C: "" "/../g"
	// §5.2.4 C: "" "/g"
	// §5.2.4 E: "/g" ""
	// §5.2.4 3: "/g" ""
	// http://a/g
}

func ExampleRemoveDotSegmentsTrace() {
	out, steps := resolve.RemoveDotSegmentsTrace("mid/content=5/../6")
	for _, s := range steps {
		fmt.Printf("%s %q %q\n", s.Rule, s.Output, s.Input)
	}
	fmt.Println(out)
	// Output:
	// 1 "" "mid/content=5/../6"
	// E "mid" "/content=5/../6"
	// E "mid/content=5" "/../6"
	// C "mid" "/6"
	// E "mid/6" ""
	// 3 "mid/6" ""
	// mid/6
}

func ExampleNormalizer_Explain() {
	u, _ := parser.ParseReference("HTTP://Example.COM:80/%7efoo/./a/../b")
	n := resolve.Normalizer{Steps: resolve.NormalizeDefault, Schemes: resolve.DefaultSchemes()}
	v, steps, _ := n.Explain(u)
	for _, s := range steps {
		fmt.Printf("§%s %s %s: %q → %q\n", s.Section, s.Name, s.Component, s.Before, s.After)
	}
	fmt.Println(v)
	// Output:
	// §6.2.2.2 NormalizePercent path: "/%7efoo/./a/../b" → "/~foo/./a/../b"
	// §6.2.2.1 NormalizeCase scheme: "HTTP" → "http"
	// §6.2.2.1 NormalizeCase host: "Example.COM" → "example.com"
	// §6.2.2.3 NormalizeDotSegments path: "/~foo/./a/../b" → "/~foo/b"
	// §6.2.3 NormalizeSchemeBased port: "80" → ""
	// http://example.com/~foo/b
}

func ExampleExplainNormalize() {
	// Percent-encoding normalization comes first: "%7e" is decoded to
	// "~"; "%2F" is reserved: it stays, and Case uppercases it. "%2e" is
	// no dot segment (§5.2.4): it stays encoded, a name, which the ".."
	// after it removes, as resolution would.
	u, _ := parser.ParseReference("http://a/b/%7e/%2e/../c%2f")
	_, steps, _ := resolve.ExplainNormalize(u, resolve.NormalizeSyntax)
	for _, s := range steps {
		fmt.Printf("%s %s: %q → %q\n", s.Name, s.Component, s.Before, s.After)
	}
	// Output:
	// NormalizePercent path: "/b/%7e/%2e/../c%2f" → "/b/~/%2E/../c%2f"
	// NormalizeCase path: "/b/~/%2E/../c%2f" → "/b/~/%2E/../c%2F"
	// NormalizeDotSegments path: "/b/~/%2E/../c%2F" → "/b/~/c%2F"
}

func ExampleTrace_MarshalJSON() {
	base, _ := parser.ParseReference("http://a/b/c/d;p?q")
	ref, _ := parser.ParseReference("?y")
	tr, _ := resolve.TraceResolve(base, ref, resolve.Strict)
	fmt.Println(tr.Result, tr.Reference.HasQuery, tr.Reference.HasFragment)
	j, _ := json.Marshal(tr)
	fmt.Println(string(j[:strings.Index(string(j), `,"steps"`)]))
	// Output:
	// http://a/b/c/d;p?y true false
	// {"base":{"scheme":"http","authority":"a","path":"/b/c/d;p","query":"q","fragment":null},"reference":{"scheme":null,"authority":null,"path":"","query":"y","fragment":null},"mode":"Strict"
}

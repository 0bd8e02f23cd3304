package rfc3986_test

import (
	"fmt"

	"github.com/peguri/rfc3986"
)

func ExampleTraceResolve() {
	tr, err := rfc3986.TraceResolve(rfc3986.MustParse("http://a/b/c/d;p?q"), rfc3986.MustParse("../../../g"), rfc3986.Strict)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range tr.Steps {
		fmt.Println("§"+s.Section, s.Code[len(s.Code)-1])
	}
	fmt.Println(tr.Result)
	// Output:
	// §5.2.1 (R.scheme, R.authority, R.path, R.query, R.fragment) = parse(R);
	// §5.2.3             T.path = merge(Base.path, R.path);
	// §5.2.4             T.path = remove_dot_segments(T.path);
	// §5.2.2          T.query = R.query;
	// §5.2.2       T.authority = Base.authority;
	// §5.2.2    T.scheme = Base.scheme;
	// §5.2.2 T.fragment = R.fragment;
	// §5.3 result = recompose(T);
	// http://a/g
}

func ExampleRemoveDotSegmentsTrace() {
	out, steps := rfc3986.RemoveDotSegmentsTrace("/a/b/c/./../../g")
	rules := ""
	for _, s := range steps {
		rules += s.Rule
	}
	fmt.Println(out, rules)
	// Output: /a/g 1EEEBCCE3
}

func ExampleExplainNormalize() {
	_, steps, _ := rfc3986.ExplainNormalize(rfc3986.MustParse("HTTP://a:80"), rfc3986.NormalizeDefault)
	for _, s := range steps {
		fmt.Printf("§%s %s: %q → %q\n", s.Section, s.Component, s.Before, s.After)
	}
	// Output:
	// §6.2.2.1 scheme: "HTTP" → "http"
	// §6.2.3 port: "80" → ""
	// §6.2.3 path: "" → "/"
}

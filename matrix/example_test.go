package matrix_test

import (
	"fmt"
	"strings"

	"github.com/peguri/rfc3986/matrix"
)

// splitter is an implementation of your own: here, a naive one that
// splits at the first "#" and "?" and knows nothing else.
type splitter struct{}

func (splitter) Name() string { return "splitter" }

func (splitter) Parse(s string) (matrix.Components, error) {
	var c matrix.Components
	if i := strings.IndexByte(s, '#'); i >= 0 {
		f := s[i+1:]
		c.Fragment, s = &f, s[:i]
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		q := s[i+1:]
		c.Query, s = &q, s[:i]
	}
	c.Path = s
	c.Unknown = []string{"scheme", "authority", "userinfo", "host", "port", "path"}
	return c, nil
}

func ExampleRun() {
	s, err := matrix.LoadSuite("../conformance/rfc3986-suite.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	r := matrix.Run(s, splitter{})
	v := r.Sections["validity"]
	fmt.Println("validity answered:", v.Pass+v.Fail > 0, "resolution:", r.Sections["resolution"].NA == len(s.Resolution))
	// Output: validity answered: true resolution: true
}

func ExampleReport() {
	s, err := matrix.LoadSuite("../conformance/rfc3986-suite.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	r := matrix.Run(s, matrix.NetURL{})
	var b strings.Builder
	if err := matrix.Report(&b, "# net/url\n", s, []*matrix.Result{r}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Contains(b.String(), "| `removeDotSegments` |"), r.Sections["normalization"].NA == len(s.Normal))
	// Output: true true
}

package explain_test

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/peguri/rfc3986/explain"
)

// TestConcurrent: an Explainer explains on many goroutines at once (the
// batch CLI does), each explanation the same as one alone.
func TestConcurrent(t *testing.T) {
	inputs := []string{"http://a/b?c#d", "http://1.2.3.4/", "http://1.2.3.400/", "//[::1]:80", "//[v1.x]", "a:b", "%zz", "http://[::1", "http://a b", "", "//例え.jp", "http://256.1.1.1/x"}
	for _, name := range explain.Grammars() {
		x, err := explain.New(name)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]*explain.Explanation, len(inputs))
		for i, in := range inputs {
			if want[i], err = x.Explain("", in); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		got := make([][]*explain.Explanation, 4)
		for g := range got {
			got[g] = make([]*explain.Explanation, len(inputs))
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i, in := range inputs {
					got[g][i], _ = x.Explain("", in)
				}
			}()
		}
		wg.Wait()
		for g := range got {
			if d := cmp.Diff(want, got[g]); d != "" {
				t.Errorf("%s: goroutine %d's explanations differ (-alone +concurrent):\n%s", name, g, d)
			}
		}
	}
}

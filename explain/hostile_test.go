package explain_test

import (
	"strings"
	"testing"
	"time"

	"github.com/peguri/rfc3986/explain"
)

// TestHostileInput: the analysis is linear in the input. Each shape is
// explained at a quarter of MaxLength and at MaxLength; the larger must
// take at most 8 times as long as the smaller (best of two runs each).
func TestHostileInput(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	x := mustNew(t, "rfc3986")
	shapes := []struct {
		name string
		make func(n int) string
	}{
		{"segments, then a space", func(n int) string { return "http://a/" + strings.Repeat("a/", (n-10)/2) + " " }},
		{"percent-encodings, then a lone %", func(n int) string { return strings.Repeat("%41", (n-1)/3) + "%" }},
		{"dotted host, then a space", func(n int) string { return "http://" + strings.Repeat("1.", (n-8)/2) + " " }},
		{"an IP literal of colons", func(n int) string { return "http://[" + strings.Repeat("1:", (n-9)/2) + "]" }},
	}
	best := func(in string) time.Duration {
		d := time.Duration(1 << 62)
		for range 2 {
			st := time.Now()
			if _, err := x.Explain("", in); err != nil {
				t.Fatal(err)
			}
			d = min(d, time.Since(st))
		}
		return d
	}
	for _, s := range shapes {
		small, large := best(s.make(explain.MaxLength/4)), best(s.make(explain.MaxLength))
		t.Logf("%s: %v, then %v", s.name, small, large)
		if large > 8*small && large > 50*time.Millisecond {
			t.Errorf("%s: %v for %d bytes, %.1f times the %v of a quarter of it", s.name, large, explain.MaxLength, float64(large)/float64(small), small)
		}
	}
}

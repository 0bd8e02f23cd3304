package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestMain1 runs one short round of the parse cases and checks the output's
// shape: the configuration lines, one result line per case, and the
// table's rows. It asserts no timing.
func TestMain1(t *testing.T) {
	var out bytes.Buffer
	if err := main1(&out, "../../../testdata", "Parse/corpus=mixed|Resolve", 1, time.Millisecond); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{
		"goos: ", "cpu: ",
		"BenchmarkParse/corpus=mixed/lib=rfc3986\t", "BenchmarkParse/corpus=mixed/lib=net_url\t", "BenchmarkParse/corpus=mixed/lib=fredbi_uri\t",
		"BenchmarkResolve/refs=rfc3986-5.4/lib=rfc3986\t", "BenchmarkResolveTo/refs=rfc3986-5.4/lib=rfc3986\t",
		"| Parse/corpus=mixed | ", "(rejects 2 of 20)", "| Resolve/refs=rfc3986-5.4 | ", "| ResolveTo/refs=rfc3986-5.4 | ", "| Resolve/refs=corpus | ", "| ResolveTo/refs=corpus | ",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q in the output:\n%s", want, s)
		}
	}
}

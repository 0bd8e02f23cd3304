// Command matrix runs Go's URI libraries against the RFC 3986 conformance
// suite and writes the results page, RESULTS.md: a table per section of
// the suite and per rule of Appendix A, and every mismatch with its input
// and the RFC's answer.
//
// Usage, in matrix/:
//
//	go run ./cmd/matrix          # rewrite RESULTS.md
//	go run ./cmd/matrix -check   # exit 1 if RESULTS.md is stale
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/peguri/rfc3986/matrix"
)

func main() {
	suite := flag.String("suite", "../conformance/rfc3986-suite.json", "the suite `file`")
	out := flag.String("o", "RESULTS.md", "the `file` to write")
	check := flag.Bool("check", false, "do not write: exit 1 if the file differs from what would be written")
	flag.Parse()
	doc, err := matrix.Document(*suite)
	if err != nil {
		fmt.Fprintln(os.Stderr, "matrix:", err)
		os.Exit(1)
	}
	if *check {
		old, err := os.ReadFile(*out)
		if err != nil || !bytes.Equal(old, doc) {
			fmt.Fprintf(os.Stderr, "matrix: %s is stale: run go run ./cmd/matrix\n", *out)
			os.Exit(1)
		}
		return
	}
	if err := os.WriteFile(*out, doc, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "matrix:", err)
		os.Exit(1)
	}
}

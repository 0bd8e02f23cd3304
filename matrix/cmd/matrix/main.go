// Command matrix runs Go's URI libraries against the RFC 3986 conformance
// suite and writes the results page, RESULTS.md: a table per section of
// the suite and per rule of Appendix A, and every mismatch with its input
// and the RFC's answer; and the table by section into the repository's
// README, between its markers.
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
	readme := flag.String("readme", "../README.md", "the README whose marked table to rewrite (\"\": none)")
	check := flag.Bool("check", false, "do not write: exit 1 if the file differs from what would be written")
	flag.Parse()
	if err := main1(*suite, *out, *readme, *check); err != nil {
		fmt.Fprintln(os.Stderr, "matrix:", err)
		os.Exit(1)
	}
}

func main1(suite, out, readme string, check bool) error {
	doc, summary, err := matrix.Document(suite)
	if err != nil {
		return err
	}
	files := map[string][]byte{out: doc}
	if readme != "" {
		old, err := os.ReadFile(readme)
		if err != nil {
			return err
		}
		if files[readme], err = matrix.SpliceReadme(old, summary); err != nil {
			return fmt.Errorf("%s: %w", readme, err)
		}
	}
	for name, b := range files {
		if check {
			old, err := os.ReadFile(name)
			if err != nil || !bytes.Equal(old, b) {
				return fmt.Errorf("%s is stale: run go run ./cmd/matrix in matrix/", name)
			}
			continue
		}
		if err := os.WriteFile(name, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

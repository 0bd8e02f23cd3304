// Command conformance writes the RFC 3986 conformance suite,
// conformance/rfc3986-suite.json: validity against every rule of Appendix
// A on both sides of its boundary, components, strict and non-strict
// resolution, remove_dot_segments, normalization per level, and
// equivalence; and producing URIs: percent-encoding per component,
// decoding, and building from raw components. Each case has the RFC's
// answer, the section that decides it, and its provenance (an RFC
// example, a corpus record of testdata/conformance, a generated and
// minimised input, or a case written for the suite with its reason). The
// schema is in conformance/README.md.
//
// Usage, from the repository's root:
//
//	go run ./conformance            # rewrite conformance/rfc3986-suite.json and conformance/ids.txt
//	go run ./conformance -check     # exit 1 if either is stale
//
// A suite written elsewhere (-o) keeps its ids in a ledger of its own
// (-ids), so that a trial run does not append to the committed one.
//
// The suite is deterministic: the same code gives the same file, byte for
// byte. conformance's tests check that the file is fresh, that the
// generated parser, its DFA and the ABNF matcher give every validity
// answer, that every other answer is the library's, and that every
// encoding and every built reference matches its rule (the matcher again)
// and decodes back to what was given.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	out := flag.String("o", filepath.Join("conformance", "rfc3986-suite.json"), "the `file` to write")
	check := flag.Bool("check", false, "do not write: exit 1 if the file differs from what would be written")
	root := flag.String("root", ".", "the repository's root `directory` (for testdata/conformance)")
	ids := flag.String("ids", "", "the ledger of ids, read and rewritten (default: conformance/ids.txt under -root)")
	start := flag.Bool("init", false, "begin the ledger of ids if it is missing (numbering every case anew: not for a published suite)")
	flag.Parse()
	if *ids == "" {
		set := false
		flag.Visit(func(f *flag.Flag) { set = set || f.Name == "o" })
		if set && !*check {
			fmt.Fprintln(os.Stderr, "conformance: -o needs -ids: a suite written elsewhere keeps its ids in a ledger of its own")
			os.Exit(2)
		}
		*ids = filepath.Join(*root, ledgerFile)
	}
	if err := main1(*out, *root, *ids, *start, *check); err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(1)
	}
}

func main1(out, root, ids string, start, check bool) error {
	s, err := build(root, ids, start)
	if err != nil {
		return err
	}
	b, err := s.Marshal()
	if err != nil {
		return err
	}
	files := []struct {
		path string
		b    []byte
	}{{out, b}, {ids, s.ledger}}
	for _, f := range files {
		if check {
			old, err := os.ReadFile(f.path)
			if err != nil {
				return err
			}
			if !bytes.Equal(old, f.b) {
				return fmt.Errorf("%s is stale: run go run ./conformance", f.path)
			}
			continue
		}
		if err := os.WriteFile(f.path, f.b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Command uripipe runs the URI pipeline of package pipeline on Apache
// Beam: in process by default (no set-up), or on Flink, Spark or Dataflow
// with -runner and Beam's flags for them.
//
// Usage:
//
//	uripipe -in GLOB [-in GLOB]… -out PREFIX [-format json|text]
//	        [-scheme] [-ipv6] [-level simple|syntax|scheme] [-non-strict]
//	        [-runner direct|prism|flink|spark|dataflow] [Beam's flags]
//
// Each line of the inputs is a URI, or "base<TAB>reference". It writes
// PREFIX/normalized, resolved, invalid, hosts, schemes and summary, each a
// set of files NAME-SSSSS-of-NNNNN.jsonl (or .txt), one record a line:
// docs/beam.md says what each holds.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/peguri/rfc3986/beam/pipeline"
)

// defaultRunner is the in-process runner: see docs/beam.md for why direct
// and not prism.
const defaultRunner = pipeline.DefaultRunner

type globs []string

func (g *globs) String() string     { return strings.Join(*g, ",") }
func (g *globs) Set(s string) error { *g = append(*g, s); return nil }

func main() {
	var c pipeline.Config
	var in globs
	flag.Var(&in, "in", "input `glob` (read with Beam's fileio: a local path, or gs://); repeat for more")
	flag.StringVar(&c.Out, "out", "", "output `prefix`: a directory, local or gs://…")
	format := flag.String("format", "json", "json (JSON Lines, uri -json's records) or text")
	flag.BoolVar(&c.Scheme, "scheme", false, "as uri normalize -scheme: add §6.2.3 scheme-based normalization")
	flag.BoolVar(&c.IPv6, "ipv6", false, "as uri normalize -ipv6: IPv6 literals in RFC 5952's text")
	flag.StringVar(&c.Level, "level", "", "deduplicate at this §6.2 comparison `level`: simple, syntax or scheme (default: the normalization's, syntax, or scheme with -scheme)")
	flag.BoolVar(&c.NonStrict, "non-strict", false, "as uri resolve -non-strict")
	verbose := flag.Bool("v", false, "keep Beam's informational logs (the plan, each file read)")
	flag.Parse()
	beam.Init()
	if !*verbose {
		pipeline.QuietLogs()
	}
	c.Inputs = in
	c.Text = *format == "text"
	if err := check(c, *format, flag.Args()); err != nil {
		fmt.Fprintf(os.Stderr, "uripipe: %v\n", err)
		os.Exit(2)
	}
	if err := clean(c); err != nil {
		fmt.Fprintf(os.Stderr, "uripipe: %v\n", err)
		os.Exit(1)
	}
	if *runners.Runner == "" {
		*runners.Runner = defaultRunner
	}
	p, s := beam.NewPipelineWithRoot()
	pipeline.Build(s, c)
	if err := beamx.Run(context.Background(), p); err != nil {
		fmt.Fprintf(os.Stderr, "uripipe: %v\n", err)
		os.Exit(1)
	}
}

func check(c pipeline.Config, format string, args []string) error {
	switch {
	case len(args) > 0:
		return fmt.Errorf("unexpected arguments %q: inputs go after -in", args)
	case len(c.Inputs) == 0:
		return fmt.Errorf("no -in")
	case c.Out == "":
		return fmt.Errorf("no -out")
	case format != "json" && format != "text":
		return fmt.Errorf("-format must be json or text, not %q", format)
	}
	for _, g := range c.Inputs {
		if local(g) {
			// fileio allows a glob that matches nothing; a mistyped
			// path is more likely than an empty input.
			m, err := filepath.Glob(g)
			if err != nil {
				return fmt.Errorf("-in %s: %v", g, err)
			}
			if len(m) == 0 {
				return fmt.Errorf("-in %s: no file matches", g)
			}
		}
	}
	return c.Check()
}

// clean removes a local output prefix's files of an earlier run, so that
// a set with fewer shards this time has no stale file.
func clean(c pipeline.Config) error {
	if !local(c.Out) {
		return nil
	}
	for _, name := range pipeline.Outputs {
		old, _ := filepath.Glob(filepath.Join(c.Out, name+"-*-of-*"))
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	return nil
}

func local(p string) bool { return !strings.Contains(p, "://") }

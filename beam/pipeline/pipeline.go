// Package pipeline is an Apache Beam pipeline over URI sets at crawl
// scale: it validates each line, normalizes the URIs (uri normalize)
// and deduplicates them at a comparison level of RFC 3986 §6.2, resolves
// "base<TAB>reference" pairs (uri resolve), counts the distinct URIs per
// host and per scheme, and keeps every invalid line with its error. Its
// records are cmd/uri's -json records (package internal/records), so that
// what reads uri's output reads the pipeline's.
package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"path"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"

	// The file systems a glob or an output may name: local paths, and
	// gs:// for Dataflow.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
)

// DefaultRunner is the in-process runner uripipe uses unless -runner says
// otherwise: direct, measured faster than prism here (docs/beam.md).
const DefaultRunner = "direct"

// The output file sets, each as PREFIX/NAME-SSSSS-of-NNNNN.EXT.
const (
	Normalized = "normalized" // one record per distinct URI at the level
	Resolved   = "resolved"   // one record per valid pair
	Invalid    = "invalid"    // one record per invalid line
	Hosts      = "hosts"      // distinct URIs per normalized host
	Schemes    = "schemes"    // distinct URIs per scheme
	Summary    = "summary"    // the counts of lines, one record
)

// Outputs names the file sets, in the order the pipeline writes them.
var Outputs = []string{Normalized, Resolved, Invalid, Hosts, Schemes, Summary}

// Config is one run: the inputs (globs that Beam's textio reads), the
// output prefix, how many files per output, and the Options.
type Config struct {
	Inputs []string
	Out    string
	Shards int
	Options
}

// Ext is the extension of the output files.
func (c Config) Ext() string {
	if c.Text {
		return ".txt"
	}
	return ".jsonl"
}

func init() {
	register.DoFn4x1[string, func(string, string), func(string), func(string), error](&classifyFn{})
	register.Emitter2[string, string]()
	register.Emitter1[string]()
	register.Function2x1(minString)
	register.DoFn5x1[string, string, func(string), func(string), func(string), error](&normalizedFn{})
	register.DoFn3x0[string, int, func(string)](&countFn{})
	register.DoFn6x1[[]byte, int, int, int, int, func(string), error](&summaryFn{})
	register.DoFn2x0[string, func(int, string)](&shardFn{})
	register.DoFn3x1[context.Context, int, func(*string) bool, error](&writeFn{})
	register.Iter1[string]()
	register.Emitter2[int, string]()
}

// Build adds the pipeline to s.
func Build(s beam.Scope, c Config) {
	var lines []beam.PCollection
	for _, glob := range c.Inputs {
		lines = append(lines, textio.Read(s, glob))
	}
	all := beam.Flatten(s, lines...)
	uris, resolved, invalid := beam.ParDo3(s, &classifyFn{Opts: c.Options}, all)
	// One URI per key: the least line, so that the choice does not
	// depend on the runner's order.
	distinct := beam.CombinePerKey(s, minString, uris)
	normalized, hosts, schemes := beam.ParDo3(s, &normalizedFn{Opts: c.Options}, distinct)
	hostCounts := beam.ParDo(s, &countFn{Field: "host", Text: c.Text}, stats.Count(s, hosts))
	schemeCounts := beam.ParDo(s, &countFn{Field: "scheme", Text: c.Text}, stats.Count(s, schemes))
	summary := beam.ParDo(s, &summaryFn{Text: c.Text}, beam.Impulse(s),
		beam.SideInput{Input: stats.CountElms(s, uris)},
		beam.SideInput{Input: stats.CountElms(s, distinct)},
		beam.SideInput{Input: stats.CountElms(s, resolved)},
		beam.SideInput{Input: stats.CountElms(s, invalid)})
	for name, col := range map[string]beam.PCollection{
		Normalized: normalized, Resolved: resolved, Invalid: invalid,
		Hosts: hostCounts, Schemes: schemeCounts, Summary: summary,
	} {
		shards := c.Shards
		if name == Summary {
			shards = 1
		}
		write(s.Scope("write."+name), path.Join(c.Out, name), c.Ext(), shards, col)
	}
}

// classifyFn sorts lines into URIs (keyed for deduplication), resolved
// pairs and invalid lines (their records).
type classifyFn struct {
	Opts Options
	c    *classifier
}

func (f *classifyFn) Setup() { f.c = newClassifier(f.Opts) }

func (f *classifyFn) ProcessElement(l string, uri func(string, string), resolved, invalid func(string)) error {
	r, err := f.c.classify(l)
	if err != nil {
		return err
	}
	switch r.kind {
	case uriLine:
		uri(r.key, l)
	case resolvedLine:
		resolved(r.record)
	default:
		invalid(r.record)
	}
	return nil
}

func minString(a, b string) string {
	if b < a {
		return b
	}
	return a
}

// normalizedFn writes the record of each distinct URI, and its host and
// scheme for the counts: "" when it has none, else "=" and the host or
// scheme, so that none differs from the empty host of "file:///x".
type normalizedFn struct {
	Opts Options
	c    *classifier
}

func (f *normalizedFn) Setup() { f.c = newClassifier(f.Opts) }

func (f *normalizedFn) ProcessElement(_, l string, record, host, scheme func(string)) error {
	s, u, err := f.c.normalized(l)
	if err != nil {
		return fmt.Errorf("line %q was valid, and is not: %w", l, err)
	}
	record(s)
	host(component(u.HasAuthority(), u.Host()))
	scheme(component(u.HasScheme(), u.Scheme()))
	return nil
}

func component(has bool, s string) string {
	if !has {
		return ""
	}
	return "=" + s
}

// HostCount and SchemeCount are the records of the counts: how many
// distinct URIs (at the level) have the host or scheme; null for none.
type HostCount struct {
	Host *string `json:"host"`
	URIs int     `json:"uris"`
}

type SchemeCount struct {
	Scheme *string `json:"scheme"`
	URIs   int     `json:"uris"`
}

// countFn writes a count's record: JSON, or "N<TAB>value" as uniq -c,
// with "-" for none.
type countFn struct {
	Field string
	Text  bool
}

func (f *countFn) ProcessElement(v string, n int, emit func(string)) {
	var p *string
	if rest, ok := strings.CutPrefix(v, "="); ok {
		p = &rest
	}
	if f.Text {
		t := "-"
		if p != nil {
			t = *p
		}
		emit(fmt.Sprintf("%d\t%s", n, t))
		return
	}
	var b []byte
	if f.Field == "host" {
		b, _ = json.Marshal(HostCount{p, n})
	} else {
		b, _ = json.Marshal(SchemeCount{p, n})
	}
	emit(string(b))
}

// SummaryRecord counts the lines: each is a URI (valid, one line), a
// resolved pair or an invalid line, so Lines = URIs + Resolved + Invalid
// (nothing is dropped), and Distinct is how many records Normalized has.
type SummaryRecord struct {
	Lines    int `json:"lines"`
	URIs     int `json:"uris"`
	Distinct int `json:"distinct"`
	Resolved int `json:"resolved"`
	Invalid  int `json:"invalid"`
}

type summaryFn struct{ Text bool }

func (f *summaryFn) ProcessElement(_ []byte, uris, distinct, resolved, invalid int, emit func(string)) error {
	r := SummaryRecord{Lines: uris + resolved + invalid, URIs: uris, Distinct: distinct, Resolved: resolved, Invalid: invalid}
	if f.Text {
		emit(fmt.Sprintf("lines\t%d\nuris\t%d\ndistinct\t%d\nresolved\t%d\ninvalid\t%d", r.Lines, r.URIs, r.Distinct, r.Resolved, r.Invalid))
		return nil
	}
	b, err := json.Marshal(r)
	emit(string(b))
	return err
}

// write writes col as a file set of at most shards files, records spread
// by a hash of their text, so that a run writes the same files twice.
func write(s beam.Scope, prefix, ext string, shards int, col beam.PCollection) {
	if shards < 1 {
		shards = 1
	}
	keyed := beam.ParDo(s, &shardFn{Shards: shards}, col)
	beam.ParDo0(s, &writeFn{Prefix: prefix, Ext: ext, Shards: shards}, beam.GroupByKey(s, keyed))
}

type shardFn struct{ Shards int }

func (f *shardFn) ProcessElement(r string, emit func(int, string)) {
	h := fnv.New32a()
	h.Write([]byte(r))
	emit(int(h.Sum32()%uint32(f.Shards)), r)
}

// ShardName is the name of one file of a set.
func ShardName(prefix, ext string, shard, shards int) string {
	return fmt.Sprintf("%s-%05d-of-%05d%s", prefix, shard, shards, ext)
}

type writeFn struct {
	Prefix, Ext string
	Shards      int
}

func (f *writeFn) ProcessElement(ctx context.Context, shard int, records func(*string) bool) error {
	name := ShardName(f.Prefix, f.Ext, shard, f.Shards)
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, name)
	if err != nil {
		return err
	}
	bw := newLineWriter(w)
	var r string
	for records(&r) {
		bw.line(r)
	}
	return bw.close()
}


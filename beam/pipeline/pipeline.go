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
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"
	"github.com/google/uuid"

	// The file systems a glob or an output may name: local paths, and
	// gs:// for Dataflow.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
)

// DefaultRunner is the in-process runner uripipe uses unless -runner says
// otherwise: direct, measured faster than prism here (docs/beam.md).
const DefaultRunner = "direct"

// The output file sets, each as PREFIX/NAME-SSSSS-of-NNNNN.EXT, a file
// per bundle that wrote records.
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
// output prefix, and the Options.
type Config struct {
	Inputs []string
	Out    string
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
	register.DoFn5x1[string, func(string, string), func(string), func(string), func(string, int), error](&classifyFn{})
	register.Emitter2[string, string]()
	register.Emitter2[string, int]()
	register.Emitter1[string]()
	register.Function2x1(minString)
	register.Function2x0(zerosFn)
	register.DoFn6x1[string, string, func(string), func(string, int), func(string, int), func(string, int), error](&normalizedFn{})
	register.DoFn3x0[string, int, func(string)](&countFn{})
	register.DoFn3x0[string, int, func(string)](&countNameFn{})
	register.DoFn3x1[int, func(*string) bool, func(string), error](&summaryFn{})
	register.DoFn3x1[context.Context, string, func(string), error](&writeFn{})
	register.DoFn3x1[context.Context, int, func(*string) bool, error](&finalizeFn{})
	register.Iter1[string]()
}

// Build adds the pipeline to s.
//
// The in-process runners neither lift combiners nor stream a
// GroupByKey: what goes through one is held in memory. So the pipeline
// sends as little as it can through them: each bundle deduplicates its
// URIs and counts its lines and hosts before the shuffle (what a
// combiner lifted by a cluster runner does too), and the files are
// written by the bundles themselves, only their names being grouped.
func Build(s beam.Scope, c Config) {
	var lines []beam.PCollection
	for _, glob := range c.Inputs {
		lines = append(lines, textio.Read(s, glob))
	}
	all := beam.Flatten(s, lines...)
	uris, resolved, invalid, lineCounts := beam.ParDo4(s, &classifyFn{Opts: c.Options}, all)
	// One URI per key: the least line, so that the choice does not
	// depend on the runner's order.
	distinct := beam.CombinePerKey(s, minString, uris)
	normalized, hosts, schemes, distinctCounts := beam.ParDo4(s, &normalizedFn{Opts: c.Options}, distinct)
	hostCounts := beam.ParDo(s, &countFn{Field: "host", Text: c.Text}, stats.SumPerKey(s, hosts))
	schemeCounts := beam.ParDo(s, &countFn{Field: "scheme", Text: c.Text}, stats.SumPerKey(s, schemes))
	// Every count, zero included, so that the summary has them all.
	zeros := beam.ParDo(s, zerosFn, beam.Impulse(s))
	counts := stats.SumPerKey(s, beam.Flatten(s, lineCounts, distinctCounts, zeros))
	named := beam.ParDo(s, &countNameFn{}, counts)
	summary := beam.ParDo(s, &summaryFn{Text: c.Text}, beam.GroupByKey(s, beam.AddFixedKey(s, named)))
	for name, col := range map[string]beam.PCollection{
		Normalized: normalized, Resolved: resolved, Invalid: invalid,
		Hosts: hostCounts, Schemes: schemeCounts, Summary: summary,
	} {
		write(s.Scope("write."+name), path.Join(c.Out, name), c.Ext(), col)
	}
}

// counted are the names of the summary's counts.
var counted = []string{"uris", "resolved", "invalid", "distinct"}

// zerosFn emits every count at zero: a cluster's workers find it by
// name, so it is a registered function, not a closure.
func zerosFn(_ []byte, emit func(string, int)) {
	for _, n := range counted {
		emit(n, 0)
	}
}

// maxBundleKeys bounds a bundle's deduplication map: past it, the bundle
// sends what it has and starts again (a URI may then go twice through
// the shuffle, never twice to the output).
const maxBundleKeys = 1 << 20

// classifyFn sorts lines into URIs (keyed for deduplication, the least
// line of each key in the bundle), resolved pairs and invalid lines
// (their records), and counts them.
type classifyFn struct {
	Opts  Options
	c     *classifier
	least map[string]string
	n     [3]int // per kind
}

func (f *classifyFn) Setup() { f.c = newClassifier(f.Opts) }

func (f *classifyFn) StartBundle(_ func(string, string), _, _ func(string), _ func(string, int)) {
	f.least = map[string]string{}
	f.n = [3]int{}
}

func (f *classifyFn) ProcessElement(l string, uri func(string, string), resolved, invalid func(string), _ func(string, int)) error {
	r, err := f.c.classify(l)
	if err != nil {
		return err
	}
	f.n[r.kind]++
	switch r.kind {
	case uriLine:
		if old, ok := f.least[r.key]; !ok || l < old {
			if !ok && len(f.least) >= maxBundleKeys {
				f.flush(uri)
			}
			f.least[r.key] = l
		}
	case resolvedLine:
		resolved(r.record)
	default:
		invalid(r.record)
	}
	return nil
}

func (f *classifyFn) flush(uri func(string, string)) {
	for k, l := range f.least {
		uri(k, l)
	}
	clear(f.least)
}

func (f *classifyFn) FinishBundle(uri func(string, string), _, _ func(string), count func(string, int)) {
	f.flush(uri)
	for k, name := range counted[:3] {
		if f.n[k] > 0 {
			count(name, f.n[k])
		}
	}
}

func minString(a, b string) string {
	if b < a {
		return b
	}
	return a
}

// normalizedFn writes the record of each distinct URI, and counts them
// per host and scheme in the bundle: "" when the URI has none, else "="
// and the host or scheme, so that none differs from the empty host of
// "file:///x".
type normalizedFn struct {
	Opts           Options
	c              *classifier
	hosts, schemes map[string]int
	distinct       int
}

func (f *normalizedFn) Setup() { f.c = newClassifier(f.Opts) }

func (f *normalizedFn) StartBundle(_ func(string), _, _, _ func(string, int)) {
	f.hosts, f.schemes, f.distinct = map[string]int{}, map[string]int{}, 0
}

func (f *normalizedFn) ProcessElement(_, l string, record func(string), _, _, _ func(string, int)) error {
	s, u, err := f.c.normalized(l)
	if err != nil {
		return fmt.Errorf("line %q was valid, and is not: %w", l, err)
	}
	record(s)
	f.hosts[component(u.HasAuthority(), u.Host())]++
	f.schemes[component(u.HasScheme(), u.Scheme())]++
	f.distinct++
	return nil
}

func (f *normalizedFn) FinishBundle(_ func(string), host, scheme, count func(string, int)) {
	for h, n := range f.hosts {
		host(h, n)
	}
	for sc, n := range f.schemes {
		scheme(sc, n)
	}
	if f.distinct > 0 {
		count("distinct", f.distinct)
	}
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

// countNameFn is a count as "name=N", for the summary.
type countNameFn struct{}

func (countNameFn) ProcessElement(name string, n int, emit func(string)) {
	emit(fmt.Sprintf("%s=%d", name, n))
}

type summaryFn struct{ Text bool }

func (f *summaryFn) ProcessElement(_ int, counts func(*string) bool, emit func(string)) error {
	m := map[string]int{}
	var c string
	for counts(&c) {
		name, n, _ := strings.Cut(c, "=")
		v, err := strconv.Atoi(n)
		if err != nil {
			return err
		}
		m[name] += v
	}
	r := SummaryRecord{Lines: m["uris"] + m["resolved"] + m["invalid"], URIs: m["uris"], Distinct: m["distinct"], Resolved: m["resolved"], Invalid: m["invalid"]}
	if f.Text {
		emit(fmt.Sprintf("lines\t%d\nuris\t%d\ndistinct\t%d\nresolved\t%d\ninvalid\t%d", r.Lines, r.URIs, r.Distinct, r.Resolved, r.Invalid))
		return nil
	}
	b, err := json.Marshal(r)
	emit(string(b))
	return err
}

// write writes col as a file set: each bundle writes its records to a
// file of its own under PREFIX's temporary directory, then one step, once
// every bundle is done, renames them PREFIX-SSSSS-of-NNNNN.EXT (or writes
// an empty PREFIX-00000-of-00001.EXT when there is no record). A bundle
// that failed and was retried leaves a file no name was sent for, which
// the renaming step deletes with the directory.
func write(s beam.Scope, prefix, ext string, col beam.PCollection) {
	tmp := prefix + ".tmp"
	names := beam.ParDo(s, &writeFn{Dir: tmp, Ext: ext}, col)
	// The empty name makes the step run when no bundle wrote.
	names = beam.Flatten(s, names, beam.Create(s, ""))
	beam.ParDo0(s, &finalizeFn{Prefix: prefix, Ext: ext, Dir: tmp}, beam.GroupByKey(s, beam.AddFixedKey(s, names)))
}

// ShardName is the name of one file of a set.
func ShardName(prefix, ext string, shard, shards int) string {
	return fmt.Sprintf("%s-%05d-of-%05d%s", prefix, shard, shards, ext)
}

type writeFn struct {
	Dir, Ext string
	name     string
	w        *lineWriter
}

func (f *writeFn) ProcessElement(ctx context.Context, r string, _ func(string)) error {
	if f.w == nil {
		f.name = fmt.Sprintf("%s/%s%s", f.Dir, uuid.NewString(), f.Ext)
		fs, err := filesystem.New(ctx, f.name)
		if err != nil {
			return err
		}
		w, err := fs.OpenWrite(ctx, f.name)
		if err != nil {
			fs.Close()
			return err
		}
		f.w = newLineWriter(w, fs)
	}
	f.w.line(r)
	return nil
}

func (f *writeFn) FinishBundle(_ context.Context, emit func(string)) error {
	if f.w == nil {
		return nil
	}
	err := f.w.close()
	f.w = nil
	if err == nil {
		emit(f.name)
	}
	return err
}

type finalizeFn struct {
	Prefix, Ext, Dir string
}

func (f *finalizeFn) ProcessElement(ctx context.Context, _ int, names func(*string) bool) error {
	var files []string
	var n string
	for names(&n) {
		if n != "" {
			files = append(files, n)
		}
	}
	// Sorted, so that a rerun of the same step names the same files.
	sort.Strings(files)
	fs, err := filesystem.New(ctx, f.Prefix)
	if err != nil {
		return err
	}
	defer fs.Close()
	if len(files) == 0 {
		w, err := fs.OpenWrite(ctx, ShardName(f.Prefix, f.Ext, 0, 1))
		if err != nil {
			return err
		}
		return w.Close()
	}
	for i, name := range files {
		if err := filesystem.Rename(ctx, fs, name, ShardName(f.Prefix, f.Ext, i, len(files))); err != nil {
			return err
		}
	}
	return removeDir(ctx, fs, f.Dir)
}

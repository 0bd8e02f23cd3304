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
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
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
	register.DoFn4x1[context.Context, *sdf.LockRTracker, fileio.ReadableFile, func([]string), error](&readBatchFn{})
	register.DoFn5x1[[]string, func(int, []string), func([]string), func([]string), func(string, int), error](&classifyFn{})
	register.DoFn6x1[int, func(*[]string) bool, func([]string), func(int, []string), func(int, []string), func(string, int), error](&dedupFn{})
	register.DoFn3x1[int, func(*[]string) bool, func([]string), error](&countFn{})
	register.Function2x0(zerosFn)
	register.DoFn3x0[string, int, func(string)](&countNameFn{})
	register.DoFn3x1[int, func(*string) bool, func([]string), error](&summaryFn{})
	register.DoFn3x1[context.Context, []string, func(string), error](&writeFn{})
	register.DoFn3x1[context.Context, int, func(*string) bool, error](&finalizeFn{})
	register.Emitter1[[]string]()
	register.Emitter2[int, []string]()
	register.Emitter2[string, int]()
	register.Emitter1[string]()
	register.Iter1[[]string]()
	register.Iter1[string]()
}

// Build adds the pipeline to s.
//
// Its elements are batches: a few thousand lines, URIs or records each,
// because the SDK's cost per element (and the shuffle's) is many times a
// line's parsing. The lines are read in batches; each bundle deduplicates
// its URIs and sends them through the shuffle grouped in a fixed number
// of buckets by a hash of their key, where each bucket keeps the least
// line of each key; the hosts and schemes are counted the same way. The
// in-process runners neither lift combiners nor stream a GroupByKey: what
// goes through one is held in memory, so the bundles deduplicate and
// count before the shuffle (what a combiner lifted by a cluster runner
// does too), and write their own files, only their names being grouped.
func Build(s beam.Scope, c Config) {
	var lines []beam.PCollection
	for _, glob := range c.Inputs {
		lines = append(lines, readLines(s, glob))
	}
	all := beam.Flatten(s, lines...)
	uris, resolved, invalid, lineCounts := beam.ParDo4(s, &classifyFn{Opts: c.Options}, all)
	normalized, hosts, schemes, distinctCounts := beam.ParDo4(s, &dedupFn{Opts: c.Options}, beam.GroupByKey(s, uris))
	hostCounts := beam.ParDo(s, &countFn{Field: "host", Text: c.Text}, beam.GroupByKey(s, hosts))
	schemeCounts := beam.ParDo(s, &countFn{Field: "scheme", Text: c.Text}, beam.GroupByKey(s, schemes))
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

// maxBundleKeys bounds a bundle's deduplication map (and its maps of
// counts): past it, the bundle sends what it has and starts again (a URI
// may then go twice through the shuffle, never twice to the output).
const maxBundleKeys = 1 << 20

// buckets is how many groups the shuffle sorts the URIs (by their key)
// and the hosts and schemes into: the parallelism of the steps after it,
// and a bound on the elements it holds per bundle before it.
const buckets = 1024

// bucket is key's group: a hash of its bytes, eight at a time, the same
// on every worker (unlike maphash's).
func bucket(key string) int {
	const m = 0x9e3779b97f4a7c15
	h := uint64(len(key)) * m
	for ; len(key) >= 8; key = key[8:] {
		w := uint64(key[0]) | uint64(key[1])<<8 | uint64(key[2])<<16 | uint64(key[3])<<24 |
			uint64(key[4])<<32 | uint64(key[5])<<40 | uint64(key[6])<<48 | uint64(key[7])<<56
		h = (h ^ w) * m
		h ^= h >> 32
	}
	for i := 0; i < len(key); i++ {
		h = (h ^ uint64(key[i])) * m
	}
	h ^= h >> 29
	return int(h % buckets)
}

// entry is how a URI goes through the shuffle: its line, and its key
// after a NUL when the key differs (no valid URI holds a NUL byte).
func entry(key, line string) string {
	if key == line {
		return line
	}
	return line + "\x00" + key
}

func splitEntry(e string) (key, line string) {
	if i := strings.IndexByte(e, 0); i >= 0 {
		return e[i+1:], e[:i]
	}
	return e, e
}

// classifyFn sorts a batch of lines into URIs (keyed for deduplication,
// the least line of each key in the bundle), resolved pairs and invalid
// lines (batches of their records), and counts them.
type classifyFn struct {
	Opts  Options
	c     *classifier
	least map[string]string
	n     [3]int // per kind
}

func (f *classifyFn) Setup() { f.c = newClassifier(f.Opts) }

func (f *classifyFn) StartBundle(_ func(int, []string), _, _ func([]string), _ func(string, int)) {
	f.least = map[string]string{}
	f.n = [3]int{}
}

func (f *classifyFn) ProcessElement(batch []string, uri func(int, []string), resolved, invalid func([]string), _ func(string, int)) error {
	var res, inv []string
	for _, l := range batch {
		r, err := f.c.classify(l)
		if err != nil {
			return err
		}
		f.n[r.kind]++
		switch r.kind {
		case uriLine:
			if r.key == l {
				r.key = l // one string for both
			}
			if old, ok := f.least[r.key]; !ok || l < old {
				if !ok && len(f.least) >= maxBundleKeys {
					f.flush(uri)
				}
				f.least[r.key] = l
			}
		case resolvedLine:
			res = append(res, r.record)
		default:
			inv = append(inv, r.record)
		}
	}
	if len(res) > 0 {
		resolved(res)
	}
	if len(inv) > 0 {
		invalid(inv)
	}
	return nil
}

// flush sends the bundle's URIs, a batch per bucket.
func (f *classifyFn) flush(uri func(int, []string)) {
	var parts [buckets][]string
	for k, l := range f.least {
		b := bucket(k)
		parts[b] = append(parts[b], entry(k, l))
	}
	for b, p := range parts {
		if len(p) > 0 {
			uri(b, p)
		}
	}
	clear(f.least)
}

func (f *classifyFn) FinishBundle(uri func(int, []string), _, _ func([]string), count func(string, int)) {
	f.flush(uri)
	for k, name := range counted[:3] {
		if f.n[k] > 0 {
			count(name, f.n[k])
		}
	}
}

// dedupFn keeps the least line of each key of a bucket, writes the
// records of those distinct URIs, and counts them per host and scheme in
// the bundle: "" when the URI has none, else "=" and the host or scheme,
// so that none differs from the empty host of "file:///x".
type dedupFn struct {
	Opts           Options
	c              *classifier
	hosts, schemes map[string]int
	distinct       int
}

func (f *dedupFn) Setup() { f.c = newClassifier(f.Opts) }

func (f *dedupFn) StartBundle(_ func([]string), _, _ func(int, []string), _ func(string, int)) {
	f.hosts, f.schemes, f.distinct = map[string]int{}, map[string]int{}, 0
}

func (f *dedupFn) ProcessElement(_ int, entries func(*[]string) bool, record func([]string), host, scheme func(int, []string), _ func(string, int)) error {
	var batches [][]string
	n := 0
	var batch []string
	for entries(&batch) {
		batches = append(batches, batch)
		n += len(batch)
	}
	least := make(map[string]string, n)
	for _, batch := range batches {
		for _, e := range batch {
			k, l := splitEntry(e)
			if old, ok := least[k]; !ok || l < old {
				least[k] = l
			}
		}
	}
	var out []string
	for _, l := range least {
		s, u, err := f.c.normalized(l)
		if err != nil {
			return fmt.Errorf("line %q was valid, and is not: %w", l, err)
		}
		if out == nil {
			out = make([]string, 0, min(len(least), batchLines))
		}
		out = append(out, s)
		if len(out) == batchLines {
			record(out)
			out = nil
		}
		f.hosts[component(u.HasAuthority(), u.Host())]++
		f.schemes[component(u.HasScheme(), u.Scheme())]++
	}
	if len(out) > 0 {
		record(out)
	}
	f.distinct += len(least)
	if len(f.hosts) >= maxBundleKeys || len(f.schemes) >= maxBundleKeys {
		f.flush(host, scheme)
	}
	return nil
}

// flush sends the bundle's counts, "N VALUE" each, a batch per bucket of
// the value.
func (f *dedupFn) flush(host, scheme func(int, []string)) {
	for _, c := range []struct {
		m    map[string]int
		emit func(int, []string)
	}{{f.hosts, host}, {f.schemes, scheme}} {
		var parts [buckets][]string
		for v, n := range c.m {
			b := bucket(v)
			parts[b] = append(parts[b], strconv.Itoa(n)+" "+v)
		}
		for b, p := range parts {
			if len(p) > 0 {
				c.emit(b, p)
			}
		}
		clear(c.m)
	}
}

func (f *dedupFn) FinishBundle(_ func([]string), host, scheme func(int, []string), count func(string, int)) {
	f.flush(host, scheme)
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

// countFn sums a bucket's counts ("N VALUE", from dedupFn) per value,
// and writes their records: JSON, or "N<TAB>value" as uniq -c, with "-"
// for none.
type countFn struct {
	Field string
	Text  bool
}

func (f *countFn) ProcessElement(_ int, parts func(*[]string) bool, emit func([]string)) error {
	sums := map[string]int{}
	var batch []string
	for parts(&batch) {
		for _, c := range batch {
			n, v, _ := strings.Cut(c, " ")
			k, err := strconv.Atoi(n)
			if err != nil {
				return err
			}
			sums[v] += k
		}
	}
	out := make([]string, 0, len(sums))
	for v, n := range sums {
		out = append(out, f.record(v, n))
	}
	if len(out) > 0 {
		emit(out)
	}
	return nil
}

func (f *countFn) record(v string, n int) string {
	var p *string
	if rest, ok := strings.CutPrefix(v, "="); ok {
		p = &rest
	}
	if f.Text {
		t := "-"
		if p != nil {
			t = *p
		}
		return fmt.Sprintf("%d\t%s", n, t)
	}
	var b []byte
	if f.Field == "host" {
		b, _ = json.Marshal(HostCount{p, n})
	} else {
		b, _ = json.Marshal(SchemeCount{p, n})
	}
	return string(b)
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

func (f *summaryFn) ProcessElement(_ int, counts func(*string) bool, emit func([]string)) error {
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
		emit([]string{fmt.Sprintf("lines\t%d\nuris\t%d\ndistinct\t%d\nresolved\t%d\ninvalid\t%d", r.Lines, r.URIs, r.Distinct, r.Resolved, r.Invalid)})
		return nil
	}
	b, err := json.Marshal(r)
	emit([]string{string(b)})
	return err
}

// write writes col, batches of records, as a file set: each bundle writes its records to a
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

func (f *writeFn) ProcessElement(ctx context.Context, rs []string, _ func(string)) error {
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
	for _, r := range rs {
		f.w.line(r)
	}
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

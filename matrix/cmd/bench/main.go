// Command bench measures this library, net/url and fredbi/uri on the same
// inputs in one process: Parse on the mixed corpus (testdata/bench-corpus.txt)
// and on the long one (testdata/bench-long.txt), the parse tree, resolution
// (RFC 3986 §5.4's 42 references, and the mixed corpus against a page's
// URI: parse, resolve, write; by value, and in place with URI.Set and
// ResolveTo) and normalization
// (URIs already normal, and URIs that need it). It lives in the matrix
// module so that fredbi/uri never reaches the main module's dependencies.
//
// Every round runs every case once, for about -time, in an order that
// rotates from round to round, so that the machine's load falls on all
// alike; the table takes the median of the rounds. Each round of each case
// is also printed as a benchmark result line, so that the output is what
// benchstat reads:
//
//	go run -C matrix ./cmd/bench > bench.txt
//	benchstat -col /lib bench.txt
//
// Flags: -rounds (default 10), -time (per case and round, default 50ms),
// -run (a regexp the case names must match), -testdata (default
// ../testdata). The tables are printed last, as Markdown, the figures
// docs/benchmarks.md and the README quote: elapsed time, and (on Linux) the
// CPU time of the benchmark's thread, which a loaded machine disturbs less.
package main

import (
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	fredbi "github.com/fredbi/uri"
	"github.com/peguri/rfc3986"
	"github.com/peguri/rfc3986/parser"
)

// The libraries, in the table's order.
const (
	ours   = "rfc3986"
	netURL = "net_url"
	fredbU = "fredbi_uri"
)

var libs = []string{ours, netURL, fredbU}

// A bench is one operation of one library over a list of inputs: one op
// is one pass over them.
type bench struct {
	op, lib string
	n       int   // inputs per op
	bytes   int64 // their total size
	pass    func() error
}

func (b *bench) name() string { return "Benchmark" + b.op + "/lib=" + b.lib }

// A sample is one round of one bench; the time and allocations are per
// op.
type sample struct {
	iters  int
	wall   float64 // ns per op
	cpu    float64 // ns of the thread's CPU time per op; 0 without the clock
	allocs float64 // per op
}

func main() {
	rounds := flag.Int("rounds", 10, "rounds of interleaved runs")
	per := flag.Duration("time", 50*time.Millisecond, "time per case and round")
	run := flag.String("run", "", "run only the cases whose name matches this `regexp`")
	dir := flag.String("testdata", "../testdata", "the `directory` of the corpora")
	flag.Parse()
	if err := main1(os.Stdout, *dir, *run, *rounds, *per); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func main1(w io.Writer, dir, run string, rounds int, per time.Duration) error {
	// One thread, so that its CPU time is the benchmark's.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	benches, err := cases(dir)
	if err != nil {
		return err
	}
	re, err := regexp.Compile(run)
	if err != nil {
		return err
	}
	benches = slices.DeleteFunc(benches, func(b *bench) bool { return !re.MatchString(b.name()) })
	refused := make([]int, len(benches))
	for i, b := range benches {
		if err := b.pass(); err != nil {
			r, ok := err.(rejected)
			if !ok {
				return fmt.Errorf("%s: %v", b.name(), err)
			}
			refused[i] = int(r)
		}
	}
	header(w)
	// Calibrate: iterations that take about per, from a short run.
	iters := make([]int, len(benches))
	for i, b := range benches {
		n := 1
		for {
			t0 := time.Now()
			for range n {
				_ = b.pass()
			}
			if d := time.Since(t0); d >= per/10 {
				iters[i] = max(1, int(float64(n)*float64(per)/float64(d)))
				break
			}
			n *= 2
		}
	}
	samples := make([][]sample, len(benches))
	for r := range rounds {
		for k := range benches {
			i := (k + r) % len(benches) // rotate the order
			s := measure(benches[i], iters[i])
			samples[i] = append(samples[i], s)
			b := benches[i]
			fmt.Fprintf(w, "%s\t%d\t%.1f ns/op\t%.1f ns/uri", b.name(), s.iters, s.wall, s.wall/float64(b.n))
			if b.bytes > 0 {
				fmt.Fprintf(w, "\t%.3f bytes/ns", float64(b.bytes)/s.wall)
			}
			if s.cpu > 0 {
				fmt.Fprintf(w, "\t%.1f cpu-ns/uri", s.cpu/float64(b.n))
				if b.bytes > 0 {
					fmt.Fprintf(w, "\t%.3f cpu-bytes/ns", float64(b.bytes)/s.cpu)
				}
			}
			fmt.Fprintf(w, "\t%.2f allocs/op\t%.2f allocs/uri\n", s.allocs, s.allocs/float64(b.n))
		}
	}
	runtime.KeepAlive(sink)
	fmt.Fprintf(w, "\nMedians of %d rounds, elapsed time:\n\n", rounds)
	table(w, benches, samples, refused, func(s sample) float64 { return s.wall })
	if samples[0][0].cpu > 0 {
		// On a loaded machine, elapsed time counts the time other
		// processes ran on the core; the thread's CPU time does not. It
		// leaves out the garbage collector's background work on other
		// threads, which flatters the libraries that allocate.
		fmt.Fprintf(w, "\nMedians of %d rounds, the thread's CPU time:\n\n", rounds)
		table(w, benches, samples, refused, func(s sample) float64 { return s.cpu })
	}
	return nil
}

// measure runs b iters times, and returns the time and allocations per op.
func measure(b *bench, iters int) sample {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	c0, hasCPU := threadCPU()
	t0 := time.Now()
	for range iters {
		_ = b.pass()
	}
	d := time.Since(t0)
	c1, _ := threadCPU()
	runtime.ReadMemStats(&m1)
	s := sample{iters: iters, wall: float64(d.Nanoseconds()) / float64(iters),
		allocs: float64(m1.Mallocs-m0.Mallocs) / float64(iters)}
	if hasCPU {
		s.cpu = float64(c1-c0) / float64(iters)
	}
	return s
}

// header prints the configuration lines of Go's benchmark format, and the
// machine in a comment.
func header(w io.Writer) {
	fmt.Fprintf(w, "goos: %s\ngoarch: %s\npkg: github.com/peguri/rfc3986/matrix/cmd/bench\ncpu: %s\n", runtime.GOOS, runtime.GOARCH, cpuModel())
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Fprintf(w, "# %s, GOMAXPROCS %d, %d CPUs, load average %s\n", runtime.Version(), runtime.GOMAXPROCS(0), runtime.NumCPU(), strings.Join(strings.Fields(string(load))[:min(3, len(strings.Fields(string(load))))], " "))
}

// cpuModel is the model name of /proc/cpuinfo, or "unknown".
func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	for _, l := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// median of the samples' values.
func median(xs []float64) float64 {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	if len(xs) == 0 {
		return 0
	}
	if len(xs)%2 == 1 {
		return xs[len(xs)/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}

// table prints the medians: per operation, each library's bytes/ns (for
// the corpora), ns per URI and allocations per URI, and the median of the
// rounds' ratios of this library's time to net/url's.
func table(w io.Writer, benches []*bench, samples [][]sample, refused []int, ns func(sample) float64) {
	fmt.Fprintf(w, "| operation | %s | %s | %s | %s / %s |\n", ours, strings.ReplaceAll(netURL, "_", "/"), strings.ReplaceAll(fredbU, "_", "/"), ours, "net/url")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|")
	var ops []string
	for _, b := range benches {
		if !slices.Contains(ops, b.op) {
			ops = append(ops, b.op)
		}
	}
	for _, op := range ops {
		fmt.Fprintf(w, "| %s |", op)
		byLib := map[string]int{}
		for i, b := range benches {
			if b.op == op {
				byLib[b.lib] = i
			}
		}
		for _, lib := range libs {
			i, ok := byLib[lib]
			if !ok {
				fmt.Fprint(w, " n/a |")
				continue
			}
			b := benches[i]
			var times, allocs []float64
			for _, s := range samples[i] {
				times = append(times, ns(s)/float64(b.n))
				allocs = append(allocs, s.allocs/float64(b.n))
			}
			cell := fmt.Sprintf("%s ns, %s allocs", num(median(times)), num(median(allocs)))
			if b.bytes > 0 {
				cell = fmt.Sprintf("%#.3g B/ns, ", float64(b.bytes)/float64(b.n)/median(times)) + cell
			}
			if refused[i] > 0 {
				cell += fmt.Sprintf(" (rejects %d of %d)", refused[i], b.n)
			}
			fmt.Fprintf(w, " %s |", cell)
		}
		o, okO := byLib[ours]
		t, okT := byLib[netURL]
		if okO && okT {
			var ratios []float64
			for r := range samples[o] {
				ratios = append(ratios, ns(samples[o][r])/ns(samples[t][r]))
			}
			fmt.Fprintf(w, " %.2f |\n", median(ratios))
		} else {
			fmt.Fprintln(w, " |")
		}
	}
}

// num formats a figure with sensible precision.
func num(x float64) string {
	switch {
	case x == 0:
		return "0"
	case x < 10:
		return fmt.Sprintf("%.2g", x)
	case x < 1000:
		return fmt.Sprintf("%.0f", x)
	}
	s := fmt.Sprintf("%.0f", x)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func lines(dir, name string) ([]string, int64, error) {
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return nil, 0, err
	}
	ls := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var n int64
	for _, l := range ls {
		n += int64(len(l))
	}
	return ls, n, nil
}

// rfcBase and rfcRefs are RFC 3986 §5.4's base and its 42 references
// (§5.4.1 normal, §5.4.2 abnormal examples).
const rfcBase = "http://a/b/c/d;p?q"

// pageBase is the base of the mixed corpus's references, resolved as the
// links of a page.
const pageBase = "https://www.example.com/docs/guide/index.html?lang=en"

var rfcRefs = []string{
	"g:h", "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", "g?y#s", ";x", "g;x", "g;x?y#s",
	"", ".", "./", "..", "../", "../g", "../..", "../../", "../../g",
	"../../../g", "../../../../g", "/./g", "/../g", "g.", ".g", "g..", "..g", "./../g", "./g/.",
	"g/./h", "g/../h", "g;x=1/./y", "g;x=1/../y", "g?y/./x", "g?y/../x", "g#s/./x", "g#s/../x", "http:g",
}

// dirty are URIs that the default normalization changes, each in one or
// more ways (case, percent-encoding, dot segments, default ports).
var dirty = []string{
	"HTTP://www.Example.COM/", "http://example.com", "http://example.com:80/", "http://example.com:/a",
	"https://EXAMPLE.com:443/a/./b", "http://a/b/c/./../../g", "http://a/%7Euser/%7efile", "http://a/%3a%2f?%3d#%41",
	"eXAMPLE://a/./b/../b/%63/%7bfoo%7d", "http://u%41@h/p", "http://[2001:DB8::1]:80/", "ftp://ftp.Example.org:21",
	"ws://a:80/chat/../socket", "http://a/b/%2E%2E/c", "foo://Host:/x/../y", "mailto:Joe@Example.COM",
}

// cases are every operation of every library that has it.
func cases(dir string) ([]*bench, error) {
	mixed, mixedN, err := lines(dir, "bench-corpus.txt")
	if err != nil {
		return nil, err
	}
	long, longN, err := lines(dir, "bench-long.txt")
	if err != nil {
		return nil, err
	}
	// The normal forms of the mixed corpus: URIs that normalization
	// leaves as they are.
	var clean []string
	for _, s := range mixed {
		n, err := rfc3986.NormalizeString(s, rfc3986.NormalizeDefault)
		if err != nil {
			return nil, err
		}
		clean = append(clean, n)
	}
	var out []*bench
	for _, c := range []struct {
		op    string
		in    []string
		bytes int64
	}{{"Parse/corpus=mixed", mixed, mixedN}, {"Parse/corpus=long", long, longN}} {
		in := c.in
		out = append(out,
			&bench{c.op, ours, len(in), c.bytes, func() error {
				for _, s := range in {
					if _, err := rfc3986.Parse(s); err != nil {
						return err
					}
				}
				return nil
			}},
			&bench{c.op, netURL, len(in), c.bytes, func() error {
				return rejects(in, func(s string) error { _, err := url.Parse(s); return err })
			}},
			&bench{c.op, fredbU, len(in), c.bytes, func() error {
				return rejects(in, func(s string) error { _, err := fredbi.ParseReference(s); return err })
			}})
	}
	out = append(out, &bench{"Tree/corpus=mixed", ours, len(mixed), mixedN, func() error {
		for _, s := range mixed {
			if _, _, err := parser.ParseTree("URI-reference", s); err != nil {
				return err
			}
		}
		return nil
	}})
	// Resolution: §5.4's references against its base, and the mixed
	// corpus, links as a crawler finds them (most of them absolute),
	// against a page's URI.
	for _, c := range []struct {
		refs, base string
		in         []string
	}{{"rfc3986-5.4", rfcBase, rfcRefs}, {"corpus", pageBase, mixed}} {
		base, err := rfc3986.Parse(c.base)
		if err != nil {
			return nil, err
		}
		ubase, err := url.Parse(c.base)
		if err != nil {
			return nil, err
		}
		in := c.in
		theirs := func() error {
			for _, s := range in {
				r, err := url.Parse(s)
				if err != nil {
					return err
				}
				sink = ubase.ResolveReference(r).String()
			}
			return nil
		}
		// ResolveTo is the same in place, as a loop over many references
		// would write it: URI.Set and ResolveTo, which copy no URI, where
		// Parse and Resolve copy the 64-byte URIs they return and take.
		// net/url's loop is the same for both: it has no other way.
		var r, t rfc3986.URI
		out = append(out,
			&bench{"Resolve/refs=" + c.refs, ours, len(in), 0, func() error {
				for _, s := range in {
					r, err := rfc3986.Parse(s)
					if err != nil {
						return err
					}
					t, err := rfc3986.Resolve(base, r, rfc3986.Strict)
					if err != nil {
						return err
					}
					sink = t.String()
				}
				return nil
			}},
			&bench{"Resolve/refs=" + c.refs, netURL, len(in), 0, theirs},
			&bench{"ResolveTo/refs=" + c.refs, ours, len(in), 0, func() error {
				for _, s := range in {
					if err := r.Set(s); err != nil {
						return err
					}
					if err := rfc3986.ResolveTo(&t, &base, &r, rfc3986.Strict); err != nil {
						return err
					}
					sink = t.String()
				}
				return nil
			}},
			&bench{"ResolveTo/refs=" + c.refs, netURL, len(in), 0, theirs})
	}
	// net/url has no normalization: its closest round trip is parse,
	// lowercase the scheme and host, write (less than RFC 3986 §6.2.2
	// does, so the comparison flatters it).
	for _, c := range []struct {
		op string
		in []string
	}{{"Normalize/input=normal", clean}, {"Normalize/input=dirty", dirty}} {
		in := c.in
		out = append(out,
			&bench{c.op, ours, len(in), 0, func() error {
				for _, s := range in {
					n, err := rfc3986.NormalizeString(s, rfc3986.NormalizeDefault)
					if err != nil {
						return err
					}
					sink = n
				}
				return nil
			}},
			&bench{c.op, netURL, len(in), 0, func() error {
				for _, s := range in {
					u, err := url.Parse(s)
					if err != nil {
						return err
					}
					u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
					sink = u.String()
				}
				return nil
			}})
	}
	return out, nil
}

// rejects parses every input with parse, and returns a rejected error
// saying how many it rejected: the other libraries are timed on the same
// inputs as this one, valid RFC 3986 references all, and the table says
// how many they refuse (fredbi/uri refuses a reference that starts with
// "?" or "#").
func rejects(in []string, parse func(string) error) error {
	n := 0
	for _, s := range in {
		if parse(s) != nil {
			n++
		}
	}
	if n > 0 {
		return rejected(n)
	}
	return nil
}

// rejected is how many inputs a library refused.
type rejected int

func (r rejected) Error() string { return fmt.Sprintf("rejects %d", int(r)) }

// sink keeps the results alive.
var sink string

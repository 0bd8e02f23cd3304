package rfc3986_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/peguri/rfc3986"
	"github.com/peguri/rfc3986/internal/benchcorpus"
	"github.com/peguri/rfc3986/parser"
)

func benchCorpus(b *testing.B, name string) ([]string, int64) {
	lines, n, err := benchcorpus.Read("testdata", name)
	if err != nil {
		b.Fatal(err)
	}
	return lines, n
}

// BenchmarkParse parses a whole corpus per op: "mixed" is
// testdata/bench-corpus.txt (20 realistic references, 54 bytes on
// average), "long" testdata/bench-long.txt (16 URIs with paths and queries
// of 1 to 8 KiB). Each is parsed with rfc3986.Parse (the DFA fast path,
// which yields the components' offsets), and with net/url.Parse (which is
// no RFC 3986 validator: it accepts some invalid references and rejects
// some valid ones, such as IPvFuture hosts); "interleaved" runs both in
// every iteration and reports the ratio of their times and each one's
// bytes/ns (see pair). "mixed/pigeon" is the pigeon parser alone
// (Parser.ParsePEG, which builds pigeon's parse tree; ParseTree's tree
// comes from gen dfa -tree's functions: see BenchmarkTree). Compare runs
// with benchstat.
func BenchmarkParse(b *testing.B) {
	for _, name := range []string{"mixed", "long"} {
		file := benchcorpus.Mixed
		if name == "long" {
			file = benchcorpus.Long
		}
		corpus, size := benchCorpus(b, file)
		dfa := func(b *testing.B) {
			for _, s := range corpus {
				if _, err := rfc3986.Parse(s); err != nil {
					b.Fatal(err)
				}
			}
		}
		netURL := func(b *testing.B) {
			for _, s := range corpus {
				if _, err := url.Parse(s); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.Run(name, func(b *testing.B) {
			if name == "mixed" {
				b.Run("pigeon", func(b *testing.B) {
					b.SetBytes(size)
					b.ReportAllocs()
					for b.Loop() {
						for _, s := range corpus {
							if _, err := parser.RFC3986().ParsePEG("URI-reference", s); err != nil {
								b.Fatal(err)
							}
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(corpus)), "ns/uri")
				})
			}
			pairBytes(b, dfa, netURL, "dfa", "net_url", len(corpus), "uri", size)
		})
	}
}

// rfcBase is the base URI of RFC 3986 §5.4.
const rfcBase = "http://a/b/c/d;p?q"

// rfcRefs are the 42 references of RFC 3986 §5.4.1 (normal examples) and
// §5.4.2 (abnormal examples), resolved against rfcBase.
var rfcRefs = []string{
	// https://datatracker.ietf.org/doc/html/rfc3986#section-5.4.1
	"g:h", "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", "g?y#s", ";x", "g;x", "g;x?y#s",
	"", ".", "./", "..", "../", "../g", "../..", "../../", "../../g",
	// https://datatracker.ietf.org/doc/html/rfc3986#section-5.4.2
	"../../../g", "../../../../g", "/./g", "/../g", "g.", ".g", "g..", "..g", "./../g", "./g/.",
	"g/./h", "g/../h", "g;x=1/./y", "g;x=1/../y", "g?y/./x", "g?y/../x", "g#s/./x", "g#s/../x", "http:g",
}

var sinkString string

// BenchmarkResolve does, per op, for each of the 42 references of RFC 3986
// §5.4.1 and §5.4.2: parse it, resolve it against §5.4's base, and write
// the target as text. rfc3986 does it with Parse, Resolve (Strict) and
// String; net_url with url.Parse, URL.ResolveReference and String. Both
// parse the base once, beforehand. The two alone are for benchstat;
// "interleaved" runs both in every iteration, alternating which goes
// first, and reports the ratio of their times (rfc3986 / net_url) with the
// time per reference of each: the figures the README quotes, measured in
// one process so that the machine's load and the garbage collector weigh
// on both alike.
func BenchmarkResolve(b *testing.B) {
	benchResolve(b, rfcBase, rfcRefs)
}

// BenchmarkResolveLinks is BenchmarkResolve with the mixed corpus
// (testdata/bench-corpus.txt) against a page's URI: links as a crawler
// finds them, 14 of the 20 absolute (the bench command's
// Resolve/refs=corpus).
func BenchmarkResolveLinks(b *testing.B) {
	corpus, _ := benchCorpus(b, benchcorpus.Mixed)
	benchResolve(b, "https://www.example.com/docs/guide/index.html?lang=en", corpus)
}

// benchResolve is BenchmarkResolve's pairs, for refs against baseText.
func benchResolve(b *testing.B, baseText string, refs []string) {
	base := rfc3986.MustParse(baseText)
	ubase, err := url.Parse(baseText)
	if err != nil {
		b.Fatal(err)
	}
	ours := func(b *testing.B) {
		for _, s := range refs {
			r, err := rfc3986.Parse(s)
			if err != nil {
				b.Fatal(err)
			}
			t, err := rfc3986.Resolve(base, r, rfc3986.Strict)
			if err != nil {
				b.Fatal(err)
			}
			sinkString = t.String()
		}
	}
	theirs := func(b *testing.B) {
		for _, s := range refs {
			r, err := url.Parse(s)
			if err != nil {
				b.Fatal(err)
			}
			sinkString = ubase.ResolveReference(r).String()
		}
	}
	pair(b, ours, theirs, "rfc3986", "net_url", len(refs), "ref")
	// The same in place, as a loop over many references would: URI.Set and
	// ResolveTo, which copy no URI (Parse and Resolve copy the 64-byte
	// URIs they return and take, right after the parse wrote them field by
	// field), against the same net/url loop.
	var r, t rfc3986.URI
	inPlace := func(b *testing.B) {
		for _, s := range refs {
			if err := r.Set(s); err != nil {
				b.Fatal(err)
			}
			if err := rfc3986.ResolveTo(&t, &base, &r, rfc3986.Strict); err != nil {
				b.Fatal(err)
			}
			sinkString = t.String()
		}
	}
	b.Run("in_place", func(b *testing.B) {
		pair(b, inPlace, theirs, "rfc3986", "net_url", len(refs), "ref")
	})
}

// pair runs a benchmark of ours against theirs: each alone, then
// interleaved (see BenchmarkResolve).
func pair(b *testing.B, ours, theirs func(*testing.B), oursName, theirsName string, n int, unit string) {
	pairBytes(b, ours, theirs, oursName, theirsName, n, unit, 0)
}

// pairBytes is pair for ops of size bytes: with size > 0, each side alone
// sets its bytes (MB/s) and reports bytes/ns, and interleaved reports each
// side's bytes/ns.
func pairBytes(b *testing.B, ours, theirs func(*testing.B), oursName, theirsName string, n int, unit string, size int64) {
	perNs := func(b *testing.B, d time.Duration, name string) {
		if size > 0 && d > 0 {
			b.ReportMetric(float64(size)*float64(b.N)/float64(d.Nanoseconds()), name+"bytes/ns")
		}
	}
	b.Run(oursName, func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			ours(b)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/"+unit)
		perNs(b, b.Elapsed(), "")
	})
	b.Run(theirsName, func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			theirs(b)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/"+unit)
		perNs(b, b.Elapsed(), "")
	})
	b.Run("interleaved", func(b *testing.B) {
		var o, t time.Duration
		i := 0
		for b.Loop() {
			t0 := time.Now()
			if i%2 == 0 {
				ours(b)
				t1 := time.Now()
				theirs(b)
				o, t = o+t1.Sub(t0), t+time.Since(t1)
			} else {
				theirs(b)
				t1 := time.Now()
				ours(b)
				t, o = t+t1.Sub(t0), o+time.Since(t1)
			}
			i++
		}
		b.ReportMetric(float64(o)/float64(t), "ratio")
		b.ReportMetric(float64(o.Nanoseconds())/float64(b.N*n), oursName+"-ns/"+unit)
		b.ReportMetric(float64(t.Nanoseconds())/float64(b.N*n), theirsName+"-ns/"+unit)
		perNs(b, o, oursName+"-")
		perNs(b, t, theirsName+"-")
	})
}

// BenchmarkInvalid parses inputs that are invalid only at their last byte,
// and the same inputs made valid, with rfc3986.Parse: "invalid/…" and
// "valid/…" alone (with their allocations), and "interleaved/…" both in
// every iteration, reporting the ratio of their times (invalid / valid).
// An error is the DFA's: it should cost about what a valid parse does.
func BenchmarkInvalid(b *testing.B) {
	for _, c := range []struct {
		name           string
		valid, invalid string
	}{
		{"segment-8KiB", "http://a/" + strings.Repeat("a", 8192) + "b", "http://a/" + strings.Repeat("a", 8192) + " "},
		{"segment-64KiB", "http://a/" + strings.Repeat("a", 64<<10) + "b", "http://a/" + strings.Repeat("a", 64<<10) + " "},
		{"slashes-64KiB", strings.Repeat("/", 64<<10) + "a", strings.Repeat("/", 64<<10) + " "},
	} {
		valid := func(b *testing.B) {
			if _, err := rfc3986.Parse(c.valid); err != nil {
				b.Fatal(err)
			}
		}
		invalid := func(b *testing.B) {
			if _, err := rfc3986.Parse(c.invalid); err == nil {
				b.Fatal("no error")
			}
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.invalid)))
			pair(b, invalid, valid, "invalid", "valid", 1, "op")
		})
	}
}

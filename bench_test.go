package rfc3986_test

import (
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/peguri/rfc3986"
	"github.com/peguri/rfc3986/parser"
)

func benchCorpus(b *testing.B) ([]string, int64) {
	data, err := os.ReadFile("testdata/bench-corpus.txt")
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var n int64
	for _, l := range lines {
		n += int64(len(l))
	}
	return lines, n
}

// BenchmarkParse parses the whole corpus (testdata/bench-corpus.txt) per
// op: with rfc3986.Parse (the DFA fast path), with the pigeon parser alone
// (Parser.ParsePEG, which builds the parse tree; ParseTree's tree now
// comes from gen dfa -tree's functions: see BenchmarkTree), and with
// net/url.Parse (which is no RFC 3986 validator: it accepts some invalid
// references and rejects some valid ones, such as IPvFuture hosts);
// "interleaved" runs rfc3986.Parse and net/url.Parse in every iteration
// and reports the ratio of their times (see BenchmarkResolve). Compare runs
// with benchstat.
func BenchmarkParse(b *testing.B) {
	corpus, size := benchCorpus(b)
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
	pair(b, dfa, netURL, "dfa", "net_url", len(corpus), "uri")
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
	base := rfc3986.MustParse(rfcBase)
	ubase, err := url.Parse(rfcBase)
	if err != nil {
		b.Fatal(err)
	}
	ours := func(b *testing.B) {
		for _, s := range rfcRefs {
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
		for _, s := range rfcRefs {
			r, err := url.Parse(s)
			if err != nil {
				b.Fatal(err)
			}
			sinkString = ubase.ResolveReference(r).String()
		}
	}
	pair(b, ours, theirs, "rfc3986", "net_url", len(rfcRefs), "ref")
}

// pair runs a benchmark of ours against theirs: each alone, then
// interleaved (see BenchmarkResolve).
func pair(b *testing.B, ours, theirs func(*testing.B), oursName, theirsName string, n int, unit string) {
	b.Run(oursName, func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ours(b)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/"+unit)
	})
	b.Run(theirsName, func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			theirs(b)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/"+unit)
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

package resolve_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/resolve"
)

// benchRefs are references of RFC 3986 §5.4, resolved against rfcBase.
// Every benchmark op does them all.
var benchRefs = []string{
	"g:h", "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g;x?y#s",
	"", ".", "../", "../g", "../..", "../../g", "../../../g", "/./g", "g/../h", "g;x=1/./y",
}

var sinkURI parser.URI
var sinkURL *url.URL
var sinkString string

// BenchmarkResolve resolves the §5.4 references, parsed beforehand or
// from text, with this package and with net/url.
func BenchmarkResolve(b *testing.B) {
	base := mustParse(b, rfcBase)
	var refs []parser.URI
	for _, s := range benchRefs {
		refs = append(refs, mustParse(b, s))
	}
	ubase, _ := url.Parse(rfcBase)
	var urefs []*url.URL
	for _, s := range benchRefs {
		u, err := url.Parse(s)
		if err != nil {
			b.Fatal(err)
		}
		urefs = append(urefs, u)
	}
	b.Run("parsed/resolve.Resolve", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range refs {
				sinkURI, _ = resolve.Resolve(base, r, resolve.Strict)
			}
		}
	})
	b.Run("parsed/url.ResolveReference", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range urefs {
				sinkURL = ubase.ResolveReference(r)
			}
		}
	})
	b.Run("text/resolve.ResolveString", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range benchRefs {
				sinkString, _ = resolve.ResolveString(rfcBase, r, resolve.Strict)
			}
		}
	})
	b.Run("text/url.Parse+ResolveReference+String", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range benchRefs {
				bu, _ := url.Parse(rfcBase)
				ru, _ := url.Parse(r)
				sinkString = bu.ResolveReference(ru).String()
			}
		}
	})
}

// benchDirty are URIs that normalization changes, each in one or more
// ways. Every benchmark op normalizes them all.
var benchDirty = []string{
	"HTTP://www.Example.COM/",
	"http://example.com",
	"http://example.com:80/",
	"http://example.com:/a",
	"https://EXAMPLE.com:443/a/./b",
	"http://a/b/c/./../../g",
	"http://a/%7Euser/%7efile",
	"http://a/%3a%2f?%3d#%41",
	"eXAMPLE://a/./b/../b/%63/%7bfoo%7d",
	"http://u%41@h/p",
	"http://[2001:DB8::1]:80/",
	"ftp://ftp.Example.org:21",
	"ws://a:80/chat/../socket",
	"http://a/b/c/d;p?q",
	"http://a/b/%2E%2E/c",
	"http://a/g?y/./x",
	"foo://Host:/x/../y",
	"mailto:Joe@Example.COM",
	"urn:ISBN:0-395-36341-1",
	"http://a/./b/../c/./d.html",
}

// BenchmarkNormalize normalizes benchDirty with the Default steps, parsed
// beforehand or from text, and does the closest net/url round trip: parse,
// lowercase the scheme and host, format. net/url does less (no
// percent-encoding normalization, no dot segments, no ports), so the
// comparison flatters it.
func BenchmarkNormalize(b *testing.B) {
	var us []parser.URI
	for _, s := range benchDirty {
		us = append(us, mustParse(b, s))
	}
	b.Run("parsed/resolve.Normalize", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, u := range us {
				sinkURI, _ = resolve.Normalize(u, resolve.NormalizeDefault)
			}
		}
	})
	b.Run("text/resolve.NormalizeString", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range benchDirty {
				sinkString, _ = resolve.NormalizeString(s, resolve.NormalizeDefault)
			}
		}
	})
	b.Run("text/url.Parse+lowercase+String", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range benchDirty {
				u, err := url.Parse(s)
				if err != nil {
					b.Fatal(err)
				}
				u.Scheme = strings.ToLower(u.Scheme)
				u.Host = strings.ToLower(u.Host)
				sinkString = u.String()
			}
		}
	})
}

// BenchmarkNormalizeClean normalizes, with the Default steps, URIs that
// need no change (benchClean), and parses them, in the same iterations
// (alternating which goes first), and reports the ratios of the times:
// Normalize of the parsed URI over Parse ("normalize/parse"), and
// NormalizeString (parse and normalize) over Parse ("string/parse").
func BenchmarkNormalizeClean(b *testing.B) {
	var us []parser.URI
	for _, s := range benchClean {
		us = append(us, mustParse(b, s))
	}
	parse := func() {
		for _, s := range benchClean {
			sinkURI, _ = parser.ParseReference(s)
		}
	}
	normalize := func() {
		for _, u := range us {
			sinkURI, _ = resolve.Normalize(u, resolve.NormalizeDefault)
		}
	}
	normalizeString := func() {
		for _, s := range benchClean {
			sinkString, _ = resolve.NormalizeString(s, resolve.NormalizeDefault)
		}
	}
	fs := []func(){parse, normalize, normalizeString}
	var ts [3]time.Duration
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		for k := range fs {
			j := (k + i) % len(fs)
			t0 := time.Now()
			fs[j]()
			ts[j] += time.Since(t0)
		}
		i++
	}
	n := float64(b.N * len(benchClean))
	b.ReportMetric(float64(ts[0].Nanoseconds())/n, "parse-ns/uri")
	b.ReportMetric(float64(ts[1].Nanoseconds())/n, "normalize-ns/uri")
	b.ReportMetric(float64(ts[1])/float64(ts[0]), "normalize/parse")
	b.ReportMetric(float64(ts[2])/float64(ts[0]), "string/parse")
}

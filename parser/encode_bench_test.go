package parser_test

import (
	"net/url"
	"testing"
	"time"

	"github.com/peguri/rfc3986/parser"
)

// encodeInputs are raw texts to encode: plain, mixed, mostly encoded, UTF-8.
var encodeInputs = []string{
	"index.html",
	"search results for a b & c",
	"50% off: <summer> \"sale\" /today/",
	"Dürst résumé 引き出し",
	"2026-12-04T17:24:47Z",
}

// BenchmarkEncode compares Encode with net/url's escapers, on the same
// inputs, in one interleaved run ("interleaved" reports ours/theirs):
// Segment against url.PathEscape, QueryPart against url.QueryEscape. Both
// make a string per input.
func BenchmarkEncode(b *testing.B) {
	for _, c := range []struct {
		name   string
		ours   func(string) string
		theirs func(string) string
	}{
		{"segment-vs-PathEscape", func(s string) string { return parser.Encode(parser.Segment, s) }, url.PathEscape},
		{"querypart-vs-QueryEscape", func(s string) string { return parser.Encode(parser.QueryPart, s) }, url.QueryEscape},
	} {
		var sink string
		run := func(f func(string) string) {
			for _, s := range encodeInputs {
				sink = f(s)
			}
		}
		b.Run(c.name+"/ours", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				run(c.ours)
			}
		})
		b.Run(c.name+"/net_url", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				run(c.theirs)
			}
		})
		b.Run(c.name+"/interleaved", func(b *testing.B) {
			var o, t time.Duration
			i := 0
			for b.Loop() {
				t0 := time.Now()
				if i%2 == 0 {
					run(c.ours)
					t1 := time.Now()
					run(c.theirs)
					o, t = o+t1.Sub(t0), t+time.Since(t1)
				} else {
					run(c.theirs)
					t1 := time.Now()
					run(c.ours)
					t, o = t+t1.Sub(t0), o+time.Since(t1)
				}
				i++
			}
			b.ReportMetric(float64(o)/float64(t), "ratio")
		})
		_ = sink
	}
}

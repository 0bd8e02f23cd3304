package syntax

import (
	"os"
	"strings"
	"testing"
)

// BenchmarkRun runs RFC 3986's URI-reference machine (read from the
// generated file, see loadTables) over the benchmark corpora, one corpus per
// op: "simd" skips runs 16 bytes at a time (amd64 with SSSE3; elsewhere the
// same as "word"), "word" 8 bytes at a time with table loads, "bytewise"
// walks the table one byte at a time. Compare them with benchstat; the
// bytes/ns of Parse, with the components' offsets, are the root package's
// BenchmarkParse.
func BenchmarkRun(b *testing.B) {
	m := loadTables(b, generatedTables[0])["URI-reference"].Machine()
	for _, c := range []struct{ name, file string }{{"mixed", "bench-corpus.txt"}, {"long", "bench-long.txt"}} {
		data, err := os.ReadFile("../testdata/" + c.file)
		if err != nil {
			b.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		size := int64(len(data) - len(lines))
		simd := hasSIMD
		for _, v := range []struct {
			name string
			simd bool
			run  func(string) (bool, int, int)
		}{{"simd", simd, m.run}, {"word", false, m.run}, {"bytewise", false, m.runBytewise}} {
			b.Run(c.name+"/"+v.name, func(b *testing.B) {
				hasSIMD = v.simd
				defer func() { hasSIMD = simd }()
				b.SetBytes(size)
				for b.Loop() {
					for _, l := range lines {
						if ok, _, _ := v.run(l); !ok {
							b.Fatalf("%q rejected", l)
						}
					}
				}
				b.ReportMetric(float64(size)*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "bytes/ns")
			})
		}
	}
}

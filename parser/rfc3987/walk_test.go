package rfc3987

import (
	"strings"
	"testing"

	"github.com/peguri/rfc3986/internal/benchcorpus"
	"github.com/peguri/rfc3986/internal/walktest"
	"github.com/peguri/rfc3986/parser/rfc3987/internal/rfc3987gen"
	"github.com/peguri/rfc3986/syntax"
)

// walkRules are the rules gen dfa -walk writes walks of for this grammar
// (generate.go): the ones Parse and ParseURI read. Their tables are wide
// (more than 256 states).
var walkRules = []string{"IRI-reference", "IRI"}

// walkSeeds are IRIs with characters of every length in UTF-8 in every
// component, iprivate in a query, percent-encodings and IP literals.
var walkSeeds = []string{
	"http://例え.テスト/パス/ファイル?クエリ=値#断片",
	"https://user:pässword@bücher.example/straße?q=grüße#tête",
	"http://[2001:db8::1]:8080/𝄞/𝌆?x=\ue000\U000F0000#\U0001F600",
	"//host/é%C3%A9é?%E2%82%AC€", "/absolute/παράδειγμα", "relative/путь?запрос",
	"mailto:юзер@пример.рф", "urn:example:ﬁ", "x:\u00a0", "?\ue000#f", "#\U000E0FFF",
}

// wideRuns are IRIs with runs of 28 to 68 characters of one UTF-8 length,
// in a path, a query, a host and a fragment: as walktest.Runs, whose
// bytes are ASCII, for the states a multi-byte character goes through.
func wideRuns() []string {
	var out []string
	for _, c := range []string{"é", "日", "𝄞"} {
		for n := 28; n <= 68; n += 5 {
			run := strings.Repeat(c, n)
			for _, mid := range []string{"", "%41", "a", "\x80", c[:1]} {
				r := run[:len(run)/2] + mid + run[len(run)/2:]
				out = append(out, "s:/"+r+"/q", "s:/p?"+r+"#f", "s://"+r+"/p", "s:/p#"+r, r+"/p")
			}
		}
	}
	return out
}

func walkInputs(t testing.TB) []string {
	lines, _, err := benchcorpus.Read("../../testdata", benchcorpus.Mixed)
	if err != nil {
		t.Fatal(err)
	}
	seeds := append(append([]string{}, walkSeeds...), lines...)
	in := walktest.Inputs(seeds, 80)
	in = append(in, walktest.Runs()...)
	return append(in, wideRuns()...)
}

func walkMachines(t testing.TB) (walks, tables []*syntax.Machine) {
	dfa := rfc3987gen.DFA()
	for _, rule := range walkRules {
		tb := dfa[rule]
		if tb == nil || tb.Walk == nil {
			t.Fatalf("%s: no walk in the generated tables (generate.go's gen dfa -walk)", rule)
		}
		if !tb.Wide {
			t.Fatalf("%s: an 8-bit table: this test is for the walks of wide ones", rule)
		}
		walk, table, err := walktest.Machines(tb)
		if err != nil {
			t.Fatal(err)
		}
		walks, tables = append(walks, walk), append(tables, table)
	}
	return walks, tables
}

// TestWalk: the generated walks of IRI-reference and IRI, wide tables,
// decide and mark as the table walks do, on every input.
func TestWalk(t *testing.T) {
	walks, tables := walkMachines(t)
	in := walkInputs(t)
	for i := range walks {
		for _, s := range in {
			if diff := walktest.Compare(walks[i], tables[i], s); diff != "" {
				t.Fatalf("%s: %s", walkRules[i], diff)
			}
		}
	}
	t.Logf("%d inputs per walk", len(in))
}

// FuzzWalk is TestWalk on any input.
func FuzzWalk(f *testing.F) {
	for _, s := range walkSeeds {
		f.Add(s)
	}
	walks, tables := walkMachines(f)
	f.Fuzz(func(t *testing.T, s string) {
		for i := range walks {
			if diff := walktest.Compare(walks[i], tables[i], s); diff != "" {
				t.Fatalf("%s: %s", walkRules[i], diff)
			}
		}
	})
}

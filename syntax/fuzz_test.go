package syntax

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// generatedTables are the DFA files gen writes for the parser's grammars:
// RFC 3986 (8-bit tables) and RFC 3987 (wide ones). The tests read them as
// Go source (loadTables), because package syntax cannot import the
// generated packages, which import it.
var generatedTables = []string{
	"../parser/internal/rfc3986gen/rfc3986_dfa.go",
	"../parser/rfc3987/internal/rfc3987gen/rfc3987_dfa.go",
}

// loadTables reads the tables of a generated DFA file: the literal
// syntax.Tables{…} that its DFA function returns, with the fields that
// matching needs (States, NClass, Wide, Classes, Next, Accept).
func loadTables(t testing.TB, path string) Tables {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	tables := Tables{}
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		if sel, ok := lit.Type.(*ast.SelectorExpr); !ok || sel.Sel.Name != "Tables" {
			return true
		}
		for _, e := range lit.Elts {
			kv := e.(*ast.KeyValueExpr)
			name := str(t, kv.Key)
			tb := &Table{}
			for _, f := range kv.Value.(*ast.CompositeLit).Elts {
				f := f.(*ast.KeyValueExpr)
				switch f.Key.(*ast.Ident).Name {
				case "States":
					tb.States = integer(t, f.Value)
				case "NClass":
					tb.NClass = integer(t, f.Value)
				case "Wide":
					tb.Wide = f.Value.(*ast.Ident).Name == "true"
				case "Classes":
					tb.Classes = str(t, f.Value)
				case "Next":
					tb.Next = str(t, f.Value)
				case "Accept":
					tb.Accept = str(t, f.Value)
				}
			}
			if err := tb.Check(); err != nil {
				t.Fatalf("%s: %s: %v", path, name, err)
			}
			tables[name] = tb
		}
		return false
	})
	if len(tables) == 0 {
		t.Fatalf("%s: no tables", path)
	}
	return tables
}

// str evaluates a string literal, or a sum of them.
func str(t testing.TB, e ast.Expr) string {
	switch e := e.(type) {
	case *ast.BasicLit:
		s, err := strconv.Unquote(e.Value)
		if err != nil {
			t.Fatal(err)
		}
		return s
	case *ast.BinaryExpr:
		return str(t, e.X) + str(t, e.Y)
	}
	t.Fatalf("not a string: %T", e)
	return ""
}

func integer(t testing.TB, e ast.Expr) int {
	n, err := strconv.Atoi(e.(*ast.BasicLit).Value)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// fuzzMachines are the machines of every rule of the generated grammars,
// sorted by name, and the same machines with testMarker's marks and with
// delimMarker's.
func fuzzMachines(t testing.TB) (ms, marked []*Machine) {
	for _, path := range generatedTables {
		tables := loadTables(t, path)
		names := slices.Sorted(func(yield func(string) bool) {
			for n := range tables {
				if !yield(n) {
					return
				}
			}
		})
		for _, n := range names {
			ms = append(ms, tables[n].Machine())
			for _, marker := range []Marker{testMarker, delimMarker} {
				m, err := tables[n].Marked(marker)
				if err != nil {
					t.Fatalf("%s: %s: %v", path, n, err)
				}
				marked = append(marked, m)
			}
		}
	}
	return ms, marked
}

// testMarker marks the delimiters of RFC 3986 and '.', by byte alone: a
// marker of one state, which every DFA determines. Its marks take bytes
// out of the skip sets (a ':' or '.' in a host, a '/' or '?' in a
// query, the '%' of a triplet), so that skipping meets marked transitions
// everywhere.
func testMarker(q int, b byte) (int, uint8) {
	return 0, uint8(strings.IndexByte(":/?#@%.", b) + 1)
}

// delimMarker is testMarker without '%' and '.': a triplet stays in the
// skip sets, so that the marked walk skips triplets too, as the marks of
// package parser leave it.
func delimMarker(q int, b byte) (int, uint8) {
	return 0, uint8(strings.IndexByte(":/?#@", b) + 1)
}

// seedCorpora are the benchmark corpora: their lines, and each line cut
// and spoiled, seed the fuzzer; with runs of every length up to 72 that
// end, or hold a triplet, at every offset around the 8- and 16-byte
// blocks and the inlineRun bytes skipped inline, a triplet cut short or with a byte outside its set, and bytes
// of 0x80 and above (the high half of the nibble tables).
func seedCorpora(f *testing.F) {
	for n := range 73 {
		run := strings.Repeat("a", n)
		for _, tail := range []string{"", "/", " ", "%41", "%4", "%4g", "%%41", "?q", "#f", "\x80", "\xff"} {
			f.Add("http://h/" + run + tail + run)
			f.Add("http://h/p?" + run + tail + run)
		}
	}
	for _, name := range []string{"bench-corpus.txt", "bench-long.txt"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			f.Add(l)
			f.Add(l[:len(l)/2] + " " + l[len(l)/2:])
			f.Add(l[:len(l)*3/4] + "\x80")
		}
	}
}

type result struct {
	OK          bool
	Fail, State int
	Marks       Marks
}

// FuzzSkip checks that run, which skips the runs of bytes on which a state
// loops 16 or 8 bytes at a time (with SIMD and without), ends in the same
// state at the same offset, with the same verdict, as the byte-at-a-time
// walk of the same table, for every rule of RFC 3986 (8-bit tables) and
// RFC 3987 (wide tables), on any input; and that RunMarks, on the same
// tables with testMarker's marks and with delimMarker's, also records the
// marks the byte-at-a-time walk does. The seeds are the benchmark corpora.
func FuzzSkip(f *testing.F) {
	seedCorpora(f)
	ms, marked := fuzzMachines(f)
	simd := hasSIMD
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range marked {
			var slow result
			slow.OK, slow.Fail, slow.State = m.runMarksBytewise(s, &slow.Marks)
			slow.Marks[0] = 0 // scratch
			for _, useSIMD := range []bool{simd, false} {
				hasSIMD = useSIMD
				var fast result
				fast.OK, fast.Fail, fast.State = m.RunMarks(s, &fast.Marks)
				hasSIMD = simd
				fast.Marks[0] = 0
				if diff := cmp.Diff(slow, fast); diff != "" {
					t.Fatalf("%q (SIMD %v): RunMarks differs from the byte-at-a-time walk (-bytewise +skipping):\n%s", s, useSIMD, diff)
				}
			}
		}
		for _, m := range ms {
			var slow result
			slow.OK, slow.Fail, slow.State = m.runBytewise(s)
			// Both skipping paths: 16 bytes at a time (where the CPU
			// has it) and 8.
			for _, useSIMD := range []bool{simd, false} {
				hasSIMD = useSIMD
				var fast result
				fast.OK, fast.Fail, fast.State = m.run(s)
				hasSIMD = simd
				if diff := cmp.Diff(slow, fast); diff != "" {
					t.Fatalf("%q (SIMD %v): skipping differs from the byte-at-a-time walk (-bytewise +skipping):\n%s", s, useSIMD, diff)
				}
			}
		}
	})
}

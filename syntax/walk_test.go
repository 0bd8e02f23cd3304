package syntax

import (
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestWalkSum: Table.Marked runs a table's Walk only when WalkSum is the
// fingerprint of the machine it builds, that is of the same transitions
// and the same marks; any other walk is left alone and the table walked.
func TestWalkSum(t *testing.T) {
	tables := loadTables(t, generatedTables[0])
	tb := tables["URI-reference"]
	var sentinel Marks
	sentinel[1] = 77
	fake := func(d *Machine, s string) (Marks, bool, int, int) { return sentinel, true, -1, -1 }
	m, err := tb.Marked(testMarker)
	if err != nil {
		t.Fatal(err)
	}
	code, sum, err := m.GoWalk("walkTest", "walk0")
	if err != nil {
		t.Fatal(err)
	}
	src := "package p\n\nimport \"github.com/peguri/rfc3986/syntax\"\n\n" + code
	if _, err := parser.ParseFile(token.NewFileSet(), "walk.go", src, 0); err != nil {
		t.Errorf("GoWalk's code does not parse: %v", err)
	}
	other, err := tb.Marked(delimMarker)
	if err != nil {
		t.Fatal(err)
	}
	if other.walkSum() == sum {
		t.Fatal("two markers, one fingerprint")
	}
	for _, c := range []struct {
		name   string
		marker Marker
		sum    uint64
		walks  bool
	}{
		{"the fingerprint of the machine", testMarker, sum, true},
		{"no fingerprint", testMarker, 0, false},
		{"another marker's", delimMarker, sum, false},
	} {
		// A table of its own: Marked expands it anew, with its fields.
		x := &Table{States: tb.States, NClass: tb.NClass, Classes: tb.Classes, Next: tb.Next, Accept: tb.Accept, Walk: fake, WalkSum: c.sum}
		d, err := x.Marked(c.marker)
		if err != nil {
			t.Fatal(err)
		}
		marks, ok, fail, _ := d.WalkMarks("http://a/b")
		ranWalk := marks == sentinel && ok && fail == -1
		if d.HasWalk() != c.walks || ranWalk != c.walks {
			t.Errorf("%s: HasWalk %v, walk ran %v, want %v", c.name, d.HasWalk(), ranWalk, c.walks)
		}
	}
}

// TestGoWalkRefuses: a walk is written for a marked machine only.
func TestGoWalkRefuses(t *testing.T) {
	tb := loadTables(t, generatedTables[0])["URI-reference"]
	if _, _, err := tb.Machine().GoWalk("w", "w0"); err == nil {
		t.Error("GoWalk on a machine without marks: no error")
	}
}

// TestWideWalkSum: a wide table (more than 256 states) gets a walk too,
// whose code parses, and whose fingerprint Marked checks as an 8-bit
// table's: with another marker, or its transitions' high bytes changed,
// the walk is not run.
func TestWideWalkSum(t *testing.T) {
	for _, path := range generatedTables {
		tables := loadTables(t, path)
		// In name order (a map's order chose a wide table of 256 states,
		// RFC 3987's iauthority, on some runs), of more than 300 states:
		// the test looks for state 300 and a transition's high byte.
		for _, name := range slices.Sorted(maps.Keys(tables)) {
			wide := tables[name]
			if !wide.Wide || wide.States <= 300 {
				continue
			}
			m, err := wide.Marked(testMarker)
			if err != nil {
				t.Fatal(err)
			}
			code, sum, err := m.GoWalk("walkWide", "walk0")
			if err != nil {
				t.Fatalf("%s, a wide table: %v", name, err)
			}
			src := "package p\n\nimport \"github.com/peguri/rfc3986/syntax\"\n\n" + code
			if _, err := parser.ParseFile(token.NewFileSet(), "walk.go", src, 0); err != nil {
				t.Errorf("%s: GoWalk's code does not parse: %v", name, err)
			}
			if !strings.Contains(code, "goto s300\n") {
				t.Errorf("%s: no jump to state 300 in the walk of a table of %d states", name, wide.States)
			}
			other, err := wide.Marked(delimMarker)
			if err != nil {
				t.Fatal(err)
			}
			if other.walkSum() == sum {
				t.Errorf("%s: two markers, one fingerprint", name)
			}
			// The same transitions but for one high byte: another sum.
			next := []byte(wide.Next)
			for i := 1; i < len(next); i += 2 {
				if next[i] != 0 {
					next[i] ^= 1
					break
				}
			}
			x := &Table{States: wide.States, NClass: wide.NClass, Wide: true, Classes: wide.Classes, Next: string(next), Accept: wide.Accept}
			d, err := x.Marked(testMarker)
			if err != nil {
				t.Fatalf("%s with a transition's high byte changed: %v", name, err)
			}
			if d.walkSum() == sum {
				t.Errorf("%s: a transition's high byte changed, the fingerprint did not", name)
			}
			return
		}
	}
	t.Fatal("no wide table")
}

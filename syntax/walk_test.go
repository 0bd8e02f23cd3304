package syntax

import (
	"go/parser"
	"go/token"
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

// TestGoWalkRefuses: a walk is written for a marked 8-bit machine only.
func TestGoWalkRefuses(t *testing.T) {
	tb := loadTables(t, generatedTables[0])["URI-reference"]
	if _, _, err := tb.Machine().GoWalk("w", "w0"); err == nil {
		t.Error("GoWalk on a machine without marks: no error")
	}
	for _, path := range generatedTables {
		for name, wide := range loadTables(t, path) {
			if !wide.Wide {
				continue
			}
			m, err := wide.Marked(testMarker)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := m.GoWalk("w", "w0"); err == nil || !strings.Contains(err.Error(), "256 states") {
				t.Errorf("%s, a wide table: GoWalk error %v", name, err)
			}
			return
		}
	}
	t.Fatal("no wide table")
}

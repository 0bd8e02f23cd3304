// Package walktest holds a rule's walk, the Go code gen dfa -walk
// generates, to the table walk of the same DFA with the same marks: the
// verdict, the offset where an input fails, the state there and every
// mark must be the same on every input (see syntax.WalkFunc).
package walktest

import (
	"fmt"
	"strings"

	"github.com/peguri/rfc3986/internal/appendixb"
	"github.com/peguri/rfc3986/syntax"
)

// Machines returns the machine of t with Appendix B's marks, which must run
// t's walk, and the same machine without the walk.
func Machines(t *syntax.Table) (walk, table *syntax.Machine, err error) {
	if t.Walk == nil {
		return nil, nil, fmt.Errorf("the table has no walk")
	}
	walk, err = t.Marked(appendixb.Marker)
	if err != nil {
		return nil, nil, err
	}
	if !walk.HasWalk() {
		return nil, nil, fmt.Errorf("the table's walk was generated for other transitions or marks (WalkSum %#x): regenerate it", t.WalkSum)
	}
	bare := &syntax.Table{States: t.States, NClass: t.NClass, Wide: t.Wide, Classes: t.Classes, Next: t.Next, Accept: t.Accept}
	table, err = bare.Marked(appendixb.Marker)
	if err != nil {
		return nil, nil, err
	}
	if table.HasWalk() {
		return nil, nil, fmt.Errorf("a table without a walk has one")
	}
	return walk, table, nil
}

// Compare returns what differs between the two machines on s, "" if
// nothing: WalkMarks on both, and RunMarks on the walk's machine, which
// must give the same marks.
func Compare(walk, table *syntax.Machine, s string) string {
	type result struct {
		Marks     syntax.Marks
		OK        bool
		Fail, End int
	}
	var w, tb, r result
	w.Marks, w.OK, w.Fail, w.End = walk.WalkMarks(s)
	tb.Marks, tb.OK, tb.Fail, tb.End = table.WalkMarks(s)
	r.OK, r.Fail, r.End = walk.RunMarks(s, &r.Marks)
	w.Marks[0], tb.Marks[0], r.Marks[0] = 0, 0, 0 // scratch
	if w != tb || r != tb {
		return fmt.Sprintf("%q: walk %+v, RunMarks %+v, table %+v", s, w, r, tb)
	}
	return ""
}

// Inputs returns, for each of the seeds, its prefixes and the seed with
// each of a set of bytes (delimiters, a percent sign, bytes no URI has,
// and the bytes where UTF-8's ranges begin and end, which an IRI's
// tables tell apart) inserted or substituted at each offset, up to the
// first limit offsets.
func Inputs(seeds []string, limit int) []string {
	const bytes = ":/?#[]@%!$&'()*+,;=-._~aZ09\x00 \x7f\x80\x8f\x90\x9f\xa0\xbf\xc0\xc1\xc2\xdf\xe0\xe1\xec\xed\xee\xef\xf0\xf1\xf3\xf4\xf5\xff"
	var out []string
	for _, s := range seeds {
		for i := 0; i <= len(s) && i <= limit; i++ {
			out = append(out, s[:i])
			for j := 0; j < len(bytes); j++ {
				out = append(out, s[:i]+bytes[j:j+1]+s[i:])
				if i < len(s) {
					out = append(out, s[:i]+bytes[j:j+1]+s[i+1:])
				}
			}
		}
	}
	return out
}

// Runs returns inputs that hold a run of n bytes, for each n from 28 to
// 68, in each part of a URI reference where a walk's state loops (scheme,
// userinfo, host, port, IP literals, path, query, fragment), ending in the
// rest of a reference, a triplet, a triplet cut short, or a byte no URI
// has: runs past the 32 bytes a walk tests itself, which it hands to
// syntax.Machine.Span and then tests again from where Span stopped.
func Runs() []string {
	parts := []struct{ head, run, tail string }{
		{"", "a", ":/p"}, {"s://", "u", "@h/p"}, {"s://", "h", ":80/p"}, {"s://h:", "1", "/p"},
		{"s://[v1.", "x", "]/p"}, {"s://[::", "1", "]/p"}, {"s:/", "p", "/q?r#f"},
		{"s:/p?", "q", "#f"}, {"s:/p#", "f", ""}, {"", "p", "/q"}, {"//", "h", "/p"},
	}
	var out []string
	for _, p := range parts {
		for n := 28; n <= 68; n++ {
			run := strings.Repeat(p.run, n)
			for _, mid := range []string{"", "%41", "%4", "\x00", "%41" + p.run} {
				out = append(out, p.head+run+mid+p.tail, p.head+run[:n/2]+mid+run[n/2:]+p.tail)
			}
		}
	}
	return out
}

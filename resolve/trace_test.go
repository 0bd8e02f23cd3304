package resolve_test

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc3987"
	"github.com/peguri/rfc3986/parser/rfc6874"
	"github.com/peguri/rfc3986/resolve"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// TestRemoveDotSegmentsTable is the table of RFC 3986 §5.2.4's example,
// row for row:
//
//	STEP   OUTPUT BUFFER         INPUT BUFFER
//	 1 :                         /a/b/c/./../../g
//	 2E:   /a                    /b/c/./../../g
//	 2E:   /a/b                  /c/./../../g
//	 2E:   /a/b/c                /./../../g
//	 2B:   /a/b/c                /../../g
//	 2C:   /a/b                  /../g
//	 2C:   /a                    /g
//	 2E:   /a/g
func TestRemoveDotSegmentsTable(t *testing.T) {
	got, steps := resolve.RemoveDotSegmentsTrace("/a/b/c/./../../g")
	want := []resolve.DotStep{
		{"1", "", "/a/b/c/./../../g"},
		{"E", "/a", "/b/c/./../../g"},
		{"E", "/a/b", "/c/./../../g"},
		{"E", "/a/b/c", "/./../../g"},
		{"B", "/a/b/c", "/../../g"},
		{"C", "/a/b", "/../g"},
		{"C", "/a", "/g"},
		{"E", "/a/g", ""},
		{"3", "/a/g", ""},
	}
	if got != "/a/g" {
		t.Errorf("RemoveDotSegmentsTrace(%q) = %q, want %q", "/a/b/c/./../../g", got, "/a/g")
	}
	if diff := cmp.Diff(want, steps); diff != "" {
		t.Errorf("the steps of §5.2.4's example (-want +got):\n%s", diff)
	}
	// The second example of §5.2.4: "mid/content=5/../6" is "mid/6".
	if got, _ := resolve.RemoveDotSegmentsTrace("mid/content=5/../6"); got != "mid/6" {
		t.Errorf("RemoveDotSegmentsTrace(%q) = %q, want %q", "mid/content=5/../6", got, "mid/6")
	}
}

// TestRemoveDotSegmentsTraceAgrees: the literal reading of §5.2.4 on
// strings and the in-place one compute the same path.
func TestRemoveDotSegmentsTraceAgrees(t *testing.T) {
	for _, s := range propertyRefs() {
		u, err := parser.ParseReference(s)
		if err != nil {
			continue
		}
		p := u.Path()
		got, steps := resolve.RemoveDotSegmentsTrace(p)
		if want := resolve.RemoveDotSegments(p); got != want {
			t.Errorf("RemoveDotSegmentsTrace(%q) = %q, RemoveDotSegments = %q", p, got, want)
		}
		if last := steps[len(steps)-1]; last.Rule != "3" || last.Output != got {
			t.Errorf("RemoveDotSegmentsTrace(%q): last step %+v", p, last)
		}
	}
}

// FuzzRemoveDotSegments holds the in-place §5.2.4, which resolution runs
// in the target's own buffer, to the literal reading on strings, on any
// text: paths of "." and "/" the most.
func FuzzRemoveDotSegments(f *testing.F) {
	for _, s := range []string{"", ".", "..", "/.", "/..", "./", "../", "/./", "/../", "...", "/...", ".a", "/.a",
		"..a", "/..a", "a/..", "a/../", "/a/b/c/./../../g", "mid/content=5/../6", "//..//.//", "../../a/./b/..",
		"a/./b/../../..//c", "/./../.", "a/.../b/.."} {
		f.Add(s)
	}
	for _, tt := range removeDotSegmentsTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, p string) {
		want, _ := resolve.RemoveDotSegmentsTrace(p)
		if got := resolve.RemoveDotSegments(p); got != want {
			t.Errorf("RemoveDotSegments(%q) = %q, RemoveDotSegmentsTrace = %q", p, got, want)
		}
	})
}

// checkTrace holds a trace to the resolution it traces: the trace's own T,
// computed by a second reading of §5.2.2, recomposes (§5.3) to the target,
// but for the "/." guard, which the trace then says it added.
func checkTrace(t testing.TB, base, ref parser.URI, mode resolve.Mode, target parser.URI) {
	t.Helper()
	tr, err := resolve.TraceResolve(base, ref, mode)
	if err != nil {
		t.Errorf("TraceResolve(%q, %q, %v): %v", base, ref, mode, err)
		return
	}
	if tr.Result != target.String() {
		t.Errorf("TraceResolve(%q, %q, %v).Result = %q, want %q", base, ref, mode, tr.Result, target)
	}
	T := tr.Steps[len(tr.Steps)-1].T
	want := T.String()
	if tr.Guarded {
		want = T.Scheme + ":/." + T.Path
		if T.HasQuery {
			want += "?" + T.Query
		}
		if T.HasFragment {
			want += "#" + T.Fragment
		}
	}
	if want != target.String() {
		t.Errorf("TraceResolve(%q, %q, %v): T recomposes to %q (guarded %v), Resolve gives %q", base, ref, mode, T.String(), tr.Guarded, target)
	}
}

// TestTraceGolden: the traces of the RFC's own examples (§5.4.1, §5.4.2),
// as JSON, in testdata/trace-rfc-examples.golden (go test -update rewrites
// it).
func TestTraceGolden(t *testing.T) {
	base := mustParse(t, rfcBase)
	var b strings.Builder
	for _, tc := range resolveTests {
		if tc.base != rfcBase {
			continue
		}
		tr, err := resolve.TraceResolve(base, mustParse(t, tc.ref), resolve.Strict)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Result != tc.want {
			t.Errorf("TraceResolve(%q, %q).Result = %q, want %q", rfcBase, tc.ref, tr.Result, tc.want)
		}
		j, _ := json.Marshal(tr)
		b.Write(j)
		b.WriteByte('\n')
	}
	golden := filepath.Join("testdata", "trace-rfc-examples.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("%s is stale (-on disk +computed; go test -update ./resolve):\n%s", golden, diff)
	}
}

// TestTraceRFCSteps: "../../../g" against §5.4's base takes the merge
// branch, merges to "/b/c/../../../g", and remove_dot_segments climbs to
// the root (rule C, with nothing left to remove, as §5.4.2 says: "g").
func TestTraceRFCSteps(t *testing.T) {
	tr, err := resolve.TraceResolve(mustParse(t, rfcBase), mustParse(t, "../../../g"), resolve.Strict)
	if err != nil {
		t.Fatal(err)
	}
	var sections []string
	var merge *resolve.MergeTrace
	var dots []resolve.DotStep
	for _, s := range tr.Steps {
		sections = append(sections, s.Section)
		if s.Merge != nil {
			merge = s.Merge
		}
		if s.Dots != nil {
			dots = s.Dots
		}
	}
	if diff := cmp.Diff([]string{"5.2.1", "5.2.3", "5.2.4", "5.2.2", "5.2.2", "5.2.2", "5.2.2", "5.3"}, sections); diff != "" {
		t.Errorf("sections (-want +got):\n%s", diff)
	}
	if merge == nil || merge.Result != "/b/c/../../../g" {
		t.Errorf("merge = %+v, want the result /b/c/../../../g", merge)
	}
	var rules string
	for _, d := range dots {
		rules += d.Rule
	}
	if rules != "1EECCCE3" || tr.Result != "http://a/g" {
		t.Errorf("remove_dot_segments rules %q, result %q; want 1EECCCE3 and http://a/g", rules, tr.Result)
	}
}

// checkExplain holds Explain to Normalize: the same result, each step's
// URI the previous one with the step's changes, the last one the normal
// form, and no step that changed nothing.
func checkExplain(t testing.TB, u parser.URI, steps resolve.Steps, n parser.URI) {
	t.Helper()
	v, list, err := resolve.ExplainNormalize(u, steps)
	if err != nil || v != n {
		t.Errorf("ExplainNormalize(%q, %v) = %q, %v; Normalize gives %q", u, steps, v, err, n)
		return
	}
	last := u.String()
	for _, s := range list {
		if s.Before == s.After && s.DefinedBefore == s.DefinedAfter {
			t.Errorf("ExplainNormalize(%q, %v): step %+v changed nothing", u, steps, s)
		}
		if steps&s.Step == 0 {
			t.Errorf("ExplainNormalize(%q, %v): step %v was not asked for", u, steps, s.Step)
		}
		last = s.URI
	}
	if last != n.String() {
		t.Errorf("ExplainNormalize(%q, %v): the last step gives %q, the normal form is %q", u, steps, last, n)
	}
}

// TestTraceTooLong: TraceResolve traces paths up to MaxTraceLength
// together, whose rows hold a bounded number of bytes, and refuses longer
// ones with an *ArgError naming the argument, wrapping ErrTooLongToTrace.
func TestTraceTooLong(t *testing.T) {
	long := strings.Repeat("/a", resolve.MaxTraceLength/2) // MaxTraceLength bytes
	base := parser.MustParseReference("http://h")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	tr, err := resolve.TraceResolve(base, parser.MustParseReference(long), resolve.Strict)
	runtime.ReadMemStats(&after)
	if err != nil || tr.Result != "http://h"+long {
		t.Fatalf("a path of MaxTraceLength bytes: %v", err)
	}
	// The rows of remove_dot_segments hold about len²/2 bytes: 8 MiB here.
	if n := after.TotalAlloc - before.TotalAlloc; n > 32<<20 {
		t.Errorf("tracing a path of %d bytes allocated %d bytes", len(long), n)
	}
	for _, tt := range []struct{ base, ref, arg string }{
		{"http://h", long + "/b", "reference"},
		{"http://h" + long, "b", "base"},
		{"http://h" + long[:len(long)/2], long[:len(long)/2+2], "reference"},
	} {
		_, err := resolve.TraceResolve(parser.MustParseReference(tt.base), parser.MustParseReference(tt.ref), resolve.Strict)
		var ae *resolve.ArgError
		if !errors.Is(err, resolve.ErrTooLongToTrace) || !errors.As(err, &ae) || ae.Arg != tt.arg {
			t.Errorf("TraceResolve(a base path of %d bytes, a reference path of %d): %v; want an ArgError on the %s wrapping ErrTooLongToTrace",
				len(tt.base)-8, len(tt.ref), err, tt.arg)
		}
	}
}

// rfcPseudocode is RFC 3986 §5.2.2's algorithm as the RFC writes it, its
// six-space margin removed, and §5.2.1's first line.
const rfcPseudocode = `(R.scheme, R.authority, R.path, R.query, R.fragment) = parse(R);
if ((not strict) and (R.scheme == Base.scheme)) then
   undefine(R.scheme);
endif;
if defined(R.scheme) then
   T.scheme    = R.scheme;
   T.authority = R.authority;
   T.path      = remove_dot_segments(R.path);
   T.query     = R.query;
else
   if defined(R.authority) then
      T.authority = R.authority;
      T.path      = remove_dot_segments(R.path);
      T.query     = R.query;
   else
      if (R.path == "") then
         T.path = Base.path;
         if defined(R.query) then
            T.query = R.query;
         else
            T.query = Base.query;
         endif;
      else
         if (R.path starts-with "/") then
            T.path = remove_dot_segments(R.path);
         else
            T.path = merge(Base.path, R.path);
            T.path = remove_dot_segments(T.path);
         endif;
         T.query = R.query;
      endif;
      T.authority = Base.authority;
   endif;
   T.scheme = Base.scheme;
endif;
T.fragment = R.fragment;
result = recompose(T);`

// TestTraceCodeIsRFC: a trace's code is the RFC's lines, with their
// indentation, in order, and an "if" found false is followed by its
// "else" where it has one, and an "else" comes after its "if" (the trace left the
// "else" lines out, and the first "if" before the first "else", and put
// "T.authority = Base.authority;" and "T.scheme = Base.scheme;" at the
// wrong depth), for every example of §5.4 in both modes.
func TestTraceCodeIsRFC(t *testing.T) {
	lines := strings.Split(rfcPseudocode, "\n")
	base := mustParse(t, rfcBase)
	for _, mode := range []resolve.Mode{resolve.Strict, resolve.NonStrict} {
		for _, tc := range resolveTests {
			if tc.base != rfcBase {
				continue
			}
			tr, err := resolve.TraceResolve(base, mustParse(t, tc.ref), mode)
			if err != nil {
				t.Fatal(err)
			}
			var code []string
			for _, s := range tr.Steps {
				code = append(code, s.Code...)
			}
			at := 0 // the RFC's line after the last one matched
			for i, c := range code {
				line, isFalse := strings.CutSuffix(c, " -- false")
				k := slices.Index(lines[at:], line)
				if k < 0 {
					t.Errorf("%v %q: line %d, %q, is not an RFC line after %q", mode, tc.ref, i, c, lines[max(at-1, 0)])
					break
				}
				at += k + 1
				if strings.TrimLeft(line, " ") == "else" {
					// Its "if", found false, is the last line before it
					// at its indentation.
					j := i - 1
					for j >= 0 && !strings.HasPrefix(code[j], line[:len(line)-len("else")]+"if ") {
						j--
					}
					if j < 0 || !strings.HasSuffix(code[j], " -- false") {
						t.Errorf("%v %q: %q at line %d has no if found false before it", mode, tc.ref, c, i)
					}
				}
				if !isFalse {
					continue
				}
				// The "if"'s "else" (or "endif;") is the next line at its
				// indentation.
				indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
				for j := at; j < len(lines); j++ {
					if strings.HasPrefix(lines[j], indent) && !strings.HasPrefix(lines[j], indent+" ") {
						if lines[j] == indent+"else" && (i+1 >= len(code) || code[i+1] != lines[j]) {
							t.Errorf("%v %q: %q is not followed by its else", mode, tc.ref, c)
						}
						break
					}
				}
			}
		}
	}
}

// TestTraceJSONRoundTrip: a trace's JSON reads back into the same trace,
// whatever the grammar of its URIs (the authority was read with RFC 3986's
// rules: a zone ID, a non-ASCII host, failed to read back before
// 2026-12-08), and an authority whose IP literal does not end its host is
// an error.
func TestTraceJSONRoundTrip(t *testing.T) {
	for _, tt := range []struct {
		p         *parser.Parser
		base, ref string
	}{
		{parser.RFC3986(), "http://u:p@a:8080/b/c/d;p?q", "../g?y#s"},
		{parser.RFC3986(), "http://[v1.x]:/b", "//@[::1]:80"},
		{parser.RFC3986(), "foo:/a/b", "..//c"}, // guarded
		{rfc6874.Parser(), "http://[fe80::1%25en0]:8080/a/b", "c"},
		{rfc3987.Parser(), "http://ü@résumé.example:1/a/b", "./ç?é#ï"},
	} {
		base, err := tt.p.Parse("", tt.base)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := tt.p.Parse("", tt.ref)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := resolve.TraceResolve(base, ref, resolve.Strict)
		if err != nil {
			t.Fatal(err)
		}
		j, err := json.Marshal(tr)
		if err != nil {
			t.Fatal(err)
		}
		var back resolve.Trace
		if err := json.Unmarshal(j, &back); err != nil {
			t.Errorf("%s, %s: Unmarshal: %v", tt.base, tt.ref, err)
			continue
		}
		if diff := cmp.Diff(tr, back); diff != "" {
			t.Errorf("%s, %s: round trip (-want +got):\n%s", tt.base, tt.ref, diff)
		}
	}
	for _, a := range []string{`"[::1"`, `"[::1]x"`, `"u@[::1]80"`} {
		var back resolve.Trace
		in := `{"base":{"scheme":"http","authority":` + a + `,"path":"","query":null,"fragment":null},"reference":{"scheme":null,"authority":null,"path":"","query":null,"fragment":null},"mode":"Strict","steps":[],"result":""}`
		if err := json.Unmarshal([]byte(in), &back); err == nil {
			t.Errorf("authority %s: read as %+v, want an error", a, back.Base)
		}
	}
}

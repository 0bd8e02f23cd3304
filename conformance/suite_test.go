package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/grammar"
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/resolve"
)

const suiteFile = "rfc3986-suite.json"

func load(t *testing.T) *Suite {
	t.Helper()
	b, err := os.ReadFile(suiteFile)
	if err != nil {
		t.Fatal(err)
	}
	var s Suite
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&s); err != nil {
		t.Fatalf("%s: %v", suiteFile, err)
	}
	return &s
}

// TestFresh: the committed suite is what go run ./conformance writes.
func TestFresh(t *testing.T) {
	s, err := Build("..")
	if err != nil {
		t.Fatal(err)
	}
	want, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(suiteFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, got) {
		diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n"))
		if len(diff) > 4000 {
			diff = diff[:4000] + "\n…"
		}
		t.Errorf("conformance/%s is stale: run go run ./conformance (-generated +on disk):\n%s", suiteFile, diff)
	}
	ledger, err := os.ReadFile("ids.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(s.ledger, ledger) {
		diff := cmp.Diff(strings.Split(string(s.ledger), "\n"), strings.Split(string(ledger), "\n"))
		if len(diff) > 4000 {
			diff = diff[:4000] + "\n…"
		}
		t.Errorf("conformance/ids.txt is stale: run go run ./conformance (-generated +on disk):\n%s", diff)
	}
}

func input(t *testing.T, in, quoted string) string {
	if quoted == "" {
		return in
	}
	s, err := strconv.Unquote(quoted)
	if err != nil {
		t.Fatalf("inputQuoted %s: %v", quoted, err)
	}
	return s
}

// TestValidity: the generated parser (its DFA and its pigeon parser) and
// the exact ABNF matcher give every validity answer of the suite, and the
// DFA stops where the case says.
func TestValidity(t *testing.T) {
	s := load(t)
	g, err := grammar.Read([]string{"rfc3986"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := abnf.NewMatcher(g)
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]int{}
	for _, c := range s.Validity {
		in := input(t, c.Input, c.InputQuoted)
		rules[c.Rule+"/"+strconv.FormatBool(c.Valid)]++
		matched, err := m.Match(c.Rule, []byte(in))
		if err != nil || matched != c.Valid {
			t.Errorf("%s: matcher(%s, %q) = %v, %v; the suite says %v", c.ID, c.Rule, in, matched, err, c.Valid)
		}
		dfaErr := parser.Validate(c.Rule, in)
		if (dfaErr == nil) != c.Valid {
			t.Errorf("%s: parser.Validate(%s, %q) = %v; the suite says valid %v", c.ID, c.Rule, in, dfaErr, c.Valid)
		}
		_, treeErr := parser.RFC3986().ParsePEG(c.Rule, in)
		if (treeErr == nil || errors.Is(treeErr, parser.ErrTooLong)) != c.Valid {
			t.Errorf("%s: parser.RFC3986().ParsePEG(%s, %q) = %v; the suite says valid %v", c.ID, c.Rule, in, treeErr, c.Valid)
		}
		if !c.Valid {
			var pe *parser.Error
			if !errors.As(dfaErr, &pe) || c.Offset == nil || pe.Offset != *c.Offset {
				t.Errorf("%s: the DFA stops %q at %v; the suite says %v", c.ID, in, err, c.Offset)
			} else if pe.Innermost != c.Failing || !slices.Equal(pe.Expected, c.Expected) {
				t.Errorf("%s: %q: the parser's error names %s and expects %q; the suite says %s, %q", c.ID, in, pe.Innermost, pe.Expected, c.Failing, c.Expected)
			}
		}
	}
	// Every rule of Appendix A on both sides of its boundary.
	for _, r := range parser.Rules() {
		if rules[r+"/true"] == 0 || rules[r+"/false"] == 0 {
			t.Errorf("rule %s: %d valid and %d invalid cases, want both", r, rules[r+"/true"], rules[r+"/false"])
		}
	}
}

// appendixB is the regular expression of RFC 3986 Appendix B, an oracle
// for the components that is independent of the parser.
var appendixB = regexp.MustCompile(`^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`)

func opts(s *string) string {
	if s == nil {
		return "(undefined)"
	}
	return strconv.Quote(*s)
}

func TestComponents(t *testing.T) {
	for _, c := range load(t).Components {
		u, err := parser.ParseReference(c.Input)
		if err != nil {
			t.Errorf("%s: %v", c.ID, err)
			continue
		}
		got := componentsOf(u)
		got.ID, got.Provenance, got.Section = c.ID, c.Provenance, c.Section
		if diff := cmp.Diff(c, got); diff != "" {
			t.Errorf("%s: %q (-suite +library):\n%s", c.ID, c.Input, diff)
		}
		// Appendix B: $2 scheme, $4 authority, $5 path, $7 query, $9
		// fragment; a group that did not participate is undefined.
		m := appendixB.FindStringSubmatchIndex(c.Input)
		group := func(i int) string {
			if m[2*i] < 0 {
				return "(undefined)"
			}
			return strconv.Quote(c.Input[m[2*i]:m[2*i+1]])
		}
		if a, b := []string{group(2), group(4), strconv.Quote(c.Path), group(7), group(9)}, []string{opts(c.Scheme), opts(c.Authority), group(5), opts(c.Query), opts(c.Fragment)}; !cmp.Equal(a, b) {
			t.Errorf("%s: %q: Appendix B gives %v, the suite %v", c.ID, c.Input, a, b)
		}
	}
}

func TestResolution(t *testing.T) {
	for _, c := range load(t).Resolution {
		mode := resolve.Strict
		if c.Mode == "non-strict" {
			mode = resolve.NonStrict
		}
		got, err := resolve.ResolveString(c.Base, c.Reference, mode)
		if err != nil || got != c.Target {
			t.Errorf("%s: Resolve(%q, %q, %s) = %q, %v; the suite says %q", c.ID, c.Base, c.Reference, c.Mode, got, err, c.Target)
		}
	}
}

func TestRemoveDotSegments(t *testing.T) {
	for _, c := range load(t).RemoveDotSegments {
		got, steps := resolve.RemoveDotSegmentsTrace(c.Input)
		rules := ""
		for _, s := range steps[1 : len(steps)-1] {
			rules += s.Rule
		}
		if got != c.Output || rules != c.Rules || resolve.RemoveDotSegments(c.Input) != c.Output {
			t.Errorf("%s: remove_dot_segments(%q) = %q by %s; the suite says %q by %s", c.ID, c.Input, got, rules, c.Output, c.Rules)
		}
	}
}

func TestNormalization(t *testing.T) {
	steps := map[string]resolve.Steps{}
	for _, l := range levels {
		steps[l.name] = l.steps
	}
	for _, c := range load(t).Normalization {
		st, ok := steps[c.Level]
		if !ok {
			t.Errorf("%s: level %q", c.ID, c.Level)
			continue
		}
		got, err := resolve.NormalizeString(c.Input, st)
		if err != nil || got != c.Output {
			t.Errorf("%s: Normalize(%q, %s) = %q, %v; the suite says %q", c.ID, c.Input, c.Level, got, err, c.Output)
		}
	}
}

func TestEquivalence(t *testing.T) {
	lv := map[string]resolve.Level{}
	for _, l := range compareLevels {
		lv[l.name] = l.level
	}
	for _, c := range load(t).Equivalence {
		l, ok := lv[c.Level]
		if !ok {
			t.Errorf("%s: level %q", c.ID, c.Level)
			continue
		}
		got, err := resolve.EqualString(c.A, c.B, l)
		if err != nil || got != c.Equivalent {
			t.Errorf("%s: Equal(%q, %q, %s) = %v, %v; the suite says %v", c.ID, c.A, c.B, c.Level, got, err, c.Equivalent)
		}
	}
}

// TestProvenance: ids are unique, every case names its section and where
// it comes from, and a corpus record is at the line it names.
func TestProvenance(t *testing.T) {
	s := load(t)
	ids := map[string]bool{}
	lines := map[string][]string{}
	check := func(id, section string, p Provenance, inputs ...string) {
		if ids[id] || id == "" {
			t.Errorf("id %q: empty or not unique", id)
		}
		ids[id] = true
		if section == "" {
			t.Errorf("%s: no section", id)
		}
		switch p.Kind {
		case "rfc":
			if !strings.HasPrefix(p.Ref, "§") {
				t.Errorf("%s: rfc provenance without a section: %+v", id, p)
			}
		case "boundary":
		case "written":
			if p.Reason == "" {
				t.Errorf("%s: written without a reason", id)
			}
		case "generated":
			if p.Command == "" {
				t.Errorf("%s: generated without a command", id)
			}
			checkSample(t, id, p, inputs)
		case "corpus":
			f, ok := lines[p.Source]
			if !ok {
				b, err := os.ReadFile("../" + p.Source)
				if err != nil {
					t.Fatalf("%s: %v", id, err)
				}
				f = strings.Split(string(b), "\n")
				lines[p.Source] = f
			}
			if p.Line < 1 || p.Line > len(f) {
				t.Errorf("%s: %s has no line %d", id, p.Source, p.Line)
				return
			}
			var rec map[string]any
			if err := json.Unmarshal([]byte(f[p.Line-1]), &rec); err != nil {
				t.Errorf("%s: %s:%d: %v", id, p.Source, p.Line, err)
				return
			}
			for _, in := range inputs {
				if !holds(rec, in) {
					t.Errorf("%s: %s:%d does not hold %q", id, p.Source, p.Line, in)
				}
			}
			// The README: every corpus case says whether its source
			// agrees, and what it says where it does not (the
			// components and equivalence cases said neither before
			// 1.2.4).
			if p.CorpusAgree == nil || !*p.CorpusAgree && p.CorpusSays == nil {
				t.Errorf("%s: corpus case without corpusAgrees, or disagreeing without corpusSays: %+v", id, p)
			}
		default:
			t.Errorf("%s: provenance kind %q", id, p.Kind)
		}
	}
	for _, c := range s.Validity {
		check(c.ID, c.Section, c.Provenance, input(t, c.Input, c.InputQuoted))
	}
	for _, c := range s.Components {
		check(c.ID, c.Section, c.Provenance, c.Input)
	}
	for _, c := range s.Resolution {
		check(c.ID, c.Section, c.Provenance, c.Base, c.Reference)
	}
	for _, c := range s.RemoveDotSegments {
		check(c.ID, c.Section, c.Provenance, c.Input)
	}
	for _, c := range s.Normalization {
		check(c.ID, c.Section, c.Provenance, c.Input)
	}
	for _, c := range s.Equivalence {
		check(c.ID, c.Section, c.Provenance, c.A, c.B)
	}
	for _, c := range s.Encoding {
		check(c.ID, c.Section, c.Provenance, input(t, c.Input, c.InputQuoted))
	}
	for _, c := range s.Decoding {
		check(c.ID, c.Section, c.Provenance, input(t, c.Input, c.InputQuoted))
	}
	for _, c := range s.Building {
		// A corpus's recomposition holds the host and the path as text.
		var in []string
		if c.Host != nil {
			in = append(in, *c.Host)
		}
		if c.Path != nil {
			in = append(in, pathText(c.Path, c.Absolute))
		}
		check(c.ID, c.Section, c.Provenance, in...)
	}
	if s.Version != Version {
		t.Errorf("version %q, want %q", s.Version, Version)
	}
}

// holds says whether a corpus record holds the string in, at its top
// level or in an object inside it (a recomposition's components).
func holds(v any, in string) bool {
	switch x := v.(type) {
	case string:
		return x == in
	case map[string]any:
		for _, y := range x {
			if holds(y, in) {
				return true
			}
		}
	}
	return false
}

// TestReadmeCounts: the table of conformance/README.md gives the suite's
// counts.
func TestReadmeCounts(t *testing.T) {
	s := load(t)
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for k, n := range s.Counts {
		row := regexp.MustCompile("(?m)^\\| `" + k + "` \\| ([0-9,]+) \\|").FindSubmatch(b)
		if row == nil {
			t.Errorf("README.md: no row for %s", k)
			continue
		}
		if got := strings.ReplaceAll(string(row[1]), ",", ""); got != strconv.Itoa(n) {
			t.Errorf("README.md: %s has %s cases, the suite %d", k, row[1], n)
		}
	}
}

var (
	sampleCmd = regexp.MustCompile(`^gen sample -rule (\S+) -n (\d+) -seed (\d+)( -near)?(, with .*)?$`)
	samples   = map[string][]string{}
	sampleG   *abnf.Grammar
)

// checkSample: a case generated by "gen sample …" holds the line of that
// command's output it names (or, minimised, names it as its original):
// the provenance reproduces.
func checkSample(t *testing.T, id string, p Provenance, inputs []string) {
	t.Helper()
	m := sampleCmd.FindStringSubmatch(p.Command)
	if m == nil || p.Index == nil {
		return
	}
	lines, ok := samples[p.Command]
	if !ok {
		if sampleG == nil {
			g, err := grammar.Read([]string{"rfc3986"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			sampleG = g
		}
		n, _ := strconv.Atoi(m[2])
		seed, _ := strconv.ParseUint(m[3], 10, 64)
		s := abnf.NewSampler(sampleG, seed)
		for range n {
			var b []byte
			var err error
			if m[4] != "" {
				b, err = s.NearMiss(m[1])
			} else {
				b, err = s.Sample(m[1])
			}
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, string(b))
		}
		samples[p.Command] = lines
	}
	// The sample is the case's input (a resolution's reference, an
	// equivalence's a), or its original before minimisation.
	want := inputs
	if p.Original != "" {
		want = []string{input(t, p.Original, p.OriginalQuoted)}
	}
	if *p.Index >= len(lines) || !slices.Contains(want, lines[*p.Index]) {
		t.Errorf("%s: line %d of %q is none of %q", id, *p.Index, p.Command, want)
	}
}

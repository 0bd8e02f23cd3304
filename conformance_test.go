package rfc3986_test

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/peguri/rfc3986"
	"github.com/peguri/rfc3986/internal/corpus"
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc3987"
	"github.com/peguri/rfc3986/resolve"
)

// TestConformance runs every record of the external corpora
// (testdata/conformance, with provenance in its README) through the public
// API: validity, components, resolution (strict and non-strict),
// normalization, equivalence, relativization, and the rest.
//
// A record either agrees with our answer, or the source deviates from a
// literal reading of RFC 3986 and an entry of the ledger (conformance_ledger_test.go)
// says so: which records, what we answer to them (stated, or computed from
// something other than our code), the RFC section that decides, and why.
// The test fails on a disagreement no entry explains, on an explained
// record whose answer is not the one its entry gives, on an entry that
// explains a record which now agrees, and on an entry that explains
// nothing. Where the
// corpus carries a literal RFC reading computed by independent oracles
// (rfc3986_abnf for validity, rfc3986_strict for resolution), our answer
// must be that reading, whatever the source says. Run with -v for a table
// per source.
func TestConformance(t *testing.T) {
	recs, err := corpus.Load("testdata/conformance")
	if err != nil {
		t.Fatal(err)
	}
	type tally struct{ agreed, explained, unexplained, notApplicable int }
	bySource := map[string]*tally{}
	used := make([]int, len(ledger))
	for _, r := range recs {
		tl := bySource[r.File]
		if tl == nil {
			tl = &tally{}
			bySource[r.File] = tl
		}
		o := evaluate(t, r)
		switch {
		case o.notApplicable != "":
			tl.notApplicable++
			continue
		case o.agree:
			tl.agreed++
			for i, e := range ledger {
				if e.matches(r) {
					t.Errorf("%s: ledger entry %q explains this record, but it agrees now (ours: %s); narrow or remove the entry", r.Where(), e.reason, o.ours)
					used[i]++
				}
			}
			continue
		}
		explained := false
		for i, e := range ledger {
			if e.matches(r) {
				explained = true
				used[i]++
				if verbose() {
					t.Logf("%s: %s: theirs %s, ours %s — %s (%s)", r.Where(), r.Kind, o.theirs, o.ours, e.reason, e.section)
				}
				// The entry says what we answer; a third answer, neither
				// the source's nor the entry's, is a regression.
				if want, err := e.ours(r); err != nil {
					t.Errorf("%s: ledger entry %q cannot say what we answer: %v", r.Where(), e.reason, err)
				} else if want != o.ours {
					t.Errorf("%s: ledger entry %q says we answer %s; we answer %s%s", r.Where(), e.reason, want, o.ours, o.detail)
				}
			}
		}
		if explained {
			tl.explained++
		} else {
			tl.unexplained++
			t.Errorf("%s: unexplained disagreement (%s): theirs %s, ours %s%s", r.Where(), r.Kind, o.theirs, o.ours, o.detail)
		}
	}
	for i, e := range ledger {
		if used[i] == 0 {
			t.Errorf("ledger entry %q (%s) explains no record: remove it", e.reason, e.file)
		}
	}
	files := make([]string, 0, len(bySource))
	for f := range bySource {
		files = append(files, f)
	}
	sort.Strings(files)
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-30s %8s %10s %12s %14s\n", "source", "agreed", "deviation", "unexplained", "not RFC 3986")
	for _, f := range files {
		tl := bySource[f]
		fmt.Fprintf(&b, "%-30s %8d %10d %12d %14d\n", f, tl.agreed, tl.explained, tl.unexplained, tl.notApplicable)
	}
	t.Log(b.String())
}

func verbose() bool { return os.Getenv("CONFORMANCE_VERBOSE") != "" }

// outcome is our answer to a record and whether it is the source's.
type outcome struct {
	agree         bool
	ours, theirs  string
	detail        string
	notApplicable string // why the record has no RFC 3986 answer to compare
}

func quote(s string, ok bool) string {
	if !ok {
		return "(none)"
	}
	return fmt.Sprintf("%q", s)
}

// syntaxFor picks the generated grammar a validity record's rule belongs to.
func syntaxFor(rule string) (*parser.Parser, bool) {
	if _, ok := parser.RFC3986().Rule(rule); ok {
		return parser.RFC3986(), true
	}
	if _, ok := rfc3987.Parser().Rule(rule); ok {
		return rfc3987.Parser(), true
	}
	return nil, false
}

func evaluate(t *testing.T, r corpus.Record) outcome {
	switch r.Kind {
	case "validity":
		rule := r.Str("rule")
		syn, ok := syntaxFor(rule)
		if !ok {
			return outcome{notApplicable: "library-specific rule " + rule}
		}
		err := syn.Validate(rule, r.Str("input"))
		ours := err == nil
		want, _ := r.Bool("valid")
		// The literal reading, computed when the corpus was assembled by
		// two independent ABNF engines, is binding.
		if lit, ok := r.Bool("rfc3986_abnf"); ok && lit != ours {
			t.Errorf("%s: %s %q: ours %v, the literal RFC 3986 reading %v", r.Where(), rule, r.Str("input"), ours, lit)
		}
		return outcome{agree: ours == want, ours: fmt.Sprint(ours), theirs: fmt.Sprint(want), detail: errDetail(err)}
	case "components":
		return components(r)
	case "resolution":
		return resolution(t, r)
	case "resolution_normalized":
		res, err := resolve.ResolveString(r.Str("base"), r.Str("ref"), resolve.Strict)
		if err == nil {
			res, err = resolve.NormalizeString(res, resolve.NormalizeSyntax) // iri-string normalizes at the syntax level
		}
		want, ok, _ := r.String("expected")
		return outcome{agree: err == nil && ok && res == want, ours: quote(res, err == nil), theirs: quote(want, ok), detail: errDetail(err)}
	case "normalization":
		return normalization(r)
	case "equivalence":
		eq, err := resolve.EqualString(r.Str("a"), r.Str("b"), resolve.CompareScheme)
		want, _ := r.Bool("equivalent")
		return outcome{agree: err == nil && eq == want, ours: fmt.Sprint(eq), theirs: fmt.Sprint(want), detail: errDetail(err)}
	case "relativize":
		return relativize(r)
	case "relativize_path":
		return relativizePath(r)
	case "remove_dot_segments":
		got := rfc3986.RemoveDotSegments(r.Str("input"))
		want := r.Str("output")
		return outcome{agree: got == want, ours: quote(got, true), theirs: quote(want, true)}
	case "merge_paths":
		return mergePaths(r)
	case "recompose":
		return outcome{notApplicable: "uri-js serializes components with its own escaping, not §5.3 recomposition of parsed components"}
	case "iri_to_uri":
		u, err := rfc3987.ToURI(r.Str("input"))
		want := r.Str("expected")
		return outcome{agree: err == nil && u.String() == want, ours: quote(u.String(), err == nil), theirs: quote(want, true), detail: errDetail(err)}
	case "whatwg_url":
		// The URL Standard is not RFC 3986: only the literal verdict on
		// the raw input is compared.
		lit, ok := r.Bool("rfc3986_abnf_uri_reference")
		if !ok {
			return outcome{notApplicable: "WHATWG record without an RFC 3986 verdict"}
		}
		_, err := rfc3986.Parse(r.Str("input"))
		if (err == nil) != lit {
			t.Errorf("%s: WHATWG input %q: ours %v, the literal RFC 3986 reading %v", r.Where(), r.Str("input"), err == nil, lit)
		}
		return outcome{notApplicable: "the WHATWG URL Standard (checked: our verdict on the raw input is RFC 3986's)"}
	}
	return outcome{notApplicable: "unknown kind " + r.Kind}
}

func errDetail(err error) string {
	if err == nil {
		return ""
	}
	return " (" + err.Error() + ")"
}

// components compares every component the source asserts.
func components(r corpus.Record) outcome {
	in := r.Str("input")
	var u parser.URI
	var err error
	if r.Flag("iri") {
		u, err = rfc3987.Parser().Parse("IRI-reference", in)
	} else {
		u, err = parser.ParseReference(in)
	}
	if err != nil {
		return outcome{ours: "invalid", theirs: "components", detail: errDetail(err)}
	}
	diffs := componentDiffs(u, r)
	return outcome{agree: len(diffs) == 0, ours: renderComponents(r, componentsOf(u)), theirs: strings.Join(diffs, "; ")}
}

// componentSet are a URI's components by the corpus's keys; nil for an
// undefined one.
type componentSet map[string]*string

func componentsOf(u parser.URI) componentSet {
	opt := func(s string, ok bool) *string {
		if !ok {
			return nil
		}
		return &s
	}
	return componentSet{
		"scheme":    opt(u.Scheme(), u.HasScheme()),
		"authority": opt(u.Authority(), u.HasAuthority()),
		"userinfo":  opt(u.Userinfo(), u.HasUserinfo()),
		"host":      opt(u.Host(), u.HasAuthority()),
		"port":      opt(u.Port(), u.HasPort()),
		"path":      opt(u.Path(), true),
		"query":     opt(u.Query(), u.HasQuery()),
		"fragment":  opt(u.Fragment(), u.HasFragment()),
	}
}

// renderComponents writes c for the components r asserts, in a fixed
// order: our answer to a components record.
func renderComponents(r corpus.Record, c componentSet) string {
	var parts []string
	for _, k := range []string{"scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment"} {
		if _, _, present := r.String(k); !present {
			continue
		}
		v := "null"
		if c[k] != nil {
			v = fmt.Sprintf("%q", *c[k])
		}
		parts = append(parts, k+"="+v)
	}
	for _, k := range []string{"query_defined", "fragment_defined", "host_defined", "has_scheme"} {
		if r.Has(k) {
			base := map[string]string{"query_defined": "query", "fragment_defined": "fragment", "host_defined": "host", "has_scheme": "scheme"}[k]
			parts = append(parts, fmt.Sprintf("%s=%v", k, c[base] != nil))
		}
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// componentDiffs lists the components r asserts that u does not have.
func componentDiffs(u parser.URI, r corpus.Record) []string {
	var out []string
	for _, d := range corpus.ComponentDiffs(r, u) {
		out = append(out, d.String())
	}
	return out
}

// resolution checks a §5.2 record, strict unless the record says strict:
// false. The corpus's rfc3986_strict (a literal §5.2 resolver's answer, no
// base normalization) is binding for strict records.
func resolution(t *testing.T, r corpus.Record) outcome {
	mode := resolve.Strict
	if v, ok := r.Bool("strict"); ok && !v {
		mode = resolve.NonStrict
	}
	res, err := resolve.ResolveString(r.Str("base"), r.Str("ref"), mode)
	ours := quote(res, err == nil)
	_, berr := rfc3986.ParseURI(r.Str("base"))
	_, rerr := rfc3986.Parse(r.Str("ref"))
	if lit, ok, _ := r.String("rfc3986_strict"); ok && mode == resolve.Strict && berr == nil && rerr == nil && (err != nil || res != lit) {
		// The literal resolver does not guard "//" paths (§3.3): our one
		// deliberate deviation, which must be the only difference.
		if !(err == nil && guarded(res, lit)) {
			t.Errorf("%s: resolve(%q, %q) = %s, the literal RFC 3986 reading %q%s", r.Where(), r.Str("base"), r.Str("ref"), ours, lit, errDetail(err))
		}
	}
	want, ok, _ := r.String("expected")
	switch {
	case ok:
		return outcome{agree: err == nil && res == want, ours: ours, theirs: quote(want, true), detail: errDetail(err)}
	case r.Has("expected_error"):
		return outcome{agree: err != nil, ours: ours, theirs: "an error", detail: errDetail(err)}
	case r.Has("expected_components"):
		want, _ := r.Object("expected_components")
		if err != nil {
			return outcome{ours: ours, theirs: "components", detail: errDetail(err)}
		}
		u, err := parser.ParseReference(res)
		if err != nil {
			return outcome{ours: ours, theirs: "components", detail: errDetail(err)}
		}
		if diffs := componentDiffs(u, want); len(diffs) > 0 {
			return outcome{ours: ours, theirs: strings.Join(diffs, "; ")}
		}
		return outcome{agree: true, ours: ours, theirs: "components"}
	}
	return outcome{notApplicable: "no expectation"}
}

// guarded reports whether ours is lit with the "/." guard of package
// resolve before a path that begins with "//" (§3.3).
func guarded(ours, lit string) bool {
	i := strings.Index(ours, "/.//")
	return i >= 0 && ours[:i]+ours[i+2:] == lit
}

// relativize checks that our relativization resolves back to the target;
// the RFC defines resolution, not its inverse, so a different reference
// that also resolves to the target is no deviation — ours must be no longer.
func relativize(r corpus.Record) outcome {
	base, err1 := rfc3986.Parse(r.Str("base"))
	target, err2 := rfc3986.Parse(r.Str("target"))
	if err1 != nil || err2 != nil {
		return outcome{ours: "invalid input", theirs: r.Str("expected"), detail: errDetail(errors.Join(err1, err2))}
	}
	return compareRelative(r, base, target)
}

// relativizePath relativizes paths alone, under a made-up authority.
func relativizePath(r corpus.Record) outcome {
	base, err1 := rfc3986.Parse("http://h" + r.Str("base_path"))
	target, err2 := rfc3986.Parse("http://h" + r.Str("target_path"))
	if err1 != nil || err2 != nil {
		return outcome{notApplicable: "paths that are not RFC 3986 paths"}
	}
	return compareRelative(r, base, target)
}

// compareRelative relativizes target against base and compares the result
// with the record's expected reference (null: the source declines).
func compareRelative(r corpus.Record, base, target rfc3986.URI) outcome {
	want, ok, _ := r.String("expected")
	rel, err := rfc3986.Relativize(base, target)
	if err != nil {
		// Both decline (a target without a scheme is no §5.2.2 target).
		return outcome{agree: !ok, ours: "error", theirs: quote(want, ok), detail: errDetail(err)}
	}
	ours := quote(rel.String(), true)
	if back, err := rfc3986.Resolve(base, rel, rfc3986.Strict); err != nil || back != target {
		return outcome{ours: ours, theirs: quote(want, ok), detail: " (ours does not resolve back to the target)"}
	}
	if !ok {
		// The source declines; ours resolves back, which is all §5.2 asks.
		return outcome{agree: true, ours: ours, theirs: "(declines)"}
	}
	agree := want == rel.String()
	if theirs, err := rfc3986.Parse(want); !agree && err == nil {
		back, err := rfc3986.Resolve(base, theirs, rfc3986.Strict)
		agree = err == nil && back == target && len(rel.String()) <= len(want)
	}
	return outcome{agree: agree, ours: ours, theirs: quote(want, true)}
}

func mergePaths(r corpus.Record) outcome {
	b := "s:" + r.Str("base")
	if v, _ := r.Bool("base_has_authority"); v {
		b = "s://h" + r.Str("base")
	}
	base, err := parser.ParseReference(b)
	if err != nil {
		return outcome{notApplicable: "base path not an RFC 3986 path"}
	}
	got := resolve.Merge(base, r.Str("ref_path"))
	want := r.Str("expected")
	return outcome{agree: got == want, ours: quote(got, true), theirs: quote(want, true)}
}

// normalization runs a normalization record at the level its op names:
// sources differ (corpus README), and comparing a syntax-based normalizer
// with our scheme-based one would only show the difference in levels.
func normalization(r corpus.Record) outcome {
	op, in, want := r.Str("op"), r.Str("input"), r.Str("normalized")
	component := func(prefix, suffix string, steps resolve.Steps) outcome {
		res, err := resolve.NormalizeString(prefix+in+suffix, steps)
		res = strings.TrimSuffix(strings.TrimPrefix(res, prefix), suffix)
		return outcome{agree: err == nil && res == want, ours: quote(res, err == nil), theirs: quote(want, true), detail: errDetail(err)}
	}
	steps := resolve.NormalizeSyntax
	switch {
	case strings.Contains(op, "scheme component only"):
		return component("", ":", resolve.NormalizeCase)
	case strings.Contains(op, "host component only"):
		return component("//", "", resolve.NormalizeCase|resolve.NormalizePercent)
	case strings.Contains(op, "uppercase %XX only"):
		return component("", "", resolve.NormalizeCase)
	case strings.Contains(op, "(RFC 3987)") || strings.Contains(op, "IriRef"):
		return iriNormalization(r)
	case strings.Contains(op, "scheme-based"), strings.Contains(op, "IRI3986.normalize"), strings.Contains(op, "uri-js"):
		steps = resolve.NormalizeDefault // these apply http's scheme-based rules too
	}
	res, err := resolve.NormalizeString(in, steps)
	return outcome{agree: err == nil && res == want, ours: quote(res, err == nil), theirs: quote(want, true), detail: errDetail(err)}
}

// iriNormalization normalizes an IRI as its URI mapping would be (RFC 3987
// §5.3.2.3 normalizes IRIs by the same syntax-based rules).
func iriNormalization(r corpus.Record) outcome {
	in := r.Str("input")
	if _, err := rfc3987.Parser().Parse("IRI-reference", in); err != nil {
		return outcome{ours: "invalid IRI", theirs: quote(r.Str("normalized"), true), detail: errDetail(err)}
	}
	if _, err := rfc3986.Parse(in); err != nil {
		return outcome{notApplicable: "IRI normalization with non-ASCII characters (RFC 3987 §5.3), outside RFC 3986"}
	}
	res, err := resolve.NormalizeString(in, resolve.NormalizeSyntax)
	want := r.Str("normalized")
	return outcome{agree: err == nil && res == want, ours: quote(res, err == nil), theirs: quote(want, true), detail: errDetail(err)}
}

package parser_test

import (
	"testing"

	"github.com/peguri/rfc3986/internal/corpus"
	"github.com/peguri/rfc3986/parser"
)

// The validity and component records of the external corpora
// (testdata/conformance, with provenance in its README).

func loadCorpus(t *testing.T) []corpus.Record {
	t.Helper()
	recs, err := corpus.Load("../testdata/conformance")
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestCorpusValidity: for every validity record of an Appendix A rule, the
// parser's verdict is the strict ABNF one: the corpus's own advisory
// verdict (computed when it was assembled, by independent oracles) and our
// matcher's. Where a source disagrees with them, the source deviates from
// RFC 3986; the root conformance test accounts for those.
func TestCorpusValidity(t *testing.T) {
	rules := map[string]bool{}
	for _, r := range parser.Rules() {
		rules[r] = true
	}
	n := 0
	for _, r := range loadCorpus(t) {
		if r.Kind != "validity" || !rules[r.Str("rule")] {
			continue
		}
		in, rule := r.Str("input"), r.Str("rule")
		_, err := parser.ParseRule(rule, in)
		got := err == nil
		if want := match(t, rule, []byte(in)); got != want {
			t.Errorf("%s: %s %q: parser %v, matcher %v", r.Where(), rule, in, got, want)
		}
		if want, ok := r.Bool("rfc3986_abnf"); ok && got != want {
			t.Errorf("%s: %s %q: parser %v, corpus's strict ABNF verdict %v", r.Where(), rule, in, got, want)
		}
		n++
	}
	if n < 1100 {
		t.Errorf("checked %d validity records, expected over 1,100", n)
	}
	t.Logf("%d validity records", n)
}

// TestCorpusComponents: every input of a component record that the parser
// rejects, the matcher rejects too (the source parses leniently: IRIs, zone
// IDs, spaces); every input it accepts recomposes byte for byte. Whether
// the components are the source's is the root conformance test's question,
// with its ledger of where sources deviate.
func TestCorpusComponents(t *testing.T) {
	var accepted, rejected int
	for _, r := range loadCorpus(t) {
		if r.Kind != "components" || r.Flag("iri") {
			continue
		}
		in := r.Str("input")
		u, err := parser.ParseReference(in)
		if want := match(t, "URI-reference", []byte(in)); (err == nil) != want {
			t.Errorf("%s: %q: parser %v, matcher %v", r.Where(), in, err, want)
		}
		if err != nil {
			rejected++
			continue
		}
		if u.String() != in {
			t.Errorf("%s: %q recomposes to %q", r.Where(), in, u.String())
		}
		accepted++
	}
	if accepted < 500 {
		t.Errorf("%d component records parsed, expected over 500", accepted)
	}
	t.Logf("%d component records parsed, %d rejected as not RFC 3986 (the matcher agrees)", accepted, rejected)
}

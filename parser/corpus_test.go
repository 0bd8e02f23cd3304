package parser_test

import (
	"strings"
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

// componentDeviations are component records where a source reports
// something else than RFC 3986's components, each with the reason. The test
// fails when an entry stops disagreeing, or a disagreement is not listed.
var componentDeviations = map[string]string{
	// python-hyper/rfc3986 normalizes case while parsing (from_string): its
	// scheme and host are not the input's.
	"python-hyper-rfc3986.jsonl:scheme:normalizes": "python-hyper/rfc3986 ParseResult.from_string lower-cases the scheme (§6.2.2.1 normalization, not parsing)",
	"python-hyper-rfc3986.jsonl:host:normalizes":   "python-hyper/rfc3986 ParseResult.from_string lower-cases the host (§6.2.2.1 normalization, not parsing)",
	// Accessor conventions.
	"boost-url.jsonl:http:/path:host":               "Boost.URL encoded_host() returns \"\" when there is no authority; RFC 3986 has no host then (§3.2)",
	"fredbi-uri.jsonl:mailto://user@[fe80::1]:host": "fredbi/uri strips the IP-literal's brackets; the host rule includes them (§3.2.2)",
	"ruby-uri.jsonl://:host":                        "Ruby URI.split gives nil for an empty host; \"//\" has an authority whose host is the empty reg-name (§3.2.2)",
}

func TestCorpusComponents(t *testing.T) {
	used := map[string]bool{}
	var checked, rejected int
	for _, r := range loadCorpus(t) {
		if r.Kind != "components" {
			continue
		}
		in := r.Str("input")
		u, err := parser.ParseReference(in)
		if err != nil {
			// The source parses an input RFC 3986 rejects (lenient
			// parsing, IRIs, zone IDs): the matcher must reject it too.
			if match(t, "URI-reference", []byte(in)) {
				t.Errorf("%s: %q rejected by the parser, accepted by the matcher: %v", r.Where(), in, err)
			}
			rejected++
			continue
		}
		checked++
		p := u.Parts()
		for _, c := range []struct {
			key     string
			got     string
			defined bool
		}{
			{"scheme", p.Scheme, p.HasScheme},
			{"authority", u.Authority(), p.HasAuthority},
			{"userinfo", p.Userinfo, p.HasUserinfo},
			{"host", p.Host, p.HasAuthority},
			{"port", p.Port, p.HasPort},
			{"path", p.Path, true},
			{"query", p.Query, p.HasQuery},
			{"fragment", p.Fragment, p.HasFragment},
		} {
			want, defined, present := r.String(c.key)
			if !present || defined == c.defined && (!defined || want == c.got) {
				continue
			}
			key := r.File + ":" + in + ":" + c.key
			if r.File == "python-hyper-rfc3986.jsonl" && strings.Contains(r.Str("source"), "test_normalizes_uris") {
				key = r.File + ":" + c.key + ":normalizes"
			}
			if _, ok := componentDeviations[key]; ok {
				used[key] = true
				continue
			}
			t.Errorf("%s: %q %s = %q (defined %v), source says %q (defined %v)", r.Where(), in, c.key, c.got, c.defined, want, defined)
		}
		if ht := r.Str("host_type"); ht != "" {
			kinds := map[string]parser.HostKind{"IPv4address": parser.HostIPv4, "IPv6address": parser.HostIPv6, "IPvFuture": parser.HostIPvFuture, "reg-name": parser.HostRegName}
			if kinds[ht] != u.HostKind() {
				t.Errorf("%s: %q host kind %v, source says %s", r.Where(), in, u.HostKind(), ht)
			}
		}
	}
	for k := range componentDeviations {
		if !used[k] {
			t.Errorf("deviation %q no longer occurs: remove it from the ledger", k)
		}
	}
	t.Logf("%d component records checked, %d inputs rejected as not RFC 3986 (the matcher agrees)", checked, rejected)
}

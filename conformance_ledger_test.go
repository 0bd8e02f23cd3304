package rfc3986_test

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/peguri/rfc3986/internal/corpus"
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc3987"
	"github.com/peguri/rfc3986/parser/rfc6874"
	"github.com/peguri/rfc3986/resolve"
)

// ledgerEntry explains records where a source deviates from a literal
// reading of RFC 3986. Where the explanation is a property of the input
// (an RFC 6874 zone ID, an IRI, a control character) the entry matches by
// computing that property, so an entry stops matching when its reason stops
// being true; record lines are used only where the reason is the source's
// own choice and nothing in the input shows it.
//
// Every entry also says what we answer to the records it explains, by
// stating it or by computing it from something other than our code (the
// corpus's literal RFC 3986 readings, the Appendix B expression, the
// source's own answer mapped to a URI): an explained record is still
// checked, and a regression to a third, wrong value is caught.
type ledgerEntry struct {
	file    string                   // corpus file
	kind    string                   // record kind
	match   func(corpus.Record) bool // which of its records
	ours    answer                   // what we answer to them
	section string                   // the RFC section that decides
	reason  string
}

// answer states or computes our answer to a record, as TestConformance
// writes it (outcome.ours): "true" or "false" for validity and
// equivalence, a quoted string or "(none)" for results, "invalid" or the
// rendered components for components.
type answer func(r corpus.Record) (string, error)

// says states the answer.
func says(s string) answer { return func(corpus.Record) (string, error) { return s, nil } }

// byLine states the answer of each record, by line.
func byLine(m map[int]string) answer {
	return func(r corpus.Record) (string, error) {
		s, ok := m[r.Line]
		if !ok {
			return "", fmt.Errorf("no answer stated for line %d", r.Line)
		}
		return s, nil
	}
}

// literal: our answer is the corpus's literal RFC 3986 resolution
// (rfc3986_strict, computed by an independent §5.2 resolver).
func literal(r corpus.Record) (string, error) {
	v, ok, _ := r.String("rfc3986_strict")
	if !ok {
		return "", fmt.Errorf("the record has no rfc3986_strict")
	}
	return quote(v, true), nil
}

// abnfVerdict: our answer is the corpus's literal Appendix A verdict
// (rfc3986_abnf, computed by independent ABNF engines).
func abnfVerdict(r corpus.Record) (string, error) {
	v, ok := r.Bool("rfc3986_abnf")
	if !ok {
		return "", fmt.Errorf("the record has no rfc3986_abnf")
	}
	return fmt.Sprint(v), nil
}

// rejected: we refuse the record's input (or base), whatever the kind.
func rejected(r corpus.Record) (string, error) {
	switch r.Kind {
	case "validity":
		return "false", nil
	case "components":
		return "invalid", nil
	}
	return quote("", false), nil
}

// appendixBSplit: our components are those RFC 3986 Appendix B's regular
// expression splits the input into.
func appendixBSplit(r corpus.Record) (string, error) {
	in := r.Str("input")
	m := appendixB.FindStringSubmatchIndex(in)
	if m == nil {
		return "", fmt.Errorf("Appendix B's expression does not match %q", in)
	}
	part := func(i int) *string {
		if m[2*i] < 0 {
			return nil
		}
		s := in[m[2*i]:m[2*i+1]]
		return &s
	}
	c := componentSet{"scheme": part(2), "authority": part(4), "path": part(5), "query": part(7), "fragment": part(9)}
	if a := c["authority"]; a != nil {
		// The authority's own split: userinfo "@" host ":" port, where an
		// IP literal's brackets hold the colons.
		rest := *a
		if i := strings.LastIndexByte(rest, '@'); i >= 0 {
			u := rest[:i]
			c["userinfo"], rest = &u, rest[i+1:]
		}
		h := rest
		if i := strings.LastIndexByte(rest, ':'); i >= 0 && !strings.Contains(rest[i:], "]") {
			h = rest[:i]
			p := rest[i+1:]
			c["port"] = &p
		}
		c["host"] = &h
	}
	return renderComponents(r, c), nil
}

// appendixB is RFC 3986 Appendix B's regular expression.
var appendixB = regexp.MustCompile(`^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?$`)

// uriOfTheirs: the source answers with an IRI (RFC 3987 §5.3.2.3 decodes
// percent-encoded UTF-8 into characters); our answer is that IRI mapped to a
// URI (RFC 3987 §3.1) and normalized at the syntax level.
func uriOfTheirs(r corpus.Record) (string, error) {
	want := r.Str("normalized")
	if want == "" {
		want = r.Str("expected")
	}
	u, err := rfc3987.ToURI(want)
	if err != nil {
		return "", err
	}
	n, err := resolve.NormalizeString(u.String(), resolve.NormalizeSyntax)
	if err != nil {
		return "", err
	}
	return quote(n, true), nil
}

func (e ledgerEntry) matches(r corpus.Record) bool {
	return r.File == e.file && r.Kind == e.kind && e.match(r)
}

// lines matches records by line number in their file.
func lines(ns ...int) func(corpus.Record) bool {
	return func(r corpus.Record) bool {
		for _, n := range ns {
			if r.Line == n {
				return true
			}
		}
		return false
	}
}

// span matches the records on lines from..to.
func span(from, to int) func(corpus.Record) bool {
	return func(r corpus.Record) bool { return from <= r.Line && r.Line <= to }
}

// texts are the URI references a record carries.
func texts(r corpus.Record) []string {
	var out []string
	for _, k := range []string{"input", "base", "ref", "a", "b", "target"} {
		if v, ok, _ := r.String(k); ok {
			if strings.Contains(r.Str("op"), "host component only") {
				v = "//" + v // as normalization() parses it
			}
			out = append(out, v)
		}
	}
	return out
}

// anyText reports whether f holds for one of the record's references.
func anyText(f func(r corpus.Record, s string) bool) func(corpus.Record) bool {
	return func(r corpus.Record) bool {
		for _, s := range texts(r) {
			if f(r, s) {
				return true
			}
		}
		return false
	}
}

// validIn reports whether syn accepts s as the rule a validity record
// names, or as a URI reference.
func validIn(syn *parser.Parser, r corpus.Record, s string) bool {
	rule := syn.DefaultRule()
	if r.Kind == "validity" {
		rule = r.Str("rule")
		if syn == rfc3987.Parser() {
			rule = iriRules[rule]
		}
		if _, ok := syn.Rule(rule); !ok {
			rule = syn.DefaultRule()
		}
	}
	return syn.Validate(rule, s) == nil
}

// iriRules names RFC 3987's counterparts of RFC 3986's rules (§2.2).
var iriRules = map[string]string{
	"URI":           "IRI",
	"URI-reference": "IRI-reference",
	"absolute-URI":  "absolute-IRI",
	"relative-ref":  "irelative-ref",
	"host":          "ihost",
	"path":          "ipath",
	"query":         "iquery",
	"fragment":      "ifragment",
}

// accepted: the source takes the record's input as valid (it asserts
// validity, components or a result rather than an error).
func accepted(r corpus.Record) bool {
	switch r.Kind {
	case "validity":
		v, _ := r.Bool("valid")
		return v
	case "resolution":
		_, ok, _ := r.String("expected")
		return ok || r.Has("expected_components")
	}
	return true
}

// zoneID: the source accepts a reference RFC 3986 rejects and RFC 6874's
// grammar accepts.
var zoneID = and(accepted, anyText(func(r corpus.Record, s string) bool {
	return !validIn(parser.RFC3986(), r, s) && validIn(rfc6874.Parser(), r, s)
}))

// iri: the source accepts a reference RFC 3986 rejects and RFC 3987's IRI
// grammar accepts (records flagged iri are evaluated as IRIs already).
var iri = and(accepted, not(flagged("iri")), anyText(func(r corpus.Record, s string) bool {
	return !validIn(parser.RFC3986(), r, s) && validIn(rfc3987.Parser(), r, s)
}))

// invalidEverywhere: the source accepts a reference no grammar we
// generate accepts.
var invalidEverywhere = and(accepted, anyText(func(r corpus.Record, s string) bool {
	return !validIn(parser.RFC3986(), r, s) && !validIn(rfc6874.Parser(), r, s) && !validIn(rfc3987.Parser(), r, s)
}))

// controls: a reference carries a control character or space, which no
// rule of Appendix A produces.
var controls = anyText(func(_ corpus.Record, s string) bool {
	return strings.ContainsFunc(s, func(c rune) bool { return c <= ' ' || c == 0x7F })
})

// rejectsLiteral: a validity record where the source rejects what the
// Appendix A grammar accepts (the corpus's rfc3986_abnf verdict, which
// TestConformance also holds our parser to).
func rejectsLiteral(errs ...string) func(corpus.Record) bool {
	return func(r corpus.Record) bool {
		lit, ok := r.Bool("rfc3986_abnf")
		valid, _ := r.Bool("valid")
		if !ok || !lit || valid {
			return false
		}
		if len(errs) == 0 {
			return true
		}
		for _, e := range errs {
			if r.Str("error") == e {
				return true
			}
		}
		return false
	}
}

// iriForm: a normalization record where the source answers with an IRI
// (RFC 3987 §5.3.2.3 decodes percent-encoded UTF-8 into characters) whose
// URI mapping (RFC 3987 §3.1), normalized, is our normalization of the input.
func iriForm(r corpus.Record) bool {
	want := r.Str("normalized")
	if want == "" {
		want = r.Str("expected")
	}
	if !strings.ContainsFunc(want, func(c rune) bool { return c > 0x7F }) {
		return false
	}
	u, err := rfc3987.ToURI(want)
	if err != nil {
		return false
	}
	theirs, err1 := resolve.NormalizeString(u.String(), resolve.NormalizeSyntax)
	ours, err2 := resolve.NormalizeString(r.Str("input"), resolve.NormalizeSyntax)
	return err1 == nil && err2 == nil && theirs == ours
}

func and(fs ...func(corpus.Record) bool) func(corpus.Record) bool {
	return func(r corpus.Record) bool {
		for _, f := range fs {
			if !f(r) {
				return false
			}
		}
		return true
	}
}

func or(fs ...func(corpus.Record) bool) func(corpus.Record) bool {
	return func(r corpus.Record) bool {
		for _, f := range fs {
			if f(r) {
				return true
			}
		}
		return false
	}
}

func not(f func(corpus.Record) bool) func(corpus.Record) bool {
	return func(r corpus.Record) bool { return !f(r) }
}

func flagged(key string) func(corpus.Record) bool {
	return func(r corpus.Record) bool { return r.Flag(key) }
}

func sourceHas(s string) func(corpus.Record) bool {
	return func(r corpus.Record) bool { return strings.Contains(r.Str("source"), s) }
}

func expectedHas(s string) func(corpus.Record) bool {
	return func(r corpus.Record) bool { return strings.Contains(r.Str("expected"), s) }
}

// caseOnly: a components record whose components are not ours, but are
// ours once case normalization (§6.2.2.1: scheme and host to lowercase,
// percent-encoding hex to uppercase) is applied to ours: case is the only
// difference.
func caseOnly(r corpus.Record) bool {
	u, err := parser.ParseReference(r.Str("input"))
	if err != nil {
		return false
	}
	n, err := resolve.Normalize(u, resolve.NormalizeCase)
	return err == nil && len(corpus.ComponentDiffs(r, u)) > 0 && len(corpus.ComponentDiffs(r, n)) == 0
}

// Reasons shared by several sources.
const (
	zoneIDReason     = "an IPv6 zone ID (\"%25\" in an IP-literal) is RFC 6874 syntax, not RFC 3986's; parser/rfc6874 accepts the input (checked by the entry's match)"
	iriReason        = "the input has non-ASCII characters: an IRI (RFC 3987 §2.2), not a URI; parser/rfc3987 accepts it (checked by the entry's match)"
	underflowReason  = "\"..\" above the root: remove_dot_segments drops it (§5.2.4), and §5.4.2 gives \"../../../g\" against \"http://a/b/c/d;p?q\" as \"http://a/g\"; keeping it is RFC 2396 §C.2's old allowance"
	pctDotReason     = "percent-encoded dots are not dot-segments to remove_dot_segments (§5.2.4 matches the literal \".\" and \"..\"); decoding %2E is normalization (§6.2.2.2), which strict resolution does not do"
	pctDotNormReason = "a path segment that decodes to \".\" or \"..\" is no dot segment to remove_dot_segments (§5.2.4 matches the literal \".\" and \"..\"), and §6.2.2.3 removes dot segments since they \"are removed as part of the reference resolution process\": our §6.2.2.2 keeps the segment's last dot encoded (\"%2E\", \".%2E\") so that normalization removes what resolution removes and the normal form has the input's targets; decoding first, as the source does, makes dot segments that resolution would not remove"
	emptyPortReason  = "§6.2.3: an empty port \"should be removed by scheme-based normalization\"; our syntax-based level (§6.2.2) keeps it, resolve.NormalizeDefault removes it"
	rfc5952Reason    = "RFC 5952's canonical IPv6 text is not among §6.2.2's normalizations; resolve.NormalizeIPv6Canonical applies it on request"
	// section51 is how this project reads §5.1 ("A base URI must conform
	// to the <absolute-URI> syntax rule ... If the base URI is obtained
	// from a URI reference, then that reference must be converted to
	// absolute form and stripped of any fragment component prior to its
	// use as a base URI"), in every entry and in package resolve: the
	// conversion is done where it needs nothing but the base (a fragment
	// is stripped), and refused where it needs more (a base without a
	// scheme has no absolute form without a base of its own).
	section51 = "§5.1, as we read it everywhere: a base obtained from a reference is converted to absolute form and stripped of its fragment before use; stripping needs nothing but the base, so we do it; converting a base without a scheme needs another base, so we refuse it"
)

var ledger = []ledgerEntry{
	// boost-url
	{"boost-url.jsonl", "validity", lines(10, 386, 532), abnfVerdict, "§3.4, §3.5, Appendix A", "boost's grammar accepts a '#' inside the fragment and '[' ']' in the query; fragment and query are *( pchar / \"/\" / \"?\" ), which has neither"},
	{"boost-url.jsonl", "components", lines(387, 531), rejected, "§3.4, §3.5, Appendix A", "components of \"##f\" and \"http://?k[]=\", which Appendix A rejects ('#' in a fragment, '[' in a query)"},
	{"boost-url.jsonl", "components", lines(487), appendixBSplit, "§3, §3.2", "boost's encoded_host() returns \"\" for a URI without an authority; the authority, and so the host, is undefined, not empty"},
	{"boost-url.jsonl", "resolution", lines(203), literal, "§5.2.4", pctDotReason},
	{"boost-url.jsonl", "resolution", or(lines(209, 210, 213), span(228, 235)), literal, "§5.2.4, §5.4.2", underflowReason},
	{"boost-url.jsonl", "resolution", lines(236), literal, "§5.2.2", "boost resolves non-strictly (copies the base authority when the reference repeats the scheme); §5.2.2 makes that a backward-compatibility option, and the corpus's strict reading is \"http:path2\""},
	{"boost-url.jsonl", "normalization", lines(257, 259, 261, 299, 305, 307), byLine(map[int]string{
		257: `"http://cppalliance.org/g"`, 259: `"http://cppalliance.org/g"`, 261: `"http://cppalliance.org/"`, 299: `"/g"`, 305: `"/"`, 307: `"../"`,
	}), "§5.2.4, §6.2.2.3", underflowReason},
	{"boost-url.jsonl", "normalization", lines(304, 306), says(`"./"`), "§4.4, §5.2.3", "boost normalizes \"a/..\" and \".\" to \"\", a same-document reference (§4.4); they resolve to the base's directory, which \"./\" keeps"},
	{"boost-url.jsonl", "normalization", lines(275, 277, 279, 281), byLine(map[int]string{
		275: `"./my:sharona"`, 277: `"./my:sharona"`, 279: `"./my:sha:rona"`, 281: `"./my:sha:rona"`,
	}), "§2.2, §6.2.2.2", "boost percent-encodes ':' to keep the first segment colon-free; ':' is reserved, and encoding a reserved character changes the URI (§2.2), so we prefix \"./\" (§4.2) instead"},
	{"boost-url.jsonl", "normalization", lines(296, 297), says(`".%2E/a/g"`), "§5.2.4, §6.2.2.2, §6.2.2.3", pctDotNormReason + " (the record's own rfc3986_remove_dot_segments keeps the segment: \"%2E%2E/a/g\")"},
	{"boost-url.jsonl", "equivalence", lines(343), says("false"), "§5.2.4, §6.2.2.2, §6.2.2.3", pctDotNormReason + "; \"../a/b\" and \"%2E%2E/a/b\" resolve to different targets against \"http://a/b/c/d\" (\"http://a/b/a/b\", \"http://a/b/c/%2E%2E/a/b\")"},
	{"boost-url.jsonl", "equivalence", lines(276, 278, 280, 282), says("false"), "§2.2, §6.2.2.2", "\"./my:sharona\" and \"my%3Asharona\" differ by the encoding of a reserved character, which §2.2 says is not an equivalence"},

	// fluent-uri
	{"fluent-uri.jsonl", "normalization", lines(138), says(`"http://example.com:/"`), "§6.2.3", emptyPortReason},
	{"fluent-uri.jsonl", "normalization", lines(144, 145, 146), byLine(map[int]string{144: `"bar"`, 145: `"/bar"`, 146: `"foo:/baz"`}), "§6.2.2.3", "fluent-uri leaves dot segments in relative references and rootless paths; §6.2.2.3: normalizers should remove them (ours removes those that do not climb above the base of a relative-path reference)"},
	{"fluent-uri.jsonl", "normalization", lines(157, 158, 159), byLine(map[int]string{
		157: `"//[0000:0000:0000::1]"`, 158: `"//[0:0:0:0:0:ffff:192.0.2.1]"`, 159: `"//[::192.0.2.1]"`,
	}), "§6.2.2", rfc5952Reason},
	{"fluent-uri.jsonl", "normalization", and(lines(161), iriForm), uriOfTheirs, "RFC 3987 §5.3.2.3", "fluent-uri decodes percent-encoded UTF-8 into IRI characters; as a URI normalizer we keep the encoding (§6.2.2.2 decodes unreserved characters only)"},
	{"fluent-uri.jsonl", "normalization", lines(143), says(`"http://a/b/c/%2E/.%2E/.%2E/d"`), "§5.2.4, §6.2.2.2, §6.2.2.3", pctDotNormReason},
	{"fluent-uri.jsonl", "resolution", lines(208, 209, 210), literal, "§5.2.4", pctDotReason + " (the source's own comment gives our answer as the original algorithm's)"},
	{"fluent-uri.jsonl", "resolution", lines(211), literal, "§5.1, §5.2.2", "fluent-uri rejects a base with a fragment; " + section51 + "; §5.2.2 never reads the base's fragment"},
	{"fluent-uri.jsonl", "resolution", lines(212, 213, 215), literal, "§5.2.2, §5.2.3", "fluent-uri rejects relative references against a base with a rootless path; §5.2.2-§5.2.3 define the target"},
	{"fluent-uri.jsonl", "resolution", span(217, 222), literal, "§5.2.4, §5.4.2", "fluent-uri's optional underflow error; " + underflowReason},

	// fredbi-uri
	{"fredbi-uri.jsonl", "validity", rejectsLiteral("ErrInvalidScheme"), abnfVerdict, "§3.1", "fredbi requires schemes of two or more letters; scheme = ALPHA *( ALPHA / DIGIT / \"+\" / \"-\" / \".\" )"},
	{"fredbi-uri.jsonl", "validity", rejectsLiteral("ErrInvalidPath"), abnfVerdict, "§3.2, §3.3", "an empty authority followed by a path beginning \"//\" (\"file:////etc/hosts\"): §3.3's rule against \"//\" applies only when there is no authority"},
	{"fredbi-uri.jsonl", "validity", rejectsLiteral("ErrMissingHost"), abnfVerdict, "§3.2.2", "reg-name may be empty (\"If the URI scheme defines a default for host ... \"), so an empty host is valid syntax"},
	{"fredbi-uri.jsonl", "validity", rejectsLiteral("ErrInvalidHost", "ErrInvalidDNSName"), abnfVerdict, "§3.2.2", "fredbi applies DNS rules (label length, digits, '%' in hosts, IPv4 ranges); to the generic syntax such a host is a reg-name, and \"256.256.256.256\" a reg-name that is not an IPv4address"},
	{"fredbi-uri.jsonl", "validity", zoneID, rejected, "RFC 6874 §2", zoneIDReason},
	{"fredbi-uri.jsonl", "components", zoneID, rejected, "RFC 6874 §2", zoneIDReason},
	{"fredbi-uri.jsonl", "validity", iri, rejected, "RFC 3987 §2.2", iriReason},
	{"fredbi-uri.jsonl", "components", iri, rejected, "RFC 3987 §2.2", iriReason},
	{"fredbi-uri.jsonl", "components", lines(127), appendixBSplit, "§3.2.2", "fredbi reports an IP-literal host without its brackets; host = IP-literal / ..., and IP-literal includes \"[\" and \"]\""},

	// iri-string
	{"iri-string.jsonl", "normalization", lines(33, 48), byLine(map[int]string{33: `"scheme:/.//not-a-host"`, 48: `"scheme:/path"`}), "§6.2.2.3", "normalize_but_preserve_authorityless_relative_path is, in the source's words, \"NOT RFC 3986\": it keeps dot segments that remove_dot_segments removes"},
	{"iri-string.jsonl", "normalization", and(iriForm, sourceHas("mod.rs")), uriOfTheirs, "RFC 3987 §5.3.2.3", "RFC 3987 normalization decodes percent-encoded UTF-8 into IRI characters; ours is RFC 3986's (§6.2.2.2 decodes unreserved characters only), and the source's answer maps (RFC 3987 §3.1) to ours"},
	{"iri-string.jsonl", "normalization", and(lines(87), not(iriForm)), says(`"scheme://alpha%CE%B1/"`), "§3.2.2, §6.2.2.1", "iri-string leaves the case of a host that is not ASCII-only; §3.2.2: normalizers should use lowercase for registered names"},
	{"iri-string.jsonl", "normalization", lines(102, 103), says(`"https://example.com:/"`), "§6.2.3", emptyPortReason},
	{"iri-string.jsonl", "resolution_normalized", lines(743, 745), byLine(map[int]string{
		743: `"http://USER:PASS@example.com:/~/2/beta=%CE%B2/6/a/b/alpha=%CE%B1/d/e/%3C/~/%3E?query#fragment"`,
		745: `"http://user:pass@example.com:/~/2/beta=%CE%B2/6/a/b/alpha=%CE%B1/d/e/%3C/~/%3E?query#fragment"`,
	}), "§6.2.3, RFC 3987 §5.3.2.3", emptyPortReason + "; the source also answers with IRI characters where we keep percent-encoded UTF-8"},
	{"iri-string.jsonl", "normalization", lines(107, 108, 112, 113, 122, 123, 127, 128), says(`"http://example.com/a/b/c/.%2E/d/e"`), "§5.2.4, §6.2.2.2, §6.2.2.3", pctDotNormReason},
	{"iri-string.jsonl", "resolution", lines(747, 748, 750, 751, 753, 754, 756, 757, 759, 760, 761), literal, "§5.2.4", pctDotReason},

	// jena-iri3986
	{"jena-iri3986.jsonl", "validity", zoneID, rejected, "RFC 6874 §2", zoneIDReason},
	{"jena-iri3986.jsonl", "resolution", span(297, 306), rejected, "§5.1", "Jena resolves against relative bases (an extension); " + section51},
	{"jena-iri3986.jsonl", "normalization", lines(322), says(`"http://host/foobar///"`), "§6.2.2.3", "Jena collapses a run of trailing '/'; empty segments are significant and no §6 normalization removes them"},
	{"jena-iri3986.jsonl", "components", iri, rejected, "RFC 3987 §2.2", iriReason},

	// perl-uri
	{"perl-uri.jsonl", "resolution", lines(23, 24, 26, 126, 127, 129), literal, "§5.2.4, §5.4.2", underflowReason},
	{"perl-uri.jsonl", "resolution", lines(25, 128), literal, "§5.2.4, §5.4.2", "RFC 2396 kept \"/./g\" against the root; RFC 3986 §5.4.2 gives \"/./g\" as \"http://a/g\""},

	// python-hyper-rfc3986
	{"python-hyper-rfc3986.jsonl", "validity", zoneID, rejected, "RFC 6874 §2", zoneIDReason},
	{"python-hyper-rfc3986.jsonl", "components", zoneID, rejected, "RFC 6874 §2", zoneIDReason},
	{"python-hyper-rfc3986.jsonl", "resolution", zoneID, rejected, "RFC 6874 §2", zoneIDReason},
	{"python-hyper-rfc3986.jsonl", "validity", rejectsLiteral(), abnfVerdict, "§3.2.2", "python-hyper rejects \"256.256.256.256\"; §3.2.2: a host that does not match IPv4address is a reg-name, and this one matches reg-name"},
	{"python-hyper-rfc3986.jsonl", "components", and(flagged("lenient"), invalidEverywhere), rejected, "§3, Appendix B", "python-hyper splits strings Appendix A rejects (a space, a backslash, a second '@', a bare IP-literal) with the Appendix B regex; the source marks these records lenient"},
	{"python-hyper-rfc3986.jsonl", "components", and(sourceHas("test_normalizes_uris_when_using_from_string"), caseOnly), appendixBSplit, "§6.2.2.1", "ParseResult.from_string normalizes case before reporting components (the entry matches only records whose components are ours once case-normalized); parsing is lossless here, and case normalization is resolve.NormalizeCase"},
	{"python-hyper-rfc3986.jsonl", "normalization", zoneID, rejected, "RFC 6874 §2", zoneIDReason},
	{"python-hyper-rfc3986.jsonl", "normalization", invalidEverywhere, rejected, "RFC 6874 §2", "python-hyper repairs a bare '%' zone delimiter into \"%25\"; the input is invalid under RFC 3986 and RFC 6874 alike, and we do not guess at invalid input"},
	{"python-hyper-rfc3986.jsonl", "resolution", sourceHas("test_uri_with_just_scheme_resolves"), literal, "§5.2.3, §6.2.2.1", "with no base authority and an empty base path, §5.2.3's merge is the reference's path, \"foo/bar/bogus\" (the corpus's strict reading); python-hyper prepends '/' and also lowercases the scheme, which is normalization, not resolution"},
	{"python-hyper-rfc3986.jsonl", "merge_paths", lines(1073), says(`"relative"`), "§5.2.3", "with no base authority and an empty base path, §5.2.3 returns the reference's path unchanged (\"relative\"); the source itself notes the deviation"},
	{"python-hyper-rfc3986.jsonl", "iri_to_uri", expectedHas("xn--"), byLine(map[int]string{
		1075: `"http://B%C3%BCcher.de"`, 1076: `"http://fa%C3%9F.de"`,
		1077: `"http://%CE%B2%CF%8C%CE%BB%CE%BF%CF%82.com/%CE%B2/%CF%8C?%CE%BB#%CE%BF%CF%82"`,
		1078: `"http://%E0%B7%81%E0%B7%8A%E2%80%8D%E0%B6%BB%E0%B7%93.com"`,
		1079: `"http://%D9%86%D8%A7%D9%85%D9%87%E2%80%8C%D8%A7%DB%8C.com"`,
		1081: `"http://%E1%BA%9E.com:443"`, 1082: `"http://%E1%BA%9E.foo.com"`, 1083: `"http://B%E1%BA%9E.com"`,
	}), "RFC 3987 §3.1", "IDNA ToASCII of the host is RFC 3987 §3.1's optional step (\"MAY ... for schemes known to use domain names\"); we apply the mandatory mapping, percent-encoding UTF-8"},

	// rfc3986-examples
	{"rfc3986-examples.jsonl", "equivalence", lines(79), says("false"), "§6.2.3", "mailto's case-insensitive domain is that scheme's rule (RFC 6068), outside our generic scheme table"},
	{"rfc3986-examples.jsonl", "equivalence", lines(80), says("false"), "§6.2.4", "protocol-based equivalence needs a network request; no syntax- or scheme-based level gives it"},

	// ruby-uri
	{"ruby-uri.jsonl", "resolution", span(96, 100), literal, "§5.2.1, §5.2.2", "Ruby removes dot segments from the base before merging; §5.2 uses the base path as it is (only the merged path goes through remove_dot_segments)"},
	{"ruby-uri.jsonl", "relativize", lines(132), says(`"//HOGE/b/"`), "§6.2.2.1", "Ruby's route_to compares hosts case-insensitively and answers a reference to \"http://hoge/b/\"; ours resolves to the target byte for byte"},
	{"ruby-uri.jsonl", "components", lines(148), appendixBSplit, "§3.2, §3.2.2", "Ruby reports no host for \"//\"; the authority is present and its host an empty reg-name"},

	// uri-js
	{"uri-js.jsonl", "components", controls, rejected, "§2, Appendix A", "uri-js accepts control characters in a fragment; no rule of Appendix A produces them"},
	{"uri-js.jsonl", "validity", controls, rejected, "§2, Appendix A", "uri-js accepts control characters in a fragment; no rule of Appendix A produces them"},
	{"uri-js.jsonl", "resolution", controls, rejected, "§2, §5.2", "uri-js percent-encodes raw newlines in its inputs; they are not URI references, so there is nothing to resolve"},
	{"uri-js.jsonl", "components", zoneID, rejected, "RFC 6874 §2", zoneIDReason},
	{"uri-js.jsonl", "validity", zoneID, rejected, "RFC 6874 §2", zoneIDReason},
	{"uri-js.jsonl", "components", and(invalidEverywhere, anyText(func(_ corpus.Record, s string) bool { return strings.Contains(s, "%en") })), rejected, "RFC 6874 §2", "a bare '%' before an IPv6 zone ID: invalid under RFC 3986 and RFC 6874 alike (RFC 6874 requires \"%25\")"},
	{"uri-js.jsonl", "validity", and(invalidEverywhere, anyText(func(_ corpus.Record, s string) bool { return strings.Contains(s, "%en") })), rejected, "RFC 6874 §2", "a bare '%' before an IPv6 zone ID: invalid under RFC 3986 and RFC 6874 alike (RFC 6874 requires \"%25\")"},
	{"uri-js.jsonl", "normalization", iri, rejected, "RFC 3987 §2.2", iriReason},
	{"uri-js.jsonl", "normalization", lines(90, 101), byLine(map[int]string{90: `"//192.068.001.000"`, 101: quote("", false)}), "§3.2.2, §7.4", "uri-js strips leading zeros from dotted-decimal hosts; dec-octet has no leading zeros, so \"192.068.001.000\" is a reg-name, whose bytes normalization keeps, and invalid inside an IPv6 literal, which we reject"},
	{"uri-js.jsonl", "normalization", lines(92, 93, 94, 96, 97, 99), byLine(map[int]string{
		92: `"//[2001:0db8::0001]/"`, 93: `"//[2001:db8::1:0000:1]/"`, 94: `"//[2001:db8:0:0:0:0:2:1]/"`,
		96: `"//[2001:0:0:1:0:0:0:1]/"`, 97: `"//[2001:db8:0:0:1:0:0:1]/"`, 99: `"//[0:0:0:0:0:ffff:192.0.2.1]/"`,
	}), "§6.2.2", rfc5952Reason},
}

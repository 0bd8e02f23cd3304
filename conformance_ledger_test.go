package rfc3986_test

import (
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
type ledgerEntry struct {
	file    string                   // corpus file
	kind    string                   // record kind
	match   func(corpus.Record) bool // which of its records
	section string                   // the RFC section that decides
	reason  string
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
func validIn(syn *parser.Syntax, r corpus.Record, s string) bool {
	rule := syn.DefaultRule()
	if r.Kind == "validity" {
		rule = r.Str("rule")
		if syn == rfc3987.Syntax() {
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
	return !validIn(parser.RFC3986(), r, s) && validIn(rfc6874.Syntax(), r, s)
}))

// iri: the source accepts a reference RFC 3986 rejects and RFC 3987's IRI
// grammar accepts (records flagged iri are evaluated as IRIs already).
var iri = and(accepted, not(flag("iri")), anyText(func(r corpus.Record, s string) bool {
	return !validIn(parser.RFC3986(), r, s) && validIn(rfc3987.Syntax(), r, s)
}))

// invalidEverywhere: the source accepts a reference no grammar we
// generate accepts.
var invalidEverywhere = and(accepted, anyText(func(r corpus.Record, s string) bool {
	return !validIn(parser.RFC3986(), r, s) && !validIn(rfc6874.Syntax(), r, s) && !validIn(rfc3987.Syntax(), r, s)
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
	theirs, err1 := resolve.NormalizeString(u.String(), resolve.Syntax)
	ours, err2 := resolve.NormalizeString(r.Str("input"), resolve.Syntax)
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

func flag(key string) func(corpus.Record) bool {
	return func(r corpus.Record) bool { return r.Flag(key) }
}

func sourceHas(s string) func(corpus.Record) bool {
	return func(r corpus.Record) bool { return strings.Contains(r.Str("source"), s) }
}

func expectedHas(s string) func(corpus.Record) bool {
	return func(r corpus.Record) bool { return strings.Contains(r.Str("expected"), s) }
}

// Reasons shared by several sources.
const (
	zoneIDReason    = "an IPv6 zone ID (\"%25\" in an IP-literal) is RFC 6874 syntax, not RFC 3986's; parser/rfc6874 accepts the input (checked by the entry's match)"
	iriReason       = "the input has non-ASCII characters: an IRI (RFC 3987 §2.2), not a URI; parser/rfc3987 accepts it (checked by the entry's match)"
	underflowReason = "\"..\" above the root: remove_dot_segments drops it (§5.2.4), and §5.4.2 gives \"../../../g\" against \"http://a/b/c/d;p?q\" as \"http://a/g\"; keeping it is RFC 2396 §C.2's old allowance"
	pctDotReason    = "percent-encoded dots are not dot-segments to remove_dot_segments (§5.2.4 matches the literal \".\" and \"..\"); decoding %2E is normalization (§6.2.2.2), which strict resolution does not do"
	emptyPortReason = "§6.2.3: an empty port \"should be removed by scheme-based normalization\"; our syntax-based level (§6.2.2) keeps it, resolve.Default removes it"
	rfc5952Reason   = "RFC 5952's canonical IPv6 text is not among §6.2.2's normalizations; resolve.IPv6Canonical applies it on request"
)

var ledger = []ledgerEntry{
	// boost-url
	{"boost-url.jsonl", "validity", lines(10, 386, 532), "§3.4, §3.5, Appendix A", "boost's grammar accepts a '#' inside the fragment and '[' ']' in the query; fragment and query are *( pchar / \"/\" / \"?\" ), which has neither"},
	{"boost-url.jsonl", "components", lines(387, 531), "§3.4, §3.5, Appendix A", "components of \"##f\" and \"http://?k[]=\", which Appendix A rejects ('#' in a fragment, '[' in a query)"},
	{"boost-url.jsonl", "components", lines(487), "§3, §3.2", "boost's encoded_host() returns \"\" for a URI without an authority; the authority, and so the host, is undefined, not empty"},
	{"boost-url.jsonl", "resolution", lines(203), "§5.2.4", pctDotReason},
	{"boost-url.jsonl", "resolution", or(lines(209, 210, 213), span(228, 235)), "§5.2.4, §5.4.2", underflowReason},
	{"boost-url.jsonl", "resolution", lines(236), "§5.2.2", "boost resolves non-strictly (copies the base authority when the reference repeats the scheme); §5.2.2 makes that a backward-compatibility option, and the corpus's strict reading is \"http:path2\""},
	{"boost-url.jsonl", "normalization", lines(257, 259, 261, 299, 305, 307), "§5.2.4, §6.2.2.3", underflowReason},
	{"boost-url.jsonl", "normalization", lines(304, 306), "§4.4, §5.2.3", "boost normalizes \"a/..\" and \".\" to \"\", a same-document reference (§4.4); they resolve to the base's directory, which \"./\" keeps"},
	{"boost-url.jsonl", "normalization", lines(275, 277, 279, 281), "§2.2, §6.2.2.2", "boost percent-encodes ':' to keep the first segment colon-free; ':' is reserved, and encoding a reserved character changes the URI (§2.2), so we prefix \"./\" (§4.2) instead"},
	{"boost-url.jsonl", "equivalence", lines(276, 278, 280, 282), "§2.2, §6.2.2.2", "\"./my:sharona\" and \"my%3Asharona\" differ by the encoding of a reserved character, which §2.2 says is not an equivalence"},

	// fluent-uri
	{"fluent-uri.jsonl", "normalization", lines(138), "§6.2.3", emptyPortReason},
	{"fluent-uri.jsonl", "normalization", lines(144, 145, 146), "§6.2.2.3", "fluent-uri leaves dot segments in relative references and rootless paths; §6.2.2.3: normalizers should remove them (ours removes those that do not climb above the base of a relative-path reference)"},
	{"fluent-uri.jsonl", "normalization", lines(157, 158, 159), "§6.2.2", rfc5952Reason},
	{"fluent-uri.jsonl", "normalization", and(lines(161), iriForm), "RFC 3987 §5.3.2.3", "fluent-uri decodes percent-encoded UTF-8 into IRI characters; as a URI normalizer we keep the encoding (§6.2.2.2 decodes unreserved characters only)"},
	{"fluent-uri.jsonl", "resolution", lines(208, 209, 210), "§5.2.4", pctDotReason + " (the source's own comment gives our answer as the original algorithm's)"},
	{"fluent-uri.jsonl", "resolution", lines(211), "§5.1, §5.2.2", "fluent-uri rejects a base with a fragment; §5.2.2 never reads the base's fragment, so the target is defined (the base is used as if stripped, §5.1)"},
	{"fluent-uri.jsonl", "resolution", lines(212, 213, 215), "§5.2.2, §5.2.3", "fluent-uri rejects relative references against a base with a rootless path; §5.2.2-§5.2.3 define the target"},
	{"fluent-uri.jsonl", "resolution", span(217, 222), "§5.2.4, §5.4.2", "fluent-uri's optional underflow error; " + underflowReason},

	// fredbi-uri
	{"fredbi-uri.jsonl", "validity", rejectsLiteral("ErrInvalidScheme"), "§3.1", "fredbi requires schemes of two or more letters; scheme = ALPHA *( ALPHA / DIGIT / \"+\" / \"-\" / \".\" )"},
	{"fredbi-uri.jsonl", "validity", rejectsLiteral("ErrInvalidPath"), "§3.2, §3.3", "an empty authority followed by a path beginning \"//\" (\"file:////etc/hosts\"): §3.3's rule against \"//\" applies only when there is no authority"},
	{"fredbi-uri.jsonl", "validity", rejectsLiteral("ErrMissingHost"), "§3.2.2", "reg-name may be empty (\"If the URI scheme defines a default for host ... \"), so an empty host is valid syntax"},
	{"fredbi-uri.jsonl", "validity", rejectsLiteral("ErrInvalidHost", "ErrInvalidDNSName"), "§3.2.2", "fredbi applies DNS rules (label length, digits, '%' in hosts, IPv4 ranges); to the generic syntax such a host is a reg-name, and \"256.256.256.256\" a reg-name that is not an IPv4address"},
	{"fredbi-uri.jsonl", "validity", zoneID, "RFC 6874 §2", zoneIDReason},
	{"fredbi-uri.jsonl", "components", zoneID, "RFC 6874 §2", zoneIDReason},
	{"fredbi-uri.jsonl", "validity", iri, "RFC 3987 §2.2", iriReason},
	{"fredbi-uri.jsonl", "components", iri, "RFC 3987 §2.2", iriReason},
	{"fredbi-uri.jsonl", "components", lines(127), "§3.2.2", "fredbi reports an IP-literal host without its brackets; host = IP-literal / ..., and IP-literal includes \"[\" and \"]\""},

	// iri-string
	{"iri-string.jsonl", "normalization", lines(33, 48), "§6.2.2.3", "normalize_but_preserve_authorityless_relative_path is, in the source's words, \"NOT RFC 3986\": it keeps dot segments that remove_dot_segments removes"},
	{"iri-string.jsonl", "normalization", and(iriForm, sourceHas("mod.rs")), "RFC 3987 §5.3.2.3", "RFC 3987 normalization decodes percent-encoded UTF-8 into IRI characters; ours is RFC 3986's (§6.2.2.2 decodes unreserved characters only), and the source's answer maps (RFC 3987 §3.1) to ours"},
	{"iri-string.jsonl", "normalization", and(lines(87), not(iriForm)), "§3.2.2, §6.2.2.1", "iri-string leaves the case of a host that is not ASCII-only; §3.2.2: normalizers should use lowercase for registered names"},
	{"iri-string.jsonl", "normalization", lines(102, 103), "§6.2.3", emptyPortReason},
	{"iri-string.jsonl", "resolution_normalized", lines(743, 745), "§6.2.3, RFC 3987 §5.3.2.3", emptyPortReason + "; the source also answers with IRI characters where we keep percent-encoded UTF-8"},
	{"iri-string.jsonl", "resolution", lines(747, 748, 750, 751, 753, 754, 756, 757, 759, 760, 761), "§5.2.4", pctDotReason},

	// jena-iri3986
	{"jena-iri3986.jsonl", "validity", zoneID, "RFC 6874 §2", zoneIDReason},
	{"jena-iri3986.jsonl", "resolution", span(297, 306), "§5.1", "Jena resolves against relative bases (an extension); §5.1 requires the base to be an absolute URI"},
	{"jena-iri3986.jsonl", "normalization", lines(322), "§6.2.2.3", "Jena collapses a run of trailing '/'; empty segments are significant and no §6 normalization removes them"},
	{"jena-iri3986.jsonl", "components", iri, "RFC 3987 §2.2", iriReason},

	// perl-uri
	{"perl-uri.jsonl", "resolution", lines(23, 24, 26, 126, 127, 129), "§5.2.4, §5.4.2", underflowReason},
	{"perl-uri.jsonl", "resolution", lines(25, 128), "§5.2.4, §5.4.2", "RFC 2396 kept \"/./g\" against the root; RFC 3986 §5.4.2 gives \"/./g\" as \"http://a/g\""},

	// python-hyper-rfc3986
	{"python-hyper-rfc3986.jsonl", "validity", zoneID, "RFC 6874 §2", zoneIDReason},
	{"python-hyper-rfc3986.jsonl", "components", zoneID, "RFC 6874 §2", zoneIDReason},
	{"python-hyper-rfc3986.jsonl", "resolution", zoneID, "RFC 6874 §2", zoneIDReason},
	{"python-hyper-rfc3986.jsonl", "validity", rejectsLiteral(), "§3.2.2", "python-hyper rejects \"256.256.256.256\"; §3.2.2: a host that does not match IPv4address is a reg-name, and this one matches reg-name"},
	{"python-hyper-rfc3986.jsonl", "components", and(flag("lenient"), invalidEverywhere), "§3, Appendix B", "python-hyper splits strings Appendix A rejects (a space, a backslash, a second '@', a bare IP-literal) with the Appendix B regex; the source marks these records lenient"},
	{"python-hyper-rfc3986.jsonl", "components", and(sourceHas("test_normalizes_uris_when_using_from_string"), anyText(func(_ corpus.Record, s string) bool { return s != strings.ToLower(s) })), "§6.2.2.1", "ParseResult.from_string normalizes case before reporting components; parsing is lossless here, and case normalization is resolve.Normalize"},
	{"python-hyper-rfc3986.jsonl", "normalization", zoneID, "RFC 6874 §2", zoneIDReason},
	{"python-hyper-rfc3986.jsonl", "normalization", invalidEverywhere, "RFC 6874 §2", "python-hyper repairs a bare '%' zone delimiter into \"%25\"; the input is invalid under RFC 3986 and RFC 6874 alike, and we do not guess at invalid input"},
	{"python-hyper-rfc3986.jsonl", "resolution", sourceHas("test_uri_with_just_scheme_resolves"), "§5.2.3, §6.2.2.1", "with no base authority and an empty base path, §5.2.3's merge is the reference's path, \"foo/bar/bogus\" (the corpus's strict reading); python-hyper prepends '/' and also lowercases the scheme, which is normalization, not resolution"},
	{"python-hyper-rfc3986.jsonl", "merge_paths", lines(1073), "§5.2.3", "with no base authority and an empty base path, §5.2.3 returns the reference's path unchanged (\"relative\"); the source itself notes the deviation"},
	{"python-hyper-rfc3986.jsonl", "iri_to_uri", expectedHas("xn--"), "RFC 3987 §3.1", "IDNA ToASCII of the host is RFC 3987 §3.1's optional step (\"MAY ... for schemes known to use domain names\"); we apply the mandatory mapping, percent-encoding UTF-8"},

	// rfc3986-examples
	{"rfc3986-examples.jsonl", "equivalence", lines(79), "§6.2.3", "mailto's case-insensitive domain is that scheme's rule (RFC 6068), outside our generic scheme table"},
	{"rfc3986-examples.jsonl", "equivalence", lines(80), "§6.2.4", "protocol-based equivalence needs a network request; no syntax- or scheme-based level gives it"},

	// ruby-uri
	{"ruby-uri.jsonl", "resolution", span(96, 100), "§5.2.1, §5.2.2", "Ruby removes dot segments from the base before merging; §5.2 uses the base path as it is (only the merged path goes through remove_dot_segments)"},
	{"ruby-uri.jsonl", "relativize", lines(132), "§6.2.2.1", "Ruby's route_to compares hosts case-insensitively and answers a reference to \"http://hoge/b/\"; ours resolves to the target byte for byte"},
	{"ruby-uri.jsonl", "components", lines(148), "§3.2, §3.2.2", "Ruby reports no host for \"//\"; the authority is present and its host an empty reg-name"},

	// uri-js
	{"uri-js.jsonl", "components", controls, "§2, Appendix A", "uri-js accepts control characters in a fragment; no rule of Appendix A produces them"},
	{"uri-js.jsonl", "validity", controls, "§2, Appendix A", "uri-js accepts control characters in a fragment; no rule of Appendix A produces them"},
	{"uri-js.jsonl", "resolution", controls, "§2, §5.2", "uri-js percent-encodes raw newlines in its inputs; they are not URI references, so there is nothing to resolve"},
	{"uri-js.jsonl", "components", zoneID, "RFC 6874 §2", zoneIDReason},
	{"uri-js.jsonl", "validity", zoneID, "RFC 6874 §2", zoneIDReason},
	{"uri-js.jsonl", "components", and(invalidEverywhere, anyText(func(_ corpus.Record, s string) bool { return strings.Contains(s, "%en") })), "RFC 6874 §2", "a bare '%' before an IPv6 zone ID: invalid under RFC 3986 and RFC 6874 alike (RFC 6874 requires \"%25\")"},
	{"uri-js.jsonl", "validity", and(invalidEverywhere, anyText(func(_ corpus.Record, s string) bool { return strings.Contains(s, "%en") })), "RFC 6874 §2", "a bare '%' before an IPv6 zone ID: invalid under RFC 3986 and RFC 6874 alike (RFC 6874 requires \"%25\")"},
	{"uri-js.jsonl", "normalization", iri, "RFC 3987 §2.2", iriReason},
	{"uri-js.jsonl", "normalization", lines(90, 101), "§3.2.2, §7.4", "uri-js strips leading zeros from dotted-decimal hosts; dec-octet has no leading zeros, so \"192.068.001.000\" is a reg-name (and invalid inside an IPv6 literal), whose bytes normalization keeps"},
	{"uri-js.jsonl", "normalization", lines(92, 93, 94, 96, 97, 99), "§6.2.2", rfc5952Reason},
}

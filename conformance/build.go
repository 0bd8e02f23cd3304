package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/explain"
	"github.com/peguri/rfc3986/grammar"
	"github.com/peguri/rfc3986/internal/corpus"
	"github.com/peguri/rfc3986/parser"
)

// builder holds what building the suite needs: the ABNF and its exact
// matcher (the validity answers), the explainer (failing rules and
// offsets), the corpora, and the signatures of the cases taken so far:
// a case is taken when it teaches something no earlier case did.
type builder struct {
	g    *abnf.Grammar
	m    *abnf.Matcher
	x    *explain.Explainer
	recs []corpus.Record
	s    *Suite
	seen map[string]bool
}

// Build builds the suite; root is the repository's root, which holds
// testdata/conformance and the ledger of ids, conformance/ids.txt.
func Build(root string) (*Suite, error) {
	return build(root, filepath.Join(root, ledgerFile), false)
}

// build is Build with the ledger at ids, which start lets be missing
// (then the ids are numbered anew: see readLedger).
func build(root, ids string, start bool) (*Suite, error) {
	g, err := grammar.Read([]string{"rfc3986"}, nil)
	if err != nil {
		return nil, err
	}
	m, err := abnf.NewMatcher(g)
	if err != nil {
		return nil, err
	}
	x, err := explain.New("rfc3986")
	if err != nil {
		return nil, err
	}
	recs, err := corpus.Load(filepath.Join(root, "testdata", "conformance"))
	if err != nil {
		return nil, err
	}
	b := &builder{g: g, m: m, x: x, recs: recs, seen: map[string]bool{},
		s: &Suite{Suite: "rfc3986-conformance", Version: Version,
			Spec:      "RFC 3986, Uniform Resource Identifier (URI): Generic Syntax (STD 66), with its Appendix A ABNF and RFC 5234 Appendix B.1 core rules",
			Generator: "go run ./conformance (github.com/peguri/rfc3986)"}}
	for _, step := range []func() error{b.validity, b.components, b.resolution, b.dotSegments, b.normalization, b.equivalence, b.encoding, b.decoding, b.building} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	// The builders numbered the cases by position; the ledger keeps each
	// case's id from one version to the next (ids.go).
	l, err := readLedger(ids, start)
	if err != nil {
		return nil, err
	}
	if err := stableIDs(b.s, l); err != nil {
		return nil, err
	}
	b.s.ledger = l.bytes()
	b.s.Counts = map[string]int{
		"validity": len(b.s.Validity), "components": len(b.s.Components), "resolution": len(b.s.Resolution),
		"removeDotSegments": len(b.s.RemoveDotSegments), "normalization": len(b.s.Normalization), "equivalence": len(b.s.Equivalence),
		"encoding": len(b.s.Encoding), "decoding": len(b.s.Decoding), "building": len(b.s.Building),
	}
	return b.s, nil
}

// ruleSections are the sections of RFC 3986 that define each rule of
// Appendix A (the core rules are RFC 5234's, used by §1.3).
var ruleSections = map[string]string{
	"URI": "3", "hier-part": "3", "URI-reference": "4.1", "absolute-URI": "4.3", "relative-ref": "4.2", "relative-part": "4.2",
	"scheme": "3.1", "authority": "3.2", "userinfo": "3.2.1", "host": "3.2.2", "port": "3.2.3",
	"IP-literal": "3.2.2", "IPvFuture": "3.2.2", "IPv6address": "3.2.2", "h16": "3.2.2", "ls32": "3.2.2",
	"IPv4address": "3.2.2", "dec-octet": "3.2.2", "reg-name": "3.2.2",
	"path": "3.3", "path-abempty": "3.3", "path-absolute": "3.3", "path-noscheme": "3.3", "path-rootless": "3.3", "path-empty": "3.3",
	"segment": "3.3", "segment-nz": "3.3", "segment-nz-nc": "3.3", "pchar": "3.3",
	"query": "3.4", "fragment": "3.5", "pct-encoded": "2.1", "unreserved": "2.3", "reserved": "2.2", "gen-delims": "2.2", "sub-delims": "2.2",
	"ALPHA": "1.3 (RFC 5234 B.1)", "DIGIT": "1.3 (RFC 5234 B.1)", "HEXDIG": "1.3 (RFC 5234 B.1)",
}

// rules are the rules validity cases are about: every rule of Appendix A
// the parser takes as a start rule, the core rules it uses included.
func rules() []string { return parser.Rules() }

// verdict is the ABNF's answer, from the exact matcher.
func (b *builder) verdict(rule, in string) (bool, error) {
	return b.m.Match(rule, []byte(in))
}

// signature says what a validity case teaches: for a valid input, the
// rules that matched it (the condensed tree) and its shape (its runs of
// letters and digits written "x"); for an invalid one, the rule that
// could not continue, the character it met, and whether the input ended.
func (b *builder) signature(rule, in string, valid bool) (string, *explain.Explanation, error) {
	if len(in) > parser.MaxTreeLength {
		return "", nil, fmt.Errorf("%q too long", in[:40])
	}
	ex, err := b.x.Explain(rule, in)
	if err != nil {
		return "", nil, err
	}
	if ex.Valid != valid {
		return "", nil, fmt.Errorf("%s %q: the parser says valid=%v, the matcher %v", rule, in, ex.Valid, valid)
	}
	if valid {
		var rs []string
		var walk func(s *explain.Span)
		walk = func(s *explain.Span) {
			rs = append(rs, s.Rule)
			for _, k := range s.Kids {
				walk(k)
			}
			rs = append(rs, ")")
		}
		if ex.Tree != nil {
			walk(ex.Tree)
		}
		kinds := ""
		for _, h := range ex.Hosts {
			kinds += h.Kind + ","
		}
		return "v|" + rule + "|" + strings.Join(rs, " ") + "|" + kinds + "|" + shape(in), ex, nil
	}
	f := ex.Failure
	return fmt.Sprintf("i|%s|%s|%s|%v", rule, f.Rule, f.Found, f.Offset == len(in)), ex, nil
}

// shape writes what an input's delimiters are: each run of characters
// that stand for themselves in every component (letters, digits, "-",
// ".", "_", "~", percent-encodings) as "x", each run of sub-delims as "!",
// and every other character as itself.
func shape(s string) string {
	var b strings.Builder
	last := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		var k byte
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~", c) >= 0:
			k = 'x'
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			k = 'x'
			i += 2
		case strings.IndexByte("!$&'()*+,;=", c) >= 0:
			k = '!'
		default:
			k = c
		}
		if (k == 'x' || k == '!') && k == last {
			continue
		}
		b.WriteByte(k)
		last = k
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// minimise deletes characters of in, one at a time, while the input keeps
// its verdict and signature: the shortest input that teaches the same
// thing, found greedily.
func (b *builder) minimise(rule, in string, valid bool, sig string) string {
	tries := 0
	for i := 0; i < len(in) && tries < 300; {
		_, size := utf8.DecodeRuneInString(in[i:])
		cand := in[:i] + in[i+size:]
		tries++
		v, err := b.verdict(rule, cand)
		if err == nil && v == valid {
			if s, _, err := b.signature(rule, cand, valid); err == nil && s == sig {
				in = cand
				continue
			}
		}
		i += size
	}
	return in
}

// addValidity adds a validity case if it teaches something new (or
// always, for an RFC example, a boundary case, or a corpus record whose
// source disagrees with the RFC).
func (b *builder) addValidity(rule, in string, p Provenance, note string, always bool) error {
	valid, err := b.verdict(rule, in)
	if err != nil {
		return err
	}
	sig, ex, err := b.signature(rule, in, valid)
	if err != nil {
		return err
	}
	if p.CorpusAgree != nil && !*p.CorpusAgree {
		// A source's deviation, once per lesson.
		sig += "|" + p.Source
	}
	if b.seen[sig] && (!always || p.Kind == "corpus") {
		return nil
	}
	b.seen[sig] = true
	c := Validity{Rule: rule, Input: in, InputQuoted: quotedIf(in), Valid: valid, Section: ruleSections[rule], Note: note, Provenance: p}
	if !valid {
		f := ex.Failure
		off := f.Offset
		c.Offset, c.Failing, c.Expected = &off, f.Rule, f.Next
		if c.Note == "" {
			c.Note = fmt.Sprintf("%s could not continue at offset %d: found %s; expected %s", f.Rule, f.Offset, f.Found, strings.Join(f.Expected, " "))
		}
		if s, ok := ruleSections[f.Rule]; ok && s != c.Section {
			c.Section += ", " + s
		}
	} else if len(ex.Hosts) == 1 && c.Note == "" {
		c.Note = "host " + ex.Hosts[0].Kind
	}
	b.s.Validity = append(b.s.Validity, c)
	return nil
}

func (b *builder) validity() error {
	// The RFC's own examples.
	for _, r := range b.recs {
		if r.File == "rfc3986-examples.jsonl" && r.Kind == "validity" {
			if err := b.addValidity(r.Str("rule"), r.Str("input"), Provenance{Kind: "rfc", Ref: "§" + r.Str("section")}, "", true); err != nil {
				return err
			}
		}
	}
	// Each rule's boundaries, as the suite states them.
	for _, bc := range boundaryCases {
		for _, in := range bc.inputs {
			if err := b.addValidity(bc.rule, in, Provenance{Kind: "boundary"}, bc.note, true); err != nil {
				return err
			}
		}
	}
	// The corpora: every record whose source disagrees with the RFC, and
	// every one that teaches something new.
	known := map[string]bool{}
	for _, r := range rules() {
		known[r] = true
	}
	for _, r := range b.recs {
		if r.Kind != "validity" || r.File == "rfc3986-examples.jsonl" || !known[r.Str("rule")] {
			continue
		}
		rule, in := r.Str("rule"), r.Str("input")
		if len(in) > 2000 {
			continue
		}
		valid, err := b.verdict(rule, in)
		if err != nil {
			return err
		}
		says, _ := r.Bool("valid")
		agree := says == valid
		p := Provenance{Kind: "corpus", Source: "testdata/conformance/" + r.File, Line: r.Line, Origin: r.Str("source"), CorpusAgree: &agree}
		if !agree {
			p.CorpusSays = says
		}
		if err := b.addValidity(rule, in, p, "", !agree); err != nil {
			return err
		}
	}
	// Generated: samples and near-misses of every rule, as gen sample
	// prints them, minimised; each taken when it teaches something new.
	const n, seed = 300, 1
	for _, rule := range rules() {
		for _, near := range []bool{false, true} {
			s := abnf.NewSampler(b.g, seed)
			cmd := fmt.Sprintf("gen sample -rule %s -n %d -seed %d", rule, n, seed)
			if near {
				cmd += " -near"
			}
			type cand struct {
				in    string
				i     int
				valid bool
				sig   string
			}
			var cands []cand
			for i := range n {
				var in []byte
				var err error
				if near {
					in, err = s.NearMiss(rule)
				} else {
					in, err = s.Sample(rule)
				}
				if err != nil {
					return err
				}
				if len(in) > 200 {
					continue
				}
				valid, err := b.verdict(rule, string(in))
				if err != nil {
					return err
				}
				sig, _, err := b.signature(rule, string(in), valid)
				if err != nil {
					return err
				}
				if !b.seen[sig] {
					cands = append(cands, cand{string(in), i, valid, sig})
				}
			}
			// The shortest first, at most perRule new lessons each way.
			sort.SliceStable(cands, func(i, j int) bool { return len(cands[i].in) < len(cands[j].in) })
			taken := 0
			for _, c := range cands {
				if taken == perRule(rule) {
					break
				}
				if b.seen[c.sig] {
					continue
				}
				min := b.minimise(rule, c.in, c.valid, c.sig)
				idx := c.i
				p := Provenance{Kind: "generated", Command: cmd, Index: &idx}
				if min != c.in {
					p.Original, p.OriginalQuoted = c.in, quotedIf(c.in)
				}
				if err := b.addValidity(rule, min, p, "", false); err != nil {
					return err
				}
				taken++
			}
		}
	}
	b.numberValidity()
	return nil
}

// perRule is how many generated lessons a rule gets on each side: more for
// the URI rules, whose derivations are many.
func perRule(rule string) int {
	switch rule {
	case "URI-reference", "URI", "relative-ref", "absolute-URI":
		return 30
	case "IPv6address", "host", "authority", "IP-literal", "hier-part", "relative-part", "path":
		return 25
	}
	return 12
}

// numberValidity sorts the validity cases by rule, keeping their order
// within a rule, and numbers them.
func (b *builder) numberValidity() {
	order := map[string]int{}
	for i, r := range rules() {
		order[r] = i
	}
	sort.SliceStable(b.s.Validity, func(i, j int) bool {
		return order[b.s.Validity[i].Rule] < order[b.s.Validity[j].Rule]
	})
	count := map[string]int{}
	for i := range b.s.Validity {
		c := &b.s.Validity[i]
		count[c.Rule]++
		c.ID = fmt.Sprintf("validity/%s/%d", c.Rule, count[c.Rule])
	}
}

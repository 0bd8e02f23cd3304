package main

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/internal/corpus"
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/resolve"
)

func opt(s string, defined bool) *string {
	if !defined {
		return nil
	}
	return &s
}

// componentsOf is the components case of a valid URI-reference.
func componentsOf(u parser.URI) Components {
	c := Components{Input: u.String(),
		Scheme: opt(u.Scheme(), u.HasScheme()), Authority: opt(u.Authority(), u.HasAuthority()),
		Userinfo: opt(u.Userinfo(), u.HasUserinfo()), Host: opt(u.Host(), u.HasAuthority()),
		Port: opt(u.Port(), u.HasPort()), Path: u.Path(),
		Query: opt(u.Query(), u.HasQuery()), Fragment: opt(u.Fragment(), u.HasFragment()),
		Section: "3"}
	if u.HasAuthority() {
		k := map[parser.HostKind]string{parser.HostIPv4: "IPv4address", parser.HostIPv6: "IPv6address", parser.HostIPvFuture: "IPvFuture", parser.HostRegName: "reg-name"}[u.HostKind()]
		c.HostKind = &k
		c.Section = "3, 3.2.2"
	}
	return c
}

// componentSig is what a components case teaches: which components are
// undefined, empty or not, the host's kind, the path's form.
func componentSig(u parser.URI) string {
	d := func(s string, defined bool) string {
		switch {
		case !defined:
			return "u"
		case s == "":
			return "e"
		}
		return "x"
	}
	path := "rootless"
	switch p := u.Path(); {
	case p == "":
		path = "empty"
	case strings.HasPrefix(p, "//"):
		path = "slashslash"
	case p[0] == '/':
		path = "absolute"
	}
	return strings.Join([]string{"c", d(u.Scheme(), u.HasScheme()), d(u.Userinfo(), u.HasUserinfo()), d(u.Host(), u.HasAuthority()),
		u.HostKind().String(), d(u.Port(), u.HasPort()), path, d(u.Query(), u.HasQuery()), d(u.Fragment(), u.HasFragment())}, "|")
}

// recordValue is a corpus record's value under key: a bool, a string, or
// nil (null, an undefined component).
func recordValue(r corpus.Record, key string) any {
	if v, ok := r.Bool(key); ok {
		return v
	}
	if v, defined, _ := r.String(key); defined {
		return v
	}
	return nil
}

// componentCases are references whose components are the lesson: defined
// versus empty, and where each delimiter puts the boundary.
var componentCases = []string{
	"", "?", "#", "?#", "//", "///", "//@", "//:", "//@:", "a:", "a:/", "a://", "http://a", "http://a/", "http://a?", "http://a#",
	"http://@a", "http://a:", "http://a:/", "http://u:p@a:8080/p?q#f", "http://[::1]:80/", "http://[v1.x]/", "http://1.2.3.4/",
	"http://1.2.3.4.5/", "http://256.1.1.1/", "file:///etc/hosts", "mailto:a@b", "urn:a:b", "a/b:c", "./a:b", "?a#b?c", "#a?b",
	"//a/b?c/d#e/f", "http://a/b;c?d;e", "http://a%20b/", "http://a/%2F", "foo://info.example.com?fred",
}

func (b *builder) components() error {
	add := func(u parser.URI, p Provenance, always bool) {
		sig := componentSig(u)
		if b.seen[sig] && !always {
			return
		}
		b.seen[sig] = true
		c := componentsOf(u)
		c.Provenance = p
		b.s.Components = append(b.s.Components, c)
	}
	for _, r := range b.recs {
		if r.File == "rfc3986-examples.jsonl" && r.Kind == "components" {
			u, err := parser.ParseReference(r.Str("input"))
			if err != nil {
				return err
			}
			add(u, Provenance{Kind: "rfc", Ref: "§" + r.Str("section")}, true)
		}
	}
	for _, s := range componentCases {
		u, err := parser.ParseReference(s)
		if err != nil {
			return fmt.Errorf("component case %q: %w", s, err)
		}
		add(u, Provenance{Kind: "boundary"}, true)
	}
	for _, r := range b.recs {
		if r.Kind != "components" || r.File == "rfc3986-examples.jsonl" || r.Flag("iri") || r.Flag("lenient") {
			continue
		}
		u, err := parser.ParseReference(r.Str("input"))
		if err != nil {
			continue // the ledger of conformance_test.go explains these
		}
		// The source agrees when every component its record asserts is
		// ours; where it does not, corpusSays has its components that
		// differ, and the deviation is kept once per source and
		// components (as validity keeps one per lesson).
		diffs := corpus.ComponentDiffs(r, u)
		agree := len(diffs) == 0
		p := Provenance{Kind: "corpus", Source: "testdata/conformance/" + r.File, Line: r.Line, Origin: r.Str("source"), CorpusAgree: &agree}
		always := false
		if !agree {
			says := map[string]any{}
			var keys []string
			for _, d := range diffs {
				says[d.Key] = recordValue(r, d.Key)
				keys = append(keys, d.Key)
			}
			p.CorpusSays = says
			lesson := "c|disagree|" + r.File + "|" + strings.Join(keys, ",")
			always = !b.seen[lesson]
			b.seen[lesson] = true
		}
		add(u, p, always)
	}
	s := abnf.NewSampler(b.g, 2)
	generated := 0
	for i := range 2000 {
		if generated == 150 {
			break
		}
		in, err := s.Sample("URI-reference")
		if err != nil {
			return err
		}
		u, err := parser.ParseReference(string(in))
		if err != nil {
			return fmt.Errorf("sample %q: %w", in, err)
		}
		idx := i
		before := len(b.s.Components)
		add(u, Provenance{Kind: "generated", Command: "gen sample -rule URI-reference -n 2000 -seed 2", Index: &idx}, false)
		generated += len(b.s.Components) - before
	}
	for i := range b.s.Components {
		b.s.Components[i].ID = fmt.Sprintf("components/%d", i+1)
	}
	return nil
}

// traceSig is what a resolution teaches: the mode, the branch of §5.2.2,
// the rules of §5.2.4 that applied (runs written once), whether the guard
// was needed, and which components the target has.
func traceSig(tr resolve.Trace, mode string) string {
	var b strings.Builder
	b.WriteString("r|" + mode + "|")
	for _, s := range tr.Steps {
		b.WriteString(s.Section)
		if len(s.Code) > 0 {
			b.WriteString(strings.TrimSpace(s.Code[len(s.Code)-1]))
		}
		if s.Merge != nil {
			b.WriteString(s.Merge.Rule)
		}
		last := ""
		for _, d := range s.Dots {
			if d.Rule != last {
				b.WriteString(d.Rule)
			}
			last = d.Rule
		}
		b.WriteByte(';')
	}
	T := tr.Steps[len(tr.Steps)-1].T
	fmt.Fprintf(&b, "|%v%v%v|%v", T.HasAuthority, T.HasQuery, T.HasFragment, tr.Guarded)
	return b.String()
}

func traceNote(tr resolve.Trace) string {
	var parts []string
	for _, s := range tr.Steps {
		if s.Merge != nil {
			parts = append(parts, fmt.Sprintf("§5.2.3 merge(%q, %q) = %q", s.Merge.BasePath, s.Merge.RefPath, s.Merge.Result))
		}
		if s.Dots != nil {
			rules := ""
			for _, d := range s.Dots[1 : len(s.Dots)-1] {
				rules += d.Rule
			}
			if strings.Trim(rules, "E") != "" {
				parts = append(parts, fmt.Sprintf("§5.2.4 remove_dot_segments(%q) = %q by rules %s", s.Dots[0].Input, s.Dots[len(s.Dots)-1].Output, rules))
			}
		}
	}
	T := tr.Steps[len(tr.Steps)-1].T
	switch R := tr.Reference; {
	case R.HasScheme && T.Scheme == R.Scheme && !(tr.Mode == "NonStrict" && strings.EqualFold(R.Scheme, tr.Base.Scheme)):
		parts = append([]string{"R has a scheme: T is R"}, parts...)
	case R.HasAuthority:
		parts = append([]string{"R has an authority"}, parts...)
	case R.Path == "":
		if R.HasQuery {
			parts = append([]string{"R.path is empty: Base.path, R.query"}, parts...)
		} else {
			parts = append([]string{"R.path is empty: Base.path and Base.query"}, parts...)
		}
	case R.Path[0] == '/':
		parts = append([]string{"R.path is absolute"}, parts...)
	default:
		parts = append([]string{"R.path is relative"}, parts...)
	}
	if tr.Guarded {
		parts = append(parts, `the path begins with "//" without an authority: written with "/." in front (§3.3)`)
	}
	return strings.Join(parts, "; ")
}

// resolutionBases are the bases generated references are resolved
// against: §5.4's, one with an empty path, one without an authority, one
// with an absolute path and no authority, one with a fragment (ignored,
// §5.1).
var resolutionBases = []string{"http://a/b/c/d;p?q", "http://a", "foo:a/b", "foo:/a/b/", "http://a/b/c/d;p?q#f", "http://a/b/c/"}

// pathRefs are references built from the segments that exercise §5.2.4.
func pathRefs() []string {
	segs := []string{"", ".", "..", "g"}
	var out []string
	var walk func(prefix string, depth int)
	walk = func(prefix string, depth int) {
		if depth == 0 {
			return
		}
		for _, s := range segs {
			p := prefix + s
			out = append(out, p, p+"/", "/"+p)
			walk(p+"/", depth-1)
		}
	}
	walk("", 3)
	return out
}

func (b *builder) resolution() error {
	add := func(base, ref, mode string, p Provenance, always bool) (bool, error) {
		bu, err1 := parser.ParseReference(base)
		ru, err2 := parser.ParseReference(ref)
		if err1 != nil || err2 != nil || !bu.HasScheme() {
			return false, nil
		}
		m := resolve.Strict
		if mode == "non-strict" {
			m = resolve.NonStrict
		}
		tr, err := resolve.TraceResolve(bu, ru, m)
		if err != nil {
			return false, err
		}
		sig := traceSig(tr, mode)
		if p.CorpusAgree != nil && !*p.CorpusAgree {
			// A source's deviation, once per lesson.
			sig += "|" + p.Source
		}
		if b.seen[sig] && (!always || p.Kind == "corpus") {
			return false, nil
		}
		b.seen[sig] = true
		sec := "5.2.2"
		if p.Kind == "rfc" {
			sec = strings.TrimPrefix(p.Ref, "§")
		}
		b.s.Resolution = append(b.s.Resolution, Resolution{Base: base, Reference: ref, Mode: mode, Target: tr.Result,
			Section: sec, Note: traceNote(tr), Provenance: p})
		return true, nil
	}
	for _, r := range b.recs {
		if r.File != "rfc3986-examples.jsonl" || r.Kind != "resolution" {
			continue
		}
		mode := "strict"
		if s, ok := r.Bool("strict"); ok && !s {
			mode = "non-strict"
		}
		// The RFC's answer, literally: rfc3986_strict (the strict reading)
		// or expected (the non-strict example's).
		want := r.Str("expected")
		if mode == "strict" && r.Has("rfc3986_strict") {
			want = r.Str("rfc3986_strict")
		}
		if _, err := add(r.Str("base"), r.Str("ref"), mode, Provenance{Kind: "rfc", Ref: "§" + r.Str("section")}, true); err != nil {
			return err
		}
		if got := b.s.Resolution[len(b.s.Resolution)-1].Target; got != want {
			return fmt.Errorf("§%s: %q against %q is %q, the library says %q", r.Str("section"), r.Str("ref"), r.Str("base"), want, got)
		}
	}
	// The corpora: a record whose source disagrees teaches what the RFC
	// says instead; one that agrees, when its path through §5.2 is new.
	for _, r := range b.recs {
		if r.Kind != "resolution" || r.File == "rfc3986-examples.jsonl" || r.Has("expected_error") || r.Has("relative_base") {
			continue
		}
		mode := "strict"
		if s, ok := r.Bool("strict"); ok && !s {
			mode = "non-strict"
		}
		base, ref := r.Str("base"), r.Str("ref")
		ours, err := resolve.ResolveString(base, ref, map[string]resolve.Mode{"strict": resolve.Strict, "non-strict": resolve.NonStrict}[mode])
		if err != nil {
			continue
		}
		agree := ours == r.Str("expected")
		p := Provenance{Kind: "corpus", Source: "testdata/conformance/" + r.File, Line: r.Line, Origin: r.Str("source"), CorpusAgree: &agree}
		if !agree {
			p.CorpusSays = r.Str("expected")
		}
		if _, err := add(base, ref, mode, p, !agree); err != nil {
			return err
		}
	}
	// Generated: references from the segments of §5.2.4, and samples of
	// relative-ref and URI-reference, against each base, both modes.
	s := abnf.NewSampler(b.g, 3)
	var samples []string
	for range 400 {
		in, err := s.Sample("relative-ref")
		if err != nil {
			return err
		}
		samples = append(samples, string(in))
	}
	for _, base := range resolutionBases {
		for _, ref := range pathRefs() {
			if _, err := add(base, ref, "strict", Provenance{Kind: "generated", Command: "segments of §5.2.4"}, false); err != nil {
				return err
			}
		}
		for i, ref := range samples {
			idx := i
			if _, err := add(base, ref, "strict", Provenance{Kind: "generated", Command: "gen sample -rule relative-ref -n 400 -seed 3", Index: &idx}, false); err != nil {
				return err
			}
		}
		scheme := base[:strings.IndexByte(base, ':')]
		for _, ref := range []string{scheme + ":g", strings.ToUpper(scheme) + ":g", scheme + ":", scheme + ":?y", scheme + "://g", scheme + ":/g", "other:g"} {
			for _, mode := range []string{"strict", "non-strict"} {
				if _, err := add(base, ref, mode, Provenance{Kind: "generated", Command: "the base's scheme, §5.2.2's non-strict test"}, false); err != nil {
					return err
				}
			}
		}
	}
	for i := range b.s.Resolution {
		b.s.Resolution[i].ID = fmt.Sprintf("resolution/%d", i+1)
	}
	return nil
}

func (b *builder) dotSegments() error {
	add := func(in string, p Provenance, always bool) {
		out, steps := resolve.RemoveDotSegmentsTrace(in)
		rules, last := "", ""
		all := ""
		for _, d := range steps[1 : len(steps)-1] {
			all += d.Rule
			if d.Rule != last {
				rules += d.Rule
			}
			last = d.Rule
		}
		abs := strings.HasPrefix(in, "/")
		sig := fmt.Sprintf("d|%s|%v|%v", rules, abs, strings.HasSuffix(out, "/"))
		if b.seen[sig] && !always {
			return
		}
		b.seen[sig] = true
		b.s.RemoveDotSegments = append(b.s.RemoveDotSegments, DotSegments{Input: in, Output: out, Rules: all, Section: "5.2.4", Provenance: p})
	}
	for _, r := range b.recs {
		if r.Kind != "remove_dot_segments" {
			continue
		}
		p := Provenance{Kind: "corpus", Source: "testdata/conformance/" + r.File, Line: r.Line, Origin: r.Str("source")}
		if r.File == "rfc3986-examples.jsonl" {
			p = Provenance{Kind: "rfc", Ref: "§5.2.4"}
		}
		out, _ := resolve.RemoveDotSegmentsTrace(r.Str("input"))
		agree := out == r.Str("output")
		if p.Kind == "corpus" {
			p.CorpusAgree = &agree
			if !agree {
				p.CorpusSays = r.Str("output")
			}
		} else if !agree {
			return fmt.Errorf("§5.2.4: remove_dot_segments(%q) is %q, the library says %q", r.Str("input"), r.Str("output"), out)
		}
		add(r.Str("input"), p, true)
	}
	// Every path of up to four segments from "", ".", "..", "g", "%2E",
	// absolute and relative: each taken when the rules it runs are new.
	segs := []string{"", ".", "..", "g", "%2E", ".g", "..."}
	var walk func(prefix []string)
	walk = func(prefix []string) {
		if len(prefix) > 0 {
			p := strings.Join(prefix, "/")
			add(p, Provenance{Kind: "generated", Command: "paths of up to four segments"}, false)
			add("/"+p, Provenance{Kind: "generated", Command: "paths of up to four segments"}, false)
		}
		if len(prefix) == 4 {
			return
		}
		for _, s := range segs {
			walk(append(append([]string(nil), prefix...), s))
		}
	}
	walk(nil)
	sort.SliceStable(b.s.RemoveDotSegments, func(i, j int) bool {
		pi, pj := b.s.RemoveDotSegments[i].Provenance.Kind, b.s.RemoveDotSegments[j].Provenance.Kind
		return pi == "rfc" && pj != "rfc"
	})
	for i := range b.s.RemoveDotSegments {
		b.s.RemoveDotSegments[i].ID = fmt.Sprintf("removeDotSegments/%d", i+1)
	}
	return nil
}

// levels are the normalization levels of the suite, with the steps of
// package resolve that implement them and their sections.
var levels = []struct {
	name    string
	steps   resolve.Steps
	section string
}{
	{"case", resolve.NormalizeCase, "6.2.2.1"},
	{"percent", resolve.NormalizePercent, "6.2.2.2"},
	{"dot-segments", resolve.NormalizeDotSegments, "6.2.2.3"},
	{"syntax", resolve.NormalizeSyntax, "6.2.2"},
	{"scheme", resolve.NormalizeDefault, "6.2.2, 6.2.3"},
}

// normalizationSeeds are URIs whose normal forms teach: one change at a
// time, and the cases where nothing may change.
var normalizationSeeds = []string{
	"HTTP://www.EXAMPLE.com/", "eXAMPLE://a/./b/../b/%63/%7bfoo%7d", "http://example.com", "http://example.com:/", "http://example.com:80/",
	"https://a:443", "https://a:0443/", "http://a:8080", "ftp://a:21/", "ws://a:80", "foo://a:80", "foo://a", "http://A/%7e", "http://a/%7E%7e",
	"http://a/%2f", "http://a/%2F", "http://a/%41%5A%61%7A%30%39%2D%2E%5F%7E", "http://a/%25", "http://a/%c3%a9", "http://[::A]/", "http://[V1.X]/",
	"http://User@A/", "http://a/b/../../c", "http://a/./b/.", "a/../../b", "./a:b", "a/./b", "../a", "", "HTTP:", "http:a/../b",
	"http://a?%7e#%7E", "http://%41/", "HTTP://%7e@a/", "mailto:Joe@Example.COM", "http://a/%2e%2E/b", "http://a/..%2f", "http:/.//a",
}

// mutations change a URI in one way each: the way a normal form or an
// equivalence can be missed.
var mutations = []struct {
	name string
	f    func(p *parser.Parts, r *rand.Rand) bool
}{
	{"scheme to uppercase", func(p *parser.Parts, _ *rand.Rand) bool {
		u := strings.ToUpper(p.Scheme)
		ok := p.HasScheme && u != p.Scheme
		p.Scheme = u
		return ok
	}},
	{"host to uppercase", func(p *parser.Parts, _ *rand.Rand) bool {
		u := strings.ToUpper(p.Host)
		ok := p.HasAuthority && u != p.Host
		p.Host = u
		return ok
	}},
	{"path to uppercase", func(p *parser.Parts, _ *rand.Rand) bool {
		u := strings.ToUpper(p.Path)
		ok := u != p.Path
		p.Path = u
		return ok
	}},
	{"an unreserved character percent-encoded", func(p *parser.Parts, r *rand.Rand) bool {
		return encodeOne(&p.Path, r, isUnreservedByte)
	}},
	{"a reserved character percent-encoded", func(p *parser.Parts, r *rand.Rand) bool {
		return encodeOne(&p.Path, r, func(c byte) bool { return strings.IndexByte("/:@!$&'()*+,;=", c) >= 0 })
	}},
	{"percent-encodings in lowercase", func(p *parser.Parts, _ *rand.Rand) bool {
		l := lowerPct(p.Path)
		ok := l != p.Path
		p.Path = l
		return ok
	}},
	{"a dot segment added", func(p *parser.Parts, _ *rand.Rand) bool {
		if !strings.HasPrefix(p.Path, "/") {
			return false
		}
		p.Path = "/." + p.Path
		return true
	}},
	{"a segment and .. added", func(p *parser.Parts, _ *rand.Rand) bool {
		if !strings.HasPrefix(p.Path, "/") {
			return false
		}
		p.Path = "/x/.." + p.Path
		return true
	}},
	{"the default port added", func(p *parser.Parts, _ *rand.Rand) bool {
		if !p.HasAuthority || p.HasPort {
			return false
		}
		def, ok := map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21"}[strings.ToLower(p.Scheme)]
		p.Port, p.HasPort = def, true
		return ok
	}},
	{"an empty port added", func(p *parser.Parts, _ *rand.Rand) bool {
		if !p.HasAuthority || p.HasPort {
			return false
		}
		p.HasPort = true
		return true
	}},
	{"an empty path made /", func(p *parser.Parts, _ *rand.Rand) bool {
		if !p.HasAuthority || p.Path != "" {
			return false
		}
		p.Path = "/"
		return true
	}},
	{"an empty query added", func(p *parser.Parts, _ *rand.Rand) bool {
		if p.HasQuery {
			return false
		}
		p.HasQuery = true
		return true
	}},
	{"a trailing slash added", func(p *parser.Parts, _ *rand.Rand) bool {
		if strings.HasSuffix(p.Path, "/") || p.Path == "" {
			return false
		}
		p.Path += "/"
		return true
	}},
}

func isUnreservedByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// encodeOne percent-encodes one character of s for which ok holds, at a
// random place (not inside a percent-encoding).
func encodeOne(s *string, r *rand.Rand, ok func(byte) bool) bool {
	var at []int
	for i := 0; i < len(*s); i++ {
		if (*s)[i] == '%' {
			i += 2
			continue
		}
		if ok((*s)[i]) {
			at = append(at, i)
		}
	}
	if len(at) == 0 {
		return false
	}
	i := at[r.IntN(len(at))]
	*s = fmt.Sprintf("%s%%%02X%s", (*s)[:i], (*s)[i], (*s)[i+1:])
	return true
}

func lowerPct(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			for j := i + 1; j <= i+2; j++ {
				if 'A' <= b[j] && b[j] <= 'F' {
					b[j] += 'a' - 'A'
				}
			}
		}
	}
	return string(b)
}

// mutants returns the URIs the suite normalizes and compares: the seeds,
// samples of URI, and one mutation of each.
func (b *builder) mutants() ([]string, []string, []string, error) {
	var ins, origins []string
	ins = append(ins, normalizationSeeds...)
	for range normalizationSeeds {
		origins = append(origins, "seed")
	}
	s := abnf.NewSampler(b.g, 4)
	r := rand.New(rand.NewPCG(4, 4))
	var pairsA, pairsB []string
	for i := range 600 {
		in, err := s.Sample("URI")
		if err != nil {
			return nil, nil, nil, err
		}
		if len(in) > 60 {
			continue
		}
		u, err := parser.ParseReference(string(in))
		if err != nil {
			return nil, nil, nil, err
		}
		m := mutations[i%len(mutations)]
		p := u.Parts()
		if !m.f(&p, r) {
			continue
		}
		v, err := parser.FromParts(p)
		if err != nil {
			continue
		}
		ins = append(ins, v.String())
		origins = append(origins, fmt.Sprintf("gen sample -rule URI -n 600 -seed 4, line %d, with %s", i, m.name))
		pairsA, pairsB = append(pairsA, u.String()), append(pairsB, v.String())
	}
	_ = origins
	return ins, pairsA, pairsB, nil
}

func (b *builder) normalization() error {
	add := func(in string, lv int, p Provenance, always bool) error {
		u, err := parser.ParseReference(in)
		if err != nil {
			return err
		}
		l := levels[lv]
		v, steps, err := resolve.ExplainNormalize(u, l.steps)
		if err != nil {
			return err
		}
		var changed []string
		for _, s := range steps {
			changed = append(changed, s.Name+" "+s.Component)
		}
		// A path segment whose last dot stays encoded ("%2E", ".%2E": no
		// dot segment to §5.2.4, so none to §6.2.2.3) teaches apart.
		pctDot := false
		for seg := range strings.SplitSeq(v.Path(), "/") {
			pctDot = pctDot || seg == "%2E" || seg == ".%2E"
		}
		sig := fmt.Sprintf("n|%s|%s|%v|%v|%v", l.name, strings.Join(changed, ","), u.HostKind(), u.HasScheme(), pctDot)
		if b.seen[sig] && !always {
			return nil
		}
		b.seen[sig] = true
		note := "already in normal form"
		if len(steps) > 0 {
			var ns []string
			for _, s := range steps {
				// An undefined component is "undefined", as uri
				// normalize -explain writes it: §6.2.3's removal of an
				// empty port is "" → undefined, not "" → "".
				before, after := strconv.Quote(s.Before), strconv.Quote(s.After)
				if !s.DefinedBefore {
					before = "undefined"
				}
				if !s.DefinedAfter {
					after = "undefined"
				}
				ns = append(ns, fmt.Sprintf("§%s %s: %s → %s", s.Section, s.Component, before, after))
			}
			note = strings.Join(ns, "; ")
		}
		b.s.Normalization = append(b.s.Normalization, Normalization{Input: in, Level: l.name, Output: v.String(), Section: l.section, Note: note, Provenance: p})
		return nil
	}
	opLevel := map[string]int{"case": 0, "syntax-based": 3, "scheme-based (http)": 4}
	for _, r := range b.recs {
		if r.File != "rfc3986-examples.jsonl" || r.Kind != "normalization" {
			continue
		}
		lv, ok := opLevel[r.Str("op")]
		if !ok {
			return fmt.Errorf("rfc3986-examples:%d: op %q", r.Line, r.Str("op"))
		}
		if err := add(r.Str("input"), lv, Provenance{Kind: "rfc", Ref: "§" + r.Str("section")}, true); err != nil {
			return err
		}
		if got := b.s.Normalization[len(b.s.Normalization)-1].Output; got != r.Str("normalized") {
			return fmt.Errorf("§%s: %q normalizes to %q, the library says %q", r.Str("section"), r.Str("input"), r.Str("normalized"), got)
		}
	}
	ins, _, _, err := b.mutants()
	if err != nil {
		return err
	}
	for i, in := range ins {
		p := Provenance{Kind: "boundary"}
		if i >= len(normalizationSeeds) {
			p = Provenance{Kind: "generated", Command: "gen sample -rule URI -n 600 -seed 4, each with one mutation"}
		}
		for lv := range levels {
			if err := add(in, lv, p, false); err != nil {
				return err
			}
		}
	}
	for i := range b.s.Normalization {
		b.s.Normalization[i].ID = fmt.Sprintf("normalization/%d", i+1)
	}
	return nil
}

var compareLevels = []struct {
	name    string
	level   resolve.Level
	section string
}{
	{"simple", resolve.CompareSimple, "6.2.1"},
	{"syntax", resolve.CompareSyntax, "6.2.2"},
	{"scheme", resolve.CompareScheme, "6.2.3"},
}

func (b *builder) equivalence() error {
	// addPair adds the pair at the levels that teach: all three for an
	// example of the RFC; otherwise the lowest level at which the two are
	// equivalent and the one below it, or the highest when they never
	// are.
	// addPair adds the pair's cases; theirs, for a corpus record, is the
	// source's answer (at its own level, the record's ladder), which each
	// case holds against its level's.
	addPair := func(a, c string, p Provenance, all bool, theirs *bool) error {
		ua, err1 := parser.ParseReference(a)
		uc, err2 := parser.ParseReference(c)
		if err1 != nil || err2 != nil {
			return nil
		}
		eq := make([]bool, len(compareLevels))
		for i, l := range compareLevels {
			eq[i] = resolve.Equal(ua, uc, l.level)
		}
		first := -1
		for i := range eq {
			if eq[i] {
				first = i
				break
			}
		}
		var at []int
		switch {
		case all:
			at = []int{0, 1, 2}
		case first < 0:
			at = []int{2}
		case first == 0:
			at = []int{0}
		default:
			at = []int{first - 1, first}
		}
		sig := fmt.Sprintf("e|%v|%v", at, eq)
		if p.Kind == "generated" {
			sig += "|" + p.Command
		}
		if b.seen[sig] && !all && p.Kind != "corpus" {
			return nil
		}
		b.seen[sig] = true
		for _, i := range at {
			q := p
			if theirs != nil {
				agree := eq[i] == *theirs
				q.CorpusAgree = &agree
				if !agree {
					q.CorpusSays = *theirs
				}
			}
			b.s.Equivalence = append(b.s.Equivalence, Equivalence{A: a, B: c, Level: compareLevels[i].name, Equivalent: eq[i], Section: compareLevels[i].section, Provenance: q})
		}
		return nil
	}
	for _, r := range b.recs {
		if r.File != "rfc3986-examples.jsonl" || r.Kind != "equivalence" {
			continue
		}
		// §6.2.3's mailto example needs a mailto-aware normalizer, and
		// §6.2.4's is protocol-based: neither is a level of this suite.
		if strings.Contains(r.Str("ladder"), "mailto") || r.Str("section") == "6.2.4" {
			continue
		}
		if err := addPair(r.Str("a"), r.Str("b"), Provenance{Kind: "rfc", Ref: "§" + r.Str("section")}, true, nil); err != nil {
			return err
		}
		if got := b.s.Equivalence[len(b.s.Equivalence)-1]; got.Equivalent != r.Flag("equivalent") {
			return fmt.Errorf("§%s: %q and %q: equivalent %v, the library says %v", r.Str("section"), r.Str("a"), r.Str("b"), r.Flag("equivalent"), got.Equivalent)
		}
	}
	for _, r := range b.recs {
		if r.Kind != "equivalence" || r.File == "rfc3986-examples.jsonl" {
			continue
		}
		var theirs *bool
		if v, ok := r.Bool("equivalent"); ok {
			theirs = &v
		}
		if err := addPair(r.Str("a"), r.Str("b"), Provenance{Kind: "corpus", Source: "testdata/conformance/" + r.File, Line: r.Line, Origin: r.Str("source")}, false, theirs); err != nil {
			return err
		}
	}
	s := abnf.NewSampler(b.g, 5)
	r := rand.New(rand.NewPCG(5, 5))
	for i := range 1500 {
		in, err := s.Sample("URI")
		if err != nil {
			return err
		}
		if len(in) > 60 {
			continue
		}
		u, err := parser.ParseReference(string(in))
		if err != nil {
			return err
		}
		m := mutations[i%len(mutations)]
		p := u.Parts()
		if !m.f(&p, r) {
			continue
		}
		v, err := parser.FromParts(p)
		if err != nil {
			continue
		}
		idx := i
		if err := addPair(u.String(), v.String(), Provenance{Kind: "generated", Command: "gen sample -rule URI -n 1500 -seed 5, with " + m.name, Index: &idx}, false, nil); err != nil {
			return err
		}
	}
	for i := range b.s.Equivalence {
		b.s.Equivalence[i].ID = fmt.Sprintf("equivalence/%d", i+1)
	}
	return nil
}

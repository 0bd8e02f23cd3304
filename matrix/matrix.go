// Package matrix runs URI implementations against the RFC 3986
// conformance suite (conformance/rfc3986-suite.json of
// github.com/peguri/rfc3986) and writes a results table: per section of
// the suite, per rule of Appendix A, and every mismatch with its input,
// the RFC's answer and the implementation's.
//
// An implementation takes part through an [Adapter]: a name and a parser
// that returns the five components of a URI reference. Optional interfaces
// ([RuleValidator], [Resolver], [DotSegmentRemover], [Normalizer],
// [Comparer], and for producing URIs [Encoder], [Escaper], [Decoder],
// [Builder]) answer the other sections; a question an implementation has
// no way to answer is "n/a", not a failure. What an implementation
// produces is also checked on its own terms: valid for the component, and
// decoding back to what was given. This module holds adapters for
// net/url, github.com/fredbi/uri, and this project's own library (the
// reference, which must pass every case); write your own in a few lines.
//
// It is a module of its own, beside the main one, so that the libraries
// it compares are its dependencies and never the main module's.
package matrix

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
)

// ErrUnsupported is what an adapter returns for a question its
// implementation cannot answer (a rule it has no validator for, a
// normalization level it does not do): the case counts as "n/a".
var ErrUnsupported = errors.New("unsupported by this implementation")

// Adapter is a URI implementation under test.
type Adapter interface {
	// Name names the implementation in the results ("net/url").
	Name() string
	// Parse parses input as a URI reference (RFC 3986 §4.1) and returns
	// its components, or an error if the implementation rejects it.
	Parse(input string) (Components, error)
}

// Components are what an implementation reports of a URI reference: each
// component, nil when undefined ("http://a?" has the query "", "http://a"
// none). A component the implementation cannot report (a query it only
// gives as decoded key/value pairs, say) is listed in Unknown by its JSON
// name ("scheme", "authority", "userinfo", "host", "port", "path",
// "query", "fragment") and not compared.
type Components struct {
	Scheme, Authority, Userinfo, Host, Port, Query, Fragment *string
	Path                                                     string
	Unknown                                                  []string
}

// RuleValidator validates input against a rule of RFC 3986 Appendix A by
// its name ("URI", "IPv4address", …): nil if it matches, ErrUnsupported
// for a rule the implementation has no validator for, another error if it
// does not match. Without it (or for an unsupported rule), the four start
// rules are answered from Parse: URI-reference is Parse's verdict, URI a
// reference with a scheme, absolute-URI one without a fragment too,
// relative-ref one without a scheme.
type RuleValidator interface {
	Validate(rule, input string) error
}

// Resolver resolves a reference against a base (RFC 3986 §5.2), strictly
// or in §5.2.2's non-strict mode; ErrUnsupported for a mode it does not
// have.
type Resolver interface {
	Resolve(base, ref string, strict bool) (string, error)
}

// DotSegmentRemover is remove_dot_segments (§5.2.4).
type DotSegmentRemover interface {
	RemoveDotSegments(path string) (string, error)
}

// Normalizer normalizes a URI reference at a level of the suite: "case",
// "percent", "dot-segments", "syntax" (§6.2.2), "scheme" (§6.2.2 and
// §6.2.3); ErrUnsupported for a level it does not do.
type Normalizer interface {
	Normalize(input, level string) (string, error)
}

// Comparer says whether two URI references are equivalent at a rung of
// §6.2's ladder: "simple", "syntax", "scheme"; ErrUnsupported for a rung
// it does not have.
type Comparer interface {
	Equivalent(a, b, level string) (bool, error)
}

// Suite is the part of the suite file the runner reads.
type Suite struct {
	Version    string         `json:"version"`
	Validity   []Case         `json:"validity"`
	Components []Case         `json:"components"`
	Resolution []Case         `json:"resolution"`
	DotSegs    []Case         `json:"removeDotSegments"`
	Normal     []Case         `json:"normalization"`
	Equiv      []Case         `json:"equivalence"`
	Encoding   []EncodingCase `json:"encoding"`
	Decoding   []DecodingCase `json:"decoding"`
	Building   []BuildingCase `json:"building"`
}

// Case is a case of any section; each section uses its own fields (see
// the suite's README).
type Case struct {
	ID          string  `json:"id"`
	Section     string  `json:"section"`
	Rule        string  `json:"rule"`
	Input       string  `json:"input"`
	InputQuoted string  `json:"inputQuoted"`
	Valid       bool    `json:"valid"`
	Scheme      *string `json:"scheme"`
	Authority   *string `json:"authority"`
	Userinfo    *string `json:"userinfo"`
	Host        *string `json:"host"`
	Port        *string `json:"port"`
	Path        string  `json:"path"`
	Query       *string `json:"query"`
	Fragment    *string `json:"fragment"`
	Base        string  `json:"base"`
	Reference   string  `json:"reference"`
	Mode        string  `json:"mode"`
	Target      string  `json:"target"`
	Output      string  `json:"output"`
	Level       string  `json:"level"`
	A           string  `json:"a"`
	B           string  `json:"b"`
	Equivalent  bool    `json:"equivalent"`
}

// LoadSuite reads a suite file.
func LoadSuite(name string) (*Suite, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var s Suite
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for i := range s.Validity {
		c := &s.Validity[i]
		if c.InputQuoted != "" {
			in, err := strconv.Unquote(c.InputQuoted)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: inputQuoted: %w", name, c.ID, err)
			}
			c.Input = in
		}
	}
	unquote := func(id string, dst *string, q string) error {
		if q == "" {
			return nil
		}
		v, err := strconv.Unquote(q)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", name, id, err)
		}
		*dst = v
		return nil
	}
	for i := range s.Encoding {
		c := &s.Encoding[i]
		if err := unquote(c.ID, &c.Input, c.InputQuoted); err != nil {
			return nil, err
		}
	}
	for i := range s.Decoding {
		c := &s.Decoding[i]
		if err := unquote(c.ID, &c.Input, c.InputQuoted); err != nil {
			return nil, err
		}
		if c.Output != nil {
			if err := unquote(c.ID, c.Output, c.OutputQuoted); err != nil {
				return nil, err
			}
		}
	}
	return &s, nil
}

// Sections are the suite's sections, in the order of the results.
var Sections = []string{"validity", "components", "resolution", "removeDotSegments", "normalization", "equivalence", "encoding", "decoding", "building"}

// Producing are the sections whose answers are text an implementation
// produces: besides the RFC's exact text, the runner counts the texts
// valid for their component and those that decode back to the input.
var Producing = []string{"encoding", "building"}

// Outcome is one case's result for one implementation.
type Outcome int

const (
	Pass Outcome = iota
	Fail
	NA // the implementation cannot answer the question
)

// Mismatch is a case an implementation answers otherwise than the RFC.
// Flawed marks a text produced (encoding, building) that is not valid
// for its component or does not decode back to what was given: worse
// than other text.
type Mismatch struct {
	ID, Input, RFC, Got string
	Flawed              bool
}

// Tally counts one implementation's outcomes in one group of cases. In
// the sections that produce text (encoding, building), Texts counts the
// texts it produced where the RFC has one, Valid those valid for their
// component, RoundTrip those that decode back to what was given, Exact
// those that are the RFC's text.
type Tally struct {
	Pass, Fail, NA                 int
	Texts, Exact, Valid, RoundTrip int
}

func (t *Tally) add(o Outcome) {
	switch o {
	case Pass:
		t.Pass++
	case Fail:
		t.Fail++
	default:
		t.NA++
	}
}

// Result is one implementation's results.
type Result struct {
	Name       string
	Sections   map[string]*Tally
	Rules      map[string]*Tally // validity, by rule
	Mismatches map[string][]Mismatch
}

// Run runs an adapter on every case of the suite.
func Run(s *Suite, a Adapter) *Result {
	r := &Result{Name: a.Name(), Sections: map[string]*Tally{}, Rules: map[string]*Tally{}, Mismatches: map[string][]Mismatch{}}
	for _, sec := range Sections {
		r.Sections[sec] = &Tally{}
	}
	record := func(sec string, c Case, o Outcome, in, rfc, got string) {
		r.Sections[sec].add(o)
		if o == Fail {
			r.Mismatches[sec] = append(r.Mismatches[sec], Mismatch{ID: c.ID, Input: in, RFC: rfc, Got: got})
		}
	}
	for _, c := range s.Validity {
		o, got := validity(a, c)
		t := r.Rules[c.Rule]
		if t == nil {
			t = &Tally{}
			r.Rules[c.Rule] = t
		}
		t.add(o)
		record("validity", c, o, c.Rule+": "+strconv.Quote(c.Input), verdict(c.Valid), got)
	}
	for _, c := range s.Components {
		o, want, got := components(a, c)
		record("components", c, o, strconv.Quote(c.Input), want, got)
	}
	for _, c := range s.Resolution {
		o, got := NA, "n/a"
		if rs, ok := a.(Resolver); ok {
			o, got = answer(rs.Resolve(c.Base, c.Reference, c.Mode == "strict"))(c.Target)
		}
		record("resolution", c, o, fmt.Sprintf("%q against %q (%s)", c.Reference, c.Base, c.Mode), strconv.Quote(c.Target), got)
	}
	for _, c := range s.DotSegs {
		o, got := NA, "n/a"
		if d, ok := a.(DotSegmentRemover); ok {
			o, got = answer(d.RemoveDotSegments(c.Input))(c.Output)
		}
		record("removeDotSegments", c, o, strconv.Quote(c.Input), strconv.Quote(c.Output), got)
	}
	for _, c := range s.Normal {
		o, got := NA, "n/a"
		if n, ok := a.(Normalizer); ok {
			o, got = answer(n.Normalize(c.Input, c.Level))(c.Output)
		}
		record("normalization", c, o, fmt.Sprintf("%q (%s)", c.Input, c.Level), strconv.Quote(c.Output), got)
	}
	for _, c := range s.Equiv {
		o, got := NA, "n/a"
		if cm, ok := a.(Comparer); ok {
			eq, err := cm.Equivalent(c.A, c.B, c.Level)
			switch {
			case errors.Is(err, ErrUnsupported):
			case err != nil:
				o, got = Fail, "error: "+err.Error()
			case eq == c.Equivalent:
				o, got = Pass, equivalence(eq)
			default:
				o, got = Fail, equivalence(eq)
			}
		}
		record("equivalence", c, o, fmt.Sprintf("%q, %q (%s)", c.A, c.B, c.Level), equivalence(c.Equivalent), got)
	}
	for _, c := range s.Encoding {
		o, got, flawed := encoding(a, c, r.Sections["encoding"])
		record("encoding", Case{ID: c.ID}, o, fmt.Sprintf("%s %s %q", c.Mode, c.Component, c.Input), strconv.Quote(c.Output), got)
		flag(r, "encoding", flawed)
	}
	for _, c := range s.Decoding {
		o, got := decoding(a, c)
		want := "error at offset " + fmt.Sprint(deref(c.Offset))
		if c.Output != nil {
			want = strconv.Quote(*c.Output)
		}
		in := strconv.Quote(c.Input)
		if c.Form {
			in += " (form)"
		}
		record("decoding", Case{ID: c.ID}, o, in, want, got)
	}
	for _, c := range s.Building {
		o, got, flawed := building(a, c, r.Sections["building"])
		want := ""
		if c.Output != nil {
			want = strconv.Quote(*c.Output)
		} else if c.Error != nil {
			want = "error: " + c.Error.Component + " (" + c.Error.Kind + ")"
		}
		record("building", Case{ID: c.ID}, o, c.BuildInput.String(), want, got)
		flag(r, "building", flawed)
	}
	return r
}

// flag marks the mismatch just recorded as flawed.
func flag(r *Result, sec string, flawed bool) {
	if ms := r.Mismatches[sec]; flawed && len(ms) > 0 {
		ms[len(ms)-1].Flawed = true
	}
}

func deref(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

func verdict(v bool) string {
	if v {
		return "valid"
	}
	return "invalid"
}

func equivalence(v bool) string {
	if v {
		return "equivalent"
	}
	return "not equivalent"
}

// answer compares a text answer with the RFC's.
func answer(got string, err error) func(want string) (Outcome, string) {
	return func(want string) (Outcome, string) {
		switch {
		case errors.Is(err, ErrUnsupported):
			return NA, "n/a"
		case err != nil:
			return Fail, "error: " + err.Error()
		case got == want:
			return Pass, strconv.Quote(got)
		}
		return Fail, strconv.Quote(got)
	}
}

func validity(a Adapter, c Case) (Outcome, string) {
	if v, ok := a.(RuleValidator); ok {
		err := v.Validate(c.Rule, c.Input)
		if !errors.Is(err, ErrUnsupported) {
			return judge(err == nil, c.Valid, err)
		}
	}
	switch c.Rule {
	case "URI-reference", "URI", "absolute-URI", "relative-ref":
	default:
		return NA, "n/a"
	}
	comp, err := a.Parse(c.Input)
	if err != nil {
		return judge(false, c.Valid, err)
	}
	unknown := func(f string) bool {
		for _, u := range comp.Unknown {
			if u == f {
				return true
			}
		}
		return false
	}
	switch c.Rule {
	case "URI":
		if unknown("scheme") {
			return NA, "n/a"
		}
		return judge(comp.Scheme != nil, c.Valid, nil)
	case "absolute-URI":
		if unknown("scheme") || unknown("fragment") {
			return NA, "n/a"
		}
		return judge(comp.Scheme != nil && comp.Fragment == nil, c.Valid, nil)
	case "relative-ref":
		if unknown("scheme") {
			return NA, "n/a"
		}
		return judge(comp.Scheme == nil, c.Valid, nil)
	}
	return judge(true, c.Valid, nil)
}

func judge(got, want bool, err error) (Outcome, string) {
	s := verdict(got)
	if err != nil && !got {
		s += " (" + clip(err.Error()) + ")"
	}
	if got == want {
		return Pass, s
	}
	return Fail, s
}

func clip(s string) string {
	if len(s) > 100 {
		return s[:97] + "..."
	}
	return s
}

func show(p *string) string {
	if p == nil {
		return "undefined"
	}
	return strconv.Quote(*p)
}

func components(a Adapter, c Case) (Outcome, string, string) {
	fields := func(x Components) []struct{ name, v string } {
		return []struct{ name, v string }{{"scheme", show(x.Scheme)}, {"authority", show(x.Authority)}, {"userinfo", show(x.Userinfo)},
			{"host", show(x.Host)}, {"port", show(x.Port)}, {"path", strconv.Quote(x.Path)}, {"query", show(x.Query)}, {"fragment", show(x.Fragment)}}
	}
	want := Components{Scheme: c.Scheme, Authority: c.Authority, Userinfo: c.Userinfo, Host: c.Host, Port: c.Port, Path: c.Path, Query: c.Query, Fragment: c.Fragment}
	got, err := a.Parse(c.Input)
	if err != nil {
		return Fail, "valid", "rejected (" + clip(err.Error()) + ")"
	}
	skip := map[string]bool{}
	for _, u := range got.Unknown {
		skip[u] = true
	}
	var wantS, gotS string
	compared := 0
	for i, f := range fields(want) {
		g := fields(got)[i]
		if skip[f.name] {
			continue
		}
		compared++
		if f.v != g.v {
			wantS += f.name + "=" + f.v + " "
			gotS += g.name + "=" + g.v + " "
		}
	}
	switch {
	case compared == 0:
		return NA, "", ""
	case wantS == "":
		return Pass, "", ""
	}
	return Fail, wantS[:len(wantS)-1], gotS[:len(gotS)-1]
}

package resolve

import (
	"strings"

	"github.com/peguri/rfc3986/parser"
)

// NormalStep is one change that normalization made: the step, the section
// of RFC 3986 (or RFC 5952) that asks for it, the component it changed,
// and that component before and after. [Normalizer.Explain] lists them.
type NormalStep struct {
	Step      Steps  `json:"-"`
	Name      string `json:"step"`
	Section   string `json:"section"`
	Component string `json:"component"`
	// Before and After are the component's text; an undefined component
	// (a port removed by §6.2.3) is Defined false.
	Before        string `json:"before"`
	After         string `json:"after"`
	DefinedBefore bool   `json:"definedBefore"`
	DefinedAfter  bool   `json:"definedAfter"`
	// URI is the whole reference after the step.
	URI string `json:"uri"`
}

// stepSections are the sections of the steps, in the order they apply.
var stepSections = []struct {
	step    Steps
	section string
}{
	{NormalizePercent, "6.2.2.2"},
	{NormalizeCase, "6.2.2.1"},
	{NormalizeDotSegments, "6.2.2.3"},
	{NormalizeSchemeBased, "6.2.3"},
	{NormalizeIPv6Canonical, "RFC 5952 §4, §5"},
}

// Explain normalizes u as [Normalizer.Normalize] does and lists every step
// that changed something, component by component, in the order the steps
// apply (percent-encoding, then case, dot segments, scheme-based; see
// [Steps]). A step that changed nothing is not listed, so a URI already in
// normal form has none. The result and the error are Normalize's.
func (n Normalizer) Explain(u parser.URI) (parser.URI, []NormalStep, error) {
	v, err := n.Normalize(u)
	if err != nil {
		return parser.URI{}, nil, err
	}
	var out []NormalStep
	p := u.Parts()
	for _, s := range stepSections {
		if n.Steps&s.step == 0 {
			continue
		}
		q := normalizeParts(p, u.HostKind(), s.step, n.Schemes, strings.IndexByte(u.String(), '%') >= 0)
		text := q.String()
		add := func(component, before, after string, db, da bool) {
			if before != after || db != da {
				out = append(out, NormalStep{Step: s.step, Name: s.step.String(), Section: s.section, Component: component,
					Before: before, After: after, DefinedBefore: db, DefinedAfter: da, URI: text})
			}
		}
		add("scheme", p.Scheme, q.Scheme, p.HasScheme, q.HasScheme)
		add("userinfo", p.Userinfo, q.Userinfo, p.HasUserinfo, q.HasUserinfo)
		add("host", p.Host, q.Host, p.HasAuthority, q.HasAuthority)
		add("port", p.Port, q.Port, p.HasPort, q.HasPort)
		add("path", p.Path, q.Path, true, true)
		add("query", p.Query, q.Query, p.HasQuery, q.HasQuery)
		add("fragment", p.Fragment, q.Fragment, p.HasFragment, q.HasFragment)
		p = q
	}
	return v, out, nil
}

// ExplainNormalize normalizes u by the given steps with [DefaultSchemes] and lists
// the changes; see [Normalizer.Explain].
func ExplainNormalize(u parser.URI, steps Steps) (parser.URI, []NormalStep, error) {
	return Normalizer{Steps: steps, Schemes: defaultSchemes}.Explain(u)
}

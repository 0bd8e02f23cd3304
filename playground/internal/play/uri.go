package play

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc3987"
	"github.com/peguri/rfc3986/parser/rfc6874"
	"github.com/peguri/rfc3986/resolve"
)

// syntaxes are the generated grammars the URI tab parses with, by the
// names gen's -grammar and cmd/uri's -grammar take.
var syntaxes = map[string]func() *parser.Parser{
	"rfc3986": parser.RFC3986,
	"rfc6874": rfc6874.Parser,
	"rfc3987": rfc3987.Parser,
}

// SyntaxInfo describes one generated grammar for the URI tab's selectors.
type SyntaxInfo struct {
	Name     string   `json:"name"`
	Default  string   `json:"default"`
	Rules    []string `json:"rules"`
	URIRules []string `json:"uriRules"`
}

// Syntaxes lists the generated grammars, rfc3986 first.
func Syntaxes() []SyntaxInfo {
	var names []string
	for n := range syntaxes {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []SyntaxInfo
	for _, n := range names {
		s := syntaxes[n]()
		out = append(out, SyntaxInfo{Name: n, Default: s.DefaultRule(), Rules: s.Rules(), URIRules: s.URIRules()})
	}
	return out
}

// URIRequest is what the URI tab sends.
type URIRequest struct {
	Grammar   string `json:"grammar"` // rfc3986 (empty), rfc6874, rfc3987
	Rule      string `json:"rule"`    // empty: the grammar's default rule
	Input     string `json:"input"`
	Base      string `json:"base"`      // resolution base; empty: none
	NonStrict bool   `json:"nonStrict"` // §5.2.2's backward-compatible reading
}

// Component is one component of a URI reference (RFC 3986 §3): its text
// and whether it is defined (§5.3: an empty query differs from none).
type Component struct {
	Name    string `json:"name"`
	Value   string `json:"value"`
	Defined bool   `json:"defined"`
}

// Tree is a parse tree node: the ABNF rule, its bytes and its children.
type Tree struct {
	Rule  string  `json:"rule"`
	Start int     `json:"start"`
	End   int     `json:"end"`
	Text  string  `json:"text"`
	Kids  []*Tree `json:"kids,omitempty"`
}

// ParseError is a *parser.Error for the page.
type ParseError struct {
	Message  string   `json:"message"`
	Offset   int      `json:"offset"`
	Rule     string   `json:"rule"`
	Expected []string `json:"expected"`
	Reason   string   `json:"reason"`
	Caret    string   `json:"caret"`
}

// Level is one rung of the normalization ladder (RFC 3986 §6.2).
type Level struct {
	Name    string `json:"name"`
	Section string `json:"section"`
	Steps   string `json:"steps"`
	Result  string `json:"result"`
	Changed bool   `json:"changed"` // from the rung above
	Err     string `json:"err,omitempty"`
}

// Resolution is the reference resolved against the base (§5.2).
type Resolution struct {
	Base    string      `json:"base"`
	Mode    string      `json:"mode"`
	Result  string      `json:"result"`
	Err     string      `json:"err,omitempty"`
	BaseErr *ParseError `json:"baseErr,omitempty"`
}

// URIResult is what the URI tab shows.
type URIResult struct {
	Grammar    string      `json:"grammar"`
	Rule       string      `json:"rule"`
	Input      string      `json:"input"`
	Valid      bool        `json:"valid"`
	Err        *ParseError `json:"err,omitempty"`
	Problem    string      `json:"problem,omitempty"` // not a parse error: unknown grammar or rule
	IsURI      bool        `json:"isURI"`             // the rule is a URI rule: components follow
	Components []Component `json:"components,omitempty"`
	HostKind   string      `json:"hostKind,omitempty"`
	Tree       *Tree       `json:"tree,omitempty"`
	TreeErr    string      `json:"treeErr,omitempty"`
	Levels     []Level     `json:"levels,omitempty"`
	URI        string      `json:"uri,omitempty"` // RFC 3987 §3.1: the URI an IRI maps to
	Resolution *Resolution `json:"resolution,omitempty"`
}

// ladder is §6.2's comparison ladder, each rung adding steps to the one
// above: the text itself (§6.2.1), then §6.2.2's three syntax-based
// normalizations in turn, then scheme-based normalization (§6.2.3), then
// RFC 5952's IPv6 text, which RFC 3986 does not define.
var ladder = []struct {
	name, section string
	steps         resolve.Steps
}{
	{"case", "§6.2.2.1", resolve.NormalizeCase},
	{"percent-encoding", "§6.2.2.2", resolve.NormalizeCase | resolve.NormalizePercent},
	{"path segments (syntax-based)", "§6.2.2.3", resolve.NormalizeSyntax},
	{"scheme-based", "§6.2.3", resolve.NormalizeDefault},
	{"IPv6 text (RFC 5952)", "RFC 5952 §4, §5", resolve.NormalizeDefault | resolve.NormalizeIPv6Canonical},
}

// URI parses, normalizes and resolves.
func URI(req URIRequest) (res *URIResult) {
	res = &URIResult{Input: req.Input}
	defer func() {
		if p := recover(); p != nil {
			res.Problem = fmt.Sprintf("internal error: %v", p)
		}
	}()
	if req.Grammar == "" {
		req.Grammar = "rfc3986"
	}
	mk, ok := syntaxes[req.Grammar]
	if !ok {
		res.Problem = fmt.Sprintf("no grammar %q", req.Grammar)
		return res
	}
	s := mk()
	res.Grammar = req.Grammar
	rule := s.DefaultRule()
	if req.Rule != "" {
		if rule, ok = s.Rule(req.Rule); !ok {
			res.Problem = fmt.Sprintf("no rule %q in grammar %s", req.Rule, req.Grammar)
			return res
		}
	}
	res.Rule = rule
	res.IsURI = s.IsURIRule(rule)
	if !res.IsURI {
		n, err := s.ParseRule(rule, req.Input)
		if err != nil {
			res.Err = parseError(err)
			return res
		}
		res.Valid = true
		res.Tree = tree(req.Input, n)
		return res
	}
	u, err := s.Parse(rule, req.Input)
	if err != nil {
		res.Err = parseError(err)
		return res
	}
	res.Valid = true
	res.Components = components(u)
	res.HostKind = u.HostKind().String()
	if _, n, err := s.ParseTree(rule, req.Input); err != nil {
		// Valid, but too long for a tree (parser.ErrTooLongForTree).
		res.TreeErr = err.Error()
	} else {
		res.Tree = tree(req.Input, n)
	}
	if req.Grammar == "rfc3987" {
		if v, err := rfc3987.ToURI(req.Input); err == nil {
			res.URI = v.String()
		}
	}
	prev := u.String()
	for _, l := range ladder {
		lv := Level{Name: l.name, Section: l.section, Steps: l.steps.String()}
		if n, err := resolve.Normalize(u, l.steps); err != nil {
			lv.Err = err.Error()
		} else {
			lv.Result = n.String()
			lv.Changed = lv.Result != prev
			prev = lv.Result
		}
		res.Levels = append(res.Levels, lv)
	}
	if req.Base != "" {
		res.Resolution = resolution(s, u, req.Base, req.NonStrict)
	}
	return res
}

func resolution(s *parser.Parser, ref parser.URI, base string, nonStrict bool) *Resolution {
	mode := resolve.Strict
	if nonStrict {
		mode = resolve.NonStrict
	}
	r := &Resolution{Base: base, Mode: mode.String()}
	b, err := s.Parse(s.DefaultRule(), base)
	if err != nil {
		r.BaseErr = parseError(err)
		r.Err = "base: " + err.Error()
		return r
	}
	t, err := resolve.Resolve(b, ref, mode)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	r.Result = t.String()
	return r
}

func components(u parser.URI) []Component {
	return []Component{
		{"scheme", u.Scheme(), u.HasScheme()},
		{"authority", u.Authority(), u.HasAuthority()},
		{"userinfo", u.Userinfo(), u.HasUserinfo()},
		{"host", u.Host(), u.HasAuthority()},
		{"port", u.Port(), u.HasPort()},
		// §3.3: "A path is always defined for a URI reference, though the
		// defined path may be empty (zero length)."
		{"path", u.Path(), true},
		{"query", u.Query(), u.HasQuery()},
		{"fragment", u.Fragment(), u.HasFragment()},
	}
}

func parseError(err error) *ParseError {
	var pe *parser.Error
	if !errors.As(err, &pe) {
		return &ParseError{Message: err.Error(), Offset: -1}
	}
	return &ParseError{Message: pe.Error(), Offset: pe.Offset, Rule: pe.Rule, Expected: pe.Expected, Reason: pe.Reason(), Caret: caretOnly(pe.Caret())}
}

// caretOnly keeps the first two lines of parser.Error.Caret, the input and
// the caret under it: the page shows the message on its own.
func caretOnly(c string) string {
	if i := strings.Index(c, "\n"); i >= 0 {
		if j := strings.Index(c[i+1:], "\n"); j >= 0 {
			return c[:i+1+j]
		}
	}
	return c
}

// tree converts a parse tree; texts of invalid UTF-8 are shown as Go
// quotes them, so that the page gets valid strings.
func tree(in string, n *parser.Node) *Tree {
	if n == nil {
		return nil
	}
	t := &Tree{Rule: n.Rule, Start: n.Start, End: n.End}
	if n.Start >= 0 && n.Start <= n.End && n.End <= len(in) {
		t.Text = in[n.Start:n.End]
		if !utf8.ValidString(t.Text) {
			t.Text = strings.Trim(fmt.Sprintf("%q", t.Text), `"`)
		}
	}
	for _, k := range n.Kids {
		t.Kids = append(t.Kids, tree(in, k))
	}
	return t
}

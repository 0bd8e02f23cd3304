package resolve

import (
	"encoding/json"
	"strings"

	"github.com/peguri/rfc3986/parser"
)

// Components are the five components of RFC 3986 §5.2.1 and §5.2.2 (R, Base
// and T in the RFC's pseudocode), each with whether it is defined: the
// RFC's "undefined" is not the empty string ("http://a?" has an empty
// query, "http://a" none).
type Components struct {
	Scheme       string
	HasScheme    bool
	Authority    string
	HasAuthority bool
	Path         string
	Query        string
	HasQuery     bool
	Fragment     string
	HasFragment  bool
}

// componentsJSON is the JSON of Components: an undefined component is
// null, as in the output of "uri parse -json".
type componentsJSON struct {
	Scheme    *string `json:"scheme"`
	Authority *string `json:"authority"`
	Path      string  `json:"path"`
	Query     *string `json:"query"`
	Fragment  *string `json:"fragment"`
}

func optional(s string, defined bool) *string {
	if !defined {
		return nil
	}
	return &s
}

// MarshalJSON writes {"scheme","authority","path","query","fragment"},
// with null for an undefined component.
func (c Components) MarshalJSON() ([]byte, error) {
	return json.Marshal(componentsJSON{optional(c.Scheme, c.HasScheme), optional(c.Authority, c.HasAuthority),
		c.Path, optional(c.Query, c.HasQuery), optional(c.Fragment, c.HasFragment)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (c *Components) UnmarshalJSON(b []byte) error {
	var j componentsJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*c = Components{Path: j.Path}
	if j.Scheme != nil {
		c.Scheme, c.HasScheme = *j.Scheme, true
	}
	if j.Authority != nil {
		c.Authority, c.HasAuthority = *j.Authority, true
	}
	if j.Query != nil {
		c.Query, c.HasQuery = *j.Query, true
	}
	if j.Fragment != nil {
		c.Fragment, c.HasFragment = *j.Fragment, true
	}
	return nil
}

// ComponentsOf returns u's five components (§3).
func ComponentsOf(u parser.URI) Components {
	return Components{
		Scheme: u.Scheme(), HasScheme: u.HasScheme(),
		Authority: u.Authority(), HasAuthority: u.HasAuthority(),
		Path:  u.Path(),
		Query: u.Query(), HasQuery: u.HasQuery(),
		Fragment: u.Fragment(), HasFragment: u.HasFragment(),
	}
}

// String recomposes the components as §5.3 does, leaving out the
// undefined ones (and writing nothing to keep a path beginning with "//"
// from reading as an authority: that is [Resolve]'s guard, not §5.3's).
func (c Components) String() string {
	var b strings.Builder
	if c.HasScheme {
		b.WriteString(c.Scheme)
		b.WriteByte(':')
	}
	if c.HasAuthority {
		b.WriteString("//")
		b.WriteString(c.Authority)
	}
	b.WriteString(c.Path)
	if c.HasQuery {
		b.WriteByte('?')
		b.WriteString(c.Query)
	}
	if c.HasFragment {
		b.WriteByte('#')
		b.WriteString(c.Fragment)
	}
	return b.String()
}

// Trace is one resolution (RFC 3986 §5.2) written out as the RFC's
// pseudocode runs it: the components of the base and the reference
// (§5.2.1), each step of §5.2.2 that ran, with the components of T after
// it, the merge of §5.2.3 and the table of §5.2.4's remove_dot_segments
// where they ran, and the recomposed result (§5.3). [TraceResolve] builds
// it; its Result is what [Resolve] returns.
type Trace struct {
	Base      Components  `json:"base"`
	Reference Components  `json:"reference"`
	Mode      string      `json:"mode"`
	Steps     []TraceStep `json:"steps"`
	// Result is the target's text, as Resolve writes it.
	Result string `json:"result"`
	// Guarded is set when Result has the "/." that keeps a path beginning
	// with "//" from reading as an authority (see the package
	// documentation): T's recomposition by §5.3 alone would differ.
	Guarded bool `json:"guarded,omitempty"`
}

// TraceStep is one step of a [Trace]: the section of RFC 3986 it follows,
// the lines of §5.2.2's pseudocode it executed (conditions as the RFC
// writes them, then assignments), and T after it. A merge (§5.2.3) says
// what it merged in Merge; a remove_dot_segments (§5.2.4) lists its steps
// in Dots, as the RFC's own table for "/a/b/c/./../../g" does.
type TraceStep struct {
	Section string      `json:"section"`
	Code    []string    `json:"code"`
	T       Components  `json:"T"`
	Merge   *MergeTrace `json:"merge,omitempty"`
	Dots    []DotStep   `json:"dots,omitempty"`
}

// MergeTrace is one merge (§5.2.3): which of its two rules applied, on
// which base path and reference path, and the result.
type MergeTrace struct {
	Rule     string `json:"rule"`
	BasePath string `json:"basePath"`
	RefPath  string `json:"refPath"`
	Result   string `json:"result"`
}

// DotStep is one row of the table of §5.2.4's example: the rule of step 2
// that applied ("A" to "E"; "1" for the initial buffers, "3" for the
// result), and the output and input buffers after it.
type DotStep struct {
	Rule   string `json:"rule"`
	Output string `json:"output"`
	Input  string `json:"input"`
}

// RemoveDotSegmentsTrace runs §5.2.4's remove_dot_segments on path and
// returns its result with every step: the initial buffers (rule "1"), each
// application of a rule of step 2 ("A" to "E"), and the result (rule "3").
// It is written as the RFC's prose reads, on strings, independently of
// [RemoveDotSegments], which the tests hold it to.
func RemoveDotSegmentsTrace(path string) (string, []DotStep) {
	in, out := path, ""
	steps := []DotStep{{Rule: "1", Output: out, Input: in}}
	for in != "" {
		var rule string
		switch {
		// A. If the input buffer begins with a prefix of "../" or "./",
		// then remove that prefix from the input buffer.
		case strings.HasPrefix(in, "../"):
			in, rule = in[3:], "A"
		case strings.HasPrefix(in, "./"):
			in, rule = in[2:], "A"
		// B. if the input buffer begins with a prefix of "/./" or "/.",
		// where "." is a complete path segment, then replace that prefix
		// with "/" in the input buffer.
		case strings.HasPrefix(in, "/./"):
			in, rule = in[2:], "B"
		case in == "/.":
			in, rule = "/", "B"
		// C. if the input buffer begins with a prefix of "/../" or "/..",
		// where ".." is a complete path segment, then replace that prefix
		// with "/" in the input buffer and remove the last segment and its
		// preceding "/" (if any) from the output buffer.
		case strings.HasPrefix(in, "/../"):
			in, out, rule = in[3:], dropLastSegment(out), "C"
		case in == "/..":
			in, out, rule = "/", dropLastSegment(out), "C"
		// D. if the input buffer consists only of "." or "..", then remove
		// that from the input buffer.
		case in == "." || in == "..":
			in, rule = "", "D"
		// E. move the first path segment in the input buffer to the end of
		// the output buffer, including the initial "/" character (if any)
		// and any subsequent characters up to, but not including, the next
		// "/" character or the end of the input buffer.
		default:
			n := 1
			for n < len(in) && in[n] != '/' {
				n++
			}
			out, in, rule = out+in[:n], in[n:], "E"
		}
		steps = append(steps, DotStep{Rule: rule, Output: out, Input: in})
	}
	// 3. Finally, the output buffer is returned as the result of
	// remove_dot_segments.
	steps = append(steps, DotStep{Rule: "3", Output: out})
	return out, steps
}

func dropLastSegment(out string) string {
	if i := strings.LastIndexByte(out, '/'); i >= 0 {
		return out[:i]
	}
	return ""
}

// TraceResolve resolves ref against base as [Resolve] does and returns the
// [Trace] of §5.2.2's pseudocode, step by step. The trace's components are
// computed by a second, literal reading of the pseudocode; its Result is
// Resolve's, which the tests hold to the trace's own T. Errors are
// Resolve's.
func TraceResolve(base, ref parser.URI, mode Mode) (Trace, error) {
	u, err := Resolve(base, ref, mode)
	if err != nil {
		return Trace{}, err
	}
	B, R := ComponentsOf(base), ComponentsOf(ref)
	B.Fragment, B.HasFragment = "", false // §5.1: a base's fragment is ignored
	tr := Trace{Base: B, Reference: R, Mode: mode.String(), Result: u.String()}
	var T Components
	step := func(section string, code ...string) *TraceStep {
		tr.Steps = append(tr.Steps, TraceStep{Section: section, Code: code, T: T})
		return &tr.Steps[len(tr.Steps)-1]
	}
	// dots sets T.path = remove_dot_segments(p) and records the table.
	dots := func(p string, code string) {
		out, table := RemoveDotSegmentsTrace(p)
		T.Path = out
		s := step("5.2.4", code)
		s.Dots = table
	}
	step("5.2.1", "(R.scheme, R.authority, R.path, R.query, R.fragment) = parse(R);")
	if mode == NonStrict {
		if R.HasScheme && strings.EqualFold(R.Scheme, B.Scheme) {
			R.Scheme, R.HasScheme = "", false
			step("5.2.2", "if ((not strict) and (R.scheme == Base.scheme)) then", "   undefine(R.scheme);")
		} else {
			step("5.2.2", "if ((not strict) and (R.scheme == Base.scheme)) then -- false")
		}
	}
	switch {
	case R.HasScheme:
		T.Scheme, T.HasScheme = R.Scheme, true
		T.Authority, T.HasAuthority = R.Authority, R.HasAuthority
		step("5.2.2", "if defined(R.scheme) then", "   T.scheme    = R.scheme;", "   T.authority = R.authority;")
		dots(R.Path, "   T.path      = remove_dot_segments(R.path);")
		T.Query, T.HasQuery = R.Query, R.HasQuery
		step("5.2.2", "   T.query     = R.query;")
	case R.HasAuthority:
		T.Authority, T.HasAuthority = R.Authority, true
		step("5.2.2", "else", "   if defined(R.authority) then", "      T.authority = R.authority;")
		dots(R.Path, "      T.path      = remove_dot_segments(R.path);")
		T.Query, T.HasQuery = R.Query, R.HasQuery
		step("5.2.2", "      T.query     = R.query;")
		T.Scheme, T.HasScheme = B.Scheme, true
		step("5.2.2", "   T.scheme = Base.scheme;")
	default:
		switch {
		case R.Path == "":
			T.Path = B.Path
			if R.HasQuery {
				T.Query, T.HasQuery = R.Query, true
				step("5.2.2", "else", "   if defined(R.authority) then -- false", "      if (R.path == \"\") then",
					"         T.path = Base.path;", "         if defined(R.query) then", "            T.query = R.query;")
			} else {
				T.Query, T.HasQuery = B.Query, B.HasQuery
				step("5.2.2", "else", "   if defined(R.authority) then -- false", "      if (R.path == \"\") then",
					"         T.path = Base.path;", "         if defined(R.query) then -- false", "            T.query = Base.query;")
			}
		case R.Path[0] == '/':
			step("5.2.2", "else", "   if defined(R.authority) then -- false", "      if (R.path == \"\") then -- false",
				"         if (R.path starts-with \"/\") then")
			dots(R.Path, "            T.path = remove_dot_segments(R.path);")
			T.Query, T.HasQuery = R.Query, R.HasQuery
			step("5.2.2", "         T.query = R.query;")
		default:
			m := MergeTrace{BasePath: B.Path, RefPath: R.Path}
			if B.HasAuthority && B.Path == "" {
				m.Rule = `the base has an authority and an empty path: "/" + R.path`
				m.Result = "/" + R.Path
			} else {
				m.Rule = `R.path appended to all but the last segment of Base.path`
				m.Result = B.Path[:strings.LastIndexByte(B.Path, '/')+1] + R.Path
			}
			T.Path = m.Result
			s := step("5.2.3", "else", "   if defined(R.authority) then -- false", "      if (R.path == \"\") then -- false",
				"         if (R.path starts-with \"/\") then -- false", "            T.path = merge(Base.path, R.path);")
			s.Merge = &m
			dots(T.Path, "            T.path = remove_dot_segments(T.path);")
			T.Query, T.HasQuery = R.Query, R.HasQuery
			step("5.2.2", "         T.query = R.query;")
		}
		T.Authority, T.HasAuthority = B.Authority, B.HasAuthority
		step("5.2.2", "   T.authority = Base.authority;")
		T.Scheme, T.HasScheme = B.Scheme, true
		step("5.2.2", "T.scheme = Base.scheme;")
	}
	T.Fragment, T.HasFragment = R.Fragment, R.HasFragment
	step("5.2.2", "T.fragment = R.fragment;")
	step("5.3", "result = recompose(T);")
	tr.Guarded = T.String() != tr.Result
	return tr, nil
}

package resolve

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/peguri/rfc3986/internal/appendixb"
	"github.com/peguri/rfc3986/parser"
)

// componentsJSON is the JSON of a URI's components in a trace: the five
// of §3 as §5.2's pseudocode names them, an undefined component null, as in
// the output of "uri parse -json".
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

func toJSON(c parser.Parts) componentsJSON {
	return componentsJSON{optional(c.Scheme, c.HasScheme), optional(c.Authority(), c.HasAuthority),
		c.Path, optional(c.Query, c.HasQuery), optional(c.Fragment, c.HasFragment)}
}

// fromJSON reads what toJSON writes. The authority is split as every
// grammar of this module splits a URI's (appendixb.SplitAuthority, as
// package parser does), not checked against a grammar, which the trace
// does not name: a trace of RFC 6874's zone IDs or RFC 3987's IRIs reads
// back as one of RFC 3986's does.
func fromJSON(j componentsJSON) (parser.Parts, error) {
	c := parser.Parts{Path: j.Path}
	if j.Scheme != nil {
		c.Scheme, c.HasScheme = *j.Scheme, true
	}
	if j.Authority != nil {
		a := *j.Authority
		hs, he, user, port, ok := appendixb.SplitAuthority(a)
		if !ok {
			return parser.Parts{}, fmt.Errorf("authority %q: an IP literal's \"]\" must end the host", a)
		}
		c.HasAuthority, c.Host, c.HasUserinfo, c.HasPort = true, a[hs:he], user, port
		if user {
			c.Userinfo = a[:hs-1]
		}
		if port {
			c.Port = a[he+1:]
		}
	}
	if j.Query != nil {
		c.Query, c.HasQuery = *j.Query, true
	}
	if j.Fragment != nil {
		c.Fragment, c.HasFragment = *j.Fragment, true
	}
	return c, nil
}

// setAuthority is §5.2.2's "T.authority = X.authority".
func setAuthority(t *parser.Parts, x parser.Parts) {
	t.HasAuthority, t.Userinfo, t.HasUserinfo, t.Host, t.Port, t.HasPort = x.HasAuthority, x.Userinfo, x.HasUserinfo, x.Host, x.Port, x.HasPort
}

// Trace is one resolution (RFC 3986 §5.2) written out as the RFC's
// pseudocode runs it: the components of the base and the reference
// (§5.2.1), each step of §5.2.2 that ran, with the components of T after
// it, the merge of §5.2.3 and the table of §5.2.4's remove_dot_segments
// where they ran, and the recomposed result (§5.3). [TraceResolve] builds
// it; its Result is what [Resolve] returns.
//
// Its JSON writes each set of components as
// {"scheme","authority","path","query","fragment"}, null for an undefined
// component; reading it back splits each authority into its userinfo,
// host and port as the parser does, in any of the module's grammars.
type Trace struct {
	Base      parser.Parts `json:"base"`
	Reference parser.Parts `json:"reference"`
	Mode      string       `json:"mode"`
	Steps     []TraceStep  `json:"steps"`
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
	Section string       `json:"section"`
	Code    []string     `json:"code"`
	T       parser.Parts `json:"T"`
	Merge   *MergeTrace  `json:"merge,omitempty"`
	Dots    []DotStep    `json:"dots,omitempty"`
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

// MaxTraceLength bounds the paths [TraceResolve] traces: 4 KiB, the base's
// and the reference's together. A trace keeps, for each step of
// remove_dot_segments, the output buffer as §5.2.4's table writes it, so
// its size grows with the square of the path's length (a path of 40 KB
// would make 400 MB of rows). [RemoveDotSegmentsTrace] takes any path:
// bound what it is given.
const MaxTraceLength = 4 << 10

// ErrTooLongToTrace is wrapped by the error of TraceResolve for paths
// longer than MaxTraceLength, together.
var ErrTooLongToTrace = errors.New("too long to trace")

// TraceResolve resolves ref against base as [Resolve] does and returns the
// [Trace] of §5.2.2's pseudocode, step by step. The trace's components are
// computed by a second, literal reading of the pseudocode; its Result is
// Resolve's, which the tests hold to the trace's own T. Errors are
// Resolve's, and an [*ArgError] wrapping [ErrTooLongToTrace] when the two
// paths are longer than [MaxTraceLength] together.
func TraceResolve(base, ref parser.URI, mode Mode) (Trace, error) {
	u, err := Resolve(base, ref, mode)
	if err != nil {
		return Trace{}, err
	}
	if n := len(base.Path()) + len(ref.Path()); n > MaxTraceLength {
		arg, in := "reference", ref.String()
		if len(ref.Path()) <= MaxTraceLength/2 {
			arg, in = "base", base.String()
		}
		return Trace{}, &ArgError{Arg: arg, Input: in,
			Err: fmt.Errorf("paths of %d bytes together, more than %d: %w", n, MaxTraceLength, ErrTooLongToTrace)}
	}
	B, R := base.Parts(), ref.Parts()
	B.Fragment, B.HasFragment = "", false // §5.1: a base's fragment is ignored
	tr := Trace{Base: B, Reference: R, Mode: mode.String(), Result: u.String()}
	var T parser.Parts
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
		setAuthority(&T, R)
		step("5.2.2", "if defined(R.scheme) then", "   T.scheme    = R.scheme;", "   T.authority = R.authority;")
		dots(R.Path, "   T.path      = remove_dot_segments(R.path);")
		T.Query, T.HasQuery = R.Query, R.HasQuery
		step("5.2.2", "   T.query     = R.query;")
	case R.HasAuthority:
		setAuthority(&T, R)
		step("5.2.2", "if defined(R.scheme) then -- false", "else", "   if defined(R.authority) then", "      T.authority = R.authority;")
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
				step("5.2.2", "if defined(R.scheme) then -- false", "else", "   if defined(R.authority) then -- false", "   else", "      if (R.path == \"\") then",
					"         T.path = Base.path;", "         if defined(R.query) then", "            T.query = R.query;")
			} else {
				T.Query, T.HasQuery = B.Query, B.HasQuery
				step("5.2.2", "if defined(R.scheme) then -- false", "else", "   if defined(R.authority) then -- false", "   else", "      if (R.path == \"\") then",
					"         T.path = Base.path;", "         if defined(R.query) then -- false", "         else", "            T.query = Base.query;")
			}
		case R.Path[0] == '/':
			step("5.2.2", "if defined(R.scheme) then -- false", "else", "   if defined(R.authority) then -- false", "   else", "      if (R.path == \"\") then -- false", "      else",
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
			s := step("5.2.3", "if defined(R.scheme) then -- false", "else", "   if defined(R.authority) then -- false", "   else", "      if (R.path == \"\") then -- false", "      else",
				"         if (R.path starts-with \"/\") then -- false", "         else", "            T.path = merge(Base.path, R.path);")
			s.Merge = &m
			dots(T.Path, "            T.path = remove_dot_segments(T.path);")
			T.Query, T.HasQuery = R.Query, R.HasQuery
			step("5.2.2", "         T.query = R.query;")
		}
		setAuthority(&T, B)
		step("5.2.2", "      T.authority = Base.authority;")
		T.Scheme, T.HasScheme = B.Scheme, true
		step("5.2.2", "   T.scheme = Base.scheme;")
	}
	T.Fragment, T.HasFragment = R.Fragment, R.HasFragment
	step("5.2.2", "T.fragment = R.fragment;")
	step("5.3", "result = recompose(T);")
	tr.Guarded = T.String() != tr.Result
	return tr, nil
}

type traceJSON struct {
	Base      componentsJSON `json:"base"`
	Reference componentsJSON `json:"reference"`
	Mode      string         `json:"mode"`
	Steps     []TraceStep    `json:"steps"`
	Result    string         `json:"result"`
	Guarded   bool           `json:"guarded,omitempty"`
}

// MarshalJSON writes the trace, each set of components as
// {"scheme","authority","path","query","fragment"}.
func (tr Trace) MarshalJSON() ([]byte, error) {
	return json.Marshal(traceJSON{toJSON(tr.Base), toJSON(tr.Reference), tr.Mode, tr.Steps, tr.Result, tr.Guarded})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (tr *Trace) UnmarshalJSON(b []byte) error {
	var j traceJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	base, err := fromJSON(j.Base)
	if err != nil {
		return err
	}
	ref, err := fromJSON(j.Reference)
	if err != nil {
		return err
	}
	*tr = Trace{Base: base, Reference: ref, Mode: j.Mode, Steps: j.Steps, Result: j.Result, Guarded: j.Guarded}
	return nil
}

type traceStepJSON struct {
	Section string         `json:"section"`
	Code    []string       `json:"code"`
	T       componentsJSON `json:"T"`
	Merge   *MergeTrace    `json:"merge,omitempty"`
	Dots    []DotStep      `json:"dots,omitempty"`
}

// MarshalJSON writes the step, T as {"scheme","authority","path","query","fragment"}.
func (s TraceStep) MarshalJSON() ([]byte, error) {
	return json.Marshal(traceStepJSON{s.Section, s.Code, toJSON(s.T), s.Merge, s.Dots})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (s *TraceStep) UnmarshalJSON(b []byte) error {
	var j traceStepJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	t, err := fromJSON(j.T)
	if err != nil {
		return err
	}
	*s = TraceStep{Section: j.Section, Code: j.Code, T: t, Merge: j.Merge, Dots: j.Dots}
	return nil
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Version is the suite's version: the major number changes when a field
// changes meaning or goes away, the minor when fields or sections are
// added, the patch when cases change.
const Version = "1.2.4"

// Suite is the file: its header, then one array of cases per section.
type Suite struct {
	Suite     string         `json:"suite"`
	Version   string         `json:"version"`
	Spec      string         `json:"spec"`
	Generator string         `json:"generator"`
	Counts    map[string]int `json:"counts"`

	Validity          []Validity      `json:"validity"`
	Components        []Components    `json:"components"`
	Resolution        []Resolution    `json:"resolution"`
	RemoveDotSegments []DotSegments   `json:"removeDotSegments"`
	Normalization     []Normalization `json:"normalization"`
	Equivalence       []Equivalence   `json:"equivalence"`
	Encoding          []Encoding      `json:"encoding"`
	Decoding          []Decoding      `json:"decoding"`
	Building          []Building      `json:"building"`

	// ledger is conformance/ids.txt as Build leaves it (see ids.go).
	ledger []byte
}

// Provenance says where a case comes from: an example of the RFC, a record
// of an external corpus, a generated input, or one written for the suite
// at a rule's boundary.
type Provenance struct {
	// Kind is "rfc", "corpus", "generated", "boundary" or "written".
	Kind string `json:"kind"`
	// Ref: for "rfc", the section of RFC 3986 the example is in.
	Ref string `json:"ref,omitempty"`
	// Reason: for "written", the lesson the case was written for.
	Reason string `json:"reason,omitempty"`
	// For "corpus": the corpus (testdata/conformance/SOURCE.jsonl), the
	// line of the record, where the source has it, and the source's own
	// answer when it is not the RFC's.
	Source      string `json:"source,omitempty"`
	Line        int    `json:"line,omitempty"`
	Origin      string `json:"origin,omitempty"`
	CorpusSays  any    `json:"corpusSays,omitempty"`
	CorpusAgree *bool  `json:"corpusAgrees,omitempty"`
	// For "generated": the command that prints the original input (its
	// index-th line, from 0), and the original when minimisation changed
	// it.
	Command        string `json:"command,omitempty"`
	Index          *int   `json:"index,omitempty"`
	Original       string `json:"original,omitempty"`
	OriginalQuoted string `json:"originalQuoted,omitempty"` // Original, Go-quoted, when it is not valid UTF-8
}

// Validity: is Input a match of Rule (RFC 3986 Appendix A)? An invalid
// case says where a match stops (Offset: the length of the longest prefix
// some valid input begins with), the innermost rule that could not
// continue there, and what could have come there in the RFC's terms
// (rules and terminals, "end of input"), as abnf.Diagnosis says them.
type Validity struct {
	ID          string     `json:"id"`
	Rule        string     `json:"rule"`
	Input       string     `json:"input"`
	InputQuoted string     `json:"inputQuoted,omitempty"`
	Valid       bool       `json:"valid"`
	Offset      *int       `json:"offset,omitempty"`
	Failing     string     `json:"failingRule,omitempty"`
	Expected    []string   `json:"expected,omitempty"`
	Section     string     `json:"section"`
	Note        string     `json:"note,omitempty"`
	Provenance  Provenance `json:"provenance"`
}

// Components: the five components of a valid URI-reference, with userinfo,
// host and port; null for an undefined component (§5.3 recomposes "" and
// undefined differently), and the host's kind (§3.2.2).
type Components struct {
	ID         string     `json:"id"`
	Input      string     `json:"input"`
	Scheme     *string    `json:"scheme"`
	Authority  *string    `json:"authority"`
	Userinfo   *string    `json:"userinfo"`
	Host       *string    `json:"host"`
	HostKind   *string    `json:"hostKind"`
	Port       *string    `json:"port"`
	Path       string     `json:"path"`
	Query      *string    `json:"query"`
	Fragment   *string    `json:"fragment"`
	Section    string     `json:"section"`
	Provenance Provenance `json:"provenance"`
}

// Resolution: the target of Reference against Base (§5.2), strict or
// non-strict (§5.2.2). Note says which branch of §5.2.2 ran and which
// rules of §5.2.4 applied.
type Resolution struct {
	ID         string     `json:"id"`
	Base       string     `json:"base"`
	Reference  string     `json:"reference"`
	Mode       string     `json:"mode"` // "strict" or "non-strict"
	Target     string     `json:"target"`
	Section    string     `json:"section"`
	Note       string     `json:"note,omitempty"`
	Provenance Provenance `json:"provenance"`
}

// DotSegments: remove_dot_segments(Input) (§5.2.4); Rules are the rules of
// its step 2 that applied, in order.
type DotSegments struct {
	ID         string     `json:"id"`
	Input      string     `json:"input"`
	Output     string     `json:"output"`
	Rules      string     `json:"rules"`
	Section    string     `json:"section"`
	Provenance Provenance `json:"provenance"`
}

// Normalization: Input normalized at a level: "case" (§6.2.2.1),
// "percent" (§6.2.2.2), "dot-segments" (§6.2.2.3), "syntax" (all of
// §6.2.2), "scheme" (§6.2.2 and §6.2.3 for http, https, ws, wss, ftp).
type Normalization struct {
	ID         string     `json:"id"`
	Input      string     `json:"input"`
	Level      string     `json:"level"`
	Output     string     `json:"output"`
	Section    string     `json:"section"`
	Note       string     `json:"note,omitempty"`
	Provenance Provenance `json:"provenance"`
}

// Equivalence: are A and B equivalent at a rung of §6.2's ladder:
// "simple" (§6.2.1), "syntax" (§6.2.2), "scheme" (§6.2.3)?
type Equivalence struct {
	ID         string     `json:"id"`
	A          string     `json:"a"`
	B          string     `json:"b"`
	Level      string     `json:"level"`
	Equivalent bool       `json:"equivalent"`
	Section    string     `json:"section"`
	Provenance Provenance `json:"provenance"`
}

// Encoding: Input, raw octets, percent-encoded for Component: the name
// parser.ParseComponent takes ("userinfo", "host", "segment",
// "first-segment", "query", "fragment", "query-part"). Mode "encode":
// every octet the component's rule does not allow is encoded, "%"
// included (§2.4), and Output is the shortest text of the rule that
// decodes to Input; "escape": the same, but a "%" followed by two
// hexadecimal digits is a percent-encoding already, kept as it is.
type Encoding struct {
	ID          string     `json:"id"`
	Component   string     `json:"component"`
	Mode        string     `json:"mode"`
	Input       string     `json:"input"`
	InputQuoted string     `json:"inputQuoted,omitempty"`
	Output      string     `json:"output"`
	Section     string     `json:"section"`
	Note        string     `json:"note,omitempty"`
	Provenance  Provenance `json:"provenance"`
}

// Decoding: the octets Input percent-encodes (§2.1), with "+" read as a
// space when Form is set (the HTML forms convention); or, when a "%" is
// not followed by two hexadecimal digits, Error "pct-encoded" (the rule
// that does not match) at Offset, the "%"'s.
type Decoding struct {
	ID           string     `json:"id"`
	Input        string     `json:"input"`
	InputQuoted  string     `json:"inputQuoted,omitempty"`
	Form         bool       `json:"form"`
	Output       *string    `json:"output,omitempty"`
	OutputQuoted string     `json:"outputQuoted,omitempty"`
	Error        string     `json:"error,omitempty"`
	Offset       *int       `json:"offset,omitempty"`
	Section      string     `json:"section"`
	Note         string     `json:"note,omitempty"`
	Provenance   Provenance `json:"provenance"`
}

// Building: a URI reference made from raw components, each null when
// unset (see the README for how each is written), and the reference, or
// the error: the component at fault and the kind of fault.
type Building struct {
	ID         string     `json:"id"`
	Scheme     *string    `json:"scheme"`
	Userinfo   *string    `json:"userinfo"`
	Host       *string    `json:"host"`
	Port       *int       `json:"port"`
	Path       []string   `json:"path"`
	Absolute   bool       `json:"absolute"`
	Query      []Pair     `json:"query"`
	Fragment   *string    `json:"fragment"`
	Output     *string    `json:"output,omitempty"`
	Error      *BuildErr  `json:"error,omitempty"`
	Section    string     `json:"section"`
	Note       string     `json:"note,omitempty"`
	Provenance Provenance `json:"provenance"`
}

// Pair is a key=value pair of a query, raw.
type Pair struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// BuildErr is a building case's error: the component at fault
// ("scheme", "userinfo", "host", "port", "path") and a stable kind:
// "scheme", "no-host", "rootless", "empty-segment", "zone", "host".
type BuildErr struct {
	Component string `json:"component"`
	Kind      string `json:"kind"`
}

// quotedIf is the Go-quoted form of s when it is not valid UTF-8 (JSON
// cannot hold its bytes), "" otherwise.
func quotedIf(s string) string {
	if utf8.ValidString(s) {
		return ""
	}
	return strconv.Quote(s)
}

// Marshal writes the suite with one case per line, so that a change to
// the suite reads as a diff of the cases it changes.
func (s *Suite) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := func(v any) ([]byte, error) {
		var x bytes.Buffer
		e := json.NewEncoder(&x)
		e.SetEscapeHTML(false)
		if err := e.Encode(v); err != nil {
			return nil, err
		}
		return bytes.TrimSuffix(x.Bytes(), []byte("\n")), nil
	}
	b.WriteString("{\n")
	head := []struct {
		k string
		v any
	}{{"suite", s.Suite}, {"version", s.Version}, {"spec", s.Spec}, {"generator", s.Generator}, {"counts", s.Counts}}
	for _, h := range head {
		j, err := enc(h.v)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "%q: %s,\n", h.k, j)
	}
	sections := []struct {
		k string
		n int
		v func(i int) any
	}{
		{"validity", len(s.Validity), func(i int) any { return s.Validity[i] }},
		{"components", len(s.Components), func(i int) any { return s.Components[i] }},
		{"resolution", len(s.Resolution), func(i int) any { return s.Resolution[i] }},
		{"removeDotSegments", len(s.RemoveDotSegments), func(i int) any { return s.RemoveDotSegments[i] }},
		{"normalization", len(s.Normalization), func(i int) any { return s.Normalization[i] }},
		{"equivalence", len(s.Equivalence), func(i int) any { return s.Equivalence[i] }},
		{"encoding", len(s.Encoding), func(i int) any { return s.Encoding[i] }},
		{"decoding", len(s.Decoding), func(i int) any { return s.Decoding[i] }},
		{"building", len(s.Building), func(i int) any { return s.Building[i] }},
	}
	for si, sec := range sections {
		fmt.Fprintf(&b, "%q: [\n", sec.k)
		for i := range sec.n {
			j, err := enc(sec.v(i))
			if err != nil {
				return nil, err
			}
			b.Write(j)
			if i < sec.n-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString("]")
		if si < len(sections)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

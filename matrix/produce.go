package matrix

import (
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/peguri/rfc3986"
)

// Producing URIs: the suite's encoding, decoding and building sections.
// An implementation answers them through the optional interfaces below.
// Besides the RFC's exact text, the runner checks what an implementation
// produces: whether it is valid for the component (this project's
// generated parser on the component's Appendix A rule, whose answers the
// suite's tests hold to the exact ABNF matcher), and whether it decodes
// back to what was given (a round trip). An implementation with another
// convention (net/url's QueryEscape writes a space "+") may produce
// valid text that round-trips without being the RFC's text.

// Encoder percent-encodes raw octets for a component of the suite:
// "userinfo", "host" (a registered name), "segment", "first-segment" (of a
// relative-path reference), "query", "fragment", "query-part" (a key or a
// value of key=value&…); ErrUnsupported for a component it has no encoder
// for.
type Encoder interface {
	Encode(component, raw string) (string, error)
}

// Escaper encodes what a component does not allow in text that may be
// partly encoded already, keeping its percent-encodings (the suite's
// mode "escape").
type Escaper interface {
	Escape(component, text string) (string, error)
}

// Decoder decodes percent-encodings (RFC 3986 §2.1); form reads "+" as a
// space (HTML forms). An error for a malformed "%"; a *DecodeError says
// where, and the runner then compares the offset too.
type Decoder interface {
	Decode(s string, form bool) (string, error)
}

// DecodeError is a Decoder's error that knows the offset of the malformed
// "%".
type DecodeError struct {
	Offset int
	Err    error
}

func (e *DecodeError) Error() string { return e.Err.Error() }

// Unwrap returns e.Err.
func (e *DecodeError) Unwrap() error { return e.Err }

// Builder makes a URI reference from raw components, or fails.
type Builder interface {
	Build(in BuildInput) (string, error)
}

// BuildInput are a building case's raw components, each nil when unset.
// Path is a list of segments, after a "/" when Absolute; Query a list of
// key=value pairs, where an empty (non-nil) list is the empty query "?".
type BuildInput struct {
	Scheme   *string  `json:"scheme"`
	Userinfo *string  `json:"userinfo"`
	Host     *string  `json:"host"`
	Port     *int     `json:"port"`
	Path     []string `json:"path"`
	Absolute bool     `json:"absolute"`
	Query    []Pair   `json:"query"`
	Fragment *string  `json:"fragment"`
}

// Pair is a key=value pair of a query, raw.
type Pair struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// PathText is the path a BuildInput gives, unencoded: the segments
// joined with "/", after a "/" when absolute.
func (in BuildInput) PathText() string {
	p := strings.Join(in.Path, "/")
	if in.Absolute {
		p = "/" + p
	}
	return p
}

// EncodingCase is a case of the suite's encoding section.
type EncodingCase struct {
	ID          string `json:"id"`
	Component   string `json:"component"`
	Mode        string `json:"mode"`
	Input       string `json:"input"`
	InputQuoted string `json:"inputQuoted"`
	Output      string `json:"output"`
	Section     string `json:"section"`
}

// DecodingCase is a case of the suite's decoding section.
type DecodingCase struct {
	ID           string  `json:"id"`
	Input        string  `json:"input"`
	InputQuoted  string  `json:"inputQuoted"`
	Form         bool    `json:"form"`
	Output       *string `json:"output"`
	OutputQuoted string  `json:"outputQuoted"`
	Error        string  `json:"error"`
	Offset       *int    `json:"offset"`
	Section      string  `json:"section"`
}

// BuildingCase is a case of the suite's building section: the raw
// components, and the reference or the error.
type BuildingCase struct {
	ID string `json:"id"`
	BuildInput
	Output *string `json:"output"`
	Error  *struct {
		Component string `json:"component"`
		Kind      string `json:"kind"`
	} `json:"error"`
	Section string `json:"section"`
}

// componentRules are the Appendix A rules a component's text must match.
var componentRules = map[string]string{
	"userinfo": "userinfo", "host": "reg-name", "segment": "segment", "first-segment": "segment-nz-nc",
	"query": "query", "fragment": "fragment", "query-part": "query",
}

// validFor says why text is not valid for a component ("" when it is): it
// must match the component's rule, and a query-part must hold no "&" or
// "=", which would split its pair ("+" is valid: the forms convention
// reads it as a space, which the round trip checks).
func validFor(component, text string) string {
	rule := componentRules[component]
	if err := rfc3986.Validate(rule, text); err != nil {
		return "not valid for " + rule
	}
	if component == "query-part" && strings.ContainsAny(text, "&=") {
		return "not valid for a key or value: an unencoded \"&\" or \"=\""
	}
	return ""
}

// decodeFor decodes a component's text as the suite's round trip reads
// it: RFC 3986 §2.1 decoding, but for a query-part, which is read under
// the forms convention its pairs come from ("+" is a space).
func decodeFor(component, text string) (string, error) {
	if component == "query-part" {
		return rfc3986.FormDecode(text)
	}
	return rfc3986.Decode(text)
}

// lenientDecode decodes the "%" and two hexadecimal digits of s and keeps
// every other byte: what an escape must decode to.
func lenientDecode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			v, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			b.WriteByte(byte(v))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// produced records what an implementation produced for a case that
// expects text: valid for the component or not, and whether it decodes
// back to the input.
func (t *Tally) produced(exact, valid, roundTrip bool) {
	t.Texts++
	if exact {
		t.Exact++
	}
	if valid {
		t.Valid++
	}
	if roundTrip {
		t.RoundTrip++
	}
}

// encoding judges one encoding case.
func encoding(a Adapter, c EncodingCase, t *Tally) (Outcome, string, bool) {
	var got string
	var err error
	if c.Mode == "escape" {
		es, ok := a.(Escaper)
		if !ok {
			return NA, "n/a", false
		}
		got, err = es.Escape(c.Component, c.Input)
	} else {
		e, ok := a.(Encoder)
		if !ok {
			return NA, "n/a", false
		}
		got, err = e.Encode(c.Component, c.Input)
	}
	switch {
	case errors.Is(err, ErrUnsupported):
		return NA, "n/a", false
	case err != nil:
		return Fail, "error: " + clip(err.Error()), false
	}
	why := validFor(c.Component, got)
	want := c.Input
	if c.Mode == "escape" {
		want = lenientDecode(c.Input)
	}
	d, derr := decodeFor(c.Component, got)
	roundTrip := derr == nil && d == want
	t.produced(got == c.Output, why == "", roundTrip)
	if got == c.Output {
		return Pass, strconv.Quote(got), false
	}
	return Fail, describe(got, why, roundTrip, d, derr), why != "" || !roundTrip
}

// describe says what is wrong with a text that is not the RFC's.
func describe(got, why string, roundTrip bool, decoded string, derr error) string {
	s := strconv.Quote(got)
	var notes []string
	if why != "" {
		notes = append(notes, why)
	} else {
		notes = append(notes, "valid")
	}
	switch {
	case derr != nil:
		notes = append(notes, "does not decode")
	case !roundTrip && decoded != "":
		notes = append(notes, "decodes to "+strconv.Quote(decoded))
	case !roundTrip:
		notes = append(notes, "decodes to something else")
	default:
		notes = append(notes, "round-trips")
	}
	return s + " (" + strings.Join(notes, "; ") + ")"
}

// decoding judges one decoding case.
func decoding(a Adapter, c DecodingCase) (Outcome, string) {
	d, ok := a.(Decoder)
	if !ok {
		return NA, "n/a"
	}
	got, err := d.Decode(c.Input, c.Form)
	switch {
	case errors.Is(err, ErrUnsupported):
		return NA, "n/a"
	case c.Error != "" && err == nil:
		return Fail, strconv.Quote(got)
	case c.Error != "":
		var de *DecodeError
		if errors.As(err, &de) {
			if c.Offset != nil && de.Offset != *c.Offset {
				return Fail, fmt.Sprintf("error at offset %d", de.Offset)
			}
			return Pass, fmt.Sprintf("error at offset %d", de.Offset)
		}
		return Pass, "error (" + clip(err.Error()) + ")"
	case err != nil:
		return Fail, "error: " + clip(err.Error())
	case got == *c.Output:
		return Pass, strconv.Quote(got)
	}
	return Fail, strconv.Quote(got)
}

// building judges one building case: an error where the RFC has none is
// a failure; text where the RFC has an error is one too, and the runner
// says whether that text is even a URI reference.
func building(a Adapter, c BuildingCase, t *Tally) (Outcome, string, bool) {
	bl, ok := a.(Builder)
	if !ok {
		return NA, "n/a", false
	}
	in := c.BuildInput
	got, err := bl.Build(in)
	switch {
	case errors.Is(err, ErrUnsupported):
		return NA, "n/a", false
	case err != nil && c.Error != nil:
		return Pass, "error (" + clip(err.Error()) + ")", false
	case err != nil:
		return Fail, "error: " + clip(err.Error()), false
	}
	why, diffs := builtDiffs(in, got)
	if c.Error != nil {
		if why == "" {
			why = "a URI reference"
		}
		if len(diffs) > 0 {
			why += "; " + strings.Join(diffs, "; ")
		}
		return Fail, strconv.Quote(got) + " (" + why + ")", true
	}
	t.produced(got == *c.Output, why == "", why == "" && len(diffs) == 0)
	if got == *c.Output {
		return Pass, strconv.Quote(got), false
	}
	var notes []string
	switch {
	case why != "":
		notes = append(notes, why)
	case len(diffs) > 0:
		notes = append(notes, "valid")
		notes = append(notes, diffs...)
	default:
		notes = append(notes, "valid", "round-trips")
	}
	return Fail, strconv.Quote(got) + " (" + strings.Join(notes, "; ") + ")", why != "" || len(diffs) > 0
}

// builtDiffs checks a built reference: why it is not a URI reference
// (""), and otherwise how its components, decoded, differ from the raw
// components given. The query's pairs are read under the forms
// convention ("+" is a space), in order; a relative-path reference's
// leading "./", §4.2's way to keep a ":" of the first segment, is not a
// segment given.
func builtDiffs(in BuildInput, got string) (string, []string) {
	u, err := rfc3986.Parse(got)
	if err != nil {
		return "not a URI reference", nil
	}
	var diffs []string
	show := func(p *string) string {
		if p == nil {
			return "undefined"
		}
		return strconv.Quote(*p)
	}
	view := func(defined bool, v string) *string {
		if !defined {
			return nil
		}
		return &v
	}
	cmp := func(what string, got, want *string) {
		if show(got) != show(want) {
			diffs = append(diffs, fmt.Sprintf("%s %s, not %s", what, show(got), show(want)))
		}
	}
	cmp("scheme", view(u.HasScheme(), u.Scheme()), in.Scheme)
	cmp("userinfo", view(u.HasUserinfo(), u.DecodedUserinfo()), in.Userinfo)
	switch {
	case in.Host == nil && u.HasAuthority():
		diffs = append(diffs, fmt.Sprintf("host %q, not undefined", u.DecodedHost()))
	case in.Host == nil:
	case !u.HasAuthority():
		diffs = append(diffs, fmt.Sprintf("host undefined, not %q", *in.Host))
	default:
		if want, err := netip.ParseAddr(*in.Host); err == nil {
			if a, ok := u.Addr(); !ok || a != want {
				diffs = append(diffs, fmt.Sprintf("host %q, not the address %s", u.Host(), want))
			}
		} else if strings.HasPrefix(*in.Host, "[") {
			cmp("host", view(true, u.Host()), in.Host)
		} else {
			cmp("host", view(true, u.DecodedHost()), in.Host)
		}
	}
	switch n, err := u.PortNumber(); {
	case in.Port == nil && u.HasPort():
		diffs = append(diffs, fmt.Sprintf("port %q, not undefined", u.Port()))
	case in.Port == nil:
	case err != nil || int(n) != *in.Port:
		diffs = append(diffs, fmt.Sprintf("port %q, not %d", u.Port(), *in.Port))
	}
	segs := u.PathSegments()
	if in.Path != nil && !in.Absolute && !u.HasScheme() && !u.HasAuthority() && strings.HasPrefix(u.Path(), "./") {
		segs = segs[1:]
	}
	want := in.Path
	if in.Absolute && len(want) == 0 {
		want = []string{""}
	}
	if !slices.Equal(segs, want) {
		diffs = append(diffs, fmt.Sprintf("segments %q, not %q", segs, want))
	}
	if abs := strings.HasPrefix(u.Path(), "/"); abs != (in.Path != nil && in.Absolute) {
		diffs = append(diffs, fmt.Sprintf("path %q: absolute %v", u.Path(), abs))
	}
	switch {
	case in.Query == nil && u.HasQuery():
		diffs = append(diffs, fmt.Sprintf("query %q, not undefined", u.Query()))
	case in.Query == nil:
	case !u.HasQuery():
		diffs = append(diffs, "query undefined")
	default:
		var got []Pair
		for _, p := range u.FormPairs() {
			got = append(got, Pair{p.Key, p.Value})
		}
		if !slices.Equal(got, in.Query) && !(len(got) == 0 && len(in.Query) == 0) {
			diffs = append(diffs, fmt.Sprintf("query pairs %v, not %v", got, in.Query))
		}
	}
	cmp("fragment", view(u.HasFragment(), u.DecodedFragment()), in.Fragment)
	return "", diffs
}

// String writes the raw components for the results: only those set.
func (in BuildInput) String() string {
	var parts []string
	if in.Scheme != nil {
		parts = append(parts, "scheme "+strconv.Quote(*in.Scheme))
	}
	if in.Userinfo != nil {
		parts = append(parts, "userinfo "+strconv.Quote(*in.Userinfo))
	}
	if in.Host != nil {
		parts = append(parts, "host "+strconv.Quote(*in.Host))
	}
	if in.Port != nil {
		parts = append(parts, "port "+strconv.Itoa(*in.Port))
	}
	if in.Path != nil {
		kind := "rootless"
		if in.Absolute {
			kind = "absolute"
		}
		parts = append(parts, fmt.Sprintf("%s path %q", kind, in.Path))
	}
	if in.Query != nil {
		var ps []string
		for _, p := range in.Query {
			ps = append(ps, strconv.Quote(p.Key)+"="+strconv.Quote(p.Value))
		}
		parts = append(parts, "query ["+strings.Join(ps, " ")+"]")
	}
	if in.Fragment != nil {
		parts = append(parts, "fragment "+strconv.Quote(*in.Fragment))
	}
	if len(parts) == 0 {
		return "(nothing)"
	}
	return strings.Join(parts, ", ")
}

package rfc3986

import (
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/resolve"
)

// The functions, types and constants below are those of package resolve,
// under the same names, with the same signatures and defaults (URI being
// this package's).

// ArgError is the error of resolution, normalization and comparison: the
// argument at fault ("base", "reference", "target", "a", "b"), or the
// "result", its text, and why; see [resolve.ArgError].
type ArgError = resolve.ArgError

// ErrNoScheme is wrapped in the [*ArgError] for a base (or a target of
// Relativize) without a scheme (§5.1).
var ErrNoScheme = resolve.ErrNoScheme

// ErrGrammars is wrapped in the [*ArgError] for a reference of another
// grammar than the base's, when neither holds the other (an IRI against a
// URI with a zone identifier).
var ErrGrammars = resolve.ErrGrammars

// Mode is how resolution reads a reference that has the base's scheme
// (§5.2.2); see [resolve.Mode].
type Mode = resolve.Mode

// Resolution modes.
const (
	Strict    = resolve.Strict    // the RFC's: a reference with a scheme is its own target
	NonStrict = resolve.NonStrict // §5.2.2's backward-compatible reading: "http:g" is relative to an http base
)

// Resolve resolves ref against base (RFC 3986 §5.2) in the given mode.
// base must have a scheme (§5.1); see package resolve for the one
// deviation from the letter of §5.2 (a "/." guard that keeps the result
// parsing as computed).
func Resolve(base, ref URI, mode Mode) (u URI, err error) {
	err = resolve.ResolveTo((*parser.URI)(&u), (*parser.URI)(&base), (*parser.URI)(&ref), mode)
	return u, err
}

// ResolveTo is Resolve in place, for loops over many references (a
// crawler's links): it writes the target to *dst, which it leaves alone on
// failure, and copies no URI (a URI is 64 bytes). base and ref may be dst.
func ResolveTo(dst, base, ref *URI, mode Mode) error {
	return resolve.ResolveTo((*parser.URI)(dst), (*parser.URI)(base), (*parser.URI)(ref), mode)
}

// ResolveString parses base and ref and resolves ref against base. Its
// errors say which argument failed, where and why.
func ResolveString(base, ref string, mode Mode) (string, error) {
	return resolve.ResolveString(base, ref, mode)
}

// Relativize returns the shortest reference that resolves against base to
// target, or target itself when none does (§5.2 in reverse).
func Relativize(base, target URI) (URI, error) {
	u, err := resolve.Relativize(parser.URI(base), parser.URI(target))
	return URI(u), err
}

// Merge is §5.2.3's merge of a relative-path reference's path with the
// base's path.
func Merge(base URI, refPath string) string { return resolve.Merge(parser.URI(base), refPath) }

// RemoveDotSegments is §5.2.4's remove_dot_segments.
func RemoveDotSegments(path string) string { return resolve.RemoveDotSegments(path) }

// Steps selects normalization steps; see [resolve.Steps].
type Steps = resolve.Steps

// Normalization steps (§6.2.2, §6.2.3, and RFC 5952 for IPv6, opt-in).
const (
	NormalizeCase          = resolve.NormalizeCase
	NormalizePercent       = resolve.NormalizePercent
	NormalizeDotSegments   = resolve.NormalizeDotSegments
	NormalizeSchemeBased   = resolve.NormalizeSchemeBased
	NormalizeIPv6Canonical = resolve.NormalizeIPv6Canonical
	NormalizeSyntax        = resolve.NormalizeSyntax  // §6.2.2: case, percent-encoding, dot segments
	NormalizeDefault       = resolve.NormalizeDefault // §6.2.2 and §6.2.3
)

// Scheme is what scheme-based normalization knows of a scheme: its default
// port, and whether an empty path means "/".
type Scheme = resolve.Scheme

// Schemes is an immutable table of [Scheme]s by name; see
// [resolve.Schemes].
type Schemes = resolve.Schemes

// DefaultSchemes returns the table Normalize uses: http, https, ws, wss and
// ftp.
func DefaultSchemes() Schemes { return resolve.DefaultSchemes() }

// NewSchemes returns a table of the schemes of m (copied).
func NewSchemes(m map[string]Scheme) Schemes { return resolve.NewSchemes(m) }

// Normalizer normalizes and compares URIs by its Steps, with its own
// Schemes table; see [resolve.Normalizer]. It is resolve.Normalizer as a
// type of this package, whose methods take this package's URIs: convert
// with resolve.Normalizer(n) and rfc3986.Normalizer(m).
type Normalizer resolve.Normalizer

// Normalize returns u normalized by n's steps (see [Normalize]).
func (n Normalizer) Normalize(u URI) (URI, error) {
	v, err := resolve.Normalizer(n).Normalize(parser.URI(u))
	return URI(v), err
}

// NormalizeString parses s and normalizes it by n's steps.
func (n Normalizer) NormalizeString(s string) (string, error) {
	return resolve.Normalizer(n).NormalizeString(s)
}

// Equal reports whether a and b have the same normal form by n's steps.
func (n Normalizer) Equal(a, b URI) bool {
	return resolve.Normalizer(n).Equal(parser.URI(a), parser.URI(b))
}

// EqualString parses a and b and compares them as Equal does; text that
// does not parse is an error naming the argument.
func (n Normalizer) EqualString(a, b string) (bool, error) {
	return resolve.Normalizer(n).EqualString(a, b)
}

// Explain normalizes u as Normalize does and lists every step that
// changed something.
func (n Normalizer) Explain(u URI) (URI, []NormalStep, error) {
	v, steps, err := resolve.Normalizer(n).Explain(parser.URI(u))
	return URI(v), steps, err
}

// Normalize applies the given normalization steps (NormalizeDefault:
// §6.2.2 syntax-based and §6.2.3 scheme-based, with [DefaultSchemes]). It
// is idempotent and its result parses back into the same components.
func Normalize(u URI, steps Steps) (URI, error) {
	v, err := resolve.Normalize(parser.URI(u), steps)
	return URI(v), err
}

// NormalizeString parses s and normalizes it by the given steps.
func NormalizeString(s string, steps Steps) (string, error) {
	return resolve.NormalizeString(s, steps)
}

// Level is a rung of the comparison ladder of §6.2; see [resolve.Level].
type Level = resolve.Level

// Comparison levels. The zero Level is CompareSimple.
const (
	CompareSimple = resolve.CompareSimple // §6.2.1, the text
	CompareSyntax = resolve.CompareSyntax // §6.2.2
	CompareScheme = resolve.CompareScheme // §6.2.3, with DefaultSchemes
)

// Equal reports whether a and b are equivalent at the given level of §6.2.
func Equal(a, b URI, level Level) bool { return resolve.Equal(parser.URI(a), parser.URI(b), level) }

// EqualString parses a and b and compares them at the given level. Text
// that does not parse is an error naming the argument, never a silent
// "not equivalent".
func EqualString(a, b string, level Level) (bool, error) { return resolve.EqualString(a, b, level) }

// Trace is one resolution written out as §5.2.2's pseudocode runs it; see
// [resolve.Trace].
type Trace = resolve.Trace

// TraceStep is one step of a [Trace]: the section, the pseudocode lines, T
// after it, and the merge (§5.2.3) or remove_dot_segments table (§5.2.4)
// it ran.
type TraceStep = resolve.TraceStep

// MergeTrace is one §5.2.3 merge of a [Trace].
type MergeTrace = resolve.MergeTrace

// DotStep is one row of §5.2.4's remove_dot_segments table.
type DotStep = resolve.DotStep

// NormalStep is one change normalization made: step, section, component,
// before and after; see [resolve.NormalStep].
type NormalStep = resolve.NormalStep

// TraceResolve resolves ref against base as [Resolve] does and returns
// each step of §5.2.2 with T after it; paths longer than
// [resolve.MaxTraceLength] together are an error (a trace's size grows
// with the square of the path's length).
func TraceResolve(base, ref URI, mode Mode) (Trace, error) {
	return resolve.TraceResolve(parser.URI(base), parser.URI(ref), mode)
}

// RemoveDotSegmentsTrace is §5.2.4's remove_dot_segments with its table of
// steps.
func RemoveDotSegmentsTrace(path string) (string, []DotStep) {
	return resolve.RemoveDotSegmentsTrace(path)
}

// ExplainNormalize normalizes u as [Normalize] does and lists every step of
// §6.2.2 and §6.2.3 that changed something, with before and after.
func ExplainNormalize(u URI, steps Steps) (URI, []NormalStep, error) {
	v, steps2, err := resolve.ExplainNormalize(parser.URI(u), steps)
	return URI(v), steps2, err
}

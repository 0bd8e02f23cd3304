package rfc3986

import "github.com/peguri/rfc3986/resolve"

// Resolve resolves ref against base (RFC 3986 §5.2), strictly: a ref with
// its own scheme is its own target. base must have a scheme (§5.1); see
// package resolve for the one deviation from the letter of §5.2 (a "/."
// guard that keeps the result parsing as computed).
func Resolve(base, ref URI) (URI, error) { return resolve.Reference(base, ref) }

// ResolveNonStrict resolves ref against base as §5.2.2's backward-compatible
// parsers do: a ref whose scheme is the base's is treated as relative
// ("http:g" against "http://a/b/c/d;p?q" gives "http://a/b/c/g").
func ResolveNonStrict(base, ref URI) (URI, error) { return resolve.ReferenceNonStrict(base, ref) }

// ResolveString parses base and ref and resolves ref against base (strict
// unless strict is false). Its errors say which argument failed, where and
// why.
func ResolveString(base, ref string, strict bool) (string, error) {
	return resolve.String(base, ref, strict)
}

// Relativize returns the shortest reference that resolves against base to
// target, or target itself when none does (§5.2 in reverse).
func Relativize(base, target URI) (URI, error) { return resolve.Relativize(base, target) }

// RemoveDotSegments is §5.2.4's remove_dot_segments.
func RemoveDotSegments(path string) string { return resolve.RemoveDotSegments(path) }

// Steps selects normalization steps; see package resolve.
type Steps = resolve.Steps

// Normalization steps (§6.2.2, §6.2.3, and RFC 5952 for IPv6, opt-in).
const (
	NormalizeCase          = resolve.Case
	NormalizePercent       = resolve.Percent
	NormalizeDotSegments   = resolve.DotSegments
	NormalizeSchemeBased   = resolve.SchemeBased
	NormalizeIPv6Canonical = resolve.IPv6Canonical
	NormalizeSyntax        = resolve.Syntax  // §6.2.2: case, percent-encoding, dot segments
	NormalizeDefault       = resolve.Default // §6.2.2 and §6.2.3
)

// Normalize applies the given normalization steps, NormalizeDefault if none
// are given (§6.2.2 syntax-based and §6.2.3 scheme-based). It is idempotent
// and its result parses back into the same components.
func Normalize(u URI, steps ...Steps) (URI, error) {
	s := resolve.Steps(0)
	for _, x := range steps {
		s |= x
	}
	if len(steps) == 0 {
		s = resolve.Default
	}
	return resolve.Normalize(u, s)
}

// Level is a rung of the comparison ladder of §6.2.
type Level = resolve.Level

// Comparison levels.
const (
	CompareSimple = resolve.LevelSimple // §6.2.1, the text
	CompareSyntax = resolve.LevelSyntax // §6.2.2
	CompareScheme = resolve.LevelScheme // §6.2.3, the default
)

// Equal reports whether a and b are equivalent after syntax- and
// scheme-based normalization (§6.2.2, §6.2.3), or at the given level.
func Equal(a, b URI, level ...Level) bool {
	l := resolve.LevelScheme
	if len(level) > 0 {
		l = level[0]
	}
	return resolve.Equal(a, b, l)
}

package resolve

import (
	"strconv"

	"github.com/peguri/rfc3986/parser"
)

// Level is a rung of the comparison ladder of RFC 3986 §6.2: how much
// normalization [Equal] does before it compares. Each level finds at least
// the equivalences of the one below ("comparison methods are designed to
// minimize false negatives while strictly avoiding false positives",
// §6.1). The zero Level is CompareSimple, the one that can give no false
// positive.
type Level int

const (
	// CompareSimple is simple string comparison (§6.2.1).
	CompareSimple Level = iota
	// CompareSyntax compares after syntax-based normalization (§6.2.2):
	// the [NormalizeSyntax] steps.
	CompareSyntax
	// CompareScheme compares after syntax-based and scheme-based
	// normalization (§6.2.3): the [NormalizeDefault] steps, with
	// [DefaultSchemes].
	CompareScheme
)

// String returns the level's name: "CompareSimple", "CompareSyntax" or
// "CompareScheme"; "Level(N)" for another value.
func (l Level) String() string {
	switch l {
	case CompareSimple:
		return "CompareSimple"
	case CompareSyntax:
		return "CompareSyntax"
	case CompareScheme:
		return "CompareScheme"
	}
	return "Level(" + strconv.Itoa(int(l)) + ")"
}

// normalizer is the Normalizer whose Equal compares at level l; an
// unknown level compares as CompareSimple.
func (l Level) normalizer() Normalizer {
	switch l {
	case CompareSyntax:
		return Normalizer{Steps: NormalizeSyntax, Schemes: defaultSchemes}
	case CompareScheme:
		return Normalizer{Steps: NormalizeDefault, Schemes: defaultSchemes}
	}
	return Normalizer{}
}

// Equal reports whether a and b have the same normal form under n: the
// comparison of §6.2 after n's steps. It is reflexive and symmetric. A URI
// whose normal form is longer than [parser.MaxLength] is equal only to
// itself.
//
// Equal compares whatever it is given; §6.1 advises that "applications
// should not directly compare relative references; the references should
// be converted to their respective target URIs before comparison" (with
// [Resolve]), and that fragments be left out of comparisons made to
// select a network action, which is the caller's to do.
//
// It compares texts, not parser.URI values: a URI records the grammar it
// was parsed with (an IRI, a zone, or a target resolved against such a
// base), and "http://a/b" is the same URI whichever grammar read it. The
// components of a reference follow from its text (§3), so the same text
// is the same URI (§6.2.1).
func (n Normalizer) Equal(a, b parser.URI) bool {
	if a.String() == b.String() {
		// Equivalent at every level (parser.URI is lossless).
		return true
	}
	na, err := n.Normalize(a)
	if err != nil {
		return false
	}
	nb, err := n.Normalize(b)
	if err != nil {
		return false
	}
	return na.String() == nb.String()
}

// EqualString parses a and b as URI-references (§4.1) and compares them
// as [Normalizer.Equal] does. Text that does not parse is an [*ArgError]
// with Arg "a" or "b" wrapping the [*parser.Error]: an error, never a
// silent "not equivalent".
func (n Normalizer) EqualString(a, b string) (bool, error) {
	ua, err := parser.ParseReference(a)
	if err != nil {
		return false, &ArgError{Arg: "a", Input: a, Err: err}
	}
	ub, err := parser.ParseReference(b)
	if err != nil {
		return false, &ArgError{Arg: "b", Input: b, Err: err}
	}
	return n.Equal(ua, ub), nil
}

// Equal reports whether a and b are equivalent at the given level of the
// comparison ladder (§6.2); see [Normalizer.Equal]. An unknown level
// compares as [CompareSimple].
func Equal(a, b parser.URI, level Level) bool { return level.normalizer().Equal(a, b) }

// EqualString parses a and b and compares them at the given level; see
// [Normalizer.EqualString].
func EqualString(a, b string, level Level) (bool, error) {
	return level.normalizer().EqualString(a, b)
}

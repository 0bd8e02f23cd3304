package resolve

import (
	"strconv"

	"github.com/peguri/rfc3986/parser"
)

// Level is a rung of the comparison ladder of RFC 3986 §6.2: how much
// normalization [Equal] does before it compares. Each level finds at least
// the equivalences of the one below ("comparison methods are designed to
// minimize false negatives while strictly avoiding false positives",
// §6.1).
type Level int

const (
	// LevelSimple is simple string comparison (§6.2.1).
	LevelSimple Level = iota
	// LevelSyntax compares after syntax-based normalization (§6.2.2): the
	// [Syntax] steps.
	LevelSyntax
	// LevelScheme compares after syntax-based and scheme-based
	// normalization (§6.2.3): the [Default] steps.
	LevelScheme
)

// String returns the level's name: "LevelSimple", "LevelSyntax" or
// "LevelScheme".
func (l Level) String() string {
	switch l {
	case LevelSimple:
		return "LevelSimple"
	case LevelSyntax:
		return "LevelSyntax"
	case LevelScheme:
		return "LevelScheme"
	}
	return "Level(" + strconv.Itoa(int(l)) + ")"
}

// Equal reports whether a and b are equivalent at the given level of the
// comparison ladder (§6.2). It is reflexive and symmetric. An unknown level
// compares as [LevelSimple], the one that can give no false positive.
//
// Equal compares whatever it is given; §6.1 advises that "applications
// should not directly compare relative references; the references should
// be converted to their respective target URIs before comparison" (with
// [Reference]), and that fragments be left out of comparisons made to
// select a network action, which is the caller's to do.
func Equal(a, b parser.URI, level Level) bool {
	if a == b {
		// The same components are the same text (§6.2.1; parser.URI is
		// lossless), and equivalent at every level.
		return true
	}
	var steps Steps
	switch level {
	case LevelSyntax:
		steps = Syntax
	case LevelScheme:
		steps = Default
	default:
		return false
	}
	na, err := Normalize(a, steps)
	if err != nil {
		return false
	}
	nb, err := Normalize(b, steps)
	if err != nil {
		return false
	}
	return na == nb
}

// EqualString parses a and b as URI-references (§4.1) and compares them as
// [Equal] does. Text that does not parse is an [*Error] with Arg "a" or
// "b" wrapping the [*parser.Error].
func EqualString(a, b string, level Level) (bool, error) {
	ua, err := parser.ParseReference(a)
	if err != nil {
		return false, &Error{Arg: "a", Input: a, Err: err}
	}
	ub, err := parser.ParseReference(b)
	if err != nil {
		return false, &Error{Arg: "b", Input: b, Err: err}
	}
	return Equal(ua, ub, level), nil
}

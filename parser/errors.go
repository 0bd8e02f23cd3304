package parser

import "errors"

// The kinds of failure that are not a mismatch of the grammar. Test for
// them with errors.Is; an [*Error] whose Err is one of them says where
// (Offset) and why (Msg).
var (
	// ErrUnknownRule: the syntax has no rule of that name, or the rule
	// does not parse into a URI (for Parse and ParseTree). Rules lists
	// the names a syntax has.
	ErrUnknownRule = errors.New("unknown rule")
	// ErrTooLong: the input is longer than MaxLength, or, for a rule
	// without a DFA and for ParsePEG (the pigeon parser, whatever the
	// rule), longer than MaxTreeLength. It is not parsed.
	ErrTooLong = errors.New("input too long")
	// ErrTooLongForTree: the input is valid, but longer than
	// MaxTreeLength, so ParseRule and ParseTree build no parse tree for
	// it. Parse and Validate take it.
	ErrTooLongForTree = errors.New("valid, too long for a parse tree")
	// ErrUndefinedComponent: FromParts was given a component that its
	// flags say is undefined (a Host without HasAuthority, a Port without
	// HasPort, …). Nothing is dropped silently.
	ErrUndefinedComponent = errors.New("component set but undefined")
)

// ruleError is the error for a rule name that a syntax does not have, or
// that is not one of its URI rules; it wraps ErrUnknownRule.
type ruleError struct{ msg string }

func (e *ruleError) Error() string { return e.msg }
func (e *ruleError) Unwrap() error { return ErrUnknownRule }

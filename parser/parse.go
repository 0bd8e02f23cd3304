package parser

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Limits on hostile input. Validation and splitting (the DFA fast path)
// are linear in the input and allocate nothing, so they take long inputs.
// The pigeon parser, which builds parse trees and explains errors, is an
// interpreter that allocates per matched terminal: about 650 bytes per
// input byte for a path of slashes, its worst shape. Its input is capped,
// and its work per parse is bounded too. TestHostileInput logs what each
// hostile shape costs at these limits and checks that the cost grows
// linearly.
const (
	// MaxLength is the longest input, in bytes, any entry point takes:
	// 16 MiB. Longer input is an error at offset MaxLength, wrapping
	// ErrTooLong, without parsing.
	MaxLength = 16 << 20
	// MaxTreeLength is the longest input ParseRule takes: 64 KiB, eight
	// times the URL limit of common servers. Measured worst case at the
	// cap: about 25 ms of parsing (50 ms with garbage collection) and
	// 43 MB. A longer input gets no tree; its error, from the DFA alone,
	// says whether it is valid (ErrTooLongForTree) or where it is not
	// (the exact offset, and the bytes that would have been accepted
	// there).
	MaxTreeLength = 64 << 10
	// exprPerByte and exprBase bound the expressions pigeon may evaluate
	// (MaxExpressions). Measured by TestExpressionBudget on 2,000 samples
	// and near-misses of every rule and on the hostile shapes: a parse
	// needs at most 119 expressions for the empty input, up to 22 per byte
	// for short inputs (which the base covers), and 13 per byte for a long
	// path of slashes. The bound is ten times that, or more, and only
	// stops pathological work; the test checks it.
	exprPerByte = 150
	exprBase    = 10000
)

// The four functions below go straight to the machine of their rule: 0 to
// 3 are the indices of URI-reference, URI, absolute-URI and relative-ref in
// AppendixANames().URIRules.

// ParseReference parses s as a URI-reference (RFC 3986 §4.1): a URI or a
// relative reference.
func ParseReference(s string) (u URI, err error) {
	err = rfc3986.parseURI(&u, 0, s)
	return u, err
}

// ParseURI parses s as a URI (§3): a scheme is required, a fragment allowed.
func ParseURI(s string) (u URI, err error) {
	err = rfc3986.parseURI(&u, 1, s)
	return u, err
}

// ParseAbsolute parses s as an absolute-URI (§4.3): a scheme and no
// fragment, the form a base URI must have (§5.1).
func ParseAbsolute(s string) (u URI, err error) {
	err = rfc3986.parseURI(&u, 2, s)
	return u, err
}

// ParseRelative parses s as a relative-ref (§4.2): no scheme.
func ParseRelative(s string) (u URI, err error) {
	err = rfc3986.parseURI(&u, 3, s)
	return u, err
}

// URIRules returns the start rules of RFC 3986 that parse into a [URI]:
// URI-reference, URI, absolute-URI, relative-ref.
func URIRules() []string { return rfc3986.URIRules() }

// ParseAs parses s as one of the [URIRules].
func ParseAs(rule, s string) (URI, error) { return rfc3986.Parse(rule, s) }

// ParseTree parses s as one of the [URIRules] with the pigeon parser alone;
// see [Syntax.ParseTree].
func ParseTree(rule, s string) (URI, *Node, error) { return rfc3986.ParseTree(rule, s) }

// Validate reports whether the whole of s matches the named rule of
// Appendix A; see [Syntax.Validate].
func Validate(rule, s string) error { return rfc3986.Validate(rule, s) }

// Rules returns the names of the rules ParseRule accepts: every rule of
// Appendix A, core rules included, sorted.
func Rules() []string { return rfc3986.Rules() }

// ParseRule parses the whole of s as the named rule of RFC 3986 Appendix A
// (names compare case-insensitively, as in ABNF) and returns its parse tree:
// the captured rules with their spans. Every rule except pchar and the
// single-character rules (ALPHA, DIGIT, HEXDIG, unreserved, sub-delims,
// gen-delims, reserved) is captured.
func ParseRule(rule, s string) (*Node, error) { return rfc3986.ParseRule(rule, s) }

// Error is a parse error: the input, the rule it was parsed as, the byte
// offset where parsing could go no further, and what would have been
// accepted there. Err says which kind of failure it is when it is not a
// mismatch ([ErrTooLong], [ErrTooLongForTree]); errors.Is sees it.
//
// Its methods take any value, including one built by hand with an offset
// outside the input: they never panic.
type Error struct {
	Input    string
	Offset   int      // byte offset in Input
	Rule     string   // the start rule, by its ABNF name
	Expected []string // terminals that would have been accepted at Offset; "EOF" is the end of input
	Msg      string   // the reason, when it is not a mismatch (invalid UTF-8, limits)
	Err      error    // the kind of failure, when it is not a mismatch; nil otherwise
}

// Error formats the error on one line, netip style:
//
//	parse "http://a b/" as URI-reference: unexpected " " at offset 8; expected ...
func (e *Error) Error() string {
	return fmt.Sprintf("parse %q as %s: %s", clip(e.Input), e.Rule, e.Reason())
}

// Unwrap returns e.Err.
func (e *Error) Unwrap() error { return e.Err }

// Reason is the error without the input and rule: what went wrong where,
// and what was expected.
func (e *Error) Reason() string {
	var b strings.Builder
	switch {
	case e.Msg != "" && e.Err != nil:
		b.WriteString(e.Msg) // a limit: the message says it all
	case e.Msg != "":
		fmt.Fprintf(&b, "%s at offset %d", e.Msg, e.Offset)
	case e.Offset < 0 || e.Offset > len(e.Input):
		fmt.Fprintf(&b, "failure at offset %d, outside the %d-byte input", e.Offset, len(e.Input))
	case e.Offset == len(e.Input):
		fmt.Fprintf(&b, "unexpected end of input at offset %d", e.Offset)
	default:
		fmt.Fprintf(&b, "unexpected %s at offset %d", charAt(e.Input, e.Offset), e.Offset)
	}
	if len(e.Expected) > 0 {
		b.WriteString("; expected ")
		for i, x := range e.Expected {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(compactClass(x))
		}
	}
	return b.String()
}

// compactClass shortens, for messages, a character class with ranges above
// U+007F (RFC 3987's ucschar is 17 of them): the ASCII part, then
// "…non-ASCII". Error.Expected keeps the whole class.
func compactClass(x string) string {
	if len(x) <= 60 || x[0] != '[' {
		return x
	}
	for i := 1; i+2 < len(x); i++ {
		if x[i] != '\\' {
			continue
		}
		switch c := x[i+1]; {
		case c == 'u' || c == 'U', c == 'x' && x[i+2] >= '8':
			return x[:i] + "…non-ASCII]"
		default:
			i++ // an escaped character: skip it
		}
	}
	return x
}

// Caret renders the error for people: the input on one line (at most 40
// bytes on each side of the offset, control and non-ASCII bytes escaped), a
// caret under the failing byte, and the message.
func (e *Error) Caret() string {
	in := e.Input
	off := min(max(e.Offset, 0), len(in))
	// A window of the input around the offset: long inputs are cut, with
	// "..." where they are.
	start, end := max(off-caretContext, 0), min(off+caretContext, len(in))
	var line, under strings.Builder
	if start > 0 {
		line.WriteString("...")
		under.WriteString("   ")
	}
	// Show control and non-ASCII bytes escaped, keeping the caret aligned.
	for i := start; i < end; i++ {
		c := in[i]
		var s string
		if c >= 0x20 && c < 0x7f {
			s = string(c)
		} else {
			s = fmt.Sprintf(`\x%02x`, c)
		}
		line.WriteString(s)
		if i < off {
			under.WriteString(strings.Repeat(" ", len(s)))
		}
	}
	if end < len(in) {
		line.WriteString("...")
	}
	return fmt.Sprintf("%s\n%s^\n%s", line.String(), under.String(), e.Error())
}

// caretContext is how many bytes of the input Caret shows on each side of
// the offset.
const caretContext = 40

func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

func charAt(s string, off int) string {
	c := s[off]
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("%q", string(c))
	}
	if r, n := utf8.DecodeRuneInString(s[off:]); r >= 0x80 && n > 1 {
		return fmt.Sprintf("%q (U+%04X, bytes % X)", string(r), r, s[off:off+n])
	}
	return fmt.Sprintf("byte 0x%02X", c)
}

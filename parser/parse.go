package parser

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Limits on hostile input. Validation and splitting (the DFA fast path)
// are linear in the input and allocate nothing, so they take long inputs.
// The pigeon parser, which builds parse trees and explains errors, is an
// interpreter that allocates per matched terminal: measured, a 1 MiB path of
// slashes costs it 1.5 s and 655 MB. Its input is capped, and its work per
// parse is bounded too.
const (
	// MaxLength is the longest input, in bytes, any entry point takes:
	// 16 MiB. Longer input is an error at offset MaxLength, without parsing.
	MaxLength = 16 << 20
	// MaxTreeLength is the longest input ParseRule takes: 64 KiB, eight
	// times the URL limit of common servers. Measured worst case at the cap:
	// about 0.1 s and 40 MB (TestHostileInput). An invalid input longer than
	// this gets its error from the DFA alone: the exact offset, and the
	// bytes that would have been accepted there.
	MaxTreeLength = 64 << 10
	// exprPerByte and exprBase bound the expressions pigeon may evaluate
	// (MaxExpressions). Measured on 2,000 samples and near-misses, a parse
	// costs 3 to 10 expressions per byte, 58 at most for the empty input
	// (TestExpressionBudget): the bound is ten times that and only stops
	// pathological work.
	exprPerByte = 100
	exprBase    = 10000
)

// ParseReference parses s as a URI-reference (RFC 3986 §4.1): a URI or a
// relative reference.
func ParseReference(s string) (URI, error) { return parseURI("URI-reference", s) }

// ParseURI parses s as a URI (§3): a scheme is required, a fragment allowed.
func ParseURI(s string) (URI, error) { return parseURI("URI", s) }

// ParseAbsolute parses s as an absolute-URI (§4.3): a scheme and no
// fragment, the form a base URI must have (§5.1).
func ParseAbsolute(s string) (URI, error) { return parseURI("absolute-URI", s) }

// ParseRelative parses s as a relative-ref (§4.2): no scheme.
func ParseRelative(s string) (URI, error) { return parseURI("relative-ref", s) }

// URIRules are the start rules that parse into a [URI].
var URIRules = []string{"URI-reference", "URI", "absolute-URI", "relative-ref"}

// ParseAs parses s as one of the [URIRules].
func ParseAs(rule, s string) (URI, error) {
	if !slices.Contains(URIRules, rule) {
		return URI{}, fmt.Errorf("parser: %s is not one of the URI rules (%s)", rule, strings.Join(URIRules, ", "))
	}
	return parseURI(rule, s)
}

func parseURI(rule, s string) (URI, error) {
	if len(s) > MaxLength {
		return URI{}, tooLong(rule, s, MaxLength)
	}
	var d *dfa
	switch rule {
	case "URI-reference":
		d = dfaReference()
	case "URI":
		d = dfaURI()
	case "absolute-URI":
		d = dfaAbsolute()
	default:
		d = dfaRelative()
	}
	if ok, fail := d.run(s); !ok {
		return URI{}, explain(rule, s, d, fail)
	}
	return split(s), nil
}

// ParseTree parses s as one of the URIRules with the pigeon parser alone,
// and returns the typed URI built from the parse tree, with the tree. It is
// the reference path, kept public for grammar work: the fast entry points
// give the same URI (the tests check it on a million inputs) at a fraction
// of the cost.
func ParseTree(rule, s string) (URI, *Node, error) {
	if !slices.Contains(URIRules, rule) {
		return URI{}, nil, fmt.Errorf("parser: %s is not one of the URI rules (%s)", rule, strings.Join(URIRules, ", "))
	}
	n, err := ParseRule(rule, s)
	if err != nil {
		return URI{}, nil, err
	}
	return fromTree(s, n), n, nil
}

// Validate reports whether the whole of s matches the named rule, with an
// *Error saying where it does not. It decides with the rule's DFA, so it
// allocates nothing for valid input; errors come from the pigeon parser.
func Validate(rule, s string) error {
	name, _, ok := entrypoint(rule)
	if !ok {
		return fmt.Errorf("parser: no rule %q in the grammar", rule)
	}
	if len(s) > MaxLength {
		return tooLong(name, s, MaxLength)
	}
	get, ok := dfas[name]
	if !ok {
		_, err := ParseRule(name, s)
		return err
	}
	d := get()
	if ok, fail := d.run(s); !ok {
		return explain(name, s, d, fail)
	}
	return nil
}

func tooLong(rule, s string, max int) *Error {
	return &Error{Input: s, Offset: max, Rule: rule,
		Msg: fmt.Sprintf("input is %d bytes, longer than the %d the parser takes", len(s), max)}
}

// explain builds the error for an input the DFA rejected at offset fail:
// pigeon's, which names what was expected, when the input is short enough
// for it; the DFA's own otherwise (or should pigeon disagree, which the
// tests show it does not).
func explain(rule, s string, d *dfa, fail int) *Error {
	if len(s) <= MaxTreeLength {
		if _, err := ParseRule(rule, s); err != nil {
			if pe, ok := err.(*Error); ok {
				return pe
			}
		}
	}
	e := &Error{Input: s, Offset: fail, Rule: rule, Expected: d.expected(s, fail)}
	if fail < len(s) && s[fail] >= 0x80 {
		if _, err := utf8Valid(s[fail:]); err {
			e.Msg = "invalid UTF-8"
		}
	}
	return e
}

// utf8Valid reports whether the sequence at the start of s is invalid UTF-8.
func utf8Valid(s string) (rune, bool) {
	r, w := utf8.DecodeRuneInString(s)
	return r, r == utf8.RuneError && w <= 1
}

// Rules returns the names of the rules ParseRule accepts: every rule of
// the grammar, core rules included, sorted.
func Rules() []string {
	rules := make([]string, 0, len(Entrypoints))
	for r := range Entrypoints {
		rules = append(rules, r)
	}
	slices.Sort(rules)
	return rules
}

// ParseRule parses the whole of s as the named rule of RFC 3986 Appendix A
// (names compare case-insensitively, as in ABNF) and returns its parse tree:
// the captured rules with their spans. Every rule except pchar and the
// single-character rules (ALPHA, DIGIT, HEXDIG, unreserved, sub-delims,
// gen-delims, reserved) is captured.
func ParseRule(rule, s string) (*Node, error) {
	name, entry, ok := entrypoint(rule)
	if !ok {
		return nil, fmt.Errorf("parser: no rule %q in the grammar", rule)
	}
	if len(s) > MaxTreeLength {
		return nil, tooLong(name, s, MaxTreeLength)
	}
	v, err := Parse("", []byte(s), Entrypoint(entry), MaxExpressions(uint64(exprBase+exprPerByte*len(s))))
	if err != nil {
		return nil, newError(s, name, err)
	}
	if n, ok := v.(*Node); ok {
		return n, nil
	}
	// A rule that is not captured (a character class): its node is its span.
	return &Node{Rule: name, Start: 0, End: len(s)}, nil
}

func entrypoint(rule string) (name, entry string, ok bool) {
	if e, ok := Entrypoints[rule]; ok {
		return rule, e, true
	}
	for r, e := range Entrypoints {
		if strings.EqualFold(r, rule) {
			return r, e, true
		}
	}
	return "", "", false
}

// fromTree builds the typed URI from the parse tree of a URI-level rule.
func fromTree(s string, root *Node) URI {
	var u URI
	text := func(n *Node) string { return s[n.Start:n.End] }
	var walk func(*Node)
	walk = func(n *Node) {
		switch n.Rule {
		case "scheme":
			u.scheme, u.flags = text(n), u.flags|hasScheme
			return
		case "authority":
			u.flags |= hasAuthority
		case "userinfo":
			u.userinfo, u.flags = text(n), u.flags|hasUserinfo
			return
		case "host":
			u.host, u.hostKind = text(n), hostKind(n)
			return
		case "port":
			u.port, u.flags = text(n), u.flags|hasPort
			return
		case "path-abempty", "path-absolute", "path-noscheme", "path-rootless", "path-empty":
			u.path = text(n)
			return
		case "query":
			u.query, u.flags = text(n), u.flags|hasQuery
			return
		case "fragment":
			u.fragment, u.flags = text(n), u.flags|hasFragment
			return
		}
		for _, k := range n.Kids {
			walk(k)
		}
	}
	walk(root)
	return u
}

// hostKind reads the kind of a host node from the alternative it matched;
// the translation keeps the RFC's order, so IPv4address is taken before
// reg-name, as §3.2.2 requires.
func hostKind(host *Node) HostKind {
	for _, k := range host.Kids {
		switch k.Rule {
		case "IPv4address":
			return HostIPv4
		case "reg-name":
			return HostRegName
		case "IP-literal":
			for _, l := range k.Kids {
				switch l.Rule {
				case "IPv6address":
					return HostIPv6
				case "IPvFuture":
					return HostIPvFuture
				}
			}
		}
	}
	return HostRegName // the empty host has no reg-name node of its own
}

// Error is a parse error: the input, the rule it was parsed as, the byte
// offset where parsing could go no further, and what would have been
// accepted there.
type Error struct {
	Input    string
	Offset   int      // byte offset in Input
	Rule     string   // the start rule, by its ABNF name
	Expected []string // terminals that would have been accepted at Offset; "EOF" is the end of input
	Msg      string   // the reason, when it is not a mismatch (invalid UTF-8, limits)
}

// Error formats the error on one line, netip style:
//
//	parse "http://a b/" as URI-reference: unexpected " " at offset 8; expected ...
func (e *Error) Error() string {
	return fmt.Sprintf("parse %q as %s: %s", clip(e.Input), e.Rule, e.Reason())
}

// Reason is the error without the input and rule: what went wrong where,
// and what was expected.
func (e *Error) Reason() string {
	var b strings.Builder
	switch {
	case e.Msg != "":
		fmt.Fprintf(&b, "%s at offset %d", e.Msg, e.Offset)
	case e.Offset >= len(e.Input):
		fmt.Fprintf(&b, "unexpected end of input at offset %d", e.Offset)
	default:
		fmt.Fprintf(&b, "unexpected %s at offset %d", charAt(e.Input, e.Offset), e.Offset)
	}
	if len(e.Expected) > 0 {
		fmt.Fprintf(&b, "; expected %s", strings.Join(e.Expected, ", "))
	}
	return b.String()
}

// Caret renders the error for people: the input on one line, a caret under
// the failing byte, and the message.
func (e *Error) Caret() string {
	in := e.Input
	off := e.Offset
	// Show control and non-ASCII bytes escaped, keeping the caret aligned.
	var line, under strings.Builder
	for i := 0; i < len(in) && i < off+40; i++ {
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
	return fmt.Sprintf("%s\n%s^\n%s", line.String(), under.String(), e.Error())
}

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
	return fmt.Sprintf("byte 0x%02X", c)
}

// newError turns pigeon's error list into an *Error.
func newError(s, rule string, err error) *Error {
	e := &Error{Input: s, Rule: rule}
	var list errList
	if !errors.As(err, &list) || len(list) == 0 {
		e.Msg = err.Error()
		return e
	}
	// Prefer the reasons that are not mismatches: they explain the others.
	for _, x := range list {
		var pe *parserError
		if !errors.As(x, &pe) {
			continue
		}
		switch {
		case errors.Is(pe.Inner, errInvalidEncoding):
			e.Offset, e.Msg = pe.pos.offset, "invalid UTF-8"
			return e
		case errors.Is(pe.Inner, errMaxExprCnt):
			e.Offset, e.Msg = pe.pos.offset, "parse abandoned: too much work for the input's length"
			return e
		}
	}
	var pe *parserError
	if errors.As(list[0], &pe) {
		e.Offset = pe.pos.offset
		e.Expected = pe.expected
		return e
	}
	e.Msg = list[0].Error()
	return e
}

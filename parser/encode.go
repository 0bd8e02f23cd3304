package parser

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/peguri/rfc3986/syntax"
)

// Producing URIs: percent-encoding (RFC 3986 §2.1) happens "during the
// process of producing the URI from its component parts" (§2.4), with the
// characters each component allows unencoded. Those sets are not typed
// here: gen dfa derives them from the grammar (a rule's charset: see
// syntax.Charset) and writes them into the generated tables, so that a
// grammar's encoders are its own — RFC 3987's segments keep ucschar, its
// queries iprivate too.

// Component is a part of a URI reference that text is encoded for: each
// has the charset of one rule of the grammar (Names says which).
type Component uint8

// The components. The names in parentheses are RFC 3986's rules; RFC 3987
// has its "i" rules (isegment, iquery…).
const (
	// Userinfo (userinfo): unreserved, sub-delims, ":".
	Userinfo Component = iota + 1
	// Host is a registered name (reg-name): unreserved, sub-delims.
	Host
	// Segment is one segment of a path (segment): pchar, which is
	// unreserved, sub-delims, ":" and "@"; "/" is encoded.
	Segment
	// FirstSegment is the first segment of a relative-path reference
	// (segment-nz-nc): a segment without ":", which would read as a
	// scheme's end (§4.2).
	FirstSegment
	// Query (query): pchar, "/" and "?".
	Query
	// Fragment (fragment): pchar, "/" and "?".
	Fragment
	// QueryPart is a key or a value of a query of "key=value" pairs
	// joined with "&" (the convention of HTML forms and most servers,
	// which RFC 3986 leaves to schemes, §3.4): the query's characters but
	// "&", "=" and "+", which the convention reads as delimiters or as a
	// space.
	QueryPart
)

var componentNames = [...]string{"", "userinfo", "host", "segment", "first-segment", "query", "fragment", "query-part"}

// String returns the component's name: "userinfo", "host", "segment",
// "first-segment", "query", "fragment", "query-part" (the uri command's
// -component takes them).
func (c Component) String() string {
	if int(c) < len(componentNames) && c > 0 {
		return componentNames[c]
	}
	return "Component(" + strconv.Itoa(int(c)) + ")"
}

// ParseComponent returns the component of a name String returns.
func ParseComponent(name string) (Component, error) {
	for i, n := range componentNames {
		if i > 0 && n == name {
			return Component(i), nil
		}
	}
	return 0, fmt.Errorf("parser: no component %q (have userinfo, host, segment, first-segment, query, fragment, query-part)", name)
}

// encoder is a component's charset prepared for encoding: a byte table of
// the single bytes kept (ASCII characters, or all bytes in a grammar of
// octets), and the charset for characters of several bytes, when it has
// any.
type encoder struct {
	keep  [256]bool
	cs    *syntax.Charset
	wide  bool            // some character from U+0080 on is kept: UTF-8 must be read
	avoid func(rune) bool // Names.Avoid: characters encoded all the same
}

func newEncoder(cs *syntax.Charset, c Component, avoid func(rune) bool) *encoder {
	e := &encoder{cs: cs, avoid: avoid}
	top := 0x80
	if cs.Octets() {
		top = 256
	}
	for b := 0; b < top; b++ {
		e.keep[b] = cs.Byte(byte(b)) && !(c == QueryPart && (b == '&' || b == '=' || b == '+')) &&
			!(b < utf8.RuneSelf && avoid != nil && avoid(rune(b)))
	}
	e.wide = !cs.Octets() && cs.Wide()
	return e
}

// ErrNoCharset is the error of encoding for a component whose rule the
// parser's grammar has no charset for (its Names do not name the rule, or
// gen dfa wrote no table for it).
var ErrNoCharset = errors.New("no charset for the component")

// Charset returns what component c allows unencoded in s's grammar (the
// charset of its rule, as gen dfa derived it), or an error wrapping
// ErrNoCharset.
func (s *Parser) Charset(c Component) (*syntax.Charset, error) { return s.charset(c) }

// charset returns the charset of component c in s's grammar.
func (s *Parser) charset(c Component) (*syntax.Charset, error) {
	e, err := s.encoder(c)
	if err != nil {
		return nil, err
	}
	return e.cs, nil
}

// avoid is the first Names' Avoid, or nil.
func (s *Parser) avoid() func(rune) bool {
	if len(s.names) == 0 {
		return nil
	}
	return s.names[0].Avoid
}

// encoder returns the encoder of component c in s's grammar.
func (s *Parser) encoder(c Component) (*encoder, error) {
	if c == 0 || int(c) >= len(componentNames) || s.encoders[c] == nil {
		return nil, fmt.Errorf("parser: %s: %v: %w", s.name, c, ErrNoCharset)
	}
	return s.encoders[c], nil
}

// initCharsets finds the charsets of the components, from the rules the
// first Names give.
func (s *Parser) initCharsets(octets bool) {
	if len(s.names) == 0 {
		return
	}
	nm := s.names[0]
	for c, rule := range map[Component]string{Userinfo: nm.Userinfo, Host: nm.RegName, Segment: nm.Segment,
		FirstSegment: nm.FirstSegment, Query: nm.Query, Fragment: nm.Fragment, QueryPart: nm.Query} {
		if t := s.g.DFA(rule); t != nil {
			if cs := t.Charset(octets); cs != nil && cs.Percent() {
				s.encoders[c] = newEncoder(cs, c, nm.Avoid)
			}
		}
	}
}

const upperHex = "0123456789ABCDEF"

// Encode percent-encodes raw, any bytes, for component c of RFC 3986: the
// shortest text that the component's rule matches and that decodes to raw
// (see [Parser.AppendEncode]). It never fails for RFC 3986.
func Encode(c Component, raw string) string {
	s, _ := rfc3986.Encode(c, raw)
	return s
}

// AppendEncode appends Encode(c, raw) to dst.
func AppendEncode(dst []byte, c Component, raw string) []byte {
	b, _ := rfc3986.AppendEncode(dst, c, raw)
	return b
}

// Escape percent-encodes what component c of RFC 3986 does not allow in s,
// keeping the percent-encodings s already has (see [Parser.AppendEscape]).
func Escape(c Component, s string) string {
	e, _ := rfc3986.Escape(c, s)
	return e
}

// AppendEscape appends Escape(c, s) to dst.
func AppendEscape(dst []byte, c Component, s string) []byte {
	b, _ := rfc3986.AppendEscape(dst, c, s)
	return b
}

// Encode percent-encodes raw for component c of s's grammar; see
// [Parser.AppendEncode]. When raw needs no encoding it is returned as is,
// without allocating.
func (s *Parser) Encode(c Component, raw string) (string, error) {
	e, err := s.encoder(c)
	if err != nil {
		return "", err
	}
	i := e.start(raw)
	if i == len(raw) {
		return raw, nil
	}
	return e.encodeString(raw[:i], raw[i:]), nil
}

// AppendEncode appends raw, any bytes, percent-encoded for component c of
// s's grammar (RFC 3986 §2.1, §2.4): each character the component's rule
// allows unencoded as it is, every other byte as "%" and two uppercase
// hexadecimal digits. A "%" of raw is data, encoded as "%25": nothing is
// ever encoded twice. In a grammar of code points (RFC 3987's), a
// character of several bytes stays when the rule allows it (ucschar in an
// IRI's segment), and its bytes are encoded otherwise, as is a byte that
// is not UTF-8. The result is the shortest text that the rule matches and
// that decodes to raw (but for a rule that needs a character, such as
// FirstSegment, and an empty raw). It allocates only to grow dst.
func (s *Parser) AppendEncode(dst []byte, c Component, raw string) ([]byte, error) {
	e, err := s.encoder(c)
	if err != nil {
		return dst, err
	}
	return e.appendEncode(dst, raw), nil
}

// char reads the character at raw[i]: its length in bytes, and whether
// the encoder keeps it as is. A byte that is not UTF-8 is one byte,
// encoded.
func (e *encoder) char(raw string, i int) (int, bool) {
	b := raw[i]
	if b < utf8.RuneSelf || !e.wide {
		return 1, e.keep[b]
	}
	r, n := utf8.DecodeRuneInString(raw[i:])
	if r == utf8.RuneError && n <= 1 {
		return 1, false
	}
	return n, e.cs.Rune(r) && (e.avoid == nil || !e.avoid(r))
}

// start returns the length of raw's longest prefix that encoding leaves
// as is.
func (e *encoder) start(raw string) int {
	if !e.wide {
		for i := 0; i < len(raw); i++ {
			if !e.keep[raw[i]] {
				return i
			}
		}
		return len(raw)
	}
	for i := 0; i < len(raw); {
		if e.keep[raw[i]] {
			i++
			continue
		}
		n, keep := e.char(raw, i)
		if !keep {
			return i
		}
		i += n
	}
	return len(raw)
}

// appendEncode appends raw encoded: runs of bytes kept are copied at
// once.
func (e *encoder) appendEncode(dst []byte, raw string) []byte {
	if !e.wide {
		// Bytes alone decide: no UTF-8 to read.
		keep := &e.keep
		for i := 0; i < len(raw); i++ {
			if x := raw[i]; keep[x] {
				dst = append(dst, x)
			} else {
				dst = append(dst, '%', upperHex[x>>4], upperHex[x&15])
			}
		}
		return dst
	}
	for i := 0; i < len(raw); {
		j := i
		for j < len(raw) && e.keep[raw[j]] {
			j++
		}
		if j > i {
			dst = append(dst, raw[i:j]...)
			i = j
			continue
		}
		n, keep := e.char(raw, i)
		if keep {
			dst = append(dst, raw[i:i+n]...)
		} else {
			// Not a character the rule allows: its bytes, encoded.
			for k := i; k < i+n; k++ {
				x := raw[k]
				dst = append(dst, '%', upperHex[x>>4], upperHex[x&15])
			}
		}
		i += n
	}
	return dst
}

// encodeString returns prefix followed by rest encoded, building short
// results on the stack: one allocation, the string's.
func (e *encoder) encodeString(prefix, rest string) string {
	var buf [128]byte
	b := buf[:0]
	if n := len(prefix) + 3*len(rest); n > len(buf) {
		b = make([]byte, 0, len(prefix)+len(rest)+2*len(rest)/2+8)
	}
	b = append(b, prefix...)
	return string(e.appendEncode(b, rest))
}

// EncodeRule percent-encodes raw for any rule of s's grammar whose
// charset allows percent-encodings (gen dfa derives one for every rule it
// compiles): for a team's grammar, its own components ("NSS" of a URN,
// say). It is an error wrapping ErrNoCharset for a rule without one.
//
// The charset is what the rule allows after any complete string of it; a
// rule may allow less at its start (RFC 8141's NSS = pchar *(pchar / "/"):
// no "/" first). The result is checked with the rule's DFA, and a
// character kept where the rule cannot take it is encoded ("/x" is
// "%2Fx"), up to a few such characters. Text that this does not make
// valid ("" for a rule that needs a character) is an error wrapping the
// [*Error] that says where.
func (s *Parser) EncodeRule(rule, raw string) (string, error) {
	name, ok := s.Rule(rule)
	if !ok {
		return "", s.noRule(rule)
	}
	t := s.g.DFA(name)
	var cs *syntax.Charset
	if t != nil {
		cs = t.Charset(s.octets)
	}
	if cs == nil || !cs.Percent() {
		return "", fmt.Errorf("parser: %s: rule %s: %w", s.name, name, ErrNoCharset)
	}
	e := newEncoder(cs, 0, s.avoid())
	out := raw
	if i := e.start(raw); i < len(raw) {
		out = e.encodeString(raw[:i], raw[i:])
	}
	m := t.Machine()
	for fixes := 0; ; fixes++ {
		ok, stop := m.Run(out)
		if ok {
			return out, nil
		}
		// A character the encoder kept, where the rule cannot take it: its
		// bytes encoded. A few such places at most (a rule's first
		// character); past them, the text is refused.
		if !s.octets {
			stop = charStart(out, stop) // the DFA reads UTF-8: a character whole
		}
		if stop < len(out) && out[stop] != '%' && fixes < maxEncodeFixes {
			n := 1
			if !s.octets {
				if _, w := utf8.DecodeRuneInString(out[stop:]); w > 1 {
					n = w
				}
			}
			b := append([]byte(nil), out[:stop]...)
			for _, c := range []byte(out[stop : stop+n]) {
				b = append(b, '%', upperHex[c>>4], upperHex[c&15])
			}
			out = string(append(b, out[stop+n:]...))
			continue
		}
		return "", fmt.Errorf("parser: %s: rule %s: no encoding of %q matches it: %w", s.name, name, clip(raw), s.Validate(name, out))
	}
}

// maxEncodeFixes bounds the characters EncodeRule encodes beyond its
// charset: each costs a run of the DFA over the text.
const maxEncodeFixes = 8

// Escape percent-encodes what component c of s's grammar does not allow in
// text, keeping the percent-encodings it already has; see
// [Parser.AppendEscape]. When text needs nothing, it is returned as is.
func (s *Parser) Escape(c Component, text string) (string, error) {
	e, err := s.encoder(c)
	if err != nil {
		return "", err
	}
	i := e.escapeStart(text)
	if i == len(text) {
		return text, nil
	}
	var buf [128]byte
	b := buf[:0]
	if n := 3 * len(text); n > len(buf) {
		b = make([]byte, 0, len(text)+len(text)/2+8)
	}
	return string(e.appendEscape(append(b, text[:i]...), text[i:])), nil
}

// AppendEscape appends text, percent-encoded for component c of s's
// grammar where it needs it: as AppendEncode does, but a "%" followed by
// two hexadecimal digits is a percent-encoding already, kept as it is; a
// "%" that is not is data, encoded as "%25". It is for text that is
// already partly encoded, such as a query a user typed: the result matches
// the component's rule, and a valid encoding is never encoded twice.
func (s *Parser) AppendEscape(dst []byte, c Component, text string) ([]byte, error) {
	e, err := s.encoder(c)
	if err != nil {
		return dst, err
	}
	return e.appendEscape(dst, text), nil
}

func isPercentEncoding(s string, i int) bool {
	return i+2 < len(s) && s[i] == '%' && isHex(s[i+1]) && isHex(s[i+2])
}

// escapeStart returns the length of text's longest prefix that escaping
// leaves as is.
func (e *encoder) escapeStart(text string) int {
	for i := 0; i < len(text); {
		if isPercentEncoding(text, i) {
			i += 3
			continue
		}
		n, keep := e.char(text, i)
		if !keep {
			return i
		}
		i += n
	}
	return len(text)
}

// appendEscape appends text with what the component does not allow
// encoded, its percent-encodings kept.
func (e *encoder) appendEscape(dst []byte, text string) []byte {
	for i := 0; i < len(text); {
		j := i
		for j < len(text) && text[j] != '%' {
			j++
		}
		dst = e.appendEncode(dst, text[i:j])
		if j == len(text) {
			break
		}
		if isPercentEncoding(text, j) {
			dst = append(dst, text[j:j+3]...)
			i = j + 3
		} else {
			dst = append(dst, "%25"...)
			i = j + 1
		}
	}
	return dst
}

func indexByte(s string, b byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return i
		}
	}
	return -1
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// DecodeError is the error of decoding text with a "%" that is not
// followed by two hexadecimal digits (RFC 3986 §2.1).
type DecodeError struct {
	Input  string
	Offset int // of the "%"
}

func (e *DecodeError) Error() string {
	end := min(len(e.Input), e.Offset+3)
	if e.Offset < 0 || e.Offset > len(e.Input) {
		end = e.Offset
	}
	found := ""
	if e.Offset >= 0 && e.Offset <= end && end <= len(e.Input) {
		found = e.Input[e.Offset:end]
	}
	return fmt.Sprintf("decode %q: malformed percent-encoding %q at offset %d: a %q must be followed by two hexadecimal digits (RFC 3986 §2.1)",
		clip(e.Input), found, e.Offset, "%")
}

// Decode returns the bytes that s percent-encodes (RFC 3986 §2.1): each
// "%" and two hexadecimal digits is the byte they write; every other byte
// is itself ("+" too: see FormDecode). A "%" not followed by two
// hexadecimal digits is a [*DecodeError] at its offset. When s has no "%",
// it is returned as is, without allocating.
func Decode(s string) (string, error) {
	i := indexByte(s, '%')
	if i < 0 {
		return s, nil
	}
	b, err := appendDecode(make([]byte, 0, len(s)), s, false)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// AppendDecode appends Decode(s) to dst; on an error, dst as it was.
func AppendDecode(dst []byte, s string) ([]byte, error) { return appendDecode(dst, s, false) }

// FormDecode is Decode with the convention of HTML forms
// (application/x-www-form-urlencoded): a "+" is a space.
func FormDecode(s string) (string, error) {
	if indexByte(s, '%') < 0 && indexByte(s, '+') < 0 {
		return s, nil
	}
	b, err := appendDecode(make([]byte, 0, len(s)), s, true)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

func appendDecode(dst []byte, s string, form bool) ([]byte, error) {
	n := len(dst)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%':
			if !isPercentEncoding(s, i) {
				return dst[:n], &DecodeError{Input: s, Offset: i}
			}
			dst = append(dst, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		case c == '+' && form:
			dst = append(dst, ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst, nil
}

// decodeValid decodes a component of a parsed URI, whose
// percent-encodings the parser has checked: it cannot fail.
func decodeValid(s string, form bool) string {
	if indexByte(s, '%') < 0 && (!form || indexByte(s, '+') < 0) {
		return s
	}
	b, _ := appendDecode(make([]byte, 0, len(s)), s, form)
	return string(b)
}

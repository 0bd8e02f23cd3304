// Package rfc3987 parses Internationalized Resource Identifiers: RFC 3986
// Appendix A with the IRI rules of RFC 3987 §2.2 layered on it
// (grammar/ext/rfc3987.abnf). Characters are Unicode code points, read from
// UTF-8 input; ucschar may appear wherever RFC 3986 allows unreserved, and
// iprivate only in the query. The parsers are generated into
// internal/rfc3987gen; this file describes them to package parser, whose
// Parser gives the entry points and the typed URI, and maps IRIs to URIs
// (§3.1).
package rfc3987

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc3987/internal/rfc3987gen"
)

// Parser returns RFC 3987. Its default rule is IRI-reference; it also has
// RFC 3986's URI rules (URI-reference, URI, …), which reject non-ASCII.
func Parser() *parser.Parser { return syn }

var syn = parser.MustParser(parser.NewParser("rfc3987", rfc3987gen.PEG(), rfc3987gen.DFA(), parser.Names{
	URIRules:     []string{"IRI-reference", "IRI", "absolute-IRI", "irelative-ref"},
	Scheme:       "scheme",
	Authority:    "iauthority",
	Userinfo:     "iuserinfo",
	Host:         "ihost",
	Port:         "port",
	Query:        "iquery",
	Fragment:     "ifragment",
	Paths:        []string{"ipath-abempty", "ipath-absolute", "ipath-noscheme", "ipath-rootless", "ipath-empty"},
	Segment:      "isegment",
	FirstSegment: "isegment-nz-nc",
	IPv4:         "IPv4address",
	RegName:      "ireg-name",
	IPvFuture:    "IPvFuture",
	IPv6:         []string{"IPv6address"},
	// §4.1: "IRIs MUST NOT contain bidirectional formatting characters";
	// ucschar holds them, so the parser takes them, and the encoders and
	// the builder write them percent-encoded.
	Avoid: bidiFormat,
}, parser.AppendixANames()))

// ToURI maps an IRI reference to the URI reference it stands for (RFC 3987
// §3.1): it checks that iri is an IRI-reference, then percent-encodes the
// UTF-8 octets of every character that is not allowed in a URI — in a valid
// IRI, exactly the non-ASCII ones (ucschar and iprivate) — as %HH with
// upper-case hex. The result is a valid RFC 3986 URI reference; an IRI that
// is already a URI reference maps to itself. An iri that does not parse
// gets its [*parser.Error]. A valid iri whose URI would be longer than
// [parser.MaxLength] (each non-ASCII byte becomes three) gets a
// [*ResultError], which wraps [parser.ErrTooLong]: the fault is the
// result's, not the input's.
func ToURI(iri string) (parser.URI, error) {
	if _, err := syn.Parse("IRI-reference", iri); err != nil {
		return parser.URI{}, err
	}
	n := len(iri)
	for i := 0; i < len(iri); i++ {
		if iri[i] >= 0x80 {
			n += 2
		}
	}
	if n > parser.MaxLength {
		return parser.URI{}, &ResultError{Len: n}
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(n)
	for i := 0; i < len(iri); i++ {
		c := iri[i]
		if c < 0x80 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return parser.ParseReference(b.String())
}

// FromURI maps a URI reference to an IRI reference (RFC 3987 §3.2): it
// checks that uri is an RFC 3986 URI-reference, then decodes the
// percent-encodings that stand for a character the IRI allows unencoded
// where it stands — the component's charset in RFC 3987's grammar
// (isegment, iquery, ifragment, iuserinfo, ireg-name; iprivate only in the
// query) — and leaves every other one encoded: those of reserved
// characters and of "%" (§3.2 step 2), bytes that are not part of UTF-8
// (step 3), and characters that are not appropriate in an IRI (step 4):
// the bidirectional formatting characters of §4.1 (U+200E, U+200F,
// U+202A–U+202E). "http://www.example.org/D%C3%BCrst" is
// "http://www.example.org/Dürst"; "D%FCrst" (Latin-1, not UTF-8) stays.
// A path segment whose decoding would be "." or ".." stays encoded as
// written ("%2E%2E" is a name, ".." a dot segment: RFC 3986 §5.2.4), so
// that the IRI is equivalent to the URI. ToURI maps the result back to
// uri, but for the case of hexadecimal digits and the percent-encodings of
// unreserved characters, which FromURI decodes (§3.2).
func FromURI(uri string) (parser.URI, error) {
	u, err := parser.ParseReference(uri)
	if err != nil {
		return parser.URI{}, err
	}
	if strings.IndexByte(uri, '%') < 0 {
		return syn.Parse("IRI-reference", uri)
	}
	p := u.Parts()
	var derr error
	dec := func(c parser.Component, s string) string {
		out, err := decodeIRI(c, s)
		if err != nil && derr == nil {
			derr = err
		}
		return out
	}
	p.Userinfo = dec(parser.Userinfo, p.Userinfo)
	if u.HostKind() == parser.HostRegName {
		p.Host = dec(parser.Host, p.Host)
	}
	segs := strings.Split(p.Path, "/")
	for i, s := range segs {
		// A segment that would decode to "." or ".." stays as written:
		// decoded, it would be a dot segment, which resolution removes
		// (RFC 3986 §5.2.4), and the IRI would not be equivalent to the
		// URI (§3.2); normalization keeps such a dot encoded too.
		if d := dec(parser.Segment, s); d == s || (d != "." && d != "..") {
			segs[i] = d
		}
	}
	p.Path = strings.Join(segs, "/")
	p.Query = dec(parser.Query, p.Query)
	p.Fragment = dec(parser.Fragment, p.Fragment)
	if derr != nil {
		return parser.URI{}, derr
	}
	return syn.FromParts(p)
}

// decodeIRI decodes, in s (a component of a valid URI, so every "%" is a
// percent-encoding), the percent-encodings of characters that component c
// of an IRI allows unencoded, but reserved and bidirectional formatting
// characters.
func decodeIRI(c parser.Component, s string) (string, error) {
	if strings.IndexByte(s, '%') < 0 {
		return s, nil
	}
	cs, err := syn.Charset(c)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '%' {
			b.WriteByte(s[i])
			i++
			continue
		}
		// A run of percent-encodings, decoded, read as UTF-8 character by
		// character; each character decoded, or its encodings kept.
		j := i
		var raw []byte
		for j+2 < len(s) && s[j] == '%' {
			raw = append(raw, unhex(s[j+1])<<4|unhex(s[j+2]))
			j += 3
		}
		for k := 0; k < len(raw); {
			r, n := utf8.DecodeRune(raw[k:])
			if r == utf8.RuneError && n <= 1 {
				n = 1
			}
			text := s[i+3*k : i+3*(k+n)]
			if r != utf8.RuneError && cs.Rune(r) && !reserved(r) && !bidiFormat(r) {
				b.WriteRune(r)
			} else {
				b.WriteString(text)
			}
			k += n
		}
		i = j
	}
	return b.String(), nil
}

// reserved reports whether r is one of RFC 3986's reserved characters
// (§2.2: gen-delims and sub-delims): decoding one changes what a URI
// means.
func reserved(r rune) bool { return r < 0x80 && strings.ContainsRune(":/?#[]@!$&'()*+,;=", r) }

// bidiFormat reports whether r is one of the bidirectional formatting
// characters that RFC 3987 §4.1 says an IRI must not contain: LRM, RLM,
// LRE, RLE, PDF, LRO, RLO.
func bidiFormat(r rune) bool { return r == 0x200E || r == 0x200F || 0x202A <= r && r <= 0x202E }

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// ResultError is [ToURI]'s error for a valid IRI whose URI would be longer
// than [parser.MaxLength]: Len bytes. errors.Is finds [parser.ErrTooLong]
// through it.
type ResultError struct {
	Len int
}

func (e *ResultError) Error() string {
	return fmt.Sprintf("rfc3987: the URI is %d bytes, longer than the %d a URI can have", e.Len, parser.MaxLength)
}

// Unwrap returns [parser.ErrTooLong].
func (e *ResultError) Unwrap() error { return parser.ErrTooLong }

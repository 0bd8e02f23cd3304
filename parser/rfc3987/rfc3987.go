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
	"strings"

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
}, parser.AppendixANames()))

// ToURI maps an IRI reference to the URI reference it stands for (RFC 3987
// §3.1): it checks that iri is an IRI-reference, then percent-encodes the
// UTF-8 octets of every character that is not allowed in a URI — in a valid
// IRI, exactly the non-ASCII ones (ucschar and iprivate) — as %HH with
// upper-case hex. The result is a valid RFC 3986 URI reference; an IRI that
// is already a URI reference maps to itself.
func ToURI(iri string) (parser.URI, error) {
	if _, err := syn.Parse("IRI-reference", iri); err != nil {
		return parser.URI{}, err
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(iri) + 16)
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

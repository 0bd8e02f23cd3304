// Package rfc6874 parses URI references with IPv6 zone identifiers: RFC
// 3986 Appendix A with RFC 6874 §2 layered on it (grammar/ext/rfc6874.abnf),
// which replaces IP-literal so that an IPv6 address may carry a
// percent-encoded zone: "http://[fe80::1%25eth0]/". The parsers are generated
// into internal/rfc6874gen; this file describes them to package parser,
// whose Parser gives the entry points and the typed URI.
package rfc6874

import (
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc6874/internal/rfc6874gen"
)

// Parser returns RFC 3986 with RFC 6874 zone identifiers. An IP literal
// with a zone is an IPv6 host: its Host is the literal as written, brackets
// and "%25zone" included.
func Parser() *parser.Parser { return syn }

var syn = parser.MustParser(parser.NewParser("rfc6874", rfc6874gen.PEG(), rfc6874gen.DFA(), names()))

// names are Appendix A's, with the zone's address as an IPv6 host.
func names() parser.Names {
	n := parser.AppendixANames()
	n.IPv6 = []string{"IPv6addrz", "IPv6address"}
	return n
}

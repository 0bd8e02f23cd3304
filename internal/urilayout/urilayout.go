// Package urilayout is the bridge through which package resolve makes a
// parser.URI whose components it has written itself, without parsing the
// text back: package parser, which alone can fill a URI's fields,
// registers the function (New) in its initialization. Nothing else may
// use it. A URI made so is valid only because its maker proved it: resolve
// does so for RFC 3986 targets, and its tests hold every such URI to the
// parse of its text (FuzzResolveShortcut).
package urilayout

// The flags of a Layout, which say which components are defined; package
// parser's URI keeps these.
const (
	Scheme uint8 = 1 << iota
	Authority
	Userinfo
	Port
	Query
	Fragment
)

// Layout is where a URI's components are in its text, as a parser.URI
// holds them (see parser.URI's fields): the scheme is text[:SchemeEnd],
// the host text[HostStart:HostEnd] (0, 0 without an authority), the path
// text[PathStart:PathEnd], the query ends at QueryEnd (PathEnd when it is
// undefined); Flags says which components are defined, HostKind is a
// parser.HostKind.
type Layout struct {
	SchemeEnd, HostStart, HostEnd, PathStart, PathEnd, QueryEnd uint32
	Flags, HostKind                                             uint8
}

// New is package parser's func(text string, l Layout) parser.URI: the URI
// of RFC 3986 with text and the layout l, unchecked.
var New any

// URI calls New, whose result type U is parser.URI.
func URI[U any](text string, l Layout) U { return New.(func(string, Layout) U)(text, l) }

// Package urilayout is the bridge through which package resolve reads a
// parser.URI's layout (Of), and makes a parser.URI whose components it has
// written itself, without parsing the text back (New): package parser,
// which alone can read and fill a URI's fields, registers the functions in
// its initialization. Nothing else may use them. A URI made so is valid only because its maker proved it: resolve
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
// parser.HostKind. It is packed into four words, so that the compiler
// keeps it in registers: a struct of more fields lives in memory, and a
// copy of one just written field by field, in 16-byte moves, waits for the
// stores (it cost more than the rest of a resolution).
type Layout struct{ w0, w1, w2, w3 uint64 }

// Make returns the Layout of the offsets and flags given.
func Make(schemeEnd, hostStart, hostEnd, pathStart, pathEnd, queryEnd uint32, flags, hostKind uint8) Layout {
	return Layout{uint64(schemeEnd) | uint64(hostStart)<<32, uint64(hostEnd) | uint64(pathStart)<<32,
		uint64(pathEnd) | uint64(queryEnd)<<32, uint64(flags) | uint64(hostKind)<<8}
}

func (l Layout) SchemeEnd() uint32 { return uint32(l.w0) }
func (l Layout) HostStart() uint32 { return uint32(l.w0 >> 32) }
func (l Layout) HostEnd() uint32   { return uint32(l.w1) }
func (l Layout) PathStart() uint32 { return uint32(l.w1 >> 32) }
func (l Layout) PathEnd() uint32   { return uint32(l.w2) }
func (l Layout) QueryEnd() uint32  { return uint32(l.w2 >> 32) }
func (l Layout) Flags() uint8      { return uint8(l.w3) }
func (l Layout) HostKind() uint8   { return uint8(l.w3 >> 8) }

// The functions package parser registers, as values of type any, since
// this package cannot name parser.URI; package resolve asserts their types
// once, at initialization.
var (
	// New is a func(text string, l Layout) parser.URI: the URI of RFC
	// 3986 with text and the layout l, unchecked.
	New any
	// Of is a func(u parser.URI) (text string, l Layout): u's text and
	// layout, read at the cost of one copy of u, where each of its
	// accessors, inlined, copies it.
	Of any
)

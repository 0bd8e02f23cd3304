// Package urilayout is the bridge through which package resolve reads a
// parser.URI's layout, and fills a parser.URI whose components it has
// written itself, without parsing the text back: Fields are the URI's
// fields, which package parser alone can name, and resolve converts a
// *parser.URI to a *Fields with unsafe.Pointer (TestFieldsMirror, in
// package parser, holds the two layouts equal). Nothing else may use
// them. A URI made so is valid only because its maker proved it: resolve
// does so for RFC 3986 targets, and its tests hold every such URI to the
// parse of its text (FuzzResolveShortcut).
package urilayout

import "unsafe"

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

// Fields are parser.URI's fields, in its order and with its types (a
// *parser.Parser is an unsafe.Pointer here): package resolve reads and
// writes a URI through them, (*Fields)(unsafe.Pointer(u)), with no copy
// of the URI and no call: functions that package parser registered here
// took and returned URIs by value, and a pointer passed to them escaped
// to the heap, since escape analysis cannot see into a call through a
// function value. TestFieldsMirror (package parser) holds the two layouts
// equal.
type Fields struct {
	Text                                              string
	SchemeEnd, HostStart, HostEnd, PathStart, PathEnd uint32
	QueryEnd                                          uint32
	Flags                                             uint8
	HostKind                                          uint8
	P                                                 unsafe.Pointer
	_                                                 [8]byte
}

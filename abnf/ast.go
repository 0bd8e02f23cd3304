// Package abnf reads grammars written in ABNF (RFC 5234, with the
// case-sensitive strings of RFC 7405), checks them, prints them in a
// canonical form, matches inputs against them exactly and generates samples
// from them.
//
// The matcher ([Matcher]) is the project's oracle: it gives a rule the meaning
// ABNF gives it — unordered alternation, repetition that gives input back,
// whole-input match — so that every parser generated from a grammar can be
// checked against it. The sampler ([Sampler]) produces the inputs for that
// check.
//
// # Reading
//
// [Read] takes one or more sources, read in order as one grammar: a later
// source may add alternatives to an earlier rule with "=/". Rule names are
// case-insensitive (RFC 5234 §2.1). The core rules of RFC 5234 Appendix B.1
// (ALPHA, DIGIT, HEXDIG, …) are built in: a grammar that references one
// without defining it gets the RFC's definition.
//
// A few things are more lenient than the letter of RFC 5234 §4, because RFC
// texts are written that way: rules may be indented (the first rule's column
// is the grammar's margin; a line indented further continues the rule above,
// a line at the margin starts a new rule), lines may end in LF as well as
// CRLF (and the last needs no line end), blank and comment-only lines may
// appear anywhere, and comments may hold any bytes. The elements of a
// concatenation must be separated by white space, as §4 requires
// ("a""b" is an error); [Options.Lenient] accepts them with a warning.
//
// Values above %x7F in num-vals are Unicode code points, matched against
// UTF-8 input: %x80-FF matches the two-byte encodings of U+0080…U+00FF, not
// raw bytes. Surrogates (U+D800…U+DFFF) and values above U+10FFFF have no
// UTF-8 encoding and are reported.
//
// A prose value (<…>) has no machine meaning. The one exception is a prose
// value under a zero repetition, such as RFC 3986's path-empty = 0<pchar>,
// which is the empty string; any other prose value is reported, not guessed.
package abnf

import (
	"fmt"
	"strings"
)

// Pos is a position in an ABNF source.
type Pos struct {
	File   string
	Line   int // 1-based
	Col    int // 1-based, counted in bytes
	Offset int // 0-based byte offset
}

// String formats p as file:line:col.
func (p Pos) String() string {
	if p.File == "" {
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Node is an ABNF expression: *Alt, *Concat, *Repeat, *RuleRef, *CharVal,
// *NumVal or *Prose. Groups and options have no node of their own: a group is
// its contents, an option [x] is a Repeat of x with Min 0 and Max 1.
type Node interface {
	Position() Pos
	node()
}

// Alt is an alternation: a / b / c (RFC 5234 §3.2). Its order carries no
// meaning in ABNF.
type Alt struct {
	Pos  Pos
	Alts []Node
}

// Concat is a concatenation: a b c (RFC 5234 §3.1).
type Concat struct {
	Pos   Pos
	Items []Node
}

// Inf is the Max of a Repeat with no upper bound.
const Inf = -1

// Repeat is n*m repetition (RFC 5234 §3.6, §3.7) and the option [x] (§3.8),
// which is Min 0, Max 1.
type Repeat struct {
	Pos      Pos
	Min, Max int // Max is Inf when unbounded
	Body     Node
}

// RuleRef refers to a rule by name.
type RuleRef struct {
	Pos  Pos
	Name string // as written
}

// CharVal is a quoted string (RFC 5234 §2.3; RFC 7405). Unless Sensitive, it
// matches its text with ASCII letters in either case.
type CharVal struct {
	Pos       Pos
	Text      string // printable ASCII, SP and VCHAR without DQUOTE
	Sensitive bool   // %s"…"
}

// NumVal is a terminal value (RFC 5234 §2.3): either a concatenation of code
// points (%x0D.0A, or a single %x41) or a range (%x41-5A).
type NumVal struct {
	Pos   Pos
	Base  byte   // 'b', 'd' or 'x', as written (lowercase)
	Vals  []rune // the concatenated values; for a range, exactly Lo and Hi
	Range bool
}

// Prose is a prose value <…> (RFC 5234 §4).
type Prose struct {
	Pos  Pos
	Text string // without the angle brackets
}

func (n *Alt) Position() Pos     { return n.Pos }
func (n *Concat) Position() Pos  { return n.Pos }
func (n *Repeat) Position() Pos  { return n.Pos }
func (n *RuleRef) Position() Pos { return n.Pos }
func (n *CharVal) Position() Pos { return n.Pos }
func (n *NumVal) Position() Pos  { return n.Pos }
func (n *Prose) Position() Pos   { return n.Pos }

func (*Alt) node()     {}
func (*Concat) node()  {}
func (*Repeat) node()  {}
func (*RuleRef) node() {}
func (*CharVal) node() {}
func (*NumVal) node()  {}
func (*Prose) node()   {}

// Rule is a named rule with all of its definitions merged: alternatives added
// with "=/" are appended to Expr's alternation in the order read.
type Rule struct {
	Name string // spelling of the first definition
	Pos  Pos    // position of the name in the first definition
	Expr Node
	Defs []Def
	Core bool // defined by RFC 5234 Appendix B.1, not by the grammar's sources
}

// Def is one definition of a rule, "=" or "=/", as it stands in its source.
type Def struct {
	Pos         Pos
	Incremental bool   // "=/"
	Override    bool   // replaces the rule (see [Options.Override])
	Text        string // the definition's lines, comments included, without the trailing newline
}

// Grammar is a set of rules read from one or more sources.
type Grammar struct {
	Rules []*Rule // in the order first defined; core rules last
	// Octets is true when numeric values are octets (bytes) rather than
	// code points (see [Options.Octets]).
	Octets bool
	// Warnings are what the reader accepted only because of
	// [Options.Lenient], by position.
	Warnings []Problem
	byName   map[string]*Rule
}

// Rule returns the rule with the given name, compared case-insensitively, or
// nil.
func (g *Grammar) Rule(name string) *Rule {
	return g.byName[strings.ToLower(name)]
}

// Names returns the rule names in definition order.
func (g *Grammar) Names() []string {
	names := make([]string, len(g.Rules))
	for i, r := range g.Rules {
		names[i] = r.Name
	}
	return names
}

func (g *Grammar) add(r *Rule) {
	if g.byName == nil {
		g.byName = map[string]*Rule{}
	}
	g.Rules = append(g.Rules, r)
	g.byName[strings.ToLower(r.Name)] = r
}

// Walk calls f for n and each node below it, depth first, parents first. It
// does not follow rule references.
func Walk(n Node, f func(Node)) {
	f(n)
	switch n := n.(type) {
	case *Alt:
		for _, a := range n.Alts {
			Walk(a, f)
		}
	case *Concat:
		for _, a := range n.Items {
			Walk(a, f)
		}
	case *Repeat:
		Walk(n.Body, f)
	}
}

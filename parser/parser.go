package parser

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/peguri/rfc3986/parser/internal/rfc3986gen"
	"github.com/peguri/rfc3986/syntax"
)

// Node is a captured rule of a parse tree: its ABNF name and the bytes
// [Start, End) of the input it matched. Every generated parser builds the
// runtime's nodes (package syntax).
type Node = syntax.Node

// Parser is one grammar's generated parsers — RFC 3986 Appendix A, or a
// grammar layered on it (zone identifiers, IRIs, a scheme's own rules) — and
// the names of the rules that hold a URI's components. Its methods are this
// package's entry points for that grammar: the package-level functions are
// those of [RFC3986].
//
// The DFAs decide membership and, for the URI-level rules, the components
// are split by the Appendix B scan, which any grammar that keeps RFC 3986's
// delimiters shares: on the DFA's own walk, where the DFA's state determines
// the scan's (as in every grammar of this module), else in a second pass.
// The functions gen dfa -tree generated build parse trees, and the DFAs'
// tables explain errors; the pigeon parser builds the trees of the rules
// that have no tree function, and decides and explains the rules that have
// no DFA.
type Parser struct {
	g        *syntax.Grammar
	name     string
	names    []Names  // the first set's first URI rule is the default rule
	uriRules []string // every set's URI rules, in order
	uriNames []*Names // the set of each URI rule
	// The hot machines, resolved once: one per URI rule, and IPv4's.
	uriDFA  []*syntax.Table
	ipv4DFA *syntax.Table
	// The URI rules' DFAs with appendixB's marks, built on first use.
	uriMarked []*markedDFA
	// encoders are the components' encoders, by Component.
	encoders [QueryPart + 1]*encoder
	octets   bool // the grammar's values are bytes (gen -octets)
}

// Names says which rules of a grammar make up a URI reference.
type Names struct {
	// URIRules are the start rules that parse into a URI: the reference
	// rule first (URI-reference), then the rule with a scheme (URI), the
	// absolute form (absolute-URI) and the relative form (relative-ref).
	URIRules []string
	// The component rules.
	Scheme, Authority, Userinfo, Host, Port, Query, Fragment string
	Paths                                                    []string
	// The rules of a path segment (RFC 3986's segment) and of the first
	// segment of a relative-path reference (segment-nz-nc): with the
	// others, they give the encoders their charsets (see Component).
	Segment, FirstSegment string
	// The host's alternatives: IPv6 may name several rules (an address
	// with a zone, say); IP literals are the rules below Host holding them.
	IPv4, RegName, IPvFuture string
	IPv6                     []string
	// Avoid, if set, reports the characters the grammar allows that a
	// producer must not write as they are: the encoders (Encode, Escape,
	// the Builder) percent-encode them wherever they occur. RFC 3987 §4.1:
	// "IRIs MUST NOT contain bidirectional formatting characters", which
	// its ABNF's ucschar holds. Parsing is the grammar's alone.
	Avoid func(rune) bool
}

// NewParser describes a generated grammar to this package: what the
// generated package's functions return — PEG (gen peg, then pigeon) and
// DFA (gen dfa; nil for a grammar without DFAs) — and the component rules
// of each family of URI rules it has (an IRI grammar also holds RFC 3986's
// URI rules). A grammar that is not about URI references (a scheme's own
// syntax, say) has no Names: its rules validate and parse into trees, and
// Parse refuses them.
//
// NewParser checks the generated tables ([syntax.NewGrammar]), that every
// URI rule is a start rule with a DFA, as is the first set's IPv4 rule, and
// that the grammar's default rule (gen peg -default) is the first set's
// first URI rule; it returns an error naming the first problem.
func NewParser(name string, peg *syntax.PEG, dfa syntax.Tables, names ...Names) (*Parser, error) {
	g, err := syntax.NewGrammar(name, peg, dfa)
	if err != nil {
		return nil, err
	}
	s := &Parser{g: g, name: name, names: slices.Clone(names)}
	for i := range s.names {
		for _, r := range s.names[i].URIRules {
			t := g.DFA(r)
			if t == nil {
				return nil, fmt.Errorf("parser: %s: URI rule %s has no DFA (gen dfa -start)", name, r)
			}
			s.uriRules = append(s.uriRules, r)
			s.uriNames = append(s.uriNames, &s.names[i])
			s.uriDFA = append(s.uriDFA, t)
			s.uriMarked = append(s.uriMarked, &markedDFA{t: t})
		}
	}
	if len(s.names) > 0 {
		if len(s.uriRules) == 0 || len(s.names[0].URIRules) == 0 {
			return nil, fmt.Errorf("parser: %s: Names without URI rules", name)
		}
		if def := g.DefaultRule(); def != s.uriRules[0] {
			return nil, fmt.Errorf("parser: %s: the grammar's default rule %s is not the first URI rule %s (gen peg -default %s)", name, def, s.uriRules[0], s.uriRules[0])
		}
		if s.ipv4DFA = g.DFA(s.names[0].IPv4); s.ipv4DFA == nil {
			return nil, fmt.Errorf("parser: %s: the IPv4 rule %q has no DFA (gen dfa -start)", name, s.names[0].IPv4)
		}
	}
	s.octets = peg != nil && peg.Octets
	s.initCharsets(s.octets)
	return s, nil
}

// MustParser returns s, or panics if err is not nil. It is for package
// variables built from generated code, which the generated code's tests
// check:
//
//	var mine = parser.MustParser(parser.NewParser("mine", minegen.PEG(), minegen.DFA()))
func MustParser(s *Parser, err error) *Parser {
	if err != nil {
		panic(err)
	}
	return s
}

// rfc3986 is the syntax of RFC 3986 Appendix A, generated into
// internal/rfc3986gen.
var rfc3986 = MustParser(NewParser("rfc3986", rfc3986gen.PEG(), rfc3986gen.DFA(), AppendixANames()))

// RFC3986 returns the syntax of RFC 3986 Appendix A, whose entry points
// are this package's functions.
func RFC3986() *Parser { return rfc3986 }

// AppendixANames are the rules of Appendix A that make up a URI reference.
// A grammar layered on Appendix A starts from them and changes what it
// replaces (RFC 6874 adds IPv6addrz to IPv6, say).
func AppendixANames() Names {
	return Names{
		URIRules:     []string{"URI-reference", "URI", "absolute-URI", "relative-ref"},
		Scheme:       "scheme",
		Authority:    "authority",
		Userinfo:     "userinfo",
		Host:         "host",
		Port:         "port",
		Query:        "query",
		Fragment:     "fragment",
		Paths:        []string{"path-abempty", "path-absolute", "path-noscheme", "path-rootless", "path-empty"},
		Segment:      "segment",
		FirstSegment: "segment-nz-nc",
		IPv4:         "IPv4address",
		RegName:      "reg-name",
		IPvFuture:    "IPvFuture",
		IPv6:         []string{"IPv6address"},
	}
}

// Name is the syntax's name, as the uri command's -grammar takes it.
func (s *Parser) Name() string { return s.name }

// URIRules returns the start rules that parse into a URI, the default
// rule first.
func (s *Parser) URIRules() []string { return slices.Clone(s.uriRules) }

// DefaultRule is the grammar's default rule (gen peg -default, or its
// first start rule that no rule references), which Parse uses when given
// none: URI-reference for RFC 3986, IRI-reference for RFC 3987.
func (s *Parser) DefaultRule() string { return s.g.DefaultRule() }

// Rules returns the names of every rule the syntax parses, sorted.
func (s *Parser) Rules() []string { return s.g.Rules() }

// Rule returns the canonical name of a rule (ABNF names are
// case-insensitive), and whether the syntax has it. The empty name is the
// default rule, as for Parse: so it is for every method that takes a rule
// by name (Validate, ParseRule, ParsePEG, …).
func (s *Parser) Rule(rule string) (string, bool) {
	if rule == "" {
		return s.DefaultRule(), true
	}
	return s.g.Rule(rule)
}

// IsURIRule reports whether rule parses into a URI.
func (s *Parser) IsURIRule(rule string) bool { return slices.Contains(s.uriRules, rule) }

// Parse parses in as one of the URI rules (the reference rule if rule is
// ""): validated by the rule's DFA, split without allocating. On failure
// the error is the DFA's (see [Error]): its cost is that of a valid
// input's, and it allocates once.
func (s *Parser) Parse(rule, in string) (u URI, err error) {
	i, err := s.uriRule(rule)
	if err == nil {
		err = s.parseURI(&u, i, in)
	}
	return u, err
}

// uriRule returns the index of a URI rule ("" for the reference rule).
func (s *Parser) uriRule(rule string) (int, error) {
	if len(s.uriRules) == 0 {
		return 0, &ruleError{fmt.Sprintf("parser: %s has no URI rules", s.name)}
	}
	if rule == "" {
		return 0, nil
	}
	i := slices.Index(s.uriRules, rule)
	if i < 0 {
		if name, ok := s.Rule(rule); ok {
			i = slices.Index(s.uriRules, name)
		}
	}
	if i < 0 {
		return 0, s.notURIRule(rule)
	}
	return i, nil
}

// parseURI parses in as the i'th URI rule into *u, which it leaves alone
// on failure. It writes through a pointer: the URI is large, and copying
// it through the callers' results was a fifth of the cost of a parse. A
// u of another grammar than RFC 3986's (URI.Set's; the other callers
// pass a zero URI) is parsed with its own grammar's i'th rule: the test
// is here, where URI.Set's would take it past the inliner's budget, and
// rfc3986.Parse with it; it costs Parse 5 instructions of some 795 a
// reference (cachegrind), and calls again rather than changing s, which
// cost 7.
func (s *Parser) parseURI(u *URI, i int, in string) error {
	if u.p != nil && u.p != s {
		return u.p.parseURI(u, i, in) // u.p's i'th rule, once
	}
	// The common case, a generated walk over input within the limit, is
	// kept apart from the others (parseURIWith), whose calls and errors
	// made this function's frame four times as large and cost Parse a
	// few percent.
	m := s.uriMarked[i].machine()
	if len(in) > MaxLength || m == nil || m.Walk() == nil {
		return s.parseURIWith(u, i, in, m)
	}
	// One walk validates and marks the delimiters (see splitMarks).
	marks, ok, fail, st := m.Walk()(m, in)
	if !ok {
		return s.walkError(m, i, in, fail, st)
	}
	var p *Parser // the grammar the URI records: nil for RFC 3986's
	if s != rfc3986 {
		p = s
	}
	s.splitMarks(u, in, &marks, p)
	return nil
}

// walkError is the error of a walk that stopped at fail in state st.
//
//go:noinline
func (s *Parser) walkError(m *syntax.Machine, i int, in string, fail, st int) error {
	return s.dfaError(m, s.uriRules[i], in, m.StopAt(in, fail, st))
}

// parseURIWith is parseURI without a generated walk: input past the
// limit, a marked table walked by the runtime, or no marks (m is nil).
func (s *Parser) parseURIWith(u *URI, i int, in string, m *syntax.Machine) error {
	if len(in) > MaxLength {
		return tooLong(s.uriRules[i], in, MaxLength)
	}
	var p *Parser
	if s != rfc3986 {
		p = s
	}
	if m != nil {
		var marks syntax.Marks
		ok, fail, st := m.RunMarks(in, &marks)
		if !ok {
			return s.dfaError(m, s.uriRules[i], in, m.StopAt(in, fail, st))
		}
		s.splitMarks(u, in, &marks, p)
		return nil
	}
	d := s.uriDFA[i].Machine()
	if ok, stop := d.Why(in); !ok {
		return s.dfaError(d, s.uriRules[i], in, stop)
	}
	*u = URI{}
	s.split(u, in)
	u.p = p
	return nil
}

// markedDFA is a URI rule's DFA with appendixB's marks (syntax's
// Table.Marked), built on first use; nil if the marks do not fold into
// the DFA, whose inputs are then split by the scan itself.
type markedDFA struct {
	t     *syntax.Table
	ready atomic.Bool // m is set
	once  sync.Once
	m     *syntax.Machine
}

// machine returns the machine; it inlines, where sync.Once.Do's closure
// kept it from inlining.
func (d *markedDFA) machine() *syntax.Machine {
	if d.ready.Load() {
		return d.m
	}
	return d.build()
}

func (d *markedDFA) build() *syntax.Machine {
	d.once.Do(func() {
		d.m, _ = d.t.Marked(appendixB)
		d.ready.Store(true)
	})
	return d.m
}

// Validate reports whether the whole of in matches the named rule, with an
// *Error saying where it does not. It decides with the rule's DFA, so it
// allocates nothing for valid input, and once for an error. A rule without
// a DFA (recursive, in a grammar of your own) is decided by the pigeon
// parser, as ParseRule does.
func (s *Parser) Validate(rule, in string) error {
	name, ok := s.Rule(rule)
	if !ok {
		return s.noRule(rule)
	}
	if len(in) > MaxLength {
		return tooLong(name, in, MaxLength)
	}
	t := s.g.DFA(name)
	if t == nil { // a recursive rule: no DFA
		_, err := s.ParseRule(name, in)
		return err
	}
	m := t.Machine()
	if ok, stop := m.Why(in); !ok {
		return s.dfaError(m, name, in, stop)
	}
	return nil
}

// ParseRule parses the whole of in as the named rule and returns the
// pigeon parser's parse tree: the captured rules with their spans. The
// rule's DFA decides first, so that an invalid input costs what a valid
// one does to reject and gets the DFA's error; the tree of a valid input
// comes from the function gen dfa -tree generated for the rule, which
// builds pigeon's tree without pigeon (about a tenth of its time: see
// syntax.Grammar.Tree), or from pigeon where the rule has none. Input
// longer than MaxTreeLength gets no tree: its error says whether it is
// valid ([ErrTooLongForTree]) or where it is not. A rule without a DFA is
// decided by the pigeon parser alone, whose errors name terminals.
func (s *Parser) ParseRule(rule, in string) (*Node, error) {
	name, ok := s.Rule(rule)
	if !ok {
		return nil, s.noRule(rule)
	}
	return s.parseRule(name, in, uint64(exprBase+exprPerByte*len(in)))
}

// parseRule is ParseRule for a canonical rule name, with pigeon's
// expression budget (MaxExpressions) given.
func (s *Parser) parseRule(name, in string, maxExpr uint64) (*Node, error) {
	if len(in) > MaxLength {
		return nil, tooLong(name, in, MaxLength)
	}
	if t := s.g.DFA(name); t != nil {
		m := t.Machine()
		if ok, stop := m.Why(in); !ok {
			return nil, s.dfaError(m, name, in, stop)
		}
	} else if len(in) > MaxTreeLength {
		// A recursive rule has no DFA: nothing decides it.
		return nil, tooLong(name, in, MaxTreeLength)
	}
	if len(in) > MaxTreeLength {
		return nil, &Error{Input: in, Offset: MaxTreeLength, Rule: name, Err: ErrTooLongForTree,
			Msg: fmt.Sprintf("valid, but too long for a parse tree: %d bytes, the limit is %d", len(in), MaxTreeLength)}
	}
	return s.treeParse(name, in, maxExpr)
}

// treeParse builds the tree of an input the rule's DFA accepted: with the
// function gen dfa -tree generated for the rule, which builds pigeon's
// tree without pigeon, or with pigeon (syntax.Grammar.Tree).
func (s *Parser) treeParse(name, in string, maxExpr uint64) (*Node, error) {
	if !s.g.HasTree(name) {
		return s.pegParse(name, in, maxExpr)
	}
	n, f := s.g.TreeString(name, in, maxExpr)
	return s.pegResult(name, in, n, f)
}

// ParsePEG parses the whole of in as the named rule with the pigeon
// parser alone, and returns its parse tree or its error: where pigeon
// stopped and the terminals it expected there, in pigeon's terms (a
// literal of several characters, such as "::", that the input holds in
// part, moves the offset past that part, the literal's next character
// expected; see syntax.Grammar.Parse). Where the PEG has exact guards or
// leaves decisions to the exact recognizer, the error is where the input
// stops being a prefix of a string of the rule's language, and what could
// have come there (one class, and end of input), found by the
// recognizer's search (syntax.Net.Farthest), within the budget: pigeon's
// farthest failure is not, where a guard fails or a decision was guided. ParseRule gives the same verdicts and
// trees (the differential tests, and package syntaxtest for your grammar,
// check it: ParseRule's trees come from generated functions where the rule
// has one); ParsePEG is for those tests and for work on a grammar. Its
// input is at most MaxTreeLength bytes, and its work is bounded as
// ParseRule's.
func (s *Parser) ParsePEG(rule, in string) (*Node, error) {
	name, ok := s.Rule(rule)
	if !ok {
		return nil, s.noRule(rule)
	}
	if len(in) > MaxTreeLength {
		return nil, tooLong(name, in, MaxTreeLength)
	}
	return s.pegParse(name, in, uint64(exprBase+exprPerByte*len(in)))
}

// pegParse parses in with the pigeon parser alone.
func (s *Parser) pegParse(name, in string, maxExpr uint64) (*Node, error) {
	n, f := s.g.Parse(name, []byte(in), maxExpr)
	return s.pegResult(name, in, n, f)
}

// pegResult is the tree or the error of a parse by pigeon.
func (s *Parser) pegResult(name, in string, n *Node, f *syntax.Failure) (*Node, error) {
	if f != nil {
		exp := f.Expected
		if i := slices.Index(exp, "EOF"); i >= 0 {
			exp = slices.Clone(exp)
			exp[i] = syntax.EndOfInput
		}
		return nil, &Error{Input: in, Offset: f.Offset, Rule: name, Expected: exp, Msg: f.Msg, Err: failureKind(f.Msg)}
	}
	if n == nil {
		// A rule that is not captured (a character class): its node is
		// its span.
		n = &Node{Rule: name, Start: 0, End: len(in)}
	}
	return n, nil
}

// failureKind is the error an [*Error] wraps for a syntax.Failure's
// message: [syntax.ErrWork] or [syntax.ErrDepth] for a parse abandoned for
// its budget or its depth, nil for a mismatch and any other message. A
// Failure carries only the text of its reason, so the text is what is
// compared.
func failureKind(msg string) error {
	switch msg {
	case syntax.ErrWork.Error():
		return syntax.ErrWork
	case syntax.ErrDepth.Error():
		return syntax.ErrDepth
	}
	return nil
}

// abandoned reports whether err is the kind of an abandoned parse, whose
// Error text keeps the offset after the reason.
func abandoned(err error) bool { return err == syntax.ErrWork || err == syntax.ErrDepth }

// ParseTree parses in as one of the URI rules as ParseRule does and
// returns the typed URI built from the parse tree, with the tree. It is
// the reference path, kept public for grammar work: Parse gives the same
// URI (the tests check it on a million inputs) at a fraction of the cost.
func (s *Parser) ParseTree(rule, in string) (URI, *Node, error) {
	name, ok := s.Rule(rule)
	if !ok || !s.IsURIRule(name) {
		return URI{}, nil, s.notURIRule(rule)
	}
	n, err := s.ParseRule(name, in)
	if err != nil {
		return URI{}, nil, err
	}
	return s.fromTree(in, n, s.uriNames[slices.Index(s.uriRules, name)]), n, nil
}

// dfaError is the error of an input that a DFA rejected: where, the
// innermost rule that could not continue, and what could have come there
// (see syntax.Machine.Why). It allocates the Error alone.
func (s *Parser) dfaError(m *syntax.Machine, rule, in string, stop syntax.Stop) *Error {
	if !s.octets {
		// A grammar over code points: its DFA reads their UTF-8 bytes and
		// may stop inside a character (after the first two bytes of
		// U+FFFE, which begin valid characters too). The error is at the
		// character, with the rule that could not continue there and what
		// could have come, as pigeon's and package explain's are.
		if c := charStart(in, stop.Offset); c < stop.Offset {
			stop = m.Rewind(in, c)
		}
	}
	e := &Error{Input: in, Offset: stop.Offset, Rule: rule, Innermost: stop.Rule, Expected: stop.Expected}
	// In a grammar of octets (gen -octets) a byte is a byte: no UTF-8.
	if f := stop.Offset; !s.octets && f < len(in) && in[f] >= 0x80 {
		if r, w := utf8.DecodeRuneInString(in[f:]); r == utf8.RuneError && w <= 1 {
			e.Msg = "invalid UTF-8"
		}
	}
	return e
}

// charStart returns the offset of the first byte of the UTF-8 sequence
// that off falls inside: one whose lead byte is before off and whose
// length goes past it (its later bytes are at off, or the input ends
// before them). It returns off itself where no sequence is cut there.
func charStart(s string, off int) int {
	for j := off - 1; j >= 0 && j >= off-3; j-- {
		c := s[j]
		switch {
		case c < 0x80:
			return off
		case c < 0xC0:
			continue // a continuation byte: the lead is further back
		case c < 0xE0:
			return cutAt(j, 2, off)
		case c < 0xF0:
			return cutAt(j, 3, off)
		case c < 0xF8:
			return cutAt(j, 4, off)
		}
		return off
	}
	return off
}

// cutAt is j when a sequence of n bytes from j goes past off, else off.
func cutAt(j, n, off int) int {
	if j+n > off {
		return j
	}
	return off
}

// tooLong is the error for an input longer than the limit max that it was
// not parsed under.
func tooLong(rule, s string, max int) *Error {
	return &Error{Input: s, Offset: max, Rule: rule, Err: ErrTooLong,
		Msg: fmt.Sprintf("input is %d bytes, longer than the %d the parser takes", len(s), max)}
}

// noRule is the error for a rule that is not one of s's start rules: a
// rule of the grammar that gen peg and gen dfa were not given with -start
// has no entry point, which the message says, with the rules that have
// one (a team's parser built from a recipe often lacks the rule it
// tries).
func (s *Parser) noRule(rule string) error {
	rules := s.Rules()
	list := "its start rules: " + strings.Join(rules, ", ")
	if len(rules) > 6 {
		list = fmt.Sprintf("%d start rules, which Rules lists", len(rules))
	}
	return &ruleError{fmt.Sprintf("parser: no rule %q in %s (%s; gen peg and gen dfa make a rule of the grammar one with -start)", rule, s.name, list)}
}

func (s *Parser) notURIRule(rule string) error {
	return &ruleError{fmt.Sprintf("parser: %s is not one of the URI rules of %s (%s)", rule, s.name, strings.Join(s.uriRules, ", "))}
}

// fromTree builds the typed URI from the parse tree of a URI-level rule,
// whose component rules nm names. Its offsets are those split gives the
// same text (the differential tests check that the two URIs are ==).
func (s *Parser) fromTree(in string, root *Node, nm *Names) URI {
	u := URI{text: in}
	if s != rfc3986 {
		u.p = s
	}
	pathSeen, authEnd := false, 0
	var walk func(*Node)
	walk = func(n *Node) {
		switch r := n.Rule; {
		case r == nm.Scheme:
			u.schemeEnd, u.flags = uint32(n.End), u.flags|hasScheme
			return
		case r == nm.Authority:
			u.flags, authEnd = u.flags|hasAuthority, n.End
		case r == nm.Userinfo:
			u.flags |= hasUserinfo
			return
		case r == nm.Host:
			u.hostStart, u.hostEnd, u.hostKind = uint32(n.Start), uint32(n.End), hostKind(n, nm)
			return
		case r == nm.Port:
			u.flags |= hasPort
			return
		case slices.Contains(nm.Paths, r):
			u.pathStart, u.pathEnd, pathSeen = uint32(n.Start), uint32(n.End), true
			return
		case r == nm.Query:
			u.queryEnd, u.flags = uint32(n.End), u.flags|hasQuery
			return
		case r == nm.Fragment:
			u.flags |= hasFragment
			return
		}
		for _, k := range n.Kids {
			walk(k)
		}
	}
	walk(root)
	if !pathSeen {
		// An empty path with no node of its own: it begins where the
		// authority, or the scheme, ends.
		p := 0
		switch {
		case u.has(hasAuthority):
			p = authEnd
		case u.has(hasScheme):
			p = int(u.schemeEnd) + 1
		}
		u.pathStart, u.pathEnd = uint32(p), uint32(p)
	}
	if !u.has(hasQuery) {
		u.queryEnd = u.pathEnd
	}
	return u
}

// hostKind reads the kind of a host node from the alternative it matched.
// The translation keeps the RFC's order, so IPv4address is taken before
// reg-name, as §3.2.2 requires.
func hostKind(host *Node, nm *Names) HostKind {
	var kind HostKind
	var walk func(*Node) bool
	walk = func(n *Node) bool {
		switch {
		case n.Rule == nm.IPv4:
			kind = HostIPv4
		case n.Rule == nm.RegName:
			kind = HostRegName
		case n.Rule == nm.IPvFuture:
			kind = HostIPvFuture
		case slices.Contains(nm.IPv6, n.Rule):
			kind = HostIPv6
		default:
			for _, k := range n.Kids {
				if walk(k) {
					return true
				}
			}
			return false
		}
		return true
	}
	if !walk(host) {
		return HostRegName // the empty host has no reg-name node of its own
	}
	return kind
}

package syntax

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// PEG is a parser that pigeon generated from the output of gen peg, as the
// glue gen writes into it describes it: the start rules, and the few
// functions and values that reach what pigeon keeps unexported. The
// generated package's PEG function returns one; [NewGrammar] checks it.
// Everything else — trees, errors, octet input, the exact recognizer — is
// this package's.
type PEG struct {
	// Entries maps each start rule, by its ABNF name, to the pigeon
	// entrypoint that parses the whole input as that rule.
	Entries map[string]string
	// Default is the default start rule: gen peg's -default, or the first
	// start rule that no rule references.
	Default string
	// Octets is set when the grammar's values are octets (gen -octets):
	// the parser then reads each input byte as the code point of the same
	// value (pigeon reads UTF-8), and offsets are mapped back.
	Octets bool
	// Net is the grammar as a recursive transition network, when some
	// decision of the translation is settled by the exact recognizer (gen
	// peg -report lists them), or the PEG has exact guards; Guided lists
	// the entrypoints that reach such a decision, whose parses need a
	// [Guide]. A rule of the network named by an entrypoint is the start
	// rule's language: on an invalid input, its search finds the error
	// (see [Net.Farthest]), which pigeon's farthest failure is not where
	// a guard fails or a decision was guided.
	Net    *Net
	Guided []string
	// Parse runs pigeon's Parse on text from an entrypoint, evaluating at
	// most maxExpr expressions, with guide (if not nil) in its global
	// store for the decisions that consult it.
	Parse func(entry string, text []byte, maxExpr uint64, guide *Guide) (any, error)
	// Errors reads pigeon's error list (an unexported type) out of an
	// error Parse returned.
	Errors func(err error) []PEGError
	// InvalidEncoding and MaxExpressions are pigeon's (unexported) reasons
	// for invalid UTF-8 and for reaching the expression limit.
	InvalidEncoding, MaxExpressions error
	// Source is the fingerprint of the grammar gen peg read
	// (abnf.Fingerprint), empty in files of a gen that wrote none. Every
	// table given to NewGrammar with it must have the same [Table.Source].
	Source string
}

// PEGError is one error of pigeon's list, as the generated glue reads it.
type PEGError struct {
	Err error // the error as listed
	// The fields of a parser error (Inner is nil for any other error):
	// its offset in the text parsed, the terminals expected there, and
	// the reason.
	Offset   int
	Expected []string
	Inner    error
}

// Grammar is one generated grammar: its pigeon parser, which builds parse
// trees and explains errors, and the DFAs of its regular start rules, which
// decide membership without allocating. It is safe for concurrent use.
type Grammar struct {
	name   string
	peg    PEG
	guided map[string]bool
	rules  []string // sorted
	dfa    Tables
	// netEntry maps each entrypoint the network has a rule for (gen
	// writes the entrypoints' bodies as rules named by them) to that
	// rule: the start rule's language, whose search finds an error.
	netEntry map[string]int
}

// NewGrammar checks what gen generated for a grammar — the PEG parser and
// the DFA tables (nil if none), as the generated functions PEG and DFA
// return them — and returns the grammar they make. It reports the first
// inconsistency: no start rule, a default rule that is not one, a missing
// function, a network or table that fails its check, a table of a rule that
// is not a start rule, files generated from different grammars (their
// Source fingerprints differ: one was regenerated and not the other). The
// grammar keeps the tables, which must not change afterwards; it copies
// the rest.
func NewGrammar(name string, peg *PEG, dfa Tables) (*Grammar, error) {
	if peg == nil {
		return nil, fmt.Errorf("syntax: grammar %s: no PEG", name)
	}
	g := &Grammar{name: name, peg: *peg, guided: map[string]bool{}, dfa: maps.Clone(dfa)}
	g.peg.Entries = maps.Clone(peg.Entries)
	g.peg.Guided = slices.Clone(peg.Guided)
	if err := g.check(); err != nil {
		return nil, fmt.Errorf("syntax: grammar %s: %w", name, err)
	}
	g.rules = slices.Sorted(maps.Keys(g.peg.Entries))
	return g, nil
}

func (g *Grammar) check() error {
	p := &g.peg
	switch {
	case len(p.Entries) == 0:
		return errors.New("no start rules")
	case p.Parse == nil || p.Errors == nil:
		return errors.New("the PEG lacks its Parse or Errors function")
	case p.InvalidEncoding == nil || p.MaxExpressions == nil:
		return errors.New("the PEG lacks pigeon's error reasons")
	}
	if _, ok := p.Entries[p.Default]; !ok {
		return fmt.Errorf("the default rule %q is not a start rule", p.Default)
	}
	entries := map[string]bool{}
	for rule, e := range p.Entries {
		if rule == "" || e == "" {
			return fmt.Errorf("start rule %q has entrypoint %q", rule, e)
		}
		entries[e] = true
	}
	for _, e := range p.Guided {
		if !entries[e] {
			return fmt.Errorf("guided entrypoint %q is no start rule's", e)
		}
		g.guided[e] = true
	}
	if len(p.Guided) > 0 && p.Net == nil {
		return errors.New("guided entrypoints and no network")
	}
	if p.Net != nil {
		if err := p.Net.Check(); err != nil {
			return err
		}
		for i, r := range p.Net.Rules {
			if entries[r.Name] {
				if g.netEntry == nil {
					g.netEntry = map[string]int{}
				}
				g.netEntry[r.Name] = i
			}
		}
	}
	// The fingerprint of the first file that has one: the PEG's, or a
	// table's when the PEG has none (written by an older gen).
	source, from := p.Source, "the PEG"
	for _, rule := range slices.Sorted(maps.Keys(g.dfa)) {
		t := g.dfa[rule]
		if _, ok := p.Entries[rule]; !ok {
			return fmt.Errorf("a DFA for %s, which is not a start rule", rule)
		}
		if t == nil {
			return fmt.Errorf("%s: nil DFA table", rule)
		}
		switch {
		case t.Source == "":
		case source == "":
			source, from = t.Source, "the DFA of "+rule
		case t.Source != source:
			return fmt.Errorf("the DFA of %s was generated from another grammar than %s (fingerprints %s and %s): regenerate both from one grammar", rule, from, t.Source, source)
		}
		if err := t.Check(); err != nil {
			return fmt.Errorf("%s: %w", rule, err)
		}
	}
	return nil
}

// Name is the grammar's name, as given to NewGrammar.
func (g *Grammar) Name() string { return g.name }

// DefaultRule is the grammar's default start rule: gen peg's -default, or
// the first start rule no rule references.
func (g *Grammar) DefaultRule() string { return g.peg.Default }

// Rules returns the start rules, sorted: the rules Parse takes.
func (g *Grammar) Rules() []string { return slices.Clone(g.rules) }

// Rule returns the canonical name of a start rule (ABNF names are
// case-insensitive), and whether the grammar has it.
func (g *Grammar) Rule(rule string) (string, bool) {
	if _, ok := g.peg.Entries[rule]; ok {
		return rule, true
	}
	for _, name := range g.rules {
		if strings.EqualFold(name, rule) {
			return name, true
		}
	}
	return "", false
}

// DFA returns the table of a start rule's DFA, or nil if gen dfa did not
// compile the rule (it has self-embedding recursion, or was not asked for).
func (g *Grammar) DFA(rule string) *Table { return g.dfa[rule] }

// Parse parses the whole input as a start rule, by its canonical name,
// with pigeon, evaluating at most maxExpr expressions, and returns the
// parse tree — nil for a rule that is not captured — or why the input does
// not match. Offsets are the input's, in bytes. A rule whose parse needs a
// [Guide] is first checked with a regular superset of its language, when
// one is small enough: an input outside it is invalid, and is not parsed
// with the guide; its error is found within the same budget, at most
// twice (the search of [Net.Farthest], then the PEG alone). A parse
// abandoned for its budget ([ErrWork]) or its depth ([ErrDepth]) says so
// in Msg, at the farthest offset where the parse saw the input still
// viable: its error, if it has one, is there or after.
func (g *Grammar) Parse(rule string, input []byte, maxExpr uint64) (*Node, *Failure) {
	entry, ok := g.peg.Entries[rule]
	if !ok {
		return nil, &Failure{Msg: fmt.Sprintf("no start rule %q in %s", rule, g.name)}
	}
	text, back := input, []int(nil)
	if g.peg.Octets {
		text, back = octetText(input)
	}
	var guide *Guide
	if g.guided[entry] {
		if r, ok := g.netEntry[entry]; ok {
			// An input the filter proves invalid is not parsed: the
			// guide would prove it by going everywhere (see filter.go).
			// (A lazy filter gets a share of the budget here, as it
			// may make states for most of the input: a parse it cannot
			// finish asks it again, with the budget, if it fails.)
			if off, rejected := g.peg.Net.rejects(int32(r), text, int(min(maxExpr, earlyFilterWork(len(text))))); rejected {
				return nil, octetFailure(g.rejected(entry, r, text, off, maxExpr), back, g.peg.Octets)
			}
		}
		guide = NewGuide(g.peg.Net, text, int(min(maxExpr, 1<<40)))
	}
	v, err := g.peg.Parse(entry, text, maxExpr, guide)
	top, far := int32(-1), -1
	if guide != nil {
		gerr, at := guide.Err(), int(guide.far)
		far = at
		if guide.topSet {
			top = guide.top
		}
		guide.release()
		if gerr != nil {
			if f, ok := g.lateRejected(entry, text, maxExpr); ok {
				return nil, octetFailure(f, back, g.peg.Octets)
			}
			// How far the guide's search got: the input is viable up
			// to there (the farthest position visited ends a viable
			// prefix, as in Net.Farthest); the error, if any, is there
			// or after.
			return nil, octetFailure(&Failure{Offset: at, Msg: gerr.Error()}, back, g.peg.Octets)
		}
	}
	if err != nil {
		f := g.peg.failure(err)
		if f.Msg == ErrWork.Error() && far > f.Offset {
			// Pigeon gave up where it was; the guide's search had
			// seen the input viable farther (see above).
			f.Offset = far
		}
		farthest, farOff := false, -1
		if r, ok := g.netEntry[entry]; ok {
			top = int32(r)
		}
		if top >= 0 && (f.Msg == "" || f.Msg == "invalid UTF-8") {
			// The recognizer's search of the start rule, recording how
			// far the input is viable (see Net.Farthest): the error the
			// grammar means, where the PEG's is not. (No class has a byte
			// that is not UTF-8: the search stops there at the latest, and
			// pigeon's reason stands if it gets there.)
			switch off, exp, match, ok := g.peg.Net.Farthest(int(top), text, int(min(maxExpr, 1<<40))); {
			case ok && !match:
				switch {
				case f.Msg == "" || off < f.Offset:
					f = &Failure{Offset: off, Expected: exp}
				case off == f.Offset:
					// Not UTF-8 where the input stops being viable:
					// pigeon's reason, and what could have come.
					f.Expected = exp
				}
				farthest = true
			case !ok:
				farOff = off // it gave up: the input is viable that far
			}
		}
		if guide != nil && f.Msg == "" && !farthest {
			if lf, ok := g.lateRejected(entry, text, maxExpr); ok {
				return nil, octetFailure(lf, back, g.peg.Octets)
			}
			// The guide stopped the parse where it saw that the input
			// cannot complete, at best the start of a guided rule: the
			// PEG alone says how far the input goes (see lenientGuide).
			// A parse that accepts (it does not: its matches are
			// derivations) leaves f. One it cannot finish within the
			// budget leaves no error to give, where the search of the
			// start rule gave up too: the parse is abandoned, at the
			// farthest offset any of them saw the input viable (f's
			// is where the guide said no: not the error, which is
			// after).
			if _, lerr := g.peg.Parse(entry, text, lenientBudget(maxExpr, len(text)), lenientGuide()); lerr != nil {
				switch lf := g.peg.failure(lerr); lf.Msg {
				case "":
					if lf.Offset >= f.Offset {
						f = lf
					}
				case ErrWork.Error(), ErrDepth.Error():
					f = &Failure{Offset: max(f.Offset, lf.Offset, farOff, far), Msg: lf.Msg}
				}
			}
		}
		if f.Msg == "invalid UTF-8" && f.Offset >= 0 && f.Offset < len(text) && !farthest {
			// Pigeon reads a character ahead of what it matches, and
			// reports bytes that are not UTF-8 instead of its farthest
			// failure, with no expected set: the input may have stopped
			// being viable before them ("5a. \xff" as a host, at the
			// space). The prefix before them says: a failure inside it is
			// the error; one at its end is what could have come there.
			f = g.beforeInvalid(f, entry, text, maxExpr, guide != nil)
		}
		if f.Msg == "" && !farthest {
			f = literalPrefix(f, text)
		}
		if f.Msg == "" && !g.peg.Octets && notUTF8(text, f.Offset) {
			// The error is at a byte that is not UTF-8, found by a search
			// that does not say why (the recognizer's, or pigeon's before
			// it): it is the reason, as in a DFA's error.
			f.Msg = "invalid UTF-8"
		}
		return nil, octetFailure(f, back, g.peg.Octets)
	}
	n, _ := v.(*Node)
	return octetNode(n, back), nil
}

// notUTF8 reports whether the byte of text at off begins no character of
// UTF-8.
func notUTF8(text []byte, off int) bool {
	if off < 0 || off >= len(text) || text[off] < utf8.RuneSelf {
		return false
	}
	r, w := utf8.DecodeRune(text[off:])
	return r == utf8.RuneError && w <= 1
}

// beforeInvalid is the failure of an input whose first byte that is not
// UTF-8, at f.Offset, is where pigeon stopped (f): the prefix before it,
// parsed alone, fails inside (literalPrefix: not at a string it ends
// inside, "%2" of "%25"), or at its end, with what could have come there,
// which f then names too. A prefix that matches the whole rule is parsed
// again followed by U+FFFF, a character no class of RFC 3986 or its kin
// has: a failure at the character is what could have come, "EOF" among
// it; one past it (the grammar matched the character) says nothing, and
// f stays as it is.
func (g *Grammar) beforeInvalid(f *Failure, entry string, text []byte, maxExpr uint64, guided bool) *Failure {
	parse := func(in []byte) *Failure {
		var pg *Guide
		budget := maxExpr
		if guided {
			pg, budget = lenientGuide(), lenientBudget(maxExpr, len(in))
		}
		_, err := g.peg.Parse(entry, in, budget, pg)
		if err == nil {
			return nil
		}
		return g.peg.failure(err)
	}
	prefix := text[:f.Offset]
	pf := parse(prefix)
	if pf == nil {
		pf = parse(append(prefix[:len(prefix):len(prefix)], "\uffff"...))
		if pf == nil || pf.Msg != "" || pf.Offset != f.Offset {
			return f
		}
		return &Failure{Offset: f.Offset, Expected: pf.Expected, Msg: f.Msg}
	}
	if pf.Msg != "" {
		return f
	}
	switch pf = literalPrefix(pf, prefix); {
	case pf.Offset < f.Offset:
		return pf
	case pf.Offset == f.Offset:
		return &Failure{Offset: f.Offset, Expected: pf.Expected, Msg: f.Msg}
	}
	return f
}

// earlyFilterWork is the work a lazy filter may spend making states before
// a guided parse of an input of n bytes: a few units a byte, against the
// guide's tens. (RFC 5322's filter, which would have more than 65,536
// states, made states at most inputs' every byte: with the whole budget,
// it made valid messages' parses two to three times as slow.)
func earlyFilterWork(n int) uint64 { return 4096 + 8*uint64(n) }

// lateRejected runs the start rule's lazy filter, with the whole budget,
// on an input whose guided parse failed without finding its error or gave
// up: where the filter rejects it, its error (see rejected). A filter made
// at once has run already.
func (g *Grammar) lateRejected(entry string, text []byte, maxExpr uint64) (*Failure, bool) {
	r, ok := g.netEntry[entry]
	if !ok {
		return nil, false
	}
	if f := g.peg.Net.filter(int32(r)); f == nil || f.lazy == nil {
		return nil, false
	}
	off, rejected := g.peg.Net.rejects(int32(r), text, int(min(maxExpr, 1<<40)))
	if !rejected {
		return nil, false
	}
	return g.rejected(entry, r, text, off, maxExpr), true
}

// rejected is the error of an input that rule r's filter proved invalid,
// at offset off or before: the exact search's (Net.Farthest), which a
// parse would have found too, within the budget. Past it, the farthest
// failure of the PEG alone (with lenientBudget) is a prefix of the input
// that is viable: the error is there or after, and the filter says there
// or before, so where the two meet, it is the error. Otherwise the error
// is ErrWork, as a guided parse that gives up says (the PEG alone commits
// where the grammar gives back: "y" + " y"×1000 + "!x" of v = t " y" "!",
// t = "y" / t " " t, fails at the "!", 2,001, and the error is at 2,002).
func (g *Grammar) rejected(entry string, r int, text []byte, off int, maxExpr uint64) *Failure {
	at, exp, match, ok := g.peg.Net.Farthest(r, text, int(min(maxExpr, 1<<40)))
	if ok && !match {
		return &Failure{Offset: at, Expected: exp}
	}
	_, err := g.peg.Parse(entry, text, lenientBudget(maxExpr, len(text)), lenientGuide())
	if err == nil {
		// Not expected: the filter accepts a superset of the language,
		// and the PEG's matches are derivations.
		return &Failure{Offset: off, Msg: "the parser accepts an input its filter rejects"}
	}
	f := g.peg.failure(err)
	switch f.Msg {
	case "":
		if f = literalPrefix(f, text); f.Offset == off {
			return f
		}
	case ErrDepth.Error():
		return f
	case ErrWork.Error():
	default:
		// Invalid UTF-8 where pigeon read a character ahead: not a
		// viable prefix (helper 45: "y y … y" + "x\xff" of
		// v = "y" / v " " v gave up at 2,002, past the error at 2,001).
		return &Failure{Offset: at, Msg: ErrWork.Error()}
	}
	// The PEG alone failed at a viable prefix short of the filter's
	// offset (the error is between the two), or gave up too, where it
	// was: the parse gives up at the farthest viable prefix either
	// search saw.
	return &Failure{Offset: max(f.Offset, at), Msg: ErrWork.Error()}
}

// literalPrefix moves a failure past the part of an expected literal the
// input holds. Pigeon matches a string ("true", "HTTP", CRLF's "\r\n") as
// one terminal and records its failure where the string begins; but the
// input at the failure is viable as far as it goes on with one of the
// expected strings ("tru}" in JSON is viable up to the "}"). The failure is
// then there, and what could come is the next character of each string
// that went on that far.
func literalPrefix(f *Failure, text []byte) *Failure {
	if f.Offset < 0 || f.Offset >= len(text) {
		return f
	}
	rest := text[f.Offset:]
	best := 0
	var next []string
	for _, e := range f.Expected {
		lit, fold, ok := pigeonLiteral(e)
		if !ok || len(lit) < 2 {
			continue
		}
		k := 0
		for k < len(lit) && k < len(rest) && (rest[k] == lit[k] || fold && asciiLower(rest[k]) == asciiLower(lit[k])) {
			k++
		}
		if k == 0 || k == len(lit) {
			continue // not begun, or whole: it did not fail inside
		}
		for k > 0 && !utf8.RuneStart(lit[k]) {
			k-- // the literal's characters whole
		}
		if k == 0 {
			continue
		}
		_, c := utf8.DecodeRuneInString(lit[k:])
		want := strconv.Quote(lit[k : k+c])
		if fold {
			want += "i"
		}
		switch {
		case k > best:
			best, next = k, []string{want}
		case k == best && !slices.Contains(next, want):
			next = append(next, want)
		}
	}
	if best == 0 {
		return f
	}
	return &Failure{Offset: f.Offset + best, Expected: next}
}

// pigeonLiteral reads pigeon's text of an expected string: "\"abc\"", or
// "\"abc\"i" for one that ignores case.
func pigeonLiteral(e string) (lit string, fold, ok bool) {
	if strings.HasSuffix(e, "\"i") {
		e, fold = e[:len(e)-1], true
	}
	if len(e) < 2 || e[0] != '"' || e[len(e)-1] != '"' {
		return "", false, false
	}
	lit, err := strconv.Unquote(e)
	return lit, fold, err == nil
}

func asciiLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// lenientBudget is the expression budget of a parse with the lenient
// guide, for an input of n bytes: the guide's answers are what keeps a
// PEG that backtracks from exponential work, so the PEG alone gets a
// budget linear in the input (that of package parser's parses, 10,000 and
// 150 a byte), or the caller's if less. Past it, the error stays the
// guided parse's.
func lenientBudget(maxExpr uint64, n int) uint64 {
	return min(maxExpr, 10000+150*uint64(n))
}

// failure reads pigeon's error list; reasons that are not mismatches
// (invalid UTF-8, the expression limit) come first: they explain the rest.
func (p *PEG) failure(err error) *Failure {
	errs := p.Errors(err)
	if len(errs) == 0 {
		return &Failure{Msg: err.Error()}
	}
	for _, e := range errs {
		switch {
		case e.Inner == nil:
		case errors.Is(e.Inner, p.InvalidEncoding):
			return &Failure{Offset: e.Offset, Msg: "invalid UTF-8"}
		case errors.Is(e.Inner, p.MaxExpressions):
			return &Failure{Offset: e.Offset, Msg: ErrWork.Error()}
		case errors.Is(e.Inner, ErrDepth):
			return &Failure{Offset: e.Offset, Msg: ErrDepth.Error()}
		}
	}
	if e := errs[0]; e.Inner != nil {
		return &Failure{Offset: e.Offset, Expected: e.Expected}
	}
	return &Failure{Msg: errs[0].Err.Error()}
}

// octetText returns input with each byte of %x80-FF written as the UTF-8 of
// the code point of the same value, and the input offset of each offset of
// the result; nil when the input is ASCII and the offsets are the same.
func octetText(input []byte) ([]byte, []int) {
	i := 0
	for i < len(input) && input[i] < 0x80 {
		i++
	}
	if i == len(input) {
		return input, nil
	}
	text := make([]byte, 0, 2*len(input))
	back := make([]int, 0, 2*len(input)+1)
	for j, c := range input {
		text = utf8.AppendRune(text, rune(c))
		for len(back) < len(text) {
			back = append(back, j)
		}
	}
	return text, append(back, len(input))
}

func octetNode(n *Node, back []int) *Node {
	if n != nil && back != nil {
		n.Start, n.End = back[n.Start], back[n.End]
		for _, k := range n.Kids {
			octetNode(k, back)
		}
	}
	return n
}

func octetFailure(f *Failure, back []int, octets bool) *Failure {
	if back != nil && f.Offset >= 0 && f.Offset < len(back) {
		f.Offset = back[f.Offset]
	}
	if octets {
		// Pigeon writes a terminal's characters; in a grammar of octets,
		// those from U+0080 to U+00FF stand for bytes: "\xC3\xA9", not
		// "Ã©" (see octetText).
		exp := make([]string, len(f.Expected))
		for i, e := range f.Expected {
			exp[i] = octetExpected(e)
		}
		f.Expected = exp
	}
	return f
}

// octetExpected writes the characters U+0080 to U+00FF of pigeon's text
// of a terminal as the bytes they stand for, \xHH.
func octetExpected(e string) string {
	var b strings.Builder
	for _, r := range e {
		if r >= 0x80 && r <= 0xFF {
			fmt.Fprintf(&b, "\\x%02X", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

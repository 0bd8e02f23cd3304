package abnf

import (
	_ "embed"
	"fmt"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Source is one ABNF text to read.
type Source struct {
	Name string // used in positions, usually the file name
	Text []byte
}

// Options changes how sources are read.
type Options struct {
	// Override names rules whose "=" definition in a later source replaces
	// the earlier definition instead of being reported as a duplicate. A
	// definition can also be marked in the source itself, keeping the file
	// valid RFC 5234, with a comment line "; @override" directly above it.
	Override []string
	// Octets says that numeric values are octets (bytes 0–255), as in RFC
	// 3629's UTF8-octets, rather than Unicode code points matched in UTF-8
	// (the default, as in RFC 3987). RFC 5234 §2.4 leaves the encoding to
	// the grammar; the grammar's author says which. In octet mode a value
	// above %xFF is an error.
	Octets bool
	// MaxNesting is the deepest nesting of groups and options the reader
	// takes; deeper is an error at the group that goes past it, so that no
	// input can exhaust the stack of the reader or of the stages after it.
	// Zero means DefaultMaxNesting.
	MaxNesting int
	// Lenient accepts what RFC 5234 forbids but grammars in the wild
	// write, each with a warning in [Grammar.Warnings] rather than an
	// error: elements of a concatenation written without white space
	// between them ("a""b", ("a")*"b"), which RFC 5234 §4 separates with
	// 1*c-wsp.
	Lenient bool
	// Starts, when not empty, limits the report of prose values to the
	// rules these start rules reach: a grammar extracted from an RFC often
	// defines, as prose, rules it imports from other documents
	// ("<host, see [RFC3986], Section 3.2.2>") that the caller's start
	// rules do not use. The rules the start rules do not reach keep their
	// prose in the grammar, and matching one is an error, as it is for
	// any prose value. Start rules the grammar does not define are
	// ignored here.
	Starts []string
}

// DefaultMaxNesting is the default [Options.MaxNesting]: far above what
// grammars written by people need (RFC grammars nest a few levels), far
// below what would strain the recursive stages that follow the reader.
const DefaultMaxNesting = 1000

// MaxNestingLimit is the largest [Options.MaxNesting]: the stages after the
// reader (lowering, automata, translation) recurse on the nesting, and at
// 200,000 levels they overflowed Go's stack; 10,000 levels take a tenth of
// a second and 80 MB in gen peg.
const MaxNestingLimit = 10000

// OverrideMarker is the comment that marks the definition below it as an
// override (see [Options.Override]).
const OverrideMarker = "@override"

//go:embed core.abnf
var coreText []byte

// CoreSource is the name of the built-in source holding RFC 5234 Appendix B.1.
const CoreSource = "RFC 5234 B.1"

// ReadFiles reads the named files, in order, as one grammar.
func ReadFiles(names []string, opts *Options) (*Grammar, error) {
	var srcs []Source
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, Source{Name: n, Text: b})
	}
	return Read(srcs, opts)
}

// ReadString reads one grammar from text; name is used in positions.
func ReadString(name, text string) (*Grammar, error) {
	return Read([]Source{{Name: name, Text: []byte(text)}}, nil)
}

// Read reads the sources, in order, as one grammar. It reports every syntax
// error, every duplicate definition and every reference to an undefined rule
// as an [ErrorList]; the grammar returned with errors holds what could be
// read and is meant for reporting only.
func Read(srcs []Source, opts *Options) (*Grammar, error) {
	if opts == nil {
		opts = &Options{}
	}
	if opts.MaxNesting > MaxNestingLimit {
		return nil, fmt.Errorf("abnf: a nesting limit of %d is above %d, the most the reader and the stages after it support", opts.MaxNesting, MaxNestingLimit)
	}
	r := &reader{g: &Grammar{Octets: opts.Octets}, override: map[string]bool{}, broken: map[string]bool{}, maxNesting: opts.MaxNesting, lenient: opts.Lenient}
	if r.maxNesting <= 0 {
		r.maxNesting = DefaultMaxNesting
	}
	for _, n := range opts.Override {
		r.override[strings.ToLower(n)] = true
	}
	for _, s := range srcs {
		r.source(s, false)
	}
	if len(r.g.Rules) == 0 && len(r.errs) == 0 {
		// Nothing to match, translate or sample: every later stage needs
		// a rule, so say so here, where the position is known.
		pos := Pos{Line: 1, Col: 1}
		if len(srcs) > 0 {
			pos.File = srcs[0].Name
		}
		r.errs.Add(pos, "no rules: the grammar is empty or holds only comments")
	}
	r.resolve()
	r.reportProse(opts.Starts)
	r.errs.Sort()
	r.warns.Sort()
	for _, w := range r.warns {
		r.g.Warnings = append(r.g.Warnings, Problem{Pos: w.Pos, Severity: SeverityWarning, Msg: w.Msg})
	}
	return r.g, r.errs.Err()
}

type reader struct {
	g        *Grammar
	errs     ErrorList
	override map[string]bool
	core     map[string]*Rule // parsed core rules, by lower-case name
	orphans  []Node           // bodies of rejected definitions
	broken   map[string]bool  // rules (lower-cased) whose definition did not parse

	maxNesting int
	lenient    bool
	prose      []proseUse // prose values not under a zero repetition (see reportProse)
	warns      ErrorList  // leniencies used (Options.Lenient)
}

// A line of source text, without its line terminator.
type line struct {
	pos     Pos // of the first byte
	text    string
	indent  int  // column of the first non-WSP byte, 1-based; 0 if blank
	comment bool // only a comment
}

func splitLines(name string, text []byte, errs *ErrorList) []line {
	var lines []line
	off, n := 0, 1
	for off <= len(text) {
		end := off
		for end < len(text) && text[end] != '\n' && text[end] != '\r' {
			end++
		}
		l := line{pos: Pos{File: name, Line: n, Col: 1, Offset: off}, text: string(text[off:end])}
		next := end
		if end < len(text) {
			if text[end] == '\r' {
				if end+1 < len(text) && text[end+1] == '\n' {
					next = end + 2
				} else {
					errs.Add(Pos{File: name, Line: n, Col: end - off + 1, Offset: end}, "carriage return not followed by line feed")
					next = end + 1
				}
			} else {
				next = end + 1
			}
		} else {
			next = end + 1
		}
		for i := 0; i < len(l.text); i++ {
			if c := l.text[i]; c != ' ' && c != '\t' {
				l.indent = i + 1
				l.comment = c == ';'
				break
			}
		}
		if !(end == len(text) && off == end && len(lines) > 0) { // no empty line after a final newline
			lines = append(lines, l)
		}
		off, n = next, n+1
	}
	return lines
}

// source reads one source. Core rules are read the same way, on demand.
func (r *reader) source(s Source, core bool) {
	lines := splitLines(s.Name, s.Text, &r.errs)
	margin := 0
	var cur []line // lines of the rule being collected
	overrideNext := false
	curOverride := false
	flush := func() {
		if len(cur) > 0 {
			r.rule(cur, core, curOverride)
		}
		cur = nil
	}
	for _, l := range lines {
		switch {
		case l.indent == 0:
			continue
		case l.comment:
			if len(cur) > 0 && l.indent > margin {
				// A comment inside a rule: keep it in the rule's text.
				cur = append(cur, l)
				continue
			}
			flush()
			overrideNext = strings.HasPrefix(strings.TrimLeft(l.text[l.indent:], " \t;"), OverrideMarker)
			continue
		}
		if margin == 0 {
			margin = l.indent
		}
		switch {
		case l.indent > margin && len(cur) > 0:
			cur = append(cur, l)
		default:
			if l.indent < margin {
				r.errs.Add(Pos{File: l.pos.File, Line: l.pos.Line, Col: l.indent, Offset: l.pos.Offset + l.indent - 1},
					"rule starts at column %d, left of the grammar's margin (column %d, set by its first rule)", l.indent, margin)
			} else if l.indent > margin {
				r.errs.Add(Pos{File: l.pos.File, Line: l.pos.Line, Col: l.indent, Offset: l.pos.Offset + l.indent - 1},
					"continuation line with no rule above it")
			}
			flush()
			cur = []line{l}
			curOverride = overrideNext
		}
		overrideNext = false
	}
	flush()
}

// Token kinds.
const (
	tEOF = iota
	tName
	tDefine    // =
	tDefineAlt // =/
	tSlash
	tLParen
	tRParen
	tLBrack
	tRBrack
	tRepeat
	tCharVal
	tNumVal
	tProse
)

var tokNames = [...]string{"end of rule", "rule name", `"="`, `"=/"`, `"/"`, `"("`, `")"`, `"["`, `"]"`, "repetition", "quoted string", "numeric value", "prose value"}

type token struct {
	kind int
	pos  Pos
	end  int // offset just past the token's last byte
	text string
	// decoded values
	min, max  int
	sensitive bool
	base      byte
	vals      []rune
	isRange   bool
	adjacent  bool // for tRepeat: directly followed by an element
	bad       bool // a lexical error was reported for this token
}

// lex turns the lines of one rule into tokens; comments are dropped.
func (r *reader) lex(lines []line) []token {
	var toks []token
	for _, l := range lines {
		t := l.text
		at := func(i int) Pos {
			return Pos{File: l.pos.File, Line: l.pos.Line, Col: i + 1, Offset: l.pos.Offset + i}
		}
		i := 0
		for i < len(t) {
			c := t[i]
			switch {
			case c == ' ' || c == '\t':
				i++
				continue
			case c == ';':
				i = len(t)
				continue
			}
			start := i
			tok := token{pos: at(i)}
			switch {
			case isAlpha(c):
				for i < len(t) && (isAlpha(t[i]) || isDigit(t[i]) || t[i] == '-') {
					i++
				}
				tok.kind, tok.text = tName, t[start:i]
			case c == '=':
				i++
				tok.kind = tDefine
				if i < len(t) && t[i] == '/' {
					i++
					tok.kind = tDefineAlt
				}
			case c == '/':
				i++
				tok.kind = tSlash
			case c == '(':
				i++
				tok.kind = tLParen
			case c == ')':
				i++
				tok.kind = tRParen
			case c == '[':
				i++
				tok.kind = tLBrack
			case c == ']':
				i++
				tok.kind = tRBrack
			case isDigit(c) || c == '*':
				i = r.lexRepeat(t, i, at, &tok)
			case c == '"':
				i = r.lexCharVal(t, i, at, &tok, false)
			case c == '%':
				if i+1 < len(t) && (t[i+1] == 's' || t[i+1] == 'S' || t[i+1] == 'i' || t[i+1] == 'I') && i+2 < len(t) && t[i+2] == '"' {
					sens := t[i+1] == 's' || t[i+1] == 'S'
					i = r.lexCharVal(t, i+2, at, &tok, sens)
					tok.pos = at(start)
				} else {
					i = r.lexNumVal(t, i, at, &tok)
				}
			case c == '<':
				j := i + 1
				for j < len(t) && t[j] != '>' {
					if t[j] < 0x20 || t[j] > 0x7e {
						r.errs.Add(at(j), "prose value may hold only SP and VCHAR (RFC 5234 §4 prose-val)")
						tok.bad = true
					}
					j++
				}
				if j == len(t) {
					r.errs.Add(at(i), "prose value not closed with \">\" on its line")
					tok.kind, tok.text, tok.bad = tProse, t[i+1:], true
					i = len(t)
				} else {
					tok.kind, tok.text = tProse, t[i+1:j]
					i = j + 1
				}
			default:
				ch, _ := utf8.DecodeRuneInString(t[i:])
				r.errs.Add(at(i), "unexpected character %q", ch)
				_, w := utf8.DecodeRuneInString(t[i:])
				i += w
				continue
			}
			if tok.kind != tName && tok.kind != tCharVal && tok.kind != tProse {
				tok.text = t[start:i]
			}
			tok.end = l.pos.Offset + i
			toks = append(toks, tok)
		}
	}
	return toks
}

func isAlpha(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// maxRepeat bounds repetition counts: larger counts are almost certainly
// typos and would make expansions in later stages huge.
const maxRepeat = 1 << 16

func (r *reader) lexRepeat(t string, i int, at func(int) Pos, tok *token) int {
	start := i
	num := func() (int, bool) {
		j := i
		for i < len(t) && isDigit(t[i]) {
			i++
		}
		if i == j {
			return 0, false
		}
		n, err := strconv.Atoi(t[j:i])
		if err != nil || n > maxRepeat {
			r.errs.Add(at(j), "repetition count %s is larger than %d", t[j:i], maxRepeat)
			n = maxRepeat
		}
		return n, true
	}
	tok.kind = tRepeat
	lo, hasLo := num()
	if i < len(t) && t[i] == '*' {
		i++
		hi, hasHi := num()
		tok.min, tok.max = 0, Inf
		if hasLo {
			tok.min = lo
		}
		if hasHi {
			tok.max = hi
			if hasLo && lo > hi {
				r.errs.Add(at(start), "repetition %s: minimum is greater than maximum", t[start:i])
			}
		}
	} else {
		tok.min, tok.max = lo, lo
	}
	if i < len(t) {
		c := t[i]
		tok.adjacent = isAlpha(c) || c == '(' || c == '[' || c == '"' || c == '%' || c == '<'
	}
	return i
}

func (r *reader) lexCharVal(t string, i int, at func(int) Pos, tok *token, sensitive bool) int {
	j := i + 1
	for j < len(t) && t[j] != '"' {
		if t[j] < 0x20 || t[j] > 0x7e {
			r.errs.Add(at(j), "quoted string may hold only SP and VCHAR (RFC 5234 §4 char-val); %s", r.hint(t[j:]))
			tok.bad = true
			if _, w := utf8.DecodeRuneInString(t[j:]); w > 1 {
				j += w // one error for the character, not one per byte
				continue
			}
		}
		j++
	}
	tok.kind, tok.sensitive = tCharVal, sensitive
	if j == len(t) {
		r.errs.Add(at(i), "quoted string not closed on its line")
		tok.text, tok.bad = t[i+1:], true
		return len(t)
	}
	tok.text = t[i+1 : j]
	return j + 1
}

// hint suggests the numeric value that matches the character at the start
// of t: its code point (%xE9 for "é"), or in octet mode its UTF-8 bytes
// (%xC3.A9), which is what the writer of the quoted string meant.
func (r *reader) hint(t string) string {
	c, w := utf8.DecodeRuneInString(t)
	switch {
	case c == utf8.RuneError && w <= 1:
		if r.g.Octets {
			return fmt.Sprintf("use a numeric value such as %%x%02X", t[0])
		}
		return fmt.Sprintf("byte 0x%02X is not UTF-8", t[0])
	case w == 1:
		return fmt.Sprintf("use a numeric value such as %%x%02X", c)
	case r.g.Octets:
		var b strings.Builder
		for i := range w {
			if i > 0 {
				b.WriteByte('.')
			}
			fmt.Fprintf(&b, "%02X", t[i])
		}
		return fmt.Sprintf("use a numeric value such as %%x%s (U+%04X in UTF-8; the grammar's values are octets)", b.String(), c)
	}
	return fmt.Sprintf("use a numeric value such as %%x%02X (U+%04X)", c, c)
}

func (r *reader) lexNumVal(t string, i int, at func(int) Pos, tok *token) int {
	nerr, start := len(r.errs), i
	i = r.lexNumVal1(t, i, at, tok)
	if i < len(t) && (isAlpha(t[i]) || isDigit(t[i])) && len(r.errs) == nerr {
		r.errs.Add(at(i), "%q is not a digit of the numeric value's base", t[i])
	}
	if i < len(t) && (t[i] == '-' || t[i] == '.') && len(r.errs) == nerr {
		// RFC 5234 §2.3: a numeric value is one value, one range
		// (%x41-5A) or one concatenation (%x41.42.43); %x41-5A-61 and
		// %x41.42-43 are neither, and reading their head alone would
		// silently drop the tail.
		r.errs.Add(at(i), "%q cannot follow %s: a numeric value is one range (%%x41-5A) or one concatenation (%%x41.42.43), not both or more (RFC 5234 §2.3)", t[i], t[start:i])
	}
	for i < len(t) && (isAlpha(t[i]) || isDigit(t[i]) || t[i] == '.' || t[i] == '-') {
		i++
	}
	tok.bad = len(r.errs) > nerr
	return i
}

func (r *reader) lexNumVal1(t string, i int, at func(int) Pos, tok *token) int {
	start := i
	tok.kind = tNumVal
	i++ // %
	if i == len(t) {
		r.errs.Add(at(start), "\"%%\" must be followed by b, d or x (RFC 5234 §2.3)")
		return i
	}
	base := t[i] | 0x20
	radix := map[byte]int{'b': 2, 'd': 10, 'x': 16}[base]
	if radix == 0 {
		r.errs.Add(at(i), "numeric value base must be b, d or x, not %q", t[i])
		return i
	}
	tok.base = base
	i++
	digit := func(c byte) bool {
		switch radix {
		case 2:
			return c == '0' || c == '1'
		case 10:
			return isDigit(c)
		}
		return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f'
	}
	value := func() (rune, bool) {
		j := i
		for i < len(t) && digit(t[i]) {
			i++
		}
		if i == j {
			if i < len(t) {
				r.errs.Add(at(i), "expected a base-%d digit, found %q", radix, t[i])
			} else {
				r.errs.Add(at(i), "expected a base-%d digit at end of line", radix)
			}
			return 0, false
		}
		v, err := strconv.ParseUint(t[j:i], radix, 32)
		if r.g.Octets && (err != nil || v > 0xFF) {
			r.errs.Add(at(j), "value %s is above %%xFF: the grammar's values are octets", t[j:i])
			return 0, false
		}
		if err != nil || v > utf8.MaxRune {
			r.errs.Add(at(j), "value %s is above U+10FFFF, the largest Unicode code point", t[j:i])
			return 0, false
		}
		if v >= 0xD800 && v <= 0xDFFF {
			r.errs.Add(at(j), "value %s is a UTF-16 surrogate (U+%04X), which has no UTF-8 encoding", t[j:i], v)
			return 0, false
		}
		return rune(v), true
	}
	v, ok := value()
	if !ok {
		for i < len(t) && (digit(t[i]) || t[i] == '.' || t[i] == '-') {
			i++
		}
		return i
	}
	tok.vals = []rune{v}
	switch {
	case i < len(t) && t[i] == '-':
		i++
		hi, ok := value()
		if ok {
			if hi < v {
				r.errs.Add(at(start), "range %s is empty: its end is below its start", t[start:i])
			}
			tok.vals = append(tok.vals, hi)
			tok.isRange = true
		}
	case i < len(t) && t[i] == '.':
		for i < len(t) && t[i] == '.' {
			i++
			w, ok := value()
			if !ok {
				break
			}
			tok.vals = append(tok.vals, w)
		}
	}
	return i
}

// parser parses the tokens of one rule.
type parser struct {
	r     *reader
	toks  []token
	i     int
	err   bool
	depth int // groups and options open
}

type syntaxError struct{}

func (p *parser) peek() token {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	var end Pos
	if len(p.toks) > 0 {
		last := p.toks[len(p.toks)-1]
		end = last.pos
		end.Col += len(last.text)
		end.Offset += len(last.text)
	}
	return token{kind: tEOF, pos: end}
}

func (p *parser) next() token {
	t := p.peek()
	if p.i < len(p.toks) {
		p.i++
	}
	if t.bad {
		panic(syntaxError{}) // already reported by the lexer
	}
	return t
}

func (p *parser) fail(t token, format string, args ...any) {
	p.r.errs.Add(t.pos, format, args...)
	panic(syntaxError{})
}

func (p *parser) expected(what string) {
	t := p.peek()
	found := tokNames[t.kind]
	if q := strconv.Quote(t.text); t.kind != tEOF && q != found {
		found += " " + q // a name or value, not a punctuation mark already quoted
	}
	p.fail(t, "expected %s, found %s", what, found)
}

// rule parses one rule from its lines and adds it to the grammar.
func (r *reader) rule(lines []line, core, markedOverride bool) {
	toks := r.lex(lines)
	if len(toks) == 0 {
		return // only rejected characters: already reported
	}
	p := &parser{r: r, toks: toks}
	func() {
		defer func() {
			if e := recover(); e != nil {
				if _, ok := e.(syntaxError); !ok {
					panic(e)
				}
				p.err = true
				// The rule is named but its definition is broken: its
				// references are not also "undefined rule" errors.
				if len(toks) > 1 && toks[0].kind == tName && (toks[1].kind == tDefine || toks[1].kind == tDefineAlt) {
					r.broken[strings.ToLower(toks[0].text)] = true
				}
			}
		}()
		if p.peek().kind != tName {
			p.expected("a rule name")
		}
		name := p.next()
		if k := p.peek().kind; k != tDefine && k != tDefineAlt {
			p.expected(`"=" or "=/"`)
		}
		def := p.next()
		expr := p.alternation()
		if t := p.peek(); t.kind != tEOF {
			if t.kind == tName && p.i+1 < len(p.toks) && (p.toks[p.i+1].kind == tDefine || p.toks[p.i+1].kind == tDefineAlt) {
				p.fail(t, "rule %q must start on a new line at the grammar's margin", t.text)
			}
			p.expected(`"/" or the end of the rule`)
		}
		var text []string
		for _, l := range lines {
			text = append(text, strings.TrimRight(l.text, " \t"))
		}
		r.define(name, def.kind == tDefineAlt, expr, strings.Join(text, "\n"), core, markedOverride)
	}()
}

func (p *parser) alternation() Node {
	pos := p.peek().pos
	alts := []Node{p.concatenation()}
	for p.peek().kind == tSlash {
		p.next()
		alts = append(alts, p.concatenation())
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return &Alt{Pos: pos, Alts: alts}
}

func (p *parser) concatenation() Node {
	pos := p.peek().pos
	var items []Node
	for {
		switch p.peek().kind {
		case tName:
			if p.i+1 < len(p.toks) && (p.toks[p.i+1].kind == tDefine || p.toks[p.i+1].kind == tDefineAlt) {
				break // the start of another rule, misplaced: reported by the caller
			}
			p.separated(len(items))
			items = append(items, p.repetition())
			continue
		case tLParen, tLBrack, tRepeat, tCharVal, tNumVal, tProse:
			p.separated(len(items))
			items = append(items, p.repetition())
			continue
		}
		break
	}
	if len(items) == 0 {
		p.expected("an element")
	}
	if len(items) == 1 {
		return items[0]
	}
	return &Concat{Pos: pos, Items: items}
}

// separated checks that the repetition about to be parsed, the n-th
// element of a concatenation, is separated from the one before by white
// space: RFC 5234 §4 writes concatenation = repetition *(1*c-wsp
// repetition), so "a""b" and ("a")*"b" are not ABNF. Options.Lenient reads
// them as concatenations, with a warning.
func (p *parser) separated(n int) {
	if n == 0 || p.i == 0 {
		return
	}
	prev, next := p.toks[p.i-1], p.toks[p.i]
	if prev.end != next.pos.Offset {
		return
	}
	const msg = "elements of a concatenation must be separated by white space (RFC 5234 §4: concatenation = repetition *(1*c-wsp repetition)): insert a space before %s"
	what := tokNames[next.kind]
	if next.kind == tName {
		what = "rule name " + strconv.Quote(next.text)
	}
	if p.r.lenient {
		p.r.warns.Add(next.pos, msg+"; read as a concatenation (lenient)", what)
		return
	}
	p.fail(next, msg+" (gen's -lenient flag, the Lenient option, accepts it with a warning)", what)
}

func (p *parser) repetition() Node {
	t := p.peek()
	if t.kind != tRepeat {
		return p.element()
	}
	p.next()
	if !t.adjacent {
		p.fail(t, "repetition %q must be followed directly by an element (RFC 5234 §4: repetition = [repeat] element)", t.text)
	}
	return &Repeat{Pos: t.pos, Min: t.min, Max: t.max, Body: p.element()}
}

func (p *parser) element() Node {
	switch p.peek().kind {
	case tName, tLParen, tLBrack, tCharVal, tNumVal, tProse:
	default:
		p.expected("an element")
	}
	t := p.next()
	switch t.kind {
	case tName:
		return &RuleRef{Pos: t.pos, Name: t.text}
	case tLParen, tLBrack:
		if p.depth++; p.depth > p.r.maxNesting {
			p.fail(t, "groups and options nested more than %d deep (the MaxNesting option, gen's -max-nesting flag, raises the limit to at most %d)", p.r.maxNesting, MaxNestingLimit)
		}
		defer func() { p.depth-- }()
		close := tRParen
		if t.kind == tLBrack {
			close = tRBrack
		}
		if p.peek().kind == close {
			p.fail(p.peek(), "empty %s", map[int]string{tRParen: "group", tRBrack: "option"}[close])
		}
		inner := p.alternation()
		if p.peek().kind != close {
			p.expected(tokNames[close])
		}
		p.next()
		if t.kind == tLBrack {
			return &Repeat{Pos: t.pos, Min: 0, Max: 1, Body: inner}
		}
		return inner
	case tCharVal:
		return &CharVal{Pos: t.pos, Text: t.text, Sensitive: t.sensitive}
	case tNumVal:
		if len(t.vals) == 0 {
			return &NumVal{Pos: t.pos, Base: 'x', Vals: []rune{0}}
		}
		return &NumVal{Pos: t.pos, Base: t.base, Vals: t.vals, Range: t.isRange}
	}
	return &Prose{Pos: t.pos, Text: t.text} // tProse
}

// A rule made only of characters the lexer rejected has no tokens; the
// rejection was reported, and the rule is skipped.

// proseUse is a prose value, not under a zero repetition, in the
// definition of rule (lower-cased).
type proseUse struct {
	rule string
	at   *Prose
}

// proseCheck records the prose values of rule's definition n that are not
// under a zero repetition, for reportProse.
func (r *reader) proseCheck(rule string, n Node, underZero bool) {
	switch n := n.(type) {
	case *Prose:
		if !underZero {
			r.prose = append(r.prose, proseUse{rule, n})
		}
	case *Repeat:
		r.proseCheck(rule, n.Body, underZero || n.Max == 0)
	case *Alt:
		for _, a := range n.Alts {
			r.proseCheck(rule, a, underZero)
		}
	case *Concat:
		for _, a := range n.Items {
			r.proseCheck(rule, a, underZero)
		}
	}
}

// reportProse reports the prose values proseCheck recorded: all of them,
// or with starts, those in the rules the start rules reach (see
// Options.Starts).
func (r *reader) reportProse(starts []string) {
	var reached map[string]bool
	if len(starts) > 0 {
		reached = map[string]bool{}
		var stack []*Rule
		for _, s := range starts {
			if rule := r.g.Rule(s); rule != nil && !reached[strings.ToLower(rule.Name)] {
				reached[strings.ToLower(rule.Name)] = true
				stack = append(stack, rule)
			}
		}
		for len(stack) > 0 {
			rule := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			Walk(rule.Expr, func(n Node) {
				ref, ok := n.(*RuleRef)
				if !ok {
					return
				}
				if d := r.g.Rule(ref.Name); d != nil && !reached[strings.ToLower(d.Name)] {
					reached[strings.ToLower(d.Name)] = true
					stack = append(stack, d)
				}
			})
		}
	}
	for _, p := range r.prose {
		if reached == nil || reached[p.rule] {
			r.errs.Add(p.at.Pos, "prose value <%s> has no machine meaning; only a zero repetition such as 0<%s> (the empty string) is accepted", p.at.Text, p.at.Text)
		}
	}
}

func (r *reader) define(name token, incremental bool, expr Node, text string, core, markedOverride bool) {
	key := strings.ToLower(name.text)
	r.proseCheck(key, expr, false)
	def := Def{Pos: name.pos, Incremental: incremental, Text: text}
	if core {
		r.core[key] = &Rule{Name: name.text, Pos: name.pos, Expr: expr, Defs: []Def{def}, Core: true}
		return
	}
	old := r.g.Rule(name.text)
	if old == nil && incremental {
		if c := r.coreRule(key); c != nil {
			old = r.materialize(c)
		}
	}
	switch {
	case old == nil && incremental:
		r.errs.Add(name.pos, "=/ adds alternatives to %s, which is not defined before this point", name.text)
	case old == nil:
		if markedOverride {
			r.errs.Add(name.pos, "%s is marked as an override but replaces no earlier definition", name.text)
		}
		r.g.add(&Rule{Name: name.text, Pos: name.pos, Expr: expr, Defs: []Def{def}})
	case incremental:
		if a, ok := old.Expr.(*Alt); ok {
			a.Alts = append(a.Alts, alts(expr)...)
		} else {
			old.Expr = &Alt{Pos: old.Expr.Position(), Alts: append([]Node{old.Expr}, alts(expr)...)}
		}
		old.Defs = append(old.Defs, def)
	case markedOverride || r.override[key]:
		def.Override = true
		old.Expr = expr
		old.Defs = append(old.Defs, def)
		old.Core = false
	default:
		r.errs.Add(name.pos, "%s is already defined at %s; use =/ to add alternatives, or mark an override", name.text, old.Pos)
		r.orphans = append(r.orphans, expr) // its references are still checked
	}
}

func alts(n Node) []Node {
	if a, ok := n.(*Alt); ok {
		return a.Alts
	}
	return []Node{n}
}

// coreRule returns the core rule with the given lower-case name, or nil.
func (r *reader) coreRule(key string) *Rule {
	if r.core == nil {
		r.core = map[string]*Rule{}
		r.source(Source{Name: CoreSource, Text: coreText}, true)
	}
	return r.core[key]
}

// materialize adds a copy of a core rule to the grammar.
func (r *reader) materialize(c *Rule) *Rule {
	cp := *c
	cp.Defs = append([]Def(nil), c.Defs...)
	r.g.add(&cp)
	return &cp
}

// resolve checks every reference, adding core rules that are referenced but
// not defined.
func (r *reader) resolve() {
	exprs := func(i int) Node {
		if i < len(r.orphans) {
			return r.orphans[i]
		}
		return r.g.Rules[i-len(r.orphans)].Expr
	}
	for i := 0; i < len(r.orphans)+len(r.g.Rules); i++ { // grows as core rules are added
		Walk(exprs(i), func(n Node) {
			ref, ok := n.(*RuleRef)
			if !ok || r.g.Rule(ref.Name) != nil {
				return
			}
			if c := r.coreRule(strings.ToLower(ref.Name)); c != nil {
				r.materialize(c)
				return
			}
			if r.broken[strings.ToLower(ref.Name)] {
				return // its definition's error is reported
			}
			r.errs.Add(ref.Pos, "undefined rule %s", ref.Name)
		})
	}
}

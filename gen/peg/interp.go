package peg

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/peguri/rfc3986/syntax"
)

// A small interpreter for the pigeon grammars the translator emits, with
// PEG semantics (ordered choice, greedy repetition, predicates) and
// pigeon v1.3.0's reading of character classes (escapes decoded before
// ranges are found). The translator reads its own output with it to build
// the exact recognizer's network (fallback.go) and to search witnesses for
// its fallbacks; tests check translations of many grammars in process with
// it (the end-to-end tests run the real pigeon on a few). It knows the code
// predicates the translator emits (questions to the asker: ask(c).Can(…),
// ask(c).Match(…), …, and the check of the rule stack's depth, nest(c))
// and no others.

type pexpr interface{}

type (
	pChoice struct{ alts []pexpr }
	pSeq    struct{ items []pexpr }
	pRep    struct {
		op   byte // '?', '*', '+'
		body pexpr
	}
	pAnd struct{ body pexpr }
	pNot struct{ body pexpr }
	pLit struct{ s string }
	pAny struct{}
	pRef struct {
		name string
		at   int // offset in the parsed text
	}
	// pCan is the marker of an unproven decision, before the fallback
	// pass replaces it with a call of the guide.
	pCan struct {
		item int
		at   int
		end  int
	}
	// pCode is a code predicate: a call of the guide, or the depth check.
	pCode struct {
		op   string // Can, Call, Enter, Leave, Abort, Match, Nest
		arg  int
		item int // Can: the report item of the decision
	}
	pCls struct {
		chars  []rune
		ranges []rune
		invert bool
	}
)

type pegProgram struct {
	rules  map[string]pexpr
	guards *syntax.Net // the exact guards' network (Result.guards), if any
}

// loadPEG parses the emitted grammar, skipping the initializer, comments,
// display names, labels and actions.
func loadPEG(text string) (*pegProgram, error) {
	p := &pp{s: text}
	// The initializer: a code block before the first rule.
	if i := strings.Index(text, "\n{\n"); i >= 0 {
		p.i = i + 1
		p.skipCode()
	}
	prog := &pegProgram{rules: map[string]pexpr{}}
	for {
		p.space()
		if p.i >= len(p.s) {
			return prog, nil
		}
		name := p.ident()
		if name == "" {
			return nil, p.err("rule name")
		}
		p.space()
		if p.peek() == '"' {
			p.literal()
			p.space()
		}
		if !strings.HasPrefix(p.s[p.i:], "<-") {
			return nil, p.err("<-")
		}
		p.i += 2
		e, err := p.choice()
		if err != nil {
			return nil, err
		}
		prog.rules[name] = e
		p.spaceNoNewline()
		if p.peek() == '{' {
			p.skipCode()
		}
	}
}

type pp struct {
	s string
	i int
}

func (p *pp) err(what string) error {
	end := min(p.i+40, len(p.s))
	return fmt.Errorf("peg: expected %s at %d: %q", what, p.i, p.s[p.i:end])
}

func (p *pp) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *pp) space() {
	for p.i < len(p.s) {
		switch {
		case p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r':
			p.i++
		case strings.HasPrefix(p.s[p.i:], "//"):
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		default:
			return
		}
	}
}

func (p *pp) spaceNoNewline() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *pp) skipCode() {
	depth := 0
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				p.i++
				return
			}
		case '"':
			p.literal()
			continue
		}
		p.i++
	}
}

func (p *pp) ident() string {
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || p.i > start && c >= '0' && c <= '9' {
			p.i++
			continue
		}
		break
	}
	return p.s[start:p.i]
}

func (p *pp) literal() string {
	start := p.i
	p.i++
	for p.i < len(p.s) && p.s[p.i] != '"' {
		if p.s[p.i] == '\\' {
			p.i++
		}
		p.i++
	}
	p.i++
	s, err := strconv.Unquote(p.s[start:p.i])
	if err != nil {
		panic(err)
	}
	return s
}

// atRuleStart reports whether the input continues with a new rule
// definition: an identifier followed by a display name or "<-".
func (p *pp) atRuleStart() bool {
	save := p.i
	defer func() { p.i = save }()
	p.space()
	if p.ident() == "" {
		return false
	}
	p.spaceNoNewline()
	if p.peek() == '"' {
		p.literal()
		p.spaceNoNewline()
	}
	return strings.HasPrefix(p.s[p.i:], "<-")
}

func (p *pp) choice() (pexpr, error) {
	var alts []pexpr
	for {
		s, err := p.seq()
		if err != nil {
			return nil, err
		}
		alts = append(alts, s)
		p.space()
		if p.peek() != '/' || strings.HasPrefix(p.s[p.i:], "//") {
			break
		}
		p.i++
	}
	if len(alts) == 1 {
		return alts[0], nil
	}
	return &pChoice{alts}, nil
}

func (p *pp) seq() (pexpr, error) {
	var items []pexpr
	for {
		p.spaceNoNewline()
		if p.peek() == '\n' {
			if p.atRuleStart() {
				break
			}
			p.space()
		}
		c := p.peek()
		if c == 0 || c == '/' || c == ')' || c == '{' || p.atRuleStart() {
			break
		}
		e, err := p.prefixed()
		if err != nil {
			return nil, err
		}
		items = append(items, e)
	}
	if len(items) == 1 {
		return items[0], nil
	}
	return &pSeq{items}, nil
}

func (p *pp) prefixed() (pexpr, error) {
	switch p.peek() {
	case '&':
		p.i++
		if p.peek() == '{' {
			return p.code()
		}
		e, err := p.suffixed()
		return &pAnd{e}, err
	case '!':
		p.i++
		e, err := p.suffixed()
		return &pNot{e}, err
	}
	// A label: ident ':'.
	save := p.i
	if id := p.ident(); id != "" && p.peek() == ':' {
		p.i++
	} else {
		p.i = save
	}
	return p.suffixed()
}

func (p *pp) suffixed() (pexpr, error) {
	e, err := p.primary()
	if err != nil {
		return nil, err
	}
	for {
		switch c := p.peek(); c {
		case '?', '*', '+':
			p.i++
			e = &pRep{c, e}
			continue
		}
		return e, nil
	}
}

func (p *pp) primary() (pexpr, error) {
	switch c := p.peek(); {
	case c == '(':
		p.i++
		e, err := p.choice()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.peek() != ')' {
			return nil, p.err(")")
		}
		p.i++
		return e, nil
	case c == '"':
		return &pLit{p.literal()}, nil
	case c == '.':
		p.i++
		return &pAny{}, nil
	case c == '[':
		return p.class()
	}
	at := p.i
	if id := p.ident(); id != "" {
		return &pRef{name: id, at: at}, nil
	}
	return nil, p.err("expression")
}

// class reads a character class the way pigeon v1.3.0 does
// (ast.CharClassMatcher.parse): escapes are decoded first, then a '-'
// between two characters, not first or last, makes a range.
func (p *pp) class() (pexpr, error) {
	start := p.i
	p.i++
	for p.i < len(p.s) && p.s[p.i] != ']' {
		if p.s[p.i] == '\\' {
			p.i++
		}
		p.i++
	}
	p.i++
	raw := p.s[start+1 : p.i-1]
	cls := &pCls{}
	if strings.HasPrefix(raw, "^") {
		cls.invert = true
		raw = raw[1:]
	}
	var chars []rune
	for i := 0; i < len(raw); {
		if raw[i] == '\\' {
			n := map[byte]int{'x': 4, 'u': 6, 'U': 10}[raw[i+1]]
			if n == 0 {
				chars = append(chars, rune(raw[i+1]))
				i += 2
				continue
			}
			v, err := strconv.ParseUint(raw[i+2:i+n], 16, 32)
			if err != nil {
				return nil, err
			}
			chars = append(chars, rune(v))
			i += n
			continue
		}
		r, w := utf8.DecodeRuneInString(raw[i:])
		chars = append(chars, r)
		i += w
	}
	inRange, wasRange := false, false
	for i, r := range chars {
		if inRange {
			cls.ranges = append(cls.ranges, r)
			inRange, wasRange = false, true
			continue
		}
		if r == '-' && !wasRange && len(cls.chars) > 0 && i < len(chars)-1 {
			inRange = true
			cls.ranges = append(cls.ranges, cls.chars[len(cls.chars)-1])
			cls.chars = cls.chars[:len(cls.chars)-1]
			continue
		}
		wasRange = false
		cls.chars = append(cls.chars, r)
	}
	return cls, nil
}

// code reads a code predicate (after its '&'): a decision marker, or a call
// of the guide.
func (p *pp) code() (pexpr, error) {
	start := p.i - 1
	p.skipCode()
	body := strings.TrimSpace(p.s[start+2 : p.i-1])
	if item, ok := strings.CutPrefix(body, canPrefix); ok {
		n, err := strconv.Atoi(item)
		if err != nil {
			return nil, p.err("decision marker")
		}
		return &pCan{item: n, at: start, end: p.i}, nil
	}
	if body == strings.TrimSpace(nestCall[2:len(nestCall)-1]) {
		// The check of the rule stack's depth (nestCall): the
		// interpreter's inputs are short.
		return &pCode{op: "Nest", item: -1}, nil
	}
	if m := lookCall.FindStringSubmatch(body); m != nil {
		c := &pCode{op: "Match", item: -1}
		c.arg, _ = strconv.Atoi(m[1])
		return c, nil
	}
	m := guideCall.FindStringSubmatch(body)
	if m == nil {
		return nil, fmt.Errorf("peg: unknown code predicate %q", body)
	}
	c := &pCode{op: m[1], item: -1}
	if m[2] != "" {
		c.arg, _ = strconv.Atoi(m[2])
	}
	if m[3] != "" {
		c.item, _ = strconv.Atoi(m[3])
	}
	return c, nil
}

// parseBody parses the body of one rule.
func parseBody(text string) (pexpr, error) {
	p := &pp{s: text}
	e, err := p.choice()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(p.s) {
		return nil, p.err("end of rule")
	}
	return e, nil
}

// latin1 reads each byte of in as the code point of the same value, as the
// generated parser of an octet grammar does (see Result.Octets).
func latin1(in []byte) []byte {
	out := make([]byte, 0, 2*len(in))
	for _, c := range in {
		out = utf8.AppendRune(out, rune(c))
	}
	return out
}

// parse runs the entry rule on the whole input, as pigeon does: the entry
// itself carries its end-of-input anchor.
func (prog *pegProgram) parse(entry string, in []byte) bool {
	ok, _, _ := prog.run(entry, in, nil, nil)
	return ok
}

// run parses in from entry. With a network, the guide settles the
// fallback decisions, except those whose report items are in skip: those
// decisions take their alternative as the PEG without a guard would. It
// returns false with an error if the guide gave up; steps is the work
// done, the interpreter's and the guide's.
func (prog *pegProgram) run(entry string, in []byte, net *syntax.Net, skip map[int]bool) (ok bool, steps int, err error) {
	m := &pm{prog: prog, in: in, skip: skip}
	if prog.guards != nil {
		m.look = syntax.NewLookahead(prog.guards, in, 1_000_000+1000*len(in))
	}
	if net != nil {
		// The exact recognizer takes cubic time on highly ambiguous
		// grammars (random ones are), linear time on the RFCs'.
		n := len(in)
		m.guide = syntax.NewGuide(net, in, 1_000_000+20*n*n*n)
	}
	_, ok = m.match(&pRef{name: entry}, 0)
	steps = m.steps + m.guide.Steps() + m.look.Steps()
	if m.guide != nil && m.guide.Err() != nil {
		return false, steps, m.guide.Err()
	}
	if m.look != nil && m.look.Err() != nil {
		return false, steps, m.look.Err()
	}
	return ok && utf8.Valid(in), steps, nil // pigeon reports invalid UTF-8 as an error
}

type pm struct {
	prog  *pegProgram
	in    []byte
	steps int
	memo  map[memoKey]memoVal // packrat: rule results per position, without a guide
	guide *syntax.Guide
	look  *syntax.Lookahead
	skip  map[int]bool
	depth int
}

type memoKey struct {
	rule string
	pos  int
}

type memoVal struct {
	end int
	ok  bool
}

func (m *pm) match(e pexpr, pos int) (int, bool) {
	m.steps++
	if m.steps > 50_000_000 {
		panic("peg interpreter: runaway")
	}
	switch e := e.(type) {
	case *pChoice:
		for _, a := range e.alts {
			if n, ok := m.match(a, pos); ok {
				return n, true
			}
		}
		return pos, false
	case *pSeq:
		p := pos
		for _, it := range e.items {
			n, ok := m.match(it, p)
			if !ok {
				return pos, false
			}
			p = n
		}
		return p, true
	case *pRep:
		p := pos
		count := 0
		for {
			n, ok := m.match(e.body, p)
			if !ok || (e.op == '?' && count == 1) {
				break
			}
			if n == p {
				panic("peg interpreter: empty loop body") // the translator must never emit one
			}
			p = n
			count++
			if e.op == '?' {
				break
			}
		}
		if e.op == '+' && count == 0 {
			return pos, false
		}
		return p, true
	case *pAnd:
		_, ok := m.match(e.body, pos)
		return pos, ok
	case *pNot:
		_, ok := m.match(e.body, pos)
		return pos, !ok
	case *pCan:
		return pos, true
	case *pCode:
		g := m.guide
		switch e.op {
		case "Match":
			return pos, m.look.Match(e.arg, pos)
		case "Can":
			return pos, m.skip[e.item] || g.Can(e.arg, pos)
		case "Call":
			return pos, g.Call(e.arg)
		case "Enter":
			return pos, g.Enter(e.arg, pos)
		case "Leave":
			return pos, g.Leave()
		case "Abort":
			return pos, g.Abort()
		case "Nest":
			return pos, true
		}
		panic("peg interpreter: unknown guide call " + e.op)
	case *pLit:
		if strings.HasPrefix(string(m.in[pos:]), e.s) {
			return pos + len(e.s), true
		}
		return pos, false
	case *pAny:
		if pos >= len(m.in) {
			return pos, false
		}
		_, w := utf8.DecodeRune(m.in[pos:])
		return pos + w, true
	case *pCls:
		if pos >= len(m.in) {
			return pos, false
		}
		r, w := utf8.DecodeRune(m.in[pos:])
		in := false
		for _, c := range e.chars {
			in = in || c == r
		}
		for i := 0; i+1 < len(e.ranges); i += 2 {
			in = in || r >= e.ranges[i] && r <= e.ranges[i+1]
		}
		if in != e.invert {
			return pos + w, true
		}
		return pos, false
	case *pRef:
		k := memoKey{e.name, pos}
		if v, ok := m.memo[k]; ok && m.guide == nil {
			return v.end, v.ok
		}
		body, ok := m.prog.rules[e.name]
		if !ok {
			panic("peg interpreter: undefined rule " + e.name)
		}
		m.depth++
		if m.depth > 100_000 {
			panic("peg interpreter: rule " + e.name + " calls itself without consuming input")
		}
		end, ok := m.match(body, pos)
		m.depth--
		if m.memo == nil {
			m.memo = map[memoKey]memoVal{}
		}
		m.memo[k] = memoVal{end, ok}
		return end, ok
	}
	panic(fmt.Sprintf("peg interpreter: %T", e))
}

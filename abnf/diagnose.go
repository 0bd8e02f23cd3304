package abnf

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Diagnosis: why an input does not match a rule, in the grammar's own
// terms. The analysis runs the ABNF with the same meaning as the Matcher
// (unordered alternation, repetition that gives input back), as a set of
// threads, each a derivation of the input read so far with the rule
// instances it has open (rule and start offset) and what it must still
// match. Where no thread can read the next character, the threads that
// were live say everything there is to say: which rules were open, what
// each could have read, what could come next, and through which rules they
// were reached.
//
// Threads that reach the same state are merged, and frames and rule
// instances are interned (built once for each value), so that a thread's
// state is two pointers and merging costs a map lookup: on a grammar
// without recursion the analysis is linear in the input. With recursion the
// number of live threads can grow with the input; MaxThreads bounds it.

// MaxThreads is the most derivations a Diagnoser keeps live at one offset:
// far above what RFC 3986's most ambiguous inputs (IPv6 addresses) need.
// Past it, Diagnose returns an error wrapping [ErrTooAmbiguous].
const MaxThreads = 20000

// ErrTooAmbiguous is wrapped by the error of a diagnosis that would keep
// more than MaxThreads derivations live at one offset.
var ErrTooAmbiguous = fmt.Errorf("more than %d derivations live at one offset", MaxThreads)

// EndOfInput is the item of Diagnosis.Expected and Diagnosis.Next that
// says the input could have ended there, and Diagnosis.Found at the end.
const EndOfInput = "end of input"

// Diagnosis is where and why an input stops matching a rule.
type Diagnosis struct {
	// Match reports that the whole input matches the rule: the other
	// fields then describe the end of the input, where it could go on.
	Match bool
	// Offset is the byte offset of the first character no derivation of
	// the input can read: the input's first Offset bytes begin some
	// matching input, and no longer prefix does. It is len(input) when all
	// of the input begins one (or matches).
	Offset int
	// Found is the character at Offset, quoted ("\" \"", or "\"\\xff\"
	// (byte 0xFF)" for a byte that is not UTF-8), or EndOfInput.
	Found string
	// Rule is the innermost rule that could not continue, begun at
	// Start. An instance begun at Offset of a rule that does not begin
	// with a repetition without bound (HEXDIG, pct-encoded, h16,
	// IPv6address, IPvFuture…) has read nothing and is not what could not
	// continue; one that does (segment, reg-name) counts, since a DFA
	// cannot tell whether it has read something. Of the rule instances
	// that count, Rule is the deepest; where the input could have ended,
	// a character is one too many for it ("a:b#c#": fragment). Where it
	// could not, two refinements apply. Derivations that read the same
	// text as different rules are alternatives, none more to blame for
	// being nested deeper: when the innermost instances of the
	// derivations (those that hold no other) are all of bounded rules
	// (an instance of an unbounded one may have read nothing) and not all
	// of one rule, Rule is the innermost instance that holds them all
	// ("http://[::1x]/": "1" is an h16 or an IPv4address's dec-octet, and
	// IPv6address holds both). Then, of that rule and the rules around it
	// up to the innermost rule all the derivations are in, Rule is the
	// innermost whose own definition writes the character found as a
	// terminal
	// ("http://[::1.2.3.4.5]/" stops in IPv4address, whose definition has
	// ".", not in the ls32 around it), looking no further out than a rule
	// that no derivation could end there: it still had to read, so the
	// character was its to read ("http://u%4@h/": pct-encoded, though
	// authority writes "@"). At the end of the input, it is the innermost
	// rule all the derivations are in: the unfinished one ("1.2.3":
	// IPv4address), or, when every derivation's instance that counts is of
	// one bounded rule, that rule ("http://a%2": pct-encoded, in a
	// userinfo or in a reg-name; it was authority, which holds both). At
	// offset 0, nothing has begun: it is the start rule.
	//
	// Which rules the derivations are in, and how deep, depends only on
	// where in the grammar they stand, not on where their rules began: so
	// that a DFA state, which knows the first and not the second, can say
	// it (gen dfa's error tables).
	Rule  string
	Start int
	// Expected are the characters some derivation could have read at
	// Offset, as classes ("\"/\"", "[0-9A-Za-z]"), with EndOfInput when the
	// input could have ended there.
	Expected []string
	// Next is what could have come at Offset in the grammar's terms: for
	// each derivation, the outermost rule of at most three characters
	// that it would have begun there (pchar, HEXDIG, dec-octet), or else
	// the terminal it would have read, as ABNF writes it: the rules in
	// the grammar's order, then the terminals in byte order, then
	// EndOfInput. "http://a/b c" as URI-reference: pchar, "#", "/", "?",
	// end of input.
	Next []string
	// Chain are the rules that enclose Rule, outermost (the start rule)
	// first, each with its start offset.
	Chain []RuleAt
	// Open lists, for each rule instance that was open at Offset, what it
	// could have read there.
	Open []OpenRule

	d     *Diagnoser
	live  []thread
	ended map[*openRule]bool // the rule instances some derivation ended at Offset
	rule  string
}

// RuleAt is a rule instance: the rule and the offset where it began.
type RuleAt struct {
	Rule  string `json:"rule"`
	Start int    `json:"start"`
}

// OpenRule is a rule instance open at a failure, and the characters it
// could have read there.
type OpenRule struct {
	Rule     string   `json:"rule"`
	Start    int      `json:"start"`
	Expected []string `json:"expected"`
}

// Diagnoser diagnoses inputs against the rules of one grammar. It keeps
// caches between calls, and is not safe for concurrent use.
type Diagnoser struct {
	g         *Grammar
	frames    map[dframeKey]*dframe  // every frame built, by value: bounded by the grammar
	starts    map[string]*RuleRef    // the reference that starts a run, by rule
	opens     map[openKey]*openRule  // the rule instances begun at the offset being read
	terms     map[string][]runeRange // a rule's own terminals
	maxes     map[string]int         // a rule's longest string, in characters (-1: unbounded)
	loops     map[string]bool        // whether a rule can begin with a repetition without bound
	analysis  *Analysis              // for nullability, computed when first needed
	seen      map[thread]bool        // closure's, reused
	ended     map[*openRule]bool     // the rule instances the last closure ended
	work      []thread               // closure's, reused
	order     map[Node]int           // every node of the grammar, numbered in the grammar's order
	ruleOrder map[string]int         // every rule, numbered in the grammar's order
	steps     int                    // threads expanded: the work done, for the tests
}

// NewDiagnoser returns a Diagnoser for g.
func NewDiagnoser(g *Grammar) *Diagnoser {
	d := &Diagnoser{g: g, frames: map[dframeKey]*dframe{}, starts: map[string]*RuleRef{},
		terms: map[string][]runeRange{}, maxes: map[string]int{}, loops: map[string]bool{}, order: map[Node]int{}, ruleOrder: map[string]int{}}
	for i, r := range g.Rules {
		d.ruleOrder[r.Name] = i
		Walk(r.Expr, func(n Node) { d.order[n] = len(d.order) })
	}
	return d
}

// dframe is one item of a thread's continuation, a persistent list.
type dframe struct {
	node     Node // what to match; nil for the end of a rule
	min, max int  // for a *Repeat: the counts still allowed
	pos      int  // for a *CharVal or a concatenated *NumVal: the next character
	next     *dframe
}

// dframeKey identifies a frame: its fields, with the next frame, itself
// interned, by pointer.
type dframeKey dframe

// openKey identifies a rule instance begun at the current offset.
type openKey struct {
	rule string
	up   *openRule
}

// openRule is a rule instance a thread is inside, a persistent stack.
type openRule struct {
	rule  string
	start int
	depth int
	up    *openRule
	ref   Node // the reference that opened it (nil for the start rule's)
}

type thread struct {
	k    *dframe
	open *openRule
}

type runeRange struct{ lo, hi rune }

// frame returns the interned frame with these fields.
func (d *Diagnoser) frame(node Node, min, max, pos int, next *dframe) *dframe {
	k := dframeKey{node: node, min: min, max: max, pos: pos, next: next}
	if f, ok := d.frames[k]; ok {
		return f
	}
	f := &dframe{node: node, min: min, max: max, pos: pos, next: next}
	d.frames[k] = f
	return f
}

// open returns the interned instance of rule begun at the current offset
// inside up.
func (d *Diagnoser) open(rule string, at int, up *openRule, ref Node) *openRule {
	k := openKey{rule, up}
	if o, ok := d.opens[k]; ok {
		return o
	}
	depth := 0
	if up != nil {
		depth = up.depth + 1
	}
	o := &openRule{rule: rule, start: at, depth: depth, up: up, ref: ref}
	d.opens[k] = o
	return o
}

// closure expands threads until each expects a character (its head is a
// terminal) or has matched everything (k nil).
func (d *Diagnoser) closure(ts []thread, at int) ([]thread, bool) {
	// Instances begun here are interned for this offset only: an instance
	// of an earlier offset is already unique.
	if d.opens == nil {
		d.opens, d.seen, d.ended = map[openKey]*openRule{}, map[thread]bool{}, map[*openRule]bool{}
	}
	clear(d.opens)
	clear(d.seen)
	clear(d.ended)
	seen := d.seen
	var out []thread
	work := append(d.work[:0], ts...)
	defer func() { d.work = work[:0] }()
	for len(work) > 0 {
		t := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[t] {
			continue
		}
		seen[t] = true
		d.steps++
		if len(seen) > 8*MaxThreads {
			return out, false
		}
		f := t.k
		if f == nil {
			out = append(out, t)
			continue
		}
		if f.node == nil { // end of a rule
			d.ended[t.open] = true
			work = append(work, thread{f.next, t.open.up})
			continue
		}
		switch n := f.node.(type) {
		case *RuleRef:
			r := d.g.Rule(n.Name)
			if r == nil {
				continue
			}
			work = append(work, thread{d.frame(r.Expr, 0, 0, 0, d.frame(nil, 0, 0, 0, f.next)), d.open(r.Name, at, t.open, n)})
		case *Alt:
			for i := len(n.Alts) - 1; i >= 0; i-- {
				work = append(work, thread{d.frame(n.Alts[i], 0, 0, 0, f.next), t.open})
			}
		case *Concat:
			k := f.next
			for i := len(n.Items) - 1; i >= 0; i-- {
				k = d.frame(n.Items[i], 0, 0, 0, k)
			}
			work = append(work, thread{k, t.open})
		case *Repeat:
			lo, hi := f.min, f.max
			if f.pos == 0 { // first visit: the counts come from the node
				lo, hi = n.Min, n.Max
			}
			again := func(lo, hi int) *dframe {
				return d.frame(n, lo, hi, 1, f.next)
			}
			nhi := hi
			if hi != Inf && hi > 0 {
				nhi = hi - 1
			}
			if lo > 0 {
				work = append(work, thread{d.frame(n.Body, 0, 0, 0, again(lo-1, nhi)), t.open})
				continue
			}
			work = append(work, thread{f.next, t.open}) // stop here
			if hi != 0 {
				work = append(work, thread{d.frame(n.Body, 0, 0, 0, again(0, nhi)), t.open})
			}
		case *CharVal:
			if f.pos >= len(n.Text) {
				work = append(work, thread{f.next, t.open})
			} else {
				out = append(out, t)
			}
		case *NumVal:
			if !n.Range && f.pos >= len(n.Vals) {
				work = append(work, thread{f.next, t.open})
			} else {
				out = append(out, t)
			}
		case *Prose:
			// No machine meaning (the reader takes only 0<prose>, the
			// empty string, which Repeat handles).
		}
	}
	return out, true
}

// expects returns the characters the head of a thread reads.
func expects(f *dframe) []runeRange {
	switch n := f.node.(type) {
	case *CharVal:
		c := rune(n.Text[f.pos])
		if !n.Sensitive {
			if 'a' <= c && c <= 'z' {
				return []runeRange{{c - 32, c - 32}, {c, c}}
			}
			if 'A' <= c && c <= 'Z' {
				return []runeRange{{c, c}, {c + 32, c + 32}}
			}
		}
		return []runeRange{{c, c}}
	case *NumVal:
		if n.Range {
			return []runeRange{{n.Vals[0], n.Vals[1]}}
		}
		return []runeRange{{n.Vals[f.pos], n.Vals[f.pos]}}
	}
	return nil
}

func inRanges(rs []runeRange, c rune) bool {
	for _, r := range rs {
		if r.lo <= c && c <= r.hi {
			return true
		}
	}
	return false
}

// advance moves a thread past the character its head read.
func (d *Diagnoser) advance(t thread) thread {
	f := t.k
	switch n := f.node.(type) {
	case *CharVal:
		if f.pos+1 < len(n.Text) {
			return thread{d.frame(n, 0, 0, f.pos+1, f.next), t.open}
		}
	case *NumVal:
		if !n.Range && f.pos+1 < len(n.Vals) {
			return thread{d.frame(n, 0, 0, f.pos+1, f.next), t.open}
		}
	}
	return thread{f.next, t.open}
}

// run reads input as rule. It returns the offset where no thread could go
// on (len(input) and ok when the input matches), with the threads live
// there; limited is set when the thread bound was reached.
func (d *Diagnoser) run(r *Rule, input string) (off int, live []thread, ok, limited bool) {
	ref := d.starts[r.Name]
	if ref == nil {
		ref = &RuleRef{Name: r.Name}
		d.starts[r.Name] = ref
	}
	start := thread{k: d.frame(ref, 0, 0, 0, nil)}
	ts, full := d.closure([]thread{start}, 0)
	i := 0
	for {
		if !full || len(ts) > MaxThreads {
			return i, ts, false, true
		}
		if i == len(input) {
			for _, t := range ts {
				if t.k == nil {
					return i, ts, true, false
				}
			}
			return i, ts, false, false
		}
		c, size := utf8.DecodeRuneInString(input[i:])
		if d.g.Octets {
			c, size = rune(input[i]), 1
		} else if c == utf8.RuneError && size <= 1 {
			return i, ts, false, false // invalid UTF-8 matches no terminal
		}
		var next []thread
		for _, t := range ts {
			if t.k != nil && inRanges(expects(t.k), c) {
				next = append(next, d.advance(t))
			}
		}
		if len(next) == 0 {
			return i, ts, false, false
		}
		i += size
		ts, full = d.closure(next, i)
	}
}

// Diagnose reads input as rule (any rule of the grammar, named
// case-insensitively) and says where and why it stops matching; for an
// input that matches, Match is set and the diagnosis describes its end. An
// unknown rule is an error, and so is an input that keeps more than
// MaxThreads derivations live (an error wrapping [ErrTooAmbiguous]).
func (d *Diagnoser) Diagnose(rule, input string) (*Diagnosis, error) {
	r := d.g.Rule(rule)
	if r == nil {
		return nil, fmt.Errorf("abnf: no rule %q in the grammar", rule)
	}
	off, live, ok, limited := d.run(r, input)
	if limited {
		return nil, fmt.Errorf("abnf: %s: at offset %d: %w", r.Name, off, ErrTooAmbiguous)
	}
	x := &Diagnosis{Match: ok, Offset: off, Found: EndOfInput, d: d, live: live, ended: d.endedNow(), rule: r.Name}
	c := rune(-1)
	if off < len(input) {
		ch, size := utf8.DecodeRuneInString(input[off:])
		if d.g.Octets || ch == utf8.RuneError && size <= 1 {
			x.Found = fmt.Sprintf("%q (byte 0x%02X)", input[off:off+1], input[off])
			c = noChar
		} else {
			x.Found, c = strconv.Quote(string(ch)), ch
		}
		if d.g.Octets {
			c = rune(input[off])
		}
	}
	d.describe(x, c)
	return x, nil
}

// Prefix is a diagnosis under way: the derivations live after a prefix of
// an input, which can go on one byte at a time. Reading every prefix of a
// set of inputs from the one before costs a step per byte, where
// diagnosing each from its start would cost its length: gen dfa diagnoses
// each state of a DFA this way, from the state it was reached from.
// Prefixes are values of one Diagnoser, and share its caches.
type Prefix struct {
	d       *Diagnoser
	r       *Rule
	off     int
	live    []thread
	pending []byte             // the bytes of a character not read whole yet
	ended   map[*openRule]bool // the rule instances ended at off
	dead    bool               // no derivation reads the prefix
	limited bool
}

// Begin returns the Prefix of rule before any input.
func (d *Diagnoser) Begin(rule string) (*Prefix, error) {
	r := d.g.Rule(rule)
	if r == nil {
		return nil, fmt.Errorf("abnf: no rule %q in the grammar", rule)
	}
	ref := d.starts[r.Name]
	if ref == nil {
		ref = &RuleRef{Name: r.Name}
		d.starts[r.Name] = ref
	}
	ts, full := d.closure([]thread{{k: d.frame(ref, 0, 0, 0, nil)}}, 0)
	return &Prefix{d: d, r: r, live: ts, ended: d.endedNow(), limited: !full || len(ts) > MaxThreads}, nil
}

// Next returns the Prefix after one more byte b; p is unchanged. A byte
// that ends no character yet (in a grammar of code points, the first bytes
// of a UTF-8 sequence) is kept until the character is whole. Once no
// derivation reads the prefix, every Next is dead too (Dead).
func (p *Prefix) Next(b byte) *Prefix {
	q := *p
	if p.dead || p.limited {
		q.dead = true
		return &q
	}
	q.pending = append(append([]byte(nil), p.pending...), b)
	c, size := rune(b), 1
	if !p.d.g.Octets {
		if !utf8.FullRune(q.pending) {
			return &q
		}
		c, size = utf8.DecodeRune(q.pending)
		if c == utf8.RuneError && size <= 1 {
			q.dead = true
			return &q
		}
	}
	var next []thread
	for _, t := range p.live {
		if t.k != nil && inRanges(expects(t.k), c) {
			next = append(next, p.d.advance(t))
		}
	}
	if len(next) == 0 {
		q.dead = true
		return &q
	}
	q.off += len(q.pending)
	q.pending = nil
	var full bool
	q.live, full = p.d.closure(next, q.off)
	q.ended = p.d.endedNow()
	q.limited = !full || len(q.live) > MaxThreads
	return &q
}

// Dead reports whether no derivation reads the prefix.
func (p *Prefix) Dead() bool { return p.dead }

// Diagnose describes where the prefix stands, as Diagnose does for an
// input that is the prefix (but for a character of several bytes not read
// whole: the diagnosis is of the prefix before it). It is an error
// wrapping ErrTooAmbiguous when more than MaxThreads derivations were
// live, and an error for a dead prefix.
func (p *Prefix) Diagnose() (*Diagnosis, error) {
	switch {
	case p.limited:
		return nil, fmt.Errorf("abnf: %s: at offset %d: %w", p.r.Name, p.off, ErrTooAmbiguous)
	case p.dead:
		return nil, fmt.Errorf("abnf: %s: no derivation reads the prefix", p.r.Name)
	}
	x := &Diagnosis{Offset: p.off, Found: EndOfInput, d: p.d, live: p.live, ended: p.ended, rule: p.r.Name}
	for _, t := range p.live {
		if t.k == nil {
			x.Match = true
		}
	}
	p.d.describe(x, -1)
	return x, nil
}

// endedNow returns a copy of the rule instances the last closure ended:
// those that some derivation could end without reading further.
func (d *Diagnoser) endedNow() map[*openRule]bool {
	if len(d.ended) == 0 {
		return nil
	}
	return maps.Clone(d.ended)
}

// Work returns the work d has done so far: derivations expanded, and rule
// instances looked at to describe them. It grows with the inputs and
// with the grammar's depth; a caller that diagnoses many inputs (gen dfa)
// bounds it.
func (d *Diagnoser) Work() int { return d.steps }

// noChar stands for a byte that is not a character (invalid UTF-8): no
// terminal reads it.
const noChar = utf8.MaxRune + 1

// RuleFor returns the rule that could not continue, and where it began, had
// the character c been found at Offset (c < 0: the end of the input), by
// the rule of Diagnosis.Rule. It lets one diagnosis of a prefix serve every
// character that could follow it (gen dfa's error tables).
func (x *Diagnosis) RuleFor(c rune) (rule string, start int) {
	pick := x.pick(c)
	if pick == nil {
		return x.rule, 0
	}
	return pick.rule, pick.start
}

// describe fills in what the live threads say.
func (d *Diagnoser) describe(x *Diagnosis, c rune) {
	off := x.Offset
	var all []runeRange
	canEnd := false
	type inst struct {
		rule  string
		start int
	}
	per := map[inst][]runeRange{}
	var order []inst
	type item struct {
		text string
		pos  int // a rule's place in the grammar; -1 for a terminal
	}
	var next []item
	seenNext := map[string]bool{}
	for _, t := range x.live {
		if t.k == nil {
			canEnd = true
			continue
		}
		if t.open != nil {
			d.steps += t.open.depth + 1
		}
		rs := expects(t.k)
		all = append(all, rs...)
		// The deepest rule instance begun before off is the one that
		// could not go on; an instance begun at off could not begin.
		// At offset 0 nothing began: the start rule could not.
		o := t.open
		for o != nil && (o.start >= off || off == 0) && o.up != nil {
			o = o.up
		}
		if o != nil {
			i := inst{o.rule, o.start}
			if _, seen := per[i]; !seen {
				order = append(order, i)
			}
			per[i] = append(per[i], rs...)
		}
		// What comes next, in the grammar's terms: the outermost short
		// rule begun at off, or the terminal.
		text, pos := terminalText(t.k), -1
		for u := t.open; u != nil && u.up != nil && u.start == off && d.short(u.rule); u = u.up {
			text, pos = u.rule, d.ruleOrder[u.rule]
		}
		if !seenNext[text] {
			seenNext[text] = true
			next = append(next, item{text, pos})
		}
	}
	x.Expected = charClasses(all)
	if canEnd {
		x.Expected = append(x.Expected, EndOfInput)
	}
	for _, i := range order {
		x.Open = append(x.Open, OpenRule{Rule: i.rule, Start: i.start, Expected: charClasses(per[i])})
	}
	if canEnd {
		x.Open = append(x.Open, OpenRule{Rule: x.rule, Start: 0, Expected: []string{EndOfInput}})
	}
	// Rules in the grammar's order, then terminals in byte order: the
	// same items in the same order whichever derivations brought them.
	sort.Slice(next, func(i, j int) bool {
		ri, rj := next[i].pos >= 0, next[j].pos >= 0
		if ri != rj {
			return ri
		}
		if ri {
			return next[i].pos < next[j].pos
		}
		return next[i].text < next[j].text
	})
	for _, it := range next {
		x.Next = append(x.Next, it.text)
	}
	if canEnd {
		x.Next = append(x.Next, EndOfInput)
	}
	x.Rule, x.Start = x.rule, 0
	if pick := x.pick(c); pick != nil {
		x.Rule, x.Start = pick.rule, pick.start
		for u := pick.up; u != nil; u = u.up {
			x.Chain = append([]RuleAt{{u.rule, u.start}}, x.Chain...)
		}
	}
}

// frameRule is the deepest instance of a thread's that could not
// continue: not an instance begun at off, which has read nothing, of a
// rule that cannot come back to where it begins (the start rule's, if no
// other). Whether such an instance has read something depends on where
// the thread stands in it, not on the path that led there (but for an
// optional part at its beginning). A rule that begins with a repetition
// without bound comes back to where it began after each round: after
// "http://a/" and after "http://a/b", a segment stands at the same place;
// its instance counts, begun at off or not.
func (d *Diagnoser) frameRule(t thread, off int) *openRule {
	o := t.open
	for o != nil && o.up != nil && o.start >= off && !d.loopsAtStart(o.rule) {
		o = o.up
	}
	return o
}

// loopsAtStart reports whether a rule can begin with a repetition without
// bound (or recursion): whether a derivation can come back to where the
// rule begins after reading something.
func (d *Diagnoser) loopsAtStart(rule string) bool {
	if v, ok := d.loops[rule]; ok {
		return v
	}
	d.loops[rule] = true // recursion at the start comes back to it
	if d.analysis == nil {
		d.analysis = Analyze(d.g)
	}
	a := d.analysis
	var first func(Node) bool
	first = func(n Node) bool {
		switch n := n.(type) {
		case *RuleRef:
			if r := d.g.Rule(n.Name); r != nil {
				return d.loopsAtStart(r.Name)
			}
		case *Alt:
			for _, x := range n.Alts {
				if first(x) {
					return true
				}
			}
		case *Concat:
			for _, x := range n.Items {
				if first(x) {
					return true
				}
				if !a.Nullable(x) {
					break
				}
			}
		case *Repeat:
			return n.Max == Inf || first(n.Body)
		}
		return false
	}
	v := false
	if r := d.g.Rule(rule); r != nil {
		v = first(r.Expr)
	}
	d.loops[rule] = v
	return v
}

// pick chooses the rule that could not continue before the character c
// (c < 0: the end of the input); nil when no rule instance was open.
func (x *Diagnosis) pick(c rune) *openRule {
	if x.Offset == 0 {
		return nil // nothing has begun: the start rule could not
	}
	d := x.d
	var best *openRule
	for _, t := range x.live {
		if t.k == nil {
			continue
		}
		o := d.frameRule(t, x.Offset)
		if o == nil {
			continue
		}
		if best == nil || o.depth > best.depth || o.depth == best.depth && d.order[o.ref] < d.order[best.ref] {
			best = o
		}
	}
	if best == nil {
		return nil
	}
	lca := x.common()
	if c < 0 {
		// At the end of the input, what is unfinished is the rule that
		// holds every derivation ("1.2.3": IPv4address), or the rule
		// every derivation is in the middle of, where it is one
		// ("http://a%2": pct-encoded, in a userinfo or in a reg-name).
		if lca != nil && !x.oneRule(best.rule) {
			return lca
		}
		return best
	}
	if lca == nil {
		// The input could have ended here: the character is one too
		// many for best ("a:b#c#": fragment), or for the innermost rule
		// that holds the readings of best's text as other rules (after
		// "::1" as IPv6address, h16, h16 in ls32 and dec-octet in
		// IPv4address: IPv6address, as inside brackets; see below).
		return x.alternatives(best)
	}
	// The input could not end here: every derivation needed a character.
	// Derivations that read the same text as different rules (after
	// "[::1", h16 in IPv6address, h16 in ls32, dec-octet in IPv4address)
	// are alternatives: none is more to blame than the others for being
	// nested deeper, and the rule that could not continue is the
	// innermost one that holds them all (IPv6address). Derivations that
	// agree on the rule (pct-encoded in userinfo, pct-encoded in reg-name)
	// name it.
	best = x.alternatives(best)
	// Of best and the rules around it, up to the innermost rule that holds
	// every derivation, the innermost whose own definition has the
	// character found as a terminal: in "[::1.2.3.4.5]", IP-literal could
	// go on with "]", but the "." fails IPv4address, whose definition has
	// "."; a character no rule there writes leaves best ("http://[::1x]/":
	// IPv6address). The search stops at a rule that no derivation could end
	// here: it still had to read, so the character was its to read
	// ("http://u%4@h/": the "@" fails pct-encoded, though authority
	// writes "@").
	for o := best; o != nil && o.depth >= lca.depth; o = o.up {
		if inRanges(d.terminals(o.rule), c) {
			return o
		}
		if !x.ended[o] {
			break
		}
	}
	return best
}

// oneRule reports whether every stuck derivation's deepest instance that
// counts is of rule, a rule with a longest string (an instance of another
// may have read nothing).
func (x *Diagnosis) oneRule(rule string) bool {
	if x.d.maxLen(rule) < 0 {
		return false
	}
	for _, t := range x.live {
		if t.k == nil {
			return false
		}
		if o := x.d.frameRule(t, x.Offset); o == nil || o.rule != rule {
			return false
		}
	}
	return true
}

// alternatives returns, of the rule instances the stuck derivations are
// in (each derivation's deepest that counts), those that hold no other
// (the leaves): best if they are all of best's rule or one is of a rule
// without a longest string (segment, token: its instance may have read
// nothing, and counts only because a DFA cannot tell), else the innermost
// instance that holds them all (the same instance, not only the same rule:
// in "[::0:0:0:0x", an ls32 begun at the third "0" holds the h16s, one
// begun at the fourth the dec-octet, and IPv6address holds both).
func (x *Diagnosis) alternatives(best *openRule) *openRule {
	d := x.d
	var cands []*openRule
	seen := map[*openRule]bool{}
	for _, t := range x.live {
		if t.k == nil {
			continue
		}
		if o := d.frameRule(t, x.Offset); o != nil && !seen[o] {
			seen[o] = true
			cands = append(cands, o)
		}
	}
	inner := map[*openRule]bool{} // the candidates that hold another
	for _, o := range cands {
		for u := o.up; u != nil; u = u.up {
			inner[u] = true
		}
	}
	var chains [][]*openRule
	differ := false
	for _, o := range cands {
		if inner[o] {
			continue
		}
		if d.maxLen(o.rule) < 0 {
			// An instance of an unbounded rule may have read nothing (it
			// counts because a DFA cannot tell): no evidence of a reading.
			return best
		}
		if o.rule != best.rule {
			differ = true
		}
		var c []*openRule
		for u := o; u != nil; u = u.up {
			c = append(c, u)
		}
		slices.Reverse(c)
		chains = append(chains, c)
	}
	if !differ || len(chains) == 0 {
		return best
	}
	n := len(chains[0])
	for _, c := range chains[1:] {
		i := 0
		for i < n && i < len(c) && c[i] == chains[0][i] {
			i++
		}
		n = i
	}
	if n == 0 {
		return best
	}
	return chains[0][n-1]
}

// common returns the innermost instance of a rule that is not short that
// every live derivation is in, comparing instances by the rules from the
// start rule down; nil if the input could end at the offset.
func (x *Diagnosis) common() *openRule {
	var chains [][]*openRule
	for _, t := range x.live {
		if t.k == nil {
			// A derivation that has matched the whole start rule: no
			// rule instance holds every other one.
			return nil
		}
		var c []*openRule
		for o := x.d.frameRule(t, x.Offset); o != nil; o = o.up {
			c = append(c, o)
		}
		slices.Reverse(c)
		chains = append(chains, c)
	}
	if len(chains) == 0 {
		return nil
	}
	n := len(chains[0])
	for _, c := range chains[1:] {
		i := 0
		for i < n && i < len(c) && c[i].rule == chains[0][i].rule {
			i++
		}
		n = i
	}
	if n == 0 {
		return nil
	}
	return chains[0][n-1]
}

// short reports whether every string of the rule is at most three
// characters long: such a rule (ALPHA, HEXDIG, pchar, pct-encoded,
// dec-octet) stands for a character.
func (d *Diagnoser) short(rule string) bool {
	m := d.maxLen(rule)
	return m >= 0 && m <= 3
}

// maxLen returns the length in characters of the rule's longest string,
// -1 when it has none (a repetition without bound, or recursion).
func (d *Diagnoser) maxLen(rule string) int {
	if m, ok := d.maxes[rule]; ok {
		return m
	}
	d.maxes[rule] = -1 // recursion is unbounded
	var walk func(Node) int
	walk = func(n Node) int {
		switch n := n.(type) {
		case *RuleRef:
			if r := d.g.Rule(n.Name); r != nil {
				return d.maxLen(r.Name)
			}
			return 0
		case *Alt:
			m := 0
			for _, a := range n.Alts {
				x := walk(a)
				if x < 0 {
					return -1
				}
				m = max(m, x)
			}
			return m
		case *Concat:
			m := 0
			for _, a := range n.Items {
				x := walk(a)
				if x < 0 {
					return -1
				}
				m += x
			}
			return m
		case *Repeat:
			x := walk(n.Body)
			switch {
			case n.Max == 0 || x == 0:
				return 0
			case x < 0 || n.Max == Inf:
				return -1
			}
			if x > 3 || n.Max > 3 {
				return 4 // long enough: only "at most three" matters
			}
			return x * n.Max
		case *CharVal:
			return len(n.Text)
		case *NumVal:
			if n.Range {
				return 1
			}
			return len(n.Vals)
		}
		return 0
	}
	m := -1
	if r := d.g.Rule(rule); r != nil {
		m = walk(r.Expr)
	}
	d.maxes[rule] = m
	return m
}

// terminals returns the characters that a rule's own definition writes as
// terminals, not those of the rules it refers to.
func (d *Diagnoser) terminals(rule string) []runeRange {
	if rs, ok := d.terms[rule]; ok {
		return rs
	}
	var rs []runeRange
	if r := d.g.Rule(rule); r != nil {
		Walk(r.Expr, func(n Node) {
			switch n := n.(type) {
			case *CharVal:
				for i := range n.Text {
					rs = append(rs, expects(&dframe{node: n, pos: i})...)
				}
			case *NumVal:
				if n.Range {
					rs = append(rs, runeRange{n.Vals[0], n.Vals[1]})
					return
				}
				for i := range n.Vals {
					rs = append(rs, expects(&dframe{node: n, pos: i})...)
				}
			}
		})
	}
	d.terms[rule] = rs
	return rs
}

// terminalText writes the terminal at a thread's head as ABNF writes it:
// the rest of a quoted string ("::" before its first character, ":"
// after it), a numeric value in its base.
func terminalText(f *dframe) string {
	switch n := f.node.(type) {
	case *CharVal:
		s := strconv.Quote(n.Text[f.pos:])
		if n.Sensitive {
			return "%s" + s
		}
		return s
	case *NumVal:
		val := func(v rune) string {
			switch n.Base {
			case 'b':
				return strconv.FormatInt(int64(v), 2)
			case 'd':
				return strconv.FormatInt(int64(v), 10)
			}
			return strings.ToUpper(strconv.FormatInt(int64(v), 16))
		}
		base := n.Base
		if base == 0 {
			base = 'x'
		}
		if n.Range {
			return "%" + string(base) + val(n.Vals[0]) + "-" + val(n.Vals[1])
		}
		if v := n.Vals[f.pos]; v > 0x20 && v < 0x7f && v != '"' {
			return strconv.Quote(string(v))
		}
		return "%" + string(base) + val(n.Vals[f.pos])
	}
	return "?"
}

// charClasses writes a set of characters as pigeon writes its expected
// sets: each ASCII punctuation character quoted, then one class of the
// letters, digits and other ranges.
func charClasses(rs []runeRange) []string {
	rs = append([]runeRange(nil), rs...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].lo < rs[j].lo })
	var merged []runeRange
	for _, r := range rs {
		if n := len(merged); n > 0 && r.lo <= merged[n-1].hi+1 {
			merged[n-1].hi = max(merged[n-1].hi, r.hi)
			continue
		}
		merged = append(merged, r)
	}
	var out []string
	var cls strings.Builder
	run := func(lo, hi rune) {
		cls.WriteString(classChar(lo))
		if hi > lo {
			if hi > lo+1 {
				cls.WriteByte('-')
			}
			cls.WriteString(classChar(hi))
		}
	}
	for _, r := range merged {
		// ASCII letters and digits join the class in runs; other ASCII
		// characters are listed one by one; the rest joins the class.
		c := r.lo
		for c <= r.hi && c < 0x80 {
			if !isAlnum(c) {
				out = append(out, strconv.Quote(string(c)))
				c++
				continue
			}
			lo := c
			for c+1 <= r.hi && isAlnum(c+1) && sameKind(lo, c+1) {
				c++
			}
			if lo == c && (c == r.lo && c == r.hi) {
				out = append(out, strconv.Quote(string(c))) // one character: "2"
			} else {
				run(lo, c)
			}
			c++
		}
		if c <= r.hi {
			run(c, r.hi)
		}
	}
	if cls.Len() > 0 {
		out = append(out, "["+cls.String()+"]")
	}
	return out
}

// sameKind: digits, uppercase and lowercase letters make separate runs.
func sameKind(a, b rune) bool {
	kind := func(c rune) int {
		switch {
		case '0' <= c && c <= '9':
			return 0
		case 'A' <= c && c <= 'Z':
			return 1
		}
		return 2
	}
	return kind(a) == kind(b)
}

func isAlnum(c rune) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func classChar(c rune) string {
	switch {
	case c == '-' || c == ']' || c == '\\' || c == '^':
		return `\` + string(c)
	case c < 0x20 || c == 0x7f:
		return fmt.Sprintf(`\x%02X`, c)
	case c > 0xffff:
		return fmt.Sprintf(`\U%08X`, c)
	case c > 0x7f:
		return fmt.Sprintf(`\u%04X`, c)
	}
	return string(c)
}

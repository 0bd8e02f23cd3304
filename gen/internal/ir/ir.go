// Package ir lowers an ABNF grammar to the expression shapes a PEG has:
// character sets instead of alternations of single characters, bounded
// repetition expanded into copies and nested options, repetition bodies that
// cannot match the empty string. The language of every rule is unchanged;
// only its shape is. Every rewrite is recorded for the translation report.
//
// Both the PEG translator and the DFA back end start from this form.
package ir

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/internal/fa"
	"github.com/peguri/rfc3986/gen/internal/work"
)

// Expr is an expression: *Alt, *Seq, *Rep, *Ref, *Set or *Empty.
type Expr interface{ isExpr() }

// Alt is an alternation; in a PEG, an ordered choice.
type Alt struct {
	Alts []Expr
	Src  *abnf.Alt // the ABNF alternation it came from, if any
}

// Seq is a concatenation of two or more expressions.
type Seq struct {
	Items []Expr
	Src   *abnf.Repeat // the bounded ABNF repetition whose copies it writes out, if any
}

// Rep is one of the three PEG repetitions: Min 0 Max 1 (x?), Min 0 Max Inf
// (x*), Min 1 Max Inf (x+). Its body never matches the empty string.
type Rep struct {
	Min, Max int
	Body     Expr
	Src      *abnf.Repeat // the ABNF repetition it came from, if any
}

// Ref refers to a rule.
type Ref struct{ Rule *Rule }

// Set matches one character of a set.
type Set struct{ Set fa.CharSet }

// Empty matches the empty string.
type Empty struct{}

func (*Alt) isExpr()   {}
func (*Seq) isExpr()   {}
func (*Rep) isExpr()   {}
func (*Ref) isExpr()   {}
func (*Set) isExpr()   {}
func (*Empty) isExpr() {}

// Inf is the Max of an unbounded Rep.
const Inf = abnf.Inf

// Rule is a lowered rule.
type Rule struct {
	Name     string // the ABNF name
	ABNF     *abnf.Rule
	Body     Expr
	Capture  bool // the rule becomes a node of the parse tree
	CharSet  bool // the body is one Set and the rule is not captured: references are inlined
	Nullable bool
	First    fa.CharSet
	// NonEmpty is set on derived rules: this rule is the non-empty part of
	// NonEmpty's language, made for a repetition whose body could match the
	// empty string.
	NonEmpty *Rule
	// Left is set on the rules made by rewriting left recursion
	// (leftrec.go), and Fold on the left-recursive rules whose parse tree
	// is folded back from them.
	Left *LeftRec
	Fold bool
	// Copies is set on the rules made for a large bounded repetition: the
	// rule is Copies copies of the repeated expression (a power of two),
	// written as two references to the rule of half as many.
	Copies int

	state int // lowering: 0 not started, 1 in progress, 2 done
	nn    *Rule
}

// Derived reports whether lowering made r (rather than the grammar): the
// non-empty part of a rule, a part of rewritten left recursion, or copies
// for a bounded repetition. Derived rules are never start rules.
func (r *Rule) Derived() bool { return r.NonEmpty != nil || r.Left != nil || r.Copies > 0 }

// Grammar is a lowered grammar.
type Grammar struct {
	Rules []*Rule // ABNF order, then derived rules
	// Octets is the ABNF grammar's: numeric values are bytes, not code
	// points matched in UTF-8.
	Octets   bool
	Rewrites []Rewrite
	byName   map[string]*Rule
	a        *abnf.Analysis
}

// Rule returns the rule with the given ABNF name, case-insensitively.
func (g *Grammar) Rule(name string) *Rule { return g.byName[strings.ToLower(name)] }

// Analysis returns the analysis of the ABNF grammar g was lowered from,
// for the stages after lowering to share.
func (g *Grammar) Analysis() *abnf.Analysis { return g.a }

// Rewrite records one shape change made by lowering.
type Rewrite struct {
	Rule string
	Pos  abnf.Pos
	Kind string // "fold", "expand", "nonempty", "option", "inline"
	Msg  string
}

// Options controls lowering.
type Options struct {
	// Capture reports whether a rule becomes a parse tree node. Nil means
	// every rule except those that are a single character set.
	Capture func(name string) bool
}

// Lower lowers g, which must read and check without errors.
func Lower(g *abnf.Grammar, opts Options) (*Grammar, error) {
	lg := &Grammar{byName: map[string]*Rule{}, a: abnf.Analyze(g), Octets: g.Octets}
	for _, r := range g.Rules {
		ir := &Rule{Name: r.Name, ABNF: r, Nullable: lg.a.RuleNullable(r)}
		lg.Rules = append(lg.Rules, ir)
		lg.byName[strings.ToLower(r.Name)] = ir
	}
	l := &lowerer{g: lg, src: g, opts: opts, recursive: map[*Rule]bool{}, inlined: map[*Rule]bool{}, merged: map[Expr]Expr{}}
	for _, c := range lg.a.Recursive() {
		for _, r := range c {
			l.recursive[lg.Rule(r.Name)] = true
		}
	}
	for _, r := range lg.Rules[:len(g.Rules)] {
		l.rule(r)
	}
	// Derived rules (the non-empty parts of nullable rules) can take part
	// in left recursion: derive them first, then rewrite, then derive what
	// the rewriting needs.
	l.derive()
	if err := l.leftRecursion(); err != nil {
		return nil, err
	}
	lg.computeFirst()
	for _, r := range lg.Rules {
		r.Body = l.mergeSets(r, r.Body)
	}
	return lg, nil
}

type lowerer struct {
	g         *Grammar
	src       *abnf.Grammar
	opts      Options
	pending   []*Rule // derived rules whose bodies are still to compute
	recursive map[*Rule]bool
	inlined   map[*Rule]bool
	merged    map[Expr]Expr
	family    int // bounded repetitions written with Copies rules
}

func (l *lowerer) rule(r *Rule) {
	if r.state != 0 {
		return
	}
	r.state = 1
	r.Body = l.lower(r, r.ABNF.Expr)
	_, isSet := r.Body.(*Set)
	if l.opts.Capture != nil {
		r.Capture = l.opts.Capture(r.Name)
	} else {
		r.Capture = !isSet
	}
	r.CharSet = isSet && !r.Capture
	r.state = 2
}

func (l *lowerer) note(r *Rule, pos abnf.Pos, kind, format string, args ...any) {
	l.g.Rewrites = append(l.g.Rewrites, Rewrite{Rule: r.Name, Pos: pos, Kind: kind, Msg: fmt.Sprintf(format, args...)})
}

func (l *lowerer) lower(r *Rule, n abnf.Node) Expr {
	work.Add(1)
	switch n := n.(type) {
	case *abnf.Alt:
		var alts []Expr
		for _, x := range n.Alts {
			e := l.lower(r, x)
			if a, ok := e.(*Alt); ok { // a / (b / c) is a / b / c
				alts = append(alts, a.Alts...)
				continue
			}
			alts = append(alts, e)
		}
		// Runs of single characters become one class: a PEG choice between
		// one-character alternatives is their union, whatever the order.
		var out []Expr
		folded := 0
		for _, e := range alts {
			if s, ok := e.(*Set); ok {
				if p, ok := last(out).(*Set); ok {
					out[len(out)-1] = &Set{Set: p.Set.Union(s.Set)}
					folded++
					continue
				}
			}
			out = append(out, e)
		}
		if folded > 0 {
			l.note(r, n.Pos, "fold", "%d single-character alternatives of %s folded into classes", folded+1, short(n))
		}
		if len(out) == 1 {
			return out[0]
		}
		return &Alt{Alts: out, Src: n}
	case *abnf.Concat:
		var items []Expr
		for _, x := range n.Items {
			e := l.lower(r, x)
			switch e := e.(type) {
			case *Seq:
				items = append(items, e.Items...)
			case *Empty:
			default:
				items = append(items, e)
			}
		}
		return seq(items)
	case *abnf.Repeat:
		return l.repeat(r, n)
	case *abnf.RuleRef:
		t := l.g.Rule(n.Name)
		l.rule(t)
		if t.CharSet {
			return &Set{Set: t.Body.(*Set).Set}
		}
		if t.state == 2 && !t.Capture && !l.recursive[t] {
			// A rule that is no tree node is only its body: inlined, its
			// alternatives join the caller's choice (and its character
			// classes the caller's classes), and the PEG makes one rule
			// call fewer per match — per character, for pchar.
			if !l.inlined[t] {
				l.inlined[t] = true
				l.note(r, n.Pos, "inline", "%s is not a parse tree node: its body is inlined where it is referenced", t.Name)
			}
			return t.Body
		}
		return &Ref{Rule: t}
	case *abnf.CharVal:
		var items []Expr
		for i := 0; i < len(n.Text); i++ {
			c := rune(n.Text[i])
			s := fa.Of(c)
			if !n.Sensitive && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				s = fa.Of(c|0x20, c&^0x20) // ASCII letters only (RFC 5234 §2.3)
			}
			items = append(items, &Set{Set: s})
		}
		return seq(items)
	case *abnf.NumVal:
		if n.Range {
			return &Set{Set: fa.Span(n.Vals[0], n.Vals[1])}
		}
		var items []Expr
		for _, v := range n.Vals {
			items = append(items, &Set{Set: fa.Of(v)})
		}
		return seq(items)
	case *abnf.Prose:
		return &Empty{} // only legal under a zero repetition
	}
	panic(fmt.Sprintf("ir: unknown node %T", n))
}

func last(es []Expr) Expr {
	if len(es) == 0 {
		return nil
	}
	return es[len(es)-1]
}

// alt makes an alternation of two or more expressions, flattening nested
// ones: a / (b / c) is a / b / c in a PEG as in ABNF, and the translator's
// decisions are made on the flat list.
func alt(alts []Expr, src *abnf.Alt) Expr {
	var flat []Expr
	for _, a := range alts {
		if x, ok := a.(*Alt); ok {
			flat = append(flat, x.Alts...)
			continue
		}
		flat = append(flat, a)
	}
	if len(flat) == 1 {
		return flat[0]
	}
	return &Alt{Alts: flat, Src: src}
}

func seq(items []Expr) Expr {
	if slices.ContainsFunc(items, func(e Expr) bool { _, ok := e.(*Empty); return ok }) {
		var kept []Expr
		for _, e := range items {
			if _, ok := e.(*Empty); !ok {
				kept = append(kept, e)
			}
		}
		items = kept
	}
	switch len(items) {
	case 0:
		return &Empty{}
	case 1:
		return items[0]
	}
	return &Seq{Items: items}
}

// short prints an ABNF expression for a note, without formatting all of a
// large one: notes are made at every level of nesting.
func short(n abnf.Node) string {
	count := 0
	abnfWalkUpTo(n, 40, &count)
	if count >= 40 {
		return fmt.Sprintf("(the expression at %s)", n.Position())
	}
	return clip(abnf.String(n))
}

func abnfWalkUpTo(n abnf.Node, limit int, count *int) {
	if *count >= limit {
		return
	}
	*count++
	switch n := n.(type) {
	case *abnf.Alt:
		for _, x := range n.Alts {
			abnfWalkUpTo(x, limit, count)
		}
	case *abnf.Concat:
		for _, x := range n.Items {
			abnfWalkUpTo(x, limit, count)
		}
	case *abnf.Repeat:
		abnfWalkUpTo(n.Body, limit, count)
	}
}

func shortFormat(e Expr) string { return Short(e, 60) }

func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// repeat expands n*m into the PEG repetitions.
func (l *lowerer) repeat(r *Rule, n *abnf.Repeat) (out Expr) {
	if n.Max == 0 {
		return &Empty{}
	}
	body := l.lower(r, n.Body)
	if _, ok := body.(*Empty); ok {
		return &Empty{}
	}
	min, max := n.Min, n.Max
	if l.g.a.Nullable(n.Body) {
		if min == 0 && max == 1 && !l.recursive[r] {
			// [x] with x nullable is x. Not in a recursive rule: there
			// x may be nullable only through this very option (r = [s],
			// s = r derives nothing but the empty string; r = s, s = r
			// derives nothing), and [x] is then [nn(x)], below.
			l.note(r, n.Pos, "option", "%s: the option's body can match the empty string, so the option is its body", short(n))
			return body
		}
		// x can be empty, so x^k is every count up to k of x's non-empty
		// strings: *x = *nn(x), and n*m x = *m nn(x).
		nn := l.nonEmpty(body)
		l.note(r, n.Pos, "nonempty", "%s: the body can match the empty string, on which a PEG repetition loops forever; repeated its non-empty part %s instead, 0 to %s times",
			short(n), shortFormat(nn), bound(max))
		if nn == nil {
			return &Empty{}
		}
		body, min = nn, 0
	}
	if min == 1 && max == 1 {
		return body
	}
	if max == Inf {
		if min == 0 {
			return &Rep{Min: 0, Max: Inf, Body: body, Src: n}
		}
		items := make([]Expr, 0, min)
		for range min - 1 {
			items = append(items, body)
		}
		if min > 1 {
			l.note(r, n.Pos, "expand", "%s: %d copies, then a +", short(n), min-1)
		}
		return seq(append(items, &Rep{Min: 1, Max: Inf, Body: body, Src: n}))
	}
	// Bounded: min copies, then max-min nested options, so that a failing
	// copy is not retried at the same position (x (x x?)? rather than x? x?).
	// Past maxNested options, the nesting would be as deep as the count
	// (*998text in RFC 5322), which pigeon takes minutes to read: up to k
	// copies are then written with a depth of about log k (upTo).
	var tail Expr
	pairs := map[int]Expr{1: body}
	if min > maxNested || max-min > maxNested {
		l.family++
	}
	if k := max - min; k > maxNested {
		tail = l.upTo(r, body, 1, k, n, pairs)
	} else {
		for range k {
			if tail == nil {
				tail = &Rep{Min: 0, Max: 1, Body: body, Src: n}
			} else {
				tail = &Rep{Min: 0, Max: 1, Body: seq([]Expr{body, tail}), Src: n}
			}
		}
	}
	items := l.exactly(r, min, n, pairs)
	if tail != nil {
		items = append(items, tail)
	}
	defer func() {
		// Name the repetition a sequence of copies writes out, so that a
		// limit it passes can say which (nested counts multiply).
		if sq, ok := out.(*Seq); ok && sq.Src == nil && !slices.Contains(items, out) {
			sq.Src = n
		}
	}()
	switch {
	case min == 0 && max == 1:
	case min > maxNested:
		l.note(r, n.Pos, "expand", "%s: pigeon has no bounded repetition; %d copies written as rules of pairs of pairs, then up to %d more", short(n), min, max-min)
	case max-min > maxNested:
		l.note(r, n.Pos, "expand", "%s: pigeon has no bounded repetition; %d copies then up to %d more, as options of pairs of pairs (depth about log2 %d)", short(n), min, max-min, max-min)
	default:
		l.note(r, n.Pos, "expand", "%s: pigeon has no bounded repetition; %d copies then %d nested options", short(n), min, max-min)
	}
	return seq(items)
}

// maxNested is the largest count of optional copies written as nested
// options.
const maxNested = 16

// upTo writes zero to k copies of x (itself c copies of the repeated
// expression), greedily, with options nested about log2 k deep: for odd k,
// up to (k-1)/2 pairs of x, then x?; for even k, up to k-1 copies then x?.
// The pairs are rules (Copies), so that the text stays small too. A PEG
// match at a position is deterministic, so greedy pairs then one more take
// min(k, available) copies, as k nested options do: the language and the
// parse are the same.
// exactly writes n copies of the repeated expression (pairs[1]). Up to
// maxNested copies are written out; past that, as the copies rules of the
// binary digits of n (pairs[c] is c copies, c a power of two), so that
// 65536(65536"a") is 32 rules rather than a tree of 2^32 nodes that every
// later walk would visit.
func (l *lowerer) exactly(r *Rule, n int, src *abnf.Repeat, pairs map[int]Expr) []Expr {
	x := pairs[1]
	if n <= maxNested {
		items := make([]Expr, 0, n+1)
		for range n {
			items = append(items, x)
		}
		return items
	}
	var items []Expr
	for c := 1 << (bits.Len(uint(n)) - 1); c > 0; c >>= 1 {
		if n&c != 0 {
			items = append(items, l.copies(r, c, pairs))
		}
	}
	return items
}

// copies returns c copies of pairs[1], c a power of two, making the rule
// of 2c copies from two references to the rule of c.
func (l *lowerer) copies(r *Rule, c int, pairs map[int]Expr) Expr {
	if e, ok := pairs[c]; ok {
		return e
	}
	half := l.copies(r, c/2, pairs)
	p := &Rule{Name: fmt.Sprintf("%s-rep%d-x%d", r.Name, l.family, c), ABNF: r.ABNF, Body: seq([]Expr{half, half}), Copies: c, state: 2}
	l.g.Rules = append(l.g.Rules, p)
	e := &Ref{Rule: p}
	pairs[c] = e
	return e
}

func (l *lowerer) upTo(r *Rule, x Expr, c, k int, src *abnf.Repeat, pairs map[int]Expr) Expr {
	opt := func(e Expr) Expr { return &Rep{Min: 0, Max: 1, Body: e, Src: src} }
	switch {
	case k == 0:
		return nil
	case k == 1:
		return opt(x)
	case k == 2:
		return opt(seq([]Expr{x, opt(x)}))
	case k%2 == 1:
		pair, ok := pairs[2*c]
		if !ok {
			p := &Rule{Name: fmt.Sprintf("%s-rep%d-x%d", r.Name, l.family, 2*c), ABNF: r.ABNF, Body: seq([]Expr{x, x}), Copies: 2 * c, state: 2}
			l.g.Rules = append(l.g.Rules, p)
			pair = &Ref{Rule: p}
			pairs[2*c] = pair
		}
		return seq([]Expr{l.upTo(r, pair, 2*c, (k-1)/2, src, pairs), opt(x)})
	}
	return seq([]Expr{l.upTo(r, x, c, k-1, src, pairs), opt(x)})
}

func bound(max int) string {
	if max == Inf {
		return "any number of"
	}
	return fmt.Sprint(max)
}

// nonEmpty returns an expression for the non-empty strings of e, or nil if
// e matches only the empty string.
func (l *lowerer) nonEmpty(e Expr) Expr {
	if !Nullable(e) {
		return e
	}
	switch e := e.(type) {
	case *Set:
		return e
	case *Empty:
		return nil
	case *Alt:
		var alts []Expr
		for _, x := range e.Alts {
			if y := l.nonEmpty(x); y != nil {
				alts = append(alts, y)
			}
		}
		if len(alts) == 0 {
			return nil
		}
		return alt(alts, e.Src)
	case *Seq:
		head, rest := e.Items[0], seq(e.Items[1:])
		if !l.nullable(head) {
			return e
		}
		// nn(a rest) = nn(a) rest / nn(rest), when a can be empty.
		var alts []Expr
		if h := l.nonEmpty(head); h != nil {
			alts = append(alts, seq([]Expr{h, rest}))
		}
		if t := l.nonEmpty(rest); t != nil {
			alts = append(alts, t)
		}
		if len(alts) == 0 {
			return nil
		}
		return alt(alts, nil)
	case *Rep:
		if e.Min == 1 {
			return e
		}
		if e.Max == 1 {
			return e.Body
		}
		return &Rep{Min: 1, Max: Inf, Body: e.Body, Src: e.Src}
	case *Ref:
		if !e.Rule.Nullable {
			return e
		}
		return &Ref{Rule: l.nonEmptyRule(e.Rule)}
	}
	panic(fmt.Sprintf("ir: unknown expression %T", e))
}

// nonEmptyRule derives the rule for the non-empty strings of r. It keeps r's
// name, so that its parse tree nodes are r's.
func (l *lowerer) nonEmptyRule(r *Rule) *Rule {
	if r.nn != nil {
		return r.nn
	}
	// The body is derived after lowering (Lower): r may still be being
	// lowered, when it is recursive.
	d := &Rule{Name: r.Name, ABNF: r.ABNF, NonEmpty: r, Capture: r.Capture, Left: r.Left, Fold: r.Fold, state: 2}
	r.nn = d
	l.g.Rules = append(l.g.Rules, d)
	l.pending = append(l.pending, d)
	return d
}

// derive computes the bodies of derived rules, which may derive more.
func (l *lowerer) derive() {
	for len(l.pending) > 0 {
		d := l.pending[0]
		l.pending = l.pending[1:]
		d.Capture = d.NonEmpty.Capture
		d.Body = l.nonEmpty(d.NonEmpty.Body)
		if d.Body == nil {
			d.Body = &Set{} // matches nothing
		}
	}
}

func (l *lowerer) nullable(e Expr) bool { return Nullable(e) }

// Nullable reports whether e can match the empty string.
func Nullable(e Expr) bool {
	switch e := e.(type) {
	case *Set:
		return false
	case *Empty:
		return true
	case *Alt:
		for _, x := range e.Alts {
			if Nullable(x) {
				return true
			}
		}
		return false
	case *Seq:
		for _, x := range e.Items {
			if !Nullable(x) {
				return false
			}
		}
		return true
	case *Rep:
		return e.Min == 0 || Nullable(e.Body)
	case *Ref:
		return e.Rule.Nullable
	}
	return false
}

// First returns the characters that can begin a non-empty match of e.
func First(e Expr) fa.CharSet {
	switch e := e.(type) {
	case *Set:
		return e.Set
	case *Alt:
		var s fa.CharSet
		for _, x := range e.Alts {
			s = s.Union(First(x))
		}
		return s
	case *Seq:
		var s fa.CharSet
		for _, x := range e.Items {
			s = s.Union(First(x))
			if !Nullable(x) {
				break
			}
		}
		return s
	case *Rep:
		return First(e.Body)
	case *Ref:
		return e.Rule.First
	}
	return fa.CharSet{}
}

func (g *Grammar) computeFirst() {
	// A worklist: a rule is recomputed when a rule it references changes,
	// so a chain of rules costs its length, not its square.
	users := map[*Rule][]*Rule{}
	for _, r := range g.Rules {
		seen := map[*Rule]bool{}
		walkRefs(r.Body, func(t *Rule) {
			if !seen[t] {
				seen[t] = true
				users[t] = append(users[t], r)
			}
		})
	}
	queued := map[*Rule]bool{}
	var work []*Rule
	for i := len(g.Rules) - 1; i >= 0; i-- {
		work = append(work, g.Rules[i])
		queued[g.Rules[i]] = true
	}
	for len(work) > 0 {
		r := work[len(work)-1]
		work = work[:len(work)-1]
		queued[r] = false
		f := First(r.Body)
		n := Nullable(r.Body)
		if f.Equal(r.First) && n == r.Nullable {
			continue
		}
		r.First, r.Nullable = f, n
		for _, u := range users[r] {
			if !queued[u] {
				queued[u] = true
				work = append(work, u)
			}
		}
	}
}

// mergeSets moves single-character alternatives of a choice next to the
// first one and folds them into one class, when every alternative they move
// across can neither match the empty string nor begin with one of their
// characters: then no string is matched by both, and the order between them
// cannot matter.
func (l *lowerer) mergeSets(r *Rule, e Expr) Expr {
	// Expansions of bounded repetitions share their copies: each node is
	// rewritten once, in place.
	if done, ok := l.merged[e]; ok {
		return done
	}
	out := l.mergeSets1(r, e)
	l.merged[e] = out
	return out
}

func (l *lowerer) mergeSets1(r *Rule, e Expr) Expr {
	switch e := e.(type) {
	case *Alt:
		for i, x := range e.Alts {
			e.Alts[i] = l.mergeSets(r, x)
		}
		first := -1
		for i, x := range e.Alts {
			s, ok := x.(*Set)
			if !ok {
				continue
			}
			if first < 0 {
				first = i
				continue
			}
			movable := true
			for _, y := range e.Alts[first+1 : i] {
				if Nullable(y) || First(y).Overlaps(s.Set) {
					movable = false
				}
			}
			if !movable {
				continue
			}
			f := e.Alts[first].(*Set)
			e.Alts[first] = &Set{Set: f.Set.Union(s.Set)}
			e.Alts = append(e.Alts[:i:i], e.Alts[i+1:]...)
			l.note(r, posOf(e), "fold", "single-character alternative %s moved before alternatives that cannot begin with it, and folded into %s", s.Set, e.Alts[first].(*Set).Set)
			return l.mergeSets1(r, e)
		}
		if len(e.Alts) == 1 {
			return e.Alts[0]
		}
		return e
	case *Seq:
		for i, x := range e.Items {
			e.Items[i] = l.mergeSets(r, x)
		}
	case *Rep:
		e.Body = l.mergeSets(r, e.Body)
	}
	return e
}

func posOf(a *Alt) abnf.Pos {
	if a.Src != nil {
		return a.Src.Pos
	}
	return abnf.Pos{}
}

// Format prints an expression in a PEG-like notation for reports.
func Format(e Expr) string {
	var f formatter
	f.expr(e)
	return f.b.String()
}

// Short formats e for a message: at most n bytes, "..." ending a cut. It
// stops formatting once past n, so that a huge expression (the expansion of
// 1000("a" / "b")) costs n, not its size.
func Short(e Expr, n int) string {
	f := formatter{limit: n + 1}
	f.expr(e)
	s := f.b.String()
	if len(s) > n {
		return s[:max(n-3, 0)] + "..."
	}
	return s
}

type formatter struct {
	b     strings.Builder
	limit int // stop past this many bytes; 0: no limit
}

func (f *formatter) full() bool { return f.limit > 0 && f.b.Len() >= f.limit }

func (f *formatter) expr(e Expr) {
	if f.full() {
		return
	}
	switch e := e.(type) {
	case nil:
		f.b.WriteString("(nothing)")
	case *Set:
		if c, ok := e.Set.Single(); ok && c >= 0x20 && c < 0x7f {
			f.b.WriteString(strconv.Quote(string(c)))
			return
		}
		f.b.WriteString(e.Set.String())
	case *Empty:
		f.b.WriteString(`""`)
	case *Ref:
		f.b.WriteString(e.Rule.Name)
	case *Alt:
		for i, x := range e.Alts {
			if i > 0 {
				f.b.WriteString(" / ")
			}
			f.expr(x)
			if f.full() {
				return
			}
		}
	case *Seq:
		var lit []rune
		first := true
		sep := func() {
			if !first {
				f.b.WriteByte(' ')
			}
			first = false
		}
		flush := func() {
			if len(lit) > 0 {
				sep()
				f.b.WriteString(strconv.QuoteToASCII(string(lit)))
				lit = nil
			}
		}
		for _, x := range e.Items {
			if f.full() {
				return
			}
			if s, ok := x.(*Set); ok {
				if c, ok := s.Set.Single(); ok && c >= 0x20 && c < 0x7f {
					lit = append(lit, c)
					continue
				}
			}
			flush()
			sep()
			if _, ok := x.(*Alt); ok {
				f.b.WriteByte('(')
				f.expr(x)
				f.b.WriteByte(')')
			} else {
				f.expr(x)
			}
		}
		flush()
	case *Rep:
		switch e.Body.(type) {
		case *Alt, *Seq:
			f.b.WriteByte('(')
			f.expr(e.Body)
			f.b.WriteByte(')')
		default:
			f.expr(e.Body)
		}
		switch {
		case e.Max == 1:
			f.b.WriteByte('?')
		case e.Min == 0:
			f.b.WriteByte('*')
		default:
			f.b.WriteByte('+')
		}
	default:
		f.b.WriteByte('?')
	}
}

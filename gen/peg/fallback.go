package peg

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/syntax"
)

// Exact by construction where nothing is proven. A decision whose
// exactness cannot be proven — its context is not a regular language, or
// the language of an exact guard would be too large — is emitted with a
// marker after its alternative (or loop body). This pass, run on the PEG
// text once every rule is translated, turns the markers into questions to a
// syntax.Guide, the exact recognizer the generated parser builds for each
// input:
//
//   - The network (syntax.Net) is read back from the emitted rules
//     themselves: one automaton per PEG rule, with the ABNF meaning of its
//     expression (choices unordered, repetitions giving back, predicates
//     consuming nothing). Its language is the grammar's: the PEG rules are
//     the lowered rules, which keep the ABNF language.
//   - A rule that can reach a marker tells the guide when it is entered and
//     left, and its callers say, just before calling it, where they will
//     return: the guide then knows the parser's whole stack.
//   - A marker becomes `&{ Can(state) }`: the alternative just matched (or
//     the iteration just taken) is kept only if, from the automaton state
//     after it, the current invocation can end where every caller on the
//     stack can complete.
//
// Then every decision on the parser's path either is proven (it commits to
// an alternative that completes whenever one does) or asks the guide, so the
// parser accepts exactly the grammar's language. A grammar without markers
// gets none of this: no network, no predicates, no cost.

const canPrefix = "CAN:"

// lookCall matches the code of the exact guards' predicates (peg.go).
var lookCall = regexp.MustCompile(`^return ask\(c\)\.Match\((\d+)\), nil$`)

// guideCall matches the code of the predicates this pass emits.
var guideCall = regexp.MustCompile(`^return ask\(c\)\.(Can|Call|Enter|Leave|Abort)\((\d+)?\), nil(?: /\* decision (\d+)\b.*\*/)?$`)

// fallbackResult is what the pass adds to the generated parser.
type fallbackResult struct {
	net     *syntax.Net
	netText string          // the Go expression of net
	asks    map[string]bool // the guide's methods the predicates call (Can, Call)
	entries map[string]bool // entry rules (pigeon identifiers) that need a guide
	guided  bool            // some decision asks the guide; else the network is for errors only
}

// insertion is text to insert at an offset of a rule's body.
type insertion struct {
	at, end int // replace [at, end)
	text    string
}

// fallback runs the pass over the emitted rules, rewriting their bodies.
func (t *translator) fallback() (*fallbackResult, error) {
	guardRules := map[string]bool{}
	for _, g := range t.gorder {
		guardRules[g.ident] = true
	}
	exprs := make([]pexpr, len(t.rules))
	index := map[string]int{}
	markers := false
	for i, p := range t.rules {
		e, err := parseBody(p.body)
		if err != nil {
			return nil, fmt.Errorf("peg: reading back rule %s: %v", p.ident, err)
		}
		exprs[i] = e
		index[p.ident] = i
		walkP(e, func(x pexpr) {
			if _, ok := x.(*pCan); ok {
				markers = true
			}
		})
	}
	if !markers && len(t.gorder) == 0 {
		return nil, nil
	}
	// Without markers, a PEG with exact guards still gets the network,
	// for its errors only: a failing guard is no failure of pigeon's, so
	// its farthest failure can be short of where the input stops being
	// viable, which the recognizer's search finds (syntax.Net.Farthest).
	// Framed rules: those that can reach a marker.
	framed := make([]bool, len(t.rules))
	for i, e := range exprs {
		walkP(e, func(x pexpr) {
			if _, ok := x.(*pCan); ok {
				framed[i] = true
			}
		})
	}
	for changed := true; changed; {
		changed = false
		for i, e := range exprs {
			if framed[i] {
				continue
			}
			walkP(e, func(x pexpr) {
				if r, ok := x.(*pRef); ok {
					if j, ok := index[r.name]; ok && framed[j] && !framed[i] {
						framed[i], changed = true, true
					}
				}
			})
		}
	}
	// Pass-through rules: framed rules whose body is one reference to a
	// framed rule, as the seed of a rewritten left recursion (r_seed <-
	// r2) or an ABNF alias (display-name = phrase). Such a rule asks
	// nothing: its callee's Enter takes the caller's return state as its
	// own, which is the frame the guide would make anyway (a call in tail
	// position gets its caller's continuation, see syntax.Guide), and its
	// Enter would ask what the callee's asks (the same language, the same
	// continuation). On expr-postfix's precedence chain, they were 8 of
	// the 20 invocations entered per operand.
	pass := make([]bool, len(t.rules))
	for i, e := range exprs {
		if r, ok := e.(*pRef); ok && framed[i] {
			if j, ok := index[r.name]; ok && framed[j] {
				pass[i] = true
			}
		}
	}
	// The network, and what to insert into each body.
	nb := &netBuilder{classes: map[string]int32{}}
	for _, p := range t.rules {
		nb.net.Rules = append(nb.net.Rules, syntax.NetRule{Name: p.ident, Start: nb.state(), Final: nb.state()})
	}
	asks := map[string]bool{}
	ins := make([][]insertion, len(t.rules))
	for i, e := range exprs {
		r := nb.net.Rules[i]
		nb.rule = i
		nb.onCan = func(c *pCan, s int32) {
			it := t.report.itemByID(c.item)
			where := ""
			if it != nil {
				where = fmt.Sprintf(": %s %s", it.Pos, it.Rule)
			}
			ins[i] = append(ins[i], insertion{c.at, c.end, fmt.Sprintf("&{ return ask(c).Can(%d), nil /* decision %d%s */ }", s, c.item, strings.ReplaceAll(where, "*/", "* /"))})
			asks["Can"] = true
		}
		nb.onRef = func(ref *pRef, ret int32) {
			if j, ok := index[ref.name]; ok && framed[i] && framed[j] && !pass[i] {
				// Parenthesized with its reference, so that a repetition
				// makes the call before every iteration.
				end := ref.at + len(ref.name)
				ins[i] = append(ins[i], insertion{end, end, ")"}, insertion{ref.at, ref.at, fmt.Sprintf("(&{ return ask(c).Call(%d), nil } ", ret)})
				asks["Call"] = true
			}
		}
		nb.index = index
		s, f := nb.build(e)
		nb.eps(r.Start, s)
		nb.eps(f, r.Final)
	}
	// The entrypoints' bodies too, as rules named by their identifiers
	// after every other: the languages of the start rules, whose searches
	// find an error's offset (syntax.Grammar.Parse).
	for _, e := range t.entry {
		x, err := parseBody(e.body)
		if err != nil {
			return nil, fmt.Errorf("peg: reading back entry %s: %v", e.ident, err)
		}
		r := syntax.NetRule{Name: e.ident, Start: nb.state(), Final: nb.state()}
		nb.net.Rules = append(nb.net.Rules, r)
		nb.rule = len(nb.net.Rules) - 1
		nb.onCan = func(*pCan, int32) {}
		nb.onRef = func(*pRef, int32) {}
		s, f := nb.build(x)
		nb.eps(r.Start, s)
		nb.eps(f, r.Final)
	}
	nb.finish()
	if err := nb.net.Check(); err != nil {
		return nil, fmt.Errorf("peg: the exact recognizer's network: %v", err)
	}
	for i, p := range t.rules {
		body := p.body
		sort.SliceStable(ins[i], func(a, b int) bool { return ins[i][a].at > ins[i][b].at })
		for _, x := range ins[i] {
			body = body[:x.at] + x.text + body[x.end:]
		}
		if framed[i] && !pass[i] {
			// Abort always fails; the "." after it is never reached, and
			// is there so that pigeon's analysis does not take the
			// alternative, and with it the rule, for one that can match
			// the empty string: it would then see left recursion where a
			// recursive rule calls a framed one first (JSON's value and
			// array).
			body = fmt.Sprintf("&{ return ask(c).Enter(%d), nil } (%s &{ return ask(c).Leave(), nil } / &{ return ask(c).Abort(), nil } .)", i, parenthesize(body))
		}
		p.body = body
	}
	res := &fallbackResult{net: &nb.net, netText: netText(&nb.net), asks: asks, entries: map[string]bool{}, guided: markers}
	for _, e := range t.entry {
		x, err := parseBody(e.body)
		if err != nil {
			return nil, err
		}
		walkP(x, func(y pexpr) {
			if r, ok := y.(*pRef); ok {
				if j, ok := index[r.name]; ok && framed[j] {
					res.entries[e.ident] = true
				}
			}
		})
	}
	return res, nil
}

func parenthesize(s string) string {
	if strings.ContainsAny(s, " /") {
		return "(" + s + ")"
	}
	return s
}

// walkP calls f for e and every expression below it.
func walkP(e pexpr, f func(pexpr)) {
	f(e)
	switch e := e.(type) {
	case *pChoice:
		for _, a := range e.alts {
			walkP(a, f)
		}
	case *pSeq:
		for _, a := range e.items {
			walkP(a, f)
		}
	case *pRep:
		walkP(e.body, f)
	case *pAnd:
		walkP(e.body, f)
	case *pNot:
		walkP(e.body, f)
	}
}

// netBuilder reads PEG expressions back as automata with the ABNF meaning.
type netBuilder struct {
	net     syntax.Net
	edges   [][]syntax.NetEdge // by state
	classes map[string]int32
	index   map[string]int
	rule    int
	onCan   func(*pCan, int32)
	onRef   func(*pRef, int32)
}

func (nb *netBuilder) state() int32 {
	nb.edges = append(nb.edges, nil)
	return int32(len(nb.edges) - 1)
}

func (nb *netBuilder) eps(from, to int32) {
	nb.edges[from] = append(nb.edges[from], syntax.NetEdge{To: to, Class: -1, Call: -1})
}

func (nb *netBuilder) class(ranges []rune) int32 {
	k := fmt.Sprint(ranges)
	if c, ok := nb.classes[k]; ok {
		return c
	}
	c := int32(len(nb.net.Classes))
	nb.net.Classes = append(nb.net.Classes, ranges)
	nb.classes[k] = c
	return c
}

func (nb *netBuilder) match(from, to int32, ranges []rune) {
	nb.edges[from] = append(nb.edges[from], syntax.NetEdge{To: to, Class: nb.class(ranges), Call: -1})
}

// build adds the automaton of e and returns its entry and exit states.
func (nb *netBuilder) build(e pexpr) (int32, int32) {
	s := nb.state()
	switch e := e.(type) {
	case *pChoice:
		f := nb.state()
		for _, a := range e.alts {
			as, af := nb.build(a)
			nb.eps(s, as)
			nb.eps(af, f)
		}
		return s, f
	case *pSeq:
		prev := s
		for _, it := range e.items {
			if c, ok := it.(*pCan); ok {
				nb.onCan(c, prev)
				continue
			}
			is, f := nb.build(it)
			nb.eps(prev, is)
			prev = f
		}
		return s, prev
	case *pRep:
		bs, bf := nb.build(e.body)
		f := nb.state()
		nb.eps(s, bs)
		if e.op != '+' {
			nb.eps(s, f)
		}
		nb.eps(bf, f)
		if e.op != '?' {
			nb.eps(bf, bs)
		}
		return s, f
	case *pLit:
		prev := s
		for _, c := range e.s {
			next := nb.state()
			nb.match(prev, next, []rune{c, c})
			prev = next
		}
		return s, prev
	case *pAny:
		f := nb.state()
		nb.match(s, f, []rune{0, utf8.MaxRune})
		return s, f
	case *pCls:
		f := nb.state()
		nb.match(s, f, classRanges(e))
		return s, f
	case *pRef:
		f := nb.state()
		j, ok := nb.index[e.name]
		if !ok {
			// A rule outside the network (an exact guard's): it
			// matches nothing.
			nb.eps(s, f)
			return s, f
		}
		nb.edges[s] = append(nb.edges[s], syntax.NetEdge{To: f, Class: -1, Call: int32(j)})
		nb.onRef(e, f)
		return s, f
	case *pCan:
		nb.onCan(e, s)
		return s, s
	}
	// Predicates consume nothing.
	f := nb.state()
	nb.eps(s, f)
	return s, f
}

// classRanges turns a class as pigeon reads it into sorted disjoint ranges.
func classRanges(c *pCls) []rune {
	type rg struct{ lo, hi rune }
	var rs []rg
	for _, ch := range c.chars {
		rs = append(rs, rg{ch, ch})
	}
	for i := 0; i+1 < len(c.ranges); i += 2 {
		if c.ranges[i] <= c.ranges[i+1] {
			rs = append(rs, rg{c.ranges[i], c.ranges[i+1]})
		}
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].lo < rs[j].lo })
	var merged []rg
	for _, r := range rs {
		if n := len(merged); n > 0 && r.lo <= merged[n-1].hi+1 {
			merged[n-1].hi = max(merged[n-1].hi, r.hi)
			continue
		}
		merged = append(merged, r)
	}
	if c.invert {
		var inv []rg
		next := rune(0)
		for _, r := range merged {
			if r.lo > next {
				inv = append(inv, rg{next, r.lo - 1})
			}
			next = r.hi + 1
		}
		if next <= utf8.MaxRune {
			inv = append(inv, rg{next, utf8.MaxRune})
		}
		merged = inv
	}
	out := make([]rune, 0, 2*len(merged))
	for _, r := range merged {
		out = append(out, r.lo, r.hi)
	}
	return out
}

func (nb *netBuilder) finish() {
	nb.net.Index = make([]int32, len(nb.edges)+1)
	for s, es := range nb.edges {
		nb.net.Index[s] = int32(len(nb.net.Edges))
		nb.net.Edges = append(nb.net.Edges, es...)
	}
	nb.net.Index[len(nb.edges)] = int32(len(nb.net.Edges))
}

// netText writes a network as a Go expression.
func netText(n *syntax.Net) string {
	var b strings.Builder
	b.WriteString("&syntax.Net{\n\tRules: []syntax.NetRule{")
	for i, r := range n.Rules {
		if i%4 == 0 {
			b.WriteString("\n\t\t")
		} else {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "{Name: %q, Start: %d, Final: %d},", r.Name, r.Start, r.Final)
	}
	b.WriteString("\n\t},\n\tIndex: []int32{")
	ints(&b, n.Index)
	b.WriteString("},\n\tEdges: []syntax.NetEdge{")
	for i, e := range n.Edges {
		if i%4 == 0 {
			b.WriteString("\n\t\t")
		} else {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "{To: %d, Class: %d, Call: %d},", e.To, e.Class, e.Call)
	}
	b.WriteString("\n\t},\n\tClasses: [][]rune{")
	for _, c := range n.Classes {
		b.WriteString("\n\t\t{")
		for i, r := range c {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Itoa(int(r)))
		}
		b.WriteString("},")
	}
	b.WriteString("\n\t},\n}")
	return b.String()
}

func ints(b *strings.Builder, xs []int32) {
	for i, x := range xs {
		if i%16 == 0 {
			b.WriteString("\n\t\t")
		} else {
			b.WriteString(" ")
		}
		fmt.Fprintf(b, "%d,", x)
	}
	b.WriteString("\n\t")
}

// maxWitnessWork bounds the work of the witness search (the PEG
// interpreter's steps and the guide's), over every start rule: a grammar
// with hundreds of start rules and fallbacks (a chain of 800 rules, say)
// must not take minutes of witness search. A fallback left without a
// witness says so in the report.
const maxWitnessWork = 20_000_000

// witnesses finds, for each fallback decision, an input that shows it is
// needed: one that the grammar matches (the ABNF matcher says so) and that
// the PEG, with the guide answering every other decision but this one left
// as the unguarded PEG would take it, rejects. Inputs come from the
// sampler, n per start rule that needs the guide.
func (t *translator) witnesses(text []byte, fb *fallbackResult, guards *syntax.Net, n int) {
	prog, err := loadPEG(string(text))
	if err != nil {
		t.report.warn("witness search: reading the PEG back: %v", err)
		return
	}
	prog.guards = guards
	m, err := abnf.NewMatcher(t.abnf)
	if err != nil {
		t.report.warn("witness search: %v", err)
		return
	}
	pending := map[int]*Item{}
	for _, it := range t.report.Items {
		if it.Kind == "fallback" {
			pending[it.id] = it
		}
	}
	spent := 0
	for _, e := range t.entry {
		if !fb.entries[e.ident] || len(pending) == 0 {
			continue
		}
		s := abnf.NewSampler(t.abnf, 1)
		s.MaxLen, s.MaxDepth = 48, 8 // witnesses are meant to be read
		for range n {
			in, err := s.Sample(e.rule.Name)
			if err != nil {
				break
			}
			if ok, _ := m.Match(e.rule.Name, in); !ok || !t.abnf.Octets && !utf8.Valid(in) {
				continue
			}
			orig := in
			if t.abnf.Octets {
				in = latin1(in)
			}
			if spent >= maxWitnessWork {
				break
			}
			ok, steps, err := prog.run(e.ident, in, fb.net, nil)
			spent += steps
			if !ok && err == nil {
				t.report.warn("the generated parser rejects %q, which the grammar's %s matches: report this as a bug of gen", in, e.rule.Name)
				continue
			}
			// Group testing: the unguarded decisions are tried together, and
			// a group is split only when the parser, with all of them
			// unguarded, rejects the input. A grammar with a hundred
			// fallbacks costs a few runs per sample, not a hundred.
			var find func(ids []int)
			find = func(ids []int) {
				if len(ids) == 0 || spent >= maxWitnessWork {
					return
				}
				skip := map[int]bool{}
				for _, id := range ids {
					skip[id] = true
				}
				ok, steps, err := prog.run(e.ident, in, fb.net, skip)
				spent += steps
				if ok || err != nil {
					return
				}
				if len(ids) == 1 {
					pending[ids[0]].Witness, pending[ids[0]].Start = string(orig), e.rule.Name
					delete(pending, ids[0])
					return
				}
				find(ids[:len(ids)/2])
				find(ids[len(ids)/2:])
			}
			find(slices.Sorted(maps.Keys(pending)))
			if len(pending) == 0 || spent >= maxWitnessWork {
				break
			}
		}
	}
}

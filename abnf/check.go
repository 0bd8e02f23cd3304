package abnf

import (
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Severity grades a [Problem].
type Severity int

const (
	// SeverityNote is information: legal ABNF that some back ends treat
	// specially.
	SeverityNote Severity = iota
	// SeverityWarning is legal ABNF that is probably a mistake or that a
	// back end must rewrite.
	SeverityWarning
	// SeverityError makes the grammar unusable by the matcher and the
	// translators.
	SeverityError
)

func (s Severity) String() string {
	return [...]string{"note", "warning", "error"}[s]
}

// Problem is one finding of [Check].
type Problem struct {
	Pos      Pos
	Severity Severity
	Msg      string
}

func (p Problem) String() string {
	if p.Pos == (Pos{}) {
		return fmt.Sprintf("%s: %s", p.Severity, p.Msg)
	}
	return fmt.Sprintf("%s: %s: %s", p.Pos, p.Severity, p.Msg)
}

// Analysis holds facts about a grammar that later stages share.
type Analysis struct {
	g        *Grammar
	nullable map[*Rule]bool
	refs     map[*Rule][]*Rule // rules referenced by each rule, in order, without repeats
	height   map[*Rule]int     // least derivation depth; absent if the rule derives no finite string
	shortest map[*Rule]int     // length in bytes of the shortest string; absent as height
	// Per vertex of the expression graph (index: node → vertex): the
	// least height and the shortest length, -1 if there is no finite
	// string.
	eg      *exprGraph
	index   map[Node]int
	heights []int
	shorts  []int
}

// ShortestLimit is the length, in bytes, above which [Check] reports a rule's
// shortest string: such a rule (65536(65536"a") needs 4 GiB) is legal ABNF
// and the matcher takes it, but a sample of it, or an automaton that spells
// it out, is too large to make, and the stages that would have to refuse
// it ([Sampler.Sample] among them) do so by name.
const ShortestLimit = 1 << 20

// saturated is where lengths stop growing: beyond any input, and an int
// on every platform (2^30 on 32-bit ones, whose inputs are smaller still).
const saturated = 1 << (bits.UintSize - 2)

func satAdd(a, b int) int {
	if a >= saturated-b {
		return saturated
	}
	return a + b
}

func satMulLen(a, b int) int {
	if a != 0 && b > saturated/a {
		return saturated
	}
	return a * b
}

// Analyze computes nullability, references and derivation heights. The
// grammar must have no undefined references. It takes time O(n log n) in
// the size of the grammar, whatever the shape of its rules (see least).
func Analyze(g *Grammar) *Analysis {
	a := &Analysis{g: g, nullable: map[*Rule]bool{}, refs: map[*Rule][]*Rule{}, height: map[*Rule]int{},
		shortest: map[*Rule]int{}}
	a.refs = refs(g)
	less := func(x, y int) bool { return x < y }
	eg := newExprGraph(g)
	short := least(eg, leastRules[int]{
		less: less,
		leaf: func(n Node) int { l, _ := a.nodeShortest(n); return l },
		concat: func(items []int) int {
			sum := 0
			for _, l := range items {
				sum = satAdd(sum, l)
			}
			return sum
		},
		repeat: satMulLen,
		rule:   func(l int) int { return l },
	})
	height := least(eg, leastRules[int]{
		less: less,
		leaf: func(Node) int { return 0 },
		concat: func(items []int) int {
			h := 0
			for _, x := range items {
				h = max(h, x)
			}
			return h
		},
		repeat: func(_ int, h int) int { return h },
		rule:   func(h int) int { return h + 1 },
	})
	for i, r := range g.Rules {
		if v := short[i]; v.ok {
			a.shortest[r] = v.v
			a.nullable[r] = v.v == 0 // the empty string is the shortest there is
		}
		if v := height[i]; v.ok {
			a.height[r] = v.v
		}
	}
	a.eg, a.index = eg, eg.index
	a.shorts = make([]int, len(short))
	a.heights = make([]int, len(height))
	for v := range short {
		a.shorts[v], a.heights[v] = -1, -1
		if short[v].ok {
			a.shorts[v] = short[v].v
		}
		if height[v].ok {
			a.heights[v] = height[v].v
		}
	}
	return a
}

// Shortest returns the length in bytes of the shortest string rule r
// matches, saturating at 2^62 (2^30 where an int has 32 bits), and false if r derives no finite string.
func (a *Analysis) Shortest(r *Rule) (int, bool) {
	n, ok := a.shortest[r]
	return n, ok
}

func (a *Analysis) nodeShortest(n Node) (int, bool) {
	switch n := n.(type) {
	case *Alt:
		best, ok := 0, false
		for _, x := range n.Alts {
			if l, o := a.nodeShortest(x); o && (!ok || l < best) {
				best, ok = l, true
			}
		}
		return best, ok
	case *Concat:
		sum := 0
		for _, x := range n.Items {
			l, ok := a.nodeShortest(x)
			if !ok {
				return 0, false
			}
			sum = satAdd(sum, l)
		}
		return sum, true
	case *Repeat:
		if n.Min == 0 {
			return 0, true
		}
		l, ok := a.nodeShortest(n.Body)
		return satMulLen(n.Min, l), ok
	case *RuleRef:
		l, ok := a.shortest[a.g.Rule(n.Name)]
		return l, ok
	case *CharVal:
		return len(n.Text), true
	case *NumVal:
		if a.g.Octets {
			if n.Range {
				return 1, true
			}
			return len(n.Vals), true
		}
		if n.Range {
			return max(utf8.RuneLen(n.Vals[0]), 1), true
		}
		sum := 0
		for _, v := range n.Vals {
			sum += max(utf8.RuneLen(v), 1)
		}
		return sum, true
	}
	return 0, true // prose, under a zero repetition
}

// Nullable reports whether n can match the empty string.
func (a *Analysis) Nullable(n Node) bool {
	if v, ok := a.index[n]; ok {
		return a.shorts[v] == 0
	}
	switch n := n.(type) {
	case *Alt:
		for _, x := range n.Alts {
			if a.Nullable(x) {
				return true
			}
		}
		return false
	case *Concat:
		for _, x := range n.Items {
			if !a.Nullable(x) {
				return false
			}
		}
		return true
	case *Repeat:
		return n.Min == 0 || a.Nullable(n.Body)
	case *RuleRef:
		return a.nullable[a.g.Rule(n.Name)]
	case *CharVal:
		return n.Text == ""
	case *NumVal:
		return false
	case *Prose:
		return true // only legal under a zero repetition
	}
	return false
}

// RuleNullable reports whether rule r can match the empty string.
func (a *Analysis) RuleNullable(r *Rule) bool { return a.nullable[r] }

// Height returns the least number of nested rule expansions needed to derive
// a string from n, and false if n derives no finite string.
func (a *Analysis) Height(n Node) (int, bool) { return a.nodeHeight(n) }

func (a *Analysis) nodeHeight(n Node) (int, bool) {
	if v, ok := a.index[n]; ok {
		return a.heights[v], a.heights[v] >= 0
	}
	switch n := n.(type) {
	case *Alt:
		best, ok := 0, false
		for _, x := range n.Alts {
			if h, o := a.nodeHeight(x); o && (!ok || h < best) {
				best, ok = h, true
			}
		}
		return best, ok
	case *Concat:
		best := 0
		for _, x := range n.Items {
			h, ok := a.nodeHeight(x)
			if !ok {
				return 0, false
			}
			best = max(best, h)
		}
		return best, true
	case *Repeat:
		if n.Min == 0 {
			return 0, true
		}
		return a.nodeHeight(n.Body)
	case *RuleRef:
		h, ok := a.height[a.g.Rule(n.Name)]
		return h, ok
	}
	return 0, true
}

// refs returns the rules each rule references, in order, without repeats.
func refs(g *Grammar) map[*Rule][]*Rule {
	out := make(map[*Rule][]*Rule, len(g.Rules))
	for _, r := range g.Rules {
		var seen map[*Rule]bool
		Walk(r.Expr, func(n Node) {
			if ref, ok := n.(*RuleRef); ok {
				t := g.Rule(ref.Name)
				if t == nil || seen[t] {
					return
				}
				if seen == nil {
					seen = map[*Rule]bool{}
				}
				seen[t] = true
				out[r] = append(out[r], t)
			}
		})
	}
	return out
}

// Refs returns the rules r references directly.
func (a *Analysis) Refs(r *Rule) []*Rule { return a.refs[r] }

// Roots returns the rules no other rule references (core rules excluded):
// the grammar's possible start rules.
func Roots(g *Grammar) []*Rule {
	refs := refs(g)
	used := map[*Rule]bool{}
	for _, r := range g.Rules {
		for _, t := range refs[r] {
			if t != r {
				used[t] = true
			}
		}
	}
	var roots []*Rule
	for _, r := range g.Rules {
		if !r.Core && !used[r] {
			roots = append(roots, r)
		}
	}
	return roots
}

// Reachable returns the rules reachable from the start rules, themselves
// included.
func (a *Analysis) Reachable(start []*Rule) map[*Rule]bool {
	seen := map[*Rule]bool{}
	var visit func(*Rule)
	visit = func(r *Rule) {
		if seen[r] {
			return
		}
		seen[r] = true
		for _, t := range a.refs[r] {
			visit(t)
		}
	}
	for _, r := range start {
		visit(r)
	}
	return seen
}

// leftRefs returns the rules n can call before consuming input.
func (a *Analysis) leftRefs(n Node, out map[*Rule]bool) {
	switch n := n.(type) {
	case *Alt:
		for _, x := range n.Alts {
			a.leftRefs(x, out)
		}
	case *Concat:
		for _, x := range n.Items {
			a.leftRefs(x, out)
			if !a.Nullable(x) {
				return
			}
		}
	case *Repeat:
		if n.Max != 0 {
			a.leftRefs(n.Body, out)
		}
	case *RuleRef:
		out[a.g.Rule(n.Name)] = true
	}
}

// Cycles returns the strongly connected components of the graph given by
// edges that contain a cycle, each in rule order.
func cycles(rules []*Rule, edges func(*Rule) []*Rule) [][]*Rule {
	order := make(map[*Rule]int, len(rules))
	for i, r := range rules {
		order[r] = i
	}
	index := map[*Rule]int{}
	low := map[*Rule]int{}
	on := map[*Rule]bool{}
	var stack []*Rule
	var out [][]*Rule
	n := 0
	var strong func(*Rule)
	strong = func(v *Rule) {
		index[v], low[v] = n, n
		n++
		stack = append(stack, v)
		on[v] = true
		for _, w := range edges(v) {
			if _, ok := index[w]; !ok {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var comp []*Rule
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			self := false
			for _, w := range edges(v) {
				self = self || w == v
			}
			if len(comp) > 1 || self {
				sort.Slice(comp, func(i, j int) bool { return order[comp[i]] < order[comp[j]] })
				out = append(out, comp)
			}
		}
	}
	for _, r := range rules {
		if _, ok := index[r]; !ok {
			strong(r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return order[out[i][0]] < order[out[j][0]] })
	return out
}

// LeftRecursive returns the groups of rules that call each other, or
// themselves, without consuming input.
func (a *Analysis) LeftRecursive() [][]*Rule {
	order := make(map[*Rule]int, len(a.g.Rules))
	for i, r := range a.g.Rules {
		order[r] = i
	}
	return cycles(a.g.Rules, func(r *Rule) []*Rule {
		set := map[*Rule]bool{}
		a.leftRefs(r.Expr, set)
		out := make([]*Rule, 0, len(set))
		for t := range set {
			out = append(out, t)
		}
		sort.Slice(out, func(i, j int) bool { return order[out[i]] < order[out[j]] })
		return out
	})
}

// Recursive returns the groups of mutually recursive rules.
func (a *Analysis) Recursive() [][]*Rule {
	return cycles(a.g.Rules, func(r *Rule) []*Rule { return a.refs[r] })
}

// IsRecursive reports whether any rule reachable from r is recursive.
func (a *Analysis) IsRecursive(r *Rule) bool {
	reach := a.Reachable([]*Rule{r})
	for _, c := range a.Recursive() {
		if reach[c[0]] {
			return true
		}
	}
	return false
}

func names(rules []*Rule) string {
	s := make([]string, len(rules))
	for i, r := range rules {
		s[i] = r.Name
	}
	return strings.Join(s, ", ")
}

// Check finds the problems of a grammar that reads without errors:
//
//   - rules that derive no finite string (errors: nothing can use them);
//   - repetitions whose body can match the empty string (warnings: a PEG
//     would loop on them, so translators rewrite them);
//   - rules whose shortest string is longer than [ShortestLimit] bytes
//     (warnings: the matcher takes them, the sampler and automata refuse
//     them by name);
//   - rules unreachable from the start rules (warnings);
//   - left recursion reachable from the start rules (notes: the matcher and
//     the sampler take it, translators rewrite it);
//   - recursion (notes: legal, but a DFA back end cannot take it).
//
// With no start rules given, the roots (rules nothing references) are the
// start rules. Problems come sorted by position.
func Check(g *Grammar, start []string) []Problem {
	a := Analyze(g)
	var ps []Problem
	add := func(pos Pos, sev Severity, format string, args ...any) {
		ps = append(ps, Problem{Pos: pos, Severity: sev, Msg: fmt.Sprintf(format, args...)})
	}
	var starts []*Rule
	for _, s := range start {
		r := g.Rule(s)
		if r == nil {
			add(Pos{}, SeverityError, "start rule %s is not defined", s)
			continue
		}
		starts = append(starts, r)
	}
	if len(start) == 0 {
		starts = Roots(g)
		if len(starts) == 0 && len(g.Rules) > 0 {
			add(g.Rules[0].Pos, SeverityWarning, "every rule is referenced by another, so there is no evident start rule; name one")
		}
	}
	reach := a.Reachable(starts)
	relevant := func(r *Rule) bool { return len(starts) == 0 || reach[r] }
	for _, c := range a.LeftRecursive() {
		if slices.ContainsFunc(c, relevant) {
			add(c[0].Pos, SeverityNote, "left recursion: %s can reach itself without consuming input (rules: %s); the matcher and the sampler take it, gen peg rewrites it", c[0].Name, names(c))
		}
	}
	for _, c := range a.Recursive() {
		add(c[0].Pos, SeverityNote, "recursion: %s is recursive (rules: %s); the DFA back end compiles it only where the recursion is regular (no self-embedding)", c[0].Name, names(c))
	}
	for _, r := range g.Rules {
		if _, ok := a.height[r]; !ok {
			add(r.Pos, SeverityError, "%s derives no finite string: every alternative needs %s again", r.Name, r.Name)
		} else if n := a.shortest[r]; n > ShortestLimit && relevant(r) {
			add(r.Pos, SeverityWarning, "%s: its shortest string is %s bytes, above the %d that samples and automata take", r.Name, lengthString(n), ShortestLimit)
		}
		Walk(r.Expr, func(n Node) {
			if rep, ok := n.(*Repeat); ok && rep.Max != 0 && rep.Max != 1 && a.Nullable(rep.Body) {
				add(rep.Pos, SeverityWarning, "repetition body %s can match the empty string; a PEG would loop on it (gen rewrites it)", String(rep.Body))
			}
		})
	}
	for _, r := range g.Rules {
		if len(starts) > 0 && !r.Core && !reach[r] {
			add(r.Pos, SeverityWarning, "%s is unreachable from the start rules (%s)", r.Name, names(starts))
		}
	}
	sort.SliceStable(ps, func(i, j int) bool {
		x, y := ps[i].Pos, ps[j].Pos
		if x.File != y.File {
			return fileOrder(g, x.File) < fileOrder(g, y.File)
		}
		return x.Offset < y.Offset
	})
	return ps
}

// saturatedString is how a saturated length reads.
var saturatedString = fmt.Sprintf("more than 2^%d", bits.UintSize-2)

// lengthString formats a saturating length.
func lengthString(n int) string {
	if n >= saturated {
		return saturatedString
	}
	return fmt.Sprint(n)
}

// fileOrder ranks a source name by the first rule defined in it.
func fileOrder(g *Grammar, file string) int {
	for i, r := range g.Rules {
		if r.Pos.File == file {
			return i
		}
	}
	return len(g.Rules)
}

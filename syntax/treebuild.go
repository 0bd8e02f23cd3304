package syntax

import (
	"math"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// Trees from generated code. gen dfa -tree reads the parser pigeon
// generated from a grammar's PEG and writes, next to the DFA tables, a Go
// function per start rule that evaluates the same PEG expressions in the
// same order, with the same ordered choices, possessive repetitions and
// predicates, and builds the nodes that pigeon's actions would build: the
// same tree, without pigeon's interface values, value stacks and per-node
// slices. It even counts the expressions pigeon would evaluate, so that a
// parse past pigeon's expression limit is left to pigeon, which reports
// it. [Grammar.Parse] stays pigeon's; [Grammar.Tree] takes the generated
// function when the start rule has one and its DFA, and pigeon otherwise.

// TreeFunc parses the whole of p's input as one start rule; it is the
// Tree field of a [Table]. It reports false when it did not build the tree
// (the input does not match, or the parse reached the expression limit):
// the caller then asks pigeon.
type TreeFunc func(p *TreeParser) bool

// TreeParser is the state of a generated tree function: the input, the
// position, pigeon's expression count and the nodes built so far. Its
// fields and methods are for generated code.
type TreeParser struct {
	In     string // the input
	Pos    int    // the current byte offset
	Octets bool   // each byte is a character (gen -octets); else UTF-8
	// N counts the expressions evaluated, as pigeon counts them; past Max
	// the parse gives up (Over).
	N, Max uint64
	Over   bool
	// Names are the rules the generated code captures, by index.
	Names []string
	// Guards are the exact continuation guards of the grammar (the guardNet
	// of gen peg's glue), for Guard; nil when the rule's parse has none.
	Guards *Net
	look   *Lookahead
	depth  int // the stack of the functions on cycles of calls running, in bytes (see Nest)

	// Scratch space without pointers (the garbage collector has nothing
	// to scan nor write barriers to run): the nodes built, including those
	// of alternatives that failed, their kids, and the stack of the nodes
	// of the expression being parsed. The tree is copied out at the end.
	nodes []scratchNode
	kids  []int32
	stack []int32
}

// scratchNode is a node of the scratch space: its rule (an index into
// Names), its span, and its kids (kids[first:first+n]).
type scratchNode struct {
	rule, start, end, first, n int32
}

// Check reports whether the parse may go on: false once the expression
// count has passed the limit. Generated code calls it on entering a rule
// and on each iteration of a repetition, so that any parse ends.
func (p *TreeParser) Check() bool {
	if p.N > p.Max {
		p.Over = true
	}
	return !p.Over
}

// Nest is the check of a function on a cycle of calls (gen dfa -tree
// writes it first in such functions, with a bound of the function's
// frame in bytes), which Unnest balances as it ends: it reports whether
// those functions' frames take at most treeStack bytes of stack. Past
// that, the parse gives up (Over), and pigeon, to which Tree then turns,
// reports ErrDepth: a goroutine whose stack runs out dies of a fatal
// error, not a panic.
func (p *TreeParser) Nest(frame int) bool {
	if p.depth += frame; p.depth > treeStack {
		p.Over = true
	}
	return !p.Over
}

// Unnest ends a function on a cycle of calls (see Nest).
func (p *TreeParser) Unnest(frame int) { p.depth -= frame }

// treeStack is the stack the tree functions on cycles of calls may take
// (see Nest): they run alone, before pigeon's parser or after it.
const treeStack = 256 << 20

// Guard reports whether exact continuation guard k (a rule of Guards)
// accepts the rest of the input from the current position, as pigeon's
// guard rules ask the parse's [Lookahead]. The first guard of a parse
// makes the lookahead, with the same work budget as pigeon's (maxExpr,
// at most 1<<40 steps), and its memo serves the rest of the parse. When
// the lookahead gives up, so does the parse (Over): pigeon reports why.
func (p *TreeParser) Guard(k int) bool {
	if p.look == nil {
		// The lookahead only reads its input: no copy of p.In.
		p.look = NewLookahead(p.Guards, unsafe.Slice(unsafe.StringData(p.In), len(p.In)), int(min(p.Max, 1<<40)))
		p.look.octets = p.Octets
	}
	ok := p.look.Match(k, p.Pos)
	if p.look.Err() != nil {
		p.Over = true
		return false
	}
	return ok
}

// Mark is the number of nodes built and not yet captured: what Cut and
// Capture take back to.
func (p *TreeParser) Mark() int { return len(p.stack) }

// Cut drops the nodes built after mark m: those of an expression that
// failed, or of a predicate.
func (p *TreeParser) Cut(m int) { p.stack = p.stack[:m] }

// Capture replaces the nodes built after mark m by one node of rule
// Names[rule] spanning [start, p.Pos), whose kids they are, as
// syntax.Capture builds it from pigeon's values.
func (p *TreeParser) Capture(rule, start, m int) {
	k := len(p.stack) - m
	p.nodes = append(p.nodes, scratchNode{rule: int32(rule), start: int32(start), end: int32(p.Pos), first: int32(len(p.kids)), n: int32(k)})
	p.kids = append(p.kids, p.stack[m:]...)
	p.stack = append(p.stack[:m], int32(len(p.nodes)-1))
}

// tree copies the tree of scratch node i out, into two allocations: its
// nodes and their kids.
func (p *TreeParser) tree(i int32) *Node {
	nodes, kids := 0, 0
	var count func(int32)
	count = func(i int32) {
		n := &p.nodes[i]
		nodes++
		kids += int(n.n)
		for _, k := range p.kids[n.first : n.first+n.n] {
			count(k)
		}
	}
	count(i)
	ns := make([]Node, nodes)
	ks := make([]*Node, kids)
	nn, kk := 0, 0
	var cp func(int32) *Node
	cp = func(i int32) *Node {
		n := &p.nodes[i]
		c := &ns[nn]
		nn++
		c.Rule, c.Start, c.End = p.Names[n.rule], int(n.start), int(n.end)
		if n.n > 0 {
			c.Kids = ks[kk : kk+int(n.n) : kk+int(n.n)]
			kk += int(n.n)
			for j, k := range p.kids[n.first : n.first+n.n] {
				c.Kids[j] = cp(k)
			}
		}
		return c
	}
	return cp(i)
}

// Rune is the character at the current position and its width in bytes;
// 0 at the end of the input, and utf8.RuneError, 1 for invalid UTF-8
// (which [Grammar.Tree] never passes).
func (p *TreeParser) Rune() (rune, int) {
	if p.Pos >= len(p.In) {
		return utf8.RuneError, 0
	}
	if c := p.In[p.Pos]; c < utf8.RuneSelf || p.Octets {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(p.In[p.Pos:])
}

// Lit matches a literal as pigeon does: character by character, each
// lowered when fold is set (the literal is then lower case already). It
// advances past it and reports true, or stays and reports false.
func (p *TreeParser) Lit(lit string, fold bool) bool {
	if !fold && !p.Octets {
		if len(p.In)-p.Pos >= len(lit) && p.In[p.Pos:p.Pos+len(lit)] == lit {
			p.Pos += len(lit)
			return true
		}
		return false
	}
	start := p.Pos
	for _, want := range lit {
		cur, w := p.Rune()
		if w == 0 || foldRune(cur, fold) != want {
			p.Pos = start
			return false
		}
		p.Pos += w
	}
	return true
}

// Class matches one character of a class as pigeon does: ascii says which
// bytes below 0x80 (all 256 bytes for Octets) match, as gen computed it;
// above, the character, lowered when fold is set, is looked up in chars
// and ranges (pairs), and inverted turns the answer over.
func (p *TreeParser) Class(ascii *[4]uint64, chars, ranges []rune, fold, inverted bool) bool {
	if p.Pos >= len(p.In) {
		return false
	}
	c := p.In[p.Pos]
	if c < utf8.RuneSelf || p.Octets {
		if ascii[c>>6]&(1<<(c&63)) != 0 {
			p.Pos++
			return true
		}
		return false
	}
	cur, w := utf8.DecodeRuneInString(p.In[p.Pos:])
	cur = foldRune(cur, fold)
	in := false
	for _, r := range chars {
		if r == cur {
			in = true
			break
		}
	}
	for i := 0; !in && i+1 < len(ranges); i += 2 {
		in = cur >= ranges[i] && cur <= ranges[i+1]
	}
	if in == inverted {
		return false
	}
	p.Pos += w
	return true
}

// foldRune is r lowered, as pigeon lowers the input for a literal or
// class that ignores case (fold), or r.
func foldRune(r rune, fold bool) rune {
	if fold {
		return unicode.ToLower(r)
	}
	return r
}

// Any matches any one character.
func (p *TreeParser) Any() bool {
	_, w := p.Rune()
	p.Pos += w
	return w > 0
}

// Tree parses the whole input as a start rule and returns its parse tree,
// the same as [Grammar.Parse]'s, when the rule has a DFA that accepts the
// input and a generated tree function (gen dfa -tree) that builds it
// within maxExpr expressions; otherwise it returns Parse's answer. The
// tree function costs about a tenth of pigeon's time (0.08 in the root
// package's BenchmarkTree).
func (g *Grammar) Tree(rule string, input []byte, maxExpr uint64) (*Node, *Failure) {
	if n := g.GeneratedTree(rule, string(input), maxExpr); n != nil {
		return n, nil
	}
	return g.Parse(rule, input, maxExpr)
}

// TreeString is Tree for a string input, which it does not copy when the
// generated function builds the tree.
func (g *Grammar) TreeString(rule, input string, maxExpr uint64) (*Node, *Failure) {
	if n := g.GeneratedTree(rule, input, maxExpr); n != nil {
		return n, nil
	}
	return g.Parse(rule, []byte(input), maxExpr)
}

// HasTree reports whether Tree builds the trees of rule with generated
// code (for valid inputs within the limits) rather than pigeon.
func (g *Grammar) HasTree(rule string) bool {
	t := g.dfa[rule]
	return t != nil && t.Tree != nil && !g.guided[g.peg.Entries[rule]]
}

// GeneratedTree is the tree the generated function of rule builds for
// input, the same as Parse's; nil when the rule has no such function
// (HasTree), its DFA rejects the input, the input is not UTF-8 (for a
// grammar that is not of octets), or the parse would pass maxExpr
// expressions: Tree then asks pigeon.
func (g *Grammar) GeneratedTree(rule, input string, maxExpr uint64) *Node {
	if !g.HasTree(rule) {
		return nil
	}
	if len(input) > math.MaxInt32 {
		return nil // beyond the scratch space's offsets
	}
	if !g.peg.Octets && !utf8.ValidString(input) {
		return nil // pigeon reports the encoding
	}
	// The PEG accepts what the DFA accepts: the function fails where the
	// DFA would reject, and pigeon then says why.
	p := treeParsers.Get().(*TreeParser)
	*p = TreeParser{In: input, Octets: g.peg.Octets, Max: maxExpr, nodes: p.nodes[:0], kids: p.kids[:0], stack: p.stack[:0]}
	var root *Node
	if g.dfa[rule].Tree(p) && !p.Over && p.N <= p.Max && len(p.stack) == 1 {
		root = p.tree(p.stack[0])
	}
	p.In, p.Names, p.Guards, p.look = "", nil, nil, nil
	if cap(p.nodes) <= maxPooled && cap(p.kids) <= maxPooled {
		treeParsers.Put(p)
	}
	return root
}

// maxPooled is the most scratch nodes a pooled parser keeps.
const maxPooled = 1 << 14

// treeParsers hold the scratch space of tree functions.
var treeParsers = sync.Pool{New: func() any {
	return &TreeParser{nodes: make([]scratchNode, 0, 64), kids: make([]int32, 0, 64), stack: make([]int32, 0, 32)}
}}

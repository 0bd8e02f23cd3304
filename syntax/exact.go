package syntax

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// A Net is the recursive transition network of a generated parser's rules:
// one automaton per rule, whose edges match one character of a class, call
// a rule, or match nothing. It has the grammar's meaning — alternatives are
// unordered and repetitions give input back — so it can answer what a PEG
// decision cannot see: whether the input can still be completed.
//
// gen emits a Net for a grammar only when some PEG decision of it could not
// be proven exact (a choice or repetition under self-embedding recursion,
// say); a [Guide] built from it then settles those decisions at parse time.
type Net struct {
	Rules   []NetRule
	Index   []int32   // the edges of state s are Edges[Index[s]:Index[s+1]]
	Edges   []NetEdge //
	Classes [][]rune  // inclusive code point ranges: lo, hi, lo, hi, …

	noDFA bool // for tests: simulate every rule (see exactdfa.go)

	layoutOnce sync.Once
	layout     netLayout
	checkErr   error // Check's answer, found with the layout
}

// netLayout numbers the states of each rule's automaton from 0, so that a
// Guide's scratch space is the size of one rule, not of the whole network:
// a guide nests one level per rule in progress, and a chain of 800 rules
// would otherwise take 800 copies of the network's size for every parse.
type netLayout struct {
	local   []int32 // a state's number within its rule
	size    []int32 // the number of states of each rule
	maxSize int32
	ascii   [][2]uint64 // each class's members below 128, as a bitmap
	// eps lists, for each state s, the states that ε-edges reach from s
	// (s itself included) and that do something: match a character, call
	// a rule, or end a rule; eps[s] is epsList[epsIndex[s]:epsIndex[s+1]].
	// The recognizer visits those only, in the order of the edges (a
	// depth-first walk taking each state's ε-edges in turn), which is the
	// order of the PEG's alternatives: the guide's searches try first what
	// the parser tries first.
	epsIndex []int32
	epsList  []int32
	// rule is the rule of each state (nil in the identity layout), and
	// tail marks the states from which the rule can only end: their
	// ε-list is the rule's final state, which has no edges. A call that
	// returns to such a state returns, in effect, where its caller does
	// (see Guide.newFrame).
	rule []int32
	tail []bool
	// For each rule: whether it can match the empty string, and the
	// characters its matches can begin with (below 128 a bitmap, from 128
	// up a yes or no), so that a call that cannot match is not made.
	nullable  []bool
	first     [][2]uint64
	firstHigh []bool
	// recursive marks the rules on a cycle of calls (a rule that calls
	// itself, directly or not); see Guide.end.
	recursive []bool
	// regular marks the rules that reach no rule on a cycle of calls;
	// dfas holds their DFAs, made at first use (exactdfa.go), whose
	// states dfaKeys numbers. (nil in the identity layout.)
	regular []bool
	// alias is, for a rule whose automaton is one call of another rule
	// in tail position (r = j: a left recursion's seed, display-name =
	// phrase), that rule, and -1 for the others: r's ends are j's.
	alias   []int32
	dfas    []atomic.Pointer[ruleDFA]
	dfaKeys atomic.Uint32
	// filters holds the start rules' filters, made at their first
	// guided parse (filter.go).
	filters []atomic.Pointer[filterAuto]
}

// states returns the network's layout, computed on first use. In the
// networks gen emits, every state is reached from its own rule's start
// only (edges never leave a rule's automaton: a call is an edge to the
// caller's next state), and a state reached from no start is never
// visited. A network built otherwise by hand gets the identity numbering:
// slower, still correct.
func (n *Net) states() *netLayout {
	n.layoutOnce.Do(func() {
		if n.checkErr = n.Check(); n.checkErr != nil {
			return
		}
		n.number()
		n.closures()
	})
	return &n.layout
}

// number computes the layout's numbering of states and class bitmaps.
func (n *Net) number() {
	l := &n.layout
	l.ascii = make([][2]uint64, len(n.Classes))
	for i, c := range n.Classes {
		for j := 0; j < len(c); j += 2 {
			for r := c[j]; r <= min(c[j+1], 127); r++ {
				l.ascii[i][r>>6] |= 1 << (r & 63)
			}
		}
	}
	states := len(n.Index) - 1
	l.local = make([]int32, states)
	l.size = make([]int32, len(n.Rules))
	owner := make([]int32, states)
	for i := range owner {
		owner[i] = -1
	}
	var queue []int32
	for r, rule := range n.Rules {
		if owner[rule.Start] >= 0 {
			n.identityLayout()
			return
		}
		queue = append(queue[:0], rule.Start)
		owner[rule.Start] = int32(r)
		for i := 0; i < len(queue); i++ {
			s := queue[i]
			l.local[s] = int32(i)
			for _, e := range n.Edges[n.Index[s]:n.Index[s+1]] {
				switch owner[e.To] {
				case -1:
					owner[e.To] = int32(r)
					queue = append(queue, e.To)
				case int32(r):
				default:
					n.identityLayout()
					return
				}
			}
		}
		l.size[r] = int32(len(queue))
		l.maxSize = max(l.maxSize, int32(len(queue)))
	}
	l.rule = owner
}

// closures computes the layout's ε-lists and each rule's first characters
// and nullability.
func (n *Net) closures() {
	l := &n.layout
	states := int32(len(n.Index) - 1)
	kernel := make([]bool, states)
	for _, r := range n.Rules {
		kernel[r.Final] = true
	}
	for s := range states {
		for _, e := range n.Edges[n.Index[s]:n.Index[s+1]] {
			if e.Class >= 0 || e.Call >= 0 {
				kernel[s] = true
			}
		}
	}
	l.epsIndex = make([]int32, states+1)
	seen := make([]int32, states)
	for i := range seen {
		seen[i] = -1
	}
	var stack []int32
	for s := range states {
		l.epsIndex[s] = int32(len(l.epsList))
		stack = append(stack[:0], s)
		seen[s] = s
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if kernel[x] {
				l.epsList = append(l.epsList, x)
			}
			// Pushed last to first, so that they are taken first to last.
			es := n.Edges[n.Index[x]:n.Index[x+1]]
			for i := len(es) - 1; i >= 0; i-- {
				if e := es[i]; e.Class < 0 && e.Call < 0 && seen[e.To] != s {
					seen[e.To] = s
					stack = append(stack, e.To)
				}
			}
		}
	}
	l.epsIndex[states] = int32(len(l.epsList))
	l.tail = make([]bool, states)
	if l.rule != nil {
		for s := range states {
			if l.rule[s] < 0 {
				continue // reached from no start
			}
			f := n.Rules[l.rule[s]].Final
			e := l.eps(s)
			l.tail[s] = len(e) == 1 && e[0] == f && n.Index[f] == n.Index[f+1]
		}
	}
	// First characters and nullability, to a fixed point: a rule's are
	// found from the states its start reaches without consuming, and are
	// found again whenever those of a rule it calls grow.
	rules := len(n.Rules)
	l.nullable = make([]bool, rules)
	l.first = make([][2]uint64, rules)
	l.firstHigh = make([]bool, rules)
	callers := make([][]int32, rules)
	owner := make([]int32, states)
	for i := range owner {
		owner[i] = -1
	}
	for r, rule := range n.Rules {
		// The states of rule r: those reached from its start.
		stack = append(stack[:0], rule.Start)
		owner[rule.Start] = int32(r)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, e := range n.Edges[n.Index[x]:n.Index[x+1]] {
				if e.Call >= 0 {
					callers[e.Call] = append(callers[e.Call], int32(r))
				}
				if owner[e.To] != int32(r) {
					owner[e.To] = int32(r)
					stack = append(stack, e.To)
				}
			}
		}
	}
	// The rules on a cycle of calls: those a rule they call leads back to.
	callees := make([][]int32, rules)
	for c, rs := range callers {
		for _, r := range rs {
			callees[r] = append(callees[r], int32(c))
		}
	}
	l.recursive = make([]bool, rules)
	mark := make([]int32, rules)
	for r := range rules {
		stack = append(stack[:0], callees[r]...)
		for len(stack) > 0 && !l.recursive[r] {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if mark[x] == int32(r)+1 {
				continue
			}
			mark[x] = int32(r) + 1
			if x == int32(r) {
				l.recursive[r] = true
			}
			stack = append(stack, callees[x]...)
		}
	}
	// The regular rules: the others are the recursive ones and their
	// callers, and theirs.
	l.regular = make([]bool, rules)
	stack = stack[:0]
	for r := range rules {
		l.regular[r] = !l.recursive[r]
		if l.recursive[r] {
			stack = append(stack, int32(r))
		}
	}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range callers[x] {
			if l.regular[c] {
				l.regular[c] = false
				stack = append(stack, c)
			}
		}
	}
	if l.rule != nil {
		l.dfas = make([]atomic.Pointer[ruleDFA], rules)
	}
	l.filters = make([]atomic.Pointer[filterAuto], rules)
	l.alias = make([]int32, rules)
	for r, rule := range n.Rules {
		l.alias[r] = -1
		if l.rule == nil {
			continue // no tail states
		}
		if e := l.eps(rule.Start); len(e) == 1 && e[0] != rule.Final && n.Index[e[0]+1]-n.Index[e[0]] == 1 {
			if c := n.Edges[n.Index[e[0]]]; c.Call >= 0 && c.Call != int32(r) && l.tail[c.To] {
				l.alias[r] = c.Call
			}
		}
	}
	// An alias of an alias is an alias of the last one, unless the
	// chain is a cycle (rules that match nothing): those stay.
	direct := slices.Clone(l.alias)
	for r := range rules {
		j := direct[r]
		for steps := 0; j >= 0 && direct[j] >= 0 && steps < rules; steps++ {
			j = direct[j]
		}
		if j >= 0 && direct[j] >= 0 {
			j = -1 // a cycle
		}
		l.alias[r] = j
	}
	queue := make([]int32, 0, rules)
	queued := make([]bool, rules)
	for r := range rules {
		queue = append(queue, int32(r))
		queued[r] = true
	}
	for i := range seen {
		seen[i] = -1
	}
	visit := int32(0)
	for len(queue) > 0 {
		r := queue[0]
		queue = queue[1:]
		queued[r] = false
		var first [2]uint64
		high, nullable := false, false
		visit++
		rule := n.Rules[r]
		stack = append(stack[:0], rule.Start)
		seen[rule.Start] = visit
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if x == rule.Final {
				nullable = true
			}
			for _, e := range n.Edges[n.Index[x]:n.Index[x+1]] {
				next := false
				switch {
				case e.Class >= 0:
					first[0] |= l.ascii[e.Class][0]
					first[1] |= l.ascii[e.Class][1]
					cs := n.Classes[e.Class]
					high = high || len(cs) > 0 && cs[len(cs)-1] >= 128
				case e.Call >= 0:
					first[0] |= l.first[e.Call][0]
					first[1] |= l.first[e.Call][1]
					high = high || l.firstHigh[e.Call]
					next = l.nullable[e.Call]
				default:
					next = true
				}
				if next && seen[e.To] != visit {
					seen[e.To] = visit
					stack = append(stack, e.To)
				}
			}
		}
		if first != l.first[r] || high != l.firstHigh[r] || nullable != l.nullable[r] {
			l.first[r], l.firstHigh[r], l.nullable[r] = first, high, nullable
			for _, c := range callers[r] {
				if !queued[c] {
					queued[c] = true
					queue = append(queue, c)
				}
			}
		}
	}
}

// eps returns the ε-list of state s.
func (l *netLayout) eps(s int32) []int32 { return l.epsList[l.epsIndex[s]:l.epsIndex[s+1]] }

// mayMatch reports whether rule r, called at a position where the input
// holds c (w bytes wide, 0 at its end), can match there at all.
func (l *netLayout) mayMatch(r int32, c rune, w int32) bool {
	switch {
	case l.nullable[r]:
		return true
	case w == 0:
		return false
	case c < 128:
		return l.first[r][c>>6]&(1<<(c&63)) != 0
	}
	return l.firstHigh[r]
}

func (n *Net) identityLayout() {
	l := &n.layout
	states := int32(len(n.Index) - 1)
	for s := range l.local {
		l.local[s] = int32(s)
	}
	for r := range l.size {
		l.size[r] = states
	}
	l.maxSize = states
}

// NetRule is one rule's automaton: its start and final states.
type NetRule struct {
	Name         string
	Start, Final int32
}

// NetEdge goes to state To on one character of class Class, or through a
// complete match of rule Call; with both -1 it is an ε-edge.
type NetEdge struct {
	To, Class, Call int32
}

// Check reports the first inconsistency of the tables: an index out of
// range, edges not grouped by state, a malformed class.
func (n *Net) Check() error {
	states := int32(len(n.Index) - 1)
	if states < 0 {
		return errors.New("net: no states")
	}
	if n.Index[0] != 0 || n.Index[states] != int32(len(n.Edges)) {
		return errors.New("net: edge index does not cover the edges")
	}
	for s := range states {
		if n.Index[s] > n.Index[s+1] {
			return fmt.Errorf("net: edge index decreases at state %d", s)
		}
	}
	for i, e := range n.Edges {
		switch {
		case e.To < 0 || e.To >= states:
			return fmt.Errorf("net: edge %d goes to state %d of %d", i, e.To, states)
		case e.Class < -1 || e.Class >= int32(len(n.Classes)):
			return fmt.Errorf("net: edge %d has class %d of %d", i, e.Class, len(n.Classes))
		case e.Call < -1 || e.Call >= int32(len(n.Rules)):
			return fmt.Errorf("net: edge %d calls rule %d of %d", i, e.Call, len(n.Rules))
		case e.Class >= 0 && e.Call >= 0:
			return fmt.Errorf("net: edge %d both matches and calls", i)
		}
	}
	for i, c := range n.Classes {
		if len(c)%2 != 0 {
			return fmt.Errorf("net: class %d has an odd number of bounds", i)
		}
		for j := 0; j < len(c); j += 2 {
			if c[j] > c[j+1] || j > 0 && c[j] <= c[j-1] {
				return fmt.Errorf("net: class %d is not sorted disjoint ranges", i)
			}
		}
	}
	for i, r := range n.Rules {
		if r.Start < 0 || r.Start >= states || r.Final < 0 || r.Final >= states {
			return fmt.Errorf("net: rule %d (%s) has states outside the net", i, r.Name)
		}
	}
	return nil
}

func (n *Net) inClass(class int32, c rune) bool {
	if c < 128 {
		return n.layout.ascii[class][c>>6]&(1<<(c&63)) != 0
	}
	rs := n.Classes[class]
	i, _ := slices.BinarySearch(rs, c) // first bound >= c
	if i < len(rs) && rs[i] == c {
		return true
	}
	return i%2 == 1 // between a lo and its hi
}

// ErrWork is the reason a [Guide] gives up: settling the decisions of this
// input would take more work than its budget.
var ErrWork = errors.New("parse abandoned: too much work for the input's length")

// ErrDepth is the reason a parse is abandoned when the input nests deeper
// than the parser may follow (see [MaxRuleNesting]).
var ErrDepth = errors.New("parse abandoned: the parse needs too deep a stack")

// MaxRuleNesting is how deep a generated parser may nest invocations of
// rules, when its rules' expressions nest shallow (see RuleNesting):
// pigeon's parser recurses as the input nests, and so does the exact
// recognizer's search (a [Guide]), and a goroutine whose stack runs out
// of Go's limit (1 GB, of which a stack can use 512 MiB, its size
// doubling) dies of a fatal error, not a panic. gen peg writes a check of
// pigeon's rule stack at the start of the rules that every cycle of calls
// passes through, and the guide refuses to enter a rule deeper than this
// (parsers generated before the check); a parse that would fails with
// ErrDepth. Measured within the bounds: RFC 8259 arrays nested 19,000
// deep, expr-postfix.abnf's parentheses 2,000 deep, with at most 256 MiB
// of stack; Go's encoding/json stops at 10,000.
const MaxRuleNesting = 1 << 16

// RuleNesting is how deep a generated parser whose rules nest their
// expressions at most depth deep may nest invocations of rules (gen peg
// writes the call in its glue): MaxRuleNesting, or fewer where pigeon's
// frames would pass pigeonStack bytes, at exprFrame bytes for each level
// of expressions and ruleLevels levels more for the rule itself.
// Measured (gen's TestDeepNesting, with Go's stack sizes, which double):
// 146 to 372 bytes a level, the most for rules of nested repetitions; a
// rule of 30 of them, 66 levels deep, is allowed 8,495 rules. At least
// 16 (rules of 36,000 levels would take 216 MiB; gen reads groups nested
// at most 10,000 deep, -max-nesting).
func RuleNesting(depth int) int {
	per := exprFrame * (max(depth, 0) + ruleLevels)
	return max(min(pigeonStack/per, MaxRuleNesting), 16)
}

// The stack that pigeon's frames may take (pigeonStack), with the
// search's (searchStack) under the 512 MiB a goroutine's stack can reach,
// and what a level of expressions and a rule take of it (see
// RuleNesting).
const (
	pigeonStack = 224 << 20
	exprFrame   = 384
	ruleLevels  = 6
)

// searchStack bounds the stack of the search's own recursion, counted
// by each recursive function as it starts: reachCost for reach (with
// moves, which it calls, and what may lie between it and the next reach:
// viable, or a shared search's reach, run and ended), callCost for
// callReach (with moves), endCost for end (with endOf). Each cost is at
// least the frames it stands for (their sizes on amd64: 128 and 120 bytes
// for reach and moves, 144 for callReach, 888 for endOf; on 32-bit
// platforms they are smaller), so the search's stack stays under
// searchStack, and with pigeon's (see RuleNesting) under the 512 MiB a
// goroutine's stack can reach. Without it, expr-postfix.abnf's expression
// nested 23,464 parentheses deep (47 KB) overflowed the stack in the
// search. The search recurses once per character or token it follows, as
// well as per level of nesting: a list of 500,000 items is as deep to it
// as 500,000 levels (see docs/library.md, "Limits").
const (
	searchStack = 192 << 20
	reachCost   = 480
	callCost    = 400
	endCost     = 1000
)

// A Guide settles, for one input, the PEG decisions that the translation
// could not prove exact. The generated parser tells it which rule it enters
// and leaves and which call it is about to make, so the guide knows the
// parser's exact stack; at an unproven decision it answers whether the
// alternative just matched (or the loop iteration just taken) can still be
// completed into a match of the whole input, given that stack. A parser
// that commits only to such alternatives accepts exactly the grammar's
// language.
//
// An answer is a depth-first search over invocations, each in a state at a
// position: can the invocation end at a position from which its caller,
// from the state it returns to, can do the same, up to the end of the
// input? The search stops at the first such end. Invocations are frames:
// a frame is a rule with the state and frame it returns to (its
// continuation), and its answers are kept per (state, position). Frames
// are hash-consed — an invocation of the same rule returning to the same
// state of the same frame is the same frame whatever its origin — so they
// form a graph-structured stack, and each (state, position, frame) is
// answered once per parse. A call that returns to a state from which its
// caller can only end (a tail call) gets its caller's continuation. The
// parser's own invocations are frames too, and share the answers of the
// search's frames with the same continuation: a question asked at every
// iteration of a repetition is answered from the answers of the ones
// before.
//
// A call of rule R at position p that the search meets is followed in one
// of three ways, the first that applies:
//
//   - By its ends, End(R, p): the positions where R called at p can end,
//     computed once per parse for each (R, p) by a position-ordered
//     simulation of R's automaton (see end), and shared by every caller.
//   - By a shared search (see node), when the simulation gave up and R is
//     on a cycle of calls, or a rule R calls gave up after p (or at p, and
//     is itself searched so): one search of R from p for all its callers,
//     which runs for one caller at a time, until that caller is answered,
//     and goes on from there for the next.
//   - As a frame of the caller's continuation, when R, on no cycle of
//     calls, overlaps itself at p (below).
//
// A rule on a cycle of calls is never a frame of its caller's
// continuation: its frames would nest in one another, and the
// continuations of a rule that calls itself in k ways at one position are
// k^d at nesting depth d (exponential work on random grammars). Frames of
// rules on no cycle nest at most as deep as the grammar has rules, and
// each shared search is a continuation of its own: the work stays
// polynomial in the input's length.
//
// Ends and shared searches are shared across continuations, frames across
// origins; each fails where the other works. Where the grammar is
// ambiguous over a run of input (RFC 5322's comments and folding white
// space), a rule called at every position of the run
// can end anywhere in the rest of it: the simulations (or searches) from
// each position cover the same states at the same positions, their lists
// of ends are quadratic in the run's length, and the search of such a call
// as a frame, linear. So a simulation records the (state, position) pairs
// it covers, and gives up when it reaches one covered by a simulation of
// another origin that went on for more than overlapLength positions past
// it (or did not finish): each pair is then covered by one simulation,
// plus at most overlapLength positions of each other. Where rules are
// called in many contexts over the same run (RFC 5322's address-list →
// mailbox or group → name-addr → phrase or obs-phrase → atom or
// quoted-string → CFWS), frames multiply with the contexts, and a shared
// search of the rule above the run is searched once.
//
// False answers are also shared across continuations, as far as they
// looked into them: an answer that never reached an end of the frame's
// rule holds for every frame of the rule, and one that asked only the
// first d frames of the continuation (d ≤ shareDepth) holds for every
// frame whose continuation begins with the same d frames (see known).
// Where a rule is called at every position of a run of white space, each
// call a shared search of its own, the searches' failures are then found
// once for the run, not once per search.
//
// The search tries alternatives in the order of the PEG's (a net's edges
// are in that order), and tries to go on before it tries to end: it then
// follows the path the parser will take, and its frames are those the
// parser will push, whose answers the parser's later questions find.
//
// A Guide is for one parse by one goroutine.
type Guide struct {
	net     *Net
	in      []byte
	budget  int // steps allowed
	work    int // steps left
	err     error
	ends    u64Table[span]   // (rule, position) → its ends in arena
	arena   []int32          // the ends of every (rule, position), one after another
	links   []uint64         // the links of the lists of ends (see span)
	cover   u64Table[int32]  // pair(position, state) → the origin of the first simulation there
	nodes   map[uint64]*node // (rule, position) → its shared search
	answers answerTable      // (frame id, state, position) → can the frame end where its callers complete
	nframes uint32           // the canonical frames so far: the next one's id
	// fails holds the false answers that looked at most shareDepth
	// frames into their continuation, by the continuation's first frames
	// (chain id, state, position): every frame whose continuation begins
	// alike has them (see known). chains numbers those beginnings.
	fails   answerTable
	chains  map[chainKey]uint32
	low     int32         // the lowest level of a continuation the answer being computed looked at (see known)
	bufs    *guideBuffers // where the buffers came from, if from the pool
	cstack  []int32       // closure's results, a stack: see closure
	stack   []*frame
	pending int32 // the return state of the call about to be made
	frames  map[frameKey]*frame
	cans    map[canKey]*frame // the first frame of each continuation: its answers are every such frame's
	scratch []*endScratch     // per nesting depth of end
	cmarks  []uint32          // closure's marks
	stamp   uint32
	depth   int // of end's recursion
	nest    int // the search's recursion, in bytes of stack (see searchStack)
	// lenient says yes to every question: the parser is then the PEG
	// alone, its guards open, as Grammar.Parse runs it again on an input
	// the guide rejected, for how far the input is viable (see
	// lenientGuide).
	lenient bool
	// rec, when set, records the farthest position the search visits
	// and what could be read there (see Net.Farthest).
	rec *prefixRec
	// top is the rule of the parser's first invocation (its start rule,
	// or the rule it is in effect), and topSet whether there was one.
	top    int32
	topSet bool
	// far is the farthest position the search has visited: every
	// position it visits ends a viable prefix of the input, as for
	// Net.Farthest, so a parse the guide gives up on is known to be
	// viable that far (see Grammar.Parse).
	far int32
}

// lenientGuide is a guide that answers every question yes. A guided
// parse of an invalid input fails where the guide first says that the
// input cannot complete, at the start of the outermost guided rule; the
// PEG alone, whose every match is a derivation of the grammar, fails
// where pigeon's farthest failure is, a viable prefix of the input: the
// error Grammar.Parse gives.
func lenientGuide() *Guide { return &Guide{lenient: true, pending: -1} }

// overlapLength is how far past a (state, position) pair a simulation of
// another origin may have gone on before a simulation that reaches the
// pair gives up: the work that two simulations may repeat. Runs of white
// space shorter than this keep their lists of ends; comments between
// words, and every longer run, are searched otherwise
// (docs/translation.md has the measurements that chose it).
const overlapLength = 32

type frameKey struct {
	rule, origin, ret int32
	parent            *frame
}

// canKey identifies what a frame's answers depend on: its rule, and where
// it returns to (the state and frame of its caller), not its origin.
type canKey struct {
	rule, ret int32
	parent    *frame
}

// frame is one invocation of a rule: on the parser's stack (origin ≥ 0),
// or a call the search follows as a frame (origin -1).
type frame struct {
	rule   int32
	origin int32
	ret    int32 // the state the caller returns to
	parent *frame
	id     uint32 // the canonical frame's key into Guide.answers
	// canon is the first frame with the same rule, return state and
	// parent (f itself, or one of another origin): it and f answer alike,
	// and the frames f's calls make are keyed by it, so that those of
	// every origin share their answers too.
	canon *frame
	// node is the shared search this frame is part of (see node), nil
	// for the parser's invocations and the frames they lead to.
	node *node
	// lvl is the frame's level in its continuation: 1 for a frame that
	// returns to no frame (a parse's first, a shared search's first), its
	// parent's plus one for the others.
	lvl int32
	// chain holds the ids of the first d+1 frames of the continuation
	// (this one's rule, then return state and the parent's chain: see
	// Guide.chainID), 0 until asked.
	chain [shareDepth + 1]uint32
}

// shareDepth is how far into its continuation a false answer may look and
// still be shared by the frames whose continuations begin alike (see
// Guide.known).
const shareDepth = 2

// chainKey is the beginning of a continuation, two frames or more: a
// rule, the state it returns to, and the chain id of the rest (nilChain
// when it returns to no frame).
type chainKey struct {
	rule, ret int32
	up        uint32
}

const (
	noChain  = ^uint32(0)     // a continuation whose beginning is a shared search's: not shared
	nilChain = ^uint32(0) - 1 // the end of the input
)

// NewGuide returns a guide for one parse of input, which may spend about
// work steps (a step is one edge followed) before it gives up with
// [ErrWork]. A network that fails [Net.Check] (checked once per network)
// makes a guide that answers false to everything, with the check's error
// from [Guide.Err].
func NewGuide(n *Net, input []byte, work int) *Guide {
	g := &Guide{net: n, in: input, budget: work, work: work, pending: -1}
	if b, _ := guidePools[sizeClass(len(input))].Get().(*guideBuffers); b != nil && n != nil {
		g.reuse(b, n.states())
	} else {
		g.frames, g.cans, g.chains = map[frameKey]*frame{}, map[canKey]*frame{}, map[chainKey]uint32{}
	}
	// About 5 answers per byte, 2 ends and 4 covered pairs, where
	// nested comments leave RFC 5322 messages' decisions to the guide
	// (the tables are made at the first entry, and grow past it).
	g.answers.reset(6 * len(input))
	g.fails.reset(len(input))
	g.ends.reset(2 * len(input))
	g.cover.reset(4 * len(input))
	switch {
	case n == nil:
		g.err = errors.New("guide: no network")
	default:
		n.states()
		g.err = n.checkErr
	}
	return g
}

// guideBuffers are what a guide allocates in proportion to its input or
// its network, kept between parses (see Guide.release): on RFC 5322
// messages, about 300 KB per parse, whose allocation and collection were
// a tenth of the generated parser's time.
type guideBuffers struct {
	answers       answerTable
	fails         answerTable
	ends          u64Table[span]
	cover         u64Table[int32]
	arena, cstack []int32
	links         []uint64
	scratch       []*endScratch
	cmarks        []uint32
	stamp         uint32
	frames        map[frameKey]*frame
	cans          map[canKey]*frame
	chains        map[chainKey]uint32
}

// guidePools keep guides' buffers by the size class of their inputs, so
// that a parse gets tables sized for an input like its own: with one
// pool, a short input after a long one dropped the long one's tables
// (see u64Table.reset), and the next long one made them again, which
// was a third of the bytes a parse of RFC 5322 messages allocated.
var guidePools [33]sync.Pool // of *guideBuffers

// sizeClass is the pool of an input of n bytes: the bit length of n.
func sizeClass(n int) int { return min(bits.Len(uint(n)), len(guidePools)-1) }

// reuse takes over b's buffers for a network of layout lay (NewGuide
// empties the tables: see reset). Scratch space larger than lay's largest
// rule, left by a guide of another network, is dropped: a guide's scratch
// per nesting level stays the size of one of its network's rules.
func (g *Guide) reuse(b *guideBuffers, lay *netLayout) {
	for _, sc := range b.scratch {
		if len(sc.marks) > int(lay.maxSize) {
			sc.marks = nil
		}
	}
	if len(b.cmarks) > int(lay.maxSize) {
		b.cmarks = nil
	}
	g.answers, g.fails, g.ends, g.cover = b.answers, b.fails, b.ends, b.cover
	g.arena, g.cstack, g.scratch, g.cmarks, g.stamp = b.arena[:0], b.cstack[:0], b.scratch, b.cmarks, b.stamp
	g.links = b.links[:0]
	g.frames, g.cans, g.chains = b.frames, b.cans, b.chains
	g.bufs = b
}

// release gives the guide's buffers back for the next parse; the guide is
// not used again. Marks are stamps, and stay valid from one parse to the
// next as the stamp keeps growing (see nextStamp).
func (g *Guide) release() {
	b := g.bufs
	if b == nil {
		b = &guideBuffers{}
	}
	b.answers, b.fails, b.ends, b.cover = g.answers, g.fails, g.ends, g.cover
	b.arena, b.cstack, b.scratch, b.cmarks, b.stamp = g.arena, g.cstack, g.scratch, g.cmarks, g.stamp
	b.links = g.links
	clear(g.frames)
	clear(g.cans)
	clear(g.chains)
	b.frames, b.cans, b.chains = g.frames, g.cans, g.chains
	pool := &guidePools[sizeClass(len(g.in))]
	*g = Guide{err: errors.New("guide: released")}
	pool.Put(b)
}

// Steps returns the steps the guide has taken so far.
func (g *Guide) Steps() int {
	if g == nil {
		return 0
	}
	return g.budget - max(g.work, 0)
}

// Err returns why the guide gave up, or nil.
func (g *Guide) Err() error {
	if g == nil {
		return errors.New("parse needs a guide for its unproven decisions, and has none")
	}
	return g.err
}

// Call records the state the current rule returns to after the call the
// parser makes next.
func (g *Guide) Call(ret int) bool {
	if g == nil {
		return false
	}
	g.pending = int32(ret)
	return true
}

// Enter pushes an invocation of rule at position pos. It returns false —
// and pushes nothing — when no end of the invocation lets the callers
// complete: the parser can fail it at once (without this, a parser that
// does not memoize would try, and backtrack over, every invocation that
// cannot lead to a match: exponential work on ambiguous grammars).
func (g *Guide) Enter(rule, pos int) bool {
	if g != nil && len(g.stack) >= MaxRuleNesting {
		// The parser nests too deep (see MaxRuleNesting): parsers gen
		// wrote before it checked pigeon's rule stack. (A lenient guide's
		// parse then fails here, where the input is still viable: the
		// error it stands for is there or after.)
		if g.err == nil {
			g.far = max(g.far, int32(pos))
		}
		g.fail(ErrDepth)
		return false
	}
	if g != nil && g.lenient {
		g.pending = -1
		g.stack = append(g.stack, nil) // for Leave and Abort to pop
		return true
	}
	if g == nil || g.err != nil || rule < 0 || rule >= len(g.net.Rules) || pos < 0 || pos > len(g.in) {
		return false
	}
	g.far = max(g.far, int32(pos))
	var parent *frame
	if len(g.stack) > 0 {
		parent = g.stack[len(g.stack)-1]
	} else if !g.topSet {
		g.top, g.topSet = int32(rule), true
	}
	ret := g.pending
	g.pending = -1
	if parent == nil {
		ret = -1
	} else if ret < 0 || int(ret) >= len(g.net.Index)-1 {
		g.err = errors.New("guide: a rule was entered without its call")
		return false
	}
	if !g.step() {
		return false
	}
	if c, w := g.char(int32(pos)); !g.net.layout.mayMatch(int32(rule), c, w) {
		return false
	}
	if parent != nil {
		parent = parent.canon
	}
	k := frameKey{int32(rule), int32(pos), ret, parent}
	f := g.frames[k]
	if f == nil {
		f = g.newFrame(int32(rule), int32(pos), ret, parent)
		g.frames[k] = f
	}
	if !g.enters(f) {
		return false
	}
	g.stack = append(g.stack, f)
	return true
}

// enters reports whether the parser's invocation f, at its origin, can
// end where its callers complete. When the ends of its rule at its origin
// are known — the caller's search, which followed this call by them,
// computed them — that is whether one of them is viable: the caller's
// answers after the call, which that search mostly left behind. Otherwise
// (and at the first invocation), it is f's own search from its rule's
// start state. The first way does not walk the rule's body again: on
// expr-postfix's expressions, where the ends of every rule of the
// precedence chain are known, the search from the start state was 20
// steps per invocation, and none of its answers was ever asked.
func (g *Guide) enters(f *frame) bool {
	start := g.net.Rules[f.rule].Start
	k := uint64(uint32(start))<<32 | uint64(uint32(f.origin))
	if v, ok := g.known(f, k); ok {
		return v
	}
	e, ok := g.ends.get(uint64(uint32(f.rule))<<32 | uint64(uint32(f.origin)))
	if !ok || e.n < 0 || e.running() {
		return g.reach(f, start, f.origin)
	}
	outer := g.open(f)
	found := g.anyEndViable(f, e)
	if g.err == nil {
		g.setCan(f, k, found)
	}
	g.close(outer)
	return found && g.err == nil
}

// newFrame returns a new frame of rule at origin (-1 for a call the search
// follows as a frame, see callReach), returning to state ret of parent (a
// canonical frame). Its answers are those of the first frame of the same
// continuation: they do not depend on the origin. A call that returns to
// a state from which the caller can only end (a tail call) is given the
// caller's own continuation: the answers are the same, and so are the
// frame's, whichever of the caller's states or frames made the call.
func (g *Guide) newFrame(rule, origin, ret int32, parent *frame) *frame {
	tail := g.net.layout.tail
	for parent != nil && ret >= 0 && tail[ret] {
		ret, parent = parent.ret, parent.parent
	}
	f := &frame{rule: rule, origin: origin, ret: ret, parent: parent, lvl: 1}
	if parent != nil {
		f.node, f.lvl = parent.node, parent.lvl+1
	}
	ck := canKey{rule, ret, parent}
	if c := g.cans[ck]; c != nil {
		f.id, f.canon = c.id, c
	} else {
		f.id, f.canon = g.nframes, f
		g.nframes++
		g.cans[ck] = f
	}
	return f
}

// viable reports whether frame f, ending at p, lets its callers complete:
// the input ends there, or the caller can end where its own callers
// complete.
func (g *Guide) viable(f *frame, p int32) bool {
	switch {
	case f.parent == nil:
		g.low = min(g.low, f.lvl-1)
		return int(p) == len(g.in)
	case f.node != nil && f.parent == f.node.sink:
		return f.node.ended(g, p)
	}
	return g.reach(f.parent, f.ret, p)
}

// Leave pops the invocation the parser has completed.
func (g *Guide) Leave() bool {
	if g == nil || len(g.stack) == 0 {
		return false
	}
	g.stack = g.stack[:len(g.stack)-1]
	return true
}

// Abort pops the invocation the parser has failed, and returns false.
func (g *Guide) Abort() bool {
	g.Leave()
	return false
}

// Can reports whether the current invocation, in state at position pos,
// can still end where its callers can complete.
func (g *Guide) Can(state, pos int) bool {
	if g != nil && g.lenient {
		return true
	}
	if g == nil || g.err != nil || len(g.stack) == 0 || state < 0 || state >= len(g.net.Index)-1 || pos < 0 || pos > len(g.in) {
		return false
	}
	g.far = max(g.far, int32(pos))
	return g.reach(g.stack[len(g.stack)-1], int32(state), int32(pos))
}

// nextStamp returns a stamp no mark holds: marks are stamps, compared
// with the current one, never cleared but when the stamp wraps around
// (after 2^32 closures and positions simulated, across the parses that
// share the buffers).
func (g *Guide) nextStamp() uint32 {
	g.stamp++
	if g.stamp == 0 {
		clear(g.cmarks)
		for _, sc := range g.scratch {
			clear(sc.marks)
		}
		g.stamp = 1
	}
	return g.stamp
}

// fail gives up with err, unless the guide has given up already.
func (g *Guide) fail(err error) {
	if g.err == nil {
		g.err = err
	}
}

// step spends one unit of work.
func (g *Guide) step() bool {
	if g.err != nil {
		return false
	}
	g.work--
	if g.work < 0 {
		g.err = ErrWork
		return false
	}
	return true
}

// char returns the character at p and its width, 0 at the end or at a byte
// that is not UTF-8 (which no class matches).
func (g *Guide) char(p int32) (rune, int32) { return char(g.in, p) }

// closure returns the states reachable from s at position p without
// consuming input: ε-edges, and calls of rules that can match the empty
// string there. They are on top of g.cstack, from the mark it returns:
// the caller pops them (g.cstack = g.cstack[:mark]) when it is done with
// them. Closures asked while the caller goes through them push theirs
// above, and pop them first; the slice stays valid when the stack grows,
// since its values never change. (A slice per closure was a tenth of the
// guide's time, in allocation.)
func (g *Guide) closure(s, p int32) (states []int32, mark int) {
	lay := g.net.states()
	if len(g.cmarks) < int(lay.maxSize) {
		g.cmarks = make([]uint32, lay.maxSize)
	}
	stamp := g.nextStamp()
	seen, local := g.cmarks, lay.local
	mark = len(g.cstack)
	out := g.cstack
	add := func(s int32) {
		for _, x := range lay.eps(s) {
			if seen[local[x]] != stamp {
				seen[local[x]] = stamp
				out = append(out, x)
			}
		}
	}
	add(s)
	for i := mark; i < len(out); i++ {
		if !g.step() {
			break
		}
		for _, e := range g.net.Edges[g.net.Index[out[i]]:g.net.Index[out[i]+1]] {
			if e.Call >= 0 && lay.nullable[e.Call] {
				add(e.To)
			}
		}
	}
	g.cstack = out
	return out[mark:len(out):len(out)], mark
}

// reach reports whether frame f, in state s at position p, can end where
// its callers can complete. It tries the states of the closure in order,
// and ending (the final state) last.
func (g *Guide) reach(f *frame, s, p int32) bool {
	k := uint64(uint32(s))<<32 | uint64(uint32(p))
	if v, ok := g.known(f, k); ok {
		return v
	}
	if g.nest += reachCost; g.nest > searchStack {
		g.nest -= reachCost
		g.fail(ErrDepth)
		return false
	}
	outer := g.open(f)
	final := g.net.Rules[f.rule].Final
	found, ends := false, false
	states, mark := g.closure(s, p)
	g.far = max(g.far, p)
	if g.rec != nil {
		for _, x := range states {
			g.recState(x, p)
			if x == final && f.parent == nil && g.rec.at(p) {
				g.rec.eof = true
			}
		}
	}
	for _, x := range states {
		if x == final {
			ends = true
			continue
		}
		if found = g.moves(f, x, p); found || g.err != nil {
			break
		}
	}
	g.cstack = g.cstack[:mark]
	if !found && ends && g.err == nil {
		found = g.viable(f, p)
	}
	g.setCan(f, k, found)
	g.close(outer)
	g.nest -= reachCost
	return found
}

// known returns frame f's answer under key k, if it is known: f's own,
// or a false answer of a frame whose continuation begins as f's does for
// as many frames as that answer looked at.
//
// An answer of f looks into f's continuation only when the search reaches
// an end of f's rule, and asks the parent frame about it, and so on up:
// how deep it looked is its depth (0: no end of the rule was reached).
// A false answer of depth d is then the answer of every frame whose first
// d frames of continuation are f's (rules and return states): the search
// from (state, position) would follow the same edges and ask the same
// questions of those frames, up to where it stopped. Where a rule is
// called from every position of a run of input by shared searches of
// their own (RFC 8259's value, which may begin with white space), each
// such search is a continuation of its own: without this, each searched
// the rest of the run again, quadratic work in the run's length.
//
// The depth is found as the search goes: g.low is the lowest level (see
// frame.lvl) of the frames of the current continuation whose answers the
// answer being computed has used (open and close keep it per answer).
// True answers and answers that looked into a shared search's sink (the
// callers of the shared search, see node) are not shared.
func (g *Guide) known(f *frame, k uint64) (v, ok bool) {
	if v, d, ok := g.answers.get(f.id, k); ok {
		g.low = min(g.low, lowOf(f, d))
		return v, true
	}
	if g.fails.n == 0 {
		return false, false
	}
	for d := range shareDepth + 1 {
		c := g.chainID(f, d)
		if c == noChain {
			break
		}
		if _, _, ok := g.fails.get(c, k); ok {
			g.answers.put(f.id, k, false, uint8(d))
			g.low = min(g.low, f.lvl-int32(d))
			return false, true
		}
	}
	return false, false
}

// lowOf is the lowest level an answer of frame f of depth d looked at:
// deep for an answer of depth unshared (true answers, and answers that
// looked too deep to count), which every answer that uses it inherits.
func lowOf(f *frame, d uint8) int32 {
	if d == unshared {
		return deep
	}
	return f.lvl - int32(d)
}

const (
	unshared = 255      // the depth of answers never shared
	deep     = -1 << 30 // a level below every frame's: see lowOf
)

// open begins the computation of an answer of frame f: it has looked at
// nothing but f yet. It returns the level to give back to close.
func (g *Guide) open(f *frame) int32 {
	outer := g.low
	g.low = f.lvl
	return outer
}

// close ends the computation of an answer (kept by setCan) begun by open:
// what it looked at, the answer that asked it looked at too.
func (g *Guide) close(outer int32) { g.low = min(g.low, outer) }

// chainID returns the id of the first d+1 frames of f's continuation
// (f's rule alone for d = 0: the rule's number plus one), or noChain if
// they reach a shared search's sink.
func (g *Guide) chainID(f *frame, d int) uint32 {
	c := f.canon
	if id := c.chain[d]; id != 0 {
		return id
	}
	if d == 0 {
		// The rule alone: its number, apart from the ids of longer
		// beginnings, which have the top bit set.
		c.chain[0] = uint32(c.rule) + 1
		return c.chain[0]
	}
	key := chainKey{rule: c.rule}
	switch {
	case c.parent == nil:
		key.ret, key.up = c.ret, nilChain
	case c.parent.rule < 0:
		c.chain[d] = noChain
		return noChain
	default:
		up := g.chainID(c.parent, d-1)
		if up == noChain {
			c.chain[d] = noChain
			return noChain
		}
		key.ret, key.up = c.ret, up
	}
	id, ok := g.chains[key]
	if !ok {
		if len(g.chains) >= 1<<31-2 {
			return noChain // (never: ids run out at 2³¹-2 beginnings)
		}
		id = 1<<31 | uint32(len(g.chains))
		g.chains[key] = id
	}
	c.chain[d] = id
	return id
}

// setCan keeps answer v of frame f under key k. A frame of a shared
// search (see node) answers true only for the caller it searches for, and
// forgets it when it searches for the next.
func (g *Guide) setCan(f *frame, k uint64, v bool) {
	d := uint8(unshared) // true answers are the frame's own
	if x := f.lvl - g.low; !v && x < unshared {
		d = uint8(x)
	}
	g.answers.put(f.id, k, v, d)
	if v && f.node != nil {
		f.node.trues = append(f.node.trues, nodeKey{f.id, k})
	}
	if !v && d <= shareDepth && g.err == nil {
		if c := g.chainID(f, int(d)); c != noChain {
			g.fails.put(c, k, false, d)
		}
	}
}

// moves reports whether frame f, in state x at position p, can consume
// input by one of x's edges (a character, or a call that ends after p) and
// then end where its callers complete.
func (g *Guide) moves(f *frame, x, p int32) bool {
	c, w := g.char(p)
	for _, e := range g.net.Edges[g.net.Index[x]:g.net.Index[x+1]] {
		switch {
		case e.Class >= 0:
			if w > 0 && g.net.inClass(e.Class, c) && g.reach(f, e.To, p+w) {
				return true
			}
		case e.Call >= 0:
			if !g.net.layout.mayMatch(e.Call, c, w) {
				break
			}
			ends, ok := g.end(e.Call, p)
			if !ok {
				if n := g.nodes[uint64(uint32(e.Call))<<32|uint64(uint32(p))]; n != nil {
					if n.reach(g, f, e.To, p) {
						return true
					}
				} else if g.err == nil && g.callReach(f, e.Call, e.To, p) {
					return true
				}
				break
			}
			for _, end := range ends {
				if !g.step() {
					return false
				}
				if end > p && g.reach(f, e.To, end) {
					return true
				}
			}
			if sp, _ := g.ends.get(uint64(uint32(e.Call))<<32 | uint64(uint32(p))); sp.ln > 0 {
				for _, l := range g.links[sp.loff : sp.loff+int(sp.ln)] {
					lr, lp := int32(l>>32), int32(uint32(l))
					if g.endsViable(g.frameFor(lr, e.To, f.canon), lr, lp) {
						return true
					}
					if g.err != nil {
						return false
					}
				}
			}
		}
		if g.err != nil {
			return false
		}
	}
	return false
}

// callReach reports whether a call of rule r made by frame f at position
// p, returning to state ret, can end after p where f can go on to end
// where its callers complete. (An end at p itself is the closure's: r
// matching the empty string.) The call is searched as a frame of its own
// (see Guide): at p, where it must not end, without the frame's answers,
// and kept under a key of its own; from p on, with them.
func (g *Guide) callReach(f *frame, r, ret, p int32) bool {
	if !g.step() {
		return false
	}
	v := g.frameFor(r, ret, f.canon)
	// The answer at the origin, under a state that is no state.
	ok := uint64(0xFFFFFFFF)<<32 | uint64(uint32(p))
	if found, done := g.known(v, ok); done {
		return found
	}
	if g.nest += callCost; g.nest > searchStack {
		g.nest -= callCost
		g.fail(ErrDepth)
		return false
	}
	outer := g.open(v)
	found := false
	states, mark := g.closure(g.net.Rules[r].Start, p)
	g.far = max(g.far, p)
	if g.rec != nil {
		for _, x := range states {
			g.recState(x, p)
		}
	}
	for _, x := range states {
		if found = g.moves(v, x, p); found || g.err != nil {
			break
		}
	}
	g.cstack = g.cstack[:mark]
	if g.err == nil {
		g.setCan(v, ok, found)
	}
	g.close(outer)
	g.nest -= callCost
	return found
}

// frameFor returns the frame of rule r called with the continuation of
// state ret of the canonical frame parent, as the search follows a call
// (origin -1).
func (g *Guide) frameFor(r, ret int32, parent *frame) *frame {
	k := frameKey{r, -1, ret, parent}
	v := g.frames[k]
	if v == nil {
		v = g.newFrame(r, -1, ret, parent)
		g.frames[k] = v
	}
	return v
}

// linkLength is the length from which a list of ends reached by a tail
// call is linked rather than copied: shorter ones, most of them, cost
// less copied than followed.
const linkLength = 8

// linkState is the state of the answers of endsViable: no state.
const linkState = 0xFFFFFFFE

// endsViable reports whether rule r, called at p, whose ends are known
// and have links (see span), ends somewhere its frame v — r's frame for
// the call's continuation — lets its callers complete. The answer is v's,
// at p: along a chain of tail calls, each question after the first is
// answered by the next link's (values = val "," values asked at each item
// walked the rest of the list each time, quadratic in all).
func (g *Guide) endsViable(v *frame, r, p int32) bool {
	if !g.step() {
		return false
	}
	key := uint64(linkState)<<32 | uint64(uint32(p))
	if found, done := g.known(v, key); done {
		return found
	}
	if g.nest += callCost; g.nest > searchStack {
		g.nest -= callCost
		g.fail(ErrDepth)
		return false
	}
	outer := g.open(v)
	e, _ := g.ends.get(uint64(uint32(r))<<32 | uint64(uint32(p)))
	found := g.anyEndViable(v, e)
	if g.err == nil {
		g.setCan(v, key, found)
	}
	g.close(outer)
	g.nest -= callCost
	return found && g.err == nil
}

// anyEndViable reports whether one of the ends of list e (its own, then
// its links') is where frame f — the frame of the list's rule for the
// call's continuation — lets its callers complete.
func (g *Guide) anyEndViable(f *frame, e span) bool {
	for _, end := range g.arena[e.off : e.off+e.n] {
		if !g.step() {
			return false
		}
		if found := g.viable(f, end); found || g.err != nil {
			return found
		}
	}
	for _, l := range g.links[e.loff : e.loff+int(e.ln)] {
		lr, lp := int32(l>>32), int32(uint32(l))
		if g.endsViable(g.frameFor(lr, f.ret, f.parent), lr, lp) {
			return true
		}
		if g.err != nil {
			return false
		}
	}
	return false
}

// flatten returns every end of the list under key k, its links' ends
// with its own, sorted, and keeps them as the list, with no links: for
// a caller that goes on from each end (a call that is not a tail call).
func (g *Guide) flatten(k uint64) []int32 {
	e, _ := g.ends.get(k)
	if e.ln == 0 {
		return g.arena[e.off : e.off+e.n : e.off+e.n]
	}
	var all []int32
	seen := map[uint64]bool{k: true}
	todo := []uint64{k}
	for len(todo) > 0 {
		x := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		xe, _ := g.ends.get(x)
		all = append(all, g.arena[xe.off:xe.off+xe.n]...)
		for _, l := range g.links[xe.loff : xe.loff+int(xe.ln)] {
			if !seen[l] {
				seen[l] = true
				todo = append(todo, l)
			}
		}
	}
	slices.Sort(all)
	all = slices.Compact(all)
	off := len(g.arena)
	g.arena = append(g.arena, all...)
	g.ends.put(k, span{off: off, n: len(all), last: e.last})
	return g.arena[off:len(g.arena):len(g.arena)]
}

// end returns the sorted positions where rule r, called at p, can end, or
// false if it gives up (and then for good): when the simulation reaches a
// (state, position) pair that a simulation of r from another origin
// covered and went on past for more than overlapLength positions (or is
// still running, or gave up), or when one of the rules it calls gives up.
// Then r at p gets a shared search (see Guide) if r is on a cycle of
// calls, or the rule that gave up was called after p or has one itself.
//
// It runs r's automaton over the input like an NFA simulation, position by
// position (every edge stays at its position or moves forward: there is no
// left recursion), with the ends of the rules it calls computed the same way
// and memoized. The pending (position, state) pairs are taken in order of
// position, so that each position is closed once: those within nearLength
// positions of the current one (a character's edges, the ends of short
// calls) in buckets, one per position, the others in a min-heap (pushing
// and popping the heap was a tenth of a parse of RFC 5322 messages, when
// every pair went through it).
func (g *Guide) end(r, p int32) ([]int32, bool) {
	k := uint64(uint32(r))<<32 | uint64(uint32(p))
	if e, ok := g.ends.get(k); ok {
		if e.n < 0 {
			return nil, false
		}
		return g.arena[e.off : e.off+e.n : e.off+e.n], true
	}
	if g.nest += endCost; g.nest > searchStack {
		g.nest -= endCost
		g.fail(ErrDepth)
		return nil, false
	}
	ends, ok := g.endOf(r, p, k)
	g.nest -= endCost
	return ends, ok
}

// endOf is end, for r at p not yet known (k is their key).
func (g *Guide) endOf(r, p int32, k uint64) ([]int32, bool) {
	if j := g.net.layout.alias[r]; j >= 0 {
		// The same language, the same ends: one simulation for both.
		ends, ok := g.end(j, p)
		if e, _ := g.ends.get(uint64(uint32(j))<<32 | uint64(uint32(p))); !e.running() {
			// (j's simulation at p still runs only where a network
			// built by hand has left recursion: its ends are not known
			// yet, and r's are not either.)
			g.ends.put(k, e)
		}
		if n := g.nodes[uint64(uint32(j))<<32|uint64(uint32(p))]; !ok && n != nil {
			// j at p is searched for all its callers: so is r, which
			// callers of r must see (a node for r at p), or they, and
			// theirs, would be searched as frames once per context.
			g.nodes[k] = n
		}
		return ends, ok
	}
	g.ends.put(k, span{last: -1}) // a rule called again at the same position ends nowhere new: no left recursion reaches here
	if d := g.net.dfa(r); d != nil {
		return g.endDFA(r, p, k, d)
	}
	rule := g.net.Rules[r]
	// Scratch space per nesting depth of end: marks dedupes the states of
	// rule r at one position, by their number within the rule (stamps
	// never repeat, so it needs no clearing), the heap holds the pending
	// pairs, the list the states of the position.
	depth := g.depth
	g.depth++
	lay := g.net.states()
	if depth == len(g.scratch) {
		g.scratch = append(g.scratch, &endScratch{})
	}
	sc := g.scratch[depth]
	if n := int(lay.size[r]); len(sc.marks) < n {
		// Stamps never repeat, so grown marks need no clearing either.
		sc.marks = make([]uint32, n)
	}
	marks, local := sc.marks, lay.local
	heap := sc.heap[:0]
	// The states pending within nearLength positions of the current one
	// are in one list per position (mod nearLength), first in first out,
	// threaded through pend (see pendList); the others in heap. Only
	// integers are written as pairs are pushed: a slice per position was a
	// slice header, a pointer, written at every push, and pointers written
	// while the collector runs cost a write barrier each.
	near := &sc.near
	*near = pendLists{}
	pend, nearN := sc.pend[:0], 0
	out := sc.out[:0]
	list := sc.list[:0]
	links, linkLast := sc.links[:0], int32(-1)
	last, gaveUp, below, shared := p, false, int32(-1), false
	covered := func(s, q int32) bool {
		gaveUp = !g.covers(r, p, q, s)
		return !gaveUp
	}
	for q := p; g.err == nil && !gaveUp; {
		stamp := g.nextStamp()
		list = list[:0]
		if q == p {
			for _, s := range lay.eps(rule.Start) {
				if marks[local[s]] != stamp {
					marks[local[s]] = stamp
					list = append(list, s)
				}
			}
		}
		if b := q & (nearLength - 1); near.head[b] > 0 {
			for e := near.head[b]; e > 0; e = pend[e] {
				for _, s := range lay.eps(pend[e-1]) {
					if marks[local[s]] != stamp {
						marks[local[s]] = stamp
						list = append(list, s)
					}
				}
				nearN--
			}
			near.head[b], near.tail[b] = 0, 0
			if nearN == 0 {
				pend = pend[:0] // every list is empty
			}
		}
		for len(heap) > 0 && int32(heap[0]>>32) == q {
			var x uint64
			x, heap = heap.pop()
			for _, s := range lay.eps(int32(uint32(x))) {
				if marks[local[s]] != stamp {
					marks[local[s]] = stamp
					list = append(list, s)
				}
			}
		}
		last, g.far = q, max(g.far, q)
		c, w := g.char(q)
		for i := 0; i < len(list) && !gaveUp; i++ {
			s := list[i]
			if !g.step() {
				break
			}
			if g.rec != nil {
				g.recState(s, q)
			}
			if s == rule.Final {
				out = append(out, q)
			}
			// Whether s goes further at q is checked against the other
			// simulations once, at its first edge that does.
			unchecked := true
			for _, e := range g.net.Edges[g.net.Index[s]:g.net.Index[s+1]] {
				switch {
				case e.Class >= 0:
					if w == 0 || !g.net.inClass(e.Class, c) {
						break
					}
					if unchecked {
						if unchecked = false; !covered(s, q) {
							break
						}
					}
					if w < nearLength {
						pend = near.push(pend, q+w, e.To)
						nearN++
					} else {
						heap = heap.push(pair(q+w, e.To))
					}
				case e.Call >= 0:
					if !lay.mayMatch(e.Call, c, w) {
						break
					}
					if unchecked {
						if unchecked = false; !covered(s, q) {
							break
						}
					}
					// The callee uses the next depth's scratch space.
					ends, ok := g.end(e.Call, q)
					if !ok {
						gaveUp, below = true, q
						shared = g.nodes[uint64(uint32(e.Call))<<32|uint64(uint32(q))] != nil
						break
					}
					ck := uint64(uint32(e.Call))<<32 | uint64(uint32(q))
					if ce, _ := g.ends.get(ck); ce.ln > 0 || ce.n >= linkLength {
						if lay.tail[e.To] {
							// A tail call: every end of the callee is
							// one of r's, and nothing else follows
							// from them. (The callee's list is
							// complete: a simulation still running,
							// called again at its origin, has none
							// yet; so links make no cycle.) r links to the callee's
							// list rather than copying it: a right
							// recursion (values = val "," values)
							// whose every origin ends at every
							// later item made lists of every
							// origin's length, quadratic in all.
							links = append(links, ck)
							linkLast = max(linkLast, ce.last)
							break
						}
						if ce.ln > 0 {
							ends = g.flatten(ck)
						}
					}
					for _, end := range ends {
						if !g.step() {
							break
						}
						if end == q {
							for _, x := range lay.eps(e.To) {
								if marks[local[x]] != stamp {
									marks[local[x]] = stamp
									list = append(list, x)
								}
							}
							continue
						}
						if end-q < nearLength {
							pend = near.push(pend, end, e.To)
							nearN++
						} else {
							heap = heap.push(pair(end, e.To))
						}
					}
				}
				if gaveUp {
					break
				}
			}
		}
		// The next position: the nearest bucket's, or the heap's.
		next := int32(-1)
		if nearN > 0 {
			for d := int32(1); d < nearLength; d++ {
				if near.head[(q+d)&(nearLength-1)] > 0 {
					next = q + d
					break
				}
			}
		}
		if len(heap) > 0 {
			if h := int32(heap[0] >> 32); next < 0 || h < next {
				next = h
			}
		}
		if next < 0 {
			break
		}
		q = next
	}
	sc.heap, sc.list, sc.pend = heap[:0], list[:0], pend[:0]
	g.depth--
	if gaveUp {
		g.ends.put(k, span{n: -1, last: -1})
		sc.out, sc.links = out[:0], links[:0]
		if (lay.recursive[r] || below > p || below == p && shared) && g.err == nil {
			// r is on a cycle of calls, or a rule it calls gave up inside
			// its match, not r itself at its origin: r at p is searched
			// once for all its callers (see Guide).
			g.newNode(r, p)
		}
		return nil, false
	}
	// In increasing order: positions are taken in order. The arena holds
	// them, not a slice of their own: a parse computes thousands of short
	// lists, and a map of slices is a map of pointers for the collector to
	// scan. (Slices of the arena handed out before it grows stay valid: the
	// values never change.)
	off := len(g.arena)
	g.arena = append(g.arena, out...)
	sp := span{off: off, n: len(out), last: last}
	if len(links) > 0 {
		sp.loff, sp.ln = len(g.links), int32(len(links))
		sp.last = max(sp.last, linkLast)
		g.links = append(g.links, links...)
	}
	g.ends.put(k, sp)
	sc.out, sc.links = out[:0], links[:0]
	return g.arena[off:len(g.arena):len(g.arena)], true
}

// A node is the search of a rule called at a position, shared by every
// caller whatever its continuation: frames whose continuation ends in the
// node's sink, a frame that stands for the callers. The search runs for
// one caller at a time and stops at the first end that caller can go on
// from; it records every end it reaches. The next caller is first given
// those, then the search goes on: its frames keep their false answers
// (every end below them was recorded), and forget their true ones (they
// were the previous caller's). So the search is run through once at
// most, for all callers, and each caller pays only until it is answered.
type node struct {
	rule, pos int32
	sink      *frame
	root      *frame
	ends      []int32        // in the order found
	seen      map[int32]bool // the positions in ends
	trues     []nodeKey      // the true answers of the last caller
	caller    *frame         // the caller searched for
	ret       int32          // the state the caller returns to
	low       int32          // the lowest level of the caller's continuation its answers looked at (see Guide.known)
	done      bool           // the search went everywhere: ends is complete
}

type nodeKey struct {
	id uint32 // a canonical frame's
	k  uint64
}

// newNode makes the shared search of rule r called at p.
func (g *Guide) newNode(r, p int32) {
	n := &node{rule: r, pos: p, seen: map[int32]bool{}}
	n.sink = &frame{rule: -1, origin: -1, ret: -1, node: n}
	n.sink.canon = n.sink
	n.root = g.newFrame(r, -1, -1, n.sink)
	if g.nodes == nil {
		g.nodes = map[uint64]*node{}
	}
	g.nodes[uint64(uint32(r))<<32|uint64(uint32(p))] = n
}

// reach reports whether the call of n's rule made by frame f at n's
// position, returning to state ret, can end where f can go on to end where
// its callers complete.
func (n *node) reach(g *Guide, f *frame, ret, p int32) bool {
	for i := 0; i < len(n.ends); i++ {
		if !g.step() {
			return false
		}
		if e := n.ends[i]; e > p && g.reach(f, ret, e) {
			return true
		}
	}
	return n.run(g, f, ret)
}

// run goes on with the search for a caller, and reports whether it found
// an end the caller can go on from.
func (n *node) run(g *Guide, caller *frame, ret int32) bool {
	if n.done || g.err != nil {
		return false
	}
	for _, t := range n.trues {
		g.answers.forget(t.id, t.k)
	}
	n.trues = n.trues[:0]
	n.caller, n.ret = caller, ret
	// The search's frames are a continuation of their own, whose levels
	// are not the caller's: what the caller's answers looked at is
	// gathered apart (see ended).
	outer := g.low
	g.low, n.low = math.MaxInt32, math.MaxInt32
	found := g.reach(n.root, g.net.Rules[n.rule].Start, n.pos)
	g.low = min(outer, n.low)
	n.caller = nil
	if !found && g.err == nil {
		n.done = true
	}
	return found
}

// ended records that the search of n reached an end at p, and reports
// whether the caller it searches for can go on from there.
func (n *node) ended(g *Guide, p int32) bool {
	// The answer depends on the sink: it is not shared (see known).
	inner := min(g.low, 0)
	if n.seen[p] {
		g.low = inner
		return false // given to the caller before the search went on
	}
	n.seen[p] = true
	n.ends = append(n.ends, p)
	if p <= n.pos {
		g.low = inner
		return false
	}
	g.low = math.MaxInt32
	found := g.reach(n.caller, n.ret, p)
	n.low = min(n.low, g.low)
	g.low = inner
	return found
}

// covers records that the simulation (or DFA run) of rule r from origin p
// takes state s further at q, and reports false if it must give up there
// instead: a run from another origin took s further at q and went on past
// it (see overlaps). s is a network state, or a DFA state's key (coverBit
// set).
func (g *Guide) covers(r, p, q, s int32) bool {
	ck := pair(q, s)
	o, ok := g.cover.get(ck)
	switch {
	case !ok:
		g.cover.put(ck, p)
	case o != p && g.overlaps(r, o, q):
		return false
	}
	return true
}

// overlaps reports whether the simulation of rule r from origin o, which
// covered position q, went on past q for more than overlapLength
// positions, is still running, or gave up.
func (g *Guide) overlaps(r, o, q int32) bool {
	e, ok := g.ends.get(uint64(uint32(r))<<32 | uint64(uint32(o)))
	return !ok || e.last < 0 || e.last-q > overlapLength
}

// span locates one list of ends in Guide.arena (n < 0: the simulation
// gave up), with the last position the simulation reached (-1 while it
// runs). Its links, ln keys (rule, position) at Guide.links[loff:], are
// tail calls whose ends are the rule's ends too: the list holds them by
// reference, not by copy (see Guide.endOf), in no particular order with
// its own ends.
type span struct {
	off, n int
	last   int32
	ln     int32
	loff   int
}

// running reports whether e is the mark of a simulation still running.
func (e span) running() bool { return e.n == 0 && e.last < 0 }

// endScratch is the reusable space of one nesting depth of Guide.end.
type endScratch struct {
	marks []uint32
	pend  []int32 // the entries of the lists of pending states (pendLists)
	heap  pairHeap
	list  []int32
	out   []int32
	links []uint64  // the tail calls whose ends are the rule's (see span)
	near  pendLists // here, not on the stack: end recurses (see searchStack)
}

// pendLists are Guide.end's lists of the states pending at the next
// nearLength positions, one per position mod nearLength, first in first
// out: the states of a position are then taken in the order they were
// pushed. An entry is two integers of a slice, pend: the state, and the
// index of the next entry's second integer (0 after the last); head and
// tail hold the same kind of index for each list (0 when empty).
type pendLists struct {
	head, tail [nearLength]int32
}

// push appends state s to the list of position q and returns pend.
func (l *pendLists) push(pend []int32, q, s int32) []int32 {
	b := q & (nearLength - 1)
	i := int32(len(pend)) + 1 // the index of the entry's link
	pend = append(pend, s, 0)
	if t := l.tail[b]; t > 0 {
		pend[t] = i
	} else {
		l.head[b] = i
	}
	l.tail[b] = i
	return pend
}

// nearLength is how far past the current position a pending pair is kept
// in Guide.end's buckets rather than its heap: a power of two past the
// widest character (4 bytes of UTF-8), and past the ends of most short
// calls (a word, a short comment): 32 took 2 % less time than 8 on RFC
// 5322 messages.
const nearLength = 32

func pair(pos, state int32) uint64 { return uint64(uint32(pos))<<32 | uint64(uint32(state)) }

// pairHeap is a min-heap of (position, state) pairs packed into uint64s:
// ordered by position first.
type pairHeap []uint64

// push adds x, and returns the heap. (Methods on values, not pointers: a
// heap that lives in a local variable is then written as one, with no
// write barrier.)
func (h pairHeap) push(x uint64) pairHeap {
	h = append(h, x)
	i := len(h) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if h[parent] <= h[i] {
			break
		}
		h[parent], h[i] = h[i], h[parent]
		i = parent
	}
	return h
}

// pop removes the least pair, and returns it with the heap.
func (h pairHeap) pop() (uint64, pairHeap) {
	x := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	i := 0
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < n && h[l] < h[m] {
			m = l
		}
		if r < n && h[r] < h[m] {
			m = r
		}
		if m == i {
			return x, h
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// A Lookahead runs, for one parse, the exact continuation guards of a
// generated parser: each guard is the minimal DFA of what may follow a
// decision, to the end of the input, written as a [Net] whose rules are the
// guards (a rule's automaton is its DFA: disjoint classes on every state's
// edges, and an ε-edge to the rule's final state from each accepting
// state; no calls).
//
// A guard asked at every iteration of a repetition would rescan the rest
// of the input each time, quadratic work in all. A Lookahead remembers the
// verdict of every (state, position) pair its runs have passed, for every
// guard of the parse: a run stops at the first pair already decided, so
// the guards of one parse together take at most one step per pair, a
// number linear in the input's length (the DFAs' states times the
// positions) and, in practice, a step or two per byte of the input.
//
// A Lookahead is for one parse by one goroutine.
type Lookahead struct {
	net    *Net
	in     []byte
	budget int
	work   int
	err    error
	memo   map[uint64]bool // pair(position, state) → accepted
	path   []uint64
	// octets: each byte of in is a character (a tree function's raw input
	// of an octet grammar); else in is UTF-8 (what pigeon reads).
	octets bool
}

// NewLookahead returns the lookahead of one parse of input, which may take
// about work steps (a step is one character read by a guard's DFA) before
// it gives up with [ErrWork]. A network that fails [Net.Check] makes a
// lookahead that answers false to everything, with the check's error from
// [Lookahead.Err].
func NewLookahead(n *Net, input []byte, work int) *Lookahead {
	l := &Lookahead{net: n, in: input, budget: work, work: work}
	switch {
	case n == nil:
		l.err = errors.New("lookahead: no network")
	default:
		n.states()
		l.err = n.checkErr
	}
	return l
}

// Steps returns the steps the lookahead has taken so far.
func (l *Lookahead) Steps() int {
	if l == nil {
		return 0
	}
	return l.budget - max(l.work, 0)
}

// Err returns why the lookahead gave up, or nil.
func (l *Lookahead) Err() error {
	if l == nil {
		return errors.New("parse needs a lookahead for its exact guards, and has none")
	}
	return l.err
}

// Match reports whether the rest of the input, from position pos, is in
// the language of guard (a rule of the network).
func (l *Lookahead) Match(guard, pos int) bool {
	if l == nil || l.err != nil || guard < 0 || guard >= len(l.net.Rules) || pos < 0 || pos > len(l.in) {
		return false
	}
	if l.memo == nil {
		l.memo = make(map[uint64]bool, min(len(l.in)+1, 1<<16))
	}
	n := l.net
	final := n.Rules[guard].Final
	s, q := n.Rules[guard].Start, int32(pos)
	path := l.path[:0]
	verdict := false
	for {
		k := pair(q, s)
		if v, ok := l.memo[k]; ok {
			verdict = v
			break
		}
		l.work--
		if l.work < 0 {
			l.err = ErrWork
			return false
		}
		path = append(path, k)
		c, w := char(l.in, q)
		if l.octets && int(q) < len(l.in) {
			c, w = rune(l.in[q]), 1
		}
		next := int32(-1)
		for _, e := range n.Edges[n.Index[s]:n.Index[s+1]] {
			switch {
			case e.Class < 0:
				if int(q) == len(l.in) && e.To == final {
					verdict = true
				}
			case w > 0 && next < 0 && n.inClass(e.Class, c):
				next = e.To
			}
		}
		if next < 0 {
			break
		}
		s, q = next, q+w
	}
	for _, k := range path {
		l.memo[k] = verdict
	}
	l.path = path[:0]
	return verdict
}

// char returns the character of in at p and its width, 0 at the end or at
// a byte that is not UTF-8 (which no class matches).
func char(in []byte, p int32) (rune, int32) {
	if int(p) >= len(in) {
		return 0, 0
	}
	c, w := utf8.DecodeRune(in[p:])
	if c == utf8.RuneError && w <= 1 {
		return 0, 0
	}
	return c, int32(w)
}

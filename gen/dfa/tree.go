package dfa

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Trees from the automata's side: gen dfa -tree reads the parser pigeon
// generated from the grammar's PEG (the Go file, which holds the PEG as
// pigeon's own expression values) and writes, for each start rule it
// compiles, a Go function that evaluates those expressions exactly as
// pigeon's parser does (ordered choice, possessive repetition, predicates,
// the same count of expressions) and builds the nodes pigeon's capture
// actions build. The function runs after the rule's DFA has accepted the
// input (syntax.Grammar.Tree): where the grammar is regular, the DFA
// decides and reports errors, and the generated function only lays out
// the tree. A start rule whose PEG reaches what the function cannot
// mirror (the exact recognizer's guided decisions, left recursion folded
// by actions, Unicode classes, code predicates other than gen peg's exact
// guards, which it asks of the same syntax.Lookahead) keeps pigeon's tree.

// TreeCode is the Go code of the tree functions of some start rules.
type TreeCode struct {
	// Funcs maps each start rule (ABNF name) to its function's name.
	Funcs map[string]string
	// Skipped maps each start rule left to pigeon to the reason.
	Skipped map[string]string
	// Code is the functions and their tables, for the DFA file.
	Code []byte
}

// pexpr is one of pigeon's expressions.
type pexpr struct {
	kind     string // pigeon's type name: seqExpr, choiceExpr, …
	exprs    []*pexpr
	name     string // ruleRefExpr: the rule; actionExpr: the callon method
	val      string // litMatcher, charClassMatcher
	fold     bool   // ignoreCase
	inverted bool
	chars    []rune
	ranges   []rune
	label    string
}

// paction is what an action does: capture a node of rule, or pass its
// labeled value through (an entry rule).
type paction struct {
	capture string // the rule captured; "" for a pass-through
	label   string
	guard   int  // for a code predicate: the exact guard it asks, from 1
	nest    bool // for a code predicate: the check of the rule stack's depth
	param   string
}

// pigeonParser is what Trees reads from pigeon's Go output.
type pigeonParser struct {
	rules   map[string]*pexpr // rule identifier → its expression
	entries map[string]string // start rule → entry rule identifier
	guided  map[string]bool   // guided entry rule identifiers
	actions map[string]*paction
	// guards are the code predicates that ask gen peg's exact lookahead
	// (callonX → the guard), when the parser has a guardNet.
	guards   map[string]*paction
	guardNet bool
	// nests are the code predicates that check the depth of the rules
	// (callonX), at the start of each recursive rule.
	nests map[string]bool
}

// NoEntrypoint is the reason in TreeCode.Skipped of a rule that pigeon's
// parser has no entrypoint for: not a start rule of gen peg, which
// syntax.NewGrammar refuses a DFA for.
const NoEntrypoint = "no pigeon entrypoint"

// Trees reads src, a parser pigeon generated from gen peg's output, and
// returns the tree functions of the start rules given (ABNF names).
func Trees(src []byte, rules []string) (*TreeCode, error) {
	pp, err := readPigeon(src)
	if err != nil {
		return nil, fmt.Errorf("pigeon's output: %w", err)
	}
	e := &treeEmitter{pp: pp, classes: map[string]string{}, done: map[string]bool{}}
	tc := &TreeCode{Funcs: map[string]string{}, Skipped: map[string]string{}}
	var want []string
	for _, r := range rules {
		entry, ok := pp.entries[r]
		if !ok {
			tc.Skipped[r] = NoEntrypoint
			continue
		}
		if why := e.unsupported(r, entry); why != "" {
			tc.Skipped[r] = why
			continue
		}
		tc.Funcs[r] = "treeEntry_" + entry
		want = append(want, entry)
	}
	for _, entry := range want {
		e.rule(entry)
	}
	var head bytes.Buffer
	if len(want) > 0 {
		fmt.Fprintf(&head, "\n// treeNames are the rules the tree functions capture, by index.\nvar treeNames = []string{\n")
		for _, n := range e.names {
			fmt.Fprintf(&head, "%q,\n", n)
		}
		fmt.Fprintf(&head, "}\n")
	}
	for _, entry := range want {
		fmt.Fprintf(&head, "\n// treeEntry_%s builds the tree of pigeon's entrypoint %s.\n", entry, entry)
		guards := ""
		if pp.guardNet {
			guards = "p.Guards = guardNet\n"
		}
		fmt.Fprintf(&head, "func treeEntry_%s(p *syntax.TreeParser) bool {\np.Names = treeNames\n%sreturn %s(p)\n}\n", entry, guards, treeFunc(entry))
	}
	tc.Code = append(head.Bytes(), e.out.Bytes()...)
	return tc, nil
}

func treeFunc(ident string) string { return "tree_" + ident }

// readPigeon reads the grammar value, the actions and the PEG glue out of
// pigeon's Go output.
func readPigeon(src []byte) (*pigeonParser, error) {
	// No file name: the caller names the file (gen dfa -tree's path).
	f, err := parser.ParseFile(token.NewFileSet(), "", src, 0)
	if err != nil {
		return nil, err
	}
	pp := &pigeonParser{rules: map[string]*pexpr{}, entries: map[string]string{}, guided: map[string]bool{}, actions: map[string]*paction{}, guards: map[string]*paction{}, nests: map[string]bool{}}
	on := map[string]*paction{} // onX method → action
	callon := map[string]callon{}
	var grammar *ast.CompositeLit
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, s := range d.Specs {
				vs, ok := s.(*ast.ValueSpec)
				if ok && len(vs.Names) == 1 && vs.Names[0].Name == "guardNet" {
					pp.guardNet = true
				}
				if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "g" || len(vs.Values) != 1 {
					continue
				}
				if u, ok := vs.Values[0].(*ast.UnaryExpr); ok {
					grammar, _ = u.X.(*ast.CompositeLit)
				}
			}
		case *ast.FuncDecl:
			readFunc(d, pp, on, callon)
		}
	}
	if grammar == nil {
		return nil, errors.New("no grammar value g: not a parser pigeon generated")
	}
	for name, c := range callon {
		a := on[c.on]
		switch {
		case a == nil || a.param != c.label:
		case a.guard > 0:
			if pp.guardNet {
				pp.guards[name] = a
			}
		case a.nest:
			pp.nests[name] = true
		default:
			pp.actions[name] = a
		}
	}
	rules, ok := field(grammar, "rules").(*ast.CompositeLit)
	if !ok {
		return nil, errors.New("the grammar has no rules")
	}
	for _, r := range rules.Elts {
		rl, ok := r.(*ast.CompositeLit)
		if !ok {
			return nil, errors.New("a rule that is not a literal")
		}
		name, err := stringLit(field(rl, "name"))
		if err != nil {
			return nil, fmt.Errorf("rule name: %w", err)
		}
		x, err := readExpr(field(rl, "expr"))
		if err != nil {
			return nil, fmt.Errorf("rule %s: %w", name, err)
		}
		pp.rules[name] = x
	}
	if len(pp.entries) == 0 {
		return nil, errors.New("no PEG function with Entries: not gen peg's glue")
	}
	return pp, nil
}

// callon is what a callonX method calls: method onX, with the value of
// label ("" for none).
type callon struct{ on, label string }

// readFunc reads the actions (onX: what they return; callonX: which onX
// and label), the code predicates of exact guards and the PEG glue
// (Entries, Guided).
func readFunc(d *ast.FuncDecl, pp *pigeonParser, on map[string]*paction, calls map[string]callon) {
	name := d.Name.Name
	if d.Body == nil {
		return
	}
	if name == "PEG" && d.Recv == nil {
		ast.Inspect(d.Body, func(n ast.Node) bool {
			kv, ok := n.(*ast.KeyValueExpr)
			if !ok {
				return true
			}
			key, _ := kv.Key.(*ast.Ident)
			lit, _ := kv.Value.(*ast.CompositeLit)
			if key == nil || lit == nil {
				return true
			}
			switch key.Name {
			case "Entries":
				for _, e := range lit.Elts {
					kv, ok := e.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					k, err1 := stringLit(kv.Key)
					v, err2 := stringLit(kv.Value)
					if err1 == nil && err2 == nil {
						pp.entries[k] = v
					}
				}
			case "Guided":
				for _, e := range lit.Elts {
					if v, err := stringLit(e); err == nil {
						pp.guided[v] = true
					}
				}
			}
			return true
		})
		return
	}
	if d.Recv == nil || len(d.Body.List) == 0 {
		return
	}
	ret, ok := d.Body.List[len(d.Body.List)-1].(*ast.ReturnStmt)
	if !ok {
		return
	}
	switch {
	case strings.HasPrefix(name, "callon"):
		// return p.cur.onX(stack["v"]), or p.cur.onX()
		if len(ret.Results) != 1 {
			return
		}
		call, ok := ret.Results[0].(*ast.CallExpr)
		if !ok || len(call.Args) > 1 {
			return
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return
		}
		label := ""
		if len(call.Args) == 1 {
			idx, ok := call.Args[0].(*ast.IndexExpr)
			if !ok {
				return
			}
			var err error
			if label, err = stringLit(idx.Index); err != nil {
				return
			}
		}
		calls[name] = callon{sel.Sel.Name, label}
	case strings.HasPrefix(name, "on") && len(d.Body.List) == 1:
		params := d.Type.Params
		if k, ok := guardCall(ret); ok && params != nil && len(params.List) == 0 {
			on[name] = &paction{guard: k + 1}
			return
		}
		if nestCall(ret) && params != nil && len(params.List) == 0 {
			on[name] = &paction{nest: true}
			return
		}
		if params == nil || len(params.List) != 1 || len(params.List[0].Names) != 1 {
			return
		}
		param := params.List[0].Names[0].Name
		if param != "v" {
			return
		}
		switch len(ret.Results) {
		case 2: // return v, nil
			v, ok1 := ret.Results[0].(*ast.Ident)
			n, ok2 := ret.Results[1].(*ast.Ident)
			if ok1 && ok2 && v.Name == "v" && n.Name == "nil" {
				on[name] = &paction{label: "v", param: "v"}
			}
		case 1: // return c.capture("R", v)
			call, ok := ret.Results[0].(*ast.CallExpr)
			if !ok || len(call.Args) != 2 {
				return
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "capture" {
				return
			}
			rule, err := stringLit(call.Args[0])
			v, ok := call.Args[1].(*ast.Ident)
			if err == nil && ok && v.Name == "v" {
				on[name] = &paction{capture: rule, label: "v", param: "v"}
			}
		}
	}
}

func isNil(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "nil"
}

// nestCall reports whether a code predicate returns nest(c): gen peg's
// check, at the start of a recursive rule, of how deep the rules nest.
func nestCall(ret *ast.ReturnStmt) bool {
	if len(ret.Results) != 1 {
		return false
	}
	call, ok := ret.Results[0].(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	f, ok := call.Fun.(*ast.Ident)
	c, ok2 := call.Args[0].(*ast.Ident)
	return ok && ok2 && f.Name == "nest" && c.Name == "c"
}

// guardCall reads the return of a guard's code predicate, as gen peg
// writes it: return ask(c).Match(K), nil, which runs guard K at the
// current position.
func guardCall(ret *ast.ReturnStmt) (int, bool) {
	if len(ret.Results) != 2 || !isNil(ret.Results[1]) {
		return 0, false
	}
	call, ok := ret.Results[0].(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return 0, false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Match" {
		return 0, false
	}
	asker, ok := sel.X.(*ast.CallExpr)
	if !ok || len(asker.Args) != 1 {
		return 0, false
	}
	if f, ok := asker.Fun.(*ast.Ident); !ok || f.Name != "ask" {
		return 0, false
	}
	if c, ok := asker.Args[0].(*ast.Ident); !ok || c.Name != "c" {
		return 0, false
	}
	k, ok := call.Args[0].(*ast.BasicLit)
	if !ok || k.Kind != token.INT {
		return 0, false
	}
	n, err := strconv.Atoi(k.Value)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// field is the value of a keyed field of a composite literal, or nil.
func field(c *ast.CompositeLit, name string) ast.Expr {
	for _, e := range c.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == name {
				return kv.Value
			}
		}
	}
	return nil
}

func stringLit(e ast.Expr) (string, error) {
	b, ok := e.(*ast.BasicLit)
	if !ok || b.Kind != token.STRING {
		return "", errors.New("not a string literal")
	}
	return strconv.Unquote(b.Value)
}

func boolLit(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "true"
}

func runeList(e ast.Expr) ([]rune, error) {
	if e == nil {
		return nil, nil
	}
	c, ok := e.(*ast.CompositeLit)
	if !ok {
		return nil, errors.New("not a rune list")
	}
	var out []rune
	for _, x := range c.Elts {
		b, ok := x.(*ast.BasicLit)
		if !ok || b.Kind != token.CHAR {
			return nil, errors.New("not a rune literal")
		}
		s, err := strconv.Unquote(b.Value)
		if err != nil {
			return nil, err
		}
		out = append(out, []rune(s)[0])
	}
	return out, nil
}

// readExpr reads one of pigeon's expression values: &kind{…}.
func readExpr(e ast.Expr) (*pexpr, error) {
	u, ok := e.(*ast.UnaryExpr)
	if !ok {
		return nil, errors.New("an expression that is not &kind{…}")
	}
	c, ok := u.X.(*ast.CompositeLit)
	if !ok {
		return nil, errors.New("an expression that is not &kind{…}")
	}
	id, ok := c.Type.(*ast.Ident)
	if !ok {
		return nil, errors.New("an expression of unnamed type")
	}
	x := &pexpr{kind: id.Name}
	sub := func(name string) error {
		v := field(c, name)
		if v == nil {
			return fmt.Errorf("%s without %s", x.kind, name)
		}
		y, err := readExpr(v)
		if err != nil {
			return err
		}
		x.exprs = []*pexpr{y}
		return nil
	}
	list := func(name string) error {
		v, ok := field(c, name).(*ast.CompositeLit)
		if !ok {
			return fmt.Errorf("%s without %s", x.kind, name)
		}
		for _, e := range v.Elts {
			y, err := readExpr(e)
			if err != nil {
				return err
			}
			x.exprs = append(x.exprs, y)
		}
		return nil
	}
	var err error
	switch x.kind {
	case "seqExpr":
		err = list("exprs")
	case "choiceExpr":
		err = list("alternatives")
	case "zeroOrOneExpr", "zeroOrMoreExpr", "oneOrMoreExpr", "andExpr", "notExpr":
		err = sub("expr")
	case "labeledExpr":
		x.label, _ = stringLit(field(c, "label"))
		err = sub("expr")
	case "actionExpr":
		if sel, ok := field(c, "run").(*ast.SelectorExpr); ok {
			x.name = sel.Sel.Name
		}
		err = sub("expr")
	case "ruleRefExpr":
		x.name, err = stringLit(field(c, "name"))
	case "litMatcher":
		x.val, err = stringLit(field(c, "val"))
		x.fold = boolLit(field(c, "ignoreCase"))
	case "charClassMatcher":
		x.val, _ = stringLit(field(c, "val"))
		x.fold = boolLit(field(c, "ignoreCase"))
		x.inverted = boolLit(field(c, "inverted"))
		if x.chars, err = runeList(field(c, "chars")); err != nil {
			break
		}
		if x.ranges, err = runeList(field(c, "ranges")); err != nil {
			break
		}
		if cl, ok := field(c, "classes").(*ast.CompositeLit); ok && len(cl.Elts) > 0 {
			x.kind = "unicodeClass" // not mirrored
		}
		if field(c, "basicLatinChars") != nil {
			x.kind = "basicLatin" // pigeon's -optimize-basic-latin: not mirrored
		}
	case "anyMatcher":
	case "andCodeExpr":
		// Mirrored when it asks an exact guard (pigeonParser.guards).
		if sel, ok := field(c, "run").(*ast.SelectorExpr); ok {
			x.name = sel.Sel.Name
		}
	default:
		// notCodeExpr, stateCodeExpr, recoveryExpr,
		// throwExpr: not mirrored.
	}
	return x, err
}

type treeEmitter struct {
	pp      *pigeonParser
	out     bytes.Buffer
	classes map[string]string // key → table name
	names   []string          // rules captured, in the order of their indices
	done    map[string]bool   // rules emitted
	rec     map[string]bool   // rules on cycles of references (see recursive)
	n       int               // fresh variables
}

// unsupported says why start rule r (entry rule entry) keeps pigeon's
// tree, or "".
func (e *treeEmitter) unsupported(r, entry string) string {
	if e.pp.guided[entry] {
		return "its parse consults the exact recognizer"
	}
	x := e.pp.rules[entry]
	// The entry: v:R !. { return v, nil }, R a captured rule.
	if x == nil || x.kind != "actionExpr" || len(x.exprs) != 1 || x.exprs[0].kind != "seqExpr" {
		return "its entry rule is not v:R !."
	}
	if a := e.pp.actions[x.name]; a == nil || a.capture != "" {
		return "its entry rule's action is not return v"
	}
	seq := x.exprs[0].exprs
	if len(seq) != 2 || seq[0].kind != "labeledExpr" || seq[0].label != "v" || seq[0].exprs[0].kind != "ruleRefExpr" {
		return "its entry rule is not v:R !."
	}
	target := e.pp.rules[seq[0].exprs[0].name]
	if target == nil || target.kind != "actionExpr" || e.pp.actions[target.name] == nil || e.pp.actions[target.name].capture == "" {
		return "its rule is not captured (pigeon's tree is the span)"
	}
	seen := map[string]bool{}
	var why string
	var walk func(x *pexpr) bool
	walk = func(x *pexpr) bool {
		switch x.kind {
		case "andCodeExpr":
			// An exact guard, which asks at the current position, or
			// the check of the rules' depth.
			if e.pp.guards[x.name] == nil && !e.pp.nests[x.name] {
				why = "a code predicate (" + x.name + ")"
				return false
			}
		case "seqExpr", "choiceExpr", "zeroOrOneExpr", "zeroOrMoreExpr", "oneOrMoreExpr", "andExpr", "notExpr", "labeledExpr",
			"litMatcher", "charClassMatcher", "anyMatcher":
		case "actionExpr":
			a := e.pp.actions[x.name]
			switch {
			case a == nil:
				why = "an action other than capture (" + x.name + ")"
				return false
			case a.capture != "":
				// v:(…): the label holds the whole expression, after
				// the depth check of a recursive rule (&{ return
				// nest(c) } v:(…)).
				y := x.exprs[0]
				if len(x.exprs) == 1 && y.kind == "seqExpr" && len(y.exprs) == 2 && y.exprs[0].kind == "andCodeExpr" && e.pp.nests[y.exprs[0].name] {
					y = y.exprs[1]
				}
				if len(x.exprs) != 1 || y.kind != "labeledExpr" || y.label != a.label {
					why = "a capture of something other than its whole expression"
					return false
				}
			}
		case "ruleRefExpr":
			if seen[x.name] {
				return true
			}
			seen[x.name] = true
			y := e.pp.rules[x.name]
			if y == nil {
				why = "a reference to no rule (" + x.name + ")"
				return false
			}
			return walk(y)
		default:
			why = "a " + x.kind + " expression"
			return false
		}
		for _, y := range x.exprs {
			if !walk(y) {
				return false
			}
		}
		return true
	}
	seen[entry] = true
	if !walk(x) {
		return why
	}
	return ""
}

// rule emits the function of pigeon rule ident and those it references.
func (e *treeEmitter) rule(ident string) {
	if e.done[ident] {
		return
	}
	e.done[ident] = true
	x := e.pp.rules[ident]
	var body bytes.Buffer
	vars := e.n
	e.expr(&body, x, "ok")
	vars = e.n - vars // the function's variables, which its frame holds
	fmt.Fprintf(&e.out, "\n// %s mirrors pigeon's rule %s.\n", treeFunc(ident), ident)
	fmt.Fprintf(&e.out, "func %s(p *syntax.TreeParser) (ok bool) {\n", treeFunc(ident))
	if e.recursive()[ident] {
		// A function on a cycle of calls counts the stack its calls
		// take (see syntax.TreeParser.Nest): its frame grows with the
		// variables of the rule's expressions, all in the one function
		// (measured: 10,352 bytes for 2,400 variables, a rule of 600
		// nested repetitions), bounded here by 32 bytes each.
		frame := 64 + 32*vars
		fmt.Fprintf(&e.out, "if !p.Check() || !p.Nest(%d) {\nreturn false\n}\n", frame)
		e.out.Write(body.Bytes())
		fmt.Fprintf(&e.out, "p.Unnest(%d)\nreturn ok\n}\n", frame)
	} else {
		fmt.Fprintf(&e.out, "if !p.Check() {\nreturn false\n}\n")
		e.out.Write(body.Bytes())
		fmt.Fprintf(&e.out, "return ok\n}\n")
	}
	for _, r := range pegRefs(x) {
		e.rule(r)
	}
}

// recursive returns the rules on cycles of references (Tarjan's
// algorithm, iterative: a grammar may chain many rules), computed once:
// their functions call one another as deep as the input nests.
func (e *treeEmitter) recursive() map[string]bool {
	if e.rec != nil {
		return e.rec
	}
	e.rec = map[string]bool{}
	refs := map[string][]string{}
	for name, x := range e.pp.rules {
		refs[name] = pegRefs(x)
	}
	index, low, on := map[string]int{}, map[string]int{}, map[string]bool{}
	var stack []string
	type item struct {
		v    string
		next int
	}
	for _, root := range slices.Sorted(maps.Keys(e.pp.rules)) {
		if _, ok := index[root]; ok {
			continue
		}
		work := []item{{root, 0}}
		index[root], low[root] = len(index), len(index)
		stack, on[root] = append(stack, root), true
		for len(work) > 0 {
			top := &work[len(work)-1]
			if top.next < len(refs[top.v]) {
				w := refs[top.v][top.next]
				top.next++
				if _, ok := index[w]; !ok {
					index[w], low[w] = len(index), len(index)
					stack, on[w] = append(stack, w), true
					work = append(work, item{w, 0})
				} else if on[w] {
					low[top.v] = min(low[top.v], index[w])
				}
				continue
			}
			v := top.v
			work = work[:len(work)-1]
			if len(work) > 0 {
				u := work[len(work)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] != index[v] {
				continue
			}
			n := len(stack)
			for stack[n-1] != v {
				n--
			}
			members := stack[n-1:]
			if len(members) > 1 || slices.Contains(refs[v], v) {
				for _, m := range members {
					e.rec[m] = true
				}
			}
			for _, m := range members {
				on[m] = false
			}
			stack = stack[:n-1]
		}
	}
	return e.rec
}

// pegRefs lists the rules x references, in order, once each.
func pegRefs(x *pexpr) []string {
	var out []string
	var walk func(*pexpr)
	walk = func(x *pexpr) {
		if x.kind == "ruleRefExpr" && !slices.Contains(out, x.name) {
			out = append(out, x.name)
		}
		for _, y := range x.exprs {
			walk(y)
		}
	}
	walk(x)
	return out
}

func (e *treeEmitter) fresh(base string) string {
	e.n++
	return base + strconv.Itoa(e.n)
}

// expr writes code that evaluates x as pigeon does and sets ok (declared)
// to whether it matched. On failure the position and the nodes are as
// before; every evaluation counts one expression, as pigeon's parseExpr.
func (e *treeEmitter) expr(b *bytes.Buffer, x *pexpr, ok string) {
	b.WriteString("p.N++\n")
	switch x.kind {
	case "seqExpr":
		pos, m := e.fresh("pos"), e.fresh("m")
		fmt.Fprintf(b, "%s, %s := p.Pos, p.Mark()\n", pos, m)
		for i, y := range x.exprs {
			if i > 0 {
				fmt.Fprintf(b, "if %s {\n", ok)
			}
			e.expr(b, y, ok)
		}
		for i := 1; i < len(x.exprs); i++ {
			b.WriteString("}\n")
		}
		fmt.Fprintf(b, "if !%s {\np.Pos = %s\np.Cut(%s)\n}\n", ok, pos, m)
	case "choiceExpr":
		for i, y := range x.exprs {
			if i > 0 {
				fmt.Fprintf(b, "if !%s {\n", ok)
			}
			e.expr(b, y, ok)
		}
		for i := 1; i < len(x.exprs); i++ {
			b.WriteString("}\n")
		}
	case "zeroOrOneExpr":
		t := e.fresh("ok")
		fmt.Fprintf(b, "var %s bool\n", t)
		e.expr(b, x.exprs[0], t)
		fmt.Fprintf(b, "_ = %s\n%s = true\n", t, ok)
	case "zeroOrMoreExpr", "oneOrMoreExpr":
		t, n := e.fresh("ok"), e.fresh("n")
		fmt.Fprintf(b, "%s := 0\nfor p.Check() {\nvar %s bool\n", n, t)
		e.expr(b, x.exprs[0], t)
		fmt.Fprintf(b, "if !%s {\nbreak\n}\n%s++\n}\n", t, n)
		if x.kind == "zeroOrMoreExpr" {
			fmt.Fprintf(b, "_ = %s\n%s = true\n", n, ok)
		} else {
			fmt.Fprintf(b, "%s = %s > 0\n", ok, n)
		}
	case "andExpr", "notExpr":
		pos, m, t := e.fresh("pos"), e.fresh("m"), e.fresh("ok")
		fmt.Fprintf(b, "%s, %s := p.Pos, p.Mark()\nvar %s bool\n", pos, m, t)
		e.expr(b, x.exprs[0], t)
		not := ""
		if x.kind == "notExpr" {
			not = "!"
		}
		fmt.Fprintf(b, "p.Pos = %s\np.Cut(%s)\n%s = %s%s\n", pos, m, ok, not, t)
	case "labeledExpr":
		e.expr(b, x.exprs[0], ok)
	case "actionExpr":
		a := e.pp.actions[x.name]
		if a.capture == "" {
			e.expr(b, x.exprs[0], ok)
			break
		}
		start, m := e.fresh("start"), e.fresh("m")
		fmt.Fprintf(b, "%s, %s := p.Pos, p.Mark()\n", start, m)
		e.expr(b, x.exprs[0], ok)
		i := slices.Index(e.names, a.capture)
		if i < 0 {
			i = len(e.names)
			e.names = append(e.names, a.capture)
		}
		fmt.Fprintf(b, "if %s {\np.Capture(%d, %s, %s) // %s\n}\n", ok, i, start, m, a.capture)
	case "ruleRefExpr":
		fmt.Fprintf(b, "%s = %s(p)\n", ok, treeFunc(x.name))
	case "anyMatcher":
		fmt.Fprintf(b, "%s = p.Any()\n", ok)
	case "andCodeExpr":
		if e.pp.nests[x.name] {
			// The depth check of gen peg: functions count their own
			// (see rule).
			fmt.Fprintf(b, "%s = true\n", ok)
			break
		}
		fmt.Fprintf(b, "%s = p.Guard(%d)\n", ok, e.pp.guards[x.name].guard-1)
	case "litMatcher":
		if len(x.val) == 1 && x.val[0] < 0x80 && (!x.fold || !unicode.IsLetter(rune(x.val[0]))) {
			fmt.Fprintf(b, "if %s = p.Pos < len(p.In) && p.In[p.Pos] == %q; %s {\np.Pos++\n}\n", ok, x.val[0], ok)
		} else {
			fmt.Fprintf(b, "%s = p.Lit(%q, %v)\n", ok, x.val, x.fold)
		}
	case "charClassMatcher":
		tab := e.class(x)
		fmt.Fprintf(b, "if p.Pos < len(p.In) && p.In[p.Pos] < 0x80 {\n")
		fmt.Fprintf(b, "c := p.In[p.Pos]\nif %s = %s[c>>6]&(1<<(c&63)) != 0; %s {\np.Pos++\n}\n", ok, tab, ok)
		fmt.Fprintf(b, "} else {\n%s = p.Class(&%s, %sChars, %sRanges, %v, %v)\n}\n", ok, tab, tab, tab, x.fold, x.inverted)
	default:
		panic("tree: unsupported expression " + x.kind) // unsupported() rules it out
	}
}

// class returns the name of the tables of a character class, emitting
// them the first time: a bitmap of the bytes that match (for ASCII, and
// for every byte of an octet grammar), with the characters and ranges for
// the rest.
func (e *treeEmitter) class(x *pexpr) string {
	key := fmt.Sprintf("%q %v %v %v %v", x.val, x.fold, x.inverted, x.chars, x.ranges)
	if name, ok := e.classes[key]; ok {
		return name
	}
	name := "treeClass" + strconv.Itoa(len(e.classes)+1)
	e.classes[key] = name
	var bits [4]uint64
	for c := range 256 {
		cur := rune(c)
		if x.fold {
			cur = unicode.ToLower(cur)
		}
		in := slices.Contains(x.chars, cur)
		for i := 0; !in && i+1 < len(x.ranges); i += 2 {
			in = cur >= x.ranges[i] && cur <= x.ranges[i+1]
		}
		if in != x.inverted {
			bits[c>>6] |= 1 << (c & 63)
		}
	}
	runes := func(rs []rune) string {
		if len(rs) == 0 {
			return "[]rune(nil)"
		}
		s := make([]string, len(rs))
		for i, r := range rs {
			s[i] = strconv.QuoteRune(r)
		}
		return "[]rune{" + strings.Join(s, ", ") + "}"
	}
	fmt.Fprintf(&e.out, "\n// %s is the class %s.\nvar (\n", name, x.val)
	fmt.Fprintf(&e.out, "%s = [4]uint64{%#x, %#x, %#x, %#x}\n", name, bits[0], bits[1], bits[2], bits[3])
	fmt.Fprintf(&e.out, "%sChars = %s\n%sRanges = %s\n)\n", name, runes(x.chars), name, runes(x.ranges))
	return name
}

// funcFor is the tree function of rule, or "".
func (tc *TreeCode) funcFor(rule string) string {
	if tc == nil {
		return ""
	}
	return tc.Funcs[rule]
}

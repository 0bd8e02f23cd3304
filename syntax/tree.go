package syntax

// Node is a captured rule of a parse tree: its ABNF name and the bytes
// [Start, End) of the input it matched, with the captured rules it holds.
// Every parser gen generates builds these nodes, so that code reading trees
// works on any of them.
type Node struct {
	Rule       string
	Start, End int
	Kids       []*Node
}

// Failure is why an input did not parse: the byte offset where parsing
// stopped and the terminals that would have been accepted there ("EOF" for
// the end of input), or, for a failure that is not a mismatch (invalid
// UTF-8, a work limit), a message.
type Failure struct {
	Offset   int
	Expected []string
	Msg      string
}

// The actions of generated parsers. A captured rule's action passes the
// values of its expression, in which the nodes of the captured rules below
// it are nested in slices, to Capture; gen's rewrite of left recursion into
// iteration passes each iteration to Extend and the whole to Fold, which
// rebuilds the left-nested tree the grammar describes.

// Capture returns the node of rule matching [start, end), whose kids are
// the nodes found in v, in order.
func Capture(rule string, start, end int, v any) *Node {
	return &Node{Rule: rule, Start: start, End: end, Kids: appendNodes(nil, v)}
}

// step is one step of a rewritten left-recursive rule: what followed the
// recursion, whose node wraps the node built so far.
type step struct {
	rule string
	end  int
	kids []*Node
}

// Extend returns one step of left-recursive rule: what followed the
// recursion, ending at end, with the nodes found in v. Fold builds the
// nodes.
func Extend(rule string, end int, v any) any {
	return &step{rule: rule, end: end, kids: appendNodes(nil, v)}
}

// Fold builds the left-nested nodes of left-recursive rule matching
// [start, end) from v, the seed's node followed by the steps of Extend: the
// seed's node, then one node per step around the node so far. Should v not
// have that shape, it is captured as a plain node.
func Fold(rule string, start, end int, v any) *Node {
	var cur *Node
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case *Node:
			if cur == nil {
				cur = v
			}
		case *step:
			if cur != nil {
				cur = &Node{Rule: v.rule, Start: cur.Start, End: v.end, Kids: append([]*Node{cur}, v.kids...)}
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	if cur == nil || cur.Rule != rule || cur.End != end {
		return Capture(rule, start, end, v)
	}
	return cur
}

func appendNodes(kids []*Node, v any) []*Node {
	switch v := v.(type) {
	case *Node:
		return append(kids, v)
	case []any:
		for _, x := range v {
			kids = appendNodes(kids, x)
		}
	}
	return kids
}

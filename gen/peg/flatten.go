package peg

// Groups that change nothing cost twice. pigeon v1.3.0 reads a group that
// no ?, * or + follows twice (see pigeonCost), and at parse time every
// group is one more expression to evaluate and, for a sequence, one more
// slice of values: the passes that write a rule's body parenthesize what
// they insert and wrap, whether or not it is needed. flattenGroups removes
// the parentheses that cannot matter, once the body is final.

// flattenGroups returns body, a rule's PEG expression, without the
// parentheses of every group that is a plain sequence inside a sequence
// or a choice: no ?, * or + follows it, no &, ! or label precedes it, and
// it holds no choice, no label and no action of its own at its top level.
// Such a group's items become items of the sequence around it, which
// matches the same strings the same way; a predicate's code block (&{…},
// !{…}) is an item like any other. Nothing inside strings, classes,
// comments or code blocks changes. The outermost expression may lose its
// parentheses too: body must not be put after a label, a prefix or before a
// suffix by the caller.
func flattenGroups(body string) string {
	text := []byte(body)
	n := len(text)
	type group struct {
		open int
		keep bool // a choice, label or action inside, or a prefix or label before
	}
	var stack []group
	drop := make([]bool, n)
	found := false
	for j := 0; j < n; {
		c := text[j]
		if k := skipPEG(text, j); k != j {
			if c == '{' && len(stack) > 0 && !precededBy(text, j, "&!#") {
				stack[len(stack)-1].keep = true // an action
			}
			j = k
			continue
		}
		switch {
		case c == '/' && j+1 < n && text[j+1] == '*':
			return body // a comment of the grammar's own: left as it is
		case c == '(':
			stack = append(stack, group{open: j, keep: precededBy(text, j, "&!:")})
		case c == ')' && len(stack) > 0:
			g := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			// An empty group stays: it may be an alternative of its own.
			if !g.keep && !followedBy(text, j+1, "?*+") && !followedBy(text, g.open+1, ")") {
				drop[g.open], drop[j] = true, true
				found = true
			}
		case c == '/' && len(stack) > 0:
			stack[len(stack)-1].keep = true // a choice
		case c == ':' && len(stack) > 0:
			stack[len(stack)-1].keep = true // a label
		}
		j++
	}
	if !found {
		return body
	}
	out := make([]byte, 0, n)
	for j := range n {
		if !drop[j] {
			out = append(out, text[j])
			continue
		}
		// A space keeps the tokens on either side apart.
		if len(out) > 0 && out[len(out)-1] != ' ' && out[len(out)-1] != '(' && j+1 < n && text[j+1] != ' ' && text[j+1] != ')' && !drop[j+1] {
			out = append(out, ' ')
		}
	}
	return string(out)
}

// precededBy reports whether the last byte before j that is not white
// space is one of set.
func precededBy(text []byte, j int, set string) bool {
	for j--; j >= 0 && isSpace(text[j]); j-- {
	}
	return j >= 0 && indexByte(set, text[j])
}

// followedBy reports whether the first byte from j that is not white space
// is one of set.
func followedBy(text []byte, j int, set string) bool {
	for ; j < len(text) && isSpace(text[j]); j++ {
	}
	return j < len(text) && indexByte(set, text[j])
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func indexByte(set string, c byte) bool {
	for i := range len(set) {
		if set[i] == c {
			return true
		}
	}
	return false
}

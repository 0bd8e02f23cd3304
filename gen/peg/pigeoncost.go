package peg

import (
	"fmt"
	"math/bits"
)

// What pigeon v1.3.0 costs to turn a PEG into Go, measured on this
// project's 2-core machine (docs/gen.md has the tables):
//
//   - Its grammar parser reads a group that no ?, * or + follows twice:
//     SuffixedExpr ← PrimaryExpr __ SuffixedOp / PrimaryExpr, without
//     memoization. So every byte costs 2^d, d the number of such groups
//     around it, at about 5 µs each: nested choices ( … / ( … / … ) ) took
//     2.5 s at 12 levels, and groups with labels and predicates, two
//     levels per nesting, 33 s at 8. A PEG of 250 KB from the left
//     recursion of issue 25 had 13 million such units (pigeon ran past 300
//     s).
//   - Every code block (action or predicate) becomes a function whose
//     parameters are the labels of its rule in scope: the Go pigeon writes
//     grows with labels × code blocks per rule, about 11 bytes and 3 µs
//     each (1,000 labelled predicates in one rule: 11 MB of Go, 4.4 s; 4,000:
//     180 MB, 65 s).
//
// Everything else is linear: about 1 µs per byte of flat grammar, 2.4 µs per
// byte of the initializer's Go code. pigeonCost counts both super-linear
// measures in one unit, about 5 µs of pigeon, and Translate refuses a PEG
// past Options.MaxPigeon, naming the rule that costs most.

// ruleCost is one rule's cost to pigeon.
type ruleCost struct {
	name   string
	cost   int // 2^depth summed over bytes, plus labels × code blocks
	depth  int // the deepest nesting of groups no suffix follows
	labels int
	blocks int
}

// pigeonCost returns the cost of a pigeon grammar, in all and per rule:
// its bytes, each weighted by 2 to the number of groups around it that no
// ?, * or + follows, and labels × code blocks per rule. The grammar is
// read as pigeon reads it: // comments, "…" and `…` strings, […] classes,
// and code blocks with nested braces.
func pigeonCost(text []byte) (int, []ruleCost) {
	var rules []ruleCost
	total := 0
	n := len(text)
	i := 0
	lineStart := true
	var cur *ruleCost
	// Pass one matches the parentheses of the whole text and marks the
	// groups a suffix follows; pass two weighs every byte.
	unsuffixed := make([]bool, n) // at an opening parenthesis: no suffix follows its group
	closing := make([]int, n)     // at an opening parenthesis: where its group closes
	var stack []int
	skip := func(j int) int { return skipPEG(text, j) }
	for j := 0; j < n; {
		if k := skip(j); k != j {
			j = k
			continue
		}
		switch text[j] {
		case '(':
			stack = append(stack, j)
		case ')':
			if len(stack) > 0 {
				o := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				closing[o] = j
				k := j + 1
				for k < n && (text[k] == ' ' || text[k] == '\t') {
					k++
				}
				unsuffixed[o] = k >= n || text[k] != '?' && text[k] != '*' && text[k] != '+'
			}
		}
		j++
	}
	// weight(d) saturates: a cost past 2^40 is past any limit.
	weight := func(d int) int { return 1 << min(d, 40) }
	var open []int // closing positions of the unsuffixed groups around
	flush := func() {
		if cur != nil {
			cur.cost += cur.labels * cur.blocks
			total += cur.cost
			rules = append(rules, *cur)
			cur = nil
		}
	}
	for i < n {
		for len(open) > 0 && i > open[len(open)-1] {
			open = open[:len(open)-1]
		}
		c := text[i]
		if lineStart && isIdentStart(c) {
			// A rule begins at a line's start: Name "display"? <-
			j := i
			for j < n && isIdentPart(text[j]) {
				j++
			}
			k := j
			for k < n && text[k] == ' ' {
				k++
			}
			if k < n && text[k] == '"' {
				k = skip(k)
				for k < n && text[k] == ' ' {
					k++
				}
			}
			if k+1 < n && text[k] == '<' && text[k+1] == '-' {
				flush()
				cur = &ruleCost{name: string(text[i:j])}
				open = open[:0]
				total += k + 2 - i
				cur.cost += k + 2 - i
				i = k + 2
				lineStart = false
				continue
			}
		}
		lineStart = c == '\n'
		w := weight(len(open))
		if k := skip(i); k != i {
			if c == '{' && cur != nil {
				cur.blocks++
			}
			if c == '/' { // a comment: free
				i = k
				continue
			}
			if cur != nil {
				cur.cost += w * (k - i)
			} else {
				total += k - i // the initializer, read once
			}
			i = k
			continue
		}
		switch {
		case c == '(' && unsuffixed[i]:
			open = append(open, closing[i])
			if cur != nil {
				cur.depth = max(cur.depth, len(open))
			}
		case c == ':' && cur != nil && i > 0 && isIdentPart(text[i-1]):
			cur.labels++
		}
		if cur != nil {
			cur.cost += w
		} else {
			total++
		}
		i++
	}
	flush()
	return total, rules
}

// skipPEG returns the position past the string, class, comment or code
// block at j of a pigeon grammar, or j if none begins there. A code block
// ends at its matching brace, read as pigeon's Code rule reads Go code
// (see skipCode).
func skipPEG(text []byte, j int) int {
	n := len(text)
	switch text[j] {
	case '"', '\'':
		return skipEscaped(text, j, text[j])
	case '`':
		return skipRaw(text, j)
	case '[':
		return skipEscaped(text, j, ']')
	case '/':
		if j+1 < n && text[j+1] == '/' {
			for j < n && text[j] != '\n' {
				j++
			}
			return j
		}
	case '{':
		depth := 0
		for j < n {
			switch c := text[j]; {
			case c == '{':
				depth++
			case c == '}':
				depth--
				if depth == 0 {
					return j + 1
				}
			case c == '"' || c == '`':
				j = skipCode(text, j)
				continue
			case c == '/' && j+1 < n && (text[j+1] == '/' || text[j+1] == '*'):
				j = skipCode(text, j)
				continue
			}
			j++
		}
		return n
	}
	return j
}

// skipCode returns the position past a Go string or comment at j, as
// pigeon's Code rule reads them.
func skipCode(text []byte, j int) int {
	n := len(text)
	switch {
	case text[j] == '"':
		return skipEscaped(text, j, '"')
	case text[j] == '`':
		return skipRaw(text, j)
	case text[j+1] == '/':
		for j < n && text[j] != '\n' {
			j++
		}
		return j
	}
	j += 2 // /*
	for j+1 < n && !(text[j] == '*' && text[j+1] == '/') {
		j++
	}
	return min(j+2, n)
}

// skipEscaped returns the position past the string or class opened at j
// and closed by end, with backslash escapes, which a line's end also closes.
func skipEscaped(text []byte, j int, end byte) int {
	n := len(text)
	for j++; j < n && text[j] != end && text[j] != '\n'; j++ {
		if text[j] == '\\' {
			j++
		}
	}
	return min(j+1, n)
}

// skipRaw returns the position past the raw string opened at j.
func skipRaw(text []byte, j int) int {
	n := len(text)
	for j++; j < n && text[j] != '`'; j++ {
	}
	return min(j+1, n)
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isIdentPart(c byte) bool  { return isIdentStart(c) || c >= '0' && c <= '9' }

// checkPigeon refuses a PEG whose cost to pigeon passes limit, naming the
// rule that costs most and why.
func checkPigeon(text []byte, limit int) error {
	total, rules := pigeonCost(text)
	if total <= limit {
		return nil
	}
	worst := ruleCost{}
	for _, r := range rules {
		if r.cost > worst.cost {
			worst = r
		}
	}
	return &limitError{fmt.Sprintf("%s: the PEG would cost pigeon about %d units (5 µs each: %s), more than the limit of %d (-max-pigeon raises it), in %d rules and %d bytes; its costliest rule, %s, costs %d: groups nested %d deep with no ?, * or + after them (pigeon reads each such group twice: 2^%d), %d labels × %d code blocks",
		worst.name, total, seconds(total), limit, len(rules), len(text), worst.name, worst.cost, worst.depth, worst.depth, worst.labels, worst.blocks)}
}

// seconds formats the pigeon time a cost stands for.
func seconds(cost int) string {
	s := float64(cost) * 5e-6
	if bits.Len(uint(cost)) > 40 {
		return "forever"
	}
	return fmt.Sprintf("%.1f s", s)
}

package abnf

import (
	"fmt"
	"strconv"
	"strings"
)

// Format prints the grammar in canonical form: one rule per definition with
// "=/" alternatives merged, core rules only if the sources defined them,
// minimal parentheses, options as [x], quoted strings without a redundant %i,
// numeric values in upper-case hex unless written in another base. Reading
// the output gives a grammar [Equal] to g.
func Format(g *Grammar) []byte {
	var b strings.Builder
	width := 0
	for _, r := range g.Rules {
		if !r.Core && len(r.Name) > width {
			width = len(r.Name)
		}
	}
	for _, r := range g.Rules {
		if r.Core {
			continue
		}
		fmt.Fprintf(&b, "%-*s = ", width, r.Name)
		if a, ok := r.Expr.(*Alt); ok && len(String(r.Expr)) > 72-width {
			for i, x := range a.Alts {
				if i > 0 {
					fmt.Fprintf(&b, "\n%*s / ", width, "")
				}
				b.WriteString(format(x, precAlt+1))
			}
		} else {
			b.WriteString(String(r.Expr))
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// String formats one expression in canonical form.
func String(n Node) string { return format(n, precAlt) }

// Precedence, loosest first (RFC 5234 §3.10).
const (
	precAlt = iota
	precConcat
	precRepeat
	precElement
)

func format(n Node, ctx int) string {
	var s string
	var prec int
	switch n := n.(type) {
	case *Alt:
		parts := make([]string, len(n.Alts))
		for i, a := range n.Alts {
			parts[i] = format(a, precAlt+1)
		}
		s, prec = strings.Join(parts, " / "), precAlt
	case *Concat:
		parts := make([]string, len(n.Items))
		for i, a := range n.Items {
			parts[i] = format(a, precConcat+1)
		}
		s, prec = strings.Join(parts, " "), precConcat
	case *Repeat:
		if n.Min == 0 && n.Max == 1 {
			return "[" + format(n.Body, precAlt) + "]"
		}
		var rep string
		switch {
		case n.Min == n.Max:
			rep = strconv.Itoa(n.Min)
		default:
			if n.Min > 0 {
				rep = strconv.Itoa(n.Min)
			}
			rep += "*"
			if n.Max != Inf {
				rep += strconv.Itoa(n.Max)
			}
		}
		// A repeated repetition needs parentheses: "2*3x" is one repeat.
		s, prec = rep+format(n.Body, precElement), precRepeat
	case *RuleRef:
		return n.Name
	case *CharVal:
		if n.Sensitive {
			return `%s"` + n.Text + `"`
		}
		return `"` + n.Text + `"`
	case *NumVal:
		return formatNum(n)
	case *Prose:
		return "<" + n.Text + ">"
	default:
		panic(fmt.Sprintf("abnf: unknown node %T", n))
	}
	if prec < ctx {
		return "(" + s + ")"
	}
	return s
}

func formatNum(n *NumVal) string {
	digits := func(v rune) string {
		switch n.Base {
		case 'b':
			return strconv.FormatInt(int64(v), 2)
		case 'd':
			return strconv.FormatInt(int64(v), 10)
		}
		s := strings.ToUpper(strconv.FormatInt(int64(v), 16))
		if len(s) == 1 {
			s = "0" + s
		}
		return s
	}
	base := n.Base
	if base == 0 {
		base = 'x'
	}
	parts := make([]string, len(n.Vals))
	for i, v := range n.Vals {
		parts[i] = digits(v)
	}
	sep := "."
	if n.Range {
		sep = "-"
	}
	return "%" + string(base) + strings.Join(parts, sep)
}

// Equal reports whether two grammars have the same rules (names compared
// case-insensitively, core rules included) with structurally equal
// expressions. Positions, spelling of names and source text do not count,
// nor does the base a numeric value was written in.
func Equal(a, b *Grammar) bool {
	if len(a.Rules) != len(b.Rules) {
		return false
	}
	for _, ra := range a.Rules {
		rb := b.Rule(ra.Name)
		if rb == nil || !EqualNode(ra.Expr, rb.Expr) {
			return false
		}
	}
	return true
}

// EqualNode reports whether two expressions are structurally equal.
func EqualNode(x, y Node) bool {
	switch x := x.(type) {
	case *Alt:
		y, ok := y.(*Alt)
		if !ok || len(x.Alts) != len(y.Alts) {
			return false
		}
		for i := range x.Alts {
			if !EqualNode(x.Alts[i], y.Alts[i]) {
				return false
			}
		}
		return true
	case *Concat:
		y, ok := y.(*Concat)
		if !ok || len(x.Items) != len(y.Items) {
			return false
		}
		for i := range x.Items {
			if !EqualNode(x.Items[i], y.Items[i]) {
				return false
			}
		}
		return true
	case *Repeat:
		y, ok := y.(*Repeat)
		return ok && x.Min == y.Min && x.Max == y.Max && EqualNode(x.Body, y.Body)
	case *RuleRef:
		y, ok := y.(*RuleRef)
		return ok && strings.EqualFold(x.Name, y.Name)
	case *CharVal:
		y, ok := y.(*CharVal)
		if !ok || x.Sensitive != y.Sensitive {
			return false
		}
		if x.Sensitive {
			return x.Text == y.Text
		}
		return strings.EqualFold(x.Text, y.Text)
	case *NumVal:
		y, ok := y.(*NumVal)
		if !ok || x.Range != y.Range || len(x.Vals) != len(y.Vals) {
			return false
		}
		for i := range x.Vals {
			if x.Vals[i] != y.Vals[i] {
				return false
			}
		}
		return true
	case *Prose:
		y, ok := y.(*Prose)
		return ok && x.Text == y.Text
	}
	return false
}

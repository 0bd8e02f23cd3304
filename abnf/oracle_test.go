package abnf_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode/utf8"

	"github.com/peguri/rfc3986/abnf"
)

// fixpointMatch is a second, independent reference: the least fixpoint of
// "rule R matches input[i:j]" over every rule and span, computed by
// iterating the rules' meanings until nothing changes. It is the textbook
// meaning of a context-free grammar, so it holds for left recursion too, but
// it costs O(rules · n² · n) per round and serves only tiny inputs.
func fixpointMatch(g *abnf.Grammar, rule string, in []byte) bool {
	// Character boundaries: spans start and end only there.
	var cuts []int
	for i := 0; i < len(in); {
		cuts = append(cuts, i)
		_, w := utf8.DecodeRune(in[i:])
		if g.Octets {
			w = 1
		}
		i += w
	}
	cuts = append(cuts, len(in))
	n := len(cuts)
	idx := map[string]int{}
	for i, r := range g.Rules {
		idx[strings.ToLower(r.Name)] = i
	}
	if n > 64 {
		panic("fixpointMatch takes at most 63 characters")
	}
	tab := make([][]uint64, len(g.Rules)) // rule → start cut → set of end cuts
	for i := range tab {
		tab[i] = make([]uint64, n)
	}
	char := func(i int) (rune, bool) { // character at cut i, if valid
		if g.Octets {
			return rune(in[cuts[i]]), true
		}
		c, w := utf8.DecodeRune(in[cuts[i]:])
		return c, !(c == utf8.RuneError && w <= 1)
	}
	var ends func(nd abnf.Node, i int) uint64
	step := func(nd abnf.Node, from uint64) uint64 {
		var to uint64
		for p := 0; p < n; p++ {
			if from&(1<<p) != 0 {
				to |= ends(nd, p)
			}
		}
		return to
	}
	// ends returns the set of cuts where a match of nd from cut i can end.
	ends = func(nd abnf.Node, i int) uint64 {
		switch nd := nd.(type) {
		case *abnf.Alt:
			var e uint64
			for _, x := range nd.Alts {
				e |= ends(x, i)
			}
			return e
		case *abnf.Concat:
			e := uint64(1) << i
			for _, x := range nd.Items {
				e = step(x, e)
			}
			return e
		case *abnf.Repeat:
			set, out := uint64(1)<<i, uint64(0)
			for k := 0; ; k++ {
				if k >= nd.Min {
					out |= set
				}
				if nd.Max != abnf.Inf && k >= nd.Max || set == 0 {
					return out
				}
				next := step(nd.Body, set)
				if next == set { // the same from here on
					if nd.Max == abnf.Inf || nd.Max >= nd.Min {
						out |= set
					}
					return out
				}
				set = next
			}
		case *abnf.RuleRef:
			return tab[idx[strings.ToLower(nd.Name)]][i]
		case *abnf.CharVal:
			j := i + len(nd.Text)
			if j >= n || cuts[j]-cuts[i] != len(nd.Text) {
				return 0
			}
			for k := 0; k < len(nd.Text); k++ {
				a, b := nd.Text[k], in[cuts[i]+k]
				if !nd.Sensitive && 'A' <= a && a <= 'Z' {
					a += 'a' - 'A'
				}
				if !nd.Sensitive && 'A' <= b && b <= 'Z' {
					b += 'a' - 'A'
				}
				if a != b {
					return 0
				}
			}
			return 1 << j
		case *abnf.NumVal:
			if nd.Range {
				if c, ok := char(i); i+1 < n && ok && nd.Vals[0] <= c && c <= nd.Vals[1] {
					return 1 << (i + 1)
				}
				return 0
			}
			if i+len(nd.Vals) >= n {
				return 0
			}
			for k, v := range nd.Vals {
				if c, ok := char(i + k); !ok || c != v {
					return 0
				}
			}
			return 1 << (i + len(nd.Vals))
		}
		return 0
	}
	for changed := true; changed; {
		changed = false
		for ri, r := range g.Rules {
			for i := 0; i < n; i++ {
				if e := ends(r.Expr, i) | tab[ri][i]; e != tab[ri][i] {
					tab[ri][i], changed = e, true
				}
			}
		}
	}
	ri, ok := idx[strings.ToLower(rule)]
	return ok && tab[ri][0]&(1<<(n-1)) != 0
}

// randGrammar writes a random grammar of a few rules over the letters a, b
// and c, with every construct of RFC 5234: strings (case-insensitive and
// not), values and ranges, alternation, concatenation, groups, options,
// every kind of repetition (nullable bodies included) and references, which
// may make the rules recursive, left-recursive included unless noLeft.
func randGrammar(rng *rand.Rand, nrules int) string {
	var b strings.Builder
	var expr func(d int) string
	atom := func(d int) string {
		switch rng.IntN(9) {
		case 0:
			return `"a"`
		case 1:
			return []string{`"ab"`, `"B"`, `%s"a"`, `""`, `"ca"`}[rng.IntN(5)]
		case 2:
			return []string{`%x61-62`, `%x63`, `%x61.62`, `%d98`}[rng.IntN(4)]
		case 3, 4:
			return fmt.Sprintf("r%d", rng.IntN(nrules))
		case 5:
			return "(" + expr(d+1) + ")"
		case 6:
			return "[" + expr(d+1) + "]"
		}
		return `"` + string(rune('a'+rng.IntN(3))) + `"`
	}
	expr = func(d int) string {
		if d > 3 {
			return atom(9)
		}
		var alts []string
		for range 1 + rng.IntN(3) {
			var items []string
			for range 1 + rng.IntN(3) {
				rep := []string{"", "", "", "*", "1*", "2*3", "2", "*2", "0", "3*", "0*1"}[rng.IntN(11)]
				a := atom(d)
				if rep != "" && a[0] != '(' && a[0] != '[' && rng.IntN(2) == 0 {
					a = "(" + a + ")"
				}
				items = append(items, rep+a)
			}
			alts = append(alts, strings.Join(items, " "))
		}
		return strings.Join(alts, " / ")
	}
	for i := range nrules {
		fmt.Fprintf(&b, "r%d = %s\n", i, expr(0))
	}
	return b.String()
}

// allStrings returns every string over alphabet of length at most n.
func allStrings(alphabet string, n int) [][]byte {
	out := [][]byte{{}}
	last := [][]byte{{}}
	for range n {
		var next [][]byte
		for _, s := range last {
			for i := 0; i < len(alphabet); i++ {
				next = append(next, append(append([]byte{}, s...), alphabet[i]))
			}
		}
		out = append(out, next...)
		last = next
	}
	return out
}

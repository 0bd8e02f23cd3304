package peg

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/peguri/rfc3986/gen/abnf"
	"github.com/peguri/rfc3986/gen/ir"
)

// Report lists what the translation did and why: the shape rewrites of
// lowering, every guard and reordering with the input that made it
// necessary, every choice whose order matters, and what could not be proven.
type Report struct {
	Header   string
	Lowering []ir.Rewrite
	Items    []*Item
	Warnings []string
	Starts   []StartInfo
	Rules    int // PEG rules emitted, entries and guards excluded
	Variants int // of those, translations beyond a rule's first
	Guards   int // exact guards (each a minimal DFA)

	byKey   map[string]*Item
	checked map[*ir.Alt]bool
}

// Item is one decision of the translator.
type Item struct {
	Rule    string
	Pos     abnf.Pos
	Kind    string // reorder, guard, exact-guard, order, unproven
	Msg     string
	Example string // the input that made it necessary, in the first context found
	Count   int    // occurrences (contexts) it applies to
}

// StartInfo describes one start rule.
type StartInfo struct {
	Rule, Entry, Mode string
}

func (r *Report) add(rule string, pos abnf.Pos, kind, format string, args ...any) {
	r.addExample(rule, pos, kind, "", format, args...)
}

// addExample records an item; items that differ only by their example are
// one item.
func (r *Report) addExample(rule string, pos abnf.Pos, kind, example, format string, args ...any) {
	if r.byKey == nil {
		r.byKey = map[string]*Item{}
	}
	msg := fmt.Sprintf(format, args...)
	k := rule + "\x00" + pos.String() + "\x00" + kind + "\x00" + msg
	if it, ok := r.byKey[k]; ok {
		it.Count++
		return
	}
	it := &Item{Rule: rule, Pos: pos, Kind: kind, Msg: msg, Example: example, Count: 1}
	r.byKey[k] = it
	r.Items = append(r.Items, it)
}

func (r *Report) warn(format string, args ...any) {
	r.Warnings = append(r.Warnings, fmt.Sprintf(format, args...))
}

func clip(s string) string {
	if len(s) > 70 {
		return s[:67] + "..."
	}
	return s
}

// decision records a guard; alt is the alternative's index, -1 for a
// repetition's body.
func (r *Report) decision(o *occ, alt int, g guard) {
	if g.kind == guardNone {
		return
	}
	what := ""
	var reason string
	if alt < 0 {
		x := o.x.(*ir.Rep)
		what = fmt.Sprintf("the body of %s", clip(ir.Format(x)))
		reason = "without it, the body can match and the PEG repetition take it, though only leaving lets the rest match"
	} else {
		what = fmt.Sprintf("alternative %d (%s)", alt+1, clip(ir.Format(o.kids[alt].x)))
		reason = "without it, the alternative can match a prefix and the choice commit, though a later alternative matches"
	}
	if g.gaveUp {
		reason = "the search for a counterexample gave up, so exactness is not proven without it"
	}
	switch g.kind {
	case guardFirst:
		r.addExample(o.owner.Name, srcPos(o), "guard", g.why, "after %s: %s; %s", what, g.text(), reason)
	case guardExact:
		r.addExample(o.owner.Name, srcPos(o), "exact-guard", g.why, "after %s: %s (the exact continuation); a one-character guard is not enough: %s", what, g.text(), reason)
	case guardUnproven:
		r.addExample(o.owner.Name, srcPos(o), "unproven", g.why, "after %s: no guard is proven sufficient against the over-approximated context (recursive grammar): %s", what, reason)
	}
}

func (r *Report) reorder(o *occ, order []int) {
	x := o.x.(*ir.Alt)
	parts := make([]string, len(order))
	for p, i := range order {
		parts[p] = clip(ir.Format(x.Alts[i]))
	}
	r.add(o.owner.Name, srcPos(o), "reorder",
		"alternatives reordered to %s: a string of a later alternative had a proper prefix in an earlier one, so the earlier would commit; they are disjoint in context, so the order does not change which alternative an input belongs to",
		strings.Join(parts, " / "))
}

// orderMatters records, once per ABNF choice, whether its order matters:
// alternatives that overlap (the document order decides which one an input
// is attributed to, as RFC 3986 §3.2.2 does for host), and choices that a
// reversed order would break.
func (r *Report) orderMatters(u *unit, o *occ, d *decision) {
	n := u.n
	x := o.x.(*ir.Alt)
	if r.checked == nil {
		r.checked = map[*ir.Alt]bool{}
	}
	if r.checked[x] || x.Src == nil {
		return
	}
	r.checked[x] = true
	k := len(o.kids)
	for i := range k {
		for j := i + 1; j < k; j++ {
			if ex, ok := overlap(n, []int32{o.kids[i].f.start}, []int32{o.kids[j].f.start}); ok {
				r.addExample(o.owner.Name, srcPos(o), "order", ex,
					"alternatives %d (%s) and %d (%s) overlap in context: the first in document order is the one matched",
					i+1, clip(ir.Format(x.Alts[i])), j+1, clip(ir.Format(x.Alts[j])))
			}
		}
	}
	rev := slices.Clone(d.order)
	slices.Reverse(rev)
	for p := 0; p < k-1; p++ {
		var rest []int32
		for _, j := range rev[p+1:] {
			rest = append(rest, o.kids[j].f.start)
		}
		cex, found, gave := check(n, o.kids[rev[p]].f, rest, guardSpec{}, u.approx)
		if found || gave {
			r.addExample(o.owner.Name, srcPos(o), "order", cex,
				"order-sensitive: in reverse order, alternative %d (%s) would commit wrongly",
				rev[p]+1, clip(ir.Format(x.Alts[rev[p]])))
			return
		}
	}
}

func (r *Report) finish(t *translator) {
	for _, p := range t.rules {
		r.Rules++
		if p.variant > 1 {
			r.Variants++
		}
	}
	r.Guards = len(t.gorder)
	for _, e := range t.entry {
		mode := "regular: every decision checked in its exact context"
		if t.reaches[e.rule] {
			mode = "recursive: decisions checked against over-approximated contexts"
		}
		r.Starts = append(r.Starts, StartInfo{Rule: e.rule.Name, Entry: e.ident, Mode: mode})
	}
	sort.SliceStable(r.Items, func(i, j int) bool {
		a, b := r.Items[i], r.Items[j]
		if a.Pos.File != b.Pos.File {
			return a.Pos.File < b.Pos.File
		}
		return a.Pos.Offset < b.Pos.Offset
	})
	for _, it := range r.Items {
		if it.Kind == "unproven" {
			r.Warnings = append(r.Warnings, fmt.Sprintf("%s: %s: not proven exact: %s (e.g. on input %q)", it.Pos, it.Rule, it.Msg, it.Example))
		}
	}
}

// WriteTo prints the report for people.
func (r *Report) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	if r.Header != "" {
		fmt.Fprintf(&b, "%s\n\n", r.Header)
	}
	fmt.Fprintf(&b, "start rules: %d\n", len(r.Starts))
	for _, s := range r.Starts {
		fmt.Fprintf(&b, "  %-16s entry %-20s %s\n", s.Rule, s.Entry, s.Mode)
	}
	fmt.Fprintf(&b, "PEG rules: %d (%d extra variants for contexts needing other guards), exact guards: %d\n", r.Rules, r.Variants, r.Guards)
	section := func(title string, kinds ...string) {
		var lines []string
		for _, it := range r.Items {
			for _, k := range kinds {
				if it.Kind == k {
					n := ""
					if it.Kind != "reorder" {
						n = fmt.Sprintf(" (e.g. on input %q)", it.Example)
					}
					if it.Count > 1 {
						n += fmt.Sprintf(" [%d contexts]", it.Count)
					}
					lines = append(lines, fmt.Sprintf("  %s: %s: %s: %s%s", it.Pos, it.Rule, it.Kind, it.Msg, n))
				}
			}
		}
		fmt.Fprintf(&b, "\n%s (%d)\n", title, len(lines))
		for _, l := range lines {
			b.WriteString(l + "\n")
		}
	}
	fmt.Fprintf(&b, "\nrewrites of shape (%d)\n", len(r.Lowering))
	for _, rw := range r.Lowering {
		fmt.Fprintf(&b, "  %s: %s: %s: %s\n", rw.Pos, rw.Rule, rw.Kind, rw.Msg)
	}
	section("reorderings and guards", "reorder", "guard", "exact-guard", "unproven")
	section("choices whose order matters", "order")
	fmt.Fprintf(&b, "\nwarnings (%d)\n", len(r.Warnings))
	for _, w := range r.Warnings {
		b.WriteString("  " + w + "\n")
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

package peg

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/internal/ir"
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
	// Decisions (choice alternatives and repetition bodies, counted once per
	// ABNF position and kind): exact as emitted, made exact by a guard or a
	// reordering, or settled by the exact recognizer at parse time.
	Proven, Guarded, Fallbacks int
	// GuardLimited counts the fallbacks whose context is a regular
	// language, settled at parse time only because its exact guard would
	// pass Options.MaxGuard (gen peg -max-guard): a larger limit proves
	// them, for a larger PEG. A regular grammar has no other fallbacks.
	GuardLimited int
	// Work is the search steps spent checking decisions (bounded by
	// Options.InlineWork per inlined start rule and Options.TotalWork in
	// all).
	Work int

	byKey   map[string]*Item
	checked map[*ir.Alt]bool
}

// Item is one decision of the translator.
type Item struct {
	Rule string
	Pos  abnf.Pos
	Kind string // proven, guard, exact-guard, fallback, reorder, order
	// Witness is, for a fallback, an input of the start rule Start that the
	// grammar matches and the PEG without this decision's fallback rejects
	// (found by sampling, confirmed by the ABNF matcher); empty if none was
	// found.
	Witness, Start string
	Msg            string
	Example        string // the input that made it necessary, in the first context found
	Count          int    // occurrences (contexts) it applies to
	// GuardLimited: a fallback only because the exact guard would pass
	// Options.MaxGuard (see Report.GuardLimited).
	GuardLimited bool
	id           int // its number, before sorting
}

// StartInfo describes one start rule.
type StartInfo struct {
	Rule, Entry, Mode string
}

func (r *Report) add(rule string, pos abnf.Pos, kind, format string, args ...any) int {
	return r.addExample(rule, pos, kind, "", format, args...)
}

// addExample records an item and returns its number; items that differ
// only by their example are one item.
func (r *Report) addExample(rule string, pos abnf.Pos, kind, example, format string, args ...any) int {
	return r.addItem(rule, pos, kind, example, format, args...).id
}

// addItem is addExample, returning the item itself.
func (r *Report) addItem(rule string, pos abnf.Pos, kind, example, format string, args ...any) *Item {
	if r.byKey == nil {
		r.byKey = map[string]*Item{}
	}
	msg := fmt.Sprintf(format, args...)
	k := rule + "\x00" + pos.String() + "\x00" + kind + "\x00" + msg
	if it, ok := r.byKey[k]; ok {
		it.Count++
		return it
	}
	it := &Item{Rule: rule, Pos: pos, Kind: kind, Msg: msg, Example: example, Count: 1, id: len(r.Items)}
	r.byKey[k] = it
	r.Items = append(r.Items, it)
	return it
}

// itemByID returns the item numbered id, or nil.
func (r *Report) itemByID(id int) *Item {
	for _, it := range r.Items {
		if it.id == id {
			return it
		}
	}
	return nil
}

func (r *Report) warn(format string, args ...any) {
	r.Warnings = append(r.Warnings, fmt.Sprintf(format, args...))
}

// decision records a guard; alt is the alternative's index, -1 for a
// repetition's body.
func (r *Report) decision(o *occ, alt int, g guard) int {
	what := ""
	var reason string
	if alt < 0 {
		x := o.x.(*ir.Rep)
		what = fmt.Sprintf("the body of %s", ir.Short(x, 70))
		reason = "without it, the body can match and the PEG repetition take it, though only leaving lets the rest match"
	} else {
		what = fmt.Sprintf("alternative %d (%s)", alt+1, ir.Short(o.kids[alt].x, 70))
		reason = "without it, the alternative can match a prefix and the choice commit, though a later alternative matches"
	}
	if g.gaveUp {
		reason = "the search for a counterexample gave up, so exactness is not proven without it"
	}
	switch g.kind {
	case guardFirst:
		return r.addExample(o.owner.Name, srcPos(o), "guard", g.why, "after %s: %s; %s", what, g.text(), reason)
	case guardExact:
		return r.addExample(o.owner.Name, srcPos(o), "exact-guard", g.why, "after %s: %s (the exact continuation); a one-character guard is not enough: %s", what, g.text(), reason)
	case guardFallback:
		if g.tooBig {
			it := r.addItem(o.owner.Name, srcPos(o), "fallback", g.why, "after %s: the exact guard (what may follow, a regular language, as a minimal DFA) would pass the limit on guard states (-max-guard), so the exact recognizer decides at parse time; a larger -max-guard proves it, for a larger PEG", what)
			it.GuardLimited = true
			return it.id
		}
		switch {
		case g.cheap:
			return r.addExample(o.owner.Name, srcPos(o), "fallback", g.why, "after %s: checking the rule's decisions passed the work budget (-inline-work, -total-work), and the cheap test (disjoint first characters) does not prove this one, so the exact recognizer decides at parse time", what)
		case g.modular:
			return r.addExample(o.owner.Name, srcPos(o), "fallback", g.why, "after %s: no guard is proven exact in the rule-by-rule translation (the start rule passed -max-states or -inline-work: what a referenced rule matches and what may follow the rule are approximated), so the exact recognizer decides at parse time; larger limits may prove it", what)
		}
		return r.addExample(o.owner.Name, srcPos(o), "fallback", g.why, "after %s: no guard is proven exact (what may follow is not known to be a regular language: recursion is approximated there), so the exact recognizer decides at parse time", what)
	}
	return r.add(o.owner.Name, srcPos(o), "proven", "%s: exact as emitted", what)
}

func (r *Report) reorder(o *occ, order []int) {
	x := o.x.(*ir.Alt)
	parts := make([]string, len(order))
	for p, i := range order {
		parts[p] = ir.Short(x.Alts[i], 70)
	}
	r.add(o.owner.Name, srcPos(o), "reorder",
		"alternatives reordered to %s: a string of a later alternative had a proper prefix in an earlier one, so the earlier would commit; they are disjoint in context, so the order does not change which alternative an input belongs to",
		strings.Join(parts, " / "))
}

// lockstepMin is the number of alternatives from which orderMatters
// searches the overlaps of all pairs at once (a variable for the test that
// compares the two searches).
var lockstepMin = 9

// orderMatters records, once per ABNF choice, whether its order matters:
// alternatives that overlap (the document order decides which one an input
// is attributed to, as RFC 3986 §3.2.2 does for host), and choices that a
// reversed order would break.
func (r *Report) orderMatters(u *unit, o *occ, d *decision) {
	x := o.x.(*ir.Alt)
	if r.checked == nil {
		r.checked = map[*ir.Alt]bool{}
	}
	if r.checked[x] || x.Src == nil {
		return
	}
	r.checked[x] = true
	k := len(o.kids)
	starts := make([]int32, k)
	for i := range k {
		starts[i] = o.kids[i].f.start
	}
	// Few alternatives: one search per pair, each stopping at its first
	// overlap; many: one search for all (overlaps).
	found, unsettled := map[[2]int]string{}, [][2]int(nil)
	if k < lockstepMin {
		for i := range k {
			for j := i + 1; j < k; j++ {
				unsettled = append(unsettled, [2]int{i, j})
			}
		}
	} else {
		found, unsettled = overlaps(u, starts)
	}
	for _, pr := range unsettled {
		if ex, ok := overlap(u, []int32{starts[pr[0]]}, []int32{starts[pr[1]]}); ok {
			found[pr] = ex
		}
	}
	for i := range k {
		for j := i + 1; j < k; j++ {
			if ex, ok := found[[2]int{i, j}]; ok {
				r.addExample(o.owner.Name, srcPos(o), "order", ex,
					"alternatives %d (%s) and %d (%s) overlap in context: the first in document order is the one matched",
					i+1, ir.Short(x.Alts[i], 70), j+1, ir.Short(x.Alts[j], 70))
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
		cex, found, gave := check(u, o.kids[rev[p]].f, rest, guardSpec{})
		if found || gave {
			r.addExample(o.owner.Name, srcPos(o), "order", cex,
				"order-sensitive: in reverse order, alternative %d (%s) would commit wrongly",
				rev[p]+1, ir.Short(x.Alts[rev[p]], 70))
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
		mode := "inlined: every decision checked in its own context"
		switch k := t.reach[e.rule]; {
		case k&reachesApprox != 0:
			mode = "inlined, self-embedding recursion: decisions below it checked against a regular over-approximation"
		case k&reachesRecursion != 0:
			mode = "inlined, regular recursion: every decision checked in its own context"
		}
		if t.modular[e.rule] {
			mode = "modular: every rule translated once, for the union of its contexts"
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
		switch it.Kind {
		case "proven":
			r.Proven++
		case "guard", "exact-guard":
			r.Guarded++
		case "fallback":
			r.Fallbacks++
			if it.GuardLimited {
				r.GuardLimited++
			}
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
	fmt.Fprintf(&b, "decisions: %d proven, %d guarded, %d by fallback to the exact recognizer", r.Proven, r.Guarded, r.Fallbacks)
	if r.GuardLimited > 0 {
		fmt.Fprintf(&b, " (%d of them only because an exact guard would pass -max-guard)", r.GuardLimited)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "search steps spent checking them: %d\n", r.Work)
	section := func(title string, kinds ...string) {
		var lines []string
		for _, it := range r.Items {
			for _, k := range kinds {
				if it.Kind == k {
					n := ""
					switch {
					case it.Kind == "fallback" && it.Witness != "":
						n = fmt.Sprintf(" (witness, an input of %s the PEG without it rejects: %q)", it.Start, it.Witness)
					case it.Kind == "fallback":
						n = " (no witness found by sampling: the over-approximation may be what failed)"
					case it.Kind != "reorder" && it.Kind != "proven":
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
	section("decisions, each proven (exact as emitted), guarded, or settled by fallback", "proven", "guard", "exact-guard", "fallback")
	section("reorderings", "reorder")
	section("choices whose order matters", "order")
	fmt.Fprintf(&b, "\nwarnings (%d)\n", len(r.Warnings))
	for _, w := range r.Warnings {
		b.WriteString("  " + w + "\n")
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

package peg

import (
	"strconv"
	"strings"

	"github.com/peguri/rfc3986/gen/internal/ir"
)

// copyRef returns the PEG identifier of rule r in copy cp of its recursive
// component. A copy's rules are emitted together, once their decisions are
// made: each rule of the component becomes one PEG rule per distinct
// translation of the whole component, so that a recursive reference always
// lands in the translation made for the same context.
func (t *translator) copyRef(cp *sccCopy, r *ir.Rule) string {
	if cp.naming {
		// Inside the copy being named: a placeholder, replaced once the
		// translation's names are known.
		return placeholder(cp.comp, r)
	}
	if cp.names == nil {
		t.nameCopy(cp)
	}
	return cp.names[r]
}

func placeholder(c *ir.Component, r *ir.Rule) string {
	for i, q := range c.Rules {
		if q == r {
			return "\x00" + strconv.Itoa(i) + "\x00"
		}
	}
	panic("peg: rule outside its component")
}

// nameCopy emits the rules of copy cp, reusing an earlier copy's rules when
// its translation is the same.
func (t *translator) nameCopy(cp *sccCopy) {
	cp.naming = true
	bodies := make([]string, len(cp.comp.Rules))
	for i := range cp.comp.Rules {
		bodies[i] = t.text(cp.bodies[i])
	}
	cp.naming = false
	sig := strings.Join(bodies, "\x01")
	if t.copies == nil {
		t.copies = map[*ir.Component]map[string]map[*ir.Rule]string{}
	}
	bySig := t.copies[cp.comp]
	if bySig == nil {
		bySig = map[string]map[*ir.Rule]string{}
		t.copies[cp.comp] = bySig
	}
	if names, ok := bySig[sig]; ok {
		cp.names = names
		return
	}
	names := map[*ir.Rule]string{}
	variants := map[*ir.Rule]int{}
	for _, r := range cp.comp.Rules {
		names[r], variants[r] = t.variantIdent(r)
	}
	mode := "recursive rule, right-recursive: its component is regular, and every decision is checked exactly"
	if cp.comp.SelfEmbedding || cp.comp.Left {
		mode = "recursive rule, self-embedding: decisions checked against a regular over-approximation of its component (Mohri–Nederhof)"
	}
	for i, r := range cp.comp.Rules {
		body := bodies[i]
		for j, q := range cp.comp.Rules {
			body = strings.ReplaceAll(body, "\x00"+strconv.Itoa(j)+"\x00", names[q])
		}
		t.rules = append(t.rules, &pegRule{ident: names[r], rule: r, body: body, variant: variants[r], mode: mode})
	}
	bySig[sig] = names
	cp.names = names
}

// variantIdent allocates the identifier of a new translation of r: its
// base identifier the first time, numbered variants after.
func (t *translator) variantIdent(r *ir.Rule) (string, int) {
	// Every caller adds the translation to t.rules: count them by rule
	// (a scan of t.rules was quadratic in a grammar of 20,000 rules).
	if t.variants == nil {
		t.variants = map[*ir.Rule]int{}
	}
	t.variants[r]++
	variant := t.variants[r]
	base := t.base[r]
	if r.NonEmpty != nil {
		return t.alloc(base + "_nonempty"), variant
	}
	if variant == 1 {
		return base, 1 // reserved in t.used from the start
	}
	return t.alloc(base), variant
}

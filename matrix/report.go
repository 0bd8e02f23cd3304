package matrix

import (
	"fmt"
	"io"
	"strings"
)

// Report writes the results as Markdown: a table per section of the suite
// and per rule of Appendix A, then every mismatch of each implementation,
// with its input, the RFC's answer and the implementation's. header is
// written first (what generated the page, with which versions).
func Report(w io.Writer, header string, s *Suite, results []*Result) error {
	var b strings.Builder
	b.WriteString(header)
	cell := cellOf
	row := func(cells ...string) { b.WriteString("| " + strings.Join(cells, " | ") + " |\n") }
	names := []string{"section", "cases"}
	seps := []string{"---", "---:"}
	for _, r := range results {
		names = append(names, "`"+r.Name+"`")
		seps = append(seps, "---:")
	}
	b.WriteString("\n## By section of the suite\n\nEach cell is the cases answered as the RFC answers them, of those the implementation answers; \"n/a\" are questions it has no way to answer (no API for them).\n\n")
	b.WriteString(Summary(s, results))
	b.WriteString("\n## Validity, by rule of Appendix A\n\n")
	names[0] = "rule"
	row(names...)
	row(seps...)
	ruleCount := map[string]int{}
	var rules []string
	for _, c := range s.Validity {
		if ruleCount[c.Rule] == 0 {
			rules = append(rules, c.Rule)
		}
		ruleCount[c.Rule]++
	}
	for _, rule := range rules {
		cells := []string{"`" + rule + "`", fmt.Sprint(ruleCount[rule])}
		for _, r := range results {
			cells = append(cells, cell(r.Rules[rule]))
		}
		row(cells...)
	}
	b.WriteString("\n## Mismatches\n\nEvery case an implementation answers otherwise than the RFC: the case's id in the suite, its input, the RFC's answer, the implementation's.\n")
	for _, r := range results {
		total := 0
		for _, m := range r.Mismatches {
			total += len(m)
		}
		fmt.Fprintf(&b, "\n### `%s`: %d mismatches\n", r.Name, total)
		if total == 0 {
			b.WriteString("\nNone.\n")
			continue
		}
		for _, sec := range Sections {
			ms := r.Mismatches[sec]
			if len(ms) == 0 {
				continue
			}
			fmt.Fprintf(&b, "\n<details><summary><code>%s</code>: %d</summary>\n\n", sec, len(ms))
			row("case", "input", "RFC 3986", "`"+r.Name+"`")
			row("---", "---", "---", "---")
			for _, m := range ms {
				row(code(m.ID), code(m.Input), code(m.RFC), code(m.Got))
			}
			b.WriteString("\n</details>\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Summary is the table of results by section of the suite, in Markdown:
// the table the repository's README shows.
func Summary(s *Suite, results []*Result) string {
	var b strings.Builder
	row := func(cells ...string) { b.WriteString("| " + strings.Join(cells, " | ") + " |\n") }
	names := []string{"section", "cases"}
	seps := []string{"---", "---:"}
	for _, r := range results {
		names = append(names, "`"+r.Name+"`")
		seps = append(seps, "---:")
	}
	counts := map[string]int{"validity": len(s.Validity), "components": len(s.Components), "resolution": len(s.Resolution),
		"removeDotSegments": len(s.DotSegs), "normalization": len(s.Normal), "equivalence": len(s.Equiv)}
	row(names...)
	row(seps...)
	for _, sec := range Sections {
		cells := []string{"`" + sec + "`", fmt.Sprint(counts[sec])}
		for _, r := range results {
			cells = append(cells, cellOf(r.Sections[sec]))
		}
		row(cells...)
	}
	return b.String()
}

func cellOf(t *Tally) string {
	if t == nil || t.Pass+t.Fail == 0 {
		return "n/a"
	}
	s := fmt.Sprintf("%d / %d", t.Pass, t.Pass+t.Fail)
	if t.Fail == 0 {
		s = "**" + s + "**"
	}
	if t.NA > 0 {
		s += fmt.Sprintf(" (%d n/a)", t.NA)
	}
	return s
}

// code writes s as Markdown code in a table cell: pipes escaped, and
// enough backticks around it.
func code(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\n", " ")
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	return fence + pad + s + pad + fence
}

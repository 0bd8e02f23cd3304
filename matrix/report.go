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
	b.WriteString(producingText)
	b.WriteString(ProducingSummary(results))
	b.WriteString("\nThe texts an implementation writes that are not valid for their component, or that decode to something else (where the suite has an error, any text: the components given have none). Every other mismatch below is text that is valid and round-trips but is not the RFC's.\n")
	for _, r := range results {
		var flawed []Mismatch
		for _, sec := range Producing {
			for _, m := range r.Mismatches[sec] {
				if m.Flawed {
					flawed = append(flawed, m)
				}
			}
		}
		fmt.Fprintf(&b, "\n### `%s`: %d\n", r.Name, len(flawed))
		if len(flawed) == 0 {
			b.WriteString("\nNone.\n")
			continue
		}
		b.WriteString("\n")
		row("case", "input", "RFC 3986", "`"+r.Name+"`")
		row("---", "---", "---", "---")
		for _, m := range flawed {
			row(code(m.ID), code(m.Input), code(m.RFC), code(m.Got))
		}
	}
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
		"removeDotSegments": len(s.DotSegs), "normalization": len(s.Normal), "equivalence": len(s.Equiv),
		"encoding": len(s.Encoding), "decoding": len(s.Decoding), "building": len(s.Building)}
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

// producingText says what the producing sections count.
const producingText = `
## Producing URIs: valid text and round trips

In ` + "`encoding`" + ` and ` + "`building`" + ` a case is answered "as the RFC does" when the
implementation writes exactly the suite's text (the shortest text the
component's rule matches, uppercase hexadecimal, §2.1 and §2.4), or fails
where the suite has an error. An implementation with another convention
may write other text that is just as usable, so two more counts judge the
texts it writes where the suite has one, on their own terms:

- **valid**: the text matches the component's rule of Appendix A
  (userinfo, reg-name, segment, segment-nz-nc for the first segment of a
  relative-path reference, query, fragment; a query-part is a query
  without an unencoded "&" or "="), or, for a built reference,
  URI-reference; checked with this project's generated parser, which the
  suite's tests hold to the exact ABNF matcher;
- **round trip**: the text decodes back to what was given. For encoding,
  RFC 3986 decoding (§2.1: "%" and two hexadecimal digits are an octet,
  "+" is "+"), but for a query-part, which is read under the HTML forms
  convention its pairs come from, where "+" is a space: so net/url's
  ` + "`QueryEscape`" + `, which writes a space "+", round-trips there while not
  writing the suite's "%20". For building, the reference parses, and
  each component decoded is the raw component given: the scheme, the
  userinfo, the host (the same IP address, or the same name), the port,
  the path's segments and whether it is absolute (a leading "./" that
  §4.2 allows before a first segment with ":" is not counted as a
  segment), the query's pairs in order (forms convention), the fragment,
  and whether each is defined at all.

A decoding case is answered as the RFC does when the octets are the same,
or when both fail on a malformed "%"; the offset is compared when the
implementation gives one (net/url's errors do not).

Each cell: the RFC's text · valid · round trip / the texts written where the suite has one.

`

// ProducingSummary is the table of valid texts and round trips in the
// producing sections, in Markdown.
func ProducingSummary(results []*Result) string {
	var b strings.Builder
	row := func(cells ...string) { b.WriteString("| " + strings.Join(cells, " | ") + " |\n") }
	names := []string{"section"}
	seps := []string{"---"}
	for _, r := range results {
		names = append(names, "`"+r.Name+"`")
		seps = append(seps, "---:")
	}
	row(names...)
	row(seps...)
	for _, sec := range Producing {
		cells := []string{"`" + sec + "`"}
		for _, r := range results {
			t := r.Sections[sec]
			if t.Texts == 0 {
				cells = append(cells, "n/a")
				continue
			}
			cells = append(cells, fmt.Sprintf("%d · %d · %d / %d", t.Exact, t.Valid, t.RoundTrip, t.Texts))
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

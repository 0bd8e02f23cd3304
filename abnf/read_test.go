package abnf_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/abnf"
)

// constructTests reads one rule "r = …" and prints it canonically. Every
// construct of RFC 5234 §4 and RFC 7405 appears at least once.
var constructTests = []struct {
	src, want string
	why       string
}{
	{`r = a`, `a`, "rule reference"},
	{`r = a b c`, `a b c`, "concatenation (§3.1)"},
	{`r = a / b / c`, `a / b / c`, "alternation (§3.2)"},
	{`r = a / b c`, `a / b c`, "concatenation binds tighter than alternation (§3.10)"},
	{`r = (a / b) c`, `(a / b) c`, "group (§3.5)"},
	{`r = ((a))`, `a`, "redundant groups vanish"},
	{`r = [a b]`, `[a b]`, "option (§3.8)"},
	{`r = *a`, `*a`, "unbounded repetition (§3.6)"},
	{`r = 1*a`, `1*a`, "at least one"},
	{`r = *3a`, `*3a`, "at most three"},
	{`r = 2*3a`, `2*3a`, "between two and three"},
	{`r = 3a`, `3a`, "specific repetition (§3.7)"},
	{`r = *1a`, `[a]`, "*1 is an option"},
	{`r = 0a`, `0a`, "zero repetition is legal and empty"},
	{`r = 0<pchar>`, `0<pchar>`, "prose under a zero repetition: RFC 3986 path-empty"},
	{`r = *(a / b)`, `*(a / b)`, "repeated group"},
	{`r = 2*(3a)`, `2*(3a)`, "repetition of a repetition keeps its parentheses"},
	{`r = "abc"`, `"abc"`, "case-insensitive string (§2.3)"},
	{`r = %i"abc"`, `"abc"`, "RFC 7405 %i is the default"},
	{`r = %s"aBc"`, `%s"aBc"`, "RFC 7405 case-sensitive string"},
	{`r = %S"aBc"`, `%s"aBc"`, "RFC 7405 prefix letters are case-insensitive"},
	{`r = ""`, `""`, "empty string"},
	{`r = " ;<>"`, `" ;<>"`, "comment and prose characters inside a string"},
	{`r = %x41`, `%x41`, "hex value"},
	{`r = %X4a`, `%x4A`, "base letter and hex digits in either case"},
	{`r = %d65`, `%d65`, "decimal value"},
	{`r = %b1000001`, `%b1000001`, "binary value"},
	{`r = %x41-5A`, `%x41-5A`, "range"},
	{`r = %d48-57`, `%d48-57`, "decimal range"},
	{`r = %x0D.0A`, `%x0D.0A`, "concatenated values"},
	{`r = %b1.10.11`, `%b1.10.11`, "binary concatenation"},
	{`r = %x10FFFF`, `%x10FFFF`, "largest code point"},
	{`r = %xE000-F8FF`, `%xE000-F8FF`, "code points above %x7F (RFC 3987 iprivate)"},
	{`r = a ; comment`, `a`, "comment"},
	{"r = a\n    / b ; c\n    / c", `a / b / c`, "continuation lines with comments"},
	{"r = a\r\n    b\r\n", `a b`, "CRLF lines"},
	{"r = a\n\n    b", `a b`, "a blank line inside a rule"},
	{"r = a\n; between\n", `a`, "comment line after a rule"},
	{"r = a\t/\tb", `a / b`, "tabs are white space"},
	{`r = x-y-1`, `x-y-1`, "rule names with digits and hyphens"},
	{`r = "a" "b"`, `"a" "b"`, "elements separated by white space"},
	{`r = "a"/"b"`, `"a" / "b"`, "no white space is needed around a slash (§4: *c-wsp \"/\" *c-wsp)"},
	{`r = ("a")`, `"a"`, "nor inside parentheses"},
}

func TestReadConstructs(t *testing.T) {
	for _, tt := range constructTests {
		g, err := abnf.ReadString("t.abnf", tt.src+"\na = \"a\"\nb = \"b\"\nc = \"c\"\nx-y-1 = \"x\"\n")
		if err != nil {
			t.Errorf("%s: Read(%q): %v", tt.why, tt.src, err)
			continue
		}
		if got := abnf.String(g.Rule("r").Expr); got != tt.want {
			t.Errorf("%s: Read(%q) = %s, want %s", tt.why, tt.src, got, tt.want)
		}
	}
}

func TestReadIncrementalAndCase(t *testing.T) {
	src := "Rule = \"a\"\nRULE =/ \"b\"\nrule =/ \"c\" / \"d\"\nother = rULe\n"
	g, err := abnf.ReadString("t.abnf", src)
	if err != nil {
		t.Fatal(err)
	}
	r := g.Rule("rule")
	if got, want := abnf.String(r.Expr), `"a" / "b" / "c" / "d"`; got != want {
		t.Errorf("=/ merge: got %s, want %s", got, want)
	}
	if r.Name != "Rule" || len(r.Defs) != 3 || !r.Defs[1].Incremental {
		t.Errorf("rule %q with %d definitions; want Rule with 3, the second incremental", r.Name, len(r.Defs))
	}
}

func TestReadLayered(t *testing.T) {
	base := abnf.Source{Name: "base.abnf", Text: []byte("host = IPv4 / name\nIPv4 = 1*DIGIT\nname = 1*ALPHA\n")}
	ext := abnf.Source{Name: "ext.abnf", Text: []byte("host =/ zone\nzone = \"%25\" 1*ALPHA\n")}
	g, err := abnf.Read([]abnf.Source{base, ext}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := abnf.String(g.Rule("host").Expr), "IPv4 / name / zone"; got != want {
		t.Errorf("layered host = %s, want %s", got, want)
	}
	over := abnf.Source{Name: "over.abnf", Text: []byte("; @override\nname = 1*(ALPHA / \"-\")\n")}
	g, err = abnf.Read([]abnf.Source{base, over}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := abnf.String(g.Rule("name").Expr), `1*(ALPHA / "-")`; got != want {
		t.Errorf("overridden name = %s, want %s", got, want)
	}
	if d := g.Rule("name").Defs; len(d) != 2 || !d[1].Override {
		t.Errorf("override not recorded: %+v", d)
	}
	_, err = abnf.Read([]abnf.Source{base, {Name: "o.abnf", Text: []byte("name = 1*DIGIT\n")}}, &abnf.Options{Override: []string{"NAME"}})
	if err != nil {
		t.Errorf("override by option: %v", err)
	}
}

func TestReadCoreRules(t *testing.T) {
	g, err := abnf.ReadString("t.abnf", "r = HEXDIG / wsp / crlf\n")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range g.Rules {
		if r.Core {
			got = append(got, r.Name)
		}
	}
	want := []string{"HEXDIG", "WSP", "CRLF", "DIGIT", "SP", "HTAB", "CR", "LF"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("core rules added (-want +got):\n%s", diff)
	}
	// A grammar may define a core rule itself; its definition wins.
	g, err = abnf.ReadString("t.abnf", "r = DIGIT\nDIGIT = \"0\" / \"1\"\n")
	if err != nil {
		t.Fatal(err)
	}
	if d := g.Rule("DIGIT"); d.Core || abnf.String(d.Expr) != `"0" / "1"` {
		t.Errorf("grammar's own DIGIT replaced by core: %s", abnf.String(d.Expr))
	}
}

// errorTests: each source must give exactly these errors, in order. The
// column counts bytes from 1.
var errorTests = []struct {
	src  string
	want []string
}{
	{"r = \"abc\n", []string{`t.abnf:1:5: quoted string not closed on its line`}},
	{"r = \"a\tb\"\n", []string{`t.abnf:1:7: quoted string may hold only SP and VCHAR (RFC 5234 §4 char-val); use a numeric value such as %x09`}},
	{"r = <abc\n", []string{`t.abnf:1:5: prose value not closed with ">" on its line`}},
	{"r = <abc>\n", []string{`t.abnf:1:5: prose value <abc> has no machine meaning; only a zero repetition such as 0<abc> (the empty string) is accepted`}},
	{"r = 1<abc>\n", []string{`t.abnf:1:6: prose value <abc> has no machine meaning; only a zero repetition such as 0<abc> (the empty string) is accepted`}},
	{"r = [<abc>]\n", []string{`t.abnf:1:6: prose value <abc> has no machine meaning; only a zero repetition such as 0<abc> (the empty string) is accepted`}},
	{"r = %q41\n", []string{`t.abnf:1:6: numeric value base must be b, d or x, not 'q'`}},
	{"r = %x\n", []string{`t.abnf:1:7: expected a base-16 digit at end of line`}},
	{"r = %b012\n", []string{`t.abnf:1:9: '2' is not a digit of the numeric value's base`}},
	{"r = %x110000\n", []string{`t.abnf:1:7: value 110000 is above U+10FFFF, the largest Unicode code point`}},
	{"r = %xD800\n", []string{`t.abnf:1:7: value D800 is a UTF-16 surrogate (U+D800), which has no UTF-8 encoding`}},
	{"r = %x5A-41\n", []string{`t.abnf:1:5: range %x5A-41 is empty: its end is below its start`}},
	{"r = %x41-\n", []string{`t.abnf:1:10: expected a base-16 digit at end of line`}},
	// Issue 9: one range or one concatenation per numeric value (RFC 5234
	// §2.3); the tail was silently dropped.
	{"r = %x41-5A-61\n", []string{`t.abnf:1:12: '-' cannot follow %x41-5A: a numeric value is one range (%x41-5A) or one concatenation (%x41.42.43), not both or more (RFC 5234 §2.3)`}},
	{"r = %x41-5A-\n", []string{`t.abnf:1:12: '-' cannot follow %x41-5A: a numeric value is one range (%x41-5A) or one concatenation (%x41.42.43), not both or more (RFC 5234 §2.3)`}},
	{"r = %x41.42-43\n", []string{`t.abnf:1:12: '-' cannot follow %x41.42: a numeric value is one range (%x41-5A) or one concatenation (%x41.42.43), not both or more (RFC 5234 §2.3)`}},
	{"r = %x41-5A.61\n", []string{`t.abnf:1:12: '.' cannot follow %x41-5A: a numeric value is one range (%x41-5A) or one concatenation (%x41.42.43), not both or more (RFC 5234 §2.3)`}},
	// Issue 9: a rule whose definition is broken is reported once, not
	// again as undefined wherever it is referenced.
	{"a = b\nb = %x5A-41\n", []string{`t.abnf:2:5: range %x5A-41 is empty: its end is below its start`}},
	{"a = b\nb = \"x\n", []string{`t.abnf:2:5: quoted string not closed on its line`}},
	{"a = b c\nb = (\n", []string{`t.abnf:1:7: undefined rule c`, `t.abnf:2:6: expected an element, found end of rule`}},
	{"r = 3*2a\na = \"a\"\n", []string{`t.abnf:1:5: repetition 3*2: minimum is greater than maximum`}},
	{"r = 99999999a\na = \"a\"\n", []string{`t.abnf:1:5: repetition count 99999999 is larger than 65536`}},
	{"r = * a\na = \"a\"\n", []string{`t.abnf:1:5: repetition "*" must be followed directly by an element (RFC 5234 §4: repetition = [repeat] element)`}},
	{"r = a /\na = \"a\"\n", []string{`t.abnf:1:8: expected an element, found end of rule`}},
	{"r = (a\na = \"a\"\n", []string{`t.abnf:1:7: expected ")", found end of rule`}},
	{"r = [a\na = \"a\"\n", []string{`t.abnf:1:7: expected "]", found end of rule`}},
	{"r = ()\n", []string{`t.abnf:1:6: empty group`}},
	{"r = a )\na = \"a\"\n", []string{`t.abnf:1:7: expected "/" or the end of the rule, found ")"`}},
	{"r = a # b\n", []string{`t.abnf:1:5: undefined rule a`, `t.abnf:1:7: unexpected character '#'`, `t.abnf:1:9: undefined rule b`}},
	// Issue 9: the hint names the code point, not its UTF-8 bytes, which
	// as code points would match "Ã©".
	{"r = \"é\"\n", []string{`t.abnf:1:6: quoted string may hold only SP and VCHAR (RFC 5234 §4 char-val); use a numeric value such as %xE9 (U+00E9)`}},
	{"r = \"\U0001F600x\"\n", []string{`t.abnf:1:6: quoted string may hold only SP and VCHAR (RFC 5234 §4 char-val); use a numeric value such as %x1F600 (U+1F600)`}},
	{"r = \"\xff\"\n", []string{`t.abnf:1:6: quoted string may hold only SP and VCHAR (RFC 5234 §4 char-val); byte 0xFF is not UTF-8`}},
	// Issue 9: a grammar with no rules is an error, not an empty success.
	{"", []string{`t.abnf:1:1: no rules: the grammar is empty or holds only comments`}},
	{"; only a comment\n\n   ; and another\n", []string{`t.abnf:1:1: no rules: the grammar is empty or holds only comments`}},
	{"r = " + strings.Repeat("(", 1001) + `"a"` + strings.Repeat(")", 1001) + "\n", []string{`t.abnf:1:1005: groups and options nested more than 1000 deep (the MaxNesting option, gen's -max-nesting flag, raises the limit to at most 10000)`}},
	{"r = " + strings.Repeat("[", 1001) + `"a"` + strings.Repeat("]", 1001) + "\n", []string{`t.abnf:1:1005: groups and options nested more than 1000 deep (the MaxNesting option, gen's -max-nesting flag, raises the limit to at most 10000)`}},
	{"= a\n", []string{`t.abnf:1:1: expected a rule name, found "="`}},
	{"r a\n", []string{`t.abnf:1:3: expected "=" or "=/", found rule name "a"`}},
	{"r = \"a\" s = \"b\"\n", []string{`t.abnf:1:9: rule "s" must start on a new line at the grammar's margin`}},
	{"r = x\n", []string{`t.abnf:1:5: undefined rule x`}},
	{"r = \"a\"\nr = \"b\"\n", []string{`t.abnf:2:1: r is already defined at t.abnf:1:1; use =/ to add alternatives, or mark an override`}},
	{"R = \"a\"\nr = \"b\"\n", []string{`t.abnf:2:1: r is already defined at t.abnf:1:1; use =/ to add alternatives, or mark an override`}},
	{"r =/ \"a\"\n", []string{`t.abnf:1:1: =/ adds alternatives to r, which is not defined before this point`}},
	{"; @override\nr = \"a\"\n", []string{`t.abnf:2:1: r is marked as an override but replaces no earlier definition`}},
	{"  r = \"a\"\ns = \"b\"\n", []string{`t.abnf:2:1: rule starts at column 1, left of the grammar's margin (column 3, set by its first rule)`}},
	{"r = \"a\"\rs = \"b\"\n", []string{`t.abnf:1:8: carriage return not followed by line feed`}},
	{"r = a\r\ns = b c\r\n", []string{`t.abnf:1:5: undefined rule a`, `t.abnf:2:5: undefined rule b`, `t.abnf:2:7: undefined rule c`}},
	// Errors in several rules are all reported, each at its place.
	{"r = (\ns = %x\nt = \"x\nu = ok\n", []string{
		`t.abnf:1:6: expected an element, found end of rule`,
		`t.abnf:2:7: expected a base-16 digit at end of line`,
		`t.abnf:3:5: quoted string not closed on its line`,
		`t.abnf:4:5: undefined rule ok`,
	}},
}

// separatorTests are concatenations written without the white space RFC
// 5234 §4 requires between their elements (concatenation = repetition
// *(1*c-wsp repetition)): errors, and with Options.Lenient, concatenations
// read with a warning at the same place.
var separatorTests = []struct {
	src, lenient string // the rule, and what Lenient reads it as
	col          int    // where the missing space is
	what         string
}{
	{`r = "a""b"`, `"a" "b"`, 8, `quoted string`},
	{`r = ("a")*"b"`, `"a" *"b"`, 10, `repetition`},
	{`r = "a"("b" / "c")`, `"a" ("b" / "c")`, 8, `"("`},
	{`r = ["a"]"b"`, `["a"] "b"`, 10, `quoted string`},
	{`r = %x41"b"`, `%x41 "b"`, 9, `quoted string`},
	{`r = "a"%x42`, `"a" %x42`, 8, `numeric value`},
	{`r = "a"b`, `"a" b`, 8, `rule name "b"`},
	{`r = ("a" / "b")("c")`, `("a" / "b") "c"`, 16, `"("`},
	{`r = "x" ("a""b")`, `"x" ("a" "b")`, 13, `quoted string`},
}

func TestReadSeparator(t *testing.T) {
	for _, tt := range separatorTests {
		src := tt.src + "\nb = \"b\"\n"
		_, err := abnf.ReadString("t.abnf", src)
		msg := "elements of a concatenation must be separated by white space (RFC 5234 §4: concatenation = repetition *(1*c-wsp repetition)): insert a space before " + tt.what
		want := fmt.Sprintf("t.abnf:1:%d: %s (gen's -lenient flag, the Lenient option, accepts it with a warning)", tt.col, msg)
		if err == nil || err.Error() != want {
			t.Errorf("Read(%q): error %v, want %q", tt.src, err, want)
		}
		g, err := abnf.Read([]abnf.Source{{Name: "t.abnf", Text: []byte(src)}}, &abnf.Options{Lenient: true})
		if err != nil {
			t.Errorf("Read(%q) lenient: %v", tt.src, err)
			continue
		}
		if got := abnf.String(g.Rule("r").Expr); got != tt.lenient {
			t.Errorf("Read(%q) lenient = %s, want %s", tt.src, got, tt.lenient)
		}
		wantWarn := []abnf.Problem{{Pos: abnf.Pos{File: "t.abnf", Line: 1, Col: tt.col, Offset: tt.col - 1}, Severity: abnf.SeverityWarning, Msg: msg + "; read as a concatenation (lenient)"}}
		if diff := cmp.Diff(wantWarn, g.Warnings); diff != "" {
			t.Errorf("Read(%q) lenient warnings (-want +got):\n%s", tt.src, diff)
		}
	}
	// Strict reading leaves no warnings.
	g, err := abnf.ReadString("t.abnf", "r = \"a\" \"b\"\n")
	if err != nil || len(g.Warnings) != 0 {
		t.Errorf("strict read: %v, warnings %v", err, g.Warnings)
	}
}

func TestReadErrors(t *testing.T) {
	for _, tt := range errorTests {
		_, err := abnf.ReadString("t.abnf", tt.src)
		var el abnf.ErrorList
		if !errors.As(err, &el) {
			t.Errorf("Read(%q): got %v, want errors %q", tt.src, err, tt.want)
			continue
		}
		var got []string
		for _, e := range el {
			got = append(got, e.Error())
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Read(%q) errors (-want +got):\n%s", tt.src, diff)
		}
	}
}

// optionErrorTests: errors that depend on [abnf.Options].
var optionErrorTests = []struct {
	src  string
	opts abnf.Options
	want []string
}{
	{"r = %x100\n", abnf.Options{Octets: true}, []string{`t.abnf:1:7: value 100 is above %xFF: the grammar's values are octets`}},
	{"r = %x41-1FF\n", abnf.Options{Octets: true}, []string{`t.abnf:1:10: value 1FF is above %xFF: the grammar's values are octets`}},
	{"r = %d256\n", abnf.Options{Octets: true}, []string{`t.abnf:1:7: value 256 is above %xFF: the grammar's values are octets`}},
	{"r = %x41.FFFFFFFFFF\n", abnf.Options{Octets: true}, []string{`t.abnf:1:10: value FFFFFFFFFF is above %xFF: the grammar's values are octets`}},
	{"r = \"é\"\n", abnf.Options{Octets: true}, []string{`t.abnf:1:6: quoted string may hold only SP and VCHAR (RFC 5234 §4 char-val); use a numeric value such as %xC3.A9 (U+00E9 in UTF-8; the grammar's values are octets)`}},
	{"r = \"\xff\"\n", abnf.Options{Octets: true}, []string{`t.abnf:1:6: quoted string may hold only SP and VCHAR (RFC 5234 §4 char-val); use a numeric value such as %xFF`}},
	{"r = ((\"a\"))\n", abnf.Options{MaxNesting: 1}, []string{`t.abnf:1:6: groups and options nested more than 1 deep (the MaxNesting option, gen's -max-nesting flag, raises the limit to at most 10000)`}},
	// Issue 9: 300,000 nested parentheses overflowed the reader's stack.
	{"r = " + strings.Repeat("(", 300000) + `"a"` + strings.Repeat(")", 300000) + "\n", abnf.Options{}, []string{`t.abnf:1:1005: groups and options nested more than 1000 deep (the MaxNesting option, gen's -max-nesting flag, raises the limit to at most 10000)`}},
	{"r = " + strings.Repeat("*(", 300000) + `"a"` + strings.Repeat(")", 300000) + "\n", abnf.Options{}, []string{`t.abnf:1:2006: groups and options nested more than 1000 deep (the MaxNesting option, gen's -max-nesting flag, raises the limit to at most 10000)`}},
	{"a = b\nb = %x100\n", abnf.Options{Octets: true}, []string{`t.abnf:2:7: value 100 is above %xFF: the grammar's values are octets`}},
	{"r = " + strings.Repeat("(", 300000) + "\n", abnf.Options{}, []string{`t.abnf:1:1005: groups and options nested more than 1000 deep (the MaxNesting option, gen's -max-nesting flag, raises the limit to at most 10000)`}},
}

// TestMaxNestingLimit: the nesting limit can be raised to MaxNestingLimit,
// no further (issue 9: -max-nesting 300000 let 200,000 levels through to
// stages that overflowed the stack).
func TestMaxNestingLimit(t *testing.T) {
	deep := func(n int) []abnf.Source {
		return []abnf.Source{{Name: "t.abnf", Text: []byte("r = " + strings.Repeat("(", n) + `"a"` + strings.Repeat(")", n) + "\n")}}
	}
	if _, err := abnf.Read(deep(abnf.MaxNestingLimit), &abnf.Options{MaxNesting: abnf.MaxNestingLimit}); err != nil {
		t.Errorf("%d levels with MaxNesting %d: %v", abnf.MaxNestingLimit, abnf.MaxNestingLimit, err)
	}
	_, err := abnf.Read(deep(1), &abnf.Options{MaxNesting: abnf.MaxNestingLimit + 1})
	if want := "abnf: a nesting limit of 10001 is above 10000, the most the reader and the stages after it support"; err == nil || err.Error() != want {
		t.Errorf("MaxNesting %d: error %v, want %q", abnf.MaxNestingLimit+1, err, want)
	}
}

func TestReadOptionErrors(t *testing.T) {
	for _, tt := range optionErrorTests {
		_, err := abnf.Read([]abnf.Source{{Name: "t.abnf", Text: []byte(tt.src)}}, &tt.opts)
		var el abnf.ErrorList
		if !errors.As(err, &el) {
			t.Errorf("Read(%.40q, %+v): got %v, want errors %q", tt.src, tt.opts, err, tt.want)
			continue
		}
		var got []string
		for _, e := range el {
			got = append(got, e.Error())
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Read(%.40q, %+v) errors (-want +got):\n%s", tt.src, tt.opts, diff)
		}
	}
	// Raised, the limit lets the same nesting read.
	deep := "r = " + strings.Repeat("[", 3000) + `"a"` + strings.Repeat("]", 3000) + "\n"
	if _, err := abnf.Read([]abnf.Source{{Name: "t.abnf", Text: []byte(deep)}}, &abnf.Options{MaxNesting: 3000}); err != nil {
		t.Errorf("depth 3000 with MaxNesting 3000: %v", err)
	}
}

func TestErrorListFormat(t *testing.T) {
	_, err := abnf.ReadString("t.abnf", "r = x y\n")
	if got, want := err.Error(), "t.abnf:1:5: undefined rule x (and 1 more errors)"; got != want {
		t.Errorf("ErrorList.Error() = %q, want %q", got, want)
	}
	var empty abnf.ErrorList
	if empty.Err() != nil {
		t.Error("empty ErrorList.Err() != nil")
	}
}

func TestErrorsAcrossFiles(t *testing.T) {
	_, err := abnf.Read([]abnf.Source{
		{Name: "z.abnf", Text: []byte("a = b\n")},
		{Name: "a.abnf", Text: []byte("c = d\n")},
	}, nil)
	want := []string{"z.abnf:1:5: undefined rule b", "a.abnf:1:5: undefined rule d"}
	var got []string
	for _, e := range err.(abnf.ErrorList) {
		got = append(got, e.Error())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files keep reading order (-want +got):\n%s", diff)
	}
}

func TestRuleText(t *testing.T) {
	src := "   a = b ; one\n       / c\n       ; two\n\n   b = \"b\"\n   c = \"c\"\n"
	g, err := abnf.ReadString("t.abnf", src)
	if err != nil {
		t.Fatal(err)
	}
	want := "   a = b ; one\n       / c\n       ; two"
	if got := g.Rule("a").Defs[0].Text; got != want {
		t.Errorf("rule text:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(g.Rule("b").Defs[0].Text, `"b"`) {
		t.Errorf("rule b text %q", g.Rule("b").Defs[0].Text)
	}
}

// FuzzRead: no input makes the reader panic, and whatever reads without
// errors prints canonically to an equal grammar.
func FuzzRead(f *testing.F) {
	for _, tt := range constructTests {
		f.Add(tt.src)
	}
	for _, tt := range errorTests {
		f.Add(tt.src)
	}
	f.Add("r = a\n\f\nRFC 3987  page header\n   b = c\n")
	for _, tt := range optionErrorTests {
		if len(tt.src) < 10000 { // the 300,000-deep ones cost seconds per run
			f.Add(tt.src)
		}
	}
	f.Add("r = " + strings.Repeat("(", 3000) + `"a"` + strings.Repeat(")", 3000) + "\n")
	// Hostile grammars of issue 9.
	f.Add(`s = 1100( 1100"a" )`)
	f.Add(`s = 60000"abcdefghijklmnopqrstuvwxyzabcdefghijkl"`)
	f.Add(`s = 65536(65536"a")`)
	f.Add(`s = *("a" / "b") "a" 15("a" / "b")`)
	f.Add("t = \"y\" / t \" \" t\n")
	f.Add("r = %xC3.A9 / %x80-FF / \"\xc3\xa9\" / \"\xff\"\n")
	f.Fuzz(func(t *testing.T, src string) {
		// Octet mode reads the same syntax with other checks on values.
		abnf.Read([]abnf.Source{{Name: "f.abnf", Text: []byte(src)}}, &abnf.Options{Octets: true})
		g, err := abnf.ReadString("f.abnf", src)
		if err != nil {
			return
		}
		out := abnf.Format(g)
		g2, err := abnf.ReadString("out.abnf", string(out))
		if err != nil {
			t.Fatalf("canonical form does not read: %v\n%s", err, out)
		}
		if !abnf.Equal(g, g2) {
			t.Fatalf("canonical form reads to another grammar:\n%s", out)
		}
	})
}

// TestProseStarts: with Options.Starts, a prose value is an error only in
// the rules the start rules reach; the grammar keeps the others, and the
// matcher refuses to match a rule that reaches one (RFC 5234 §4: prose has
// no machine meaning), and matches the rest.
func TestProseStarts(t *testing.T) {
	src := "s = \"a\" y\ny = \"b\"\nx = <host, see [RFC3986]>\nz = x / y\n"
	proseErr := "t.abnf:3:5: prose value <host, see [RFC3986]> has no machine meaning; only a zero repetition such as 0<host, see [RFC3986]> (the empty string) is accepted"
	for _, tt := range []struct {
		starts []string
		want   string // "" for no error
	}{
		{nil, proseErr},
		{[]string{"s"}, ""},
		{[]string{"Y", "s"}, ""},
		{[]string{"z"}, proseErr},
		{[]string{"s", "x"}, proseErr},
		{[]string{"nope"}, ""}, // the caller reports the start rule
	} {
		g, err := abnf.Read([]abnf.Source{{Name: "t.abnf", Text: []byte(src)}}, &abnf.Options{Starts: tt.starts})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("starts %q: error %q, want %q", tt.starts, got, tt.want)
		}
		if err != nil {
			continue
		}
		m, err := abnf.NewMatcher(g)
		if err != nil {
			t.Fatalf("starts %q: NewMatcher: %v", tt.starts, err)
		}
		if ok, err := m.Match("s", []byte("ab")); !ok || err != nil {
			t.Errorf("starts %q: Match(s, ab) = %v, %v; want true", tt.starts, ok, err)
		}
		if _, err := m.Match("z", []byte("b")); err == nil || !strings.Contains(err.Error(), "prose value <host, see [RFC3986]> has no machine meaning") {
			t.Errorf("starts %q: Match(z) error %v; want the prose value's", tt.starts, err)
		}
	}
}

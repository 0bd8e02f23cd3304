package abnf_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/abnf"
)

// TestDiagnose: where an input stops, the rule that could not continue,
// and what could have come, in the grammar's terms (RFC 3986 Appendix A).
func TestDiagnose(t *testing.T) {
	d := abnf.NewDiagnoser(rfc3986(t))
	for _, c := range []struct {
		rule, in string
		off      int
		found    string
		failed   string
		next     []string
	}{
		// §3.3: a segment is *pchar; then "/", the query, the fragment, or the end.
		{"URI-reference", "http://a/b c", 10, `" "`, "segment", []string{"pchar", `"#"`, `"/"`, `"?"`, "end of input"}},
		// §3.2.2: the "." of a fifth octet fails IPv4address, whose definition has ".".
		{"URI-reference", "http://[::1.2.3.4.5]/", 17, `"."`, "IPv4address", []string{"DIGIT", `"]"`}},
		// A space in a host: reg-name could not continue.
		{"URI-reference", "http://a b/", 8, `" "`, "reg-name", nil},
		// At the end of the input, the unfinished rule.
		{"IPv4address", "1.2.3", 5, "end of input", "IPv4address", []string{"DIGIT", `"."`}},
		// At the end of the input in the middle of one bounded rule in
		// every derivation: that rule, in a userinfo or in a reg-name
		// (it was authority, which holds both).
		{"URI-reference", "http://a%2", 10, "end of input", "pct-encoded", []string{"HEXDIG"}},
		// Offset 0: nothing has begun, the start rule could not; a scheme
		// begins with ALPHA (§3.1).
		{"URI", " ", 0, `" "`, "URI", []string{"ALPHA"}},
		// Invalid UTF-8 is no character; an empty segment is a segment.
		{"URI-reference", "http://a/\xff", 9, `"\xff" (byte 0xFF)`, "segment", []string{"pchar", `"#"`, `"/"`, `"?"`, "end of input"}},
		// Readings of different rules: "1" is an h16 (in IPv6address or
		// in ls32) or a dec-octet (in ls32's IPv4address); "x" continues
		// none, and IPv6address, which holds them all, could not continue
		// (not the dec-octet, nested deepest).
		{"URI-reference", "http://[::1x]/", 11, `"x"`, "IPv6address", nil},
		{"URI-reference", "http://[fe80::1%eth0]/", 15, `"%"`, "IPv6address", nil},
		{"URI-reference", "http://[1:2:3:4:5:6:7x]/", 21, `"x"`, "IPv6address", nil},
		{"URI-reference", "//[2001:db8::0:0:0:0x1]", 20, `"x"`, "IPv6address", nil},
		// The same where the input could have ended (the rule alone):
		// the character is one too many for IPv6address, not for the
		// dec-octet (before 2026-12-08, it named the dec-octet).
		{"IPv6address", "::1x", 3, `"x"`, "IPv6address", []string{"DIGIT", "HEXDIG", `"."`, `":"`, "end of input"}},
		{"IPv6address", "fe80::1%25eth0", 7, `"%"`, "IPv6address", nil},
		{"IPv6address", "::ffff:1x", 8, `"x"`, "IPv6address", nil},
		// One reading where the input could have ended: the rule of it
		// (after "1:…:8", the last h16).
		{"IPv6address", "1:2:3:4:5:6:7:8x", 15, `"x"`, "h16", nil},
		// One reading only (after "1.", an IPv4address): its dec-octet.
		{"URI-reference", "http://[::ffff:1.2.3x]/", 20, `"x"`, "dec-octet", nil},
		// A rule no derivation could end (pct-encoded after "%4") is the
		// one that could not continue, though a rule around it writes the
		// character ("@" and ":" are authority's, "/" path-abempty's).
		{"URI-reference", "http://u%4@h/", 10, `"@"`, "pct-encoded", []string{"HEXDIG"}},
		{"URI-reference", "http://u%4:p@h/", 10, `":"`, "pct-encoded", []string{"HEXDIG"}},
		{"path", "/%/", 2, `"/"`, "pct-encoded", []string{"HEXDIG"}},
		{"path", "%:B", 1, `":"`, "pct-encoded", []string{"HEXDIG"}},
	} {
		x, err := d.Diagnose(c.rule, c.in)
		if err != nil {
			t.Errorf("Diagnose(%s, %q): %v", c.rule, c.in, err)
			continue
		}
		if x.Match || x.Offset != c.off || x.Found != c.found || x.Rule != c.failed {
			t.Errorf("Diagnose(%s, %q) = match %v, offset %d, found %s, rule %s; want offset %d, found %s, rule %s",
				c.rule, c.in, x.Match, x.Offset, x.Found, x.Rule, c.off, c.found, c.failed)
		}
		if c.next != nil {
			if diff := cmp.Diff(c.next, x.Next); diff != "" {
				t.Errorf("Diagnose(%s, %q).Next mismatch (-want +got):\n%s", c.rule, c.in, diff)
			}
		}
	}
	x, err := d.Diagnose("URI", "http://a")
	if err != nil || !x.Match || x.Offset != 8 {
		t.Errorf("Diagnose(URI, http://a) = %+v, %v; want a match", x, err)
	}
	if _, err := d.Diagnose("no-such-rule", ""); err == nil {
		t.Error("Diagnose(no-such-rule): no error")
	}
}

// TestDiagnoseRuleFor: one diagnosis of a prefix names the rule for each
// character that could follow, as a diagnosis of the whole input does.
func TestDiagnoseRuleFor(t *testing.T) {
	d := abnf.NewDiagnoser(rfc3986(t))
	for _, prefix := range []string{"http://[::1.2.3.4", "http://[::1", "http://u%4", "http://[1:2:3:4:5:6:7"} {
		p, err := d.Diagnose("URI-reference", prefix)
		if err != nil {
			t.Fatal(err)
		}
		// The same prefix read one byte at a time, as gen dfa reads it.
		q, err := d.Begin("URI-reference")
		if err != nil {
			t.Fatal(err)
		}
		for i := range len(prefix) {
			q = q.Next(prefix[i])
		}
		qx, err := q.Diagnose()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []rune{'.', 'x', ' ', '@', ':', '%', ']', '1', -1} {
			in := prefix
			if c >= 0 {
				in += string(c)
			}
			whole, err := d.Diagnose("URI-reference", in)
			if err != nil {
				t.Fatal(err)
			}
			if whole.Match || whole.Offset != len(prefix) {
				continue
			}
			if rule, start := p.RuleFor(c); rule != whole.Rule || start != whole.Start {
				t.Errorf("RuleFor(%q) after %q = %s@%d; Diagnose(%q) says %s@%d", c, prefix, rule, start, in, whole.Rule, whole.Start)
			}
			if rule, start := qx.RuleFor(c); rule != whole.Rule || start != whole.Start {
				t.Errorf("Prefix RuleFor(%q) after %q = %s@%d; Diagnose(%q) says %s@%d", c, prefix, rule, start, in, whole.Rule, whole.Start)
			}
		}
	}
}

// TestDiagnoseLinear: on RFC 3986, which has no recursion, the work is
// linear in the input: four times the input costs at most 4.5 times the
// threads expanded (counted, not timed).
func TestDiagnoseLinear(t *testing.T) {
	g := rfc3986(t)
	const n = 64 << 10
	for _, s := range []struct {
		name string
		make func(n int) string
	}{
		{"segments, then a space", func(n int) string { return "http://a/" + strings.Repeat("a/", (n-10)/2) + " " }},
		{"percent-encodings, then a lone %", func(n int) string { return strings.Repeat("%41", (n-1)/3) + "%" }},
		{"dotted host, then a space", func(n int) string { return "http://" + strings.Repeat("1.", (n-8)/2) + " " }},
		{"an IP literal of colons", func(n int) string { return "http://[" + strings.Repeat("1:", (n-9)/2) + "]" }},
	} {
		steps := func(in string) int {
			d := abnf.NewDiagnoser(g)
			if _, err := d.Diagnose("URI-reference", in); err != nil {
				t.Fatal(err)
			}
			return abnf.DiagnoserSteps(d)
		}
		small, large := steps(s.make(n/4)), steps(s.make(n))
		t.Logf("%s: %d steps, then %d", s.name, small, large)
		if float64(large) > 4.5*float64(small) {
			t.Errorf("%s: %d steps for %d bytes, %.1f times the %d of a quarter of it", s.name, large, n, float64(large)/float64(small), small)
		}
	}
}

// TestDiagnoseReadings: the rule named where readings of the text
// disagree, and where a rule still had to read, on grammars small enough
// to see every derivation.
func TestDiagnoseReadings(t *testing.T) {
	for _, c := range []struct {
		name, grammar, rule, in string
		off                     int
		failed                  string
	}{
		// "1" is a hex or a dec (bounded rules): "x" continues neither,
		// and addr holds both.
		{"bounded readings disagree", "top = \"<\" addr \">\"\naddr = \"[\" ( hex / dec ) \"]\"\nhex = 1*4HEXDIG\ndec = 1*3DIGIT\n", "top", "<[1x]>", 3, "addr"},
		// "1a" is a hex only: its rule.
		{"one reading", "top = \"<\" addr \">\"\naddr = \"[\" ( hex / dec ) \"]\"\nhex = 1*4HEXDIG\ndec = 1*3DIGIT\n", "top", "<[1a.]>", 4, "hex"},
		// An sp and a tok begun at the "1" have read nothing (unbounded
		// rules count there because a DFA cannot tell): the tok that read
		// "ab" could not continue, not the field around them all.
		{"unbounded reading", "top = \"(\" field \")\"\nfield = tok sp tok\ntok = 1*ALPHA\nsp = *\" \"\n", "top", "(ab1)", 3, "tok"},
		// pe still had to read: the "@" is not user's, though user writes
		// "@" and could read it after a whole pe.
		{"a rule that had to read", "top = user / path\nuser = *pe \"@\"\npath = *pe \"/\"\npe = \"%\" 2HEXDIG\n", "top", "%4@", 2, "pe"},
	} {
		g, err := abnf.ReadString("t.abnf", c.grammar)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		x, err := abnf.NewDiagnoser(g).Diagnose(c.rule, c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if x.Match || x.Offset != c.off || x.Rule != c.failed {
			t.Errorf("%s: Diagnose(%s, %q) = match %v, offset %d, rule %s; want offset %d, rule %s", c.name, c.rule, c.in, x.Match, x.Offset, x.Rule, c.off, c.failed)
		}
	}
}

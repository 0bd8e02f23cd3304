package parser_test

import (
	"errors"
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/parser"
)

// componentTests: each row is a URI reference and its components; why says
// what it probes. P is a shorthand for building the expected Parts.
var componentTests = []struct {
	in   string
	want parser.Parts
	kind parser.HostKind
	why  string
}{
	{"http://user:pw@www.example.com:8080/a/b?q=1#frag", parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true, Userinfo: "user:pw", HasUserinfo: true, Host: "www.example.com", Port: "8080", HasPort: true, Path: "/a/b", Query: "q=1", HasQuery: true, Fragment: "frag", HasFragment: true}, parser.HostRegName, "every component"},
	{"foo://example.com:8042/over/there?name=ferret#nose", parser.Parts{Scheme: "foo", HasScheme: true, HasAuthority: true, Host: "example.com", Port: "8042", HasPort: true, Path: "/over/there", Query: "name=ferret", HasQuery: true, Fragment: "nose", HasFragment: true}, parser.HostRegName, "RFC 3986 §3 example"},
	{"urn:example:animal:ferret:nose", parser.Parts{Scheme: "urn", HasScheme: true, Path: "example:animal:ferret:nose"}, parser.HostNone, "§3 example: no authority"},
	{"http://a", parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true, Host: "a"}, parser.HostRegName, "no query: undefined"},
	{"http://a?", parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true, Host: "a", HasQuery: true}, parser.HostRegName, "empty query: defined (§5.3)"},
	{"http://a#", parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true, Host: "a", HasFragment: true}, parser.HostRegName, "empty fragment: defined"},
	{"http://a:", parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true, Host: "a", HasPort: true}, parser.HostRegName, "empty port: defined (§3.2.3)"},
	{"http://@a", parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true, HasUserinfo: true, Host: "a"}, parser.HostRegName, "empty userinfo: defined"},
	{"http://", parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true}, parser.HostRegName, "empty host (§3.2.2 reg-name may be empty)"},
	{"http:", parser.Parts{Scheme: "http", HasScheme: true}, parser.HostNone, "no authority, empty path"},
	{"//", parser.Parts{HasAuthority: true}, parser.HostRegName, "network-path reference with empty authority"},
	{"", parser.Parts{}, parser.HostNone, "the empty reference (§4.2)"},
	{"?", parser.Parts{HasQuery: true}, parser.HostNone, "empty query only"},
	{"#", parser.Parts{HasFragment: true}, parser.HostNone, "empty fragment only"},
	{"a:b", parser.Parts{Scheme: "a", HasScheme: true, Path: "b"}, parser.HostNone, "URI, not relative"},
	{"./a:b", parser.Parts{Path: "./a:b"}, parser.HostNone, "colon after the first segment: relative (§4.2)"},
	{"a/b:c", parser.Parts{Path: "a/b:c"}, parser.HostNone, "path-noscheme"},
	{"http:////foo.html", parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true, Path: "//foo.html"}, parser.HostRegName, "empty authority, path beginning with //"},
	{"http://1.2.3.4/", parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true, Host: "1.2.3.4", Path: "/"}, parser.HostIPv4, "IPv4address"},
	{"http://1.2.3.4.5/", parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true, Host: "1.2.3.4.5", Path: "/"}, parser.HostRegName, "§3.2.2: not IPv4, a reg-name"},
	{"http://256.1.1.1/", parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true, Host: "256.1.1.1", Path: "/"}, parser.HostRegName, "octet above 255: reg-name"},
	{"http://1.2.3.04/", parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true, Host: "1.2.3.04", Path: "/"}, parser.HostRegName, "leading zero: reg-name"},
	{"http://1.2.3.4:80", parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true, Host: "1.2.3.4", Port: "80", HasPort: true}, parser.HostIPv4, "IPv4 then port"},
	{"http://[::1]:80/", parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true, Host: "[::1]", Port: "80", HasPort: true, Path: "/"}, parser.HostIPv6, "IP-literal keeps its brackets"},
	{"http://[fe80::1:2]/", parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true, Host: "[fe80::1:2]", Path: "/"}, parser.HostIPv6, "lower-case hex"},
	{"http://[::ffff:192.0.2.1]/", parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true, Host: "[::ffff:192.0.2.1]", Path: "/"}, parser.HostIPv6, "IPv4 tail"},
	{"http://[v7.fe80::abcd]/", parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true, Host: "[v7.fe80::abcd]", Path: "/"}, parser.HostIPvFuture, "IPvFuture"},
	{"http://[V1.x]/", parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true, Host: "[V1.x]", Path: "/"}, parser.HostIPvFuture, `"v" is case-insensitive`},
	{"http://ex%41mple.com/", parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true, Host: "ex%41mple.com", Path: "/"}, parser.HostRegName, "pct-encoded reg-name"},
	{"mailto:John.Doe@example.com", parser.Parts{Scheme: "mailto", HasScheme: true, Path: "John.Doe@example.com"}, parser.HostNone, "§1.1.2 example"},
	{"//u@h", parser.Parts{HasAuthority: true, Userinfo: "u", HasUserinfo: true, Host: "h"}, parser.HostRegName, "userinfo without scheme"},
	{"//a:b@c:1", parser.Parts{HasAuthority: true, Userinfo: "a:b", HasUserinfo: true, Host: "c", Port: "1", HasPort: true}, parser.HostRegName, "colon in userinfo, then a port"},
	{"g;x=1/../y", parser.Parts{Path: "g;x=1/../y"}, parser.HostNone, "§5.4.1 reference"},
}

func TestComponents(t *testing.T) {
	for _, tt := range componentTests {
		u, err := parser.ParseReference(tt.in)
		if err != nil {
			t.Errorf("ParseReference(%q): %v (%s)", tt.in, err, tt.why)
			continue
		}
		if diff := cmp.Diff(tt.want, u.Parts()); diff != "" {
			t.Errorf("ParseReference(%q) (%s) parts (-want +got):\n%s", tt.in, tt.why, diff)
		}
		if u.HostKind() != tt.kind {
			t.Errorf("ParseReference(%q).HostKind() = %v, want %v (%s)", tt.in, u.HostKind(), tt.kind, tt.why)
		}
		if got := u.String(); got != tt.in {
			t.Errorf("ParseReference(%q).String() = %q: not lossless", tt.in, got)
		}
		again, _ := parser.ParseReference(u.String())
		if again != u {
			t.Errorf("ParseReference(%q) twice: %v != %v", tt.in, again, u)
		}
		if p := u.Parts(); p.String() != tt.in {
			t.Errorf("Parts(%q).String() = %q", tt.in, p.String())
		}
	}
}

// startRuleTests: the four URI-level entry points.
var startRuleTests = []struct {
	parse func(string) (parser.URI, error)
	name  string
	in    string
	ok    bool
}{
	{parser.ParseURI, "ParseURI", "http://a/b#f", true},
	{parser.ParseURI, "ParseURI", "//a/b", false},
	{parser.ParseAbsolute, "ParseAbsolute", "http://a/b?q", true},
	{parser.ParseAbsolute, "ParseAbsolute", "http://a/b#f", false},
	{parser.ParseRelative, "ParseRelative", "//a/b?q#f", true},
	{parser.ParseRelative, "ParseRelative", "a:b", false},
	{parser.ParseRelative, "ParseRelative", "", true},
	{parser.ParseReference, "ParseReference", "a:b", true},
}

func TestStartRules(t *testing.T) {
	for _, tt := range startRuleTests {
		u, err := tt.parse(tt.in)
		if (err == nil) != tt.ok {
			t.Errorf("%s(%q) = %v, %v; want ok=%v", tt.name, tt.in, u, err, tt.ok)
		}
	}
	if _, err := parser.ParseAs("host", "a"); err == nil {
		t.Error("ParseAs(host) succeeded: host is not a URI rule")
	}
}

// errorTests: the byte offset where parsing stops, the rule of Appendix A
// that could not continue, and what could have come there.
var errorTests = []struct {
	rule, in string
	offset   int
	msg      string // substring of Error()
}{
	// §3.2.2: a space is no character of a reg-name.
	{"URI-reference", "http://exa mple.com/", 10, `reg-name could not continue at offset 10: found " "; expected pct-encoded, unreserved, sub-delims, "#", "/", ":", "?", "@" or end of input`},
	// §2.1: "%" is followed by two hexadecimal digits.
	{"URI-reference", "http://example.com/%zz", 20, `pct-encoded could not continue at offset 20: found "z"; expected HEXDIG`},
	// "1" may begin an IPv4address's dec-octet inside ls32, or an h16: "/"
	// continues neither, and IPv6address, which holds both readings, could
	// not continue.
	{"URI-reference", "http://[::1/", 11, `IPv6address could not continue at offset 11: found "/"; expected DIGIT, HEXDIG, ".", ":" or "]"`},
	// The same kind: "1" is an h16 or an IPv4address's first dec-octet;
	// "x" and "%" continue neither (an RFC 3986 IPv6 literal has no zone).
	{"URI-reference", "http://[::1x]/", 11, `IPv6address could not continue at offset 11: found "x"`},
	{"URI-reference", "http://[fe80::1%eth0]/", 15, `IPv6address could not continue at offset 15: found "%"`},
	{"URI-reference", "http://[1:2:3:4:5:6:7x]/", 21, `IPv6address could not continue at offset 21: found "x"`},
	// After "1.", only an IPv4address: its dec-octet could not continue.
	{"URI-reference", "http://[::ffff:1.2.3x]/", 20, `dec-octet could not continue at offset 20: found "x"`},
	// §2.1: "%4" is the middle of a pct-encoded, whatever the rule around
	// it could read next ("@" and ":" are authority's, "/" a path's).
	{"URI-reference", "http://u%4@h/", 10, `pct-encoded could not continue at offset 10: found "@"; expected HEXDIG`},
	{"URI-reference", "http://u%4:p@h/", 10, `pct-encoded could not continue at offset 10: found ":"; expected HEXDIG`},
	{"path", "/%/", 2, `pct-encoded could not continue at offset 2: found "/"; expected HEXDIG`},
	{"path", "%:B", 1, `pct-encoded could not continue at offset 1: found ":"; expected HEXDIG`},
	// "example.com:8o" can still be userinfo: the input fails at "/", where "@" was the last hope.
	{"URI-reference", "http://example.com:8o/", 21, `userinfo could not continue at offset 21: found "/"; expected pct-encoded, unreserved, sub-delims, ":" or "@"`},
	// A non-ASCII character is an IRI's (RFC 3987), not a URI's.
	{"URI-reference", "http://a/é", 9, "segment could not continue at offset 9: found \"é\" (U+00E9, bytes C3 A9)"},
	{"URI-reference", "http://a/\xff", 9, "segment could not continue at offset 9: found byte 0xFF (invalid UTF-8)"},
	// §3.5: a fragment has no "#".
	{"URI-reference", "http://a/#a#b", 11, `fragment could not continue at offset 11: found "#"; expected pchar, "/", "?" or end of input`},
	// §3.1: a scheme begins with a letter.
	{"URI", "//a", 0, `URI could not continue at offset 0: found "/"; expected ALPHA`},
	{"URI", "", 0, "URI could not continue at offset 0: found end of input; expected ALPHA"},
	{"dec-octet", "256", 2, `dec-octet could not continue at offset 2: found "6"; expected %x30-35 or end of input`},
	// §3.2.2: at most eight h16 pieces.
	{"IPv6address", "1:2:3:4:5:6:7:8:9", 15, `h16 could not continue at offset 15: found ":"; expected HEXDIG or end of input`},
}

func TestErrors(t *testing.T) {
	for _, tt := range errorTests {
		_, err := parser.ParseRule(tt.rule, tt.in)
		var pe *parser.Error
		if !errors.As(err, &pe) {
			t.Errorf("ParseRule(%s, %q) = %v, want *parser.Error", tt.rule, tt.in, err)
			continue
		}
		if pe.Offset != tt.offset || pe.Input != tt.in || pe.Rule != tt.rule {
			t.Errorf("ParseRule(%s, %q): offset %d rule %s input %q; want offset %d", tt.rule, tt.in, pe.Offset, pe.Rule, pe.Input, tt.offset)
		}
		if !strings.Contains(pe.Error(), tt.msg) {
			t.Errorf("ParseRule(%s, %q).Error() = %q, want it to contain %q", tt.rule, tt.in, pe.Error(), tt.msg)
		}
		lines := strings.Split(pe.Caret(), "\n")
		if len(lines) != 3 || !strings.HasSuffix(lines[1], "^") {
			t.Errorf("Caret(%q):\n%s", tt.in, pe.Caret())
		}
	}
}

func TestCaretAlignment(t *testing.T) {
	_, err := parser.ParseReference("http://a\tb/")
	got := err.(*parser.Error).Caret()
	want := "http://a\\x09b/\n        ^\n"
	if !strings.HasPrefix(got, want) {
		t.Errorf("Caret:\n%s\nwant prefix:\n%s", got, want)
	}
}

func TestParseRuleNames(t *testing.T) {
	if _, err := parser.ParseRule("uri-REFERENCE", "a:b"); err != nil {
		t.Errorf("rule names are case-insensitive: %v", err)
	}
	if _, err := parser.ParseRule("nope", "a"); err == nil || !strings.Contains(err.Error(), `no rule "nope"`) {
		t.Errorf("unknown rule: %v", err)
	}
	rules := parser.Rules()
	if len(rules) != 39 {
		t.Errorf("Rules() has %d rules, want the 36 of Appendix A and 3 core rules", len(rules))
	}
	n, err := parser.ParseRule("ALPHA", "x")
	if err != nil || n.Rule != "ALPHA" || n.End != 1 {
		t.Errorf("ParseRule(ALPHA, x) = %+v, %v", n, err)
	}
}

// TestTree: the parse tree has the captured rules with their spans.
func TestTree(t *testing.T) {
	n, err := parser.ParseRule("URI", "s://1.2.3.4:5/p")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var walk func(*parser.Node, string)
	walk = func(n *parser.Node, indent string) {
		got = append(got, indent+n.Rule+" "+"s://1.2.3.4:5/p"[n.Start:n.End])
		for _, k := range n.Kids {
			walk(k, indent+" ")
		}
	}
	walk(n, "")
	want := []string{
		"URI s://1.2.3.4:5/p",
		" scheme s",
		" hier-part //1.2.3.4:5/p",
		"  authority 1.2.3.4:5",
		"   host 1.2.3.4",
		"    IPv4address 1.2.3.4",
		"     dec-octet 1",
		"     dec-octet 2",
		"     dec-octet 3",
		"     dec-octet 4",
		"   port 5",
		"  path-abempty /p",
		"   segment p",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}
}

func TestTextMarshaling(t *testing.T) {
	var u parser.URI
	if err := u.UnmarshalText([]byte("http://a/b?")); err != nil {
		t.Fatal(err)
	}
	b, _ := u.MarshalText()
	if string(b) != "http://a/b?" {
		t.Errorf("MarshalText = %q", b)
	}
	b, _ = u.AppendText([]byte("<"))
	if string(b) != "<http://a/b?" {
		t.Errorf("AppendText = %q", b)
	}
	if err := u.UnmarshalText([]byte("http://a b")); err == nil {
		t.Error("UnmarshalText(invalid) succeeded")
	}
	if err := u.UnmarshalText(nil); err != nil || u != (parser.URI{}) {
		t.Errorf("UnmarshalText(empty) = %v, %v; want the zero URI", u, err)
	}
}

// TestSet: *URI is a flag.Value, which parses in place and keeps its URI
// on failure.
func TestSet(t *testing.T) {
	var u parser.URI
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var(&u, "base", "the base URI")
	if err := fs.Parse([]string{"-base", "http://a/b?q#f"}); err != nil {
		t.Fatal(err)
	}
	if want := parser.MustParseReference("http://a/b?q#f"); u != want {
		t.Errorf("-base: %#v, want %#v", u.Parts(), want.Parts())
	}
	if err := u.Set("http://a b"); err == nil || u.String() != "http://a/b?q#f" {
		t.Errorf("Set(invalid) = %v, and the URI is %q; want an error and the URI unchanged", err, u.String())
	}
	// Every field is set, whatever u held.
	for _, s := range []string{"g", "//h:1", "?q", "s:p#f", ""} {
		if err := u.Set(s); err != nil || u != parser.MustParseReference(s) {
			t.Errorf("Set(%q): %#v, %v", s, u.Parts(), err)
		}
	}
}

// TestNoAllocs: the fast path allocates nothing for a valid input.
func TestNoAllocs(t *testing.T) {
	inputs := []string{
		"https://user@www.example.com:8080/a/b/c/resource?q=1&r=x#frg",
		"http://[2001:db8::8a2e:370:7348]:8080/a/b?q=1#f",
		"//192.0.2.1/x",
		"../../g;x=1/./y?q#s",
		"",
	}
	var sink parser.URI
	for _, in := range inputs {
		if n := testing.AllocsPerRun(100, func() { sink, _ = parser.ParseReference(in) }); n != 0 {
			t.Errorf("ParseReference(%q): %v allocations, want 0", in, n)
		}
		if n := testing.AllocsPerRun(100, func() { _ = parser.Validate("URI-reference", in) }); n != 0 {
			t.Errorf("Validate(%q): %v allocations, want 0", in, n)
		}
	}
	_ = sink
}

// TestReasonCompactsClasses: a class with ranges above U+007F (RFC 3987's
// ucschar has 17) is shortened in messages, and kept whole in Expected.
func TestReasonCompactsClasses(t *testing.T) {
	long := `[!$&-,.0-9;=A-Z_a-z~\xA0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF\U00010000-\U0001FFFD-]`
	short := `[!$&-,.0-9;=A-Z_a-z~-]`
	e := &parser.Error{Input: "a b", Offset: 1, Rule: "IRI", Expected: []string{`"#"`, long, short, `[\]\\]`}}
	want := `unexpected " " at offset 1; expected "#", [!$&-,.0-9;=A-Z_a-z~…non-ASCII], [!$&-,.0-9;=A-Z_a-z~-] or [\]\\]`
	if got := e.Reason(); got != want {
		t.Errorf("Reason() = %s\nwant       %s", got, want)
	}
	if e.Expected[1] != long {
		t.Errorf("Expected changed: %s", e.Expected[1])
	}
}

// TestDefaultRuleName: "" names the default rule wherever a rule is
// named, as in Parse (Validate said `no rule ""`).
func TestDefaultRuleName(t *testing.T) {
	p := parser.RFC3986()
	if name, ok := p.Rule(""); !ok || name != "URI-reference" {
		t.Errorf(`Rule("") = %q, %v`, name, ok)
	}
	if err := p.Validate("", "http://a/b?c#d"); err != nil {
		t.Errorf(`Validate("", valid): %v`, err)
	}
	var e *parser.Error
	if err := p.Validate("", "http://a b"); !errors.As(err, &e) || e.Rule != "URI-reference" || e.Offset != 8 {
		t.Errorf(`Validate("", invalid) = %v`, err)
	}
	if n, err := p.ParseRule("", "a"); err != nil || n == nil || n.Rule != "URI-reference" {
		t.Errorf(`ParseRule("", "a") = %v, %v`, n, err)
	}
}

package rfc6874_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc6874"
	"github.com/peguri/rfc3986/syntaxtest"
)

// TestDifferential: matcher, pigeon and DFA agree on samples of every rule
// of the layered grammar (40,000 per URI rule and for IP-literal, whose
// alternatives RFC 6874 changed).
func TestDifferential(t *testing.T) {
	per := 40000
	if testing.Short() {
		per = 4000
	}
	n := syntaxtest.Run(t, syntaxtest.Config{Grammar: []string{"rfc3986", "rfc6874"}, Parser: rfc6874.Parser(), PerURI: per, PerRule: 3000, Seed: 6874})
	t.Logf("%d inputs", n)
}

var zoneTests = []struct {
	in   string
	ok   bool // under RFC 6874
	rfc  bool // under RFC 3986 alone
	host string
	why  string
}{
	{"http://[fe80::1%25eth0]/", true, false, "[fe80::1%25eth0]", "RFC 6874 §2 example"},
	{"http://[fe80::1%25en1]:8080/x", true, false, "[fe80::1%25en1]", "with a port"},
	{"http://[fe80::a%25%31]/", true, false, "[fe80::a%25%31]", "pct-encoded ZoneID"},
	{"http://[::ffff:1.2.3.4%25x]/", true, false, "[::ffff:1.2.3.4%25x]", "IPv4 tail then zone"},
	{"http://[fe80::1%eth0]/", false, false, "", "the % of a zone must be encoded as %25 (§2)"},
	{"http://[fe80::1%25]/", false, false, "", "ZoneID = 1*( unreserved / pct-encoded ): not empty"},
	{"http://[fe80::1%25a%]/", false, false, "", "bad pct-encoding in the zone"},
	{"http://[v1.x%25a]/", false, false, "", "IPvFuture takes no zone"},
	{"http://[::1]/", true, true, "[::1]", "no zone: both"},
	{"http://[fe80::1%25eth0]x/", false, false, "", "junk after the literal"},
}

func TestZoneIDs(t *testing.T) {
	for _, tt := range zoneTests {
		u, err := rfc6874.Parser().Parse("URI-reference", tt.in)
		if (err == nil) != tt.ok {
			t.Errorf("rfc6874 %q: %v, want ok=%v (%s)", tt.in, err, tt.ok, tt.why)
			continue
		}
		if _, err := parser.ParseReference(tt.in); (err == nil) != tt.rfc {
			t.Errorf("rfc3986 %q: %v, want ok=%v (%s)", tt.in, err, tt.rfc, tt.why)
		}
		if tt.ok && (u.Host() != tt.host || u.HostKind() != parser.HostIPv6) {
			t.Errorf("%q: host %q (%v), want %q (ipv6)", tt.in, u.Host(), u.HostKind(), tt.host)
		}
	}
	var pe *parser.Error
	if _, err := rfc6874.Parser().Parse("", "http://[fe80::1%eth0]/"); !errors.As(err, &pe) || pe.Offset != 16 || pe.Innermost != "IPv6addrz" {
		t.Errorf("error %v, want IPv6addrz failing at offset 16, where \"%%25\" goes on with \"25\"", err)
	}
}

func TestTree(t *testing.T) {
	n, err := rfc6874.Parser().ParseRule("IP-literal", "[fe80::1%25eth0]")
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Kids) != 1 || n.Kids[0].Rule != "IPv6addrz" || n.Kids[0].Kids[1].Rule != "ZoneID" {
		t.Errorf("tree: %+v", n.Kids[0])
	}
}

// TestErrorBeforeInvalidUTF8: pigeon (ParsePEG) reads a character ahead
// and reports bytes that are not UTF-8 instead of its farthest failure;
// the error is where the input stops being viable, before them when it
// does. ParseRule and Validate, which decide with host's DFA, put it at
// the same offset.
func TestErrorBeforeInvalidUTF8(t *testing.T) {
	for _, tt := range []struct {
		in      string
		off     int
		msg     string
		invalid bool // the DFA's error is the bytes that are not UTF-8
	}{
		{"5a. \xff", 3, `unexpected " " at offset 3`, false},
		{"5a\xff", 2, "invalid UTF-8 at offset 2", true},
		{"[::1\xff", 4, "invalid UTF-8 at offset 4", true},
	} {
		var e *parser.Error
		if _, err := rfc6874.Parser().ParsePEG("host", tt.in); !errors.As(err, &e) || e.Offset != tt.off || !strings.Contains(e.Error(), tt.msg) {
			t.Errorf("ParsePEG(host, %q) = %v; want offset %d, %s", tt.in, err, tt.off, tt.msg)
		}
		for via, parse := range map[string]func() error{
			"ParseRule": func() error { _, err := rfc6874.Parser().ParseRule("host", tt.in); return err },
			"Validate":  func() error { return rfc6874.Parser().Validate("host", tt.in) },
		} {
			if err := parse(); !errors.As(err, &e) || e.Offset != tt.off || e.Innermost == "" || (e.Msg == "invalid UTF-8") != tt.invalid {
				t.Errorf("%s(host, %q) = %v; want the DFA's error at offset %d", via, tt.in, err, tt.off)
			}
		}
	}
}

// TestInvalidUTF8InsideLiteral: bytes that are not UTF-8 where the input
// ends a string in part ("%2" of "%25") are the error, as where it does
// not.
func TestInvalidUTF8InsideLiteral(t *testing.T) {
	for _, in := range []string{"[fe80::1%2\xff]", "[fe80::1%25\xff]", "a%2\xff"} {
		var e *parser.Error
		if err := rfc6874.Parser().Validate("host", in); !errors.As(err, &e) || e.Msg != "invalid UTF-8" || e.Offset != strings.IndexByte(in, 0xff) {
			t.Errorf("Validate(host, %q) = %v; want invalid UTF-8 at %d", in, err, strings.IndexByte(in, 0xff))
		}
	}
}

// TestTextRoundTrip: a URI with a zone identifier reads back into a URI
// of RFC 6874's grammar (RFC 3986's rejects the zone).
func TestTextRoundTrip(t *testing.T) {
	z, err := rfc6874.Parser().Parse("", "http://[fe80::1%25eth0]/")
	if err != nil {
		t.Fatal(err)
	}
	text, _ := z.MarshalText()
	u, _ := rfc6874.Parser().Parse("", "")
	if err := u.UnmarshalText(text); err != nil || u != z {
		t.Errorf("UnmarshalText into RFC 6874's: %v, %v", u, err)
	}
	var zero parser.URI
	if err := zero.UnmarshalText(text); err == nil {
		t.Errorf("UnmarshalText into a zero URI took a zone: %v", zero)
	}
}

// TestEveryRuleHasADFA: every rule validates with its DFA (see RFC 3987's
// test of the same name).
func TestEveryRuleHasADFA(t *testing.T) {
	for _, rule := range rfc6874.Parser().Rules() {
		var e *parser.Error
		err := rfc6874.Parser().Validate(rule, strings.Repeat(" ", parser.MaxTreeLength+1))
		if !errors.As(err, &e) || errors.Is(err, parser.ErrTooLong) || e.Innermost == "" {
			t.Errorf("Validate(%s, %d spaces) = %v; want the DFA's error", rule, parser.MaxTreeLength+1, err)
		}
	}
}

package urn_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/examples/urn"
	"github.com/peguri/rfc3986/syntaxtest"
)

// TestDifferential: the generated pigeon parser and DFAs agree with the
// exact ABNF matcher on samples and near-misses of every URN rule.
func TestDifferential(t *testing.T) {
	n := syntaxtest.Run(t, syntaxtest.Config{
		Parser:  urn.Parser(),
		Grammar: []string{"rfc3986", "urn.abnf"},
		PerRule: 20000,
		Seed:    8141,
	})
	t.Logf("%d inputs", n)
}

var urnTests = []struct {
	in   string
	want urn.URN
	ok   bool
	why  string
}{
	{"urn:example:a123,z456", urn.URN{NID: "example", NSS: "a123,z456"}, true, "RFC 8141 §3.2 example"},
	{"URN:EXAMPLE:a123,z456", urn.URN{NID: "EXAMPLE", NSS: "a123,z456"}, true, `"urn" and the NID are case-insensitive`},
	{"urn:example:1/406/47452/2", urn.URN{NID: "example", NSS: "1/406/47452/2"}, true, "§2.2: / in the NSS"},
	{"urn:example:foo-bar-baz-qux?+CCResolve:cc=uk", urn.URN{NID: "example", NSS: "foo-bar-baz-qux", RComponent: "CCResolve:cc=uk", HasR: true}, true, "§2.3.1 example"},
	{"urn:example:weather?=op=map&lat=39.56&lon=-104.85&datetime=1969-07-21T02:56:15Z", urn.URN{NID: "example", NSS: "weather", QComponent: "op=map&lat=39.56&lon=-104.85&datetime=1969-07-21T02:56:15Z", HasQ: true}, true, "§2.3.2 example"},
	{"urn:example:a123,z456#789", urn.URN{NID: "example", NSS: "a123,z456", FComponent: "789", HasF: true}, true, "§2.3.3"},
	{"urn:ab-cd:x", urn.URN{NID: "ab-cd", NSS: "x"}, true, "hyphen inside the NID: the 0*30(ldh) trap"},
	{"urn:a1234567890123456789012345678901:x", urn.URN{NID: "a1234567890123456789012345678901", NSS: "x"}, true, "32-character NID, the longest"},
	{"urn:a12345678901234567890123456789012:x", urn.URN{}, false, "33 characters: too long"},
	{"urn:a-:x", urn.URN{}, false, "NID may not end with a hyphen"},
	{"urn:a:x", urn.URN{}, false, "NID needs two characters"},
	{"urn:ab:", urn.URN{}, false, "empty NSS"},
	{"urn:ab:x?y", urn.URN{}, false, `"?" alone is not a URN component (§2)`},
	{"urn:a:b?+r?=q", urn.URN{}, false, "NID of one character"},
	{"urn:ab:b?+r?=q", urn.URN{NID: "ab", NSS: "b", RComponent: "r?=q", HasR: true}, true, "ambiguous: the r-component keeps going (see ParseURN)"},
}

func TestParseURN(t *testing.T) {
	for _, tt := range urnTests {
		got, err := urn.ParseURN(tt.in)
		if (err == nil) != tt.ok {
			t.Errorf("ParseURN(%q) = %v (%s)", tt.in, err, tt.why)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseURN(%q) (%s) (-want +got):\n%s", tt.in, tt.why, diff)
		}
		if urn.Valid(tt.in) != tt.ok {
			t.Errorf("Valid(%q) = %v", tt.in, !tt.ok)
		}
		if tt.ok && tt.in[:3] == "urn" && got.String() != tt.in {
			t.Errorf("String() = %q, want %q", got.String(), tt.in)
		}
	}
}

// TestReport: the translator found the 0*30(ldh) trap and guarded it.
func TestReport(t *testing.T) {
	peg, err := os.ReadFile("internal/urngen/urn.peg")
	if err != nil {
		t.Fatal(err)
	}
	if want := `&[0-9A-Za-z]`; !strings.Contains(string(peg), want) {
		t.Errorf("urn.peg lacks the guard %s", want)
	}
}

func ExampleParseURN() {
	u, err := urn.ParseURN("urn:example:weather?=op=map&lat=39.56#top")
	if err != nil {
		panic(err)
	}
	fmt.Println(u.NID, u.NSS, u.QComponent, u.FComponent)
	_, err = urn.ParseURN("urn:a-:x")
	fmt.Println(err)
	// Output:
	// example weather op=map&lat=39.56 top
	// parse "urn:a-:x" as namestring: NID could not continue at offset 6: found ":"; expected ldh or alphanum
}

// The URN grammar's own charsets encode its components: an NSS keeps what
// RFC 8141 allows it (pchar and "/", but not "/" first), and encodes the
// rest; an empty NSS is no NSS.
func ExampleParser_encodeRule() {
	s, err := urn.Parser().EncodeRule("NSS", "a b/c?d")
	fmt.Println(s, err)
	s, err = urn.Parser().EncodeRule("NSS", "/x/y")
	fmt.Println(s, err, urn.Parser().Validate("NSS", s))
	_, err = urn.Parser().EncodeRule("NSS", "")
	fmt.Println(err)
	// Output:
	// a%20b/c%3Fd <nil>
	// %2Fx/y <nil> <nil>
	// parser: urn: rule NSS: no encoding of "" matches it: parse "" as NSS: NSS could not continue at offset 0: found end of input; expected pchar
}

package abnf_test

import (
	"os"
	"strings"
	"testing"

	"github.com/peguri/rfc3986/abnf"
)

func readFile(t testing.TB, name string) *abnf.Grammar {
	t.Helper()
	g, err := abnf.ReadFiles([]string{name}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestFormatRoundTrip: the canonical form re-reads to an equal grammar, and
// is a fixed point.
func TestFormatRoundTrip(t *testing.T) {
	var srcs []string
	for _, tt := range constructTests {
		srcs = append(srcs, tt.src+"\na = \"a\"\nb = \"b\"\nc = \"c\"\nx-y-1 = \"x\"\n")
	}
	for _, f := range []string{"../grammar/rfc3986.abnf", "../testdata/rfc5234-abnf.abnf", "core.abnf"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(b))
	}
	for _, src := range srcs {
		g, err := abnf.ReadString("in.abnf", src)
		if err != nil {
			t.Fatalf("%.40q: %v", src, err)
		}
		out := abnf.Format(g)
		g2, err := abnf.ReadString("out.abnf", string(out))
		if err != nil {
			t.Errorf("Format output does not read: %v\n%s", err, out)
			continue
		}
		if !abnf.Equal(g, g2) {
			t.Errorf("Format output reads to a different grammar:\n%s", out)
		}
		if out2 := abnf.Format(g2); string(out2) != string(out) {
			t.Errorf("Format is not a fixed point:\n%s\n---\n%s", out, out2)
		}
	}
}

func TestEqualDetectsDifferences(t *testing.T) {
	base := "r = a / b\na = \"a\"\nb = %x62\n"
	for _, other := range []string{
		"r = b / a\na = \"a\"\nb = %x62\n",
		"r = a / b\na = %s\"a\"\nb = %x62\n",
		"r = a / b\na = \"a\"\nb = %x63\n",
		"r = a / b\na = \"a\"\nb = %x62-63\n",
		"r = a / [b]\na = \"a\"\nb = %x62\n",
		"r = a / b\na = \"a\"\nb = %x62\nc = \"c\"\n",
	} {
		g1, _ := abnf.ReadString("1", base)
		g2, err := abnf.ReadString("2", other)
		if err != nil {
			t.Fatal(err)
		}
		if abnf.Equal(g1, g2) {
			t.Errorf("Equal(%q, %q) = true", base, other)
		}
	}
	g1, _ := abnf.ReadString("1", base)
	g2, _ := abnf.ReadString("2", "R = (A) / B\nA = \"A\"\nB = %d98\n")
	if !abnf.Equal(g1, g2) {
		t.Error("Equal ignores name case, groups, string case and numeric base: got false")
	}
}

// TestRFC5234ReadsAppendixA uses the matcher on RFC 5234's own grammar of
// ABNF: the canonical form of Appendix A, with CRLF lines as §4 requires,
// matches rulelist; broken texts do not.
func TestRFC5234ReadsAppendixA(t *testing.T) {
	abnfOfABNF := readFile(t, "../testdata/rfc5234-abnf.abnf")
	m, err := abnf.NewMatcher(abnfOfABNF)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(abnf.Format(rfc3986(t))), "\n", "\r\n")
	if ok, _ := m.Match("rulelist", []byte(text)); !ok {
		t.Errorf("Appendix A in canonical form does not match RFC 5234 rulelist")
	}
	for _, bad := range []string{
		"a = b\n",              // LF only
		"a = (b\r\n",           // unclosed group
		"a = \"\x01\"\r\n",     // control character in a string
		"a = b\r\n  c = d\r\n", // a rule on a continuation line
		"1a = b\r\n",           // name starting with a digit
	} {
		if ok, _ := m.Match("rulelist", []byte(bad)); ok {
			t.Errorf("rulelist matched %q", bad)
		}
	}
}

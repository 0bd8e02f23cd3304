package abnf_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/grammar"
)

func rfc3986(t testing.TB) *abnf.Grammar {
	t.Helper()
	g, err := abnf.Read([]abnf.Source{{Name: grammar.RFC3986Name, Text: grammar.RFC3986()}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// matchTests are hand-checked verdicts of RFC 3986 Appendix A rules. The
// "why" of each row names the construct it probes; the risky rules are the
// ones where a PEG reading differs from ABNF: ordered choice commits to the
// first alternative that matches and repetition never gives input back.
var matchTests = []struct {
	rule string
	in   string
	want bool
	why  string
}{
	{"dec-octet", "0", true, "DIGIT"},
	{"dec-octet", "9", true, "DIGIT"},
	{"dec-octet", "10", true, "%x31-39 DIGIT"},
	{"dec-octet", "99", true, "%x31-39 DIGIT"},
	{"dec-octet", "100", true, `"1" 2DIGIT`},
	{"dec-octet", "199", true, `"1" 2DIGIT`},
	{"dec-octet", "249", true, `"2" %x30-34 DIGIT`},
	{"dec-octet", "25", true, "DIGIT prefix of the 25x alternative"},
	{"dec-octet", "250", true, `"25" %x30-35`},
	{"dec-octet", "255", true, `"25" %x30-35`},
	{"dec-octet", "256", false, "above 255"},
	{"dec-octet", "00", false, "leading zero"},
	{"dec-octet", "01", false, "leading zero"},
	{"dec-octet", "1000", false, "four digits"},
	{"dec-octet", "", false, "empty"},
	{"IPv4address", "1.2.3.4", true, ""},
	{"IPv4address", "255.255.255.255", true, ""},
	{"IPv4address", "1.2.3.45", true, "multi-digit last octet (naive PEG rejects)"},
	{"IPv4address", "1.2.3.256", false, ""},
	{"IPv4address", "1.2.3", false, ""},
	{"IPv6address", "1:2:3:4:5:6:7:8", true, "6( h16 \":\" ) ls32"},
	{"IPv6address", "1:2:3:4:5:6:1.2.3.4", true, "ls32 as IPv4"},
	{"IPv6address", "::", true, "last alternative"},
	{"IPv6address", "::1", true, ""},
	{"IPv6address", "1::", true, "greedy h16 \":\" trap"},
	{"IPv6address", "1:2::3", true, "greedy h16 \":\" trap"},
	{"IPv6address", "fe80::1", true, "lower-case HEXDIG"},
	{"IPv6address", "FE80::1", true, "upper-case HEXDIG"},
	{"IPv6address", "::ffff:192.168.0.1", true, "IPv4-mapped"},
	{"IPv6address", "1:2:3:4:5:6:7::", true, "seven groups then ::"},
	{"IPv6address", "::2:3:4:5:6:7:8", true, ":: then seven groups"},
	{"IPv6address", "1:2:3:4:5:6:7:8:9", false, "nine groups"},
	{"IPv6address", "1:2:3:4:5:6:7", false, "seven groups, no ::"},
	{"IPv6address", "1::2::3", false, "two ::"},
	{"IPv6address", "12345::", false, "five hex digits"},
	{"IPv6address", ":1:2:3:4:5:6:7", false, "single leading colon"},
	{"IPv6address", "1:2:3:4:5:6:7:8::", false, "eight groups then ::"},
	{"IPv6address", "::1.2.3.4", true, "ls32 after ::"},
	{"IPv6address", "::1.2.3", false, "short IPv4 tail"},
	{"IPv6address", "g::", false, "not a hex digit"},
	{"IPvFuture", "v1.x", true, ""},
	{"IPvFuture", "V1.x", true, `"v" is case-insensitive`},
	{"IPvFuture", "vF.a:b", true, ""},
	{"IPvFuture", "vf.a", true, "lower-case HEXDIG"},
	{"IPvFuture", "v.x", false, "no version"},
	{"IPvFuture", "v1.", false, "empty"},
	{"IP-literal", "[::1]", true, ""},
	{"IP-literal", "[v7.fe80::abcd]", true, ""},
	{"IP-literal", "[fe80::1%25eth0]", false, "RFC 6874 zone IDs are not RFC 3986"},
	{"host", "1.2.3.4", true, "IPv4address"},
	{"host", "1.2.3.4.5", true, "reg-name"},
	{"host", "256.1.1.1", true, "reg-name"},
	{"host", "1.2.3.456", true, "reg-name"},
	{"host", "1.2.3.4a", true, "reg-name"},
	{"host", "ex%41mple.com", true, "pct-encoded reg-name"},
	{"host", "", true, "empty reg-name"},
	{"host", "[::1", false, ""},
	{"host", "a b", false, ""},
	{"port", "", true, ""},
	{"port", "99999", true, "no range in the grammar"},
	{"port", "8o", false, ""},
	{"authority", "u:p@h:1", true, ""},
	{"authority", "@", true, "empty userinfo and host"},
	{"authority", "a@b@c", false, "two @"},
	{"authority", "h:1:2", false, "two ports"},
	{"path", "", true, "path-empty"},
	{"path", "a/b", true, "path-noscheme (naive PEG rejects)"},
	{"path", "a:b/c", true, "path-rootless"},
	{"path", "/a", true, "path-absolute"},
	{"path", "//a", true, "path-abempty"},
	{"path", "a b", false, ""},
	{"path-empty", "", true, "0<pchar> is the empty string"},
	{"path-empty", "a", false, "0<pchar> is the empty string"},
	{"path-absolute", "/", true, ""},
	{"path-absolute", "//a", false, "must not begin with //"},
	{"segment-nz-nc", "a:b", false, "no colon"},
	{"pct-encoded", "%2f", true, "lower-case HEXDIG (RFC 5234 §2.3)"},
	{"pct-encoded", "%2F", true, ""},
	{"pct-encoded", "%g0", false, ""},
	{"scheme", "a+b-c.d", true, ""},
	{"scheme", "1a", false, ""},
	{"URI", "http://a/b?c#d", true, ""},
	{"URI", "a:", true, "empty hier-part"},
	{"URI", "//a", false, "no scheme"},
	{"absolute-URI", "a:b#c", false, "no fragment"},
	{"relative-ref", "a:b", false, "colon in first segment"},
	{"URI-reference", "", true, "empty reference"},
	{"URI-reference", "a:b", true, "URI"},
	{"URI-reference", "./a:b", true, "relative"},
	{"URI-reference", "a/b:c", true, "relative"},
	{"URI-reference", "http://[::1]/", true, ""},
	{"URI-reference", "http://[fe80::1%25eth0]/", false, "zone ID"},
	{"URI-reference", "http://exa mple.com/", false, "space"},
	{"URI-reference", "http://example.com/%zz", false, ""},
	{"URI-reference", "http://example.com/#a#b", false, "# in fragment"},
	{"URI-reference", "http://example.com/?a=[1]", false, "[ in query"},
	{"URI-reference", "http://[::1]x/", false, "junk after IP-literal"},
	{"URI-reference", "1http://example.com", false, "colon in first segment"},
	{"URI-reference", ":foo", false, "empty scheme"},
	{"URI-reference", "http:////foo.html", true, "empty authority then path"},
	{"URI-reference", "//", true, ""},
	{"URI-reference", "?#", true, ""},
	{"URI-reference", "http://a/é", false, "raw non-ASCII"},
	{"URI-reference", "http://a/\xff", false, "invalid UTF-8"},
	{"URI-reference", "http://a\r", false, "a trailing CR is input"},
}

func TestMatchRFC3986(t *testing.T) {
	m, err := abnf.NewMatcher(rfc3986(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range matchTests {
		got, err := m.Match(tt.rule, []byte(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("Match(%s, %q) = %v, want %v (%s)", tt.rule, tt.in, got, tt.want, tt.why)
		}
	}
}

// TestMatchExhaustiveDecOctet checks every string of up to three digits
// against the number it spells.
func TestMatchExhaustiveDecOctet(t *testing.T) {
	m, err := abnf.NewMatcher(rfc3986(t))
	if err != nil {
		t.Fatal(err)
	}
	for w := 1; w <= 3; w++ {
		for n := 0; n < 1000; n++ {
			s := fmt.Sprintf("%0*d", w, n)
			if len(s) != w {
				continue
			}
			want := n <= 255 && (s == "0" || s[0] != '0')
			got, _ := m.Match("dec-octet", []byte(s))
			if got != want {
				t.Errorf("dec-octet %q = %v, want %v", s, got, want)
			}
		}
	}
}

// matchSemanticsTests probe ABNF meaning on small grammars.
var matchSemanticsTests = []struct {
	grammar, rule, in string
	want              bool
	why               string
}{
	{`r = *"a" "a"`, "r", "aa", true, "repetition gives input back (PEG would fail)"},
	{`r = ("a" / "ab") "c"`, "r", "abc", true, "alternation is unordered"},
	{`r = "k"`, "r", "K", true, "quoted strings fold ASCII case"},
	{`r = "k"`, "r", "\u212a", false, "KELVIN SIGN is not an ASCII letter"},
	{`r = %s"k"`, "r", "K", false, "%s is case-sensitive"},
	{`r = %i"K"`, "r", "k", true, "%i is case-insensitive"},
	{`r = %x41`, "r", "a", false, "numeric values are exact"},
	{`r = %xE9`, "r", "é", true, "code points above %x7F match UTF-8"},
	{`r = %xE9`, "r", "\xe9", false, "not the raw byte"},
	{`r = %x80-10FFFF`, "r", "\U0010FFFF", true, "largest code point"},
	{`r = %x80-10FFFF`, "r", "\xef\xbf\xbd", true, "U+FFFD spelled out is a code point"},
	{`r = %x80-10FFFF`, "r", "\xc3", false, "truncated UTF-8"},
	{`r = %x0D.0A`, "r", "\r\n", true, "concatenated values"},
	{`r = 2*3"a"`, "r", "a", false, "below minimum"},
	{`r = 2*3"a"`, "r", "aaa", true, "at maximum"},
	{`r = 2*3"a"`, "r", "aaaa", false, "above maximum"},
	{`r = *( ["a"] )`, "r", "aaa", true, "nullable repetition body"},
	{`r = 0"a"`, "r", "", true, "zero repetition"},
	{`r = ""`, "r", "", true, "empty string"},
	{"r = \"(\" *r \")\"", "r", "(()(()))", true, "recursion"},
	{"r = \"(\" *r \")\"", "r", "(()", false, "recursion"},
	{"r = \"a\" r \"b\" / \"\"", "r", "aaabbb", true, "center recursion, not regular"},
	{"r = \"a\" r \"b\" / \"\"", "r", "aaabb", false, "center recursion, not regular"},
	// Left recursion (issue 9): accepted, with its ABNF meaning.
	{"list = list \",\" item / item\nitem = \"x\"", "list", "x,x,x", true, "direct left recursion"},
	{"list = list \",\" item / item\nitem = \"x\"", "list", "x,x,", false, "direct left recursion"},
	{"list = list \",\" item / item\nitem = \"x\"", "list", "", false, "direct left recursion"},
	{`t = "y" / t " " t`, "t", "y y y", true, "ambiguous left recursion (IMAP)"},
	{`t = "y" / t " " t`, "t", "y  y", false, "ambiguous left recursion (IMAP)"},
	{"a = b \"x\" / \"y\"\nb = a \"z\"", "a", "yzxzx", true, "indirect left recursion"},
	{"a = b \"x\" / \"y\"\nb = a \"z\"", "b", "yzxz", true, "indirect left recursion"},
	{"a = b \"x\" / \"y\"\nb = a \"z\"", "a", "yzxz", false, "indirect left recursion"},
	{`r = r "a" / ""`, "r", "aaa", true, "nullable left recursion"},
	{`r = r "a" / ""`, "r", "", true, "nullable left recursion"},
	{"r = [\"x\"] r \"a\" / \"b\"", "r", "xbaa", true, "left recursion behind a nullable prefix"},
	{"r = [\"x\"] r \"a\" / \"b\"", "r", "baa", true, "left recursion behind a nullable prefix"},
	{"r = n r \"a\" / \"b\"\nn = *\"x\"", "r", "xxbaa", true, "left recursion behind a nullable rule"},
	{"r = n \"a\"\nn = n n / \"\" / \"b\"", "r", "bba", true, "nullable and ambiguous"},
	// Nullable bodies.
	{`r = *(*(*"a"))`, "r", "aaaa", true, "nested nullable repetitions"},
	{`r = 3*5( ["a"] )`, "r", "", true, "minimum of a nullable body is moot"},
	{`r = 3*5( ["a"] )`, "r", "aaaaa", true, "at the bound"},
	{`r = 3*5( ["a"] )`, "r", "aaaaaa", false, "above the bound"},
	{`r = 2( *"a" "b" )`, "r", "abab", true, "body of nullable start"},
	// Counted loops: the same with the compiler's limits at zero.
	{`r = 3*("a" / "aa")`, "r", "aaa", true, "counts of several lengths: the largest must stay"},
	{`r = 3*("a" / "aa")`, "r", "aa", false, "two iterations at most"},
	{`r = 3*4("a" / "aa")`, "r", "aaaaaaaa", true, "four iterations of aa"},
	{`r = 3*4("a" / "aa")`, "r", "aaaaaaaaa", false, "nine a's need five iterations"},
	{`r = 2*3("a" / "")`, "r", "aaa", true, "nullable body, at the bound"},
	{`r = 2*3("a" / "")`, "r", "aaaa", false, "nullable body, above the bound"},
	// Tail calls are jumps.
	{"ldh = ld / ld ldh\nld = ALPHA / DIGIT / \"-\"", "ldh", "a-1", true, "tail recursion"},
	{"ldh = ld / ld ldh\nld = ALPHA / DIGIT / \"-\"", "ldh", "", false, "tail recursion"},
	{"r = \"a\" r / \"b\" r / \"\"", "r", "abba", true, "nullable tail recursion"},
}

func TestMatchSemantics(t *testing.T) {
	for _, tt := range matchSemanticsTests {
		g, err := abnf.ReadString("t.abnf", tt.grammar+"\n")
		if err != nil {
			t.Fatalf("%s: %v", tt.grammar, err)
		}
		nfa, earley, counted := matchers(t, g)
		for i, m := range []*abnf.Matcher{nfa, earley, counted} {
			got, err := m.Match(tt.rule, []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("%s: Match(%q) = %v, want %v (%s; matcher %d of 3)", tt.grammar, tt.in, got, tt.want, tt.why, i+1)
			}
		}
		if ok, _ := abnf.Match(g, tt.rule, []byte(tt.in)); ok != tt.want {
			t.Errorf("abnf.Match(%s, %q) = %v, want %v", tt.grammar, tt.in, ok, tt.want)
		}
	}
}

// octetTests: in octet mode numeric values are bytes (RFC 5234 §2.4 leaves
// the encoding to the grammar).
var octetTests = []struct {
	grammar, in string
	want        bool
	why         string
}{
	{`r = %xC3.A9`, "é", true, "the UTF-8 bytes of é"},
	{`r = %xE9`, "é", false, "not the code point"},
	{`r = %xE9`, "\xe9", true, "the byte"},
	{`r = %x80-FF`, "\xff", true, "any high byte, valid UTF-8 or not"},
	{`r = %x00-FF`, "\x00", true, "NUL"},
	{`r = "k"`, "K", true, "quoted strings still fold ASCII"},
	{`r = *%x00-FF`, "\xc3\x28\xa0\xa1", true, "invalid UTF-8 is just bytes"},
}

func TestMatchOctets(t *testing.T) {
	for _, tt := range octetTests {
		g, err := abnf.Read([]abnf.Source{{Name: "t.abnf", Text: []byte(tt.grammar + "\n")}}, &abnf.Options{Octets: true})
		if err != nil {
			t.Fatal(err)
		}
		nfa, earley, counted := matchers(t, g)
		for i, m := range []*abnf.Matcher{nfa, earley, counted} {
			if got, _ := m.Match("r", []byte(tt.in)); got != tt.want {
				t.Errorf("octets: %s: Match(%q) = %v, want %v (%s; matcher %d of 3)", tt.grammar, tt.in, got, tt.want, tt.why, i+1)
			}
		}
	}
}

// TestMatchUTF8Octets: in octet mode, RFC 3629's UTF8-octets accepts
// exactly the valid UTF-8 (issue 9: in code-point mode it rejected "é" and
// accepted its double encoding).
func TestMatchUTF8Octets(t *testing.T) {
	g, err := abnf.ReadFiles([]string{"../testdata/grammars/rfc3629.abnf"}, &abnf.Options{Octets: true})
	if err != nil {
		t.Fatal(err)
	}
	m, err := abnf.NewMatcher(g)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(in []byte) {
		if got, want := mustMatch(t, m, "UTF8-octets", in), utf8.Valid(in); got != want {
			t.Errorf("UTF8-octets %q = %v, want %v (utf8.Valid)", in, got, want)
		}
	}
	for _, s := range []string{"", "é", "\u00e9\u4e16\U0001F600", "\xc3\x83\xc2\xa9", "\xed\xa0\x80", "\xc0\x80", "\xf4\x90\x80\x80", "\xff"} {
		check([]byte(s))
	}
	for range 20000 {
		b := make([]byte, rng.IntN(6))
		for i := range b {
			b[i] = byte(rng.IntN(256))
			if rng.IntN(2) == 0 {
				b[i] = 0x80 | byte(rng.IntN(0x40)) // continuation bytes, often
			}
		}
		check(b)
	}
	if ok := mustMatch(t, m, "UTF8-octets", []byte("é")); !ok {
		t.Error("UTF8-octets rejects é")
	}
}

func mustMatch(t testing.TB, m *abnf.Matcher, rule string, in []byte) bool {
	t.Helper()
	ok, err := m.Match(rule, in)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func TestMatchUnknownRule(t *testing.T) {
	m, _ := abnf.NewMatcher(rfc3986(t))
	if _, err := m.Match("nope", nil); err == nil {
		t.Error("Match(unknown rule) succeeded")
	}
}

func TestPrefixes(t *testing.T) {
	m, _ := abnf.NewMatcher(rfc3986(t))
	got, _ := m.Prefixes("dec-octet", []byte("255"))
	if fmt.Sprint(got) != "[1 2 3]" {
		t.Errorf("Prefixes(dec-octet, 255) = %v, want [1 2 3]", got)
	}
}

// BenchmarkMatch measures the oracle on a 60-byte URI.
func BenchmarkMatch(b *testing.B) {
	m, err := abnf.NewMatcher(rfc3986(b))
	if err != nil {
		b.Fatal(err)
	}
	in := []byte("https://user@www.example.com:8080/a/b/c/resource?q=1&r=x#frg")
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if ok, _ := m.Match("URI-reference", in); !ok {
			b.Fatal("no match")
		}
	}
}

// TestMatchWorkBudget: with MaxWorkPerByte, a match of an ambiguous
// grammar (work cubic in the input) stops at the budget with ErrMatchWork,
// in Match and in Prefixes; a budget it fits in changes no verdict, and a
// linear grammar's long input fits in the same budget.
func TestMatchWorkBudget(t *testing.T) {
	g, err := abnf.Read([]abnf.Source{{Name: "s.abnf", Text: []byte("s = \"v\" *( \";\" s )\n")}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := abnf.NewMatcher(g)
	if err != nil {
		t.Fatal(err)
	}
	in := []byte("v" + strings.Repeat(";v", 100)) // 192,458 steps
	m.MaxWorkPerByte = 100                        // 100,000 for up to 1,000 bytes
	if ok, err := m.Match("s", in); ok || !errors.Is(err, abnf.ErrMatchWork) {
		t.Errorf("Match past the budget: %v, %v; want ErrMatchWork", ok, err)
	}
	if ends, err := m.Prefixes("s", in); ends != nil || !errors.Is(err, abnf.ErrMatchWork) {
		t.Errorf("Prefixes past the budget: %v, %v; want ErrMatchWork", ends, err)
	}
	m.MaxWorkPerByte = 200
	if ok, err := m.Match("s", in); !ok || err != nil {
		t.Errorf("Match within the budget: %v, %v", ok, err)
	}
	// A budget past what an int holds saturates: MaxUint/1000+1 a byte,
	// times 1,000, wrapped to a few hundred steps (384 on 64 bits), and
	// the most an int holds to a negative budget, none.
	for _, per := range []int{math.MaxUint/1000 + 1, math.MaxInt} {
		m.MaxWorkPerByte = per
		if ok, err := m.Match("s", in); !ok || err != nil {
			t.Errorf("Match with %d steps a byte: %v, %v", per, ok, err)
		}
	}
	m.MaxWorkPerByte = 200
	if ok, err := m.Match("s", in[:len(in)-1]); ok || err != nil {
		t.Errorf("Match of a near-miss within the budget: %v, %v", ok, err)
	}
	u, err := abnf.NewMatcher(rfc3986(t))
	if err != nil {
		t.Fatal(err)
	}
	u.MaxWorkPerByte = 200
	long := []byte("http://a/" + strings.Repeat("b/", 50000))
	if ok, err := u.Match("URI", long); !ok || err != nil {
		t.Errorf("Match of a 100 KB URI: %v, %v", ok, err)
	}
}

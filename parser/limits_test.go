package parser_test

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/internal/rfc3986gen"
	"github.com/peguri/rfc3986/syntax"
)

// TestErrorKinds: every error is typed. A rule that does not exist wraps
// ErrUnknownRule; text that does not parse is an *Error with its offset and
// expected set; limits are *Errors wrapping ErrTooLong or
// ErrTooLongForTree.
func TestErrorKinds(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  error
	}{
		{"ParseRule", func() error { _, err := parser.ParseRule("nope", "a"); return err }()},
		{"Validate", parser.Validate("nope", "a")},
		{"ParseAs", func() error { _, err := parser.ParseAs("host", "a"); return err }()},
		{"ParseTree", func() error { _, _, err := parser.ParseTree("host", "a"); return err }()},
		{"RFC3986.Parse", func() error { _, err := parser.RFC3986().Parse("nope", "a"); return err }()},
		{"Parser without URI rules", func() error {
			// Appendix A's tables without Names: the rules parse into
			// trees, and Parse has no URI rule to use.
			s, err := parser.NewParser("bare", rfc3986gen.PEG(), rfc3986gen.DFA())
			if err != nil {
				return err
			}
			_, err = s.Parse("", "a")
			return err
		}()},
	} {
		if !errors.Is(tt.err, parser.ErrUnknownRule) {
			t.Errorf("%s: %v, want an error wrapping ErrUnknownRule", tt.name, tt.err)
		}
		var pe *parser.Error
		if errors.As(tt.err, &pe) {
			t.Errorf("%s: %v is a *parser.Error; no text was parsed", tt.name, tt.err)
		}
	}

	long := strings.Repeat("a", parser.MaxLength+1)
	validLong := "http://a/" + strings.Repeat("b", parser.MaxTreeLength)
	invalidLong := validLong + " "
	for _, tt := range []struct {
		name     string
		err      error
		kind     error // nil: a mismatch
		offset   int
		expected bool // a non-empty expected set
	}{
		{"ParseReference(too long)", func() error { _, err := parser.ParseReference(long); return err }(), parser.ErrTooLong, parser.MaxLength, false},
		{"Validate(too long)", parser.Validate("path", long), parser.ErrTooLong, parser.MaxLength, false},
		{"ParseRule(too long)", func() error { _, err := parser.ParseRule("URI", long); return err }(), parser.ErrTooLong, parser.MaxLength, false},
		{"ParseRule(valid, too long for a tree)", func() error { _, err := parser.ParseRule("URI", validLong); return err }(), parser.ErrTooLongForTree, parser.MaxTreeLength, false},
		{"ParseTree(valid, too long for a tree)", func() error { _, _, err := parser.ParseTree("URI", validLong); return err }(), parser.ErrTooLongForTree, parser.MaxTreeLength, false},
		{"ParseRule(invalid, too long for a tree)", func() error { _, err := parser.ParseRule("URI", invalidLong); return err }(), nil, len(invalidLong) - 1, true},
		{"ParseReference(invalid)", func() error { _, err := parser.ParseReference("a b"); return err }(), nil, 1, true},
		{"Validate(invalid)", parser.Validate("port", "8a"), nil, 1, true},
	} {
		var pe *parser.Error
		if !errors.As(tt.err, &pe) {
			t.Errorf("%s = %v, want a *parser.Error", tt.name, tt.err)
			continue
		}
		if tt.kind != nil && !errors.Is(tt.err, tt.kind) {
			t.Errorf("%s = %v, want it to wrap %v", tt.name, tt.err, tt.kind)
		}
		for _, k := range []error{parser.ErrTooLong, parser.ErrTooLongForTree, parser.ErrUnknownRule} {
			if k != tt.kind && errors.Is(tt.err, k) {
				t.Errorf("%s = %v wraps %v", tt.name, tt.err, k)
			}
		}
		if pe.Offset != tt.offset || (len(pe.Expected) > 0) != tt.expected {
			t.Errorf("%s: offset %d, expected %q; want offset %d, an expected set: %v", tt.name, pe.Offset, pe.Expected, tt.offset, tt.expected)
		}
	}
}

// TestHandBuiltValues: values built by hand, however odd, never make a
// method panic.
func TestHandBuiltValues(t *testing.T) {
	errs := []*parser.Error{
		{Input: "ab", Offset: -1},
		{Input: "ab", Offset: 3},
		{Input: "ab", Offset: math.MaxInt},
		{Input: "", Offset: 0},
		{},
		{Input: "\xff\xfe", Offset: 1, Expected: []string{"[", "[\\u"}},
		{Input: strings.Repeat("a", 1000), Offset: 500, Msg: "m", Err: parser.ErrTooLong},
	}
	for _, e := range errs {
		for _, f := range []func() string{e.Error, e.Reason, e.Caret} {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%#v: panic %v", e, r)
					}
				}()
				if s := f(); s == "" {
					t.Errorf("%#v: empty message", e)
				}
			}()
		}
	}
	for k, want := range map[parser.HostKind]string{
		parser.HostNone: "", parser.HostIPv4: "ipv4", parser.HostIPv6: "ipv6",
		parser.HostIPvFuture: "ipvfuture", parser.HostRegName: "regname", 5: "HostKind(5)", 255: "HostKind(255)",
	} {
		if got := k.String(); got != want {
			t.Errorf("HostKind(%d).String() = %q, want %q", uint8(k), got, want)
		}
	}
	var p parser.Parts
	if p.String() != "" {
		t.Errorf("Parts{}.String() = %q", p.String())
	}
	// A Caret shows at most a window of a long input.
	e := &parser.Error{Input: strings.Repeat("a", 10000) + " " + strings.Repeat("b", 10000), Offset: 10000}
	lines := strings.Split(e.Caret(), "\n")
	if len(lines[0]) > 100 || len(lines[1]) != strings.Index(lines[0], " ")+1 {
		t.Errorf("Caret of a 20001-byte input:\n%s\n%s", lines[0], lines[1])
	}
}

// fromPartsTests: FromParts refuses what it cannot build exactly, and
// says why.
var fromPartsTests = []struct {
	p    parser.Parts
	want string // the URI, or "" for an error
	kind error  // the error's kind: ErrUndefinedComponent, or nil for a *parser.Error
}{
	{parser.Parts{Scheme: "http", HasScheme: true, HasAuthority: true, Host: "a", Path: "/b", HasQuery: true}, "http://a/b?", nil},
	{parser.Parts{}, "", nil},
	// Components set but undefined by their flags are refused, not dropped.
	{parser.Parts{Host: "h", Path: "/x"}, "", parser.ErrUndefinedComponent},
	{parser.Parts{HasAuthority: true, Host: "h", Port: "80"}, "", parser.ErrUndefinedComponent},
	{parser.Parts{HasAuthority: true, Host: "h", Userinfo: "u"}, "", parser.ErrUndefinedComponent},
	{parser.Parts{Port: "80", HasPort: true}, "", parser.ErrUndefinedComponent},
	{parser.Parts{HasUserinfo: true}, "", parser.ErrUndefinedComponent},
	{parser.Parts{Scheme: "http", Path: "x"}, "", parser.ErrUndefinedComponent},
	{parser.Parts{Query: "q"}, "", parser.ErrUndefinedComponent},
	{parser.Parts{Fragment: "f"}, "", parser.ErrUndefinedComponent},
	// A path starting with "//" without authority would parse as an
	// authority (§3.3): refused, not silently changed.
	{parser.Parts{Path: "//x"}, "", nil},
	// A first segment with ":" and no scheme would parse as a scheme (§4.2).
	{parser.Parts{Path: "a:b"}, "", nil},
	// Not a URI reference at all.
	{parser.Parts{Scheme: "1", HasScheme: true}, "", nil},
	{parser.Parts{HasAuthority: true, Host: "a b"}, "", nil},
	// A host with a "/" recomposes to text with another host and path.
	{parser.Parts{Scheme: "s", HasScheme: true, HasAuthority: true, Host: "a/b"}, "", nil},
}

func TestFromPartsErrors(t *testing.T) {
	for _, tt := range fromPartsTests {
		u, err := parser.FromParts(tt.p)
		switch {
		case tt.want != "" || (tt.p == parser.Parts{}):
			if err != nil || u.String() != tt.want || u.Parts() != tt.p {
				t.Errorf("FromParts(%+v) = %q, %v; want %q", tt.p, u, err, tt.want)
			}
		case tt.kind != nil:
			if !errors.Is(err, tt.kind) {
				t.Errorf("FromParts(%+v) = %q, %v; want an error wrapping %v", tt.p, u, err, tt.kind)
			}
		default:
			var pe *parser.Error
			if !errors.As(err, &pe) {
				t.Errorf("FromParts(%+v) = %q, %v; want a *parser.Error", tt.p, u, err)
			}
		}
	}
}

// budgetInputs are inputs of every rule for TestExpressionBudget: samples
// and near-misses of each rule of Appendix A, the benchmark corpus, and
// the hostile shapes of TestHostileInput at 4 KiB.
func budgetInputs(t *testing.T, perRule int) map[string][]string {
	g, err := appendixA()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	s := abnf.NewSampler(g, 11)
	for _, r := range g.Rules {
		out[r.Name] = append(out[r.Name], "")
		for i := range perRule {
			var in []byte
			if i%2 == 0 {
				in, err = s.Sample(r.Name)
			} else {
				in, err = s.NearMiss(r.Name)
			}
			if err != nil {
				t.Fatal(err)
			}
			out[r.Name] = append(out[r.Name], string(in))
		}
	}
	for _, h := range hostileShapes {
		out["URI-reference"] = append(out["URI-reference"], h.make(4096))
	}
	return out
}

// TestExpressionBudget measures what pigeon's expression budget
// (MaxExpressions, which ParseRule sets to 10,000 + 100 per byte) must
// allow: for every input, the least budget with which the parse is not
// abandoned, found by bisection. The budget must be ten times that or
// more, so that only pathological work is stopped; and below it, the
// parse is abandoned with an *Error that says so.
func TestExpressionBudget(t *testing.T) {
	per := 50
	if testing.Short() {
		per = 6
	}
	var worstPerByte float64
	worstEmpty, worstIn := uint64(0), ""
	abandoned := 0
	for rule, inputs := range budgetInputs(t, per) {
		for _, in := range inputs {
			full := parser.ExprBudget(len(in))
			_, want := parser.ParseRuleBudget(rule, in, full)
			if isAbandoned(want) {
				t.Errorf("%s %.40q: abandoned with the full budget of %d: %v", rule, in, full, want)
				continue
			}
			// The least budget that gives the full budget's answer.
			lo, hi := uint64(0), full
			for lo < hi {
				mid := lo + (hi-lo)/2
				_, err := parser.ParseRuleBudget(rule, in, mid)
				if isAbandoned(err) {
					lo = mid + 1
				} else {
					hi = mid
				}
			}
			need := lo
			if need*10 > full {
				t.Errorf("%s %.40q (%d bytes): needs %d expressions; the budget %d is less than ten times that", rule, in, len(in), need, full)
			}
			if len(in) == 0 {
				worstEmpty = max(worstEmpty, need)
			} else if pb := float64(need) / float64(len(in)); pb > worstPerByte && len(in) >= 16 {
				worstPerByte, worstIn = pb, rule+" "+fmt.Sprintf("%.30q", in)
			}
			if need > 0 {
				_, err := parser.ParseRuleBudget(rule, in, need-1)
				var pe *parser.Error
				if !errors.As(err, &pe) || !isAbandoned(err) || pe.Offset < 0 || pe.Offset > len(in) {
					t.Errorf("%s %.40q with %d expressions: %v, want an abandoned parse", rule, in, need-1, err)
				}
				abandoned++
			}
		}
	}
	t.Logf("worst: %d expressions for the empty input; %.1f per byte (inputs of 16 bytes or more: %s); %d abandoned parses checked", worstEmpty, worstPerByte, worstIn, abandoned)
}

func isAbandoned(err error) bool {
	var pe *parser.Error
	return errors.As(err, &pe) && strings.HasPrefix(pe.Msg, "parse abandoned")
}

// hostileShapes are pathological inputs of any length n.
var hostileShapes = []struct {
	name string
	make func(n int) string
}{
	{"slashes", func(n int) string { return strings.Repeat("/", n) }},
	{"percent-encodings", func(n int) string { return "http://a/" + strings.Repeat("%41", (n-9)/3) }},
	{"IPv6 fields", func(n int) string { return "http://[" + strings.Repeat("1:", (n-9)/2) + "]" }},
	{"invalid UTF-8", func(n int) string { return strings.Repeat("\xff", n) }},
	{"brackets", func(n int) string { return strings.Repeat("[", n) }},
	{"invalid at the end", func(n int) string { return "http://a/" + strings.Repeat("a", n-10) + " " }},
}

// TestHostileInput: long and pathological inputs cost memory in
// proportion to their length, and never panic: on the fast path up to
// MaxLength (16 MiB), on the pigeon path (parse trees) up to MaxTreeLength
// (64 KiB). Each shape is run at a quarter of the limit and at the limit;
// the larger may allocate at most 8 times what the smaller does (linear
// growth gives 4, quadratic 16). Bytes allocated are counted, not timed:
// the pigeon parser's work is bounded by its expression budget, which
// TestExpressionBudget checks, and the DFA's by the input's length.
func TestHostileInput(t *testing.T) {
	if testing.Short() {
		t.Skip("parses 16 MiB inputs")
	}
	parse := func(s string) error { _, err := parser.ParseReference(s); return err }
	tree := func(s string) error { _, err := parser.ParseRule("URI-reference", s); return err }
	for _, c := range []struct {
		what  string
		f     func(string) error
		limit int
	}{
		{"ParseReference", parse, parser.MaxLength},
		{"ParseRule", tree, parser.MaxTreeLength},
	} {
		for _, h := range hostileShapes {
			small, large := h.make(c.limit/4), h.make(c.limit)
			ms, ml := allocated(small, c.f), allocated(large, c.f)
			t.Logf("%s, %s: %d bytes allocate %d B; %d bytes %d B", c.what, h.name, len(small), ms, len(large), ml)
			if r := float64(ml) / float64(max(ms, 64<<10)); r > 8 {
				t.Errorf("%s, %s: %d bytes allocate %d B, %.1f times the %d B of %d bytes", c.what, h.name, len(large), ml, r, ms, len(small))
			}
		}
	}
	var pe *parser.Error
	if err := parse(strings.Repeat("a", parser.MaxLength+1)); !errors.As(err, &pe) || pe.Offset != parser.MaxLength || !errors.Is(err, parser.ErrTooLong) {
		t.Errorf("input above MaxLength: %v, want a length error at offset %d", err, parser.MaxLength)
	}
	long := "http://a/" + strings.Repeat("a", parser.MaxTreeLength) + " b"
	if err := parse(long); !errors.As(err, &pe) || pe.Offset != len(long)-2 || len(pe.Expected) == 0 {
		t.Errorf("long invalid input: %v, want the DFA's error at offset %d with an expected set", err, len(long)-2)
	}
}

// allocated returns the bytes one run of f(in) allocates.
func allocated(in string, f func(string) error) uint64 {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	_ = f(in)
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc
}

// TestErrorCost: an invalid input costs what a valid one does. Every entry
// point reports the DFA's error, which allocates the Error alone — the
// issue's bound is 4 allocations — at 8 KiB and at 64 KiB, and for the
// hostile shapes at MaxTreeLength. (Time is the benchmarks' business:
// BenchmarkInvalid in the root package.)
func TestErrorCost(t *testing.T) {
	inputs := []string{
		"http://a/" + strings.Repeat("a", 8192) + " ",
		"http://a/" + strings.Repeat("a", 64<<10) + " ",
		strings.Repeat("/", 64<<10) + " ",
	}
	for _, h := range hostileShapes {
		inputs = append(inputs, h.make(parser.MaxTreeLength))
	}
	for _, in := range inputs {
		for name, f := range map[string]func(){
			"ParseReference": func() { _, _ = parser.ParseReference(in) },
			"ParseURI":       func() { _, _ = parser.ParseURI(in) },
			"ParseRelative":  func() { _, _ = parser.ParseRelative(in) },
			"Validate":       func() { _ = parser.Validate("URI-reference", in) },
			"ParseRule":      func() { _, _ = parser.ParseRule("URI-reference", in) },
		} {
			if err := parser.Validate("URI-reference", in); err == nil && name == "ParseRule" {
				continue // a valid input gets its tree: not an error
			}
			if n := testing.AllocsPerRun(5, f); n > 4 {
				t.Errorf("%s(%.20q…, %d bytes): %v allocations, want at most 4", name, in, len(in), n)
			}
		}
	}
}

// TestAbandonedErrorKind: a parse abandoned for its budget or its depth is
// an *Error that wraps syntax.ErrWork or syntax.ErrDepth, so that
// errors.Is tells it from a mismatch, and whose text is the reason and the
// offset, as before it wrapped anything.
func TestAbandonedErrorKind(t *testing.T) {
	// Too little work for any input: pigeon's budget of one expression.
	_, work := parser.ParseRuleBudget("URI-reference", "http://a/b?q#f", 1)
	for _, tt := range []struct {
		name string
		err  error
		kind error
		text string
	}{
		{"ParseRule with a budget of 1", work, syntax.ErrWork, `parse "http://a/b?q#f" as URI-reference: parse abandoned: too much work for the input's length at offset 0`},
		// Appendix A nests no deeper than an IP literal: the depth
		// failure of a syntax.Grammar, as package parser reads it.
		{"a failure of depth", parser.FailureError("URI", "http://a", 3, syntax.ErrDepth.Error()), syntax.ErrDepth, `parse "http://a" as URI: parse abandoned: the parse needs too deep a stack at offset 3`},
		{"a failure of work", parser.FailureError("URI", "http://a", 2, syntax.ErrWork.Error()), syntax.ErrWork, `parse "http://a" as URI: parse abandoned: too much work for the input's length at offset 2`},
		{"another failure", parser.FailureError("URI", "http://a", 2, "invalid UTF-8"), nil, `parse "http://a" as URI: invalid UTF-8 at offset 2`},
	} {
		var pe *parser.Error
		if !errors.As(tt.err, &pe) {
			t.Errorf("%s: %v, want a *parser.Error", tt.name, tt.err)
			continue
		}
		for _, k := range []error{syntax.ErrWork, syntax.ErrDepth} {
			if got, want := errors.Is(tt.err, k), k == tt.kind; got != want {
				t.Errorf("%s: errors.Is(%v, %v) = %v, want %v", tt.name, tt.err, k, got, want)
			}
		}
		if diff := cmp.Diff(tt.text, tt.err.Error()); diff != "" {
			t.Errorf("%s: Error() (-want +got):\n%s", tt.name, diff)
		}
	}
}

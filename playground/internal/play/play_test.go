package play

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/peguri/rfc3986/gen/peg"
	"github.com/peguri/rfc3986/grammar"
)

func TestGrammarErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		base       []string
		want       []string // Message.Text of each reader error
		wantInText []bool
	}{
		// RFC 5234 §4: a rule must be defined; the error points at the
		// reference.
		{"undefined", "greeting = hello SP name\nname = 1*ALPHA\n", nil,
			[]string{"input.abnf:1:12: undefined rule hello"}, []bool{true}},
		{"unclosed string", "a = \"x\n", nil,
			[]string{"input.abnf:1:5: quoted string not closed on its line"}, []bool{true}},
		// A grammar layered on Appendix A may use its rules...
		{"layered", "x = pchar\n", []string{"rfc3986"}, nil, nil},
		// ...and is told apart from it in positions even under its name.
		{"no base", "x = pchar\n", nil, []string{"input.abnf:1:5: undefined rule pchar"}, []bool{true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Grammar(GrammarRequest{Base: tc.base, Text: tc.text})
			var got []string
			var inText []bool
			for _, e := range res.Errors {
				got = append(got, e.Text)
				inText = append(inText, e.Pos.InText)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Grammar(%q) errors mismatch (-want +got):\n%s", tc.text, diff)
			}
			if diff := cmp.Diff(tc.wantInText, inText); diff != "" {
				t.Errorf("Grammar(%q) InText mismatch (-want +got):\n%s", tc.text, diff)
			}
			if (len(tc.want) == 0) != res.Clean {
				t.Errorf("Grammar(%q).Clean = %v with %d errors", tc.text, res.Clean, len(res.Errors))
			}
		})
	}
}

func TestGrammarAppendixA(t *testing.T) {
	res := Grammar(GrammarRequest{
		Text:   string(grammar.RFC3986()),
		Start:  "uri-REFERENCE", // rule names are case-insensitive (RFC 5234 §2.1)
		Inputs: "http://[::1]:80/a/../b?q#f\nhttp://a b/\n\n//1.2.3.4.5/x\n",
		Peg:    true,
	})
	if len(res.Errors) > 0 || !res.Clean {
		t.Fatalf("Appendix A: errors %v, problems %v", res.Errors, res.Problems)
	}
	if res.Start != "URI-reference" || !res.Regular {
		t.Errorf("start = %q, regular %v; want URI-reference, regular", res.Start, res.Regular)
	}
	if diff := cmp.Diff([]string{"URI-reference", "absolute-URI", "path", "reserved"}, res.Roots); diff != "" {
		t.Errorf("roots mismatch (-want +got):\n%s", diff)
	}
	// The empty line is an input: relative-ref's path-empty matches it.
	want := []Verdict{
		{Line: 1, Input: "http://[::1]:80/a/../b?q#f", Match: true},
		{Line: 2, Input: "http://a b/"},
		{Line: 3, Input: "", Match: true},
		{Line: 4, Input: "//1.2.3.4.5/x", Match: true},
	}
	if diff := cmp.Diff(want, res.Verdicts); diff != "" {
		t.Errorf("verdicts mismatch (-want +got):\n%s", diff)
	}
	if res.DFA == nil || res.DFA.Err != "" || res.DFA.States != 182 || res.DFA.Classes != 30 {
		t.Errorf("DFA = %+v, want 182 states and 30 classes (gen dfa -report)", res.DFA)
	}
	p := res.Peg
	if p == nil || p.Err != "" {
		t.Fatalf("peg = %+v", p)
	}
	if p.Fallbacks != 0 || p.Proven == 0 || p.Guarded == 0 || !strings.Contains(p.Text, "decisions:") {
		t.Errorf("peg: %d proven, %d guarded, %d fallbacks; report %q…", p.Proven, p.Guarded, p.Fallbacks, p.Text[:min(len(p.Text), 200)])
	}
	// §3.2.2's rule: IPv4address before reg-name in host, with the input
	// that makes the guard necessary.
	found := false
	for _, d := range p.Decisions {
		if d.Rule == "host" && d.Kind == "guard" && d.Example != "" && strings.Contains(d.Msg, "IPv4address") {
			found = true
		}
	}
	if !found {
		t.Errorf("no guard of host with an example among %d decisions", len(p.Decisions))
	}
	if !strings.Contains(p.Text, "-inline-work 100000000 -total-work 200000000") || p.InlineWork != InlineWork {
		t.Errorf("the report does not state the playground's budgets: %.200q", p.Text)
	}
	full := Grammar(GrammarRequest{Text: string(grammar.RFC3986()), Start: "URI", Peg: true, FullBudget: true}).Peg
	if full == nil || full.InlineWork != peg.DefaultInlineWork || !strings.Contains(full.Text, "-inline-work 250000000") {
		t.Errorf("FullBudget: %+v", full)
	}
	if !strings.Contains(p.PEG, "URI_reference") {
		t.Errorf("the PEG has no URI_reference rule")
	}
}

func TestGrammarAnalysis(t *testing.T) {
	for _, tc := range []struct {
		name, text, start string
		octets            bool
		wantStart         string
		wantRegular       bool
		wantDFA           int // minimal DFA states; 0: none
		wantProblems      []string
		inputs            string
		wantMatch         []bool
	}{
		// Tail recursion is regular (README of testdata/grammars).
		{name: "tail recursion", text: "ldh-str = let-dig-hyp / let-dig-hyp ldh-str\nlet-dig-hyp = ALPHA / DIGIT / \"-\"\n",
			wantStart: "ldh-str", wantRegular: true, wantDFA: 2,
			wantProblems: []string{"input.abnf:1:1: note: recursion: ldh-str is recursive (rules: ldh-str); the DFA back end compiles it only where the recursion is regular (no self-embedding)"},
			inputs:       "a-1\n\n", wantMatch: []bool{true, false}},
		// Self-embedding: not regular, no DFA; the matcher still decides.
		{name: "self-embedding", text: "p = \"(\" *p \")\"\n",
			wantStart: "p", wantProblems: []string{"input.abnf:1:1: note: recursion: p is recursive (rules: p); the DFA back end compiles it only where the recursion is regular (no self-embedding)"},
			inputs: "(()())\n(()\n", wantMatch: []bool{true, false}},
		// A rule that derives no finite string is an error of the
		// analysis: nothing more is computed.
		{name: "no finite string", text: "a = \"x\" a\n",
			wantProblems: []string{
				"input.abnf:1:1: note: recursion: a is recursive (rules: a); the DFA back end compiles it only where the recursion is regular (no self-embedding)",
				"input.abnf:1:1: error: a derives no finite string: every alternative needs a again",
			}, wantStart: "a"},
		// A start rule not in the grammar: the default, with a note.
		{name: "unknown start", text: "a = \"x\"\n", start: "b", wantStart: "a", wantRegular: true, wantDFA: 2,
			wantProblems: []string{"no rule b in the grammar: the start rule is a"}, inputs: "x\n", wantMatch: []bool{true}},
		// RFC 3629: octets, not code points.
		{name: "octets", text: "b = %xC3 %xA9\n", octets: true, wantStart: "b", wantRegular: true, wantDFA: 3,
			wantProblems: []string{}, inputs: "é\n", wantMatch: []bool{true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Grammar(GrammarRequest{Text: tc.text, Start: tc.start, Octets: tc.octets, Inputs: tc.inputs})
			if len(res.Errors) > 0 {
				t.Fatalf("errors: %v", res.Errors)
			}
			if res.Start != tc.wantStart || res.Regular != tc.wantRegular {
				t.Errorf("start %q regular %v, want %q %v", res.Start, res.Regular, tc.wantStart, tc.wantRegular)
			}
			probs := []string{}
			for _, p := range res.Problems {
				probs = append(probs, strings.TrimPrefix(p.Text, ": "))
			}
			want := tc.wantProblems
			if want == nil {
				want = []string{}
			}
			if diff := cmp.Diff(want, probs); diff != "" {
				t.Errorf("problems mismatch (-want +got):\n%s", diff)
			}
			dfa := 0
			if res.DFA != nil {
				dfa = res.DFA.States
			}
			if dfa != tc.wantDFA {
				t.Errorf("DFA states = %d (%+v), want %d", dfa, res.DFA, tc.wantDFA)
			}
			var match []bool
			for _, v := range res.Verdicts {
				if v.Err != "" {
					t.Errorf("line %d: %s", v.Line, v.Err)
				}
				match = append(match, v.Match)
			}
			if diff := cmp.Diff(tc.wantMatch, match); diff != "" {
				t.Errorf("verdicts mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGrammarDFARefused: a grammar gen dfa refuses (its repetitions
// written out pass -max-nfa) is still checked and matched; whether its
// rules are regular is not known, and the page says why.
func TestGrammarDFARefused(t *testing.T) {
	res := Grammar(GrammarRequest{Text: "a = 1000(1000\"a\" \"b\")\n", Inputs: "ab\n"})
	if !res.Clean || res.RegularKnown || res.Regular || !strings.Contains(res.DFAErr, "gen dfa: ") || res.DFA != nil {
		t.Errorf("clean %v, regular known %v, regular %v, DFAErr %q, DFA %+v", res.Clean, res.RegularKnown, res.Regular, res.DFAErr, res.DFA)
	}
	if len(res.Verdicts) != 1 || res.Verdicts[0].Match || res.Verdicts[0].Err != "" {
		t.Errorf("verdicts %+v", res.Verdicts)
	}
}

// TestGrammarHostile: pasted grammars that would strain gen end in an
// error or an answer, never a panic.
func TestGrammarHostile(t *testing.T) {
	for _, text := range []string{
		strings.Repeat("(", 5000) + "\"a\"" + strings.Repeat(")", 5000), // past -max-nesting
		"a = 65536(65536\"a\")\n",      // 4 GiB shortest string
		"a = %x110000\n",               // past U+10FFFF
		"a = 1*65536(\"a\" / \"b\")\n", // a large bounded repetition
		"a = <prose>\n",
		"\x00\xff",
		"",
	} {
		res := Grammar(GrammarRequest{Text: "x = " + text, Inputs: "a\n", Peg: true, Samples: 2})
		for _, e := range append(res.Errors, res.Problems...) {
			if strings.Contains(e.Msg, "internal error") {
				t.Errorf("Grammar(%.40q): %s", text, e.Msg)
			}
		}
	}
}

func TestSamples(t *testing.T) {
	res := Grammar(GrammarRequest{Text: string(grammar.RFC3986()), Start: "URI", Samples: 5, Seed: 7})
	if res.SampleErr != "" || len(res.Samples) != 10 {
		t.Fatalf("samples: %+v, %s", res.Samples, res.SampleErr)
	}
	// The first five are samples: they match.
	var lines []string
	for _, s := range res.Samples[:5] {
		if s.Near || !s.OneLine {
			t.Errorf("sample %d: %+v", len(lines), s)
		}
		lines = append(lines, s.Raw)
	}
	again := Grammar(GrammarRequest{Text: string(grammar.RFC3986()), Start: "URI", Inputs: strings.Join(lines, "\n")})
	for _, v := range again.Verdicts {
		if !v.Match {
			t.Errorf("sample %q does not match URI", v.Input)
		}
	}
}

// TestQuoted: gen match -quoted's inputs, and samples that need it.
func TestQuoted(t *testing.T) {
	const crlf = "line = *VCHAR CRLF\n"
	res := Grammar(GrammarRequest{Text: crlf, Quoted: true, Inputs: `"ab\r\n"` + "\n" + `"ab\n"` + "\nab\n" + `"\xff\r\n"`})
	want := []Verdict{
		{Line: 1, Input: "ab\r\n", Match: true},
		{Line: 2, Input: "ab\n"},
		{Line: 3, Input: "ab", Err: "not a Go double-quoted string"},
		{Line: 4, Input: "\uFFFD\r\n"}, // not VCHAR, and shown as valid UTF-8
	}
	if diff := cmp.Diff(want, res.Verdicts); diff != "" {
		t.Errorf("verdicts mismatch (-want +got):\n%s", diff)
	}
	res = Grammar(GrammarRequest{Text: crlf, Samples: 3, Seed: 1})
	if len(res.Samples) != 6 {
		t.Fatalf("samples %+v", res.Samples)
	}
	for _, s := range res.Samples {
		if s.OneLine || !strings.HasSuffix(s.Quoted, `\r\n"`) && !s.Near {
			t.Errorf("sample %+v: a line ends in CRLF", s)
		}
	}
}

func TestSplitLines(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"\n", []string{""}},
		{"a", []string{"a"}},
		{"a\n", []string{"a"}},
		{"a\n\nb\r\n", []string{"a", "", "b\r"}}, // raw mode: CR is part of the input
	} {
		if diff := cmp.Diff(tc.want, splitLines(tc.in)); diff != "" {
			t.Errorf("splitLines(%q) mismatch (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestURI(t *testing.T) {
	res := URI(URIRequest{Input: "http://[::1]:80/a/../b?q#f", Base: "http://a/b/c/d;p?q"})
	if !res.Valid || res.Problem != "" || !res.IsURI {
		t.Fatalf("URI: %+v", res)
	}
	want := []Component{
		{"scheme", "http", true},
		{"authority", "[::1]:80", true},
		{"userinfo", "", false},
		{"host", "[::1]", true},
		{"port", "80", true},
		{"path", "/a/../b", true},
		{"query", "q", true},
		{"fragment", "f", true},
	}
	if diff := cmp.Diff(want, res.Components); diff != "" {
		t.Errorf("components mismatch (-want +got):\n%s", diff)
	}
	if res.HostKind != "ipv6" {
		t.Errorf("host kind %q", res.HostKind)
	}
	var levels []string
	for _, l := range res.Levels {
		levels = append(levels, l.Result)
	}
	wantLevels := []string{
		"http://[::1]:80/a/../b?q#f",
		"http://[::1]:80/a/../b?q#f",
		"http://[::1]:80/b?q#f", // §6.2.2.3
		"http://[::1]/b?q#f",    // §6.2.3
		"http://[::1]/b?q#f",
	}
	if diff := cmp.Diff(wantLevels, levels); diff != "" {
		t.Errorf("levels mismatch (-want +got):\n%s", diff)
	}
	if r := res.Resolution; r == nil || r.Result != "http://[::1]:80/b?q#f" || r.Mode != "Strict" {
		t.Errorf("resolution %+v", r)
	}
	if res.Tree == nil || res.Tree.Rule != "URI-reference" || res.Tree.End != len(res.Input) {
		t.Errorf("tree %+v", res.Tree)
	}
}

func TestURICases(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  URIRequest
		// want: valid, or the error's offset and rule
		valid   bool
		offset  int
		rule    string
		problem string
		result  string // resolution
	}{
		{name: "space", req: URIRequest{Input: "http://a b/"}, offset: 8, rule: "URI-reference"},
		{name: "empty query", req: URIRequest{Input: "http://a?"}, valid: true, rule: "URI-reference"},
		// §5.4.1, a normal example.
		{name: "resolve", req: URIRequest{Input: "../g", Base: "http://a/b/c/d;p?q"}, valid: true, rule: "URI-reference", result: "http://a/b/g"},
		// §5.4.2: "http:g" is "http:g" strictly, "http://a/b/c/g" not.
		{name: "strict", req: URIRequest{Input: "http:g", Base: "http://a/b/c/d;p?q"}, valid: true, rule: "URI-reference", result: "http:g"},
		{name: "non-strict", req: URIRequest{Input: "http:g", Base: "http://a/b/c/d;p?q", NonStrict: true}, valid: true, rule: "URI-reference", result: "http://a/b/c/g"},
		{name: "rule", req: URIRequest{Input: "1.2.3.4", Rule: "IPv4address"}, valid: true, rule: "IPv4address"},
		{name: "zone", req: URIRequest{Grammar: "rfc6874", Input: "http://[fe80::1%25eth0]/"}, valid: true, rule: "URI-reference"},
		{name: "zone in 3986", req: URIRequest{Input: "http://[fe80::1%25eth0]/"}, offset: 15, rule: "URI-reference"},
		{name: "iri", req: URIRequest{Grammar: "rfc3987", Input: "http://例え.jp/"}, valid: true, rule: "IRI-reference"},
		{name: "no grammar", req: URIRequest{Grammar: "rfc1738"}, problem: `no grammar "rfc1738"`},
		{name: "no rule", req: URIRequest{Rule: "nope"}, problem: `no rule "nope" in grammar rfc3986`},
		{name: "invalid UTF-8", req: URIRequest{Input: "http://a/\xff"}, offset: 9, rule: "URI-reference"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := URI(tc.req)
			if res.Problem != tc.problem {
				t.Fatalf("problem %q, want %q", res.Problem, tc.problem)
			}
			if tc.problem != "" {
				return
			}
			if res.Valid != tc.valid || res.Rule != tc.rule {
				t.Fatalf("valid %v rule %q (err %+v), want %v %q", res.Valid, res.Rule, res.Err, tc.valid, tc.rule)
			}
			if !tc.valid {
				if res.Err.Offset != tc.offset || res.Err.Rule != tc.rule || strings.Count(res.Err.Caret, "\n") != 1 || !strings.HasSuffix(res.Err.Caret, "^") {
					t.Errorf("error %+v, want offset %d", res.Err, tc.offset)
				}
			}
			if tc.result != "" {
				if res.Resolution == nil || res.Resolution.Result != tc.result {
					t.Errorf("resolution %+v, want %q", res.Resolution, tc.result)
				}
			}
			// Whatever the input, the answer goes to the page as JSON.
			if _, err := json.Marshal(res); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestCall(t *testing.T) {
	for _, tc := range []struct {
		method, req, want string
	}{
		{"nope", "{}", `{"error":"no method \"nope\""}`},
		{"grammar", "{", `{"error":"grammar: bad request: unexpected end of JSON input"}`},
		{"uri", `{"input": 1}`, `{"error":"uri: bad request: json: cannot unmarshal number into Go struct field URIRequest.input of type string"}`},
		{"uri", `{"input": "a:b"}`, ""},
	} {
		got := Call(tc.method, tc.req)
		if tc.want != "" && got != tc.want {
			t.Errorf("Call(%q, %q) = %s, want %s", tc.method, tc.req, got, tc.want)
		}
		var a struct {
			Result json.RawMessage
			Error  string
		}
		if err := json.Unmarshal([]byte(got), &a); err != nil || (a.Error == "") == (a.Result == nil) {
			t.Errorf("Call(%q, %q) = %s: not one of result and error", tc.method, tc.req, got)
		}
	}
	var info struct{ Result Info }
	if err := json.Unmarshal([]byte(Call("info", "")), &info); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range info.Result.Grammars {
		names = append(names, g.Name)
	}
	if diff := cmp.Diff(grammar.Names(), names); diff != "" {
		t.Errorf("info grammars mismatch (-want +got):\n%s", diff)
	}
	if len(info.Result.Syntaxes) != 3 || info.Result.Syntaxes[0].Default != "URI-reference" {
		t.Errorf("info syntaxes %+v", info.Result.Syntaxes)
	}
}

package syntax_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/syntax"
)

// A hand-written stand-in for what gen peg and pigeon generate: the glue's
// PEG, whose Parse and Errors reach a parser's unexported errors.

var (
	errInvalid = errors.New("invalid encoding")
	errMax     = errors.New("max number of expressions parsed")
	errNoMatch = errors.New("no match found")
)

// pegErrors stands for pigeon's unexported error list.
type pegErrors []syntax.PEGError

func (e pegErrors) Error() string { return "parse failed" }

// fakePEG parses:
//
//	word = 1*letter ; letter = %x61-7A   (captured, a node per letter)
//	num  = 1*DIGIT                      (not captured)
//	bytes = *OCTET                      (octets: a node per byte)
//	other                               (fails with errors that are no parser errors)
//	S                                   (guided: asks the guide)
//
// Work is one expression per byte of text.
func fakePEG(octets bool) *syntax.PEG {
	return &syntax.PEG{
		Entries: map[string]string{"word": "E_word", "num": "E_num", "bytes": "E_bytes", "other": "E_other", "S": "E_S"},
		Default: "word",
		Octets:  octets,
		Net:     epsilonNet(),
		Guided:  []string{"E_S"},
		Parse: func(entry string, text []byte, maxExpr uint64, guide *syntax.Guide) (any, error) {
			if entry == "E_other" {
				if len(text) > 0 {
					return nil, errors.New("not a list")
				}
				return nil, pegErrors{{Err: errors.New("grammar has no rule")}}
			}
			if uint64(len(text)) > maxExpr {
				return nil, pegErrors{{Offset: 0, Expected: []string{"[a-z]"}, Inner: errNoMatch}, {Offset: int(maxExpr), Inner: errMax}}
			}
			if !utf8.Valid(text) {
				i := 0
				for i < len(text) {
					r, w := utf8.DecodeRune(text[i:])
					if r == utf8.RuneError && w <= 1 {
						break
					}
					i += w
				}
				return nil, pegErrors{{Offset: 0, Expected: []string{"[a-z]"}, Inner: errNoMatch}, {Offset: i, Inner: errInvalid}}
			}
			var kids []any
			for i, r := range string(text) {
				switch {
				case entry == "E_word" && r >= 'a' && r <= 'z', entry == "E_bytes" && r != 'ÿ':
					kids = append(kids, syntax.Capture("c", i, i+utf8.RuneLen(r), nil))
				case entry == "E_num" && r >= '0' && r <= '9':
				default:
					return nil, pegErrors{{Offset: i, Expected: []string{"[a-z]"}, Inner: errNoMatch}}
				}
			}
			switch entry {
			case "E_num":
				return nil, nil
			case "E_S":
				if guide == nil {
					return nil, errors.New("no guide")
				}
				guide.Enter(0, 0)
				return syntax.Capture("S", 0, len(text), nil), nil
			}
			return syntax.Capture(strings.TrimPrefix(entry, "E_"), 0, len(text), kids), nil
		},
		Errors: func(err error) []syntax.PEGError {
			var list pegErrors
			if errors.As(err, &list) {
				return list
			}
			return nil
		},
		InvalidEncoding: errInvalid,
		MaxExpressions:  errMax,
	}
}

// epsilonNet is the network of S = "": one ε-edge from start to final.
func epsilonNet() *syntax.Net {
	return &syntax.Net{
		Rules: []syntax.NetRule{{Name: "E_S", Start: 0, Final: 1}},
		Index: []int32{0, 1, 1},
		Edges: []syntax.NetEdge{{To: 1, Class: -1, Call: -1}},
	}
}

// aPlus is the DFA of 1*"a": state 1 the start, 2 accepting.
func aPlus() *syntax.Table {
	classes := make([]byte, 256)
	classes['a'] = 1
	return &syntax.Table{States: 3, NClass: 2, Classes: string(classes), Next: "\x00\x00\x00\x02\x00\x02", Accept: "\x00\x00\x01"}
}

func TestNewGrammarChecks(t *testing.T) {
	for _, tt := range []struct {
		name   string
		change func(*syntax.PEG, syntax.Tables) (*syntax.PEG, syntax.Tables)
		want   string // in the error; "" for none
	}{
		{"as generated", func(p *syntax.PEG, d syntax.Tables) (*syntax.PEG, syntax.Tables) { return p, d }, ""},
		{"no DFAs: a grammar gen dfa refuses", func(p *syntax.PEG, d syntax.Tables) (*syntax.PEG, syntax.Tables) { return p, nil }, ""},
		{"no PEG", func(p *syntax.PEG, d syntax.Tables) (*syntax.PEG, syntax.Tables) { return nil, d }, "no PEG"},
		{"no start rules", func(p *syntax.PEG, d syntax.Tables) (*syntax.PEG, syntax.Tables) { p.Entries = nil; return p, d }, "no start rules"},
		{"no Parse", func(p *syntax.PEG, d syntax.Tables) (*syntax.PEG, syntax.Tables) { p.Parse = nil; return p, d }, "lacks its Parse or Errors"},
		{"no Errors", func(p *syntax.PEG, d syntax.Tables) (*syntax.PEG, syntax.Tables) { p.Errors = nil; return p, d }, "lacks its Parse or Errors"},
		{"no error reasons", func(p *syntax.PEG, d syntax.Tables) (*syntax.PEG, syntax.Tables) { p.MaxExpressions = nil; return p, d }, "lacks pigeon's error reasons"},
		{"default rule from map order would be any", func(p *syntax.PEG, d syntax.Tables) (*syntax.PEG, syntax.Tables) { p.Default = ""; return p, d }, `the default rule "" is not a start rule`},
		{"default rule unknown", func(p *syntax.PEG, d syntax.Tables) (*syntax.PEG, syntax.Tables) { p.Default = "WORD"; return p, d }, `the default rule "WORD" is not a start rule`},
		{"empty entrypoint", func(p *syntax.PEG, d syntax.Tables) (*syntax.PEG, syntax.Tables) { p.Entries["x"] = ""; return p, d }, `start rule "x" has entrypoint ""`},
		{"guided entrypoint unknown", func(p *syntax.PEG, d syntax.Tables) (*syntax.PEG, syntax.Tables) {
			p.Guided = []string{"E_T"}
			return p, d
		}, `guided entrypoint "E_T"`},
		{"guided without a network", func(p *syntax.PEG, d syntax.Tables) (*syntax.PEG, syntax.Tables) { p.Net = nil; return p, d }, "no network"},
		{"network that fails its check", func(p *syntax.PEG, d syntax.Tables) (*syntax.PEG, syntax.Tables) { p.Net.Index = nil; return p, d }, "net: no states"},
		{"DFA of a rule that is not a start rule", func(p *syntax.PEG, d syntax.Tables) (*syntax.PEG, syntax.Tables) { d["letter"] = aPlus(); return p, d }, "a DFA for letter, which is not a start rule"},
		{"nil table", func(p *syntax.PEG, d syntax.Tables) (*syntax.PEG, syntax.Tables) { d["word"] = nil; return p, d }, "word: nil DFA table"},
		{"table that fails its check", func(p *syntax.PEG, d syntax.Tables) (*syntax.PEG, syntax.Tables) { d["word"].States = 2; return p, d }, "word: dfa: 6 bytes of transitions, want 4"},
		// Fingerprints: files of one grammar, or of a gen that wrote none.
		{"PEG and DFA of one grammar", func(p *syntax.PEG, d syntax.Tables) (*syntax.PEG, syntax.Tables) {
			p.Source, d["word"].Source = "0123456789abcdef", "0123456789abcdef"
			return p, d
		}, ""},
		{"a PEG without a fingerprint", func(p *syntax.PEG, d syntax.Tables) (*syntax.PEG, syntax.Tables) {
			d["word"].Source = "0123456789abcdef"
			return p, d
		}, ""},
		{"a DFA without a fingerprint", func(p *syntax.PEG, d syntax.Tables) (*syntax.PEG, syntax.Tables) {
			p.Source = "0123456789abcdef"
			return p, d
		}, ""},
		{"a DFA of another grammar than the PEG", func(p *syntax.PEG, d syntax.Tables) (*syntax.PEG, syntax.Tables) {
			p.Source, d["word"].Source = "0123456789abcdef", "fedcba9876543210"
			return p, d
		}, "the DFA of word was generated from another grammar than the PEG (fingerprints fedcba9876543210 and 0123456789abcdef)"},
		{"two DFAs of different grammars", func(p *syntax.PEG, d syntax.Tables) (*syntax.PEG, syntax.Tables) {
			d["S"], d["word"].Source = aPlus(), "fedcba9876543210"
			d["S"].Source = "0123456789abcdef"
			return p, d
		}, "the DFA of word was generated from another grammar than the DFA of S"},
	} {
		p, d := tt.change(fakePEG(false), syntax.Tables{"word": aPlus()})
		g, err := syntax.NewGrammar("fake", p, d)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: NewGrammar: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: NewGrammar = %v, want an error with %q", tt.name, err, tt.want)
		case tt.want != "" && g != nil:
			t.Errorf("%s: NewGrammar returned a grammar with its error", tt.name)
		}
	}
}

func TestGrammarRules(t *testing.T) {
	p := fakePEG(false)
	g, err := syntax.NewGrammar("fake", p, syntax.Tables{"word": aPlus()})
	if err != nil {
		t.Fatal(err)
	}
	// The grammar keeps its own copy of what it was given.
	p.Entries["late"] = "E_late"
	if diff := cmp.Diff([]string{"S", "bytes", "num", "other", "word"}, g.Rules()); diff != "" {
		t.Errorf("Rules (-want +got):\n%s", diff)
	}
	if g.Name() != "fake" || g.DefaultRule() != "word" {
		t.Errorf("Name, DefaultRule = %q, %q", g.Name(), g.DefaultRule())
	}
	for in, want := range map[string]string{"word": "word", "WORD": "word", "s": "S", "late": "", "": ""} {
		if got, ok := g.Rule(in); got != want || ok != (want != "") {
			t.Errorf("Rule(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if g.DFA("word") == nil || g.DFA("num") != nil {
		t.Errorf("DFA(word), DFA(num) = %v, %v; want a table, nil", g.DFA("word"), g.DFA("num"))
	}
	if m := g.DFA("word").Machine(); m != g.DFA("word").Machine() {
		t.Error("Machine expands its table twice")
	}
}

func TestGrammarParse(t *testing.T) {
	for _, tt := range []struct {
		name    string
		octets  bool
		rule    string
		in      string
		maxExpr uint64
		tree    *syntax.Node
		fail    *syntax.Failure
	}{
		{"a tree", false, "word", "ab", 100, &syntax.Node{Rule: "word", End: 2, Kids: []*syntax.Node{{Rule: "c", End: 1}, {Rule: "c", Start: 1, End: 2}}}, nil},
		{"a rule that is not captured has no tree", false, "num", "12", 100, nil, nil},
		{"a mismatch: offset and expected set", false, "word", "ab1", 100, nil, &syntax.Failure{Offset: 2, Expected: []string{"[a-z]"}}},
		{"invalid UTF-8 comes before the mismatches, with what could have come", false, "word", "ab\xff", 100, nil, &syntax.Failure{Offset: 2, Expected: []string{"[a-z]"}, Msg: "invalid UTF-8"}},
		{"invalid UTF-8 at offset 0", false, "word", "\xffab", 100, nil, &syntax.Failure{Offset: 0, Expected: []string{"[a-z]"}, Msg: "invalid UTF-8"}},
		{"a mismatch before invalid UTF-8 is the error", false, "word", "a1\xff", 100, nil, &syntax.Failure{Offset: 1, Expected: []string{"[a-z]"}}},
		{"the expression limit comes before the mismatches", false, "word", "abcd", 3, nil, &syntax.Failure{Offset: 3, Msg: "parse abandoned: too much work for the input's length"}},
		{"an error that is no parser error: its message", false, "other", "", 100, nil, &syntax.Failure{Msg: "grammar has no rule"}},
		{"an error that is no list: its message", false, "other", "x", 100, nil, &syntax.Failure{Msg: "not a list"}},
		{"the guide gave up: its reason", false, "S", "", 0, nil, &syntax.Failure{Msg: "parse abandoned: too much work for the input's length"}},
		{"an unknown rule", false, "Word", "ab", 100, nil, &syntax.Failure{Msg: `no start rule "Word" in fake`}},
		{"a guided rule gets a guide", false, "S", "", 100, &syntax.Node{Rule: "S"}, nil},
		// Octets: the parser reads each byte as the code point of the same
		// value, two bytes of UTF-8 for %x80-FF; offsets come back in
		// bytes of the input.
		{"octets: ASCII", true, "bytes", "ab", 100, &syntax.Node{Rule: "bytes", End: 2, Kids: []*syntax.Node{{Rule: "c", End: 1}, {Rule: "c", Start: 1, End: 2}}}, nil},
		{"octets: offsets mapped back", true, "bytes", "\x80a\xfe", 100, &syntax.Node{Rule: "bytes", End: 3, Kids: []*syntax.Node{{Rule: "c", End: 1}, {Rule: "c", Start: 1, End: 2}, {Rule: "c", Start: 2, End: 3}}}, nil},
		{"octets: failure offset mapped back", true, "bytes", "\x80\x81\xff", 100, nil, &syntax.Failure{Offset: 2, Expected: []string{"[a-z]"}}},
	} {
		g, err := syntax.NewGrammar("fake", fakePEG(tt.octets), nil)
		if err != nil {
			t.Fatal(err)
		}
		tree, fail := g.Parse(tt.rule, []byte(tt.in), tt.maxExpr)
		if diff := cmp.Diff(tt.tree, tree); diff != "" {
			t.Errorf("%s: Parse(%s, %q) tree (-want +got):\n%s", tt.name, tt.rule, tt.in, diff)
		}
		if diff := cmp.Diff(tt.fail, fail); diff != "" {
			t.Errorf("%s: Parse(%s, %q) failure (-want +got):\n%s", tt.name, tt.rule, tt.in, diff)
		}
	}
}

package parser_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/internal/rfc3986gen"
	"github.com/peguri/rfc3986/syntax"
)

// TestNewSyntaxChecks: NewParser refuses what would fail later — a URI
// rule without a DFA would be a nil machine on the first Parse.
func TestNewSyntaxChecks(t *testing.T) {
	for _, tt := range []struct {
		name   string
		change func(p *syntax.PEG, d syntax.Tables, n *parser.Names) []parser.Names
		want   string // in the error; "" for none
	}{
		{"Appendix A as generated", func(p *syntax.PEG, d syntax.Tables, n *parser.Names) []parser.Names { return []parser.Names{*n} }, ""},
		{"no Names: trees and validation only", func(p *syntax.PEG, d syntax.Tables, n *parser.Names) []parser.Names { return nil }, ""},
		{"a URI rule without a DFA", func(p *syntax.PEG, d syntax.Tables, n *parser.Names) []parser.Names {
			delete(d, "absolute-URI")
			return []parser.Names{*n}
		}, "URI rule absolute-URI has no DFA"},
		{"a URI rule the grammar lacks", func(p *syntax.PEG, d syntax.Tables, n *parser.Names) []parser.Names {
			n.URIRules = append(n.URIRules, "IRI")
			return []parser.Names{*n}
		}, "URI rule IRI has no DFA"},
		{"the IPv4 rule without a DFA", func(p *syntax.PEG, d syntax.Tables, n *parser.Names) []parser.Names {
			delete(d, "IPv4address")
			return []parser.Names{*n}
		}, `the IPv4 rule "IPv4address" has no DFA`},
		{"Names without URI rules", func(p *syntax.PEG, d syntax.Tables, n *parser.Names) []parser.Names {
			n.URIRules = nil
			return []parser.Names{*n}
		}, "Names without URI rules"},
		{"a default rule that is not the first URI rule", func(p *syntax.PEG, d syntax.Tables, n *parser.Names) []parser.Names {
			p.Default = "URI"
			return []parser.Names{*n}
		}, "the grammar's default rule URI is not the first URI rule URI-reference (gen peg -default URI-reference)"},
		{"a generated table that fails its check", func(p *syntax.PEG, d syntax.Tables, n *parser.Names) []parser.Names {
			d["URI"].Accept = d["URI"].Accept[1:]
			return []parser.Names{*n}
		}, "URI: dfa:"},
		{"no PEG function", func(p *syntax.PEG, d syntax.Tables, n *parser.Names) []parser.Names {
			p.Parse = nil
			return []parser.Names{*n}
		}, "lacks its Parse"},
	} {
		p, d, n := rfc3986gen.PEG(), rfc3986gen.DFA(), parser.AppendixANames()
		names := tt.change(p, d, &n)
		s, err := parser.NewParser("test", p, d, names...)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: NewParser: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: NewParser = %v, want an error with %q", tt.name, err, tt.want)
		case tt.want != "" && s != nil:
			t.Errorf("%s: NewParser returned a syntax with its error", tt.name)
		}
	}
}

// TestSyntaxWithoutNames: a grammar without URI rules validates and builds
// trees; Parse refuses it by name, and its default rule is the grammar's.
func TestSyntaxWithoutNames(t *testing.T) {
	s, err := parser.NewParser("bare", rfc3986gen.PEG(), rfc3986gen.DFA())
	if err != nil {
		t.Fatal(err)
	}
	if got := s.DefaultRule(); got != "URI-reference" {
		t.Errorf("DefaultRule() = %q, want the grammar's, URI-reference", got)
	}
	if _, err := s.Parse("", "http://a"); err == nil || !strings.Contains(err.Error(), "bare has no URI rules") {
		t.Errorf("Parse = %v, want an error: no URI rules", err)
	}
	if err := s.Validate("host", "[::1]"); err != nil {
		t.Errorf("Validate(host) = %v", err)
	}
	if diff := cmp.Diff(parser.Rules(), s.Rules()); diff != "" {
		t.Errorf("Rules (-Appendix A +bare):\n%s", diff)
	}
}

func TestMustSyntax(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustParser did not panic on an error")
		}
	}()
	p := rfc3986gen.PEG()
	p.Default = "nothing"
	parser.MustParser(parser.NewParser("bad", p, nil))
}

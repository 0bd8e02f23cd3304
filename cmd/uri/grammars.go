package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/peguri/rfc3986/parser"
)

// A builtin is one of the generated parsers the command carries.
type builtin struct {
	name string
	// parse parses s as rule and returns its tree, or an *parser.Error.
	parse func(rule, s string) (*parser.Node, error)
	// parseURI parses s as one of the URI-level rules.
	parseURI func(rule, s string) (parser.URI, error)
	// validate checks s against rule without building a tree.
	validate func(rule, s string) error
	uriRules []string
	rules    func() []string
}

var builtins = map[string]*builtin{
	"rfc3986": {
		name:     "rfc3986",
		parse:    parser.ParseRule,
		parseURI: parser.ParseAs,
		validate: parser.Validate,
		uriRules: parser.URIRules,
		rules:    parser.Rules,
	},
}

func grammarNames() string {
	var names []string
	for n := range builtins {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// lookup finds the grammar and the rule's canonical name.
func lookup(grammar, rule string) (*builtin, string, error) {
	g, ok := builtins[grammar]
	if !ok {
		return nil, "", usageError{fmt.Sprintf("no built-in grammar %q (have %s)", grammar, grammarNames())}
	}
	for _, r := range g.rules() {
		if strings.EqualFold(r, rule) {
			return g, r, nil
		}
	}
	return nil, "", usageError{fmt.Sprintf("no rule %q in grammar %s; its rules: %s", rule, grammar, strings.Join(g.rules(), ", "))}
}

func (g *builtin) isURIRule(rule string) bool { return slices.Contains(g.uriRules, rule) }

package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc3987"
	"github.com/peguri/rfc3986/parser/rfc6874"
)

// builtins are the generated grammars the command carries, by -grammar
// name.
var builtins = map[string]*parser.Parser{
	"rfc3986": parser.RFC3986(),
	"rfc6874": rfc6874.Parser(),
	"rfc3987": rfc3987.Parser(),
}

func grammarNames() string {
	var names []string
	for n := range builtins {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// lookup finds the grammar and the rule's canonical name; an empty rule is
// the grammar's default (URI-reference; IRI-reference for rfc3987).
func lookup(grammar, rule string) (*parser.Parser, string, error) {
	g, ok := builtins[grammar]
	if !ok {
		return nil, "", usageError{msg: fmt.Sprintf("no built-in grammar %q (have %s)", grammar, grammarNames())}
	}
	if rule == "" {
		return g, g.DefaultRule(), nil
	}
	name, ok := g.Rule(rule)
	if !ok {
		return nil, "", usageError{msg: fmt.Sprintf("no rule %q in grammar %s; its rules: %s", rule, grammar, strings.Join(g.Rules(), ", "))}
	}
	return g, name, nil
}

// Package grammar holds the project's grammars: RFC 3986 Appendix A as ABNF
// (the source of everything else), the extensions layered on it, and the
// PEGs that gen translates them to. The ABNF is embedded so that tools and
// tests run without a checkout: gen's -grammar takes these grammars by name
// (rfc3986, rfc6874, rfc3987) wherever it takes a file, in this module or
// in any module that requires it.
package grammar

import (
	_ "embed"
	"os"
	"slices"

	"github.com/peguri/rfc3986/abnf"
)

//go:embed rfc3986.abnf
var rfc3986 []byte

//go:embed ext/rfc6874.abnf
var rfc6874 []byte

//go:embed ext/rfc3987.abnf
var rfc3987 []byte

// The source names of the embedded grammars: their paths in this
// repository, which positions in messages show.
const (
	RFC3986Name = "grammar/rfc3986.abnf"
	RFC6874Name = "grammar/ext/rfc6874.abnf"
	RFC3987Name = "grammar/ext/rfc3987.abnf"
)

// RFC3986 returns grammar/rfc3986.abnf: RFC 3986 Appendix A, verbatim.
func RFC3986() []byte { return slices.Clone(rfc3986) }

// RFC6874 returns grammar/ext/rfc6874.abnf: RFC 6874 zone identifiers, to
// read after RFC3986.
func RFC6874() []byte { return slices.Clone(rfc6874) }

// RFC3987 returns grammar/ext/rfc3987.abnf: the IRI rules of RFC 3987 §2.2,
// to read after RFC3986.
func RFC3987() []byte { return slices.Clone(rfc3987) }

var builtins = []struct {
	name, file string
	text       *[]byte
}{
	{"rfc3986", RFC3986Name, &rfc3986},
	{"rfc6874", RFC6874Name, &rfc6874},
	{"rfc3987", RFC3987Name, &rfc3987},
}

// Names returns the names of the embedded grammars, as gen's -grammar
// takes them: rfc3986, rfc6874, rfc3987.
func Names() []string {
	var names []string
	for _, b := range builtins {
		names = append(names, b.name)
	}
	return names
}

// Lookup returns the embedded grammar of a name (see Names) as a source
// to read: its text, under its source name.
func Lookup(name string) (abnf.Source, bool) {
	for _, b := range builtins {
		if b.name == name {
			return abnf.Source{Name: b.file, Text: slices.Clone(*b.text)}, true
		}
	}
	return abnf.Source{}, false
}

// Sources returns the sources that gen's -grammar values name, in order:
// each is the name of an embedded grammar (see Names) or the path of an
// ABNF file. A name is never a path: a file called rfc3986 is ./rfc3986.
func Sources(names []string) ([]abnf.Source, error) {
	var srcs []abnf.Source
	for _, n := range names {
		if s, ok := Lookup(n); ok {
			srcs = append(srcs, s)
			continue
		}
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, abnf.Source{Name: n, Text: b})
	}
	return srcs, nil
}

// Read reads the grammars that gen's -grammar values name (see Sources),
// in order, as one grammar, as abnf.Read does.
func Read(names []string, opts *abnf.Options) (*abnf.Grammar, error) {
	srcs, err := Sources(names)
	if err != nil {
		return nil, err
	}
	return abnf.Read(srcs, opts)
}

package rfc3986_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/peguri/rfc3986"
	"github.com/peguri/rfc3986/parser"
)

// TestURIMethods: rfc3986.URI has every method of parser.URI, with the
// same signature (parser.URI read as rfc3986.URI), so that go doc of this
// package shows them all; and each gives the same answer.
func TestURIMethods(t *testing.T) {
	p, f := reflect.TypeOf(&parser.URI{}), reflect.TypeOf(&rfc3986.URI{})
	sig := func(m reflect.Method) string {
		s := strings.ReplaceAll(m.Type.String(), "*parser.URI", "*URI")
		s = strings.ReplaceAll(s, "*rfc3986.URI", "*URI")
		s = strings.ReplaceAll(s, "parser.URI", "URI")
		return strings.ReplaceAll(s, "rfc3986.URI", "URI")
	}
	for i := range p.NumMethod() {
		m := p.Method(i)
		fm, ok := f.MethodByName(m.Name)
		if !ok {
			t.Errorf("rfc3986.URI has no method %s %s", m.Name, sig(m))
			continue
		}
		if sig(m) != sig(fm) {
			t.Errorf("rfc3986.URI.%s is %s, parser.URI.%s %s", m.Name, sig(fm), m.Name, sig(m))
		}
	}
	for i := range f.NumMethod() {
		if _, ok := p.MethodByName(f.Method(i).Name); !ok {
			t.Errorf("rfc3986.URI.%s is not a method of parser.URI", f.Method(i).Name)
		}
	}
	// The same answers: every method without arguments, on URIs of every
	// shape.
	for _, s := range []string{"", "http://u@[::1]:8/p?q#f", "a:b", "//h", "?", "#", "http://1.2.3.4:/"} {
		pu, fu := reflect.ValueOf(parser.MustParseReference(s)), reflect.ValueOf(rfc3986.MustParse(s))
		for i := range pu.NumMethod() {
			name := pu.Type().Method(i).Name
			if pu.Method(i).Type().NumIn() != 0 {
				continue
			}
			want := pu.Method(i).Call(nil)
			got := fu.MethodByName(name).Call(nil)
			for j := range want {
				if !reflect.DeepEqual(want[j].Interface(), got[j].Interface()) {
					t.Errorf("%q: %s = %v, parser's %v", s, name, got[j], want[j])
				}
			}
		}
	}
}

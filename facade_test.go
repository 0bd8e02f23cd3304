package rfc3986_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/peguri/rfc3986"
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/resolve"
)

// TestBuilderMethods: rfc3986.Builder has every method of parser.Builder,
// with the same signature (parser's URI and Builder read as rfc3986's).
func TestBuilderMethods(t *testing.T) {
	p, f := reflect.TypeOf(parser.Builder{}), reflect.TypeOf(rfc3986.Builder{})
	sig := func(m reflect.Method) string {
		s := strings.NewReplacer("parser.", "", "rfc3986.", "").Replace(m.Type.String())
		return s[strings.Index(s, ")"):]
	}
	for i := range p.NumMethod() {
		m := p.Method(i)
		fm, ok := f.MethodByName(m.Name)
		if !ok || sig(m) != sig(fm) {
			t.Errorf("rfc3986.Builder.%s: %v, want the signature of parser.Builder's, %s", m.Name, ok, sig(m))
		}
	}
	if p.NumMethod() != f.NumMethod() {
		t.Errorf("rfc3986.Builder has %d methods, parser.Builder %d", f.NumMethod(), p.NumMethod())
	}
}

// TestNormalizerMethods: rfc3986.Normalizer has every method of
// resolve.Normalizer, with this package's URI.
func TestNormalizerMethods(t *testing.T) {
	p, f := reflect.TypeOf(resolve.Normalizer{}), reflect.TypeOf(rfc3986.Normalizer{})
	sig := func(m reflect.Method) string {
		s := strings.NewReplacer("parser.", "", "rfc3986.", "", "resolve.", "").Replace(m.Type.String())
		return s[strings.Index(s, ")"):]
	}
	for i := range p.NumMethod() {
		m := p.Method(i)
		fm, ok := f.MethodByName(m.Name)
		if !ok || sig(m) != sig(fm) {
			t.Errorf("rfc3986.Normalizer.%s: %v, want the signature of resolve.Normalizer's, %s", m.Name, ok, sig(m))
		}
	}
	if p.NumMethod() != f.NumMethod() {
		t.Errorf("rfc3986.Normalizer has %d methods, resolve.Normalizer %d", f.NumMethod(), p.NumMethod())
	}
}

// TestURIMethods: rfc3986.URI has every method of parser.URI, with the
// same signature (parser.URI read as rfc3986.URI), so that go doc of this
// package shows them all; and each gives the same answer.
func TestURIMethods(t *testing.T) {
	p, f := reflect.TypeOf(&parser.URI{}), reflect.TypeOf(&rfc3986.URI{})
	sig := func(m reflect.Method) string {
		return strings.NewReplacer("parser.URI", "URI", "rfc3986.URI", "URI", "parser.Builder", "Builder", "rfc3986.Builder", "Builder").Replace(m.Type.String())
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
				if fmt.Sprintf("%#v", want[j].Interface()) != strings.Replace(fmt.Sprintf("%#v", got[j].Interface()), "rfc3986.Builder{b:", "", 1) &&
					fmt.Sprint(want[j].Interface()) != fmt.Sprint(got[j].Interface()) {
					t.Errorf("%q: %s = %v, parser's %v", s, name, got[j], want[j])
				}
			}
		}
	}
}

// TestZeroBuilderFacade: every method of the zero rfc3986.Builder, called
// with zero arguments, does what it does on NewBuilder() and panics on
// none (the example of the defect: var b Builder; b.Build()).
func TestZeroBuilderFacade(t *testing.T) {
	typ := reflect.TypeOf(rfc3986.Builder{})
	outcome := func(b rfc3986.Builder, m reflect.Method) (s string) {
		defer func() {
			if r := recover(); r != nil {
				s = fmt.Sprint("panic: ", r)
			}
		}()
		args := []reflect.Value{reflect.ValueOf(b)}
		for i := 1; i < m.Type.NumIn(); i++ {
			if m.Type.IsVariadic() && i == m.Type.NumIn()-1 {
				break
			}
			args = append(args, reflect.Zero(m.Type.In(i)))
		}
		var out []string
		for _, v := range m.Func.Call(args) {
			if nb, ok := v.Interface().(rfc3986.Builder); ok {
				u, err := nb.Build()
				out = append(out, fmt.Sprint(u, " ", err))
				continue
			}
			out = append(out, fmt.Sprint(v.Interface()))
		}
		return strings.Join(out, " ")
	}
	for i := range typ.NumMethod() {
		m := typ.Method(i)
		if got, want := outcome(rfc3986.Builder{}, m), outcome(rfc3986.NewBuilder(), m); got != want {
			t.Errorf("Builder{}.%s = %s; NewBuilder().%s = %s", m.Name, got, m.Name, want)
		}
	}
}

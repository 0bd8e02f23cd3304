package parser

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/peguri/rfc3986/internal/urilayout"
	"github.com/peguri/rfc3986/syntax"
)

// TestFieldsMirror holds urilayout.Fields, through which package resolve
// reads and fills URIs with unsafe.Pointer, to URI's fields: the same
// names (but for the case), in the same order, at the same offsets, of the
// same types (a *Parser is an unsafe.Pointer there, a HostKind a uint8).
func TestFieldsMirror(t *testing.T) {
	u, m := reflect.TypeFor[URI](), reflect.TypeFor[urilayout.Fields]()
	if u.Size() != m.Size() || u.Align() != m.Align() {
		t.Errorf("URI is %d bytes aligned to %d, urilayout.Fields %d aligned to %d", u.Size(), u.Align(), m.Size(), m.Align())
	}
	if u.NumField() != m.NumField() {
		t.Fatalf("URI has %d fields, urilayout.Fields %d", u.NumField(), m.NumField())
	}
	for i := range u.NumField() {
		a, b := u.Field(i), m.Field(i)
		// The same type, but for the grammar (an unsafe.Pointer there) and
		// HostKind (a uint8 there).
		same := a.Type == b.Type ||
			a.Type.Kind() == reflect.Pointer && b.Type.Kind() == reflect.UnsafePointer ||
			a.Type == reflect.TypeFor[HostKind]() && b.Type == reflect.TypeFor[uint8]()
		if !strings.EqualFold(a.Name, b.Name) || a.Offset != b.Offset || a.Type.Size() != b.Type.Size() || !same {
			t.Errorf("field %d: URI's is %s %s at %d, urilayout.Fields' %s %s at %d", i, a.Name, a.Type, a.Offset, b.Name, b.Type, b.Offset)
		}
	}
}

// TestSameShape holds FromParts' check (sameShape: the flags and lengths
// of the parse of the recomposed text) to the comparison of the parse's
// components with the parts, on the parts of the benchmark corpus' URIs
// and on variants of them: a byte moved across each delimiter, a
// delimiter added at the end of each component, each flag toggled, each
// component emptied.
func TestSameShape(t *testing.T) {
	b, err := os.ReadFile("../testdata/bench-corpus.txt")
	if err != nil {
		t.Fatal(err)
	}
	var checked, mismatched int
	check := func(p Parts) {
		if p.undefined() != nil {
			return // FromParts refuses it before it parses
		}
		text := p.String()
		var u URI
		if rfc3986.parseURI(&u, 0, text) != nil {
			return
		}
		checked++
		want := u.Parts() == p
		if !want {
			mismatched++
		}
		if got := u.sameShape(p); got != want {
			t.Errorf("%#v (%q): sameShape %t, Parts equal %t", p, text, got, want)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		u, err := ParseReference(line)
		if err != nil {
			continue
		}
		p := u.Parts()
		check(p)
		comps := []*string{&p.Scheme, &p.Userinfo, &p.Host, &p.Port, &p.Path, &p.Query, &p.Fragment}
		flags := []*bool{&p.HasScheme, &p.HasAuthority, &p.HasUserinfo, &p.HasPort, &p.HasQuery, &p.HasFragment}
		for i, c := range comps {
			q := p
			qc := []*string{&q.Scheme, &q.Userinfo, &q.Host, &q.Port, &q.Path, &q.Query, &q.Fragment}
			*qc[i] = ""
			check(q)
			// The last byte of component i moves to the front of the next
			// one, and the first byte of the next to the end of this one.
			if i+1 < len(comps) && *c != "" {
				q = p
				*qc[i], *qc[i+1] = (*c)[:len(*c)-1], (*c)[len(*c)-1:]+*comps[i+1]
				check(q)
			}
			if i+1 < len(comps) && *comps[i+1] != "" {
				q = p
				*qc[i], *qc[i+1] = *c+(*comps[i+1])[:1], (*comps[i+1])[1:]
				check(q)
			}
		}
		// A delimiter (and a byte) at the end of a component, where the
		// parse ends the component and begins the next one earlier.
		for i := range comps {
			for _, d := range []string{":", "@", "/", "?", "#"} {
				q := p
				qc := []*string{&q.Scheme, &q.Userinfo, &q.Host, &q.Port, &q.Path, &q.Query, &q.Fragment}
				*qc[i] += d + "x"
				check(q)
			}
		}
		for i := range flags {
			q := p
			qf := []*bool{&q.HasScheme, &q.HasAuthority, &q.HasUserinfo, &q.HasPort, &q.HasQuery, &q.HasFragment}
			*qf[i] = !*qf[i]
			check(q)
		}
	}
	if checked < 200 || mismatched == 0 {
		t.Errorf("%d parts parsed, %d of them into other components: too few to test the check", checked, mismatched)
	}
}

// TestDFAErrorOctets: a byte the DFA refuses is "invalid UTF-8" in a
// grammar of code points when it begins no character, and never in a
// grammar of octets (gen -octets), whose bytes are not UTF-8.
func TestDFAErrorOctets(t *testing.T) {
	for _, tt := range []struct {
		octets bool
		in     string
		msg    string
	}{
		{false, "a\xff", "invalid UTF-8"},
		{true, "a\xff", ""},
		{true, "a\xc3", ""},
	} {
		s := &Parser{octets: tt.octets}
		if e := s.dfaError(nil, "r", tt.in, syntax.Stop{Offset: 1}); e.Msg != tt.msg || e.Offset != 1 {
			t.Errorf("octets %v, %q: offset %d, Msg %q; want 1, %q", tt.octets, tt.in, e.Offset, e.Msg, tt.msg)
		}
	}
}

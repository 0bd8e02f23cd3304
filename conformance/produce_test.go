package main

import (
	"errors"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/grammar"
	"github.com/peguri/rfc3986/parser"
)

var (
	matcherOnce sync.Once
	matcher     *abnf.Matcher
	matcherErr  error
)

// match runs the exact ABNF matcher of package abnf on RFC 3986 Appendix
// A: an oracle independent of the generated parser and of the encoders.
func match(t *testing.T, rule, s string) bool {
	t.Helper()
	matcherOnce.Do(func() {
		g, err := grammar.Read([]string{"rfc3986"}, nil)
		if err != nil {
			matcherErr = err
			return
		}
		matcher, matcherErr = abnf.NewMatcher(g)
	})
	if matcherErr != nil {
		t.Fatal(matcherErr)
	}
	ok, err := matcher.Match(rule, []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// lenientDecode decodes every "%" and two hexadecimal digits of s and
// keeps every other byte: what escape's output must decode to.
func lenientDecode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			v, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			b.WriteByte(byte(v))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// TestEncoding: the library gives every encoding of the suite; each
// output matches its component's rule of Appendix A (the exact matcher
// says so), a query-part holds no "&", "=" or "+" of its own; an encode
// output decodes to the input, uses uppercase hexadecimal (§2.1) and
// encodes no character the rule allows as itself (the shortest text), and
// an escape output decodes to what the input's own percent-encodings
// and octets write. Every component is encoded with every class of
// characters.
func TestEncoding(t *testing.T) {
	s := load(t)
	covered := map[string]bool{}
	for _, c := range s.Encoding {
		comp, err := parser.ParseComponent(c.Component)
		if err != nil {
			t.Errorf("%s: %v", c.ID, err)
			continue
		}
		in := input(t, c.Input, c.InputQuoted)
		var got string
		switch c.Mode {
		case "encode":
			got = parser.Encode(comp, in)
			for _, ch := range classify(in) {
				covered[c.Component+"/"+ch.class] = true
			}
		case "escape":
			got = parser.Escape(comp, in)
		default:
			t.Errorf("%s: mode %q", c.ID, c.Mode)
			continue
		}
		if got != c.Output {
			t.Errorf("%s: %s(%s, %q) = %q; the suite says %q", c.ID, c.Mode, c.Component, in, got, c.Output)
		}
		rule := componentRules[c.Component]
		if !match(t, rule, c.Output) {
			t.Errorf("%s: %q does not match %s (Appendix A)", c.ID, c.Output, rule)
		}
		if c.Component == "query-part" && strings.ContainsAny(c.Output, "&=+") {
			t.Errorf("%s: query-part %q holds a delimiter of key=value&…", c.ID, c.Output)
		}
		want := in
		if c.Mode == "escape" {
			want = lenientDecode(in)
		}
		if d, err := parser.Decode(c.Output); err != nil || d != want {
			t.Errorf("%s: Decode(%q) = %q, %v; want %q", c.ID, c.Output, d, err, want)
		}
		if c.Mode != "encode" {
			continue
		}
		for i := 0; i < len(c.Output); i++ {
			if c.Output[i] != '%' {
				continue
			}
			hex := c.Output[i+1 : i+3]
			v, _ := strconv.ParseUint(hex, 16, 8)
			if strings.ToUpper(hex) != hex {
				t.Errorf("%s: %q: lowercase hexadecimal %%%s (§2.1: producers use uppercase)", c.ID, c.Output, hex)
			}
			if ch := string([]byte{byte(v)}); match(t, rule, ch) && !(c.Component == "query-part" && strings.Contains("&=+", ch)) {
				t.Errorf("%s: %q encodes %q, which %s allows as itself: not the shortest text", c.ID, c.Output, ch, rule)
			}
		}
	}
	// The classes of characters that encoding treats differently, listed
	// here rather than taken from the generator's grid.
	classes := []string{"unreserved", "%", "pct-encoded", "space", "control", "DEL", "other ASCII", "UTF-8", "invalid UTF-8"}
	for _, c := range ":/?#[]@" {
		classes = append(classes, "gen-delim "+string(c))
	}
	for _, c := range "!$&'()*+,;=" {
		classes = append(classes, "sub-delim "+string(c))
	}
	for _, comp := range []string{"userinfo", "host", "segment", "first-segment", "query", "fragment", "query-part"} {
		for _, class := range classes {
			if !covered[comp+"/"+class] {
				t.Errorf("no encode case of %s with %s", comp, class)
			}
		}
	}
}

// TestDecoding: the library gives every decoding of the suite; an
// independent reading of §2.1 agrees: an error's offset is a "%" that
// does not begin a pct-encoded (the matcher says so) and every "%"
// before it does.
func TestDecoding(t *testing.T) {
	for _, c := range load(t).Decoding {
		in := input(t, c.Input, c.InputQuoted)
		decode := parser.Decode
		if c.Form {
			decode = parser.FormDecode
		}
		got, err := decode(in)
		switch {
		case c.Error != "":
			var de *parser.DecodeError
			if c.Error != "pct-encoded" || c.Offset == nil || !errors.As(err, &de) || de.Offset != *c.Offset {
				t.Errorf("%s: decode(%q) = %q, %v; the suite says %s at %s", c.ID, in, got, err, c.Error, offsetString(c.Offset))
				continue
			}
			for i := 0; i < len(in); i++ {
				if in[i] != '%' {
					continue
				}
				if ok := match(t, "pct-encoded", in[i:min(i+3, len(in))]); ok != (i < *c.Offset) {
					t.Errorf("%s: %q: the %% at %d begins a pct-encoded: %v; the offset is %d", c.ID, in, i, ok, *c.Offset)
				}
				if i >= *c.Offset {
					break
				}
			}
		case c.Output == nil:
			t.Errorf("%s: neither output nor error", c.ID)
		default:
			want := input(t, *c.Output, c.OutputQuoted)
			if err != nil || got != want {
				t.Errorf("%s: decode(%q) = %q, %v; the suite says %q", c.ID, in, got, err, want)
			}
			ref := lenientDecode(in)
			if c.Form {
				ref = lenientDecode(strings.ReplaceAll(in, "+", "%20"))
			}
			if ref != want {
				t.Errorf("%s: §2.1 reads %q as %q; the suite says %q", c.ID, in, ref, want)
			}
		}
	}
}

// TestBuilding: the library's Builder gives every building answer; each
// output is a URI-reference (the matcher says so), and it parses into
// exactly the components given, which its decoded views give back raw:
// the scheme, the userinfo, the host (a name decoded, an address as the
// same address, a literal as written), the port, the path's segments and
// whether it is absolute, the query's pairs (in both readings of "+",
// since the builder encodes it), the fragment. Issue 19's must-show
// references are there, and every kind of error.
func TestBuilding(t *testing.T) {
	s := load(t)
	outputs := map[string]bool{}
	kinds := map[string]bool{}
	for _, c := range s.Building {
		out, be, err := buildWith(c)
		if err != nil {
			t.Errorf("%s: %v", c.ID, err)
			continue
		}
		if diff := cmp.Diff(c.Error, be); diff != "" {
			t.Errorf("%s: the builder's error (-suite +library):\n%s", c.ID, diff)
		}
		if c.Error != nil {
			kinds[c.Error.Kind] = true
			if c.Output != nil {
				t.Errorf("%s: both an output and an error", c.ID)
			}
			continue
		}
		if c.Output == nil || *c.Output != out {
			t.Errorf("%s: built %q; the suite says %v", c.ID, out, opts(c.Output))
			continue
		}
		outputs[out] = true
		if !match(t, "URI-reference", out) {
			t.Errorf("%s: %q is not a URI-reference (Appendix A)", c.ID, out)
			continue
		}
		u, err := parser.ParseReference(out)
		if err != nil {
			t.Errorf("%s: %v", c.ID, err)
			continue
		}
		for _, d := range viewDiffs(c, u) {
			t.Errorf("%s: %q: %s", c.ID, out, d)
		}
	}
	for _, want := range []string{"https://example.com/a%20b/c%2Fd?q=1%262#x%20y", "a%3Ab", "//[::1]"} {
		if !outputs[want] {
			t.Errorf("issue 19's must-show %q is not in the suite", want)
		}
	}
	for _, k := range buildKinds {
		if !kinds[k.kind] {
			t.Errorf("no building case fails with %s", k.kind)
		}
	}
}

// viewDiffs compares a reference's decoded views with the raw components
// of a building case.
func viewDiffs(c Building, u parser.URI) []string {
	var diffs []string
	diff := func(what string, got, want any) {
		if !cmp.Equal(got, want) {
			diffs = append(diffs, what+": "+cmp.Diff(want, got))
		}
	}
	view := func(defined bool, v string) *string {
		if !defined {
			return nil
		}
		return &v
	}
	diff("scheme", view(u.HasScheme(), u.Scheme()), c.Scheme)
	diff("userinfo", view(u.HasUserinfo(), u.DecodedUserinfo()), c.Userinfo)
	diff("authority", u.HasAuthority(), c.Host != nil)
	if c.Host != nil {
		if a, err := netip.ParseAddr(*c.Host); err == nil {
			got, ok := u.Addr()
			diff("host address", got.String()+strconv.FormatBool(ok), a.String()+"true")
		} else if strings.HasPrefix(*c.Host, "[") {
			diff("host literal", u.Host(), *c.Host)
		} else {
			diff("host", u.DecodedHost(), *c.Host)
		}
	}
	if c.Port != nil {
		n, err := u.PortNumber()
		diff("port", strconv.Itoa(int(n))+errString(err), strconv.Itoa(*c.Port))
	} else {
		diff("port defined", u.HasPort(), false)
	}
	wantSegs := c.Path
	if c.Absolute && len(c.Path) == 0 {
		wantSegs = []string{""} // "/" is one empty segment
	}
	diff("segments", u.PathSegments(), wantSegs)
	diff("absolute", strings.HasPrefix(u.Path(), "/"), c.Path != nil && c.Absolute)
	diff("query defined", u.HasQuery(), c.Query != nil)
	if c.Query != nil {
		var want []parser.QueryPair
		for _, p := range c.Query {
			want = append(want, parser.QueryPair{Key: p.Key, Value: p.Value, HasValue: true})
		}
		diff("query pairs", u.QueryPairs(), want)
		diff("form pairs", u.FormPairs(), want)
	}
	diff("fragment", view(u.HasFragment(), u.DecodedFragment()), c.Fragment)
	return diffs
}

func offsetString(p *int) string {
	if p == nil {
		return "no offset"
	}
	return strconv.Itoa(*p)
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return " " + err.Error()
}

// TestProduceSignatures: every case of the three sections teaches
// something no other does (its signature), but for the RFC's examples,
// which are there as the RFC's.
func TestProduceSignatures(t *testing.T) {
	s := load(t)
	seen := map[string]string{}
	take := func(id, sig string, p Provenance) {
		if p.Kind == "rfc" {
			return
		}
		if p.Kind == "corpus" && p.CorpusAgree != nil && !*p.CorpusAgree {
			sig += "|" + p.Source
		}
		if other, ok := seen[sig]; ok {
			t.Errorf("%s teaches what %s does (%s)", id, other, sig)
		}
		seen[sig] = id
	}
	for _, c := range s.Encoding {
		sig, _, _ := encodeLessons(c.Component, c.Mode, input(t, c.Input, c.InputQuoted))
		take(c.ID, sig, c.Provenance)
	}
	for _, c := range s.Decoding {
		in := input(t, c.Input, c.InputQuoted)
		decode := parser.Decode
		if c.Form {
			decode = parser.FormDecode
		}
		out, err := decode(in)
		take(c.ID, decodeSig(in, c.Form, out, err), c.Provenance)
	}
	for _, c := range s.Building {
		take(c.ID, buildSig(c), c.Provenance)
	}
	if !slices.ContainsFunc(s.Encoding, func(c Encoding) bool { return c.Provenance.Kind == "rfc" }) {
		t.Error("no RFC example of encoding")
	}
}

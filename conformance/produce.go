package main

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/peguri/rfc3986/parser"
)

// Producing URIs (RFC 3986 §2.4: percent-encoding happens "during the
// process of producing the URI from its component parts"): encoding raw
// text for a component, decoding, and building a reference from raw
// components. The answers are the library's (package parser); the tests
// hold every encoding and every built reference to the exact ABNF matcher
// and check that each decodes back to what was given.

// componentRules are the Appendix A rules each component's text must
// match (query-part is a key or a value inside a query), and the section
// that defines each.
var componentRules = map[string]string{
	"userinfo": "userinfo", "host": "reg-name", "segment": "segment", "first-segment": "segment-nz-nc",
	"query": "query", "fragment": "fragment", "query-part": "query",
}

var componentSections = map[string]string{
	"userinfo": "3.2.1", "host": "3.2.2", "segment": "3.3", "first-segment": "3.3, 4.2",
	"query": "3.4", "fragment": "3.5", "query-part": "3.4",
}

// componentOrder is the order of the components in the suite: the order
// of a URI's text.
var componentOrder = []string{"userinfo", "host", "segment", "first-segment", "query", "fragment", "query-part"}

// charClass is a class of characters that encoding treats alike in every
// component: each gen-delim and each sub-delim is a class of its own,
// since each component allows a different subset of them.
type charClass struct {
	name    string
	section string // the section of RFC 3986 that says how the class is encoded
	sample  string // the raw text of the grid's case
}

// charClasses are the classes of the grid: every component is encoded
// with each.
var charClasses = func() []charClass {
	cs := []charClass{{"unreserved", "2.3", "aZ09-._~"}}
	for _, c := range ":/?#[]@" {
		cs = append(cs, charClass{"gen-delim " + string(c), "2.2", string(c)})
	}
	for _, c := range "!$&'()*+,;=" {
		cs = append(cs, charClass{"sub-delim " + string(c), "2.2", string(c)})
	}
	return append(cs,
		charClass{"%", "2.4", "%"},
		charClass{"pct-encoded", "2.4", "%41"},
		charClass{"space", "2.1", " "},
		charClass{"control", "2.1", "\x00\n"},
		charClass{"DEL", "2.1", "\x7f"},
		charClass{"other ASCII", "2.1", "\"<>\\^`{|}"},
		charClass{"UTF-8", "2.5", "é"},
		charClass{"invalid UTF-8", "2.1", "\xff"},
	)
}()

// classify splits raw text into its characters' classes, in order: a "%"
// and two hexadecimal digits is one "pct-encoded" (lowercase when a digit
// is), a byte that does not begin a UTF-8 character is "invalid UTF-8".
func classify(raw string) []struct{ class, text string } {
	var out []struct{ class, text string }
	add := func(class, text string) { out = append(out, struct{ class, text string }{class, text}) }
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '%' && i+2 < len(raw) && isHex(raw[i+1]) && isHex(raw[i+2]):
			class := "pct-encoded"
			if strings.ContainsAny(raw[i+1:i+3], "abcdef") {
				class = "pct-encoded lowercase"
			}
			add(class, raw[i:i+3])
			i += 3
			continue
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~", c) >= 0:
			add("unreserved", raw[i:i+1])
		case strings.IndexByte(":/?#[]@", c) >= 0:
			add("gen-delim "+raw[i:i+1], raw[i:i+1])
		case strings.IndexByte("!$&'()*+,;=", c) >= 0:
			add("sub-delim "+raw[i:i+1], raw[i:i+1])
		case c == '%' && len(raw)-i >= 3:
			add("% before a non-hexadecimal digit", "%")
		case c == '%':
			add("%", "%")
		case c == ' ':
			add("space", " ")
		case c < 0x20:
			add("control", raw[i:i+1])
		case c == 0x7f:
			add("DEL", raw[i:i+1])
		case c < 0x80:
			add("other ASCII", raw[i:i+1])
		default:
			r, n := utf8.DecodeRuneInString(raw[i:])
			if r == utf8.RuneError && n <= 1 {
				add("invalid UTF-8", raw[i:i+1])
			} else {
				add("UTF-8", raw[i:i+n])
			}
			i += n
			continue
		}
		i++
	}
	return out
}

// encodeLessons says what encoding raw for a component teaches: each
// class of its characters and whether the component keeps it. The
// signature is the component, the mode and these, sorted.
func encodeLessons(component, mode, raw string) (sig string, lessons []string, sections []string) {
	c, _ := parser.ParseComponent(component)
	seen := map[string]bool{}
	secs := map[string]bool{}
	for _, ch := range classify(raw) {
		var action string
		switch {
		case strings.HasPrefix(ch.class, "pct-encoded") && mode == "escape":
			action = "kept as a percent-encoding"
		case parser.Encode(c, ch.text) == ch.text:
			action = "kept"
		default:
			action = "encoded"
		}
		l := ch.class + ": " + action
		if seen[l] {
			continue
		}
		seen[l] = true
		lessons = append(lessons, l)
		secs[classSection(ch.class)] = true
	}
	sorted := append([]string(nil), lessons...)
	sort.Strings(sorted)
	for s := range secs {
		sections = append(sections, s)
	}
	sort.Strings(sections)
	return "e|" + component + "|" + mode + "|" + strings.Join(sorted, ";"), lessons, sections
}

// classSection is the section of RFC 3986 that says how a class of
// characters is encoded.
func classSection(class string) string {
	if strings.HasPrefix(class, "%") || strings.HasPrefix(class, "pct-encoded") {
		return "2.4"
	}
	for _, cc := range charClasses {
		if cc.name == class {
			return cc.section
		}
	}
	return "2.1"
}

// encodeNote explains an encoding case from its lessons, in the rule's
// terms.
func encodeNote(component string, lessons []string) string {
	rule := componentRules[component]
	var parts []string
	for _, l := range lessons {
		class, action, _ := strings.Cut(l, ": ")
		switch {
		case action == "kept as a percent-encoding":
			parts = append(parts, class+" kept: escape keeps the percent-encodings the text has (§2.4: never encode twice)")
		case strings.HasPrefix(class, "%") || class == "pct-encoded":
			parts = append(parts, class+" encoded: \"%\" is data, written %25 (§2.4)")
		case action == "kept":
			parts = append(parts, class+" kept: "+rule+" allows it")
		case component == "query-part" && (class == "sub-delim &" || class == "sub-delim =" || class == "sub-delim +"):
			parts = append(parts, class+" encoded: query allows it, but the key=value&… convention reads it as a delimiter (\"+\" as a space)")
		case class == "UTF-8":
			parts = append(parts, class+" encoded: its UTF-8 octets, each percent-encoded (§2.5)")
		case class == "invalid UTF-8" || class == "control" || class == "DEL":
			parts = append(parts, class+" encoded: an octet outside "+rule+"'s characters, uppercase hexadecimal (§2.1)")
		default:
			parts = append(parts, class+" encoded: "+rule+" does not allow it")
		}
	}
	return strings.Join(parts, "; ")
}

// rfcEncodings are RFC 3986's own examples of percent-encoding.
var rfcEncodings = []struct {
	ref, component, raw, note string
}{
	{"§2.1", "segment", " ", "§2.1: \"%20\" is the percent-encoding for the binary octet \"00100000\" (SP)"},
	{"§2.4", "segment", "%", "§2.4: \"%\" must be percent-encoded as \"%25\" for that octet to be used as data"},
	{"§2.5", "segment", "A", "§2.5: the character A is represented as \"A\""},
	{"§2.5", "segment", "À", "§2.5: LATIN CAPITAL LETTER A WITH GRAVE is \"%C3%80\": UTF-8, then each octet not unreserved percent-encoded"},
	{"§2.5", "segment", "ア", "§2.5: KATAKANA LETTER A is \"%E3%82%A2\""},
	{"§2.5", "segment", "Laguna Beach", "§2.5: the file \"Laguna Beach\" is \"Laguna%20Beach\""},
	{"§2.5", "segment", "\xd3\x81\x87\xa4\x95\x81\x40\xc2\x85\x81\x83\x88",
		"§2.5: \"Laguna Beach\" in EBCDIC, octet for octet, is \"%D3%81%87%A4%95%81@%C2%85%81%83%88\": the octets are data, and 0x40 is \"@\", which a segment allows"},
}

// writtenEncodings are cases written for the suite, each with the lesson
// the grid does not give.
var writtenEncodings = []struct {
	component, mode, raw, reason string
}{
	{"segment", "encode", "a b/c?d#e", "a segment's delimiters and a space, together: the shape of most paths' data"},
	{"first-segment", "encode", "a:b@c", "§4.2: the first segment of a relative-path reference loses \":\" but keeps \"@\""},
	{"userinfo", "encode", "user:pass@host", "§3.2.1: \":\" stays (user:password), \"@\" would end the userinfo"},
	{"host", "encode", "example.com:80", "§3.2.2: a reg-name's \":\" would begin the port"},
	{"query", "encode", "q=1&r=a/b?c d", "§3.4: a whole query keeps \"=\", \"&\", \"/\" and \"?\"; only the space is encoded"},
	{"query-part", "encode", "1&2=3+4 5", "the key=value convention: \"&\", \"=\" and \"+\" encoded, and the space is %20, never \"+\""},
	{"fragment", "encode", "x y#z", "§3.5: a second \"#\" is data"},
	{"segment", "encode", "%2F", "§2.4: text that looks encoded is data when encoding: %2F is written %252F, never passed through"},
	{"segment", "escape", "a/b%2Fc", "escape keeps the %2F the text has and encodes its raw \"/\": both mean an octet 0x2F inside the segment"},
	{"fragment", "escape", "%e2%82%ac €", "escape keeps a lowercase percent-encoding as it is and writes its own in uppercase (§2.1)"},
	{"query", "escape", "a b%20c", "escape: a text partly encoded, such as a query a user typed"},
}

// escapeClasses are the classes of the grid in escape mode, where
// percent-encodings are kept: for the components escape is used for.
var escapeClasses = []struct{ name, sample string }{
	{"pct-encoded", "%41"}, {"pct-encoded lowercase", "%c3%a9"}, {"%", "%"}, {"% and one digit", "%4"}, {"% and no digits", "%zz"},
}

func (b *builder) encoding() error {
	add := func(component, mode, raw string, p Provenance, note string, always bool) error {
		c, err := parser.ParseComponent(component)
		if err != nil {
			return err
		}
		sig, lessons, secs := encodeLessons(component, mode, raw)
		if b.seen[sig] {
			if !always {
				return nil
			}
			if p.Kind == "written" {
				return fmt.Errorf("encoding %s %s %q teaches nothing new (%s)", component, mode, raw, sig)
			}
		}
		b.seen[sig] = true
		out := parser.Encode(c, raw)
		if mode == "escape" {
			out = parser.Escape(c, raw)
		}
		if note == "" {
			note = encodeNote(component, lessons)
		}
		b.s.Encoding = append(b.s.Encoding, Encoding{Component: component, Mode: mode, Input: raw, InputQuoted: quotedIf(raw), Output: out,
			Section: strings.Join(append(secs, componentSections[component]), ", "), Note: note, Provenance: p})
		return nil
	}
	for _, e := range rfcEncodings {
		if err := add(e.component, "encode", e.raw, Provenance{Kind: "rfc", Ref: e.ref}, e.note, true); err != nil {
			return err
		}
	}
	for _, e := range writtenEncodings {
		if err := add(e.component, e.mode, e.raw, Provenance{Kind: "written", Reason: e.reason}, "", true); err != nil {
			return err
		}
	}
	for _, comp := range componentOrder {
		for _, cc := range charClasses {
			if err := add(comp, "encode", cc.sample, Provenance{Kind: "generated", Command: "every component × each class of characters (conformance/produce.go)"}, "", false); err != nil {
				return err
			}
		}
	}
	for _, comp := range []string{"segment", "query"} {
		for _, ec := range escapeClasses {
			if err := add(comp, "escape", ec.sample, Provenance{Kind: "generated", Command: "escape: segment and query × each form of \"%\" (conformance/produce.go)"}, "", false); err != nil {
				return err
			}
		}
	}
	// Number them in the order of the components.
	order := map[string]int{}
	for i, c := range componentOrder {
		order[c] = i
	}
	sort.SliceStable(b.s.Encoding, func(i, j int) bool {
		return order[b.s.Encoding[i].Component] < order[b.s.Encoding[j].Component]
	})
	count := map[string]int{}
	for i := range b.s.Encoding {
		c := &b.s.Encoding[i]
		count[c.Component]++
		c.ID = fmt.Sprintf("encoding/%s/%d", c.Component, count[c.Component])
	}
	return nil
}

// decodeCases are the decoding cases: RFC 3986's examples, then cases
// written for the suite, each with its lesson.
var decodeCases = []struct {
	in      string
	form    bool
	section string
	p       Provenance
	note    string
}{
	{"%20", false, "2.1", Provenance{Kind: "rfc", Ref: "§2.1"}, "§2.1: \"%20\" is the octet 00100000, SP"},
	{"%7E", false, "2.3, 2.4", Provenance{Kind: "rfc", Ref: "§2.4"}, "§2.4: \"%7E\" can be replaced by \"~\" without changing its interpretation"},
	{"%25", false, "2.4", Provenance{Kind: "rfc", Ref: "§2.4"}, "§2.4: \"%25\" is the data octet \"%\""},
	{"Laguna%20Beach", false, "2.5", Provenance{Kind: "rfc", Ref: "§2.5"}, "§2.5: \"%20\" to SP, before any transcoding"},
	{"%C3%80", false, "2.5", Provenance{Kind: "rfc", Ref: "§2.5"}, "§2.5: the UTF-8 octets of LATIN CAPITAL LETTER A WITH GRAVE"},
	{"%E3%82%A2", false, "2.5", Provenance{Kind: "rfc", Ref: "§2.5"}, "§2.5: the UTF-8 octets of KATAKANA LETTER A"},
	{"%D3%81%87%A4%95%81@%C2%85%81%83%88", false, "2.5", Provenance{Kind: "rfc", Ref: "§2.5"}, "§2.5: the octets of \"Laguna Beach\" in EBCDIC; decoding gives octets, not characters"},
	{"", false, "2.1", Provenance{Kind: "written", Reason: "the empty string decodes to itself"}, ""},
	{"abc", false, "2.1", Provenance{Kind: "written", Reason: "text without \"%\" decodes to itself"}, ""},
	{"%7e", false, "2.1", Provenance{Kind: "written", Reason: "§2.1: lowercase hexadecimal digits are equivalent to uppercase"}, ""},
	{"%2F", false, "2.2, 2.4", Provenance{Kind: "written", Reason: "§2.4: a decoded reserved character is data; decode a component only after splitting the URI"}, ""},
	{"%252F", false, "2.4", Provenance{Kind: "written", Reason: "§2.4: decoding happens once: %252F is the text %2F, not \"/\""}, ""},
	{"%00", false, "2.1", Provenance{Kind: "written", Reason: "any octet, NUL included"}, ""},
	{"%FF", false, "2.1", Provenance{Kind: "written", Reason: "an octet that is not UTF-8 is an octet all the same"}, ""},
	{"é", false, "2.1", Provenance{Kind: "written", Reason: "a character that is not percent-encoded is itself, whatever it is: decoding does not validate"}, ""},
	{"a+b", false, "2.2", Provenance{Kind: "written", Reason: "\"+\" is a sub-delim: RFC 3986 decoding leaves it"}, ""},
	{"a+b", true, "2.2, 3.4", Provenance{Kind: "written", Reason: "the HTML forms convention (application/x-www-form-urlencoded): \"+\" is a space"}, ""},
	{"a%2Bb", true, "2.2, 3.4", Provenance{Kind: "written", Reason: "under the forms convention, a \"+\" that is data is %2B"}, ""},
	{"%", false, "2.1", Provenance{Kind: "written", Reason: "§2.1: a \"%\" alone at the end"}, ""},
	{"%2", false, "2.1", Provenance{Kind: "written", Reason: "§2.1: a \"%\" with one hexadecimal digit (issue 19's must-show: offset 0)"}, ""},
	{"a%2", false, "2.1", Provenance{Kind: "written", Reason: "the offset is the \"%\"'s"}, ""},
	{"%zz", false, "2.1", Provenance{Kind: "written", Reason: "§2.1: \"%\" followed by characters that are not hexadecimal digits"}, ""},
	{"%%41", false, "2.1", Provenance{Kind: "written", Reason: "§2.1: the first \"%\" is malformed though a valid encoding follows it"}, ""},
	{"%41%", false, "2.1", Provenance{Kind: "written", Reason: "a valid encoding, then a malformed one: the offset is the second's"}, ""},
	{"a+%", true, "2.1", Provenance{Kind: "written", Reason: "the forms convention checks \"%\" as strictly"}, ""},
}

// decodeSig says what a decoding case teaches: the mode, the classes of
// the octets its percent-encodings write (unreserved, reserved, other
// ASCII, not ASCII), lowercase digits, "+", raw octets, and the error.
func decodeSig(in string, form bool, out string, err error) string {
	var parts []string
	for i := 0; i < len(in); i++ {
		switch c := in[i]; {
		case c == '%' && i+2 < len(in) && isHex(in[i+1]) && isHex(in[i+2]):
			v, _ := strconv.ParseUint(in[i+1:i+3], 16, 8)
			k := "pct other ASCII"
			switch x := byte(v); {
			case x >= 0x80:
				k = "pct non-ASCII"
			case x < 0x20 || x == 0x7f:
				k = "pct control"
			case strings.IndexByte("-._~", x) >= 0 || 'a' <= x && x <= 'z' || 'A' <= x && x <= 'Z' || '0' <= x && x <= '9':
				k = "pct unreserved"
			case strings.IndexByte(":/?#[]@!$&'()*+,;=", x) >= 0:
				k = "pct reserved"
			case x == '%':
				k = "pct %"
			}
			if strings.ContainsAny(in[i+1:i+3], "abcdef") {
				k += " lowercase"
			}
			parts = append(parts, k)
			i += 2
		case c == '%':
			parts = append(parts, "malformed")
		case c == '+':
			parts = append(parts, "plus")
		case c >= 0x80:
			parts = append(parts, "raw non-ASCII")
		default:
			parts = append(parts, "raw")
		}
	}
	parts = slicesCompact(parts)
	res := "ok"
	if err != nil {
		var de *parser.DecodeError
		errors.As(err, &de)
		res = fmt.Sprintf("error at %s", map[bool]string{true: "0", false: "n"}[de.Offset == 0])
		if de.Offset+1 == len(in) || de.Offset+2 == len(in) {
			res += " truncated"
		}
	} else if !utf8.ValidString(out) {
		res = "ok, not UTF-8"
	}
	return fmt.Sprintf("d|%v|%s|%s", form, strings.Join(parts, " "), res)
}

// slicesCompact drops consecutive repeats.
func slicesCompact(s []string) []string {
	var out []string
	for i, x := range s {
		if i == 0 || s[i-1] != x {
			out = append(out, x)
		}
	}
	return out
}

func (b *builder) decoding() error {
	for _, dc := range decodeCases {
		decode := parser.Decode
		if dc.form {
			decode = parser.FormDecode
		}
		out, err := decode(dc.in)
		sig := decodeSig(dc.in, dc.form, out, err)
		if b.seen[sig] && dc.p.Kind == "written" {
			return fmt.Errorf("decoding %q teaches nothing new (%s)", dc.in, sig)
		}
		b.seen[sig] = true
		c := Decoding{Input: dc.in, InputQuoted: quotedIf(dc.in), Form: dc.form, Section: dc.section, Note: dc.note, Provenance: dc.p}
		if err != nil {
			var de *parser.DecodeError
			if !errors.As(err, &de) {
				return fmt.Errorf("decoding %q: %w", dc.in, err)
			}
			off := de.Offset
			c.Error, c.Offset = "pct-encoded", &off
			if c.Note == "" {
				c.Note = fmt.Sprintf("§2.1: the \"%%\" at offset %d is not followed by two hexadecimal digits (pct-encoded = \"%%\" HEXDIG HEXDIG)", off)
			}
		} else {
			c.Output, c.OutputQuoted = &out, quotedIf(out)
		}
		b.s.Decoding = append(b.s.Decoding, c)
	}
	for i := range b.s.Decoding {
		b.s.Decoding[i].ID = fmt.Sprintf("decoding/%d", i+1)
	}
	return nil
}

func str(s string) *string { return &s }
func num(n int) *int       { return &n }

// buildCase is a building case as written: the raw components.
type buildCase struct {
	scheme, userinfo, host *string
	port                   *int
	path                   []string
	absolute               bool
	query                  []Pair // nil: no query; empty: the empty query
	fragment               *string
	section, reason        string
}

// buildCases are the building cases written for the suite: issue 19's
// must-show cases first, then each way a builder can succeed or must
// fail.
var buildCases = []buildCase{
	{scheme: str("https"), host: str("example.com"), path: []string{"a b", "c/d"}, absolute: true, query: []Pair{{"q", "1&2"}}, fragment: str("x y"),
		section: "2.1, 3.3, 3.4, 3.5, 5.3", reason: "issue 19's must-show: each component encoded with its own characters; \"/\" in a segment and \"&\" in a value are data"},
	{path: []string{"a:b"}, section: "4.2", reason: "issue 19's must-show: a \":\" in the first segment of a relative-path reference would read as a scheme's end; §4.2 allows \"./a:b\", this suite encodes the \":\" so that the segments decode to what was given"},
	{host: str("::1"), section: "3.2.2", reason: "issue 19's must-show: an IPv6 address is written in brackets (IP-literal)"},
	{scheme: str("a"), path: []string{"b:c"}, section: "3.3", reason: "with a scheme, the first segment of a rootless path may hold \":\" (path-rootless)"},
	{path: []string{"a", "b:c"}, section: "3.3, 4.2", reason: "only the first segment of a relative-path reference is restricted"},
	{scheme: str("a"), section: "3", reason: "a scheme alone: the path is empty"},
	{section: "4.2", reason: "no component: the empty relative reference"},
	{scheme: str("file"), host: str(""), path: []string{"etc", "hosts"}, absolute: true, section: "3.2.2", reason: "an empty host (reg-name may be empty): file:///etc/hosts"},
	{host: str("1.2.3.4"), section: "3.2.2", reason: "an IPv4address is written as it is"},
	{host: str("256.1.1.1"), section: "3.2.2", reason: "not an IPv4address (dec-octet ends at 255): a reg-name, which needs no encoding"},
	{host: str("[v1.x]"), section: "3.2.2", reason: "an IP literal given with its brackets (IPvFuture) is written as it is"},
	{host: str("::ffff:1.2.3.4"), section: "3.2.2", reason: "an IPv6 address whose last 32 bits are dotted (ls32)"},
	{host: str("ex ample:80"), section: "3.2.2", reason: "a reg-name is encoded: \":\" would begin the port"},
	{host: str("[::1"), section: "3.2.2", reason: "a host in brackets must be an IP-literal"},
	{host: str("fe80::1%eth0"), section: "3.2.2, RFC 6874 §2", reason: "RFC 3986 has no zone identifiers: RFC 6874 adds them (fe80::1%25eth0 in brackets)"},
	{host: str("h"), userinfo: str("u:p@x"), section: "3.2.1", reason: "a userinfo keeps \":\" and encodes \"@\""},
	{host: str("h"), userinfo: str(""), section: "3.2", reason: "an empty userinfo is defined: \"@\" is written"},
	{userinfo: str("u"), section: "3.2", reason: "a userinfo lives in the authority: no host, no userinfo"},
	{port: num(8080), section: "3.2", reason: "a port lives in the authority: no host, no port"},
	{host: str("h"), port: num(0), section: "3.2.3", reason: "port 0 is a port"},
	{host: str("::1"), port: num(65535), section: "3.2.2, 3.2.3", reason: "the brackets keep an IPv6 address apart from its port"},
	{host: str("h"), path: []string{"a"}, section: "3.3", reason: "after an authority the path is empty or begins with \"/\": a rootless path cannot follow"},
	{path: []string{"", "a"}, absolute: true, section: "3.3", reason: "without an authority a path cannot begin with \"//\": it would read as one"},
	{host: str("h"), path: []string{"", "a"}, absolute: true, section: "3.3", reason: "after an authority a path may begin with \"//\" (path-abempty)"},
	{path: []string{"", "a"}, section: "3.3", reason: "a rootless path cannot begin with an empty segment: it would begin with \"/\""},
	{path: []string{}, absolute: true, section: "3.3", reason: "an absolute path of no segments is \"/\""},
	{path: []string{"a", ""}, absolute: true, section: "3.3", reason: "an empty last segment is a trailing \"/\""},
	{scheme: str("1a"), section: "3.1", reason: "a scheme begins with a letter; it is never encoded"},
	{scheme: str(""), section: "3.1", reason: "an empty scheme is no scheme"},
	{scheme: str("a+b.c-d"), section: "3.1", reason: "a scheme of letters, digits, \"+\", \".\" and \"-\""},
	{query: []Pair{}, section: "3.4", reason: "an empty query is defined: \"?\" is written"},
	{query: []Pair{{"", ""}}, section: "3.4", reason: "one pair of an empty key and an empty value"},
	{query: []Pair{{"b", "1"}, {"a", "2"}, {"b", "3"}}, section: "3.4", reason: "pairs keep their order and their duplicates"},
	{query: []Pair{{"a=b", "c+d"}, {"u", "/p?x#y"}}, section: "3.4", reason: "in a key or a value, \"=\", \"+\" and \"#\" are encoded, \"/\" and \"?\" are not"},
	{fragment: str(""), section: "3.5", reason: "an empty fragment is defined: \"#\" is written"},
	{fragment: str("/?a#b"), section: "3.5", reason: "a fragment keeps \"/\" and \"?\" and encodes a second \"#\""},
}

// buildKinds name the errors of building, stable across releases.
var buildKinds = []struct {
	err  error
	kind string
}{
	{parser.ErrScheme, "scheme"}, {parser.ErrNoHost, "no-host"}, {parser.ErrRootless, "rootless"},
	{parser.ErrEmptySegment, "empty-segment"}, {parser.ErrZone, "zone"}, {parser.ErrHost, "host"},
}

// buildWith builds a case with the library's Builder, as the suite's
// README says each field maps to it.
func buildWith(c Building) (string, *BuildErr, error) {
	b := parser.NewBuilder()
	if c.Scheme != nil {
		b = b.Scheme(*c.Scheme)
	}
	if c.Userinfo != nil {
		b = b.Userinfo(*c.Userinfo)
	}
	if c.Host != nil {
		b = b.Host(*c.Host)
	}
	if c.Port != nil {
		b = b.Port(uint16(*c.Port))
	}
	switch {
	case c.Path == nil:
	case c.Absolute:
		b = b.Path(c.Path...)
	default:
		b = b.RelativePath(c.Path...)
	}
	if c.Query != nil && len(c.Query) == 0 {
		b = b.RawQuery("")
	}
	for _, p := range c.Query {
		b = b.Query(p.Key, p.Value)
	}
	if c.Fragment != nil {
		b = b.Fragment(*c.Fragment)
	}
	u, err := b.Build()
	if err == nil {
		return u.String(), nil, nil
	}
	var be *parser.BuildError
	if !errors.As(err, &be) {
		return "", nil, err
	}
	for _, k := range buildKinds {
		if errors.Is(err, k.err) {
			return "", &BuildErr{Component: be.Component, Kind: k.kind}, nil
		}
	}
	return "", nil, fmt.Errorf("build: an error of no known kind: %w", err)
}

// buildSig says what a building case teaches: which components are set,
// empty or not, whether encoding changed them, the host's kind, the
// path's form, the query's pairs, and the error.
func buildSig(c Building) string {
	d := func(s *string, comp string) string {
		switch {
		case s == nil:
			return "u"
		case *s == "":
			return "e"
		case comp != "":
			cc, _ := parser.ParseComponent(comp)
			if parser.Encode(cc, *s) != *s {
				return "enc"
			}
		}
		return "x"
	}
	host := d(c.Host, "")
	if c.Host != nil && *c.Host != "" {
		switch h := *c.Host; {
		case strings.HasPrefix(h, "["):
			host = "literal"
		case strings.Contains(h, "%"):
			host = "zone"
		case strings.Contains(h, ":") && !strings.Contains(h, " "):
			host = "ipv6"
			if strings.Contains(h, ".") {
				host = "ipv6-ls32"
			}
		case parser.Validate("IPv4address", h) == nil:
			host = "ipv4"
		case strings.Count(h, ".") == 3 && strings.Trim(h, "0123456789.") == "":
			host = "ipv4-like"
		default:
			host = "reg-name-" + d(c.Host, "host")
		}
	}
	path := "u"
	if c.Path != nil {
		path = map[bool]string{true: "abs", false: "rel"}[c.Absolute]
		if len(c.Path) == 0 {
			path += "-none"
		} else {
			if c.Path[0] == "" {
				path += "-first-empty"
			}
			if c.Path[len(c.Path)-1] == "" && len(c.Path) > 1 {
				path += "-last-empty"
			}
			for i, s := range c.Path {
				if strings.Contains(s, ":") {
					path += fmt.Sprintf("-colon%d", min(i, 1))
				}
				if s != "" && parser.Encode(parser.Segment, s) != s {
					path += "-enc"
				}
			}
		}
	}
	query := "u"
	if c.Query != nil {
		keys := map[string]bool{}
		query = fmt.Sprint(len(c.Query))
		for _, p := range c.Query {
			if keys[p.Key] {
				query += "-dup"
			}
			keys[p.Key] = true
			if parser.Encode(parser.QueryPart, p.Key+p.Value) != p.Key+p.Value {
				query += "-enc"
			}
			if p.Key == "" {
				query += "-empty"
			}
		}
	}
	scheme := d(c.Scheme, "")
	if c.Scheme != nil && *c.Scheme != "" && parser.Validate("scheme", *c.Scheme) != nil {
		scheme = "bad"
	} else if c.Scheme != nil && strings.ContainsAny(*c.Scheme, "+.-") {
		scheme = "marks"
	}
	port := "u"
	if c.Port != nil {
		port = map[bool]string{true: "0", false: "x"}[*c.Port == 0]
	}
	res := "ok"
	if c.Error != nil {
		res = c.Error.Component + ":" + c.Error.Kind
	}
	return strings.Join([]string{"b", scheme, d(c.Userinfo, "userinfo"), host, port, path, query, d(c.Fragment, "fragment"), res}, "|")
}

// pathText is the path a building case writes, before encoding: the
// segments joined with "/", after a "/" when absolute.
func pathText(segs []string, absolute bool) string {
	p := strings.Join(segs, "/")
	if absolute {
		p = "/" + p
	}
	return p
}

func (b *builder) building() error {
	add := func(c Building, always bool, suffix string) error {
		out, be, err := buildWith(c)
		if err != nil {
			return err
		}
		if be != nil {
			c.Error = be
		} else {
			c.Output = &out
		}
		sig := buildSig(c) + suffix
		if b.seen[sig] {
			if always {
				return fmt.Errorf("building %q teaches nothing new (%s)", c.Provenance.Reason, sig)
			}
			return nil
		}
		b.seen[sig] = true
		b.s.Building = append(b.s.Building, c)
		return nil
	}
	for _, bc := range buildCases {
		c := Building{Scheme: bc.scheme, Userinfo: bc.userinfo, Host: bc.host, Port: bc.port, Path: bc.path, Absolute: bc.absolute,
			Query: bc.query, Fragment: bc.fragment, Section: bc.section, Provenance: Provenance{Kind: "written", Reason: bc.reason}}
		if err := add(c, true, ""); err != nil {
			return err
		}
	}
	// The corpora's recompositions: components to a reference (uri-js),
	// the path read as its segments.
	for _, r := range b.recs {
		if r.Kind != "recompose" {
			continue
		}
		comps, ok := r.Object("components")
		if !ok {
			continue
		}
		c := Building{Section: "5.3"}
		for _, k := range []struct {
			key string
			dst **string
		}{{"scheme", &c.Scheme}, {"userinfo", &c.Userinfo}, {"host", &c.Host}, {"fragment", &c.Fragment}} {
			if v, defined, present := comps.String(k.key); present && defined {
				*k.dst = str(v)
			}
		}
		if comps.Has("port") || comps.Has("query") {
			continue // not in the suite's terms (a port as text, a query as text)
		}
		if p, defined, present := comps.String("path"); present && defined {
			c.Absolute = strings.HasPrefix(p, "/")
			c.Path = strings.Split(strings.TrimPrefix(p, "/"), "/")
		}
		want := r.Str("expected")
		out, be, err := buildWith(c)
		if err != nil {
			return err
		}
		agree := be == nil && out == want
		c.Provenance = Provenance{Kind: "corpus", Source: "testdata/conformance/" + r.File, Line: r.Line, Origin: r.Str("source"), CorpusAgree: &agree}
		if !agree {
			c.Provenance.CorpusSays = want
		}
		c.Note = r.Str("label")
		if be != nil {
			theirs := "text that is no URI reference"
			if u, err := parser.ParseReference(want); err == nil {
				theirs = fmt.Sprintf("the segments %q", u.PathSegments())
			}
			c.Note += fmt.Sprintf(": the source writes %q, %s, not %q; §3.3: without an authority the path cannot begin with \"//\", and any other text for these segments adds a segment (\"/.\" first) or merges two: the builder refuses", want, theirs, c.Path)
			c.Section = "3.3, 5.3"
		}
		suffix := ""
		if !agree {
			suffix = "|" + r.File // a source's deviation, once per lesson
		}
		if err := add(c, false, suffix); err != nil {
			return err
		}
	}
	for i := range b.s.Building {
		b.s.Building[i].ID = fmt.Sprintf("building/%d", i+1)
	}
	return nil
}

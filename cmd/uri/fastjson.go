package main

import (
	"strconv"

	"github.com/peguri/rfc3986/parser"
)

// The JSON records of the batch commands are written by encoding/json,
// whose reflection costs more than parsing. parse -json's valid records
// are written by appendParseURI instead, byte for byte as the encoder
// writes them, when every string is plain: TestAppendParseURI compares the
// two.

// plain reports whether encoding/json (without HTML escaping) writes s as
// is between quotes: printable ASCII but '"' and '\\'.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// appendPlain appends the JSON of a plain string.
func appendPlain(b []byte, s string) []byte {
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendParseURI appends parse -json's record of a valid input, the URI u
// parsed as rule, and a newline, as a json.Encoder with HTML escaping off
// writes its parseJSON, when its strings are plain; it reports whether it
// did.
func appendParseURI(b []byte, in, rule string, u parser.URI) ([]byte, bool) {
	if !plain(in) || !plain(rule) {
		return b, false // the components are substrings of in
	}
	opt := func(b []byte, s string, defined bool) []byte {
		if !defined {
			return append(b, "null"...)
		}
		return appendPlain(b, s)
	}
	b = append(b, `{"input":`...)
	b = appendPlain(b, in)
	b = append(b, `,"valid":true,"rule":`...)
	b = appendPlain(b, rule)
	b = append(b, `,"scheme":`...)
	b = opt(b, u.Scheme(), u.HasScheme())
	b = append(b, `,"userinfo":`...)
	b = opt(b, u.Userinfo(), u.HasUserinfo())
	b = append(b, `,"host":`...)
	b = opt(b, u.Host(), u.HasAuthority())
	b = append(b, `,"hostKind":`...)
	b = opt(b, u.HostKind().String(), u.HasAuthority())
	b = append(b, `,"port":`...)
	b = opt(b, u.Port(), u.HasPort())
	b = append(b, `,"path":`...)
	b = appendPlain(b, u.Path())
	b = append(b, `,"query":`...)
	b = opt(b, u.Query(), u.HasQuery())
	b = append(b, `,"fragment":`...)
	b = opt(b, u.Fragment(), u.HasFragment())
	return append(b, "}\n"...), true
}

// appendTreeJSON appends tree -json's record of the tree n of in, and a
// newline, as a json.Encoder with HTML escaping off writes toJSON(in, n),
// when in and the rule names are plain; it reports whether it did.
func appendTreeJSON(b []byte, in string, n *parser.Node) ([]byte, bool) {
	if !plain(in) {
		return b, false // the texts are substrings of in
	}
	ok := true
	var walk func(n *parser.Node)
	walk = func(n *parser.Node) {
		if !plain(n.Rule) {
			ok = false
			return
		}
		b = append(b, `{"rule":`...)
		b = appendPlain(b, n.Rule)
		b = append(b, `,"start":`...)
		b = strconv.AppendInt(b, int64(n.Start), 10)
		b = append(b, `,"end":`...)
		b = strconv.AppendInt(b, int64(n.End), 10)
		b = append(b, `,"text":`...)
		b = appendPlain(b, in[n.Start:n.End])
		b = append(b, `,"children":[`...)
		for i, k := range n.Kids {
			if i > 0 {
				b = append(b, ',')
			}
			walk(k)
		}
		b = append(b, "]}"...)
	}
	walk(n)
	return append(b, '\n'), ok
}

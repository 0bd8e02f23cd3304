package main

import (
	"io"
	"strconv"
)

// The JSON records of the batch commands are written by encoding/json,
// whose reflection costs more than parsing. parse -json's valid records
// are also written by appendParseJSON, byte for byte as the encoder writes
// them, when every string is plain: TestAppendParseJSON compares the two.

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

// appendOpt appends the JSON of an optional string: null when nil.
func appendOpt(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendPlain(b, *s)
}

// appendParseJSON appends j and a newline as a json.Encoder with HTML
// escaping off writes it, when its strings are plain and it has no
// decoded views or quoted input; it reports whether it did.
func appendParseJSON(b []byte, j *parseJSON) ([]byte, bool) {
	if j.Decoded != nil || j.InputQuoted != nil {
		return b, false
	}
	for _, s := range []*string{&j.Input, &j.Rule, j.Scheme, j.Userinfo, j.Host, j.HostKind, j.Port, &j.Path, j.Query, j.Fragment} {
		if s != nil && !plain(*s) {
			return b, false
		}
	}
	b = append(b, `{"input":`...)
	b = appendPlain(b, j.Input)
	b = append(b, `,"valid":`...)
	b = strconv.AppendBool(b, j.Valid)
	b = append(b, `,"rule":`...)
	b = appendPlain(b, j.Rule)
	b = append(b, `,"scheme":`...)
	b = appendOpt(b, j.Scheme)
	b = append(b, `,"userinfo":`...)
	b = appendOpt(b, j.Userinfo)
	b = append(b, `,"host":`...)
	b = appendOpt(b, j.Host)
	b = append(b, `,"hostKind":`...)
	b = appendOpt(b, j.HostKind)
	b = append(b, `,"port":`...)
	b = appendOpt(b, j.Port)
	b = append(b, `,"path":`...)
	b = appendPlain(b, j.Path)
	b = append(b, `,"query":`...)
	b = appendOpt(b, j.Query)
	b = append(b, `,"fragment":`...)
	b = appendOpt(b, j.Fragment)
	return append(b, "}\n"...), true
}

// recordAppend writes one record as record does, the JSON appended by app
// when it can (see appendParseJSON), by the encoder otherwise.
func (o *output) recordAppend(v any, app func([]byte) ([]byte, bool), human func(w io.Writer)) error {
	if o.json {
		if b, ok := app(o.w.AvailableBuffer()); ok {
			o.n++
			_, err := o.w.Write(b)
			return err
		}
	}
	return o.record(v, human)
}

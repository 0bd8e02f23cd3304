package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/peguri/rfc3986/internal/records"
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/resolve"
)

// TestRecordsDescribe holds describe and quoted to records.Describe and
// records.Quoted, which the beam module's pipeline writes its records
// with: the two must give the same JSON for the same error.
func TestRecordsDescribe(t *testing.T) {
	_, parseErr := parser.ParseReference("http://a b")
	_, decodeErr := parser.Decode("%zz")
	long := "http://a/" + string(make([]byte, parser.MaxLength))
	_, longErr := parser.ParseReference(long)
	tests := []struct {
		name string
		err  error
		arg  string
	}{
		{"parse", parseErr, "input"},
		{"decode", decodeErr, "input"},
		{"too long", longErr, "reference"},
		{"resolve arg error", &resolve.ArgError{Arg: "base", Input: "x y", Err: parseErr}, ""},
		{"result", &resolve.ArgError{Arg: "result", Input: "x", Err: parser.ErrTooLong}, "input"},
		{"another error", parser.ErrTooLong, "input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(describe(tt.err, tt.arg), records.Describe(tt.err, tt.arg)); diff != "" {
				t.Errorf("describe (-cmd/uri +records):\n%s", diff)
			}
		})
	}
	for _, s := range []string{"http://a/", "\xff", "a\x80b", ""} {
		if diff := cmp.Diff(quoted(s), records.Quoted(s)); diff != "" {
			t.Errorf("quoted(%q) (-cmd/uri +records):\n%s", s, diff)
		}
	}
}

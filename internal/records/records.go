// Package records holds the JSON Lines records of cmd/uri's resolve,
// normalize and iri-to-uri (-json), so that the beam module's pipeline
// writes the very same shapes: a consumer of `uri normalize -json` reads
// the pipeline's output unchanged. cmd/uri's types are aliases of these.
package records

import (
	"errors"
	"strconv"
	"unicode/utf8"

	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/resolve"
)

// Result is the -json object of resolve, normalize and iri-to-uri.
type Result struct {
	Input       string  `json:"input"`
	InputQuoted *string `json:"inputQuoted,omitempty"`
	Truncated   bool    `json:"truncated,omitempty"`
	Base        *string `json:"base,omitempty"`
	BaseQuoted  *string `json:"baseQuoted,omitempty"`
	Result      *string `json:"result,omitempty"`
	// ResultQuoted is the result, Go-quoted, when it is not valid UTF-8
	// (decode's result may be any bytes).
	ResultQuoted *string   `json:"resultQuoted,omitempty"`
	Error        *ArgError `json:"error,omitempty"`
	// Trace is resolve -trace's: §5.2.2 step by step.
	Trace *resolve.Trace `json:"trace,omitempty"`
	// Steps is normalize -explain's: each step that changed something
	// (an empty list when none did).
	Steps *[]resolve.NormalStep `json:"steps,omitempty"`
}

// ArgError says which argument failed, or the result, where (when it
// did not parse) and why.
type ArgError struct {
	Argument string `json:"argument"`
	Offset   *int   `json:"offset,omitempty"`
	Message  string `json:"message"`
}

// Describe turns an error of package resolve or parser into its record:
// which argument (resolve's own name for it, unless arg is given;
// "result" is always resolve's), where when it did not parse, and why.
// cmd/uri's describe does the same (its test holds them together).
func Describe(err error, arg string) *ArgError {
	var re *resolve.ArgError
	if errors.As(err, &re) && (arg == "" || re.Arg == "result") {
		arg = re.Arg
	}
	j := &ArgError{Argument: arg, Message: err.Error()}
	var pe *parser.Error
	var de *parser.DecodeError
	switch {
	case errors.As(err, &pe):
		off := pe.Offset
		j.Offset = &off
		j.Message = pe.Reason()
	case errors.As(err, &de):
		off := de.Offset
		j.Offset = &off
	}
	return j
}

// Quoted is the Go double-quoted form of s (strconv.Unquote gives the
// bytes back) when s is not valid UTF-8, for the "…Quoted" fields: a JSON
// string holds U+FFFD in place of invalid bytes, while offsets count the
// bytes. It is nil for valid UTF-8.
func Quoted(s string) *string {
	if utf8.ValidString(s) {
		return nil
	}
	q := strconv.Quote(s)
	return &q
}

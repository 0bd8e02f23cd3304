package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/peguri/rfc3986/parser"
)

// parseJSON is the -json object of a valid input of a URI-level rule;
// undefined components are null.
type parseJSON struct {
	Input       string  `json:"input"`
	InputQuoted *string `json:"inputQuoted,omitempty"`
	Valid       bool    `json:"valid"`
	Rule        string  `json:"rule"`
	Scheme      *string `json:"scheme"`
	Userinfo    *string `json:"userinfo"`
	Host        *string `json:"host"`
	HostKind    *string `json:"hostKind"`
	Port        *string `json:"port"`
	Path        string  `json:"path"`
	Query       *string `json:"query"`
	Fragment    *string `json:"fragment"`
	// Decoded is parse -decode's: the decoded views.
	Decoded *decodedJSON `json:"decoded,omitempty"`
}

// decodedJSON is the decoded views of a URI: each component
// percent-decoded (null when undefined), the path's segments, the query's
// key=value pairs (value null without "="; the list null when the query
// is undefined, empty when it is empty), the port as a number (null
// when undefined, empty or above 65535), the host as an IP address (null
// when it is none). A decoded value that is not valid UTF-8 comes with
// its Go-quoted form as well (…Quoted).
type decodedJSON struct {
	Userinfo       *string  `json:"userinfo"`
	UserinfoQuoted *string  `json:"userinfoQuoted,omitempty"`
	Host           *string  `json:"host"`
	HostQuoted     *string  `json:"hostQuoted,omitempty"`
	Segments       []string `json:"segments"`
	// SegmentsQuoted is every segment Go-quoted, when one is not UTF-8.
	SegmentsQuoted []string   `json:"segmentsQuoted,omitempty"`
	Query          []pairJSON `json:"query"`
	Fragment       *string    `json:"fragment"`
	FragmentQuoted *string    `json:"fragmentQuoted,omitempty"`
	Port           *uint16    `json:"port"`
	Addr           *string    `json:"addr"`
}

type pairJSON struct {
	Key         string  `json:"key"`
	KeyQuoted   *string `json:"keyQuoted,omitempty"`
	Value       *string `json:"value"`
	ValueQuoted *string `json:"valueQuoted,omitempty"`
}

func decodedViews(u parser.URI) *decodedJSON {
	d := &decodedJSON{Segments: u.PathSegments()}
	if u.HasQuery() {
		// Defined: a list, empty for the empty query ("http://a?");
		// undefined, null.
		d.Query = []pairJSON{}
	}
	if d.Segments == nil {
		d.Segments = []string{}
	}
	for _, seg := range d.Segments {
		if !utf8.ValidString(seg) {
			d.SegmentsQuoted = make([]string, len(d.Segments))
			for i, seg := range d.Segments {
				d.SegmentsQuoted[i] = strconv.Quote(seg)
			}
			break
		}
	}
	if u.HasUserinfo() {
		v := u.DecodedUserinfo()
		d.Userinfo, d.UserinfoQuoted = &v, quoted(v)
	}
	if u.HasAuthority() {
		v := u.DecodedHost()
		d.Host, d.HostQuoted = &v, quoted(v)
	}
	if u.HasFragment() {
		v := u.DecodedFragment()
		d.Fragment, d.FragmentQuoted = &v, quoted(v)
	}
	for _, p := range u.QueryPairs() {
		pj := pairJSON{Key: p.Key, KeyQuoted: quoted(p.Key), Value: opt(p.Value, p.HasValue)}
		if p.HasValue {
			pj.ValueQuoted = quoted(p.Value)
		}
		d.Query = append(d.Query, pj)
	}
	if n, err := u.PortNumber(); err == nil {
		d.Port = &n
	}
	if a, ok := u.Addr(); ok {
		s := a.String()
		d.Addr = &s
	}
	return d
}

// ruleJSON is the -json object of a valid input of any other rule.
type ruleJSON struct {
	Input       string  `json:"input"`
	InputQuoted *string `json:"inputQuoted,omitempty"`
	Valid       bool    `json:"valid"`
	Rule        string  `json:"rule"`
}

// invalidJSON is the -json object of an input that is invalid, or valid
// but too long for a tree (Valid is then true, and Error says so).
type invalidJSON struct {
	Input       string    `json:"input"`
	InputQuoted *string   `json:"inputQuoted,omitempty"`
	Truncated   bool      `json:"truncated,omitempty"`
	Valid       bool      `json:"valid"`
	Rule        string    `json:"rule"`
	Error       errorJSON `json:"error"`
}

type errorJSON struct {
	Offset  int    `json:"offset"`
	Message string `json:"message"`
}

func opt(s string, defined bool) *string {
	if !defined {
		return nil
	}
	return &s
}

func cmdParse(args []string, stdin io.Reader, out *output, stderr io.Writer) error {
	fs := newFlags("parse", stderr)
	rule := fs.String("rule", "", "parse as this `rule`, any rule of the grammar (default: URI-reference; IRI-reference for rfc3987)")
	grammar := fs.String("grammar", "rfc3986", "built-in `grammar`: "+grammarNames())
	decode := fs.Bool("decode", false, "add the decoded views: components percent-decoded, path segments, query pairs, port number, IP address")
	fs.BoolVar(&out.json, "json", false, "print JSON Lines")
	jobsFlag(fs, out)
	inputs, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	g, name, err := lookup(*grammar, *rule)
	if err != nil {
		return err
	}
	return eachInput(inputs, stdin, out, func(out *output, in input) (bool, error) {
		if in.tooLong() {
			return false, writeInvalid(out, in, name, in.lengthError(name))
		}
		syn := g
		var u parser.URI
		var err error
		if syn.IsURIRule(name) {
			u, err = syn.Parse(name, in.s)
		} else {
			err = syn.Validate(name, in.s)
		}
		if err != nil {
			return false, writeInvalid(out, in, name, err)
		}
		if !g.IsURIRule(name) {
			return true, out.record(ruleJSON{Input: in.s, InputQuoted: quoted(in.s), Valid: true, Rule: name}, func(w io.Writer) {
				field(w, "input", show(in.s))
				field(w, "valid", "true")
				field(w, "rule", name)
			})
		}
		if out.json && !*decode {
			if b, ok := appendParseURI(out.w.AvailableBuffer(), in.s, name, u); ok {
				out.n++
				_, err := out.w.Write(b)
				return true, err
			}
		}
		j := parseJSON{
			Input: in.s, InputQuoted: quoted(in.s), Valid: true, Rule: name,
			Scheme:   opt(u.Scheme(), u.HasScheme()),
			Userinfo: opt(u.Userinfo(), u.HasUserinfo()),
			Host:     opt(u.Host(), u.HasAuthority()),
			HostKind: opt(u.HostKind().String(), u.HasAuthority()),
			Port:     opt(u.Port(), u.HasPort()),
			Path:     u.Path(),
			Query:    opt(u.Query(), u.HasQuery()),
			Fragment: opt(u.Fragment(), u.HasFragment()),
		}
		if *decode {
			j.Decoded = decodedViews(u)
		}
		return true, out.record(j, func(w io.Writer) {
			field(w, "input", show(in.s))
			field(w, "valid", "true")
			field(w, "rule", name)
			for _, f := range []struct {
				name string
				v    *string
			}{{"scheme", j.Scheme}, {"userinfo", j.Userinfo}, {"host", j.Host}, {"hostKind", j.HostKind}, {"port", j.Port}, {"path", &j.Path}, {"query", j.Query}, {"fragment", j.Fragment}} {
				if f.v == nil {
					field(w, f.name, "(undefined)")
				} else {
					field(w, f.name, show(*f.v))
				}
			}
			if d := j.Decoded; d != nil {
				writeDecoded(w, d)
			}
		})
	})
}

// writeInvalid reports an input the parser refused, or a valid one too
// long for a tree, on its own record.
func writeInvalid(out *output, in input, rule string, err error) error {
	var pe *parser.Error
	if !errors.As(err, &pe) {
		return fmt.Errorf("%.80q: %w", in.s, err) // not expected: every parse error is one
	}
	valid := errors.Is(err, parser.ErrTooLongForTree)
	return out.record(invalidJSON{Input: in.s, InputQuoted: quoted(in.s), Truncated: in.tooLong(), Valid: valid, Rule: rule,
		Error: errorJSON{Offset: pe.Offset, Message: pe.Reason()}}, func(w io.Writer) {
		field(w, "input", showInput(in))
		field(w, "valid", fmt.Sprint(valid))
		field(w, "rule", rule)
		field(w, "error", pe.Reason())
		if !valid && !in.tooLong() {
			fmt.Fprintf(w, "          %s\n", indentCaret(caretOnly(pe)))
		}
	})
}

// caretOnly is the input and the caret line of pe.Caret, without the
// message repeated.
func caretOnly(pe *parser.Error) string {
	c := pe.Caret()
	for i, n := 0, 0; i < len(c); i++ {
		if c[i] == '\n' {
			n++
			if n == 2 {
				return c[:i]
			}
		}
	}
	return c
}

// writeDecoded writes the decoded views for people.
func writeDecoded(w io.Writer, d *decodedJSON) {
	str := func(s *string) string {
		if s == nil {
			return "(undefined)"
		}
		return show(*s)
	}
	fmt.Fprintln(w, "decoded:")
	sub := func(w io.Writer, name, value string) { fmt.Fprintf(w, "  %-10s %s\n", name+":", value) }
	sub(w, "userinfo", str(d.Userinfo))
	sub(w, "host", str(d.Host))
	segs := make([]string, len(d.Segments))
	for i, s := range d.Segments {
		segs[i] = strconv.Quote(s)
	}
	sub(w, "segments", "["+strings.Join(segs, " ")+"]")
	var pairs []string
	for _, p := range d.Query {
		if p.Value == nil {
			pairs = append(pairs, strconv.Quote(p.Key))
		} else {
			pairs = append(pairs, strconv.Quote(p.Key)+"="+strconv.Quote(*p.Value))
		}
	}
	if d.Query == nil {
		sub(w, "query", "(undefined)")
	} else {
		sub(w, "query", "["+strings.Join(pairs, " ")+"]")
	}
	sub(w, "fragment", str(d.Fragment))
	if d.Port != nil {
		sub(w, "port", strconv.Itoa(int(*d.Port)))
	}
	if d.Addr != nil {
		sub(w, "addr", *d.Addr)
	}
}

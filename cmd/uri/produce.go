package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc3987"
)

// Producing URIs: encode, decode, build, and RFC 3987 §3.2's uri-to-iri.

func cmdEncode(args []string, stdin io.Reader, out *output, stderr io.Writer) error {
	fs := newFlags("encode", stderr)
	comp := fs.String("component", "segment", "the `component` to encode for: userinfo, host, segment, first-segment, query, fragment, query-part")
	escape := fs.Bool("escape", false, "keep the percent-encodings the input has (text already partly encoded); without it, a \"%\" is data and is encoded")
	grammar := fs.String("grammar", "rfc3986", "built-in `grammar` whose charsets encode: "+grammarNames())
	fs.BoolVar(&out.json, "json", false, "print JSON Lines")
	jobsFlag(fs, out)
	inputs, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	c, err := parser.ParseComponent(*comp)
	if err != nil {
		return usageError{msg: err.Error()}
	}
	g, _, err := lookup(*grammar, "")
	if err != nil {
		return err
	}
	return eachInput(inputs, stdin, out, func(out *output, in input) (bool, error) {
		var r string
		var err error
		if *escape {
			r, err = g.Escape(c, in.s)
		} else {
			r, err = g.Encode(c, in.s)
		}
		if err != nil {
			return false, err // a grammar without the charset: not a matter of input
		}
		return true, writeResult(out, in, nil, r, nil, "input")
	})
}

func cmdDecode(args []string, stdin io.Reader, out *output, stderr io.Writer) error {
	fs := newFlags("decode", stderr)
	form := fs.Bool("form", false, `read "+" as a space (HTML forms, application/x-www-form-urlencoded)`)
	fs.BoolVar(&out.json, "json", false, "print JSON Lines")
	jobsFlag(fs, out)
	inputs, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	return eachInput(inputs, stdin, out, func(out *output, in input) (bool, error) {
		decode := parser.Decode
		if *form {
			decode = parser.FormDecode
		}
		r, err := decode(in.s)
		return err == nil, writeResult(out, in, nil, r, err, "input")
	})
}

func cmdURIToIRI(args []string, stdin io.Reader, out *output, stderr io.Writer) error {
	fs := newFlags("uri-to-iri", stderr)
	fs.BoolVar(&out.json, "json", false, "print JSON Lines")
	jobsFlag(fs, out)
	inputs, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	return eachInput(inputs, stdin, out, func(out *output, in input) (bool, error) {
		if in.tooLong() {
			return false, writeResult(out, in, nil, "", in.lengthError("URI-reference"), "input")
		}
		u, err := rfc3987.FromURI(in.s)
		return err == nil, writeResult(out, in, nil, u.String(), err, "input")
	})
}

// stringsFlag is a flag that may be given more than once.
type stringsFlag []string

func (f *stringsFlag) String() string     { return strings.Join(*f, ",") }
func (f *stringsFlag) Set(s string) error { *f = append(*f, s); return nil }

// buildJSON is build -json's record.
type buildJSON struct {
	Result *string      `json:"result,omitempty"`
	Error  *buildErrorJ `json:"error,omitempty"`
}

type buildErrorJ struct {
	Component string `json:"component"`
	Message   string `json:"message"`
}

func cmdBuild(args []string, stdin io.Reader, out *output, stderr io.Writer) error {
	fs := newFlags("build", stderr)
	grammar := fs.String("grammar", "rfc3986", "built-in `grammar`: "+grammarNames())
	scheme := fs.String("scheme", "", "the `scheme` (not encoded: it must be one)")
	userinfo := fs.String("userinfo", "", "the `userinfo`, raw (\":\" kept, the rest encoded)")
	host := fs.String("host", "", "the `host`: an IP address (IPv6 gets brackets), or a name, encoded")
	port := fs.String("port", "", "the `port`, a number from 0 to 65535")
	var paths, queries stringsFlag
	fs.Var(&paths, "path", "a path `segment`, raw (\"/\" encoded); repeat for each segment")
	absolute := fs.Bool("absolute", false, "make the path absolute (\"/\" first) without a host (with a host it always is)")
	fs.Var(&queries, "query", "a query pair `key=value`, raw, split at the first \"=\" (\"&\", \"=\", \"+\" encoded), or a key alone; repeat for each pair")
	rawQuery := fs.String("raw-query", "", "the query `text`, its percent-encodings kept (instead of -query)")
	fragment := fs.String("fragment", "", "the `fragment`, raw")
	fs.BoolVar(&out.json, "json", false, "print a JSON object")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageError{msg: "build takes no arguments: each component is a flag"}
	}
	g, _, err := lookup(*grammar, "")
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["raw-query"] && len(queries) > 0 {
		return usageError{msg: "-query and -raw-query: give one or the other"}
	}
	b := g.Builder()
	if set["scheme"] {
		b = b.Scheme(*scheme)
	}
	if set["userinfo"] {
		b = b.Userinfo(*userinfo)
	}
	if set["host"] {
		b = b.Host(*host)
	}
	var portErr error // a port the builder cannot take: an error of the port
	if set["port"] {
		n, err := strconv.ParseUint(*port, 10, 16)
		if err != nil {
			// Unless a component before it failed, as the builder
			// reports the first.
			if _, berr := b.Build(); berr == nil {
				portErr = &parser.BuildError{Component: "port", Input: *port, Err: errors.New("not a number from 0 to 65535")}
			}
		} else {
			b = b.Port(uint16(n))
		}
	}
	switch {
	case len(paths) > 0 && (set["host"] || *absolute):
		b = b.Path(paths...)
	case len(paths) > 0:
		b = b.RelativePath(paths...)
	case *absolute:
		b = b.Path()
	}
	for _, q := range queries {
		if k, v, ok := strings.Cut(q, "="); ok {
			b = b.Query(k, v)
		} else {
			b = b.QueryKey(q)
		}
	}
	if set["raw-query"] {
		b = b.RawQuery(*rawQuery)
	}
	if set["fragment"] {
		b = b.Fragment(*fragment)
	}
	u, err := b.Build()
	if portErr != nil {
		err = portErr
	}
	if err != nil {
		var be *parser.BuildError
		if !errors.As(err, &be) {
			return err
		}
		if werr := out.record(buildJSON{Error: &buildErrorJ{Component: be.Component, Message: err.Error()}}, func(w io.Writer) {
			field(w, "error", err.Error())
		}); werr != nil {
			return werr
		}
		return errInvalid
	}
	s := u.String()
	return out.record(buildJSON{Result: &s}, func(w io.Writer) {
		fmt.Fprintln(w, s)
	})
}

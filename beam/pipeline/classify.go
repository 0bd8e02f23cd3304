package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/peguri/rfc3986/internal/records"
	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/resolve"
)

// longPrefix is how much of an input longer than the parser takes is kept
// in its record, as in cmd/uri, so that the records are the CLI's.
const longPrefix = 100

// input is one URI, or the reference of a pair, as cmd/uri's batch mode
// sees one line: the text (its first longPrefix bytes when it is longer
// than the parser takes) and its length.
type input struct {
	s    string
	size int
}

func newInput(s string) input {
	in := input{s: s, size: len(s)}
	if in.tooLong() {
		in.s = s[:longPrefix]
	}
	return in
}

func (in input) tooLong() bool { return in.size > parser.MaxLength }

// lengthError is the parser's error for an input longer than it takes,
// for the prefix that in holds (cmd/uri reports it so).
func (in input) lengthError(rule string) *parser.Error {
	return &parser.Error{Input: in.s, Offset: parser.MaxLength, Rule: rule, Err: parser.ErrTooLong,
		Msg: fmt.Sprintf("input is %d bytes, longer than the %d the parser takes", in.size, parser.MaxLength)}
}

func (in input) parse() (parser.URI, error) {
	if in.tooLong() {
		return parser.URI{}, in.lengthError("URI-reference")
	}
	return parser.ParseReference(in.s)
}

// Options are what the pipeline does to each line: the flags of
// uri normalize (-scheme, -ipv6) and uri resolve (-non-strict), the
// comparison level that deduplicates, and the output format.
type Options struct {
	Scheme    bool   `json:"scheme"`
	IPv6      bool   `json:"ipv6"`
	NonStrict bool   `json:"nonStrict"`
	Level     string `json:"level"` // simple, syntax, scheme; "" is the steps' level
	Text      bool   `json:"text"`  // text lines instead of JSON Lines
}

// Levels are the -level values, RFC 3986 §6.2's comparison ladder.
var Levels = map[string]resolve.Level{"simple": resolve.CompareSimple, "syntax": resolve.CompareSyntax, "scheme": resolve.CompareScheme}

// Check reports a bad level.
func (o Options) Check() error {
	if _, ok := Levels[o.Level]; !ok && o.Level != "" {
		return fmt.Errorf("-level must be simple, syntax or scheme, not %q", o.Level)
	}
	return nil
}

// normalizer is uri normalize's, with the same flags.
func (o Options) normalizer() resolve.Normalizer {
	n := resolve.Normalizer{Steps: resolve.NormalizeSyntax, Schemes: resolve.DefaultSchemes()}
	if o.Scheme {
		n.Steps |= resolve.NormalizeSchemeBased
	}
	if o.IPv6 {
		n.Steps |= resolve.NormalizeIPv6Canonical
	}
	return n
}

// keyer is the normalizer whose normal form is the deduplication key:
// resolve.Equal's at the level. nil for simple (the text is the key), and
// for the level of the steps themselves (the result is the key).
func (o Options) keyer() *resolve.Normalizer {
	level := o.Level
	if level == "" {
		return nil
	}
	var k resolve.Normalizer
	switch Levels[level] {
	case resolve.CompareSimple:
		return &k
	case resolve.CompareSyntax:
		k = resolve.Normalizer{Steps: resolve.NormalizeSyntax, Schemes: resolve.DefaultSchemes()}
	case resolve.CompareScheme:
		k = resolve.Normalizer{Steps: resolve.NormalizeDefault, Schemes: resolve.DefaultSchemes()}
	}
	if k.Steps == o.normalizer().Steps {
		return nil
	}
	return &k
}

// line is what one input line became.
type line struct {
	kind   kind
	key    string // uri: the deduplication key
	record string // resolved, invalid: the record
}

type kind int

const (
	uriLine kind = iota
	resolvedLine
	invalidLine
)

// classifier turns lines into records; one per DoFn instance, so that its
// buffer is reused.
type classifier struct {
	opts  Options
	norm  resolve.Normalizer
	key   *resolve.Normalizer
	mode  resolve.Mode
	buf   bytes.Buffer
	fast  []byte // result's records written by hand
	enc   *json.Encoder
	bases map[string]baseParse // the last bases parsed: pages have many links
}

type baseParse struct {
	u   parser.URI
	err error
}

func newClassifier(o Options) *classifier {
	c := &classifier{opts: o, norm: o.normalizer(), key: o.keyer(), mode: resolve.Strict, bases: map[string]baseParse{}}
	if o.NonStrict {
		c.mode = resolve.NonStrict
	}
	c.enc = json.NewEncoder(&c.buf)
	// cmd/uri's encoder: "<", ">" and "&" as they are.
	c.enc.SetEscapeHTML(false)
	return c
}

// classify is one line: a URI to normalize (its key), a pair resolved or
// an invalid line (their records). The records are uri normalize -json's
// and uri resolve -json's for the same input.
func (c *classifier) classify(l string) (line, error) {
	if tab := strings.IndexByte(l, '\t'); tab >= 0 {
		return c.resolve(l[:tab], newInput(l[tab+1:]))
	}
	in := newInput(l)
	u, err := in.parse()
	if err != nil {
		return c.failed(in, nil, err, "input")
	}
	v, err := c.norm.Normalize(u)
	if err != nil {
		return c.failed(in, nil, err, "input")
	}
	key := v.String()
	if c.key != nil {
		k, err := c.key.Normalize(u)
		if err != nil {
			// A normal form too long to be a URI is equal only to
			// itself (resolve.Equal): its text, set apart from the
			// normal forms by a byte no URI holds.
			key = "\x00" + l
		} else {
			key = k.String()
		}
	}
	return line{kind: uriLine, key: key}, nil
}

func (c *classifier) resolve(base string, in input) (line, error) {
	bp, ok := c.bases[base]
	if !ok {
		if len(c.bases) >= 64 {
			clear(c.bases)
		}
		bp.u, bp.err = parser.ParseReference(base)
		if bp.err != nil {
			bp.err = &resolve.ArgError{Arg: "base", Input: base, Err: bp.err}
		}
		c.bases[base] = bp
	}
	if bp.err != nil {
		return c.failed(in, &base, bp.err, "")
	}
	r, err := in.parse()
	if err != nil {
		return c.failed(in, &base, err, "reference")
	}
	t, err := resolve.Resolve(bp.u, r, c.mode)
	if err != nil {
		return c.failed(in, &base, err, "")
	}
	s, err := c.result(in, &base, t.String())
	return line{kind: resolvedLine, record: s}, err
}

// failed is the record of an input that failed, as cmd/uri writes it.
func (c *classifier) failed(in input, base *string, err error, arg string) (line, error) {
	e := records.Describe(err, arg)
	if c.opts.Text {
		// offset, argument, message, the line: the line last, because
		// only it may hold a tab.
		off := ""
		if e.Offset != nil {
			off = strconv.Itoa(*e.Offset)
		}
		l := in.s
		if base != nil {
			l = *base + "\t" + l
		}
		return line{kind: invalidLine, record: off + "\t" + e.Argument + "\t" + e.Message + "\t" + l}, nil
	}
	j := records.Result{Input: in.s, InputQuoted: records.Quoted(in.s), Truncated: in.tooLong(), Base: base, Error: e}
	if base != nil {
		j.BaseQuoted = records.Quoted(*base)
	}
	s, err := c.encode(j)
	return line{kind: invalidLine, record: s}, err
}

// result is the record of a valid input and its result.
func (c *classifier) result(in input, base *string, result string) (string, error) {
	if c.opts.Text {
		if base != nil {
			return *base + "\t" + in.s + "\t" + result, nil
		}
		return result, nil
	}
	if plain(in.s) && plain(result) && (base == nil || plain(*base)) {
		// What the encoder writes, without its reflection.
		b := append(c.fast[:0], `{"input":"`...)
		b = append(b, in.s...)
		if base != nil {
			b = append(b, `","base":"`...)
			b = append(b, *base...)
		}
		b = append(b, `","result":"`...)
		b = append(b, result...)
		b = append(b, `"}`...)
		c.fast = b
		return string(b), nil
	}
	j := records.Result{Input: in.s, InputQuoted: records.Quoted(in.s), Base: base, Result: &result, ResultQuoted: records.Quoted(result)}
	if base != nil {
		j.BaseQuoted = records.Quoted(*base)
	}
	return c.encode(j)
}

// normalized is the record of the URI that stands for its key.
func (c *classifier) normalized(l string) (record string, u parser.URI, err error) {
	in := newInput(l)
	p, err := in.parse()
	if err != nil {
		return "", u, err // not expected: classify let it through
	}
	u, err = c.norm.Normalize(p)
	if err != nil {
		return "", u, err
	}
	s, err := c.result(in, nil, u.String())
	return s, u, err
}

func (c *classifier) encode(v any) (string, error) {
	c.buf.Reset()
	if err := c.enc.Encode(v); err != nil {
		return "", err
	}
	return string(bytes.TrimSuffix(c.buf.Bytes(), []byte("\n"))), nil
}

// plain reports whether encoding/json (HTML escaping off) writes s as it
// is between quotes: printable ASCII but '"' and '\\'.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

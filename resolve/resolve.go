package resolve

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"github.com/peguri/rfc3986/internal/urilayout"
	"github.com/peguri/rfc3986/parser"
)

// fieldsOf returns u's fields (see urilayout.Fields): package parser's
// offsets, which this package reads, and fills for targets it has proven
// (see build), without a copy of u or a call.
func fieldsOf(u *parser.URI) *urilayout.Fields { return (*urilayout.Fields)(unsafe.Pointer(u)) }

// ErrNoScheme is the error, wrapped in an [*ArgError], for a base URI
// without a scheme (RFC 3986 §5.1), or a target of [Relativize] without
// one.
var ErrNoScheme = errors.New("no scheme")

// ErrGrammars is the error, wrapped in an [*ArgError] for the reference,
// of resolving a URI of one grammar against a base of another, when
// neither grammar holds the other: an IRI (RFC 3987) against a URI with an
// IPv6 zone identifier (RFC 6874), say. A URI of RFC 3986 goes with
// either: both grammars hold RFC 3986's.
var ErrGrammars = errors.New("the reference and the base come from different grammars")

// grammarOf returns the parser of the target of resolving ref against
// base: the wider of their grammars, RFC 3986's being held by every other.
func grammarOf(base, ref *parser.URI) (*parser.Parser, error) {
	b, r := parserOf(base), parserOf(ref)
	switch rfc := parser.RFC3986(); {
	case b == r, r == rfc:
		return b, nil
	case b == rfc:
		return r, nil
	}
	return nil, ErrGrammars
}

// parserOf is u.Parser() without the copy of u that the method, called
// through a pointer, makes.
func parserOf(u *parser.URI) *parser.Parser {
	if p := fieldsOf(u).P; p != nil {
		return (*parser.Parser)(p)
	}
	return parser.RFC3986()
}

// ArgError is the error of this package's functions: the argument at fault,
// or the result, its text, and why. errors.As finds it, and, through it,
// the [*parser.Error] of text that did not parse.
type ArgError struct {
	// Arg names the argument at fault: "base" or "reference" for
	// resolution, "target" for [Relativize], "reference" for
	// [Normalize] and [NormalizeString], "a" or "b" for [EqualString];
	// or "result" when the arguments are fine but the result cannot be
	// written as a URI (it would be longer than [parser.MaxLength]).
	Arg string
	// Input is the argument's text; for "result", the text of the
	// argument it was computed from (the reference, or the URI
	// normalized).
	Input string
	// Err is the reason: [ErrNoScheme]; [ErrGrammars]; a [*parser.Error]
	// for text that does not parse; for "result", an error wrapping
	// [parser.ErrTooLong].
	Err error
}

// Error formats the error on one line:
//
//	resolve: base "//a/b" has no scheme: RFC 3986 §5.1 requires an absolute base URI
//	resolve: reference: parse "a b" as URI-reference: segment-nz-nc could not continue at offset 1: …
//	resolve: result: the target is 16777217 bytes, longer than the 16777216 a URI can have
func (e *ArgError) Error() string {
	if errors.Is(e.Err, ErrNoScheme) {
		why := "RFC 3986 §5.1 requires an absolute base URI"
		if e.Arg == "target" {
			why = "every target of RFC 3986 §5.2.2 has one"
		}
		return fmt.Sprintf("resolve: %s %q has no scheme: %s", e.Arg, clip(e.Input), why)
	}
	if pe, ok := e.Err.(*parser.Error); ok && pe.Input == e.Input {
		// The parse error already quotes the input.
		return "resolve: " + e.Arg + ": " + pe.Error()
	}
	if e.Arg == "result" {
		return fmt.Sprintf("resolve: result: %v", e.Err)
	}
	return fmt.Sprintf("resolve: %s %q: %v", e.Arg, clip(e.Input), e.Err)
}

// Unwrap returns e.Err.
func (e *ArgError) Unwrap() error { return e.Err }

func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// resultTooLong is the error for a result of n bytes, longer than a URI
// the parser takes; what names it ("the target", "the normal form").
func resultTooLong(what, input string, n int) *ArgError {
	return &ArgError{Arg: "result", Input: input, Err: &lengthError{what, n}}
}

// lengthError says how long a result would be; it wraps
// parser.ErrTooLong.
type lengthError struct {
	what string
	n    int
}

func (e *lengthError) Error() string {
	return fmt.Sprintf("%s is %d bytes, longer than the %d a URI can have", e.what, e.n, parser.MaxLength)
}

func (e *lengthError) Unwrap() error { return parser.ErrTooLong }

// Mode is how resolution reads a reference that has the base's scheme
// (§5.2.2). The zero Mode is Strict.
type Mode uint8

const (
	// Strict: a reference with a scheme is its own target, whatever the
	// base's scheme (§5.2.2: "a strict parser").
	Strict Mode = iota
	// NonStrict: a reference whose scheme is the base's, compared
	// case-insensitively (§3.1: "schemes are case-insensitive"), is read
	// as if it had none, so that "http:g" against "http://a/b/c/d;p?q" is
	// "http://a/b/c/g" (§5.4.2, "for backward compatibility"). §5.4.2
	// also says: "Its use should be avoided".
	NonStrict
)

// String returns "Strict", "NonStrict", or "Mode(N)" for another value.
func (m Mode) String() string {
	switch m {
	case Strict:
		return "Strict"
	case NonStrict:
		return "NonStrict"
	}
	return "Mode(" + strconv.Itoa(int(m)) + ")"
}

// Resolve resolves ref against base (RFC 3986 §5.2), in the given mode
// (Strict is the RFC's own; an unknown mode is Strict). base must have a
// scheme (§5.1); its fragment, if any, is ignored. The result always has a
// scheme and parses back into the components §5.2.2 computes; see the
// package documentation for the one case where that needs a "/." the RFC's
// text does not write. The error, an [*ArgError], says which argument (or
// the result) is at fault.
func Resolve(base, ref parser.URI, mode Mode) (u parser.URI, err error) {
	err = resolve(&u, &base, &ref, mode, false)
	return u, err
}

// ResolveTo is [Resolve], with the target written to *dst (left alone on
// failure) and the URIs passed by pointer, for loops over many references:
// Resolve copies the two URIs it takes and the one it returns (64 bytes
// each on 64-bit platforms). base and ref may be dst.
func ResolveTo(dst, base, ref *parser.URI, mode Mode) error {
	return resolve(dst, base, ref, mode, false)
}

// resolve is Resolve, into *u (left alone on failure); with check, it
// checks the target with the parser in every grammar, RFC 3986's too (see
// build). The URIs go by pointer: their copies, passed and returned by
// value, cost more than a tenth of a resolution (docs/benchmarks.md).
func resolve(u, base, ref *parser.URI, mode Mode, check bool) error {
	// The pseudocode of §5.2.2, on the components of base and ref, read
	// from their layouts (see view).
	var b, r view
	b.load(base)
	r.load(ref)
	if !b.has(urilayout.Scheme) {
		return &ArgError{Arg: "base", Input: base.String(), Err: ErrNoScheme}
	}
	g, gerr := grammarOf(base, ref)
	if gerr != nil {
		return &ArgError{Arg: "reference", Input: ref.String(),
			Err: fmt.Errorf("%w: %s and %s", gerr, ref.Parser().Name(), base.Parser().Name())}
	}
	var t target
	// -- A non-strict parser may ignore a scheme in the reference
	// -- if it is identical to the base URI's scheme.
	refHasScheme := r.has(urilayout.Scheme)
	if mode == NonStrict && refHasScheme && strings.EqualFold(r.scheme(), b.scheme()) {
		refHasScheme = false
	}
	// The pieces of text (see target): T.scheme and T.authority are the
	// head, T.path the path, T.query and T.fragment the tail.
	switch {
	case refHasScheme:
		if !check && g == parserOf(ref) && !hasDotSegment(r.path()) {
			// T is R, component for component: R's text is its
			// recomposition (§5.3), and R's layout is T's. No
			// allocation (an absolute link).
			*fieldsOf(u) = *fieldsOf(ref)
			return nil
		}
		t.headOf("", &r, 0, r.l.SchemeEnd())
		t.path, t.dots = r.path(), true
		t.tailOf(&r)
	case r.has(urilayout.Authority):
		// Base's scheme, then ref's text from its "//" (after its
		// scheme, which a non-strict parser ignored).
		from := uint32(0)
		if r.has(urilayout.Scheme) {
			from = r.l.SchemeEnd() + 1
		}
		t.headOf(b.text[:b.l.SchemeEnd()+1], &r, from, b.l.SchemeEnd())
		t.path, t.dots = r.path(), true
		t.tailOf(&r)
	default:
		if !check && g == parser.RFC3986() && r.l.Flags()&(urilayout.Authority|urilayout.Query|urilayout.Fragment) == 0 && r.l.PathEnd() == r.l.PathStart() {
			// The empty reference (§4.4, "same-document"): T is the
			// base without its fragment (§5.1), its text the base's
			// up to the fragment. No allocation. (In RFC 3986; a
			// grammar of one's own may tie the fragment to the rest,
			// and build checks the text with it.)
			f := fieldsOf(u)
			*f = *fieldsOf(base)
			f.Text, f.Flags = b.text[:b.l.QueryEnd()], b.l.Flags()&^urilayout.Fragment
			return nil
		}
		t.headOf("", &b, 0, b.l.SchemeEnd())
		switch p := r.path(); {
		case p == "":
			t.path = b.path()
			if r.has(urilayout.Query) {
				t.tailOf(&r)
			} else {
				// Base's query, then ref's fragment.
				t.tail1, t.tail2 = b.text[b.l.PathEnd():b.l.QueryEnd()], r.text[r.l.QueryEnd():]
				t.queryLen, t.hasQuery = len(t.tail1), b.has(urilayout.Query)
				t.hasFrag = r.has(urilayout.Fragment)
			}
		case p[0] == '/':
			t.path, t.dots = p, true
			t.tailOf(&r)
		default:
			// remove_dot_segments(merge(Base.path, R.path)), §5.2.3.
			t.dir, t.path, t.dots = mergeDir(b.has(urilayout.Authority), b.path()), p, true
			t.tailOf(&r)
		}
	}
	if err := t.build(u, g, check); err != nil {
		err.Input = ref.String()
		return err
	}
	return nil
}

// ResolveString parses base and ref as URI-references (§4.1), resolves
// ref against base as [Resolve] does, and returns the target's text. Text
// that does not parse is an [*ArgError] naming the argument ("base" or
// "reference") and wrapping the [*parser.Error] that says where and why; so
// is a base without a scheme.
func ResolveString(base, ref string, mode Mode) (string, error) {
	b, err := parser.ParseReference(base)
	if err != nil {
		return "", &ArgError{Arg: "base", Input: base, Err: err}
	}
	r, err := parser.ParseReference(ref)
	if err != nil {
		return "", &ArgError{Arg: "reference", Input: ref, Err: err}
	}
	t, err := Resolve(b, r, mode)
	if err != nil {
		return "", err
	}
	return t.String(), nil
}

// target is the result of §5.2.2 before it is written, as pieces of the
// base's and the reference's texts, which hold their components'
// delimiters: the target's text (§5.3) is head1, head2, the path, tail1
// and tail2, one after the other. Its path is remove_dot_segments(dir +
// path) when dots is set, dir + path otherwise.
type target struct {
	// head1 + head2 is the scheme and ":", then "//" and the authority
	// when the target has one: a URI's text up to its path, or the base's
	// scheme and ":" and the reference's text from its "//".
	head1, head2 string
	schemeEnd    int // the scheme's length
	hasAuth      bool
	hostKind     parser.HostKind
	// The authority's parts, as the URI it comes from has them: where the
	// host is in the head, and whether the userinfo and the port are
	// defined.
	hostStart, hostEnd   int
	hasUserinfo, hasPort bool
	dir, path            string
	dots                 bool
	// tail1 + tail2 is "?" and the query when the target has one, then
	// "#" and the fragment when it has one: the reference's text after its
	// path, or the base's query and the reference's fragment.
	tail1, tail2      string
	queryLen          int // of "?" and the query; 0 when it is undefined
	hasQuery, hasFrag bool
}

// headOf sets t's head to prefix followed by v's text from byte from up to
// its path, and t's authority to v's; the scheme is the first schemeEnd
// bytes of the head.
func (t *target) headOf(prefix string, v *view, from, schemeEnd uint32) {
	t.head1, t.head2, t.schemeEnd = prefix, v.text[from:v.l.PathStart()], int(schemeEnd)
	t.hasAuth = v.has(urilayout.Authority)
	if !t.hasAuth {
		return
	}
	d := len(prefix) - int(from) // where v's text is in the head
	t.hostStart, t.hostEnd = int(v.l.HostStart())+d, int(v.l.HostEnd())+d
	t.hostKind = parser.HostKind(v.l.HostKind())
	t.hasUserinfo, t.hasPort = v.has(urilayout.Userinfo), v.has(urilayout.Port)
}

// tailOf sets t's query and fragment to v's: its text after its path.
func (t *target) tailOf(v *view) {
	t.tail1 = v.text[v.l.PathEnd():]
	t.queryLen = int(v.l.QueryEnd() - v.l.PathEnd())
	t.hasQuery, t.hasFrag = v.has(urilayout.Query), v.has(urilayout.Fragment)
}

// view is a URI's text and layout, read once (load): its components
// are slices of the text, where each of the URI's accessors, inlined,
// copies the URI. Its methods are the accessors' of parser.URI.
type view struct {
	text string
	l    urilayout.Layout
}

// load reads u into v. It fills a view in place: a function returning one
// built it in a temporary and copied it, and the copy, 16 bytes at a time,
// waited for the narrower stores that built it.
func (v *view) load(u *parser.URI) {
	f := fieldsOf(u)
	v.text = f.Text
	v.l = urilayout.Make(f.SchemeEnd, f.HostStart, f.HostEnd, f.PathStart, f.PathEnd, f.QueryEnd, f.Flags, f.HostKind)
}

func (v *view) has(f uint8) bool { return v.l.Flags()&f != 0 }
func (v *view) scheme() string   { return v.text[:v.l.SchemeEnd()] }
func (v *view) host() string     { return v.text[v.l.HostStart():v.l.HostEnd()] }
func (v *view) path() string     { return v.text[v.l.PathStart():v.l.PathEnd()] }

func (v *view) port() string {
	if !v.has(urilayout.Port) {
		return ""
	}
	return v.text[v.l.HostEnd()+1 : v.l.PathStart()]
}

// build writes t out once and makes the URI of its text: a URI that
// parses into exactly t's components, into *u (left alone on failure).
//
// In RFC 3986 (g, the target's grammar, is the grammar of base or ref,
// whichever holds the other), the text needs no parse: every component
// comes from a valid URI but the path, and the recomposition (§5.3) of
// such components is a valid URI that parses into them, but for a path
// beginning with "//" without an authority, which the guard takes care of:
//
//   - the scheme, the authority, the query and the fragment are those of
//     the base or the reference, as they parsed; none holds the delimiter
//     that ends it, so the parser finds each where it was written;
//   - the path is made of the segments of the base's and the reference's
//     paths (merge, §5.2.3, appends them after a "/"), minus dot segments
//     (§5.2.4), so each of its segments is made of pchar; with an
//     authority, it is empty or begins with "/" (an authority's path is,
//     merge's result with a base that has one is, and remove_dot_segments
//     keeps a leading "/"), so it is path-abempty; without one, every path
//     that does not begin with "//" is path-absolute, path-rootless or
//     path-empty (the target has a scheme: a ':' in its first segment is
//     allowed), and the guard's "/." makes one that does path-absolute.
//
// FuzzResolveShortcut holds every such URI to the parse of its text. In
// another grammar, whose rules may constrain a URI's components together
// (a scheme's own grammar, say), and when check is set, the text is checked
// with the reference rule's DFA of g, which splits it without allocating.
// The path is assembled, and its dot segments removed, in a buffer on the
// stack when it is short; the text is written once, in its one allocation.
// An error is about the "result"; its Input is the caller's to set.
func (t *target) build(u *parser.URI, g *parser.Parser, check bool) *ArgError {
	var pathBuf []byte // the path when it had to be assembled; else dir + path
	// Only a path with a dot segment changes; the rest of the time,
	// remove_dot_segments would copy its input (rule E). dir is "" or
	// ends with "/", so the segments of dir + path are dir's and path's.
	// (dotSegmentShort inlines: two calls of hasDotSegment cost 4 to 8 %
	// of a resolution of §5.4's references.)
	dots := t.dots
	switch {
	case !dots:
	case len(t.path) > 32 || len(t.dir) > 32:
		dots = hasDotSegment(t.path) || hasDotSegment(t.dir)
	default:
		dots = dotSegmentShort(t.path) || dotSegmentShort(t.dir)
	}
	if dots {
		var scratch [256]byte // zeroed here only, when it is needed
		pathBuf = append(append(scratch[:0], t.dir...), t.path...)
		pathBuf = removeDotSegments(pathBuf)
	}
	pathLen := len(t.dir) + len(t.path)
	if pathBuf != nil {
		pathLen = len(pathBuf)
	}
	// §3.3, the guard: a path beginning with "//" without an authority
	// would read as one. See guard.
	guarded := !t.hasAuth && pathLen >= 2 && t.pathByte(pathBuf, 0) == '/' && t.pathByte(pathBuf, 1) == '/'

	// §5.3, Component Recomposition, with the layout of its components.
	headLen := len(t.head1) + len(t.head2)
	n := headLen + pathLen + len(t.tail1) + len(t.tail2)
	if guarded {
		n += 2
	}
	if n > parser.MaxLength {
		return resultTooLong("the target", "", n)
	}
	// One allocation, written with copy: a strings.Builder checked its
	// capacity at each of the writes.
	// (A copy of an empty piece, a call to memmove with its bounds
	// checks, is most of the time skipped: the head and the tail are one
	// piece each but in one case of §5.2.2 each, and most tails are empty.)
	buf := make([]byte, n)
	w := 0
	if t.head1 != "" {
		w = copy(buf, t.head1)
	}
	w += copy(buf[w:], t.head2)
	if guarded {
		buf[w], buf[w+1] = '/', '.'
		w += 2
	}
	if pathBuf != nil {
		w += copy(buf[w:], pathBuf)
	} else {
		if t.dir != "" {
			w += copy(buf[w:], t.dir)
		}
		w += copy(buf[w:], t.path)
	}
	pathEnd := w
	if t.tail1 != "" {
		w += copy(buf[w:], t.tail1)
	}
	if t.tail2 != "" {
		copy(buf[w:], t.tail2)
	}
	flags := urilayout.Scheme
	var hostStart, hostEnd int
	if t.hasAuth {
		flags |= urilayout.Authority
		hostStart, hostEnd = t.hostStart, t.hostEnd
		if t.hasUserinfo {
			flags |= urilayout.Userinfo
		}
		if t.hasPort {
			flags |= urilayout.Port
		}
	}
	if t.hasQuery {
		flags |= urilayout.Query
	}
	if t.hasFrag {
		flags |= urilayout.Fragment
	}
	// buf is never written again: its bytes are the string's.
	s := unsafe.String(unsafe.SliceData(buf), len(buf))
	if g == parser.RFC3986() && !check {
		// In place, field by field (see urilayout.Fields).
		f := fieldsOf(u)
		f.Text, f.P = s, nil
		f.SchemeEnd, f.HostStart, f.HostEnd = uint32(t.schemeEnd), uint32(hostStart), uint32(hostEnd)
		f.PathStart, f.PathEnd, f.QueryEnd = uint32(headLen), uint32(pathEnd), uint32(pathEnd+t.queryLen)
		f.Flags, f.HostKind = flags, uint8(t.hostKind)
		return nil
	}
	v, err := g.Parse("", s)
	// The components were written one after the other, with their
	// delimiters, so if the parser finds the same ones defined, with the
	// same lengths, it finds them where they were written: it parses into
	// t's components. (v is a local value: its accessors, inlined, read its
	// fields; called through a pointer, each would copy the URI.)
	// (The authority's own parts follow from its text, which the
	// parser split the same way in the URI it came from.)
	authLen, queryLen := 0, 0
	if t.hasAuth {
		authLen = headLen - t.schemeEnd - 3 // after ":" and "//"
	}
	if t.hasQuery {
		queryLen = t.queryLen - 1 // after "?"
	}
	if err == nil && !(v.HasScheme() && len(v.Scheme()) == t.schemeEnd &&
		v.HasAuthority() == t.hasAuth && len(v.Authority()) == authLen && v.HostKind() == t.hostKind &&
		len(v.Path()) == pathEnd-headLen && v.HasQuery() == t.hasQuery && len(v.Query()) == queryLen &&
		v.HasFragment() == t.hasFrag) {
		err = errors.New("it parses into other components")
	}
	if err != nil {
		// Not expected: the tests and fuzzers say it does not happen.
		return &ArgError{Arg: "result",
			Err: fmt.Errorf("the target %q does not parse back into its components: %w", clip(s), err)}
	}
	*u = v
	return nil
}

// pathByte returns byte i of t's path, from buf when it was assembled.
func (t *target) pathByte(buf []byte, i int) byte {
	if buf != nil {
		return buf[i]
	}
	if i < len(t.dir) {
		return t.dir[i]
	}
	return t.path[i-len(t.dir)]
}

// guard returns p's path, with "/." in front if p has no authority and its
// path begins with "//": §3.3, "If a URI does not contain an authority
// component, then the path cannot begin with two slash characters", since
// §5.3 would recompose it into text whose "//" starts an authority. "/."
// is a dot segment that remove_dot_segments removes again, so the path
// means the same. This is this package's one addition to §5.2–5.3; see
// the package documentation.
func guard(p parser.Parts) string {
	if !p.HasAuthority && strings.HasPrefix(p.Path, "//") {
		return "/." + p.Path
	}
	return p.Path
}

// Merge merges a relative-path reference's path with the path of base, as
// RFC 3986 §5.2.3 describes:
//
//   - If the base URI has a defined authority component and an empty
//     path, then return a string consisting of "/" concatenated with the
//     reference's path; otherwise,
//   - return a string consisting of the reference's path component
//     appended to all but the last segment of the base URI's path (i.e.,
//     excluding any characters after the right-most "/" in the base URI
//     path, or excluding the entire base URI path if it does not contain
//     any "/" characters).
//
// The result still holds the dot segments of both paths; §5.2.2 passes it
// to [RemoveDotSegments].
func Merge(base parser.URI, refPath string) string {
	return mergeDir(base.HasAuthority(), base.Path()) + refPath
}

// mergeDir is the part of §5.2.3's merge that comes from a base with the
// given authority flag and path: "/", or the path up to its last "/" (""
// when it has none).
func mergeDir(hasAuthority bool, path string) string {
	if hasAuthority && path == "" {
		return "/"
	}
	return path[:strings.LastIndexByte(path, '/')+1] // 0 when there is no "/"
}

// RemoveDotSegments interprets and removes the complete path segments "."
// and ".." from path, by the algorithm of RFC 3986 §5.2.4, step by step.
// It is exactly the RFC's function, meant for the merged paths of §5.2.2:
// applied to a relative path, it may drop leading ".." segments or produce
// an absolute path ("a/.." becomes "/"), as the RFC's does.
func RemoveDotSegments(path string) string {
	if !hasDotSegment(path) {
		return path // only rule E would apply, which copies the input
	}
	return string(removeDotSegments([]byte(path)))
}

// removeDotSegments is §5.2.4 on buf, in place: the output buffer is the
// front of buf, buf[:out], and the input buffer is buf[in:]. Each step
// either consumes input, drops output, or moves a segment from the input
// to the output, so out never passes in, and the output never overwrites
// input not yet read. Rules A to D apply only where the input begins with
// "." or "/."; the rules' prefixes, grouped by that first byte, exclude
// one another, so the order in which they are tested does not matter.
func removeDotSegments(buf []byte) []byte {
	// 1. The input buffer is initialized with the now-appended path
	// components and the output buffer is initialized to the empty string.
	in, out, n := 0, 0, len(buf)
	// 2. While the input buffer is not empty, loop as follows:
	for in < n {
		switch buf[in] {
		case '.':
			switch {
			// D. if the input buffer consists only of "." or "..", then
			// remove that from the input buffer; otherwise,
			case in+1 == n, buf[in+1] == '.' && in+2 == n:
				in = n
				continue
			// A. If the input buffer begins with a prefix of "../" or
			// "./", then remove that prefix from the input buffer;
			// otherwise,
			case buf[in+1] == '/':
				in += 2
				continue
			case buf[in+1] == '.' && buf[in+2] == '/':
				in += 3
				continue
			}
		case '/':
			if in+1 == n || buf[in+1] != '.' {
				break
			}
			switch {
			// B. if the input buffer begins with a prefix of "/./" or
			// "/.", where "." is a complete path segment, then replace
			// that prefix with "/" in the input buffer; otherwise,
			case in+2 == n:
				in++
				buf[in] = '/'
				continue
			case buf[in+2] == '/':
				in += 2
				continue
			// C. if the input buffer begins with a prefix of "/../" or
			// "/..", where ".." is a complete path segment, then replace
			// that prefix with "/" in the input buffer and remove the
			// last segment and its preceding "/" (if any) from the output
			// buffer; otherwise,
			case buf[in+2] == '.' && in+3 == n:
				in += 2
				buf[in] = '/'
				out = max(bytes.LastIndexByte(buf[:out], '/'), 0)
				continue
			case buf[in+2] == '.' && buf[in+3] == '/':
				in += 3
				out = max(bytes.LastIndexByte(buf[:out], '/'), 0)
				continue
			}
		}
		// E. move the first path segment in the input buffer to the end of
		// the output buffer, including the initial "/" character (if any)
		// and any subsequent characters up to, but not including, the next
		// "/" character or the end of the input buffer.
		end := in + 1
		for end < n && buf[end] != '/' {
			end++
		}
		if in != out {
			copy(buf[out:], buf[in:end])
		}
		out += end - in
		in = end
	}
	// 3. Finally, the output buffer is returned as the result of
	// remove_dot_segments.
	return buf[:out]
}

// hasDotSegment reports whether a segment of path is "." or "..", from
// one "." to the next with IndexByte, which reads 16 or 32 bytes at a time.
// (Most paths with a "." have none: "index.html".)
func hasDotSegment(path string) bool {
	for i := 0; ; i++ {
		j := strings.IndexByte(path[i:], '.')
		if j < 0 {
			return false
		}
		if i += j; (i == 0 || path[i-1] == '/') && isDotSegment(path[i:]) {
			return true
		}
	}
}

// dotSegmentShort is hasDotSegment as a loop, faster than calls to
// IndexByte on a short path, and small enough to inline.
func dotSegmentShort(path string) bool {
	for i := 0; i < len(path); i++ {
		if path[i] == '.' && (i == 0 || path[i-1] == '/') && isDotSegment(path[i:]) {
			return true
		}
	}
	return false
}

// isDotSegment reports whether s, which begins with ".", begins with a
// segment "." or "..".
func isDotSegment(s string) bool {
	return len(s) == 1 || s[1] == '/' || s[1] == '.' && (len(s) == 2 || s[2] == '/')
}

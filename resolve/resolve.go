package resolve

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/peguri/rfc3986/parser"
)

// ErrNoScheme is the error, wrapped in an [*Error], for a base URI without a
// scheme (RFC 3986 §5.1), or a target of [Relativize] without one.
var ErrNoScheme = errors.New("no scheme")

// Error is the error of this package's functions: the argument at fault,
// its text, and why.
type Error struct {
	// Arg names the argument: "base" or "reference" for resolution,
	// "target" for [Relativize], "reference" for [NormalizeString] and
	// [Normalize], "a" or "b" for [EqualString].
	Arg string
	// Input is the argument's text.
	Input string
	// Err is the reason: [ErrNoScheme], a [*parser.Error] for text that
	// does not parse, or an error wrapping the [*parser.Error] of a result
	// that would not parse back into its components.
	Err error
}

// Error formats the error on one line:
//
//	resolve: base "//a/b" has no scheme: RFC 3986 §5.1 requires an absolute base URI
//	resolve: reference: parse "a b" as URI-reference: unexpected " " at offset 1; …
func (e *Error) Error() string {
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
	return fmt.Sprintf("resolve: %s %q: %v", e.Arg, clip(e.Input), e.Err)
}

// Unwrap returns e.Err.
func (e *Error) Unwrap() error { return e.Err }

func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// Reference resolves ref against base (RFC 3986 §5.2), strictly: a ref with
// a scheme is its own target, dot segments removed, whatever the base's
// scheme. base must have a scheme (§5.1); its fragment, if any, is
// ignored. The result always has a scheme and parses back into the same
// components; see the package documentation for the one case where that
// needs a "/." the RFC's text does not write.
func Reference(base, ref parser.URI) (parser.URI, error) {
	return reference(base, ref, true)
}

// ReferenceNonStrict is [Reference] for a non-strict parser (§5.2.2): a
// scheme in ref that is the base's scheme, compared case-insensitively
// (§3.1: "schemes are case-insensitive"), is ignored, so that "http:g"
// against "http://a/b/c/d;p?q" is "http://a/b/c/g" (§5.4.2, "for backward
// compatibility"). §5.4.2 also says: "Its use should be avoided".
func ReferenceNonStrict(base, ref parser.URI) (parser.URI, error) {
	return reference(base, ref, false)
}

func reference(base, ref parser.URI, strict bool) (parser.URI, error) {
	if !base.HasScheme() {
		return parser.URI{}, &Error{Arg: "base", Input: base.String(), Err: ErrNoScheme}
	}
	t := resolveParts(base.Parts(), ref.Parts(), strict)
	u, err := parser.FromParts(t)
	if err != nil {
		// Not expected: only a target longer than parser.MaxLength gets here.
		return parser.URI{}, &Error{Arg: "reference", Input: ref.String(),
			Err: fmt.Errorf("target %q does not parse back into its components: %w", clip(t.String()), err)}
	}
	return u, nil
}

// String parses base and ref as URI-references (§4.1), resolves ref
// against base as [Reference] does, or as [ReferenceNonStrict] when strict
// is false, and returns the target's text. Text that does not parse is an
// [*Error] naming the argument ("base" or "reference") and wrapping the
// [*parser.Error] that says where and why; so is a base without a scheme.
func String(base, ref string, strict bool) (string, error) {
	b, err := parser.ParseReference(base)
	if err != nil {
		return "", &Error{Arg: "base", Input: base, Err: err}
	}
	r, err := parser.ParseReference(ref)
	if err != nil {
		return "", &Error{Arg: "reference", Input: ref, Err: err}
	}
	t, err := reference(b, r, strict)
	if err != nil {
		return "", err
	}
	return t.String(), nil
}

// resolveParts is the pseudocode of §5.2.2, on components, followed by the
// guard that keeps the result parsing as the same components. b must have a
// scheme. Components that are undefined in the result are "".
func resolveParts(b, r parser.Parts, strict bool) parser.Parts {
	// -- A non-strict parser may ignore a scheme in the reference
	// -- if it is identical to the base URI's scheme.
	if !strict && r.HasScheme && strings.EqualFold(r.Scheme, b.Scheme) {
		r.Scheme, r.HasScheme = "", false
	}
	var t parser.Parts
	switch {
	case r.HasScheme:
		t.Scheme, t.HasScheme = r.Scheme, true
		setAuthority(&t, r)
		t.Path = RemoveDotSegments(r.Path)
		t.Query, t.HasQuery = r.Query, r.HasQuery
	case r.HasAuthority:
		setAuthority(&t, r)
		t.Path = RemoveDotSegments(r.Path)
		t.Query, t.HasQuery = r.Query, r.HasQuery
		t.Scheme, t.HasScheme = b.Scheme, true
	default:
		switch {
		case r.Path == "":
			t.Path = b.Path
			if r.HasQuery {
				t.Query, t.HasQuery = r.Query, true
			} else {
				t.Query, t.HasQuery = b.Query, b.HasQuery
			}
		case r.Path[0] == '/':
			t.Path = RemoveDotSegments(r.Path)
			t.Query, t.HasQuery = r.Query, r.HasQuery
		default:
			t.Path = RemoveDotSegments(merge(b, r.Path))
			t.Query, t.HasQuery = r.Query, r.HasQuery
		}
		setAuthority(&t, b)
		t.Scheme, t.HasScheme = b.Scheme, true
	}
	t.Fragment, t.HasFragment = r.Fragment, r.HasFragment
	t.Path = guard(t)
	return t
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

// setAuthority copies the authority, defined or not, of from into t.
func setAuthority(t *parser.Parts, from parser.Parts) {
	t.HasAuthority = from.HasAuthority
	t.Userinfo, t.HasUserinfo = from.Userinfo, from.HasUserinfo
	t.Host = from.Host
	t.Port, t.HasPort = from.Port, from.HasPort
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
	return merge(base.Parts(), refPath)
}

func merge(b parser.Parts, refPath string) string {
	if b.HasAuthority && b.Path == "" {
		return "/" + refPath
	}
	i := strings.LastIndexByte(b.Path, '/')
	return b.Path[:i+1] + refPath // i+1 is 0 when there is no "/"
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
	// 1. The input buffer is initialized with the now-appended path
	// components and the output buffer is initialized to the empty string.
	in := path
	out := make([]byte, 0, len(path))
	// 2. While the input buffer is not empty, loop as follows:
	for in != "" {
		switch {
		// A. If the input buffer begins with a prefix of "../" or "./",
		// then remove that prefix from the input buffer; otherwise,
		case strings.HasPrefix(in, "../"):
			in = in[3:]
		case strings.HasPrefix(in, "./"):
			in = in[2:]
		// B. if the input buffer begins with a prefix of "/./" or "/.",
		// where "." is a complete path segment, then replace that prefix
		// with "/" in the input buffer; otherwise,
		case strings.HasPrefix(in, "/./"):
			in = in[2:]
		case in == "/.":
			in = "/"
		// C. if the input buffer begins with a prefix of "/../" or "/..",
		// where ".." is a complete path segment, then replace that prefix
		// with "/" in the input buffer and remove the last segment and its
		// preceding "/" (if any) from the output buffer; otherwise,
		case strings.HasPrefix(in, "/../"):
			in = in[3:]
			out = removeLastSegment(out)
		case in == "/..":
			in = "/"
			out = removeLastSegment(out)
		// D. if the input buffer consists only of "." or "..", then remove
		// that from the input buffer; otherwise,
		case in == "." || in == "..":
			in = ""
		// E. move the first path segment in the input buffer to the end of
		// the output buffer, including the initial "/" character (if any)
		// and any subsequent characters up to, but not including, the next
		// "/" character or the end of the input buffer.
		default:
			start := 0
			if in[0] == '/' {
				start = 1
			}
			n := len(in)
			if i := strings.IndexByte(in[start:], '/'); i >= 0 {
				n = start + i
			}
			out = append(out, in[:n]...)
			in = in[n:]
		}
	}
	// 3. Finally, the output buffer is returned as the result of
	// remove_dot_segments.
	return string(out)
}

func removeLastSegment(out []byte) []byte {
	return out[:max(bytes.LastIndexByte(out, '/'), 0)]
}

// hasDotSegment reports whether a segment of path is "." or "..".
func hasDotSegment(path string) bool {
	for len(path) > 0 {
		seg := path
		i := strings.IndexByte(path, '/')
		if i >= 0 {
			seg, path = path[:i], path[i+1:]
		} else {
			path = ""
		}
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}

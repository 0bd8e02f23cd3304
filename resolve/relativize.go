package resolve

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/peguri/rfc3986/parser"
)

// Relativize returns the shortest reference that [Resolve] resolves
// against base to target: the inverse of resolution. Among references of
// equal length it prefers, in this order, the same-document reference ""
// or "#f", a query "?q#f", a relative path ("../c/d", "./a:b", ".."), an
// absolute path, a network path "//host/…", and last target itself, which
// is the answer when no reference without a scheme is shorter, or when none
// resolves to target: when target has another scheme, or no authority
// where base has one, or a path with dot segments that resolution would
// remove (then Resolve(base, target, Strict) is not target either).
//
// Like resolution, Relativize ignores base's fragment. base and target
// must have a scheme; the error, an [*ArgError] wrapping [ErrNoScheme], says
// which one has not.
func Relativize(base, target parser.URI) (parser.URI, error) {
	if !base.HasScheme() {
		return parser.URI{}, &ArgError{Arg: "base", Input: base.String(), Err: ErrNoScheme}
	}
	if !target.HasScheme() {
		return parser.URI{}, &ArgError{Arg: "target", Input: target.String(), Err: ErrNoScheme}
	}
	g, err := grammarOf(&base, &target)
	if err != nil {
		return parser.URI{}, &ArgError{Arg: "target", Input: target.String(),
			Err: fmt.Errorf("%w: %s and %s", err, target.Parser().Name(), base.Parser().Name())}
	}
	type found struct {
		r   parser.URI
		len int
	}
	var ok []found
	for _, c := range candidates(&base, target.Parts()) {
		// Each candidate is checked by resolving it: the candidates are
		// built to parse into their components, and FromParts proves it.
		// (The target's text, in the grammar of base and target: an RFC
		// 3986 target of an IRI base is an IRI too.)
		r, err := g.FromParts(c)
		if err != nil {
			continue
		}
		if t, err := Resolve(base, r, Strict); err == nil && t.String() == target.String() {
			ok = append(ok, found{r, len(r.String())})
		}
	}
	// Shortest first; among equals, the order of candidates.
	slices.SortStableFunc(ok, func(x, y found) int { return cmp.Compare(x.len, y.len) })
	if len(ok) > 0 && ok[0].len <= len(target.String()) {
		return ok[0].r, nil
	}
	return target, nil
}

// candidates returns references without a scheme that may resolve to t
// against b, in order of preference. Each one parses into its components:
// a relative path whose first segment has a ":" or is empty starts with
// "./", an absolute path that begins with "//" with "/." (see guard).
// Whether they resolve to t is for the caller to check.
func candidates(b *parser.URI, t parser.Parts) []parser.Parts {
	// withQF gives c t's query and fragment, which every reference with a
	// path passes on to its target (§5.2.2).
	withQF := func(c parser.Parts) parser.Parts {
		c.Query, c.HasQuery = t.Query, t.HasQuery
		c.Fragment, c.HasFragment = t.Fragment, t.HasFragment
		return c
	}
	var cs []parser.Parts
	// "" or "#f": the base itself (§4.4, same-document reference).
	cs = append(cs, parser.Parts{Fragment: t.Fragment, HasFragment: t.HasFragment})
	// "?q#f": the base's path with another query.
	if t.HasQuery {
		cs = append(cs, withQF(parser.Parts{}))
	}
	// Relative paths, merged with the base's directory (§5.2.3).
	for _, p := range relativePaths(b, t.Path) {
		cs = append(cs, withQF(parser.Parts{Path: p}))
	}
	// An absolute path: the target's.
	if strings.HasPrefix(t.Path, "/") {
		cs = append(cs, withQF(parser.Parts{Path: guard(parser.Parts{Path: t.Path})}))
	}
	// A network-path reference (§4.2): the target without its scheme.
	if t.HasAuthority {
		c := t
		c.Scheme, c.HasScheme = "", false
		cs = append(cs, c)
	}
	return cs
}

// relativePaths returns relative paths that merge with b's path and then
// remove_dot_segments into path: "../" for each directory of the base that
// is not one of path's, then the rest of path. It tries the base's
// directory as written and without its dot segments, since resolution
// removes them, and the same for path, whose only dot segment, in a
// target, is the "/." of the guard: "/.//c" is "//c" to resolution.
func relativePaths(b *parser.URI, path string) []string {
	dir := mergeDir(b.HasAuthority(), b.Path())
	var out []string
	for _, d := range []string{dir, RemoveDotSegments(dir)} {
		for _, t := range []string{path, RemoveDotSegments(path)} {
			if p, ok := relativePath(d, t); ok && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// relativePath returns the path, relative to the directory dir (which ends
// in "/", or is empty for a rootless base path without one), that names
// path.
func relativePath(dir, path string) (string, bool) {
	if strings.HasPrefix(dir, "/") != strings.HasPrefix(path, "/") {
		return "", false // an absolute-path candidate does it
	}
	ds := strings.Split(dir, "/") // ends with "", after the last "/"
	ts := strings.Split(path, "/")
	ds = ds[:len(ds)-1]
	k := 0 // directories in common
	for k < len(ds) && k < len(ts)-1 && ds[k] == ts[k] {
		k++
	}
	up := len(ds) - k
	rest := strings.Join(ts[k:], "/")
	switch {
	// The directory itself, or one above: "." and ".." are one byte
	// shorter than "./" and "../", and remove_dot_segments treats a final
	// "/." as "/./" and "/.." as "/../" (§5.2.4, B and C; D for a bare "."
	// or ".."), so they mean the same.
	case rest == "" && up == 0:
		return ".", true
	case rest == "":
		return strings.TrimSuffix(strings.Repeat("../", up), "/"), true
	case up == 0:
		first, _, _ := strings.Cut(rest, "/")
		if first == "" || strings.Contains(first, ":") {
			return "./" + rest, true
		}
		return rest, true
	default:
		return strings.Repeat("../", up) + rest, true
	}
}

package resolve_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/resolve"
)

// propertyBases are the bases of the property tests and seeds of the
// fuzzers, each with what it probes.
var propertyBases = []string{
	rfcBase,                           // §5.4
	"http://a",                        // authority, empty path (§5.2.3, first rule)
	"http://a/",                       // the root
	"HTTP://A/B/c/./../d?Q#F",         // not normalized; a fragment to ignore (§5.1)
	"http://u@[::1]:8080/x/y/?q#f",    // userinfo, IP literal, port
	"s://h//x//y",                     // empty segments
	"file:///etc/hosts",               // empty host
	"a:/b",                            // no authority: the guard's ground
	"a:/b/c/d",                        // the same, deeper
	"foo:a/b/c",                       // rootless path with "/"
	"a:b",                             // rootless path without "/"
	"urn:abcd",                        // the same, a URN
	"a:",                              // empty path, no authority
	"a:?q",                            // only a query
	"x-y.z+w://%41:1/%7e/%2E%2E/?%3a", // percent-encodings everywhere
}

// hierarchical reports whether relative references keep their meaning
// through DotSegments normalization against base: base has an authority or
// a "/" in its path (see the package documentation).
func hierarchical(base parser.URI) bool {
	return base.HasAuthority() || strings.Contains(base.Path(), "/")
}

// genRefs returns n URI references, valid or not, built from pieces that
// exercise resolution and normalization: dot segments in every position,
// colons, percent-encodings of unreserved and reserved characters, empty
// components. The sequence is fixed by the seed.
func genRefs(n int, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, 3986))
	pick := func(s ...string) string { return s[r.IntN(len(s))] }
	segs := []string{"", "", ".", ".", "..", "..", "a", "b", "g", "c:d", "%2E", "%2e%2E", "%7e", "%3a", "g;x=1", "..g", "g.", "%41", "...", "...."}
	var out []string
	for len(out) < n {
		var b strings.Builder
		b.WriteString(pick("", "", "", "", "http:", "HTTP:", "a:", "foo:", "https:"))
		hasAuth := r.IntN(4) == 0
		if hasAuth {
			b.WriteString(pick("//", "//a", "//A", "//u@h:", "//h:80", "//h:080", "//[::1]", "//[0:0::A]", "//[V1.x]", "//%41b", "//0"))
		}
		k := r.IntN(5)
		for i := range k {
			if i > 0 || hasAuth || r.IntN(2) == 0 {
				b.WriteByte('/')
			}
			b.WriteString(segs[r.IntN(len(segs))])
		}
		b.WriteString(pick("", "", "", "?", "?y", "?y/./x", "?%7E"))
		b.WriteString(pick("", "", "", "#", "#s", "#s/../x", "#%7e"))
		out = append(out, b.String())
	}
	return out
}

// propertyRefs are the references of the property tests: the tables' and
// generated ones.
func propertyRefs() []string {
	var refs []string
	for _, tt := range resolveTests {
		refs = append(refs, tt.ref, tt.want)
	}
	for _, tt := range removeDotSegmentsTests {
		refs = append(refs, tt.in)
	}
	for _, tt := range normalizeTests {
		refs = append(refs, tt.in)
	}
	return append(refs, genRefs(400, 1)...)
}

// TestResolveProperties checks, for every base and reference of the pools,
// the properties of resolution and relativization; and that, for every
// target, Relativize is no longer than any reference of the pool that
// resolves to it.
func TestResolveProperties(t *testing.T) {
	var refs []parser.URI
	for _, s := range propertyRefs() {
		if u, err := parser.ParseReference(s); err == nil {
			refs = append(refs, u)
		}
	}
	for _, bs := range propertyBases {
		base := mustParse(t, bs)
		shortest := map[parser.URI]string{} // target → the shortest reference without a scheme to it
		for _, ref := range refs {
			target, ok := checkResolve(t, base, ref)
			if !ok || ref.HasScheme() {
				continue
			}
			if s, seen := shortest[target]; !seen || len(ref.String()) < len(s) {
				shortest[target] = ref.String()
			}
		}
		for target, ref := range shortest {
			rel, err := resolve.Relativize(base, target)
			if err != nil {
				t.Errorf("Relativize(%q, %q): %v", base, target, err)
			} else if len(rel.String()) > len(ref) {
				t.Errorf("Relativize(%q, %q) = %q, but %q is shorter", base, target, rel, ref)
			}
		}
	}
}

// checkResolve checks the properties of Resolve(base, ref, Strict) and returns
// the target.
func checkResolve(t testing.TB, base, ref parser.URI) (parser.URI, bool) {
	t.Helper()
	target, err := resolve.Resolve(base, ref, resolve.Strict)
	if err != nil {
		if base.HasScheme() && len(base.String())+len(ref.String()) < parser.MaxLength {
			t.Errorf("Resolve(%q, %q): %v", base, ref, err)
		}
		return parser.URI{}, false
	}
	checkTarget(t, target)
	checkTrace(t, base, ref, resolve.Strict, target)
	// A target resolves to itself, against any base, but for the dot
	// segments it may hold when it has the base's path (§5.2.2 copies
	// Base.path for an empty reference path): it has a scheme, and
	// resolution removes its dot segments but the guard's "/.", which it
	// puts back.
	want := target.Parts()
	want.Path = resolve.RemoveDotSegments(want.Path)
	if !want.HasAuthority && strings.HasPrefix(want.Path, "//") {
		want.Path = "/." + want.Path
	}
	if again, err := resolve.Resolve(base, target, resolve.Strict); err != nil || again.Parts() != want {
		t.Errorf("Resolve(%q, %q) = %q, whose resolution is %q, %v; want %q", base, ref, target, again, err, want)
	} else if again2, err := resolve.Resolve(base, again, resolve.Strict); err != nil || again2 != again {
		t.Errorf("Resolve(%q, %q) = %q, not its own resolution: %q, %v", base, again, again2, again, err)
	}
	// The non-strict resolution is a target too, and the strict one's for
	// a reference without the base's scheme.
	ns, err := resolve.Resolve(base, ref, resolve.NonStrict)
	if err != nil {
		t.Errorf("Resolve(%q, %q, NonStrict): %v", base, ref, err)
	} else {
		checkTarget(t, ns)
		checkTrace(t, base, ref, resolve.NonStrict, ns)
		if !strings.EqualFold(ref.Scheme(), base.Scheme()) && ns != target {
			t.Errorf("Resolve(%q, %q, NonStrict) = %q, want %q as in strict mode", base, ref, ns, target)
		}
	}
	// Relativize inverts it, with a reference no longer than the target.
	rel, err := resolve.Relativize(base, target)
	if err != nil {
		t.Errorf("Relativize(%q, %q): %v", base, target, err)
		return target, true
	}
	if back, err := resolve.Resolve(base, rel, resolve.Strict); err != nil || back != target {
		t.Errorf("Resolve(%q, Relativize(%q, %q) = %q) = %q, %v; want the target", base, base, target, rel, back, err)
	}
	if len(rel.String()) > len(target.String()) {
		t.Errorf("Relativize(%q, %q) = %q, longer than the target", base, target, rel)
	}
	if !ref.HasScheme() && len(rel.String()) > len(ref.String()) {
		t.Errorf("Relativize(%q, %q) = %q, but %q resolves to it too", base, target, rel, ref)
	}
	return target, true
}

// someSteps are the step sets the property tests try on every input; the
// table tests try all 32.
var someSteps = []resolve.Steps{
	resolve.NormalizeCase, resolve.NormalizePercent, resolve.NormalizeDotSegments, resolve.NormalizeSchemeBased, resolve.NormalizeIPv6Canonical,
	resolve.NormalizePercent | resolve.NormalizeDotSegments, resolve.NormalizeSyntax, resolve.NormalizeDefault, resolve.NormalizeDefault | resolve.NormalizeIPv6Canonical,
}

// TestNormalizeProperties checks normalization on the pool's references
// and their targets: properties of each step set, Equal at every level,
// and that normalizing a reference does not change its target's normal
// form.
func TestNormalizeProperties(t *testing.T) {
	var bases []parser.URI
	for _, s := range propertyBases {
		bases = append(bases, mustParse(t, s))
	}
	for _, s := range propertyRefs() {
		u, err := parser.ParseReference(s)
		if err != nil {
			continue
		}
		checkNormalizeAll(t, u, bases)
	}
}

func checkNormalizeAll(t testing.TB, u parser.URI, bases []parser.URI) {
	t.Helper()
	for _, steps := range someSteps {
		checkNormalize(t, u, steps)
	}
	n, err := resolve.Normalize(u, resolve.NormalizeDefault)
	if err != nil {
		return
	}
	if !resolve.Equal(u, n, resolve.CompareScheme) || !resolve.Equal(n, u, resolve.CompareScheme) {
		t.Errorf("Equal(%q, its normal form %q, LevelScheme) = false", u, n)
	}
	if ns, err := resolve.Normalize(u, resolve.NormalizeSyntax); err == nil && !resolve.Equal(u, ns, resolve.CompareSyntax) {
		t.Errorf("Equal(%q, its syntax normal form %q, LevelSyntax) = false", u, ns)
	}
	// Case and Percent never lengthen, and leave no unreserved character
	// encoded but the last dot of a path segment that would decode to "."
	// or "..", which stays "%2E" or ".%2E", a name to §5.2.4.
	if cp, err := resolve.Normalize(u, resolve.NormalizeCase|resolve.NormalizePercent); err == nil {
		if len(cp.String()) > len(u.String()) {
			t.Errorf("Normalize(%q, Case|Percent) = %q, longer", u, cp)
		}
		s := cp.String()
		for i := strings.IndexByte(s, '%'); i >= 0 && i+2 < len(s); i = strings.IndexByte(s[i+1:], '%') + i + 1 {
			if c := unhex2(s[i+1 : i+3]); isUnreserved(c) && !inPctDotSegment(cp, i) {
				t.Errorf("Normalize(%q, Case|Percent) = %q, which still encodes %q", u, cp, c)
			}
			if strings.IndexByte(s[i+1:], '%') < 0 {
				break
			}
		}
	}
	// Normalizing a reference does not change the normal form of its
	// target (§6.1: normalization preserves equivalence), against bases
	// where relative references keep their meaning; "%2E" included, which
	// neither resolution nor normalization takes for a dot.
	for _, base := range bases {
		if !hierarchical(base) {
			continue
		}
		want, err := resolve.Resolve(base, u, resolve.Strict)
		if err != nil {
			continue
		}
		want, _ = resolve.Normalize(want, resolve.NormalizeDefault|resolve.NormalizeIPv6Canonical)
		for _, steps := range someSteps {
			nu, err := resolve.Normalize(u, steps)
			if err != nil {
				continue
			}
			got, err := resolve.Resolve(base, nu, resolve.Strict)
			if err != nil {
				t.Errorf("Resolve(%q, %q): %v", base, nu, err)
				continue
			}
			got, _ = resolve.Normalize(got, resolve.NormalizeDefault|resolve.NormalizeIPv6Canonical)
			if got != want {
				t.Errorf("against %q, %q resolves to %q but Normalize(%q, %v) = %q resolves to %q", base, u, want, u, steps, nu, got)
			}
		}
	}
}

// inPctDotSegment reports whether the "%" at u.String()[i] is in u's
// path, in a segment that is "%2E" or ".%2E".
func inPctDotSegment(u parser.URI, i int) bool {
	start := 0
	if u.HasScheme() {
		start += len(u.Scheme()) + 1
	}
	if u.HasAuthority() {
		start += 2 + len(u.Authority())
	}
	path := u.Path()
	if i < start || i >= start+len(path) {
		return false
	}
	i -= start
	j := strings.LastIndexByte(path[:i], '/') + 1
	k := strings.IndexByte(path[i:], '/')
	if k < 0 {
		k = len(path)
	} else {
		k += i
	}
	seg := path[j:k]
	return seg == "%2E" || seg == ".%2E"
}

func unhex2(s string) byte {
	var v byte
	for i := range 2 {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		}
		v = v<<4 | c
	}
	return v
}

func isUnreserved(c byte) bool {
	return strings.IndexByte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~", c) >= 0
}

// fuzzSeeds are the seeds of the fuzzers: the tables' inputs, and inputs
// that probe the limits.
func fuzzSeeds() []string {
	seeds := append([]string{}, propertyBases...)
	seeds = append(seeds, propertyRefs()[:200]...)
	return append(seeds,
		"",                          // the empty reference
		"%",                         // not a reference
		"http://a b/",               // not a reference
		"\xff",                      // not UTF-8
		strings.Repeat("../", 1000), // many dot segments
		"a:"+strings.Repeat("/..", 500)+"//x", // the guard, deep
	)
}

// FuzzResolve resolves, relativizes and normalizes arbitrary text against
// arbitrary bases: nothing panics, every target is a URI with a scheme that
// parses back into itself and is its own target, Relativize inverts
// Reference, and normalization has its properties.
func FuzzResolve(f *testing.F) {
	seeds := fuzzSeeds()
	for i, b := range propertyBases {
		for j, r := range seeds {
			if (i+j)%7 == 0 {
				f.Add(b, r)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b, r string) {
		got, err := resolve.ResolveString(b, r, resolve.Strict)
		_, _ = resolve.ResolveString(b, r, resolve.NonStrict)
		base, errb := parser.ParseReference(b)
		ref, errr := parser.ParseReference(r)
		if errb != nil || errr != nil || !base.HasScheme() {
			if err == nil {
				t.Fatalf("ResolveString(%q, %q) = %q, want an error", b, r, got)
			}
			return
		}
		target, ok := checkResolve(t, base, ref)
		if ok && got != target.String() {
			t.Errorf("ResolveString(%q, %q) = %q, but Resolve gives %q", b, r, got, target)
		}
	})
}

// FuzzNormalize normalizes arbitrary text by every set of steps: nothing
// panics, every result is a fixed point that parses back into itself,
// Equal is reflexive and symmetric and holds between an input and its
// normal forms, and normalizing a reference preserves its targets' normal
// form.
func FuzzNormalize(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s, "http://example.com/")
	}
	var bases []parser.URI
	for _, s := range propertyBases {
		bases = append(bases, mustParse(f, s))
	}
	f.Fuzz(func(t *testing.T, s, other string) {
		_, _ = resolve.NormalizeString(s, resolve.NormalizeDefault)
		u, err := parser.ParseReference(s)
		if err != nil {
			return
		}
		for _, steps := range allSteps() {
			checkNormalize(t, u, steps)
		}
		checkNormalizeAll(t, u, bases)
		v, err := parser.ParseReference(other)
		if err != nil {
			return
		}
		for _, l := range []resolve.Level{resolve.CompareSimple, resolve.CompareSyntax, resolve.CompareScheme} {
			if resolve.Equal(u, v, l) != resolve.Equal(v, u, l) {
				t.Errorf("Equal(%q, %q, %v) is not symmetric", u, v, l)
			}
		}
		// Equivalent references resolve to equivalent targets (§6.1),
		// against bases where relative references keep their meaning.
		if !resolve.Equal(u, v, resolve.CompareScheme) {
			return
		}
		for _, base := range bases {
			if !hierarchical(base) {
				continue
			}
			tu, err1 := resolve.Resolve(base, u, resolve.Strict)
			tv, err2 := resolve.Resolve(base, v, resolve.Strict)
			if err1 == nil && err2 == nil && !resolve.Equal(tu, tv, resolve.CompareScheme) {
				t.Errorf("Equal(%q, %q, CompareScheme), but against %q their targets %q and %q are not", u, v, base, tu, tv)
			}
		}
	})
}

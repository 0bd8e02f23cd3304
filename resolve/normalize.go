package resolve

import (
	"maps"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/peguri/rfc3986/internal/ipv6text"
	"github.com/peguri/rfc3986/internal/urilayout"
	"github.com/peguri/rfc3986/parser"
)

// Steps is a set of normalization steps (RFC 3986 §6.2.2 and §6.2.3), for
// [Normalize] and [Normalizer]. Whatever the set, the steps apply in the
// order of the constants below: decoding comes before case normalization
// and dot-segment removal, so that their results need no second pass.
type Steps uint

const (
	// NormalizeCase is case normalization (§6.2.2.1): the scheme and the
	// host, IPv6 and IPvFuture literals included, to lowercase, and the
	// hexadecimal digits of every percent-encoding, in every component, to
	// uppercase ("%3a" becomes "%3A"). Nothing else changes case: "the
	// other generic syntax components are assumed to be case-sensitive".
	NormalizeCase Steps = 1 << iota
	// NormalizePercent is percent-encoding normalization (§6.2.2.2):
	// percent-encoded octets of unreserved characters (§2.3: ALPHA /
	// DIGIT / "-" / "." / "_" / "~") are decoded in the userinfo, host,
	// path, query and fragment, but for the last dot of a path segment
	// that would decode to "." or "..": "%2E" stays "%2E" and "%2E%2E",
	// ".%2E" and "%2E." are ".%2E", so that no dot segment appears that
	// resolution (§5.2.4) would not remove. Nothing else is decoded,
	// reserved characters and "%" itself least of all, and nothing else is
	// encoded.
	NormalizePercent
	// NormalizeDotSegments is path segment normalization (§6.2.2.3): the
	// path of a reference with a scheme or an absolute path goes through
	// [RemoveDotSegments]; a relative-path reference loses its "."
	// segments and "segment/.." pairs but keeps leading ".." segments, and
	// is "./" when nothing else is left (see the package documentation).
	NormalizeDotSegments
	// NormalizeSchemeBased is scheme-based normalization (§6.2.3) with
	// the rules of a [Schemes] table: the port is removed when it is empty
	// (§3.2.3, any scheme) or the scheme's default, and an empty path
	// with an authority becomes "/" where the scheme says so.
	NormalizeSchemeBased
	// NormalizeIPv6Canonical rewrites an IPv6 literal host in the text of
	// RFC 5952 (§4: lowercase, leading zeros dropped, the longest run of
	// zero fields compressed to "::"), as net/netip's Addr.String does,
	// with §5's mixed notation for the addresses that embed IPv4 by a
	// well-known prefix of RFC 4291 and RFC 2765: IPv4-mapped
	// ("::ffff:192.0.2.1", RFC 4291 §2.5.5.2) and IPv4-translated
	// ("::ffff:0:192.0.2.1", RFC 2765 §2.1). The deprecated
	// IPv4-compatible prefix ::/96 (RFC 4291 §2.5.5.1) is written in
	// hexadecimal ("::102:304", and "::" and "::1" as themselves), as
	// net/netip writes it: its addresses include "::" and "::1", which
	// embed no IPv4. It is not part of RFC 3986 and not in
	// [NormalizeDefault]; IPv4 and IPvFuture hosts are left alone.
	NormalizeIPv6Canonical

	// NormalizeSyntax is syntax-based normalization (§6.2.2): case,
	// percent-encoding and dot segments.
	NormalizeSyntax = NormalizeCase | NormalizePercent | NormalizeDotSegments
	// NormalizeDefault is syntax-based and scheme-based normalization
	// (§6.2.2 and §6.2.3), the normal form [CompareScheme] compares.
	NormalizeDefault = NormalizeSyntax | NormalizeSchemeBased
)

var stepNames = []string{"NormalizeCase", "NormalizePercent", "NormalizeDotSegments", "NormalizeSchemeBased", "NormalizeIPv6Canonical"}

// String returns the steps' names joined by "|", such as
// "NormalizeCase|NormalizePercent"; "0" for no step.
func (s Steps) String() string {
	if s == 0 {
		return "0"
	}
	var names []string
	for i, name := range stepNames {
		if s&(1<<i) != 0 {
			names = append(names, name)
			s &^= 1 << i
		}
	}
	if s != 0 {
		names = append(names, "0x"+strings.ToUpper(strconv.FormatUint(uint64(s), 16)))
	}
	return strings.Join(names, "|")
}

// Scheme holds what scheme-based normalization (§6.2.3) knows of a scheme.
type Scheme struct {
	// DefaultPort is the port a URI of the scheme has when it names none,
	// in decimal; "" if the scheme has no default.
	DefaultPort string
	// EmptyPathSlash says that an empty path after an authority means "/"
	// (§6.2.3: "defines an empty path to be equivalent to "/"").
	EmptyPathSlash bool
}

// Schemes is a table of what scheme-based normalization knows, by scheme
// name (compared case-insensitively, as §3.1 says schemes are). A Schemes
// is immutable: [Schemes.With] returns a new table and leaves its receiver
// alone, and [NewSchemes] copies its map. So one table, [DefaultSchemes]
// included, may serve any number of goroutines while others build their
// own. The zero Schemes knows no scheme.
type Schemes struct {
	m map[string]Scheme // never written after the table is built
}

var defaultSchemes = NewSchemes(map[string]Scheme{
	"http":  {DefaultPort: "80", EmptyPathSlash: true},  // RFC 9110 §4.2.1
	"https": {DefaultPort: "443", EmptyPathSlash: true}, // RFC 9110 §4.2.2
	"ws":    {DefaultPort: "80", EmptyPathSlash: true},  // RFC 6455 §3
	"wss":   {DefaultPort: "443", EmptyPathSlash: true}, // RFC 6455 §3
	"ftp":   {DefaultPort: "21", EmptyPathSlash: true},  // RFC 1738 §3.2
})

// DefaultSchemes returns the table [Normalize] uses: http and https
// (RFC 9110 §4.2), ws and wss (RFC 6455 §3), ftp (RFC 1738 §3.2), each with
// its default port and an empty path that means "/". Add to it with
// [Schemes.With].
func DefaultSchemes() Schemes { return defaultSchemes }

// NewSchemes returns a table of the schemes of m, by name. It copies m:
// changing m afterwards does not change the table. Names are
// case-insensitive (§3.1): where m spells one scheme several ways, the
// rules of its lower-case spelling apply, or else of the spelling that
// sorts last.
func NewSchemes(m map[string]Scheme) Schemes {
	c := make(map[string]Scheme, len(m))
	// In sorted order, so that the same m makes the same table (a map's
	// order changes from run to run); a lower-case name sorts after every
	// other spelling of it.
	for _, name := range slices.Sorted(maps.Keys(m)) {
		c[lowerASCII(name)] = m[name]
	}
	return Schemes{m: c}
}

// With returns a new table: s, with the rules of the named scheme set to
// sc. s itself does not change.
func (s Schemes) With(name string, sc Scheme) Schemes {
	c := make(map[string]Scheme, len(s.m)+1)
	for k, v := range s.m {
		c[k] = v
	}
	c[lowerASCII(name)] = sc
	return Schemes{m: c}
}

// Lookup returns the rules of the named scheme, and whether the table has
// them.
func (s Schemes) Lookup(name string) (Scheme, bool) {
	sc, ok := s.m[name]
	if !ok && name != lowerASCII(name) {
		sc, ok = s.m[lowerASCII(name)]
	}
	return sc, ok
}

// Names returns the names of the table's schemes, lowercase and sorted.
func (s Schemes) Names() []string {
	names := make([]string, 0, len(s.m))
	for k := range s.m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// Normalizer normalizes URIs by a set of [Steps], with a table of
// [Schemes] for scheme-based normalization, and compares them by their
// normal forms. It is a plain value: configure it by its fields, copy it
// freely, use it from any number of goroutines. The zero Normalizer applies
// no step, so its Equal is simple string comparison (§6.2.1). A Normalizer
// with the [NormalizeSchemeBased] step and the zero Schemes removes empty
// ports only (§3.2.3); give it [DefaultSchemes] for the rest.
//
// The package functions [Normalize] and [Equal] are Normalizers with
// [DefaultSchemes].
type Normalizer struct {
	Steps   Steps
	Schemes Schemes
}

// Normalize returns u normalized by n's steps; see [Steps] and the package
// documentation. The result parses back into the same components and is a
// fixed point: normalizing it again returns it unchanged. Unknown bits of
// the steps are ignored. The error, an [*ArgError] for the "result", comes
// only when the normal form is longer than [parser.MaxLength].
func (n Normalizer) Normalize(u parser.URI) (parser.URI, error) {
	if alreadyNormal(u, n.Steps, n.Schemes) {
		return u, nil // checked on the URI itself: no Parts to build and compare
	}
	p := u.Parts()
	np := normalizeParts(p, u.HostKind(), n.Steps, n.Schemes, strings.IndexByte(u.String(), '%') >= 0)
	if np == p {
		return u, nil // already normal: no need to parse again
	}
	if l := np.Len(); l > parser.MaxLength {
		return parser.URI{}, resultTooLong("the normal form", u.String(), l)
	}
	v, err := u.Parser().FromParts(np)
	if err != nil {
		// Not expected: the tests and fuzzers say it does not happen.
		return parser.URI{}, &ArgError{Arg: "result", Input: u.String(), Err: err}
	}
	return v, nil
}

// NormalizeString parses s as a URI-reference (§4.1), normalizes it as
// [Normalizer.Normalize] does, and returns the text. Text that does not
// parse is an [*ArgError] with Arg "reference" wrapping the
// [*parser.Error].
func (n Normalizer) NormalizeString(s string) (string, error) {
	u, err := parser.ParseReference(s)
	if err != nil {
		return "", &ArgError{Arg: "reference", Input: s, Err: err}
	}
	v, err := n.Normalize(u)
	if err != nil {
		return "", err
	}
	return v.String(), nil
}

// Normalize returns u normalized by the given steps, with
// [DefaultSchemes] for scheme-based normalization: the same as
// Normalizer{Steps: steps, Schemes: DefaultSchemes()}.Normalize(u).
func Normalize(u parser.URI, steps Steps) (parser.URI, error) {
	return Normalizer{Steps: steps, Schemes: defaultSchemes}.Normalize(u)
}

// NormalizeString parses s and normalizes it by the given steps, with
// [DefaultSchemes]; see [Normalizer.NormalizeString].
func NormalizeString(s string, steps Steps) (string, error) {
	return Normalizer{Steps: steps, Schemes: defaultSchemes}.NormalizeString(s)
}

// alreadyNormal reports, for the steps of NormalizeDefault, that
// normalizeParts would return u's components as they are; false when it
// cannot tell so cheaply (a "%", another step), and Normalize then takes
// the general path. It reads u's text and offsets and allocates nothing,
// so that a URI already in normal form, the common case, costs about a
// parse. FuzzAlreadyNormal holds it to normalizeParts.
func alreadyNormal(u parser.URI, steps Steps, schemes Schemes) bool {
	if steps&^NormalizeDefault != 0 {
		return false
	}
	var v view // u's components, without a copy of u per accessor
	v.load(&u)
	// Percent-encoding normalization and the case of percent-encodings:
	// nothing to do without a "%".
	if steps&(NormalizePercent|NormalizeCase) != 0 && strings.IndexByte(v.text, '%') >= 0 {
		return false
	}
	if steps&NormalizeCase != 0 && (hasUpper(v.scheme()) || hasUpper(v.host())) {
		return false
	}
	path := v.path()
	hasAuth := v.has(urilayout.Authority)
	if steps&NormalizeDotSegments != 0 && path != "" {
		if v.has(urilayout.Scheme) || path[0] == '/' {
			// normalizeDots: RemoveDotSegments, then guard.
			if hasDotSegment(path) || !hasAuth && strings.HasPrefix(path, "//") {
				return false
			}
		} else if hasDotSegment(path) && !leadingDotDotsOnly(path) {
			return false
		}
	}
	if hasPort := v.has(urilayout.Port); steps&NormalizeSchemeBased != 0 && hasAuth && (hasPort || path == "") {
		sc, known := schemes.Lookup(v.scheme())
		known = known && v.has(urilayout.Scheme)
		if hasPort && (v.port() == "" || known && samePort(v.port(), sc.DefaultPort)) {
			return false
		}
		if known && sc.EmptyPathSlash && path == "" {
			return false
		}
	}
	return true
}

// hasUpper reports whether s has an ASCII uppercase letter.
func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			return true
		}
	}
	return false
}

// normalizeParts normalizes p, the components of a URI whose host is of
// the given kind; pct says whether the URI's text has a "%". The percent
// steps look for one in five components each; a URI without any, the
// common case, skips them after one search of its text (the ten searches
// were a third of the cost of normalizing a URI that needs no change).
func normalizeParts(p parser.Parts, kind parser.HostKind, steps Steps, schemes Schemes, pct bool) parser.Parts {
	if !pct {
		steps &^= NormalizePercent
	}
	if steps&NormalizePercent != 0 {
		// §6.2.2.2. The scheme and port cannot hold a percent-encoding.
		p.Userinfo = decodeUnreserved(p.Userinfo)
		p.Host = decodeUnreserved(p.Host)
		p.Path = decodePath(p.Path)
		p.Query = decodeUnreserved(p.Query)
		p.Fragment = decodeUnreserved(p.Fragment)
	}
	if steps&NormalizeCase != 0 {
		// §6.2.2.1.
		p.Scheme = lowerASCII(p.Scheme)
		p.Host = lowerHost(p.Host)
		if pct {
			p.Host = upperPercent(p.Host)
			p.Userinfo = upperPercent(p.Userinfo)
			p.Path = upperPercent(p.Path)
			p.Query = upperPercent(p.Query)
			p.Fragment = upperPercent(p.Fragment)
		}
	}
	if steps&NormalizeDotSegments != 0 {
		// §6.2.2.3.
		p.Path = normalizeDots(p)
	}
	if steps&NormalizeSchemeBased != 0 && p.HasAuthority {
		// §6.2.3.
		s, known := schemes.Lookup(p.Scheme)
		known = known && p.HasScheme
		// §3.2.3: "URI producers and normalizers should omit the port
		// component and its ":" delimiter if port is empty or if its value
		// would be the same as that of the scheme's default."
		if p.HasPort && (p.Port == "" || known && samePort(p.Port, s.DefaultPort)) {
			p.Port, p.HasPort = "", false
		}
		if known && s.EmptyPathSlash && p.Path == "" {
			p.Path = "/"
		}
	}
	if steps&NormalizeIPv6Canonical != 0 && kind == parser.HostIPv6 && len(p.Host) > 2 {
		// RFC 5952 §4 and §5 (ipv6text.Text); a zone (RFC 6874: "%25" and the
		// zone ID) is kept as written.
		addr, zone, _ := strings.Cut(p.Host[1:len(p.Host)-1], "%25")
		if a, err := netip.ParseAddr(addr); err == nil && a.Is6() && a.Zone() == "" {
			if zone != "" || strings.Contains(p.Host, "%25") {
				zone = "%25" + zone
			}
			p.Host = "[" + ipv6text.Text(a) + zone + "]"
		}
	}
	return p
}

// lowerHost is §6.2.2.1's case normalization of a host, with RFC 3987
// §5.3.2.1's restriction: a host is lowercased only when it is all ASCII
// (a reg-name of an IRI with other characters is an IDN, whose case is
// IDNA's business); and the zone ID of an IPv6 literal (RFC 6874), which
// names an interface, keeps its case.
func lowerHost(h string) string {
	for i := 0; i < len(h); i++ {
		if h[i] >= 0x80 {
			return h
		}
	}
	if strings.HasPrefix(h, "[") {
		if i := strings.Index(h, "%25"); i >= 0 {
			return lowerASCII(h[:i]) + h[i:]
		}
	}
	return lowerASCII(h)
}

// normalizeDots is §6.2.2.3 on p's path.
func normalizeDots(p parser.Parts) string {
	switch {
	case p.Path == "":
		return ""
	case p.HasScheme || p.Path[0] == '/':
		// A path after an authority is empty or absolute, so this covers
		// every reference but relative-path ones. §5.2.2 applies
		// remove_dot_segments to exactly these paths when it resolves the
		// reference, so removing them here changes no target.
		p.Path = RemoveDotSegments(p.Path)
		return guard(p)
	default:
		return relativeDots(p.Path)
	}
}

// relativeDots removes the dot segments of a relative-path reference's path
// that do not climb above the base: "." segments and "segment/.." pairs.
// Leading ".." segments stay, since remove_dot_segments(merge(base, path))
// consumes them against the base's path: "a/../../b" is "../b", not "b".
// A trailing "." or ".." leaves a trailing "/", as remove_dot_segments
// does ("a/." is "a/"). A first segment that is empty or contains ":" gets
// "./" in front (§4.2: a relative-path reference's first segment cannot
// contain a colon, and an empty one would make the path absolute), and the
// empty result is "./", which resolves to the base's directory, as the
// input did, where "" would be the base itself (§4.4).
func relativeDots(path string) string {
	if !hasDotSegment(path) || leadingDotDotsOnly(path) {
		return path
	}
	segs := strings.Split(path, "/")
	out := segs[:0] // in place: out never grows past the segment being read
	for i, s := range segs {
		last := i == len(segs)-1
		switch s {
		case ".":
			if last {
				out = append(out, "")
			}
		case "..":
			if len(out) > 0 && out[len(out)-1] != ".." {
				out = out[:len(out)-1]
			} else {
				out = append(out, "..")
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	r := strings.Join(out, "/")
	if len(out) == 0 || out[0] == "" || strings.Contains(out[0], ":") {
		r = "./" + r
	}
	return r
}

// leadingDotDotsOnly reports whether relativeDots leaves path as it is,
// without splitting it (which allocates): its only dot segments are ".."
// segments at its front, followed by a segment that is not a dot segment
// ("../../g", the normal form of such references).
func leadingDotDotsOnly(path string) bool {
	leading := true
	for rest := path; ; {
		seg, tail, more := strings.Cut(rest, "/")
		switch {
		case seg == ".":
			return false
		case seg == "..":
			if !leading || !more {
				return false // a pair to drop, or a trailing ".." that gains a "/"
			}
		default:
			leading = false
		}
		if !more {
			return true
		}
		rest = tail
	}
}

// samePort reports whether two decimal port numbers are the same number,
// however many leading zeros they have. A default of "" matches nothing.
func samePort(port, def string) bool {
	if def == "" {
		return false
	}
	return trimZeros(port) == trimZeros(def)
}

func trimZeros(s string) string {
	t := strings.TrimLeft(s, "0")
	if t == "" && s != "" {
		return "0"
	}
	return t
}

// isUnreserved reports whether c is unreserved (§2.3):
//
//	unreserved  = ALPHA / DIGIT / "-" / "." / "_" / "~"
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// pctAt returns the octet encoded at s[i:i+3], if s[i] starts a
// pct-encoded triplet (§2.1).
func pctAt(s string, i int) (byte, bool) {
	if s[i] != '%' || i+2 >= len(s) {
		return 0, false
	}
	hi, ok1 := unhex(s[i+1])
	lo, ok2 := unhex(s[i+2])
	return hi<<4 | lo, ok1 && ok2
}

// decodeUnreserved decodes the percent-encoded octets of s that are
// unreserved characters (§2.3: they "should be decoded by URI normalizers")
// and leaves everything else as it is. It returns s itself when there is
// nothing to decode.
func decodeUnreserved(s string) string {
	i := strings.IndexByte(s, '%')
	if i < 0 {
		return s
	}
	var b []byte
	for ; i < len(s); i++ {
		if c, ok := pctAt(s, i); ok && isUnreserved(c) {
			if b == nil {
				b = append(make([]byte, 0, len(s)), s[:i]...)
			}
			b = append(b, c)
			i += 2
			continue
		}
		if b != nil {
			b = append(b, s[i])
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

// decodePath is decodeUnreserved on a path, but for a segment that would
// decode to "." or "..": §5.2.4 takes only the complete segments "." and
// ".." for dot segments, so that "%2E" and ".%2E" are names to
// resolution, and decoding them would make dot segments that §6.2.2.3
// then removes, a normal form that resolves to another target than the
// reference ("%2E/.." resolves to the base's directory, "./.." to its
// parent). Such a segment is decoded but for its last dot, "%2E" or
// ".%2E" (in the uppercase of §6.2.2.1; "%2E%2E", ".%2e" and "%2E." are
// all ".%2E", so that Equal finds them equivalent), and so stays a name:
// normalization never makes a dot segment, and never lengthens one.
func decodePath(path string) string {
	if !hasPctDot(path) {
		return decodeUnreserved(path)
	}
	var b strings.Builder
	b.Grow(len(path))
	for i, seg := range strings.Split(path, "/") {
		if i > 0 {
			b.WriteByte('/')
		}
		switch d := decodeUnreserved(seg); {
		case d != seg && d == ".":
			b.WriteString("%2E")
		case d != seg && d == "..":
			b.WriteString(".%2E")
		default:
			b.WriteString(d)
		}
	}
	return b.String()
}

// hasPctDot reports whether s has a "%2E" or "%2e": whether decodePath
// needs to look at its segments.
func hasPctDot(s string) bool {
	for i := strings.IndexByte(s, '%'); i >= 0 && i+2 < len(s); {
		if s[i+1] == '2' && (s[i+2] == 'E' || s[i+2] == 'e') {
			return true
		}
		k := strings.IndexByte(s[i+1:], '%')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return false
}

// upperPercent writes the hexadecimal digits of the percent-encodings of s
// in uppercase (§6.2.2.1); it returns s itself when they already are.
func upperPercent(s string) string {
	var b []byte
	for i := strings.IndexByte(s, '%'); i >= 0 && i+2 < len(s); {
		for j := i + 1; j <= i+2; j++ {
			if c := s[j]; 'a' <= c && c <= 'f' {
				if b == nil {
					b = []byte(s)
				}
				b[j] = c - 'a' + 'A'
			}
		}
		k := strings.IndexByte(s[i+3:], '%')
		if k < 0 {
			break
		}
		i += 3 + k
	}
	if b == nil {
		return s
	}
	return string(b)
}

// lowerASCII returns s with ASCII letters in lowercase; s itself when it has
// none in uppercase. Hosts and schemes are ASCII (the parser accepts no
// other byte).
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; 'A' <= c && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

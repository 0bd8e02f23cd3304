// Package resolve implements RFC 3986 §5, reference resolution, and §6,
// normalization and comparison, on the URIs of package parser.
//
// # Resolution
//
// [Resolve] transforms a URI reference into its target URI against a base
// URI, following the pseudocode of §5.2.2 line by line, with the merge of
// §5.2.3 ([Merge]) and the remove_dot_segments of §5.2.4
// ([RemoveDotSegments]), then recomposes the result (§5.3). Its [Mode] is
// [Strict], the RFC's, or [NonStrict], the backward-compatible variant of
// §5.2.2 that ignores a reference's scheme when it is the base's.
// [ResolveString] does the same on text. [Relativize] is the inverse: the
// shortest reference that resolves to a given target.
//
// Resolution writes the target once, with one allocation. In RFC 3986 the
// target parses into the components §5.2.2 computed by construction (the
// proof is in resolve.go, and FuzzResolveShortcut holds every such target
// to the parse of its text); in another grammar (an IRI, a URI with a zone
// identifier, a grammar of one's own) it is checked with that grammar's
// URI DFA, which validates and splits it without allocating: at the cost
// of a scan, not of a parse tree. A target that is the reference itself (a
// reference with a scheme and no dot segment: an absolute link) is that
// URI, and so is the base without its fragment for the empty reference in
// RFC 3986: they cost no allocation.
//
// The base must have a scheme (§5.1: "A base URI must conform to the
// <absolute-URI> syntax rule"). A base with a fragment is accepted and its
// fragment ignored, as §5.1 prescribes for a base obtained from a reference
// ("stripped of any fragment component prior to its use as a base URI").
// That is how this package reads §5.1, everywhere: the conversion §5.1
// asks of a base obtained from a reference is done where it needs nothing
// but the base (its fragment is dropped), and a base that has no scheme is
// an error, since its absolute form depends on a base of its own.
//
// Resolution treats only the complete segments "." and ".." as dot
// segments, as the RFC's algorithm does (§5.2.4): a segment "%2E" or
// "%2E%2E" is a name, which a following ".." removes. Normalization
// agrees: it decodes "%2E" as every unreserved character (§6.2.2.2) but
// in a path segment that decoding would turn into a dot segment, whose
// last dot stays encoded ("%2E", ".%2E"). Decoding it would make a dot
// segment that §6.2.2.3 then removes, and the normal form would name
// another target than the URI: "http://a/b/%2E%2E/../c" resolves to
// "http://a/b/c", and so normalizes; decoding first would give
// "http://a/c". §6.2.2.3 removes the segments "." and ".." since they
// "are removed as part of the reference resolution process", so
// normalization removes exactly what resolution removes, and Normalize
// never changes the target of a reference against a base with an
// authority or a "/" in its path (see below). A WHATWG URL parser, which
// takes "%2e" for ".", reads such URIs otherwise, both ways: it takes
// "http://a/b/%2E/c" for "http://a/b/c", which [Equal] does not, and
// "http://a/b/%2E%2E/../c" for "http://a/c", where [Equal] finds it
// equivalent to "http://a/b/c". [Equal]'s equivalences are RFC 3986's
// (no false positive against §5's resolution, §6.1); a program that
// compares URLs a browser will fetch must compare as the browser reads.
//
// # Traces
//
// [TraceResolve] resolves as [Resolve] does and returns a [Trace]: the
// components of the base and the reference, each step of §5.2.2's
// pseudocode that ran (the lines, and T after the step), §5.2.3's merge,
// and §5.2.4's remove_dot_segments as the RFC's own table for
// "/a/b/c/./../../g" shows it ([RemoveDotSegmentsTrace]). Its components
// come from a second, literal reading of the pseudocode, which the tests
// hold to Resolve's target. [Normalizer.Explain] and [ExplainNormalize]
// list each step of §6.2.2 and §6.2.3 that changed a component, with
// before and after.
//
// # The one deviation: paths that would read as an authority
//
// §3.3 says: "If a URI does not contain an authority component, then the
// path cannot begin with two slash characters ("//")." Yet the letter of
// §5.2 can produce exactly that: against the base "a:/b", the reference
// "..//c" merges to "/..//c", which remove_dot_segments turns into "//c",
// and §5.3 recomposes "a://c": a URI whose authority is "c" and whose path
// is empty, not the target the algorithm computed. So when the target has
// no authority and its path begins with "//", this package writes "/." in
// front of the path: "a:/.//c" parses back into the components §5.2
// computed (remove_dot_segments("/.//c") is "//c" again), and resolving or
// normalizing it again gives it back unchanged. Every result of this
// package is therefore a valid URI reference that parses into the
// components it was built from; every result is checked by the parser's
// DFA, and if that ever failed, the function would return an error rather
// than a wrong value.
//
// # Normalization and comparison
//
// A [Normalizer] applies any set of the normalization [Steps] of §6.2.2
// and §6.2.3: [NormalizeCase], [NormalizePercent], [NormalizeDotSegments],
// [NormalizeSchemeBased], plus the opt-in [NormalizeIPv6Canonical];
// [NormalizeSyntax] is §6.2.2 and [NormalizeDefault] adds §6.2.3.
// Scheme-based normalization reads the Normalizer's own table of
// [Schemes], an immutable value: there is no global to configure, and any
// number of goroutines may normalize with any tables. [Normalize] and
// [Equal] use [DefaultSchemes]. Normalization is idempotent, never decodes
// a reserved character or "%" itself, never makes a dot segment, encodes
// nothing but the last dot of a path segment of two dots of which one was
// encoded ("%2E." is ".%2E", one spelling for "%2E%2E", ".%2E" and
// "%2E."), and its result parses back into the same components. [Equal] climbs the
// comparison ladder of §6.2 to a given [Level].
//
// Where the RFC leaves a choice, this package decides as follows.
//
//   - Steps apply in the order Percent, Case, DotSegments, SchemeBased,
//     IPv6Canonical, so that one pass suffices: decoding "%41" in a host
//     yields "A", which case normalization then lowercases. Decoding never
//     yields a dot segment for dot-segment removal to remove: a path
//     segment that would decode to "." or ".." keeps its last dot encoded
//     ("%2e" is "%2E", "%2E%2E" is ".%2E"), a name to §5.2.4, as it is to
//     resolution.
//   - Dot segments in a relative-path reference (no scheme, no authority,
//     a path not beginning with "/") are not given to remove_dot_segments,
//     which would drop their leading ".." and so change their meaning:
//     "." segments and "segment/.." pairs are removed, leading ".." kept
//     ("a/../../b" becomes "../b"). A path that reduces to the current
//     directory becomes "./", never "" (the empty reference is the
//     current document, §4.4, not its directory): "a/.." and "." both
//     become "./". A "./" is kept or added in front of a first segment
//     that contains ":" or is empty, so that the result does not read as a
//     scheme or an absolute path. The result resolves to the same target
//     as the input (the same after normalizing both targets; "%2E/.."
//     becomes "./", since resolution takes "%2E" for a name that ".."
//     removes) against any base with an authority or a "/" in its
//     path; against a base like "urn:x", whose path is rootless and has no
//     "/", remove_dot_segments turns the merged "x/../y" into "/y", not
//     "y" (§6.1 advises comparing target URIs, not references).
//   - Scheme-based normalization removes an empty port from any authority,
//     as §3.2.3 says of every scheme ("URI producers and normalizers should
//     omit the port component and its ":" delimiter if port is empty"), and
//     a default port only for the schemes in its table, comparing ports as
//     decimal numbers ("080" is port 80). Other ports keep their leading
//     zeros.
//
// [Equal] at [CompareSimple] compares the text; at [CompareSyntax] and
// [CompareScheme] it compares the results of [Normalize] with
// [NormalizeSyntax] and [NormalizeDefault].
//
// The names, signatures and defaults of this package are those of the
// facade, package rfc3986.
package resolve

package main

// boundaryCases are inputs written for the suite at the edges of Appendix
// A's rules: for each rule, inputs just inside and just outside it. The
// answers are not written here: the ABNF matcher gives them, and the tests
// check that the parser agrees.
var boundaryCases = []struct {
	rule   string
	note   string
	inputs []string
}{
	// §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
	{"scheme", "§3.1: a scheme begins with a letter, then letters, digits, \"+\", \"-\", \".\"", []string{"a", "A", "a+-.9", "9a", "+a", "", "a_b", "a b"}},
	{"URI", "§3.1: the scheme ends at the first \":\"; a scheme is required", []string{"a:", "a:b:c", "1a:b", ":b", "a", "-:b"}},
	// §3.2: authority = [ userinfo "@" ] host [ ":" port ]
	{"authority", "§3.2: neither userinfo nor host can hold \"@\", so a second one fails; the port is digits", []string{"", "@", "a@b", "a:b@c:1", "a@b@c", ":", "a:", "a:1:2"}},
	{"userinfo", "§3.2.1: userinfo may hold \":\" (deprecated user:password), not \"@\"", []string{"", "a:b:c", "%41", "a@b", "%4", "[", "a b"}},
	// §3.2.2 host
	{"host", "§3.2.2: IPv4address wins over reg-name; 1.2.3.4.5 and 256.1.1.1 are reg-names", []string{"1.2.3.4", "1.2.3.4.5", "256.1.1.1", "01.2.3.4", "1.2.3", "", "[::1]", "[::1", "::1", "[v1.x]", "a%20b", "a%2", "[", "]"}},
	{"IPv4address", "§3.2.2: four dec-octets 0-255 without leading zeros", []string{"0.0.0.0", "255.255.255.255", "256.0.0.0", "00.0.0.0", "1.2.3", "1.2.3.4.", "1.2.3.4.5", "1..2.3", "249.250.199.100"}},
	{"dec-octet", "§3.2.2: dec-octet is 0-9, 10-99, 100-199, 200-249, 250-255", []string{"0", "9", "10", "99", "100", "199", "200", "249", "250", "255", "256", "260", "300", "01", "001", "1000", ""}},
	{"IPv6address", "§3.2.2: eight h16, \"::\" for one or more groups of zeros, the last 32 bits possibly dotted", []string{
		"1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "::", ":::", "::1", "1::", "1::2::3",
		"::1.2.3.4", "::ffff:1.2.3.4", "1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:7:1.2.3.4", "::1.2.3.4.5", "::1.2.3",
		"1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8", "12345::", "1:2:3:4:5::1.2.3.4", ":1::", "1:", "fe80::1%25eth0", "FFFF::abcd"}},
	{"h16", "§3.2.2: h16 is one to four hexadecimal digits", []string{"0", "ffff", "FFFF", "12345", "", "g"}},
	{"ls32", "§3.2.2: ls32 is two h16 or an IPv4address", []string{"1:2", "1.2.3.4", "1:2:3", "1", "1.2.3.4:1"}},
	{"IP-literal", "§3.2.2: brackets around an IPv6address or an IPvFuture; no zone ID in RFC 3986 (RFC 6874 adds it)", []string{"[::]", "[v1.x]", "[V1.x]", "[v.x]", "[v1.]", "[vg.x]", "[::1%25eth0]", "[]", "[1.2.3.4]", "[::1"}},
	{"IPvFuture", "§3.2.2: \"v\" 1*HEXDIG \".\" 1*( unreserved / sub-delims / \":\" )", []string{"v1.a", "vF.a:b!$", "v1.", "v.a", "vx.a", "v1.a/b", "v12345678.x"}},
	{"reg-name", "§3.2.2: unreserved, pct-encoded, sub-delims; may be empty", []string{"", "example.com", "a-b_c~d", "a%20b", "%zz", "a:b", "a@b", "a/b", "ü"}},
	{"port", "§3.2.3: port is *DIGIT: empty, any number of digits, no sign", []string{"", "0", "80", "65536", "99999999", "-1", "8a", " 80"}},
	// §3.3 paths
	{"path-abempty", "§3.3: begins with \"/\" or is empty", []string{"", "/", "//", "/a/b", "a", "/a b"}},
	{"path-absolute", "§3.3: begins with \"/\" but not \"//\"", []string{"/", "/a", "/a/", "//a", "", "a"}},
	{"path-noscheme", "§3.3: the first segment has no \":\"", []string{"a", "a/b:c", "a:b", ":", "./a:b", "/a"}},
	{"path-rootless", "§3.3: begins with a segment, not \"/\"", []string{"a", "a:b", "a/", "/a", ""}},
	{"path-empty", "§3.3: zero characters", []string{"", "a", "/"}},
	{"segment", "§3.3: *pchar", []string{"", "a:@!$&'()*+,;=", "a/b", "a?b", "%2F", "%2", "[a]"}},
	{"segment-nz", "§3.3: 1*pchar", []string{"a", "", ":"}},
	{"segment-nz-nc", "§3.3: 1*( unreserved / pct-encoded / sub-delims / \"@\" ), no \":\"", []string{"a@b", "a:b", ""}},
	{"pchar", "§3.3: unreserved / pct-encoded / sub-delims / \":\" / \"@\"", []string{"a", ":", "@", "%20", "/", "?", "#", "[", " ", "%"}},
	// §3.4, §3.5
	{"query", "§3.4: pchar, \"/\" and \"?\"; \"#\" ends it", []string{"", "a=b&c=d", "/?:@", "a#b", "a b", "[]", "%"}},
	{"fragment", "§3.5: the same characters as query", []string{"", "a/b?c", "a#b", "%", "^"}},
	// §2
	{"pct-encoded", "§2.1: \"%\" and two hexadecimal digits, either case", []string{"%00", "%fF", "%g0", "%0", "%", "%000"}},
	{"unreserved", "§2.3: ALPHA / DIGIT / \"-\" / \".\" / \"_\" / \"~\"", []string{"a", "-", ".", "_", "~", "!", "%", " "}},
	{"reserved", "§2.2: gen-delims / sub-delims", []string{":", "/", "?", "#", "[", "]", "@", "!", "=", "a", "%"}},
	{"gen-delims", "§2.2", []string{":", "@", "!"}},
	{"sub-delims", "§2.2", []string{"!", "$", "&", "'", "(", ")", "*", "+", ",", ";", "=", ":", "\""}},
	// §4
	{"URI-reference", "§4.1: a URI or a relative reference; the empty string is one", []string{"", "#", "?", "//", "///", "a:", "./a:b", "a:b", "http://a b/", "http://[::1.2.3.4.5]/", "%", "http://a/%zz", "http://a:80:80/", "\\", "http://a/b c"}},
	{"relative-ref", "§4.2: no scheme; a first segment with \":\" needs \"./\"", []string{"", "a:b", "./a:b", "//a", "//a:b@c:1/d?e#f", "?#", "a"}},
	{"relative-part", "§4.2", []string{"//a/b", "/a", "a", "", ":a"}},
	{"absolute-URI", "§4.3: a URI without a fragment", []string{"a:b", "a:b?c", "a:b#c", "a:#"}},
	{"hier-part", "§3: \"//\" authority path-abempty, or a path", []string{"//a/b", "/a", "a", "", "//a b"}},
	{"path", "§3.3: any of the five path forms", []string{"", "/a", "a", "a:b", "//a", "a?b"}},
	{"ALPHA", "RFC 5234 B.1: A-Z / a-z", []string{"a", "Z", "0", "é"}},
	{"DIGIT", "RFC 5234 B.1: 0-9", []string{"0", "9", "a"}},
	{"HEXDIG", "RFC 5234 B.1: DIGIT / A-F, case-insensitive in ABNF (RFC 5234 §2.3)", []string{"0", "a", "F", "g"}},
}

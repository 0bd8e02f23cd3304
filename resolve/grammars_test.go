package resolve_test

import (
	"errors"
	"testing"

	"github.com/peguri/rfc3986/parser"
	"github.com/peguri/rfc3986/parser/rfc3987"
	"github.com/peguri/rfc3986/parser/rfc6874"
	"github.com/peguri/rfc3986/resolve"
)

// Values of the extension grammars are first-class: resolution and
// normalization check what they compute in the grammar the arguments came
// from (the wider of the two: RFC 3986's is held by both extensions).

func parseWith(t testing.TB, p *parser.Parser, s string) parser.URI {
	t.Helper()
	u, err := p.Parse("", s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestResolveGrammars(t *testing.T) {
	rfc := parser.RFC3986()
	for _, tt := range []struct {
		why       string
		basep     *parser.Parser
		base      string
		refp      *parser.Parser
		ref, want string
		wantp     *parser.Parser
	}{
		// RFC 6874 §2: a zone is part of the host; §5.2.2 keeps the base's authority.
		{"zone base, URI reference", rfc6874.Parser(), "http://[fe80::1%25eth0]/a/b", rfc, "../c?q", "http://[fe80::1%25eth0]/c?q", rfc6874.Parser()},
		{"URI base, zone reference", rfc, "http://a/b", rfc6874.Parser(), "//[fe80::1%25en0]/x", "http://[fe80::1%25en0]/x", rfc6874.Parser()},
		// RFC 3987 §6.5: IRI references resolve as URI references do.
		{"IRI base, IRI reference", rfc3987.Parser(), "http://例え.jp/引き/x", rfc3987.Parser(), "y?é#ü", "http://例え.jp/引き/y?é#ü", rfc3987.Parser()},
		{"IRI base, URI reference", rfc3987.Parser(), "http://例え.jp/a/b", rfc, "../%7E", "http://例え.jp/%7E", rfc3987.Parser()},
		{"URI base, URI reference", rfc, "http://a/b/c", rfc, "d", "http://a/b/d", rfc},
	} {
		base, ref := parseWith(t, tt.basep, tt.base), parseWith(t, tt.refp, tt.ref)
		got, err := resolve.Resolve(base, ref, resolve.Strict)
		if err != nil || got.String() != tt.want || got.Parser() != tt.wantp {
			t.Errorf("%s: Resolve(%q, %q) = %q (%s), %v; want %q (%s)", tt.why, tt.base, tt.ref, got, got.Parser().Name(), err, tt.want, tt.wantp.Name())
		}
		if tr, err := resolve.TraceResolve(base, ref, resolve.Strict); err != nil || tr.Result != tt.want {
			t.Errorf("%s: TraceResolve = %q, %v", tt.why, tr.Result, err)
		}
	}
	// An IRI against a URI with a zone: neither grammar holds the other;
	// the reference is at fault.
	_, err := resolve.Resolve(parseWith(t, rfc6874.Parser(), "http://[fe80::1%25eth0]/"), parseWith(t, rfc3987.Parser(), "é"), resolve.Strict)
	var ae *resolve.ArgError
	if !errors.As(err, &ae) || ae.Arg != "reference" || !errors.Is(err, resolve.ErrGrammars) {
		t.Errorf("Resolve(zone base, IRI) = %v; want an ArgError for the reference wrapping ErrGrammars", err)
	}
}

func TestNormalizeGrammars(t *testing.T) {
	for _, tt := range []struct {
		why   string
		p     *parser.Parser
		in    string
		steps resolve.Steps
		want  string
	}{
		// RFC 6874 §2: the zone ID names an interface; its case is kept
		// while the address's hex digits are lowercased (§6.2.2.1).
		{"zone", rfc6874.Parser(), "HTTP://[FE80::1%25Eth0]:80/%7e", resolve.NormalizeDefault, "http://[fe80::1%25Eth0]/~"},
		{"zone, RFC 5952", rfc6874.Parser(), "http://[FE80:0:0:0::1%25Eth0]/", resolve.NormalizeDefault | resolve.NormalizeIPv6Canonical, "http://[fe80::1%25Eth0]/"},
		{"zone, RFC 5952 §5 (RFC 2765's prefix)", rfc6874.Parser(), "http://[::FFFF:0:0102:0304%25Eth0]/", resolve.NormalizeIPv6Canonical, "http://[::ffff:0:1.2.3.4%25Eth0]/"},
		// RFC 3987 §5.3.2.1: only a US-ASCII host is lowercased.
		{"IRI, non-ASCII host", rfc3987.Parser(), "HTTP://Bücher.Example/%7e/./a", resolve.NormalizeDefault, "http://Bücher.Example/~/a"},
		{"IRI, ASCII host", rfc3987.Parser(), "HTTP://Example.COM/é", resolve.NormalizeDefault, "http://example.com/é"},
		// RFC 3987 §5.3.2.3: percent-encoded unreserved characters (RFC
		// 3986 §2.3's) are decoded; an encoded UTF-8 character is not.
		{"IRI, percent-encoding", rfc3987.Parser(), "http://a/%7e%C3%A9", resolve.NormalizeSyntax, "http://a/~%C3%A9"},
	} {
		u := parseWith(t, tt.p, tt.in)
		got, err := resolve.Normalize(u, tt.steps)
		if err != nil || got.String() != tt.want || got.Parser() != tt.p {
			t.Errorf("%s: Normalize(%q) = %q, %v; want %q", tt.why, tt.in, got, err, tt.want)
		}
		if again, err := resolve.Normalize(got, tt.steps); err != nil || again != got {
			t.Errorf("%s: Normalize is not idempotent: %q, then %q, %v", tt.why, got, again, err)
		}
	}
}

func TestRelativizeGrammars(t *testing.T) {
	base := parseWith(t, rfc3987.Parser(), "http://例え.jp/a/b")
	target := parseWith(t, rfc3987.Parser(), "http://例え.jp/a/引き")
	r, err := resolve.Relativize(base, target)
	if err != nil || r.String() != "引き" {
		t.Errorf("Relativize = %q, %v; want 引き", r, err)
	}
}

// FuzzGrammars: any reference of an extension grammar resolves against a
// base of its grammar, and normalizes, without an error about the result;
// normalization is idempotent.
func FuzzGrammars(f *testing.F) {
	for _, s := range []string{"http://[fe80::1%25eth0]/a", "http://例え.jp/引き?é#ü", "../g", "", "//[::1%25x]", "a:b/./c/../d"} {
		f.Add(s)
	}
	bases := []parser.URI{
		parseWith(f, rfc6874.Parser(), "http://[fe80::1%25eth0]/b/c/d;p?q"),
		parseWith(f, rfc3987.Parser(), "http://例え.jp/b/c/d;p?q"),
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, base := range bases {
			ref, err := base.Parser().Parse("", s)
			if err != nil {
				continue
			}
			if _, err := resolve.Resolve(base, ref, resolve.Strict); err != nil {
				t.Errorf("Resolve(%q, %q): %v", base, s, err)
			}
			n, err := resolve.Normalize(ref, resolve.NormalizeDefault|resolve.NormalizeIPv6Canonical)
			if err != nil {
				t.Errorf("Normalize(%q): %v", s, err)
				continue
			}
			if m, err := resolve.Normalize(n, resolve.NormalizeDefault|resolve.NormalizeIPv6Canonical); err != nil || m != n {
				t.Errorf("Normalize(%q) = %q, then %q, %v", s, n, m, err)
			}
		}
	})
}

package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestProduce: encode, decode, build and uri-to-iri, human and JSON, with
// their exit statuses.
func TestProduce(t *testing.T) {
	for _, tt := range []struct {
		name  string
		stdin string
		args  []string
		want  string
		code  int
	}{
		{"the issue's build", "", []string{"build", "-scheme", "https", "-host", "example.com", "-path", "a b", "-path", "c/d", "-query", "q=1&2", "-fragment", "x y"},
			"https://example.com/a%20b/c%2Fd?q=1%262#x%20y\n", 0},
		{"§4.2: a colon in a relative reference's first segment", "", []string{"build", "-path", "a:b"}, "a%3Ab\n", 0},
		{"§3.2.2: IPv6 gets brackets", "", []string{"build", "-host", "::1", "-json"}, `{"result":"//[::1]"}` + "\n", 0},
		{"an absolute path without a host", "", []string{"build", "-scheme", "file", "-path", "etc", "-absolute"}, "file:/etc\n", 0},
		{"a port without a host", "", []string{"build", "-scheme", "http", "-port", "80", "-json"},
			`{"error":{"component":"port","message":"build: port \"80\": a userinfo or a port needs a host"}}` + "\n", 1},
		{"a bad scheme", "", []string{"build", "-scheme", "1x"}, "error:    build: scheme \"1x\": not a scheme\n", 1},
		{"a port out of range is the port's error (it was a usage error)", "", []string{"build", "-host", "a", "-port", "70000", "-json"},
			`{"error":{"component":"port","message":"build: port \"70000\": not a number from 0 to 65535"}}` + "\n", 1},
		{"the first component's error first", "", []string{"build", "-scheme", "1x", "-port", "x", "-json"},
			`{"error":{"component":"scheme","message":"build: scheme \"1x\": not a scheme"}}` + "\n", 1},
		{"§2.4: % is data", "", []string{"encode", "50%"}, "input:    50%\nresult:   50%25\n", 0},
		{"encode a line of standard input, JSON", "a b/c\n", []string{"encode", "-component", "query-part", "-json"}, `{"input":"a b/c","result":"a%20b/c"}` + "\n", 0},
		{"escape keeps encodings", "", []string{"encode", "-escape", "-component", "query", "-json", "a%20b c"}, `{"input":"a%20b c","result":"a%20b%20c"}` + "\n", 0},
		{"IRI charsets", "", []string{"encode", "-grammar", "rfc3987", "-json", "引き 出し"}, `{"input":"引き 出し","result":"引き%20出し"}` + "\n", 0},
		{"decode", "", []string{"decode", "-json", "caf%C3%A9", "%FF"}, `{"input":"caf%C3%A9","result":"café"}` + "\n" + `{"input":"%FF","result":"\ufffd","resultQuoted":"\"\\xff\""}` + "\n", 0},
		{"decode: a malformed %", "", []string{"decode", "-json", "%2"},
			`{"input":"%2","error":{"argument":"input","offset":0,"message":"decode \"%2\": malformed percent-encoding \"%2\" at offset 0: a \"%\" must be followed by two hexadecimal digits (RFC 3986 §2.1)"}}` + "\n", 1},
		{"decode -form", "", []string{"decode", "-form", "-json", "a+b"}, `{"input":"a+b","result":"a b"}` + "\n", 0},
		{"RFC 3987 §3.2", "", []string{"uri-to-iri", "-json", "http://www.example.org/D%C3%BCrst", "http://www.example.org/D%FCrst"},
			`{"input":"http://www.example.org/D%C3%BCrst","result":"http://www.example.org/Dürst"}` + "\n" + `{"input":"http://www.example.org/D%FCrst","result":"http://www.example.org/D%FCrst"}` + "\n", 0},
		{"parse -decode", "", []string{"parse", "-decode", "-json", "http://a:8/x%2Fy?k=v&f"},
			`{"input":"http://a:8/x%2Fy?k=v&f","valid":true,"rule":"URI-reference","scheme":"http","userinfo":null,"host":"a","hostKind":"regname","port":"8","path":"/x%2Fy","query":"k=v&f","fragment":null,"decoded":{"userinfo":null,"host":"a","segments":["x/y"],"query":[{"key":"k","value":"v"},{"key":"f","value":null}],"fragment":null,"port":8,"addr":null}}` + "\n", 0},
	} {
		out, errOut, code := runURI(t, tt.stdin, tt.args...)
		if diff := cmp.Diff(tt.want, out); diff != "" || code != tt.code {
			t.Errorf("%s: uri %q: exit %d, want %d; stderr %q (-want +got):\n%s", tt.name, tt.args, code, tt.code, errOut, diff)
		}
	}
	for _, args := range [][]string{{"encode", "-component", "nope", "x"}, {"build", "x"}, {"build", "-query", "a=b", "-raw-query", "c"}} {
		if _, _, code := runURI(t, "", args...); code != 2 {
			t.Errorf("uri %q: exit %d, want 2 (usage)", args, code)
		}
	}
}

package main

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostHeader: a request whose Host is not the address served is
// answered 421, through a real server on loopback.
func TestHostHeader(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<p>playground</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	srv.Config.Handler = Handler(dir, srv.Listener.Addr(), "127.0.0.1:0")
	srv.Start()
	defer srv.Close()
	_, port, err := net.SplitHostPort(srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		host string
		want int
	}{
		{"127.0.0.1:" + port, 200},
		{"localhost:" + port, 200},
		{"LocalHost:" + port, 200}, // host names are case-insensitive
		{"evil.example:" + port, 421},
		{"evil.example", 421},
		{"localhost", 421},                // port 80, not the one served
		{"127.0.0.1", 421},                // idem
		{"localhost:1" + port, 421},       // another port
		{"127.0.0.2:" + port, 421},        // another loopback address: not listened on
		{"[::1]:" + port, 421},            // not listened on: the server is on 127.0.0.1
		{"localhost.:" + port, 421},       // a name's absolute form is another name to a resolver's search list
		{"127.0.0.1.nip.io:" + port, 421}, // a name that resolves to 127.0.0.1 is what rebinding uses
	} {
		req, err := http.NewRequest("GET", srv.URL+"/", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = tc.host
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("Host %q: %d, want %d", tc.host, resp.StatusCode, tc.want)
		}
		if tc.want == 200 && resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("Host %q: Cache-Control %q", tc.host, resp.Header.Get("Cache-Control"))
		}
	}
}

// TestHostPolicy: which Host values pass, for each kind of address the
// server can listen on.
func TestHostPolicy(t *testing.T) {
	for _, tc := range []struct {
		served, given string
		allow, deny   []string
	}{
		{
			served: "127.0.0.1:8080", given: "127.0.0.1:8080",
			allow: []string{"127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080"},
			deny:  []string{"[::1]:8080", "localhost:8081", "localhost", "example.com:8080", "127.0.0.1:08080", "", ":8080", "127.0.0.1:"},
		},
		{
			served: "127.0.0.1:8080", given: "localhost:8080", // net.Listen picks 127.0.0.1 for localhost
			allow: []string{"127.0.0.1:8080", "localhost:8080"},
			deny:  []string{"[::1]:8080"},
		},
		{
			served: "[::1]:9000", given: "[::1]:9000",
			allow: []string{"[::1]:9000", "localhost:9000", "[0:0:0:0:0:0:0:1]:9000"},
			deny:  []string{"127.0.0.1:9000", "[::1%25lo]:9000", "::1:9000", "[::1]:8080"},
		},
		{
			served: "127.0.0.1:80", given: "127.0.0.1:80", // a Host without a port means 80
			allow: []string{"127.0.0.1", "localhost", "127.0.0.1:80", "localhost:80"},
			deny:  []string{"example.com", "[::1]"},
		},
		{
			served: "[::1]:80", given: "[::1]:80",
			allow: []string{"[::1]", "localhost"},
			deny:  []string{"::1"}, // an IPv6 literal is bracketed (RFC 3986 §3.2.2)
		},
		{
			served: "192.0.2.7:8080", given: "playground.lan:8080",
			allow: []string{"192.0.2.7:8080", "playground.lan:8080", "Playground.LAN:8080"},
			deny:  []string{"localhost:8080", "127.0.0.1:8080", "192.0.2.8:8080", "evil.example:8080"},
		},
		{
			served: "192.0.2.7:8080", given: "192.0.2.7:8080",
			allow: []string{"192.0.2.7:8080"},
			deny:  []string{"localhost:8080", "playground.lan:8080"},
		},
		{
			served: "[::]:8080", given: ":8080", // every interface: any IP literal, localhost
			allow: []string{"127.0.0.1:8080", "[::1]:8080", "192.0.2.7:8080", "[2001:db8::1]:8080", "localhost:8080"},
			deny:  []string{"evil.example:8080", "192.0.2.7:8081", "localhost:8081"},
		},
		{
			served: "0.0.0.0:8080", given: "0.0.0.0:8080",
			allow: []string{"10.1.2.3:8080"},
			deny:  []string{"host.example:8080"},
		},
	} {
		ap, err := net.ResolveTCPAddr("tcp", tc.served)
		if err != nil {
			t.Fatal(err)
		}
		p := newHostPolicy(ap, tc.given)
		for _, h := range tc.allow {
			if !p.allows(h) {
				t.Errorf("served %s (-addr %s): Host %q refused; accepted: %s", tc.served, tc.given, h, p)
			}
		}
		for _, h := range tc.deny {
			if p.allows(h) {
				t.Errorf("served %s (-addr %s): Host %q accepted; accepted: %s", tc.served, tc.given, h, p)
			}
		}
	}
}

// The 421 answer says what the server answers to, so that a user who
// typed another name knows which to use.
func TestHostHeaderAnswer(t *testing.T) {
	ap := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "http://evil.example:8080/", nil)
	Handler(t.TempDir(), ap, "127.0.0.1:8080").ServeHTTP(rec, req)
	if rec.Code != http.StatusMisdirectedRequest {
		t.Fatalf("status %d", rec.Code)
	}
	if body, want := rec.Body.String(), "127.0.0.1:8080, localhost:8080"; !strings.Contains(body, want) {
		t.Errorf("answer %q does not name %s", body, want)
	}
}

package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestBuild: go run . -out DIR writes a site that names nothing it does
// not hold, and that needs no network.
func TestBuild(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "site")
	var out bytes.Buffer
	if err := run(t.Context(), "", dir, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "wrote the site to "+dir+"\nWebAssembly: ") {
		t.Errorf("output %q", out.String())
	}
	var names []string
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if got, want := strings.Join(names, " "), "app.js examples.js index.html playground-wasm.js style.css"; got != want {
		t.Errorf("site holds %s, want %s", got, want)
	}
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	// Every src and href is a file of the site (or an anchor, or data:).
	for _, m := range regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllStringSubmatch(string(index), -1) {
		ref := m[1]
		if strings.HasPrefix(ref, "#") || strings.HasPrefix(ref, "data:") {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, ref)); err != nil {
			t.Errorf("index.html refers to %s: %v", ref, err)
		}
	}
	for _, f := range names {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		// Nothing loads from elsewhere: no remote src, href or url(), no
		// fetch, import or importScripts.
		if m := loads.Find(b); m != nil && f != "playground-wasm.js" && f != "examples.js" {
			t.Errorf("%s loads something (%s): the page must need nothing but its folder", f, m)
		}
	}
	exs, err := os.ReadFile(filepath.Join(dir, "examples.js"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"file": "testdata/grammars/rfc5322.abnf"`, `"file": "examples/urn/urn.abnf"`, `"date-time"`} {
		if !bytes.Contains(exs, []byte(want)) {
			t.Errorf("examples.js lacks %s", want)
		}
	}
	st, err := os.Stat(filepath.Join(dir, "playground-wasm.js"))
	if err != nil {
		t.Fatal(err)
	}
	// The WebAssembly is 6.6 MiB (8.8 in base64); keep it reasonable.
	if st.Size() > 16<<20 {
		t.Errorf("playground-wasm.js is %d bytes: has something large come in?", st.Size())
	}

	srv := httptest.NewUnstartedServer(nil)
	srv.Config.Handler = Handler(dir, srv.Listener.Addr(), "127.0.0.1:0")
	srv.Start()
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Equal(body, index) || resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("GET / = %d, Cache-Control %q, %d bytes", resp.StatusCode, resp.Header.Get("Cache-Control"), len(body))
	}
}

var loads = regexp.MustCompile(`(?i)(?:(?:src|href)\s*=\s*["']?(?:[a-z]+:)?//|url\(\s*["']?(?:[a-z]+:)?//|\bfetch\(|\bimport\(|importScripts\(|<link[^>]*rel="?preconnect)`)

func TestExamplesStartRules(t *testing.T) {
	root, err := goCmd("list", "-m", "-f", "{{.Dir}}", "github.com/peguri/rfc3986")
	if err != nil {
		t.Fatal(err)
	}
	exs, err := examples(root)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Example{}
	for _, e := range exs {
		got[e.File] = e
	}
	for _, tc := range []struct {
		file         string
		start        string
		base, octets bool
		note         bool
	}{
		{"testdata/grammars/rfc5322.abnf", "address-list date-time message", false, false, false},
		{"testdata/grammars/rfc3629.abnf", "UTF8-octets", false, true, false},
		{"testdata/grammars/rfc6265.abnf", "", false, false, true},
		{"examples/urn/urn.abnf", "", true, false, false},
	} {
		e, ok := got[tc.file]
		if !ok {
			t.Errorf("no example %s", tc.file)
			continue
		}
		if s := strings.Join(e.Start, " "); s != tc.start || e.Base != tc.base || e.Octets != tc.octets || (e.Note != "") != tc.note {
			t.Errorf("%s: start %q base %v octets %v note %q; want %q %v %v note %v", tc.file, s, e.Base, e.Octets, e.Note, tc.start, tc.base, tc.octets, tc.note)
		}
	}
}

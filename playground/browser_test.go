package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/peguri/rfc3986/grammar"
)

// chromium finds the browser: $CHROMIUM, else Debian's chromium package
// (which .ci/run installs) or another Chromium on the PATH.
func chromium() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no Chromium: install Debian's chromium package (apt-get install -y chromium; .ci/run playground does it when it is missing) or set $CHROMIUM to a Chromium binary")
}

// screenshotDir is where the test saves a screenshot of each tab
// (gitignored): $PLAYGROUND_SCREENSHOTS, or screenshots/ here.
func screenshotDir(t *testing.T) string {
	dir := os.Getenv("PLAYGROUND_SCREENSHOTS")
	if dir == "" {
		dir = "screenshots"
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// page is a browser tab on the playground, with what it logged.
type page struct {
	t     *testing.T
	ctx   context.Context
	shots string // where a failure's screenshot goes

	mu         sync.Mutex
	exceptions []string
	requests   []string
}

func newPage(t *testing.T, browser context.Context) *page {
	ctx, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	p := &page{t: t, ctx: ctx}
	if err := chromedp.Do(ctx); err != nil { // opens the tab
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Listen(ctx, func(ev any) {
		if ev, ok := ev.(*network.EventRequestWillBeSent); ok {
			p.mu.Lock()
			p.requests = append(p.requests, ev.Request.URL)
			p.mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	go func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			if m.IsException() || m.Type == chromedp.ConsoleError {
				p.mu.Lock()
				p.exceptions = append(p.exceptions, m.String())
				p.mu.Unlock()
			}
		}
	}()
	return p
}

func (p *page) do(what string, timeout time.Duration, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, timeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		// What the page shows says more than a timeout.
		shot := ""
		sctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
		defer cancel()
		if png, serr := chromedp.Run(sctx, chromedp.FullScreenshot(100)); serr == nil && p.shots != "" {
			shot = filepath.Join(p.shots, "failed.png")
			if os.WriteFile(shot, png, 0o644) != nil {
				shot = ""
			}
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		p.t.Fatalf("%s: %v\npage exceptions: %q\nscreenshot: %s", what, err, p.exceptions, shot)
	}
}

// set sets a field's value as a paste does, firing its input event.
func set(sel, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const e = document.querySelector(%s); e.value = %s; e.dispatchEvent(new Event("input", {bubbles: true})); e.dispatchEvent(new Event("change", {bubbles: true})); })()`, jsString(sel), jsString(value)))
}

// waitJS polls until the JavaScript expression is true; the deadline is
// the caller's context's, not the poll's own 30 s.
func waitJS(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0))(ctx, t)
		return chromedp.Void{}, err
	})
}

func (p *page) text(sel string) string {
	p.t.Helper()
	var s string
	p.eval(`document.querySelector(`+jsString(sel)+`).innerText`, &s)
	return s
}

// eval evaluates expr and decodes its value into v.
func (p *page) eval(expr string, v any) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	b, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr))
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		p.t.Fatalf("evaluate %s: %v", expr, err)
	}
}

func (p *page) screenshot(dir, name string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatalf("screenshot %s: %v", name, err)
	}
	f := filepath.Join(dir, name)
	if err := os.WriteFile(f, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot: %s", f)
}

func (p *page) checkNoExceptions() {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.exceptions) > 0 {
		p.t.Errorf("the page threw: %q", p.exceptions)
	}
}

// TestBrowser drives the playground in headless Chromium, served on
// 127.0.0.1 as go run . serves it, and then opened from disk (file://).
// It fails, saying why, when there is no browser: it never skips.
func TestBrowser(t *testing.T) {
	bin, err := chromium()
	if err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	site := t.TempDir()
	st, err := Build(t.Context(), site)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("built the site in %v: %s", time.Since(started).Round(time.Millisecond), st)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: Handler(site, ln.Addr(), "127.0.0.1:0")}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	base := "http://" + ln.Addr().String() + "/"

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin),
		chromedp.NoSandbox, // CI runs as root
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1400, 1000),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	t.Cleanup(cancelBrowser)
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	shots := screenshotDir(t)
	fmt.Fprintf(os.Stderr, "playground: screenshots of each tab go to %s\n", shots)

	p := newPage(t, browser)
	p.shots = shots
	p.do("load "+base, 60*time.Second,
		chromedp.Navigate(base),
		waitJS(`document.body.dataset.ready !== undefined`),
	)
	if ready := p.text("#engine-status"); !strings.HasPrefix(ready, "Engine ready") {
		t.Fatalf("engine: %s", ready)
	}
	t.Logf("page ready after %v: %s", time.Since(started).Round(time.Millisecond), p.text("#engine-status"))

	t.Run("ABNF", func(t *testing.T) {
		p.t = t
		// Paste Appendix A and three inputs.
		inputs := []string{
			"http://[::1]:80/a/../b?q#f",
			"http://a b/",   // §2: a space is nowhere allowed
			"//1.2.3.4.5/x", // a reg-name host (§3.2.2), a relative reference
		}
		p.do("paste Appendix A and inputs", 120*time.Second,
			set("#grammar-text", string(grammar.RFC3986())),
			set("#grammar-start", "URI-reference"),
			set("#grammar-inputs", strings.Join(inputs, "\n")),
			// The answer to these inputs, not to the page's own.
			waitJS(fmt.Sprintf(`[...document.querySelectorAll("#abnf-verdicts li code")].map(c => JSON.parse(c.textContent)).join("\n") === %s && document.querySelector("#abnf-peg-summary") !== null`, jsString(strings.Join(inputs, "\n")))),
		)
		var got []struct{ Input, Verdict string }
		p.eval(`[...document.querySelectorAll("#abnf-verdicts li")].map(li => ({Input: JSON.parse(li.querySelector("code").textContent), Verdict: li.dataset.verdict}))`, &got)
		want := []struct{ Input, Verdict string }{
			{inputs[0], "match"},
			{inputs[1], "no-match"},
			{inputs[2], "match"},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("verdicts mismatch (-want +got):\n%s", diff)
		}
		if s := p.text("#abnf-match-note"); !strings.HasPrefix(s, "2 of 3 inputs match URI-reference") {
			t.Errorf("matcher note = %q", s)
		}
		// gen check: the roots of Appendix A, each regular.
		if s := p.text("#abnf-roots"); !strings.Contains(s, "URI-reference regular") || strings.Contains(s, "not regular") {
			t.Errorf("start rules = %q, want URI-reference among regular roots", s)
		}
		// gen dfa: README's number for URI-reference's minimal DFA.
		if s := p.text("#abnf-dfa-states"); s != "182 states" {
			t.Errorf("DFA = %q, want 182 states", s)
		}
		// gen peg -report: its summary, and guards with their example
		// inputs (IPv4address before reg-name in host, §3.2.2).
		if s := p.text("#abnf-peg-summary"); !strings.Contains(s, "decisions proven") {
			t.Errorf("PEG summary = %q", s)
		}
		var guards []string
		p.eval(`[...document.querySelectorAll("details.kind-guard li")].map(li => li.textContent)`, &guards)
		found := false
		for _, g := range guards {
			// Positions name the pasted text (input.abnf), not the file
			// the page loaded first.
			if strings.HasPrefix(g, "input.abnf:") && strings.Contains(g, "host: after alternative 2 (IPv4address)") && strings.Contains(g, "example input:") {
				found = true
			}
		}
		if !found {
			t.Errorf("no guard of host with its example input among the %d shown: %q", len(guards), guards)
		}
		p.screenshot(shots, "abnf.png")

		// An example grammar, with samples from gen sample: HTTP messages
		// hold CRLF, so the inputs turn to quoted lines, and the three
		// samples (the near-misses follow) match.
		p.do("load an example and its samples", 60*time.Second,
			set("#grammar-source", "example:testdata/grammars/rfc7230.abnf"),
			waitJS(`document.querySelectorAll("#abnf-verdicts li").length === 6 && document.querySelector("#grammar-quoted").checked`),
		)
		var verdicts []string
		p.eval(`[...document.querySelectorAll("#abnf-verdicts li")].map(li => li.dataset.verdict)`, &verdicts)
		if diff := cmp.Diff([]string{"match", "match", "match"}, verdicts[:3]); diff != "" {
			t.Errorf("samples of HTTP-message: verdicts mismatch (-want +got):\n%s", diff)
		}
		if s := p.text("#grammar-start"); !strings.Contains(s, "HTTP-message") {
			t.Errorf("start rules %q", s)
		}
		var start string
		p.eval(`document.querySelector("#grammar-start").value`, &start)
		if start != "HTTP-message" {
			t.Errorf("start rule %q, want HTTP-message (testdata/grammars/README.md)", start)
		}

		p.do("raw inputs again", 10*time.Second, chromedp.Click(chromedp.CSS("#grammar-quoted")), waitJS(`!document.querySelector("#grammar-quoted").checked`))

		// A grammar with an undefined rule.
		p.do("paste a grammar with an undefined rule", 30*time.Second,
			set("#grammar-text", "greeting = hello SP name\nname     = 1*ALPHA\n"),
			waitJS(`!document.querySelector("#abnf-errors-box").hidden`),
		)
		if s := p.text("#abnf-errors"); s != "input.abnf:1:12: error: undefined rule hello" {
			t.Errorf("errors = %q, want the undefined rule at input.abnf:1:12", s)
		}
		if s := p.text("#abnf-summary"); s != "1 error: the grammar does not read" {
			t.Errorf("summary = %q", s)
		}
		p.screenshot(shots, "abnf-error.png")

		// A computation too long to wait for (Earley on a highly ambiguous
		// grammar is cubic: seconds natively, more here) runs in the
		// worker: the page stays live, Stop ends it, and the engine
		// answers again.
		p.do("start a long match", 30*time.Second,
			set("#grammar-text", "s = s s / \"a\"\n"),
			set("#grammar-inputs", strings.Repeat("a", 3000)),
			waitJS(`!document.querySelector("#abnf-busy").hidden`),
		)
		p.do("click Stop", 30*time.Second, chromedp.Click(chromedp.CSS("#abnf-stop")))
		p.do("see it stopped", 30*time.Second,
			waitJS(`document.querySelector("#abnf-summary").textContent.startsWith("stopped")`),
		)
		p.do("match after Stop", 30*time.Second,
			set("#grammar-inputs", "aaa\nb"),
			waitJS(`[...document.querySelectorAll("#abnf-verdicts li")].map(li => li.dataset.verdict).join() === "match,no-match"`),
		)
	})

	t.Run("URI", func(t *testing.T) {
		p.t = t
		const in = "http://[::1]:80/a/../b?q#f"
		p.do("parse "+in, 30*time.Second,
			chromedp.Click(chromedp.CSS("#tab-uri")),
			set("#uri-input", in),
			waitJS(`document.querySelector("#uri-status").textContent.startsWith(`+jsString(`"`+in+`" is a valid URI-reference`)+`)`),
		)
		type comp struct{ Name, Value, Defined string }
		var got []comp
		p.eval(`[...document.querySelectorAll("#uri-components tr[data-name]")].map(tr => ({Name: tr.dataset.name, Value: tr.children[1].textContent, Defined: tr.children[2].textContent}))`, &got)
		want := []comp{
			{"scheme", `"http"`, "defined"},
			{"authority", `"[::1]:80"`, "defined"},
			{"userinfo", "—", "undefined"},
			{"host", `"[::1]"`, "defined"},
			{"port", `"80"`, "defined"},
			{"path", `"/a/../b"`, "defined"},
			{"query", `"q"`, "defined"},
			{"fragment", `"f"`, "defined"},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("components mismatch (-want +got):\n%s", diff)
		}
		if s := p.text("#uri-hostkind-value"); s != "ipv6" {
			t.Errorf("host kind = %q, want ipv6", s)
		}
		var levels map[string]string
		p.eval(`Object.fromEntries([...document.querySelectorAll("#uri-levels tr[data-level]")].map(tr => [tr.dataset.level, tr.children[1].querySelector("code").textContent]))`, &levels)
		wantLevels := map[string]string{
			"none":                         in,
			"case":                         in,
			"percent-encoding":             in,
			"path segments (syntax-based)": "http://[::1]:80/b?q#f", // §6.2.2.3
			"scheme-based":                 "http://[::1]/b?q#f",    // §6.2.3: http's default port
			"IPv6 text (RFC 5952)":         "http://[::1]/b?q#f",
		}
		if diff := cmp.Diff(wantLevels, levels); diff != "" {
			t.Errorf("normalization mismatch (-want +got):\n%s", diff)
		}
		// §5.2.2: a reference with a scheme keeps it; its dot segments go.
		if s := p.text("#uri-resolution-result"); s != "http://[::1]:80/b?q#f" {
			t.Errorf("resolution = %q", s)
		}
		var tree string
		p.eval(`document.querySelector("#uri-tree").textContent`, &tree)
		if !strings.Contains(tree, `IPv6address [8,11) "::1"`) {
			t.Errorf("parse tree lacks IPv6address [8,11): %q", tree)
		}
		p.screenshot(shots, "uri.png")
		// The fragment is a link to what the tab shows.
		var hash string
		p.eval(`location.hash`, &hash)
		if v, err := url.ParseQuery(strings.TrimPrefix(hash, "#uri?")); err != nil || v.Get("u") != in || v.Get("base") != "http://a/b/c/d;p?q" {
			t.Errorf("location.hash = %q, want #uri?u=%s&base=…", hash, url.QueryEscape(in))
		}

		// An invalid reference: the caret and the failing rule.
		p.do("parse an invalid reference", 30*time.Second,
			set("#uri-input", "http://a b/"),
			waitJS(`!document.querySelector("#uri-error-box").hidden`),
		)
		if s := p.text("#uri-caret"); s != "http://a b/\n        ^" {
			t.Errorf("caret = %q", s)
		}
		if s := p.text("#uri-error-rule"); s != "URI-reference" {
			t.Errorf("failing rule = %q", s)
		}
		p.screenshot(shots, "uri-error.png")
	})
	p.t = t
	p.checkNoExceptions()

	// No network: every request the page made was to the loopback server
	// or for a blob: the worker.
	p.mu.Lock()
	for _, r := range p.requests {
		u, err := url.Parse(r)
		if err != nil || (u.Scheme != "blob" && u.Scheme != "data" && u.Host != ln.Addr().String()) {
			t.Errorf("the page requested %s: it must need nothing but its folder", r)
		}
	}
	p.mu.Unlock()

	// The same page from disk, as a user opens the static folder.
	t.Run("file", func(t *testing.T) {
		f := newPage(t, browser)
		// A link to the URI tab carries what it shows (#uri?u=…&base=…):
		// "http://a?" has an empty query, defined (§5.3 recomposes it with
		// its "?"), and an empty path.
		q := url.Values{"u": {"http://a?"}, "base": {"http://a/b/c/d;p?q"}}
		f.do("load from file://", 60*time.Second,
			chromedp.Navigate("file://"+filepath.ToSlash(site)+"/index.html#uri?"+q.Encode()),
			waitJS(`document.body.dataset.ready !== undefined`),
		)
		if ready := f.text("#engine-status"); !strings.HasPrefix(ready, "Engine ready") {
			t.Fatalf("engine from file://: %s", ready)
		}
		f.do("parse from file://", 30*time.Second,
			waitJS(`document.querySelector("#uri-status").textContent.startsWith('"http://a?" is a valid URI-reference')`))
		var query, path string
		f.eval(`document.querySelector('#uri-components tr[data-name="query"]').children[2].textContent`, &query)
		f.eval(`document.querySelector('#uri-components tr[data-name="path"]').children[2].textContent`, &path)
		if query != "defined, empty" || path != "defined, empty" {
			t.Errorf("http://a?: query %q, path %q; want both defined, empty", query, path)
		}
		if s := f.text("#uri-resolution-result"); s != "http://a?" {
			t.Errorf("resolution from the link's base = %q", s)
		}
		f.checkNoExceptions()
	})
	t.Logf("browser test took %v in all", time.Since(started).Round(time.Millisecond))
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Command playground builds the rfc3986 playground — a static page that
// checks ABNF, shows gen's PEG translation and DFA, runs the exact ABNF
// matcher, and parses, normalizes and resolves URIs, all in the browser,
// in WebAssembly compiled from this repository — and serves it on
// loopback or writes it to a folder.
//
// Usage, in the playground directory:
//
//	go run .                          # build into a temporary folder, serve on http://127.0.0.1:8080/
//	go run . -addr 127.0.0.1:9000     # another address (loopback unless you name another)
//	go run . -out site                # write the static site to ./site and exit
//
// The site is plain files: open index.html from disk (file://) or put
// the folder on any static host. It needs no network: the WebAssembly, the
// Go runtime's wasm_exec.js and the example grammars are in it.
//
// -addr is checked, and listened on, before the WebAssembly is built: a
// malformed address (not host:port, or no valid port) exits with status 2,
// as any flag error does; an address that cannot be listened on (in use,
// not this machine's) exits with status 1 at once. Status 1 is every other
// failure too, a signal during the build included; 0 is a site written, or
// serving stopped by a signal.
//
// SIGINT (Ctrl-C), SIGTERM and SIGHUP stop the build or the server and
// remove the temporary folder; a second signal kills at once. Send them
// to the playground's own process: go run does not pass SIGTERM on to the
// program it runs (Ctrl-C reaches both, as the terminal signals the whole
// process group), so for a server you stop with kill, build it first
// (go build -o playground . && ./playground).
//
// The server answers 421 Misdirected Request (RFC 9110 §15.5.20) to a
// request whose Host header does not name the address it serves. Without
// this check a page on any site could point a name it controls at
// 127.0.0.1 (DNS rebinding) and read the playground through the visitor's
// browser. Accepted Host values, always with the port served (which may be
// left out when it is 80):
//   - the IP address listened on (127.0.0.1, [::1], …);
//   - localhost, when that address is loopback (or every interface):
//     browsers resolve localhost to loopback themselves (RFC 6761 §6.3), so
//     it cannot be rebound;
//   - the host name given in -addr (-addr myhost:8080);
//   - any IP literal, when listening on every interface (-addr :8080): an
//     IP literal names no DNS record, so it cannot be rebound either.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// stopSignals stop the playground cleanly: its temporary folder is removed.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

func main() {
	log.SetFlags(0)
	log.SetPrefix("playground: ")
	addr := flag.String("addr", "127.0.0.1:8080", "serve the page on `host:port` (loopback by default); malformed: exit 2, cannot listen: exit 1, both before building")
	out := flag.String("out", "", "write the static site to `dir` and exit instead of serving")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go run . [-addr host:port] | go run . -out dir\n\n")
		flag.PrintDefaults()
		fmt.Fprintf(flag.CommandLine.Output(), "\nexit status: 0 site written or serving stopped by SIGINT, SIGTERM or SIGHUP; 1 failure (-addr cannot be listened on, build, a signal while building); 2 usage (-addr malformed)\n")
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := checkAddr(*addr); err != nil {
		fmt.Fprintf(flag.CommandLine.Output(), "invalid value %q for flag -addr: %v\n", *addr, err)
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := notifyContext(stopSignals...)
	err := run(ctx, *addr, *out, os.Stdout)
	stop()
	if err != nil {
		log.Fatal(err)
	}
}

// notifyContext is canceled, with the signal as its cause, by the first of
// sigs; it then stops catching them, so that a second one kills the
// program at once (the temporary folder is then left behind).
func notifyContext(sigs ...os.Signal) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	c := make(chan os.Signal, 1)
	signal.Notify(c, sigs...)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-c:
			signal.Stop(c)
			cancel(fmt.Errorf("%v", s))
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(c)
		close(done)
		cancel(nil)
	}
}

// checkAddr reports a malformed -addr: not host:port, or a port that is
// neither a number from 0 to 65535 nor a service name. Whether the host
// exists is for net.Listen to say.
func checkAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if port == "" {
		return errors.New("no port (0 picks a free one)")
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return err
	}
	return nil
}

// run writes the site to out and returns, or, with out empty, listens on
// addr, builds the site into a temporary folder and serves it until ctx
// is done, removing the folder on every way out.
func run(ctx context.Context, addr, out string, stdout io.Writer) error {
	if out != "" {
		st, err := Build(ctx, out)
		if err != nil {
			return stopped(ctx, err)
		}
		fmt.Fprintf(stdout, "wrote the site to %s\n%s", out, st)
		return nil
	}
	// Listen first: an address that cannot be listened on is an error
	// before the build, not a minute after it. Connections made during
	// the build wait in the listener's queue.
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	dir, err := os.MkdirTemp("", "rfc3986-playground-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	st, err := Build(ctx, dir)
	if err != nil {
		return stopped(ctx, err)
	}
	fmt.Fprint(stdout, st)
	if host, _, err := net.SplitHostPort(ln.Addr().String()); err == nil {
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			log.Printf("warning: %s is not a loopback address: other machines can load the page", addr)
		}
	}
	srv := &http.Server{Handler: Handler(dir, ln.Addr(), addr), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "serving %s on http://%s/ (Ctrl-C stops)\n", dir, ln.Addr())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err // never http.ErrServerClosed: only the case below shuts down
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		srv.Close()
	}
	<-served
	fmt.Fprintf(stdout, "stopped (%v); removing %s\n", context.Cause(ctx), dir)
	return nil
}

// stopped says that a signal, not a failure, ended the build.
func stopped(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("stopped (%v) while building the site", context.Cause(ctx))
	}
	return err
}

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
	"time"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("playground: ")
	addr := flag.String("addr", "127.0.0.1:8080", "serve the page on `host:port` (loopback by default)")
	out := flag.String("out", "", "write the static site to `dir` and exit instead of serving")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go run . [-addr host:port] | go run . -out dir\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*addr, *out, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(addr, out string, stdout io.Writer) error {
	if out != "" {
		st, err := Build(out)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote the site to %s\n%s", out, st)
		return nil
	}
	dir, err := os.MkdirTemp("", "rfc3986-playground-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	st, err := Build(dir)
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, st)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	if host, _, err := net.SplitHostPort(ln.Addr().String()); err == nil {
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			log.Printf("warning: %s is not a loopback address: other machines can load the page", addr)
		}
	}
	srv := &http.Server{Handler: Handler(dir), ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	fmt.Fprintf(stdout, "serving %s on http://%s/ (Ctrl-C stops)\n", dir, ln.Addr())
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Handler serves the site in dir, uncached, so that a rebuilt site is
// what a reload shows.
func Handler(dir string) http.Handler {
	fs := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		fs.ServeHTTP(w, r)
	})
}

//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// program is the playground built as a binary, once: the tests below
// run it as a user does and signal its process.
var program = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "rfc3986-playground-test-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "playground")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		return "", errors.New("go build: " + err.Error() + "\n" + string(out))
	}
	return bin, nil
})

func TestMain(m *testing.M) {
	code := m.Run()
	if bin, err := program(); err == nil {
		os.RemoveAll(filepath.Dir(bin))
	}
	os.Exit(code)
}

// started is a running playground, with $TMPDIR a folder of its own.
type started struct {
	cmd    *exec.Cmd
	tmp    string
	lines  chan string   // its stdout, line by line
	stderr *bytes.Buffer // (read after wait)
	exited chan struct{}
	err    error // of Wait, once exited is closed
}

func start(t *testing.T, env []string, args ...string) *started {
	t.Helper()
	bin, err := program()
	if err != nil {
		t.Fatal(err)
	}
	s := &started{tmp: t.TempDir(), lines: make(chan string, 100), stderr: new(bytes.Buffer), exited: make(chan struct{})}
	s.cmd = exec.Command(bin, args...)
	s.cmd.Env = append(append(os.Environ(), "TMPDIR="+s.tmp), env...)
	s.cmd.Stderr = s.stderr
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		io.Copy(io.Discard, stdout)
		s.err = s.cmd.Wait()
		close(s.lines)
		close(s.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-s.exited:
		default:
			s.cmd.Process.Kill()
			<-s.exited
		}
	})
	return s
}

// wait waits for the program to exit and returns its exit status.
func (s *started) wait(t *testing.T) int {
	t.Helper()
	for range s.lines {
	}
	<-s.exited
	var ee *exec.ExitError
	switch {
	case s.err == nil:
		return 0
	case errors.As(s.err, &ee) && ee.Exited():
		return ee.ExitCode()
	default:
		t.Fatalf("playground: %v\nstderr: %s", s.err, s.stderr)
		return -1
	}
}

// left lists what is in the program's $TMPDIR.
func (s *started) left(t *testing.T) []string {
	t.Helper()
	ents, err := os.ReadDir(s.tmp)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// TestSignalsRemoveTheFolder: SIGTERM, SIGHUP and SIGINT stop the server
// and leave nothing in the temporary directory; before that, the server
// answers its own address and refuses another Host.
func TestSignalsRemoveTheFolder(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			s := start(t, nil, "-addr", "127.0.0.1:0")
			var addr, dir string
			for line := range s.lines {
				if rest, ok := strings.CutPrefix(line, "serving "); ok {
					dir, rest, _ = strings.Cut(rest, " on http://")
					addr, _, _ = strings.Cut(rest, "/")
					break
				}
			}
			if addr == "" {
				t.Fatalf("the playground exited before serving (status %d): %s", s.wait(t), s.stderr)
			}
			if !strings.HasPrefix(dir, s.tmp) {
				t.Errorf("it serves %s, not a folder of $TMPDIR %s", dir, s.tmp)
			}
			if got := s.left(t); len(got) != 1 || !strings.HasPrefix(got[0], "rfc3986-playground-") {
				t.Errorf("$TMPDIR holds %q while serving, want the site's folder alone", got)
			}
			_, port, _ := net.SplitHostPort(addr)
			for host, want := range map[string]int{addr: 200, "localhost:" + port: 200, "rebind.example:" + port: 421} {
				req, _ := http.NewRequest("GET", "http://"+addr+"/index.html", nil)
				req.Host = host
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != want {
					t.Errorf("GET with Host %s: %d, want %d", host, resp.StatusCode, want)
				}
			}
			if err := s.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if code := s.wait(t); code != 0 {
				t.Errorf("exit status %d after %v, want 0; stderr: %s", code, sig, s.stderr)
			}
			if got := s.left(t); len(got) != 0 {
				t.Errorf("after %v, $TMPDIR holds %q", sig, got)
			}
		})
	}
}

// TestTermWhileBuilding: SIGTERM during the build stops it (go build
// included, which removes its own work folder) and leaves nothing behind.
func TestTermWhileBuilding(t *testing.T) {
	s := start(t, nil, "-addr", "127.0.0.1:0")
	// Wait until go build has made its work folder, the sign that it runs
	// (or, when the build is faster than this loop, until the server runs).
	var during bool
wait:
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				t.Fatalf("the playground exited (status %d): %s", s.wait(t), s.stderr)
			}
			if strings.HasPrefix(line, "serving ") {
				break wait
			}
		default:
			// go build's work folder, in Build's (GOTMPDIR) or, were
			// that forgotten, in $TMPDIR.
			in, _ := filepath.Glob(filepath.Join(s.tmp, "rfc3986-playground-build-*", "go-build*"))
			top, _ := filepath.Glob(filepath.Join(s.tmp, "go-build*"))
			if len(in)+len(top) > 0 {
				during = true
				break wait
			}
			time.Sleep(time.Millisecond)
		}
	}
	if !during {
		t.Log("the build ended before the test saw it: the server was stopped instead")
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	code := s.wait(t)
	if during && (code != 1 || !strings.Contains(s.stderr.String(), "stopped (terminated) while building the site")) {
		t.Errorf("exit status %d, stderr %q; want 1, stopped while building", code, s.stderr)
	}
	if got := s.left(t); len(got) != 0 {
		t.Errorf("after SIGTERM, $TMPDIR holds %q", got)
	}
}

// TestAddr: a malformed -addr exits 2, and one that cannot be listened on
// exits 1, both before anything is built: the program runs without go on
// its PATH, so a build would fail first, and say so, and $TMPDIR stays
// empty.
func TestAddr(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, tc := range []struct {
		addr   string
		code   int
		stderr string
	}{
		{"127.0.0.1", 2, "missing port in address"},
		{"127.0.0.1:99999", 2, "invalid port"},
		{"127.0.0.1:", 2, "no port"},
		{"127.0.0.1:nosuchservice", 2, "unknown port"},
		{"[::1", 2, "missing ']'"},
		{busy.Addr().String(), 1, "address already in use"},
		{"192.0.2.1:8080", 1, "cannot assign requested address"}, // TEST-NET-1 (RFC 5737): not this machine's
	} {
		s := start(t, []string{"PATH=" + t.TempDir()}, "-addr", tc.addr)
		if code := s.wait(t); code != tc.code || !strings.Contains(s.stderr.String(), tc.stderr) {
			t.Errorf("-addr %s: exit status %d, stderr %q; want %d, %q", tc.addr, code, s.stderr, tc.code, tc.stderr)
		}
		if got := s.left(t); len(got) != 0 {
			t.Errorf("-addr %s: $TMPDIR holds %q: it built", tc.addr, got)
		}
	}
}

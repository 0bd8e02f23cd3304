package repotest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path"
	"regexp"
	"strings"
	"testing"
)

// maxSize is the largest file the repository tracks without a word in
// largeFiles.
const maxSize = 1 << 20

// largeFiles may exceed maxSize, up to maxLargeSize: the files a command
// writes and a test checks, which grow with what they describe. None does
// today (the largest, the suite, is 0.8 MiB); they are named so that their
// growth is not a CI failure, and nothing else may join them unnoticed.
var largeFiles = []struct {
	pattern   string // path.Match against the path, or the base name when it has no "/"
	why       string
	generated bool // must start with Go's "Code generated … DO NOT EDIT." line
}{
	{"conformance/rfc3986-suite.json", "the RFC 3986 conformance suite, written by go run ./conformance", false},
	{"*_peg.go", "a parser pigeon generated", true},
	{"*_dfa.go", "DFA tables gen dfa generated", true},
}

const maxLargeSize = 4 << 20

// TestHygiene: the repository tracks no executable file (but .ci/'s
// scripts), no compiled program or object file (ELF, Mach-O, PE,
// WebAssembly, ar archives: build outputs, whatever the mode), and no file
// over 1 MiB that largeFiles does not name. It reads git's index, not the
// work tree: what would be committed. .ci/run's hygiene step runs it.
func TestHygiene(t *testing.T) {
	files := tracked(t)
	blobs(t, files, func(f trackedFile, b []byte) {
		if f.Mode == "100755" && !(strings.HasPrefix(f.Path, ".ci/") && bytes.HasPrefix(b, []byte("#!"))) {
			t.Errorf("%s is executable (mode 755): only scripts with a #! line in .ci/ may be; git update-index --chmod=-x %s", f.Path, f.Path)
		}
		if kind := binaryKind(b); kind != "" {
			t.Errorf("%s is %s: build outputs are not tracked (git rm --cached %s, and add it to .gitignore)", f.Path, kind, f.Path)
		}
		if len(b) <= maxSize {
			return
		}
		for _, l := range largeFiles {
			name := f.Path
			if !strings.Contains(l.pattern, "/") {
				name = path.Base(f.Path)
			}
			if ok, _ := path.Match(l.pattern, name); !ok {
				continue
			}
			if l.generated && !generatedGo.Match(firstLine(b)) {
				continue
			}
			if len(b) > maxLargeSize {
				t.Errorf("%s is %d bytes: over %d even for %s", f.Path, len(b), maxLargeSize, l.why)
			}
			return
		}
		t.Errorf("%s is %d bytes, over %d: make it smaller, or name it in largeFiles (internal/repotest/hygiene_test.go) and say why", f.Path, len(b), maxSize)
	})
	t.Logf("%d tracked files checked", len(files))
}

// binaryKind names the kind of compiled file b is, from its first bytes,
// or returns "".
func binaryKind(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("\x7fELF")):
		return "an ELF file (a Linux or BSD program or object)"
	case len(b) >= 4 && machO[binary.BigEndian.Uint32(b)]:
		return "a Mach-O file (a macOS program or object)"
	case bytes.HasPrefix(b, []byte("\xca\xfe\xba\xbe")):
		return "a universal Mach-O file or a Java class file"
	case isPE(b):
		return "a PE file (a Windows program or DLL)"
	case bytes.HasPrefix(b, []byte("\x00asm")):
		return "a WebAssembly module"
	case bytes.HasPrefix(b, []byte("!<arch>\n")):
		return "an ar archive (a Go package archive or a static library)"
	}
	return ""
}

// machO holds Mach-O's magic numbers, 32- and 64-bit, in either byte order.
var machO = map[uint32]bool{0xfeedface: true, 0xfeedfacf: true, 0xcefaedfe: true, 0xcffaedfe: true}

// isPE: an MS-DOS header ("MZ") whose e_lfanew, at 0x3c, points at the PE
// signature "PE\0\0". "MZ" alone starts many texts.
func isPE(b []byte) bool {
	if len(b) < 0x40 || !bytes.HasPrefix(b, []byte("MZ")) {
		return false
	}
	off := binary.LittleEndian.Uint32(b[0x3c:])
	return uint64(off)+4 <= uint64(len(b)) && bytes.Equal(b[off:off+4], []byte("PE\x00\x00"))
}

func firstLine(b []byte) []byte {
	line, _, _ := bytes.Cut(b, []byte{'\n'})
	return line
}

// generatedGo is the line Go's convention puts first in generated code
// (go help generate).
var generatedGo = regexp.MustCompile(`^// Code generated .* DO NOT EDIT\.$`)

// TestBinaryKind: each kind is recognized from its first bytes, and text
// that begins like one is not taken for it.
func TestBinaryKind(t *testing.T) {
	pe := make([]byte, 0x80)
	copy(pe, "MZ")
	binary.LittleEndian.PutUint32(pe[0x3c:], 0x40)
	copy(pe[0x40:], "PE\x00\x00")
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"elf", []byte("\x7fELF\x02\x01\x01"), "ELF"},
		{"macho64", []byte("\xcf\xfa\xed\xfe\x07\x00\x00\x01"), "Mach-O"},
		{"macho32be", []byte("\xfe\xed\xfa\xce"), "Mach-O"},
		{"fat", []byte("\xca\xfe\xba\xbe\x00\x00\x00\x02"), "universal Mach-O"},
		{"pe", pe, "PE"},
		{"wasm", []byte("\x00asm\x01\x00\x00\x00"), "WebAssembly"},
		{"archive", []byte("!<arch>\n__.PKGDEF"), "ar archive"},
		{"text MZ", []byte("MZ is a text file that starts like an MS-DOS program, but has no PE header anywhere in it at all"), ""},
		{"go", []byte("package main\n"), ""},
		{"empty", nil, ""},
		{"short", []byte("\x7fEL"), ""},
	} {
		got := binaryKind(tc.b)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %s", tc.name, got, fmt.Sprintf("%q", tc.want))
		}
	}
}

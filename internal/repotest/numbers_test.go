package repotest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A number the documents state and a command can recompute is marked
// <!-- number NAME -->VALUE; TestNumbers recomputes each NAME and fails on
// a VALUE that is not the number, a NAME it does not know, and a
// document that states none of them (README.md must state the suite's).
var numberMarker = regexp.MustCompile(`<!-- number ([a-z-]+) -->([0-9][0-9,.]*)`)

// numbers computes the values the markers may name.
var numbers = map[string]func(t *testing.T, root string) int{
	// The conformance suite's cases, all sections.
	"suite-cases": func(t *testing.T, root string) int {
		b, err := os.ReadFile(filepath.Join(root, "conformance", "rfc3986-suite.json"))
		if err != nil {
			t.Fatal(err)
		}
		var s struct{ Counts map[string]int }
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, c := range s.Counts {
			n += c
		}
		return n
	},
	// The records of the external corpora (testdata/conformance/*.jsonl).
	"corpus-records": func(t *testing.T, root string) int {
		files, err := filepath.Glob(filepath.Join(root, "testdata", "conformance", "*.jsonl"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no corpora: %v", err)
		}
		n := 0
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(bytes.NewReader(b))
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				if strings.TrimSpace(sc.Text()) != "" {
					n++
				}
			}
		}
		return n
	},
}

func TestNumbers(t *testing.T) {
	r := root(t)
	seen := map[string]bool{}
	for _, f := range docFiles(t) {
		b, err := os.ReadFile(filepath.Join(r, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range numberMarker.FindAllSubmatch(b, -1) {
			name, text := string(m[1]), string(m[2])
			compute, ok := numbers[name]
			if !ok {
				t.Errorf("%s: <!-- number %s -->: no such number (have %v)", f, name, keys(numbers))
				continue
			}
			want := compute(t, r)
			got, err := strconv.Atoi(strings.ReplaceAll(strings.TrimRight(text, ".,"), ",", ""))
			if err != nil || got != want {
				t.Errorf("%s: %s is stated as %s; it is %d", f, name, text, want)
			}
			if f == "README.md" {
				seen[name] = true
			}
		}
	}
	if !seen["suite-cases"] {
		t.Error("README.md states no <!-- number suite-cases -->")
	}
}

// TestReadmeSize: the README is a front page (issue 22: at most 12 KB);
// depth lives in docs/.
func TestReadmeSize(t *testing.T) {
	st, err := os.Stat(filepath.Join(root(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() > 12000 {
		t.Errorf("README.md is %d bytes, more than the 12,000 of a front page: move depth to docs/", st.Size())
	}
}

func keys(m map[string]func(*testing.T, string) int) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

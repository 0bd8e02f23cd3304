// Package grammarindex reads the index of testdata/grammars (the table in
// its README.md): each real-world grammar file, the start rules a user
// would generate a parser for, whether its values are octets, and whether
// gen must reject it. Tests iterate over it, so that a grammar added to the
// index is tested without touching a test.
package grammarindex

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Entry is one row of the index.
type Entry struct {
	File   string   // file name in the directory
	Starts []string // start rules; none when Reject
	Octets bool     // numeric values are octets ("values are octets, not code points")
	Reject bool     // "must be rejected": the reader must refuse the file
	Why    string   // for a rejected file, the index's reason
}

// Path returns the entry's file in dir.
func (e Entry) Path(dir string) string { return filepath.Join(dir, e.File) }

// Read reads the index of dir (dir/README.md).
func Read(dir string) ([]Entry, error) {
	b, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		return nil, err
	}
	var out []Entry
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 2 {
			continue
		}
		file := strings.TrimSpace(cells[0])
		if !strings.HasSuffix(file, ".abnf") {
			continue // the header and the separator row
		}
		if _, err := os.Stat(filepath.Join(dir, file)); err != nil {
			return nil, fmt.Errorf("%s/README.md:%d: %v", dir, i+1, err)
		}
		e := Entry{File: file}
		rules := strings.TrimSpace(cells[1])
		if note, ok := strings.CutPrefix(rules, "(must be rejected"); ok {
			e.Reject = true
			e.Why = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(note, ":"), ")"))
			out = append(out, e)
			continue
		}
		if j := strings.Index(rules, "("); j >= 0 {
			e.Octets = strings.Contains(rules[j:], "values are octets")
			rules = rules[:j]
		}
		e.Starts = strings.Fields(rules)
		if len(e.Starts) == 0 {
			return nil, fmt.Errorf("%s/README.md:%d: %s has no start rules", dir, i+1, file)
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s/README.md: no grammar in the index", dir)
	}
	return out, nil
}

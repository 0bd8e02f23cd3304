// Package corpus reads the conformance corpora in testdata/conformance: test
// vectors from public URI libraries' suites, one JSON object per line (see
// testdata/conformance/README.md for the format and provenance).
package corpus

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Record is one test vector. Fields keep JSON's distinction between a key
// that is absent (not asserted by the source) and one that is null (an
// undefined component).
type Record struct {
	File string // base name of the corpus file
	Line int
	Kind string
	raw  map[string]json.RawMessage
}

// Load reads every *.jsonl file in dir, in name order.
func Load(dir string) ([]Record, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []Record
	for _, f := range files {
		rs, err := LoadFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, rs...)
	}
	return out, nil
}

// LoadFile reads one corpus file.
func LoadFile(name string) ([]Record, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		r := Record{File: filepath.Base(name), Line: n}
		if err := json.Unmarshal(sc.Bytes(), &r.raw); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
		r.Kind, _, _ = r.String("kind")
		out = append(out, r)
	}
	return out, sc.Err()
}

// Has reports whether the record has the key, null or not.
func (r Record) Has(key string) bool { _, ok := r.raw[key]; return ok }

// String returns a string field: its value, whether it is non-null, and
// whether the key is present at all.
func (r Record) String(key string) (v string, defined, present bool) {
	m, ok := r.raw[key]
	if !ok {
		return "", false, false
	}
	if string(m) == "null" {
		return "", false, true
	}
	if err := json.Unmarshal(m, &v); err != nil {
		// Numbers (ports) are recorded as strings by the corpus, but be
		// lenient with the odd number.
		return strings.TrimSpace(string(m)), true, true
	}
	return v, true, true
}

// Str returns a string field, "" if absent or null.
func (r Record) Str(key string) string { v, _, _ := r.String(key); return v }

// Bool returns a boolean field and whether it is present.
func (r Record) Bool(key string) (v, present bool) {
	m, ok := r.raw[key]
	if !ok || string(m) == "null" {
		return false, false
	}
	if err := json.Unmarshal(m, &v); err != nil {
		return false, false
	}
	return v, true
}

// Flag returns a boolean field, false if absent.
func (r Record) Flag(key string) bool { v, _ := r.Bool(key); return v }

// Where names the record for messages: file:line and the source's own
// reference.
func (r Record) Where() string {
	s := fmt.Sprintf("%s:%d", r.File, r.Line)
	if src := r.Str("source"); src != "" {
		s += " (" + src + ")"
	}
	return s
}

// Object returns a nested object field as a record of the same file and
// line (kind empty), and whether it is present and an object.
func (r Record) Object(key string) (Record, bool) {
	m, ok := r.raw[key]
	if !ok || string(m) == "null" {
		return Record{}, false
	}
	sub := Record{File: r.File, Line: r.Line}
	if err := json.Unmarshal(m, &sub.raw); err != nil {
		return Record{}, false
	}
	return sub, true
}

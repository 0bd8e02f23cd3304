package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Stable ids. A case's id names the same question in every version of the
// suite, so that a report ("validity/URI/17 fails") can be cited across
// versions: conformance/ids.txt, the ledger, holds every id ever given,
// each with the key of its case (the question it asks, and where it comes
// from). A case whose key is in the ledger under its section keeps its
// id; a new case gets the next number of its prefix ("validity/URI/",
// "resolution/") after every number the ledger holds, so that a case
// added in front of others renumbers none of them; a case that goes away
// keeps its line, and its number is not given again. go run ./conformance
// only appends lines. TestFresh fails when the ledger on disk is not what
// it writes, TestIDsStable when a prefix's numbers have a gap (a line
// taken out), and .ci/run when a committed version of the ledger is not
// the beginning of the next (a line changed).

// ledgerFile is the ledger's path from the repository's root.
const ledgerFile = "conformance/ids.txt"

const ledgerHeader = `# The ids of conformance/rfc3986-suite.json: every id ever given to a case,
# with the case's key (its question, quoted, then its provenance), in the
# order they were given. Written by go run ./conformance, which only
# appends: an id whose key no case has any more is retired, never reused.
`

// ledger is the ledger in memory.
type ledger struct {
	lines []ledgerLine
	byKey map[string]string // prefix + "\x00" + key → id: a key is its section's
	ids   map[string]bool
	next  map[string]int // prefix → the number after its largest
}

type ledgerLine struct{ id, key string }

// readLedger reads the ledger at path. A missing file is an error, but
// with start (go run ./conformance -init), which begins an empty ledger:
// ids numbered anew would not be the ones published.
func readLedger(path string, start bool) (*ledger, error) {
	l := &ledger{byKey: map[string]string{}, ids: map[string]bool{}, next: map[string]int{}}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && start {
		return l, nil
	}
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, key, ok := strings.Cut(line, " ")
		if !ok || key == "" {
			return nil, fmt.Errorf("%s:%d: want an id, a space and a key", path, n)
		}
		if err := l.add(id, key); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
	}
	return l, sc.Err()
}

// add records that id names the case of key.
func (l *ledger) add(id, key string) error {
	prefix, num, err := splitID(id)
	if err != nil {
		return err
	}
	if l.ids[id] {
		return fmt.Errorf("id %s given twice", id)
	}
	k := prefix + "\x00" + key
	if old, ok := l.byKey[k]; ok {
		return fmt.Errorf("ids %s and %s for one key", old, id)
	}
	l.lines = append(l.lines, ledgerLine{id, key})
	l.byKey[k] = id
	l.ids[id] = true
	l.next[prefix] = max(l.next[prefix], num+1)
	return nil
}

// splitID splits "validity/URI/17" into "validity/URI/" and 17.
func splitID(id string) (string, int, error) {
	i := strings.LastIndexByte(id, '/')
	n, err := strconv.Atoi(id[i+1:])
	if i < 0 || err != nil || n < 1 || strconv.Itoa(n) != id[i+1:] {
		return "", 0, fmt.Errorf("id %q does not end in /N (N from 1, in decimal, without a sign or leading zeros)", id)
	}
	return id[:i+1], n, nil
}

// id is the id of the case of key, a new one after prefix's largest if
// the ledger has none.
func (l *ledger) id(prefix, key string) string {
	if id, ok := l.byKey[prefix+"\x00"+key]; ok {
		return id
	}
	id := prefix + strconv.Itoa(max(l.next[prefix], 1))
	if err := l.add(id, key); err != nil {
		panic(err) // unreachable: the number is past every one of prefix
	}
	return id
}

// bytes is the ledger as the file holds it.
func (l *ledger) bytes() []byte {
	var b bytes.Buffer
	b.WriteString(ledgerHeader)
	for _, x := range l.lines {
		fmt.Fprintf(&b, "%s %s\n", x.id, x.key)
	}
	return b.Bytes()
}

// key is the key of a case whose question is fields: each Go-quoted,
// then its provenance's identity (see tokens).
func key(p Provenance, fields ...string) string {
	q := make([]string, len(fields))
	for i, f := range fields {
		q[i] = strconv.Quote(f)
	}
	return tokens(p, q...)
}

// tokens joins a case's question, written as tokens, and its provenance's
// identity: two cases may ask one question (an RFC example, and the record
// of a library's suite that answers it otherwise).
func tokens(p Provenance, question ...string) string {
	var b strings.Builder
	for _, t := range question {
		b.WriteString(t)
		b.WriteByte(' ')
	}
	b.WriteString(p.Kind)
	switch p.Kind {
	case "rfc":
		b.WriteString(" " + strconv.Quote(p.Ref))
	case "corpus":
		// The record's place in its own suite (Origin) outlives its line
		// in our copy; a source without origins has only the line.
		b.WriteString(" " + strconv.Quote(p.Source))
		if p.Origin != "" {
			b.WriteString(" " + strconv.Quote(p.Origin))
		} else {
			b.WriteString(" " + strconv.Itoa(p.Line))
		}
	case "generated":
		b.WriteString(" " + strconv.Quote(p.Command))
		if p.Index != nil {
			b.WriteString(" " + strconv.Itoa(*p.Index))
		}
	}
	return b.String()
}

// optional is a building's field as a token: null, or quoted.
func optional(s *string) string {
	if s == nil {
		return "null"
	}
	return strconv.Quote(*s)
}

// stableIDs gives every case of s its id from l, and l an id for every
// new case. The builders numbered the cases by position; the prefix of
// that id is the one kept.
func stableIDs(s *Suite, l *ledger) error {
	seen := map[string]string{}
	set := func(id *string, k string) error {
		prefix, _, err := splitID(*id)
		if err != nil {
			return err
		}
		// Two cases of one section with one key could only be told apart
		// by their order, which is no identity: the suite must not have
		// them.
		if other, ok := seen[prefix+"\x00"+k]; ok {
			return fmt.Errorf("%s and %s: two cases with the key %s", other, *id, k)
		}
		seen[prefix+"\x00"+k] = *id
		*id = l.id(prefix, k)
		return nil
	}
	var errs []error
	for i := range s.Validity {
		c := &s.Validity[i]
		errs = append(errs, set(&c.ID, key(c.Provenance, c.Rule, c.Input)))
	}
	for i := range s.Components {
		c := &s.Components[i]
		errs = append(errs, set(&c.ID, key(c.Provenance, c.Input)))
	}
	for i := range s.Resolution {
		c := &s.Resolution[i]
		errs = append(errs, set(&c.ID, key(c.Provenance, c.Base, c.Reference, c.Mode)))
	}
	for i := range s.RemoveDotSegments {
		c := &s.RemoveDotSegments[i]
		errs = append(errs, set(&c.ID, key(c.Provenance, c.Input)))
	}
	for i := range s.Normalization {
		c := &s.Normalization[i]
		errs = append(errs, set(&c.ID, key(c.Provenance, c.Input, c.Level)))
	}
	for i := range s.Equivalence {
		c := &s.Equivalence[i]
		errs = append(errs, set(&c.ID, key(c.Provenance, c.A, c.B, c.Level)))
	}
	for i := range s.Encoding {
		c := &s.Encoding[i]
		errs = append(errs, set(&c.ID, key(c.Provenance, c.Component, c.Mode, c.Input)))
	}
	for i := range s.Decoding {
		c := &s.Decoding[i]
		errs = append(errs, set(&c.ID, tokens(c.Provenance, strconv.Quote(c.Input), strconv.FormatBool(c.Form))))
	}
	for i := range s.Building {
		c := &s.Building[i]
		port := "null"
		if c.Port != nil {
			port = strconv.Itoa(*c.Port)
		}
		path, query := "null", "null" // nil, where [] is the empty list
		if c.Path != nil {
			path = fmt.Sprintf("%q", c.Path)
		}
		if c.Query != nil {
			pairs := make([]string, 0, 2*len(c.Query))
			for _, p := range c.Query {
				pairs = append(pairs, p.Key, p.Value)
			}
			query = fmt.Sprintf("%q", pairs)
		}
		errs = append(errs, set(&c.ID, tokens(c.Provenance, optional(c.Scheme), optional(c.Userinfo), optional(c.Host), port,
			strconv.FormatBool(c.Absolute), path, query, optional(c.Fragment))))
	}
	return errors.Join(errs...)
}

package abnf

import (
	"fmt"
	"sort"
)

// Error is one problem found in a grammar, at a position.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList is a list of errors, in the style of go/scanner.ErrorList.
type ErrorList []*Error

// Add appends an error at pos.
func (l *ErrorList) Add(pos Pos, format string, args ...any) {
	*l = append(*l, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// Sort orders the list by position: files in the order they first appear in
// the list (the order they were read), then by offset within a file.
func (l ErrorList) Sort() {
	file := map[string]int{}
	for _, e := range l {
		if _, ok := file[e.Pos.File]; !ok {
			file[e.Pos.File] = len(file)
		}
	}
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.File != b.File {
			return file[a.File] < file[b.File]
		}
		return a.Offset < b.Offset
	})
}

// Error describes the first error and how many more there are.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Err returns l as an error, or nil if l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

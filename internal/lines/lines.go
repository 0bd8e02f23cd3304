// Package lines reads inputs one per line, the way the project's commands
// take them from standard input, in one of two modes.
//
// Raw ([Each]): every line is an input, the empty line included; only the
// "\n" terminator is removed, so a trailing "\r" is part of the input; a last
// line without a terminator is an input too. An input cannot hold "\n".
//
// Quoted ([EachQuoted]): every line is a Go double-quoted string, as
// strconv.Quote writes it, and the input is its value, so that any bytes
// (CR, LF, NUL, invalid UTF-8) can be carried. A "\r" after the closing quote
// is ignored, so that files with CRLF line ends read the same.
//
// Lines of any length are read, in constant memory beyond the longest line.
package lines

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// SyntaxError is a line of quoted input that is not a Go double-quoted
// string.
type SyntaxError struct {
	Line int    // 1-based
	Text string // the line
}

func (e *SyntaxError) Error() string {
	text := e.Text
	if len(text) > 60 {
		text = text[:60] + "…"
	}
	return fmt.Sprintf("line %d: not a Go double-quoted string: %q", e.Line, text)
}

// EachQuoted calls f for the value of every line of r, in order, each a Go
// double-quoted string. It stops at the first error f returns, and at the
// first line that does not unquote, with a *[SyntaxError].
func EachQuoted(r io.Reader, f func(in []byte) error) error {
	n := 0
	return Each(r, func(line []byte) error {
		n++
		text := line
		if k := len(text); k > 0 && text[k-1] == '\r' {
			text = text[:k-1]
		}
		if len(text) < 2 || text[0] != '"' {
			return &SyntaxError{Line: n, Text: string(line)}
		}
		s, err := strconv.Unquote(string(text))
		if err != nil {
			return &SyntaxError{Line: n, Text: string(line)}
		}
		return f([]byte(s))
	})
}

// Each calls f for every line of r, in order, and stops at the first error
// f returns. The slice passed to f is only valid until f returns.
func Each(r io.Reader, f func(line []byte) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if n := len(line); n > 0 {
			if line[n-1] == '\n' {
				line = line[:n-1]
			}
			if ferr := f(line); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// EachLimit is Each for inputs of at most max bytes, in memory bounded by
// max whatever the line lengths: f gets each line and its length in bytes,
// and for a line longer than max, only its first max bytes (the rest is
// read and dropped), with its whole length.
func EachLimit(r io.Reader, max int, f func(line []byte, size int) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	for {
		line, err := br.ReadSlice('\n')
		size := len(line)
		if err == bufio.ErrBufferFull {
			long = appendUpTo(long[:0], line, max+1)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				size += len(line)
				long = appendUpTo(long, line, max+1)
			}
			line = long
		}
		if size > 0 {
			if err == nil { // the line ends with its "\n"
				size--
			}
			line = line[:min(len(line), size, max)]
			if ferr := f(line, size); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// appendUpTo appends to b as much of p as keeps it at most limit bytes
// long, doubling its capacity as needed (append grows large slices by a
// quarter, which would allocate five times the final size on the way).
func appendUpTo(b, p []byte, limit int) []byte {
	p = p[:min(len(p), limit-len(b))]
	if n := len(b) + len(p); n > cap(b) {
		nb := make([]byte, len(b), min(max(2*cap(b), n), limit))
		copy(nb, b)
		b = nb
	}
	return append(b, p...)
}

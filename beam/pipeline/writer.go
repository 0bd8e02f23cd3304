package pipeline

import (
	"bufio"
	"io"
)

// lineWriter writes records a line each, keeping the first error.
type lineWriter struct {
	c io.Closer
	w *bufio.Writer
}

func newLineWriter(w io.WriteCloser) *lineWriter {
	return &lineWriter{c: w, w: bufio.NewWriterSize(w, 1<<20)}
}

func (l *lineWriter) line(s string) {
	l.w.WriteString(s)
	l.w.WriteByte('\n')
}

func (l *lineWriter) close() error {
	err := l.w.Flush()
	if cerr := l.c.Close(); err == nil {
		err = cerr
	}
	return err
}

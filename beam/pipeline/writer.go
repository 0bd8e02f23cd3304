package pipeline

import (
	"bufio"
	"context"
	"io"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// lineWriter writes records a line each to a file, keeping the first
// error, and closes the file and its file system.
type lineWriter struct {
	c []io.Closer
	w *bufio.Writer
}

func newLineWriter(w io.WriteCloser, fs io.Closer) *lineWriter {
	return &lineWriter{c: []io.Closer{w, fs}, w: bufio.NewWriterSize(w, 1<<20)}
}

func (l *lineWriter) line(s string) {
	l.w.WriteString(s)
	l.w.WriteByte('\n')
}

func (l *lineWriter) close() error {
	err := l.w.Flush()
	for _, c := range l.c {
		if cerr := c.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// removeDir removes what is left in a temporary directory (the files of
// bundles that failed), and the directory itself when it is local: object
// stores have no directories.
func removeDir(ctx context.Context, fs filesystem.Interface, dir string) error {
	left, err := fs.List(ctx, dir+"/*")
	if err != nil {
		return err
	}
	if r, ok := fs.(filesystem.Remover); ok {
		for _, f := range left {
			if err := r.Remove(ctx, f); err != nil {
				return err
			}
		}
	}
	if !strings.Contains(dir, "://") {
		if err := os.Remove(dir); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return nil
}

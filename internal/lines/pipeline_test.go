package lines

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// failReader returns its text, then err.
type failReader struct {
	r   io.Reader
	err error
}

func (f *failReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, f.err
	}
	return n, err
}

// TestOrdered: the lines come back whole and in input order, for any
// number of workers, chunks cut by lines or bytes, long lines clipped; a
// write error stops the reading and is returned; a read error is returned
// after the lines read before it.
func TestOrdered(t *testing.T) {
	var many strings.Builder
	var want []string
	for i := range 5000 {
		l := strings.Repeat("x", i%300) + fmt.Sprint(i)
		many.WriteString(l + "\n")
		want = append(want, l)
	}
	long := strings.Repeat("y", 3*ChunkBytes)
	readErr := errors.New("read failed")
	tests := []struct {
		name    string
		in      io.Reader
		max     int
		want    []string
		sizes   []int
		stopAt  int // write fails at this chunk (0: never)
		wantErr error
	}{
		{name: "many", in: strings.NewReader(many.String()), max: 1 << 20, want: want},
		{name: "empty", in: strings.NewReader(""), max: 10},
		{name: "no final newline", in: strings.NewReader("a\n\nb"), max: 10, want: []string{"a", "", "b"}},
		{name: "long line clipped", in: strings.NewReader("a\n" + long + "\nb\n"), max: 5, want: []string{"a", "yyyyy", "b"}, sizes: []int{1, len(long), 1}},
		{name: "write error", in: strings.NewReader(many.String()), max: 1 << 20, stopAt: 2, wantErr: errors.New("write failed")},
		{name: "read error", in: &failReader{strings.NewReader("a\nb\n"), readErr}, max: 10, want: []string{"a", "b"}, wantErr: readErr},
	}
	for _, tt := range tests {
		for _, workers := range []int{1, 2, 5} {
			t.Run(fmt.Sprintf("%s/%d", tt.name, workers), func(t *testing.T) {
				in := tt.in
				if s, ok := in.(*strings.Reader); ok {
					s.Seek(0, io.SeekStart)
					in = s
				} else if f, ok := in.(*failReader); ok {
					in = &failReader{strings.NewReader("a\nb\n"), f.err}
				}
				var got []string
				var sizes []int
				chunks := 0
				err := Ordered(in, tt.max, workers, func(ls []Line) []Line { return ls }, func(ls []Line) error {
					chunks++
					if chunks == tt.stopAt {
						return tt.wantErr
					}
					for _, l := range ls {
						got = append(got, string(l.Text))
						sizes = append(sizes, l.Size)
					}
					return nil
				})
				if (err == nil) != (tt.wantErr == nil) || err != nil && err.Error() != tt.wantErr.Error() {
					t.Fatalf("error %v, want %v", err, tt.wantErr)
				}
				if tt.stopAt > 0 {
					// The first chunk only, whole.
					if len(got) == 0 || len(got) > ChunkLines || !cmp.Equal(got, want[:len(got)]) {
						t.Errorf("%d lines written before the failing chunk, want the first chunk's", len(got))
					}
					return
				}
				if d := cmp.Diff(tt.want, got); d != "" {
					t.Errorf("lines (-want +got):\n%.1000s", d)
				}
				if tt.sizes != nil {
					if d := cmp.Diff(tt.sizes, sizes); d != "" {
						t.Errorf("sizes (-want +got):\n%s", d)
					}
				}
			})
		}
	}
}

package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
)

func init() {
	register.Function2x1(flattenBatch)
}

// flattenBatch is a batch's lines, one element each, and fails on a
// batch over the bounds.
func flattenBatch(b []string, emit func(string)) error {
	size := 0
	for _, l := range b {
		size += len(l) + 1
		emit(l)
	}
	if len(b) == 0 || len(b) > batchLines || size-len(b[len(b)-1])-1 >= batchBytes {
		return fmt.Errorf("a batch of %d lines, %d bytes", len(b), size)
	}
	return nil
}

// TestReadLines: the batches hold textio.Read's lines, each once: empty
// lines, carriage returns, a line longer than a batch's bytes, more lines
// than a batch holds, a last line without its newline, an empty file.
func TestReadLines(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 3*batchLines + 7 {
		fmt.Fprintf(&b, "http://h%d.example/\n", i)
		if i%1000 == 0 {
			b.WriteString("\n\r\nx\r\n" + strings.Repeat("a", batchBytes+i) + "\n")
		}
	}
	b.WriteString("last")
	files := map[string]string{"a.txt": b.String(), "b.txt": "\n", "c.txt": ""}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	glob := filepath.Join(dir, "*.txt")
	p, s := beam.NewPipelineWithRoot()
	got := beam.ParDo(s, flattenBatch, readLines(s, glob))
	passert.Equals(s, got, textio.Read(s, glob))
	// a.txt's newlines and its last line, b.txt's empty line.
	passert.Count(s, got, "lines", strings.Count(files["a.txt"], "\n")+2)
	if _, err := beam.Run(context.Background(), DefaultRunner, p); err != nil {
		t.Fatal(err)
	}
}

// TestBucket: a key's bucket is the same in every process (no random
// seed), and the buckets share the keys out evenly.
func TestBucket(t *testing.T) {
	for key, want := range map[string]int{"": 0, "http://example.com/": bucket("http://example.com/")} {
		if got := bucket(key); got != want {
			t.Errorf("bucket(%q) = %d, want %d", key, got, want)
		}
	}
	n := make([]int, buckets)
	const keys = 200 * buckets
	for i := range keys {
		n[bucket(fmt.Sprintf("https://%d.example.com/a/b?q=%d", i%5000, i))]++
	}
	for b, c := range n {
		if c < keys/buckets/2 || c > keys/buckets*2 {
			t.Errorf("bucket %d holds %d of %d keys", b, c, keys)
		}
	}
}

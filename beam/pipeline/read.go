package pipeline

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
)

// The batches of lines the reader emits: at most batchLines lines, and
// no more once they hold batchBytes bytes, so that a file of any size
// streams through in elements of bounded size.
const (
	batchLines = 4096
	batchBytes = 1 << 20
)

// readLines reads the files that glob matches as textio.Read does (the
// same lines: split on "\n", the newline not part of the line, the last
// one optional; the same splits of a file into 64 MB ranges), but emits
// the lines in batches, a []string each: every element costs the SDK
// far more than a line costs the parser.
func readLines(s beam.Scope, glob string) beam.PCollection {
	s = s.Scope("readLines")
	filesystem.ValidateScheme(glob)
	files := fileio.ReadMatches(s, fileio.MatchFiles(s, glob, fileio.MatchEmptyAllow()))
	return beam.ParDo(s, &readBatchFn{}, files)
}

// readBatchFn is a splittable DoFn over a file's byte range: it emits the
// lines that begin in its range, as textio's reader does.
type readBatchFn struct{}

const (
	splitSize int64 = 64 << 20 // textio's initial splits
	tooSmall        = splitSize / 4
)

func (readBatchFn) CreateInitialRestriction(f fileio.ReadableFile) offsetrange.Restriction {
	return offsetrange.Restriction{Start: 0, End: f.Metadata.Size}
}

func (readBatchFn) SplitRestriction(_ fileio.ReadableFile, r offsetrange.Restriction) []offsetrange.Restriction {
	splits := r.SizedSplits(splitSize)
	if n := len(splits); n > 1 && splits[n-1].End-splits[n-1].Start <= tooSmall {
		splits[n-2].End = splits[n-1].End
		splits = splits[:n-1]
	}
	return splits
}

func (readBatchFn) RestrictionSize(_ fileio.ReadableFile, r offsetrange.Restriction) float64 {
	return r.Size()
}

func (readBatchFn) CreateTracker(r offsetrange.Restriction) *sdf.LockRTracker {
	return sdf.NewLockRTracker(offsetrange.NewTracker(r))
}

func (readBatchFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, f fileio.ReadableFile, emit func([]string)) error {
	fd, err := f.Open(ctx)
	if err != nil {
		return err
	}
	defer fd.Close()
	rd := bufio.NewReaderSize(fd, 1<<20)
	end := rt.GetRestriction().(offsetrange.Restriction).End
	i := rt.GetRestriction().(offsetrange.Restriction).Start
	if i > 0 {
		// The first line of the range is the first that begins at or
		// after its start: skip to the byte before it, then to the end
		// of the line that holds that byte.
		i--
		if n, err := rd.Discard(int(i)); err == io.EOF {
			return fmt.Errorf("%s: the range begins at byte %d, the file has %d", f.Metadata.Path, i+1, n)
		} else if err != nil {
			return err
		}
		l, err := rd.ReadString('\n')
		if err == io.EOF {
			rt.TryClaim(end) // no line begins in the range
			return nil
		}
		if err != nil {
			return err
		}
		i += int64(len(l))
	}
	var batch []string
	size := 0
	add := func(l string) {
		if batch == nil {
			batch = make([]string, 0, batchLines)
		}
		batch = append(batch, strings.TrimSuffix(l, "\n"))
		size += len(l)
		if len(batch) == batchLines || size >= batchBytes {
			emit(batch)
			batch, size = nil, 0
		}
	}
	for rt.TryClaim(i) {
		l, err := rd.ReadString('\n')
		if err == io.EOF {
			if l != "" {
				add(l)
			}
			rt.TryClaim(end)
			break
		}
		if err != nil {
			return err
		}
		add(l)
		i += int64(len(l))
	}
	if len(batch) > 0 {
		emit(batch)
	}
	return nil
}

package lines

import (
	"errors"
	"io"
	"sync"
	"sync/atomic"
)

// Line is one line of a chunk, as EachLimit passes it: its first max
// bytes at most, and its whole length.
type Line struct {
	Text []byte
	Size int
}

// Chunk sizes: a chunk closes at ChunkLines lines or ChunkBytes bytes,
// whichever comes first.
const (
	ChunkLines = 512
	ChunkBytes = 64 << 10
)

// errStopped stops the reader once the writer has failed.
var errStopped = errors.New("lines: stopped")

// Ordered reads r as EachLimit does, in chunks of lines, runs work on each
// chunk on one of workers goroutines, and calls write with the results in
// input order, from one goroutine. At most 2×workers chunks are read and
// not yet written, so that memory stays bounded whatever the input's size.
// It stops reading at the first error write returns, and returns it; else
// the reader's error, if any, once the chunks read before it are written.
// Each chunk's lines are in a buffer of their own, never written again:
// work may keep them, or strings that alias them. With workers < 2 it
// calls work and write in turn, on the calling goroutine.
func Ordered[R any](r io.Reader, max, workers int, work func([]Line) R, write func(R) error) error {
	var (
		buf   []byte
		ends  []int // end offset in buf of each line
		sizes []int
	)
	chunk := func() []Line {
		ls := make([]Line, len(ends))
		start := 0
		for i, end := range ends {
			ls[i] = Line{Text: buf[start:end:end], Size: sizes[i]}
			start = end
		}
		return ls
	}
	if workers < 2 {
		var werr error // write's, which stops the reading
		flush := func() error {
			if len(ends) == 0 {
				return nil
			}
			werr = write(work(chunk()))
			buf, ends, sizes = nil, ends[:0], sizes[:0]
			return werr
		}
		err := EachLimit(r, max, func(line []byte, size int) error {
			if buf == nil {
				buf = make([]byte, 0, ChunkBytes+len(line))
			}
			buf = append(buf, line...)
			ends, sizes = append(ends, len(buf)), append(sizes, size)
			if len(ends) >= ChunkLines || len(buf) >= ChunkBytes {
				return flush()
			}
			return nil
		})
		if werr != nil {
			return werr
		}
		// A read error comes after the lines read before it.
		if ferr := flush(); ferr != nil {
			return ferr
		}
		return err
	}

	type job struct {
		lines []Line
		res   chan R
	}
	jobs := make(chan *job)
	order := make(chan *job, 2*workers) // its capacity bounds the chunks in flight
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				j.res <- work(j.lines)
			}
		}()
	}
	var stopped atomic.Bool
	werr := make(chan error, 1)
	go func() {
		var err error
		for j := range order {
			res := <-j.res
			if err == nil {
				if err = write(res); err != nil {
					stopped.Store(true)
				}
			}
		}
		werr <- err
	}()
	flush := func() {
		if len(ends) == 0 {
			return
		}
		j := &job{lines: chunk(), res: make(chan R, 1)}
		// Each chunk has a buffer of its own: the worker reads it while
		// the next is filled.
		buf, ends, sizes = nil, nil, nil
		order <- j
		jobs <- j
	}
	rerr := EachLimit(r, max, func(line []byte, size int) error {
		if stopped.Load() {
			return errStopped
		}
		if buf == nil {
			buf = make([]byte, 0, ChunkBytes+len(line))
		}
		buf = append(buf, line...)
		ends, sizes = append(ends, len(buf)), append(sizes, size)
		if len(ends) >= ChunkLines || len(buf) >= ChunkBytes {
			flush()
		}
		return nil
	})
	if rerr == nil || !errors.Is(rerr, errStopped) {
		flush()
	}
	close(order)
	close(jobs)
	err := <-werr
	wg.Wait()
	if err != nil {
		return err
	}
	if errors.Is(rerr, errStopped) {
		return nil // unreachable: stopped means write failed
	}
	return rerr
}

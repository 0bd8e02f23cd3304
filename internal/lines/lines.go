// Package lines reads inputs one per line, the way the project's commands
// take them from standard input: every line is an input, the empty line
// included; only the "\n" terminator is removed, so a trailing "\r" is part
// of the input; a last line without a terminator is an input too; lines of
// any length are read, in constant memory beyond the longest line.
package lines

import (
	"bufio"
	"io"
)

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

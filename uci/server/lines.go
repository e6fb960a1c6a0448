package server

import (
	"bufio"
	"errors"
	"io"
)

// MaxLineBytes is the longest input line the server reads, 16 MiB, not
// counting its line ending ("\n" or "\r\n"). A GUI sends a game as one
// position command that lists every move since the start, about 5 bytes a
// move, so 16 MiB holds some 3 million moves, far more than a game. A
// longer line is refused with an info string that names the limit and the
// line's length, and the server goes on with the next line: whatever a user
// or a GUI sends, the engine keeps working. Reading a line, the server holds
// no more than MaxLineBytes of it in memory.
const MaxLineBytes = 16 << 20

// keepLineBytes is the line buffer a lineReader keeps between lines; a
// larger one, grown for a long line, is dropped so that one long position
// command does not hold its memory for the rest of the session.
const keepLineBytes = 64 << 10

// lineReader reads an input one line at a time, keeping at most max bytes
// of a line. Unlike a bufio.Scanner, which stops for good at a line over its
// limit (bufio.ErrTooLong), it skips such a line to its end and reads on.
type lineReader struct {
	r    *bufio.Reader
	max  int
	line []byte // the kept bytes of the current line: at most max of them
}

// newLineReader returns a lineReader of in keeping at most max bytes of a
// line, reading through a buffer of bufSize bytes (16 at least, as
// bufio.NewReaderSize makes it).
func newLineReader(in io.Reader, max, bufSize int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(in, bufSize), max: max}
}

// next reads the next line and returns its length n in bytes, without its
// line ending ("\n", or "\r\n"), and line, its first min(n, max) bytes:
// the whole line when n <= max; when n > max, the line is too long, and
// the rest of it has been read and dropped. line is valid until the next
// call. A last line without a newline is returned as a line; after it next
// returns io.EOF, or the error that ended the input (and a line cut short by
// such an error is lost).
func (lr *lineReader) next() (line []byte, n int64, err error) {
	if cap(lr.line) > keepLineBytes {
		lr.line = nil
	}
	lr.line = lr.line[:0]
	var last byte // the last byte of the line so far, to strip a '\r' before the '\n'
	for {
		chunk, err := lr.r.ReadSlice('\n')
		complete := err == nil
		if complete {
			chunk = chunk[:len(chunk)-1]
		}
		if len(chunk) > 0 {
			n += int64(len(chunk))
			last = chunk[len(chunk)-1]
			if room := lr.max - len(lr.line); room > 0 {
				lr.keep(chunk[:min(room, len(chunk))])
			}
		}
		switch {
		case complete:
		case errors.Is(err, bufio.ErrBufferFull):
			continue // more of the line follows
		case errors.Is(err, io.EOF) && n > 0:
			// A last line without a newline.
		default:
			return nil, 0, err
		}
		if last == '\r' {
			n--
		}
		// When n <= max, every byte of the line was kept: the first max,
		// and at most a '\r' after them, which is not returned.
		return lr.line[:min(n, int64(len(lr.line)))], n, nil
	}
}

// keep appends b to the kept line, growing its buffer to max at most.
func (lr *lineReader) keep(b []byte) {
	if need := len(lr.line) + len(b); need > cap(lr.line) {
		grown := make([]byte, len(lr.line), min(max(2*cap(lr.line), need), lr.max))
		copy(grown, lr.line)
		lr.line = grown
	}
	lr.line = append(lr.line, b...)
}

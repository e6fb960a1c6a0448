package server

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestLineReader reads inputs through a lineReader keeping 20 bytes of a
// line through a 16-byte buffer, so that lines cross the buffer and a
// "\r\n" can be split by it, and checks every line and length it returns,
// the error that ends the input, and that it never holds more than 20
// bytes of a line.
func TestLineReader(t *testing.T) {
	const max, bufSize = 20, 16
	x := func(n int) string { return strings.Repeat("x", n) }
	errRead := errors.New("read failed")
	type line struct {
		text string
		n    int64
	}
	cases := []struct {
		name  string
		in    io.Reader
		lines []line
		err   error
	}{
		{"empty input", strings.NewReader(""), nil, io.EOF},
		{"lines", strings.NewReader("uci\nisready\n"), []line{{"uci", 3}, {"isready", 7}}, io.EOF},
		{"crlf and a last line without newline", strings.NewReader("uci\r\nisready"), []line{{"uci", 3}, {"isready", 7}}, io.EOF},
		{"empty lines", strings.NewReader("\n\r\n\n"), []line{{"", 0}, {"", 0}, {"", 0}}, io.EOF},
		{"a lone cr is kept inside a line", strings.NewReader("a\rb\n"), []line{{"a\rb", 3}}, io.EOF},
		{"crlf split by the buffer", strings.NewReader(x(15) + "\r\nok\n"), []line{{x(15), 15}, {"ok", 2}}, io.EOF},
		{"at the limit", strings.NewReader(x(20) + "\nok\n"), []line{{x(20), 20}, {"ok", 2}}, io.EOF},
		{"at the limit with crlf", strings.NewReader(x(20) + "\r\nok\n"), []line{{x(20), 20}, {"ok", 2}}, io.EOF},
		{"one over the limit", strings.NewReader(x(21) + "\nok\n"), []line{{x(20), 21}, {"ok", 2}}, io.EOF},
		{"one over the limit with crlf", strings.NewReader(x(21) + "\r\nok\n"), []line{{x(20), 21}, {"ok", 2}}, io.EOF},
		{"a cr after the limit, then more", strings.NewReader(x(20) + "\ry\nok\n"), []line{{x(20), 22}, {"ok", 2}}, io.EOF},
		{"far over the limit", strings.NewReader("a" + x(1000) + "\nok\n"), []line{{"a" + x(19), 1001}, {"ok", 2}}, io.EOF},
		{"a last line over the limit", strings.NewReader("ok\n" + x(50)), []line{{"ok", 2}, {x(20), 50}}, io.EOF},
		{"a read error loses the line it cuts", io.MultiReader(strings.NewReader("ok\npart"), iotest.ErrReader(errRead)), []line{{"ok", 2}}, errRead},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lr := newLineReader(c.in, max, bufSize)
			for i, want := range c.lines {
				got, n, err := lr.next()
				if err != nil || string(got) != want.text || n != want.n {
					t.Fatalf("line %d = %q, %d, %v; want %q, %d, nil", i, got, n, err, want.text, want.n)
				}
				if cap(lr.line) > max {
					t.Errorf("line %d: holds %d bytes, over the limit of %d", i, cap(lr.line), max)
				}
			}
			if got, n, err := lr.next(); !errors.Is(err, c.err) {
				t.Errorf("after the lines: %q, %d, %v; want the error %v", got, n, err, c.err)
			}
		})
	}
}

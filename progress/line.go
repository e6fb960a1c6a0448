package progress

import (
	"io"
	"os"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// clearLine moves the cursor to the start of the line and erases it.
const clearLine = "\r\033[K"

// Line is a terminal's live status line, shared by several reporters (one
// key each, shown side by side) and by the log: Line is an io.Writer, and
// writes through it clear the live line first and redraw it after, so that
// log lines scroll above it and it never leaves a trail. Its methods are
// safe for concurrent use.
type Line struct {
	mu    sync.Mutex // protects the fields below and serialises writes to w
	w     io.Writer
	width func() int // columns; 0: unknown, no truncation
	keys  []string   // in order of first Set
	texts map[string]string
	shown bool // the live line is on the screen
}

// NewLine returns a live line drawn on w. When w is a terminal the line is
// cut to its width, read at each draw, because a line that wraps can no
// longer be erased with a carriage return.
func NewLine(w io.Writer) *Line {
	l := &Line{w: w, texts: map[string]string{}, width: func() int { return 0 }}
	if f, ok := w.(*os.File); ok {
		l.width = func() int {
			ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
			if err != nil {
				return 0
			}
			return int(ws.Col)
		}
	}
	return l
}

// Set shows text for key, replacing key's previous text, and redraws.
func (l *Line) Set(key, text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.texts[key]; !ok {
		l.keys = append(l.keys, key)
	}
	l.texts[key] = text
	l.draw(clearLine)
}

// Remove drops key's text and redraws; the line is erased when no text
// is left.
func (l *Line) Remove(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.texts[key]; !ok {
		return
	}
	delete(l.texts, key)
	l.keys = removeKey(l.keys, key)
	l.draw(clearLine)
}

// Write writes p (whole log lines) above the live line: it erases the
// line, writes p, and draws the line again.
func (l *Line) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shown {
		if _, err := io.WriteString(l.w, clearLine); err != nil {
			return 0, err
		}
		l.shown = false
	}
	n, err := l.w.Write(p)
	if err != nil {
		return n, err
	}
	l.draw("")
	return n, nil
}

// draw writes prefix and the live line, or erases the line when it has no
// text; l.mu is held.
func (l *Line) draw(prefix string) {
	parts := make([]string, 0, len(l.keys))
	for _, k := range l.keys {
		parts = append(parts, l.texts[k])
	}
	text := strings.Join(parts, " | ")
	if text == "" {
		if l.shown {
			io.WriteString(l.w, clearLine)
			l.shown = false
		}
		return
	}
	// One column short of the width: a line that fills the last column
	// leaves some terminals' cursor on the next row.
	if width := l.width(); width > 1 && utf8.RuneCountInString(text) > width-1 {
		text = string([]rune(text)[:width-1])
	}
	io.WriteString(l.w, prefix+text)
	l.shown = true
}

// removeKey returns keys without key.
func removeKey(keys []string, key string) []string {
	for i, k := range keys {
		if k == key {
			return append(keys[:i], keys[i+1:]...)
		}
	}
	return keys
}

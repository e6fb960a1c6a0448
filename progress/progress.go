// Package progress reports the progress of long work: on a terminal a live
// line (what, done/total, rate, ETA) redrawn in place; elsewhere one plain
// line per milestone (every tenth of the work, and at least every
// QuietLimit while work goes on), so that logs stay short.
// A Line shares one live line between several reporters and a log that
// writes through it, so that log lines scroll above the live line.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Reporter reports the progress of one piece of work. Its methods are safe
// for concurrent use.
type Reporter struct {
	mu       sync.Mutex
	w        io.Writer
	what     string
	unit     string
	total    int
	live     bool
	start    time.Time
	lastDraw time.Time
	nextMark int       // next milestone (in tenths) to log when not live
	lastLine time.Time // when the last line was logged (or the work began), when not live
	note     string    // shown after the rate: "best cost 21", say
	now      func() time.Time
	// line and key, when line is set, draw the live text on a shared Line
	// instead of on w.
	line *Line
	key  string
}

// New returns a reporter that writes to w about total units of work (games,
// generations) named by unit. live selects the redrawn terminal line; use
// IsTerminal to decide.
func New(w io.Writer, what string, total int, unit string, live bool) *Reporter {
	r := &Reporter{w: w, what: what, unit: unit, total: total, live: live, now: time.Now, nextMark: 1}
	r.start = r.now()
	r.lastLine = r.start
	return r
}

// NewOnLine returns a live reporter that shows its text on line under key,
// beside the other reporters' and below the log. Finish leaves the last
// text on the line; the next reporter with the same key replaces it.
func NewOnLine(line *Line, key, what string, total int, unit string) *Reporter {
	r := New(nil, what, total, unit, true)
	r.line, r.key = line, key
	return r
}

// IsTerminal reports whether w is a terminal (a character device).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Update records that done units are finished.
func (r *Reporter) Update(done int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.update(done)
}

// UpdateNote records that done units are finished and sets the note shown
// after the rate (the best cost so far, say).
func (r *Reporter) UpdateNote(done int, note string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.note = note
	r.update(done)
}

// update draws or logs the line if it is time to; r.mu is held.
func (r *Reporter) update(done int) {
	now := r.now()
	if r.live {
		// Redraw at most ten times a second, and always at the end.
		if done < r.total && now.Sub(r.lastDraw) < 100*time.Millisecond {
			return
		}
		r.lastDraw = now
		if r.line != nil {
			r.line.Set(r.key, r.text(done, now))
			return
		}
		fmt.Fprintf(r.w, "%s%s", clearLine, r.text(done, now))
		return
	}
	mark := false // a tenth of the work done since the last mark
	for r.total > 0 && done*10 >= r.nextMark*r.total {
		r.nextMark, mark = r.nextMark+1, true
	}
	if mark || now.Sub(r.lastLine) >= QuietLimit {
		r.lastLine = now
		fmt.Fprintln(r.w, r.text(done, now))
	}
}

// QuietLimit is the longest a reporter that is not live stays silent while
// work goes on: work whose tenths take longer (an SPRT bounded by many
// more games than it plays, a slow rating) logs a line at least this
// often, at its next update.
const QuietLimit = 10 * time.Minute

// Clear erases the live line, if any, so that other output to the same
// terminal (a table's row on standard output) takes its place; the next
// update draws it again below that output.
func (r *Reporter) Clear() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.live && r.line == nil {
		fmt.Fprint(r.w, clearLine)
		r.lastDraw = time.Time{}
	}
}

// Finish ends the live line, if any.
func (r *Reporter) Finish() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.live && r.line == nil {
		fmt.Fprintln(r.w)
	}
}

// text formats "what: done/total unit, rate unit/s, ETA d".
func (r *Reporter) text(done int, now time.Time) string {
	elapsed := now.Sub(r.start).Seconds()
	rate := 0.0
	if elapsed > 0 {
		rate = float64(done) / elapsed
	}
	s := fmt.Sprintf("%s: %d/%d %s, %.1f %s/s", r.what, done, r.total, r.unit, rate, r.unit)
	if r.note != "" {
		s += ", " + r.note
	}
	if done >= r.total {
		return s + fmt.Sprintf(", done in %s", Round(now.Sub(r.start)))
	}
	if rate > 0 {
		eta := time.Duration(float64(r.total-done) / rate * float64(time.Second))
		s += fmt.Sprintf(", ETA %s", Round(eta))
	}
	return s
}

// Round shortens a duration for display: to the minute from an hour, to
// the second from a minute, else to a tenth of a second.
func Round(d time.Duration) time.Duration {
	switch {
	case d >= time.Hour:
		return d.Round(time.Minute)
	case d >= time.Minute:
		return d.Round(time.Second)
	}
	return d.Round(100 * time.Millisecond)
}

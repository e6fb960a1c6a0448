package progress

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestMilestonesWhenNotLive(t *testing.T) {
	var b strings.Builder
	r := New(&b, "match", 20, "games", false)
	clock := r.start
	r.now = func() time.Time { return clock }
	for i := 1; i <= 20; i++ {
		clock = clock.Add(time.Second)
		r.Update(i)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 10 {
		t.Fatalf("got %d lines, want 10 (one per tenth):\n%s", len(lines), b.String())
	}
	if want := "match: 2/20 games, 1.0 games/s, ETA 18s"; lines[0] != want {
		t.Errorf("first line %q, want %q", lines[0], want)
	}
	if want := "match: 20/20 games, 1.0 games/s, done in 20s"; lines[9] != want {
		t.Errorf("last line %q, want %q", lines[9], want)
	}
}

// TestQuietLimit checks that slow work logs between its tenths: a line at
// the first update QuietLimit after the last one, and none before.
func TestQuietLimit(t *testing.T) {
	var b strings.Builder
	r := New(&b, "match", 1000, "games", false)
	clock := r.start
	r.now = func() time.Time { return clock }
	for i := 1; i <= 30; i++ { // 30 games, 2 minutes each: none is a tenth
		clock = clock.Add(2 * time.Minute)
		r.UpdateNote(i, fmt.Sprintf("LLR %d", i))
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 6 {
		t.Fatalf("got %d lines over 60 minutes, want 6 (one every 10):\n%s", len(lines), b.String())
	}
	if !strings.HasPrefix(lines[0], "match: 5/1000 games") || !strings.Contains(lines[0], "LLR 5") ||
		!strings.HasPrefix(lines[5], "match: 30/1000 games") {
		t.Errorf("lines %q ... %q, want games 5 and 30 with their notes", lines[0], lines[5])
	}
	r.Update(100) // a tenth logs at once
	if got := strings.Count(b.String(), "\n"); got != 7 {
		t.Errorf("%d lines after the first tenth, want 7", got)
	}
}

func TestLiveLineRedraws(t *testing.T) {
	var b strings.Builder
	r := New(&b, "gen 3", 4, "games", true)
	clock := r.start
	r.now = func() time.Time { return clock }
	for i := 1; i <= 4; i++ {
		clock = clock.Add(time.Second)
		r.Update(i)
	}
	r.Finish()
	out := b.String()
	if n := strings.Count(out, "\r\033[K"); n != 4 {
		t.Errorf("redrew %d times, want 4: %q", n, out)
	}
	if !strings.HasSuffix(out, "gen 3: 4/4 games, 1.0 games/s, done in 4s\n") {
		t.Errorf("output %q does not end with the finished line", out)
	}
}

// TestClearMakesRoom checks that Clear erases the live line and that the
// next update, however soon, draws it again; on a log it writes nothing.
func TestClearMakesRoom(t *testing.T) {
	var b strings.Builder
	r := New(&b, "climb", 4, "games", true)
	clock := r.start
	r.now = func() time.Time { return clock }
	clock = clock.Add(time.Second)
	r.Update(1)
	r.Clear()
	r.Update(2) // within 100 ms of the last draw: drawn because of Clear
	want := "\r\033[Kclimb: 1/4 games, 1.0 games/s, ETA 3s" + "\r\033[K" + "\r\033[Kclimb: 2/4 games, 2.0 games/s, ETA 1s"
	if got := b.String(); got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
	var log strings.Builder
	r = New(&log, "climb", 4, "games", false)
	r.Clear()
	if log.Len() != 0 {
		t.Errorf("Clear on a log wrote %q", log.String())
	}
}

func TestNote(t *testing.T) {
	var b strings.Builder
	r := New(&b, "meta sa", 10, "iterations", false)
	clock := r.start
	r.now = func() time.Time { return clock }
	clock = clock.Add(2 * time.Second)
	r.UpdateNote(1, "best cost 21")
	if want := "meta sa: 1/10 iterations, 0.5 iterations/s, best cost 21, ETA 18s\n"; b.String() != want {
		t.Errorf("line %q, want %q", b.String(), want)
	}
}

// TestLineKeepsLogsAbove checks the bytes a Line writes: each text set
// erases and redraws the line, a log write erases it, writes the log
// line and redraws it, and removing the last text erases it.
func TestLineKeepsLogsAbove(t *testing.T) {
	var b bytes.Buffer
	l := NewLine(&b)
	step := func(what string, do func(), want string) {
		t.Helper()
		b.Reset()
		do()
		if b.String() != want {
			t.Errorf("%s wrote %q, want %q", what, b.String(), want)
		}
	}
	step("a log line with no live line", func() { l.Write([]byte("log 1\n")) }, "log 1\n")
	step("Set", func() { l.Set("draughts", "draughts generation 3: 1/4 games") }, "\r\033[Kdraughts generation 3: 1/4 games")
	step("a second key", func() { l.Set("chess", "chess generation 1: 0/9 games") },
		"\r\033[Kdraughts generation 3: 1/4 games | chess generation 1: 0/9 games")
	step("a log line", func() { l.Write([]byte("log 2\n")) },
		"\r\033[Klog 2\ndraughts generation 3: 1/4 games | chess generation 1: 0/9 games")
	step("Remove", func() { l.Remove("draughts") }, "\r\033[Kchess generation 1: 0/9 games")
	step("Remove the last", func() { l.Remove("chess") }, "\r\033[K")
	step("a log line after", func() { l.Write([]byte("log 3\n")) }, "log 3\n")
}

// TestLineFitsTheWidth checks that a line longer than the terminal is cut
// one column short, since a wrapped line cannot be erased in place.
func TestLineFitsTheWidth(t *testing.T) {
	var b bytes.Buffer
	l := NewLine(&b)
	l.width = func() int { return 10 }
	l.Set("k", "0123456789abc±")
	if want := "\r\033[K012345678"; b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}
}

// TestReporterOnLine checks a reporter drawing on a shared Line: the same
// text as the plain live line, and Finish leaving it for the next one.
func TestReporterOnLine(t *testing.T) {
	var b bytes.Buffer
	l := NewLine(&b)
	r := NewOnLine(l, "draughts", "draughts generation 0", 4, "games")
	clock := r.start
	r.now = func() time.Time { return clock }
	clock = clock.Add(2 * time.Second)
	r.UpdateNote(2, "120.0 gens/hour")
	r.Finish()
	if want := "\r\033[Kdraughts generation 0: 2/4 games, 1.0 games/s, 120.0 gens/hour, ETA 2s"; b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}
}

package progress

import (
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

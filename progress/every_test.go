package progress

import (
	"context"
	"testing"
	"time"
)

// TestEvery checks that Every calls f with growing elapsed times until
// stop is called, and not after it returns.
func TestEvery(t *testing.T) {
	calls := make(chan time.Duration, 100)
	stop := Every(context.Background(), time.Millisecond, func(elapsed time.Duration) { calls <- elapsed })
	first, second := <-calls, <-calls
	if first <= 0 || second < first {
		t.Errorf("Every: elapsed %v then %v, want positive and growing", first, second)
	}
	stop()
	for len(calls) > 0 {
		<-calls
	}
	time.Sleep(20 * time.Millisecond)
	if n := len(calls); n != 0 {
		t.Errorf("Every: %d calls after stop, want 0", n)
	}
}

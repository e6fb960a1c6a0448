package progress

import (
	"context"
	"time"
)

// Every calls f every interval, with the time since Every was called,
// from a goroutine of its own, until ctx is done or the returned stop is
// called: the heartbeat of long work (a worker's "games played" log line,
// a cluster job's "still in progress" to the server). f runs on that one
// goroutine, one call at a time; stop waits for a call under way to end,
// so that f is never called after stop returns.
func Every(ctx context.Context, interval time.Duration, f func(elapsed time.Duration)) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	start := time.Now()
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				f(time.Since(start))
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

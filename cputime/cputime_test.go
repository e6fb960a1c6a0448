package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestSecondsCountsTheSpin spins for 200 ms of wall-clock time and checks
// that Seconds rose by more than nothing and by no more than the CPU time
// the machine's CPUs could have given in that time: it counts, and in
// seconds (a unit error would be off by a factor of a thousand).
func TestSecondsCountsTheSpin(t *testing.T) {
	if Seconds() == 0 {
		t.Skip("Seconds is not measured on " + runtime.GOOS)
	}
	start, wall := Seconds(), time.Now()
	x := uint64(1)
	for time.Since(wall) < 200*time.Millisecond {
		for range 10000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	used, elapsed := Seconds()-start, time.Since(wall).Seconds()
	if x == 0 {
		t.Log("the spin's result, kept so that the loop stays")
	}
	if limit := elapsed*float64(runtime.NumCPU()) + 0.02; used <= 0 || used > limit {
		t.Errorf("Seconds rose by %v s in %v s of spinning on %d CPUs, want above 0 and at most %v", used, elapsed, runtime.NumCPU(), limit)
	}
}

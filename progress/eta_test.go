package progress

import (
	"math"
	"testing"
	"time"
)

// TestRemaining checks the ETA to a generation target against values
// worked out by hand.
func TestRemaining(t *testing.T) {
	for _, tc := range []struct {
		name               string
		generation, target int
		perHour            float64
		ok                 bool
		left               int
		hours              float64
		duration           time.Duration
	}{
		{"no target", 10, 0, 6, false, 0, 0, 0},
		{"a negative target", 10, -5, 6, false, 0, 0, 0},
		{"no rate yet", 10, 100, 0, false, 0, 0, 0},
		{"a negative rate", 10, 100, -1, false, 0, 0, 0},
		{"an undefined rate", 10, 100, math.NaN(), false, 0, 0, 0},
		{"90 to go at 6 an hour", 10, 100, 6, true, 90, 15, 15 * time.Hour},
		{"1 to go at 4 an hour", 99, 100, 4, true, 1, 0.25, 15 * time.Minute},
		{"3 to go at 7 an hour", 0, 3, 7, true, 3, 3.0 / 7, 1542857142857 * time.Nanosecond}, // truncated
		{"the target reached", 100, 100, 6, true, 0, 0, 0},
		{"the target passed", 120, 100, 6, true, 0, 0, 0},
	} {
		e, ok := Remaining(tc.generation, tc.target, tc.perHour)
		if ok != tc.ok || e.Left != tc.left || e.Hours != tc.hours || e.Duration() != tc.duration {
			t.Errorf("%s: Remaining(%d, %d, %g) = %+v (%v), %v; want {Left:%d Hours:%g} (%v), %v", tc.name,
				tc.generation, tc.target, tc.perHour, e, e.Duration(), ok, tc.left, tc.hours, tc.duration, tc.ok)
		}
	}
}

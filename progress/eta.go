package progress

import "time"

// ETA is the way from a run's generation to its generation target at a
// measured rate: what `evolved status`, the web site's overview and the
// daemon's live line show.
type ETA struct {
	// Left is the number of generations to go: 0 once the target is
	// reached or passed.
	Left int
	// Hours is the time Left takes at the rate, in hours.
	Hours float64
}

// Duration returns e's time as a duration, truncated to the nanosecond.
func (e ETA) Duration() time.Duration { return time.Duration(e.Hours * float64(time.Hour)) }

// Remaining returns the ETA from generation to target at perHour
// generations an hour. ok is false when there is none to give: without a
// target (target <= 0) or without a rate (perHour not above 0, as before
// the first generation is timed).
func Remaining(generation, target int, perHour float64) (e ETA, ok bool) {
	if target <= 0 || !(perHour > 0) {
		return ETA{}, false
	}
	left := max(0, target-generation)
	return ETA{Left: left, Hours: float64(left) / perHour}, true
}

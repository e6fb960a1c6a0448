package game

import "testing"

func TestResultTag(t *testing.T) {
	for r, want := range map[Result]string{FirstWins: "1-0", SecondWins: "0-1", Draw: "1/2-1/2", Ongoing: "*"} {
		if got := r.Tag(); got != want {
			t.Errorf("%v.Tag() = %q, want %q", r, got, want)
		}
	}
}

func TestResultFirstScore(t *testing.T) {
	for r, want := range map[Result]float64{FirstWins: 1, SecondWins: 0, Draw: 0.5, Ongoing: 0.5} {
		if got := r.FirstScore(); got != want {
			t.Errorf("%v.FirstScore() = %v, want %v", r, got, want)
		}
	}
}

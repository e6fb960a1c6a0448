package game

import "testing"

func TestResultTag(t *testing.T) {
	for r, want := range map[Result]string{FirstWins: "1-0", SecondWins: "0-1", Draw: "1/2-1/2", Ongoing: "*"} {
		if got := r.Tag(); got != want {
			t.Errorf("%v.Tag() = %q, want %q", r, got, want)
		}
	}
}

// TestParseTag reads back what Tag writes, and refuses what it does not.
func TestParseTag(t *testing.T) {
	for s, want := range map[string]Result{"1-0": FirstWins, "0-1": SecondWins, "1/2-1/2": Draw, "*": Ongoing} {
		if got, ok := ParseTag(s); got != want || !ok {
			t.Errorf("ParseTag(%q) = %v, %v, want %v, true", s, got, ok, want)
		}
	}
	for _, s := range []string{"", "2-0", "1-1", "½-½", "1-0 "} {
		if got, ok := ParseTag(s); ok || got != Ongoing {
			t.Errorf("ParseTag(%q) = %v, %v, want ongoing, false", s, got, ok)
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

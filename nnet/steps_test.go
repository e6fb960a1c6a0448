package nnet

import (
	"encoding/json"
	"math"
	"testing"
)

// TestStepsAt checks the decaying steps against factors worked out by
// hand: halved every HalfLife generations, linear in between, never below
// Floor, every part scaled alike.
func TestStepsAt(t *testing.T) {
	s := Steps{Net: 1, Tables: 0.5, Values: 0.2, TableScale: 0.1, HalfLife: 100, Floor: 0.05}
	for _, tc := range []struct {
		generation int
		factor     float64
	}{
		{0, 1},
		{50, 0.75},              // 1 - 50/200
		{99, 0.505},             // 1 - 99/200, just above the next half
		{100, 0.5},              // one half-life
		{150, 0.375},            // 0.5 (1 - 50/200)
		{250, 0.1875},           // 0.25 (1 - 50/200)
		{432, 0.0525},           // 2^-4 (1 - 32/200)
		{433, 0.0521875},        // 2^-4 (1 - 33/200)
		{440, 0.05},             // 2^-4 (1 - 40/200) = 0.05: the floor reached
		{500, 0.05},             // 2^-5 = 0.03125, below the floor
		{200_000, 0.05},         // 2^-2000 underflows; still the floor
		{math.MaxInt32, 0.05},   // no overflow in the arithmetic
		{100_000_000_000, 0.05}, // a generation no run reaches
	} {
		got := s.At(tc.generation)
		want := Steps{Net: tc.factor, Tables: 0.5 * tc.factor, Values: 0.2 * tc.factor, TableScale: 0.1 * tc.factor}
		const eps = 1e-15
		if math.Abs(got.Net-want.Net) > eps || math.Abs(got.Tables-want.Tables) > eps ||
			math.Abs(got.Values-want.Values) > eps || math.Abs(got.TableScale-want.TableScale) > eps ||
			got.HalfLife != 0 || got.Floor != 0 {
			t.Errorf("At(%d) = %+v, want %+v", tc.generation, got, want)
		}
	}
	prev := s.At(0).Net
	for g := 1; g < 1000; g++ {
		f := s.At(g).Net
		if f > prev || prev-f > 0.5/100+1e-12 {
			t.Fatalf("At(%d).Net = %v after %v: want a continuous decay, at most 0.5/HalfLife a generation", g, f, prev)
		}
		prev = f
	}
	plain := Steps{Net: 0.1, Tables: 0.1}
	if got := plain.At(5000); got != plain {
		t.Errorf("At without HalfLife = %+v, want the steps unchanged, %+v", got, plain)
	}
}

// TestStepsJSONOfOldRuns checks that steps without a decay encode as they
// did before HalfLife existed: a run stores its steps' JSON, and a resume
// that encoded them differently would be refused as another run's.
func TestStepsJSONOfOldRuns(t *testing.T) {
	b, err := json.Marshal(Steps{Net: 0.1, Tables: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"Net":0.1,"Tables":0.1,"Values":0,"TableScale":0}`; string(b) != want {
		t.Errorf("steps encode as %s, want %s as runs stored them", b, want)
	}
	b, err = json.Marshal(Steps{Net: 1, Tables: 1, HalfLife: 100, Floor: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	var back Steps
	if err := json.Unmarshal(b, &back); err != nil || back != (Steps{Net: 1, Tables: 1, HalfLife: 100, Floor: 0.05}) {
		t.Errorf("%s reads back as %+v (%v)", b, back, err)
	}
}

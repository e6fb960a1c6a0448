package elo

import (
	"math"
	"testing"
)

func TestExpectedAndDiff(t *testing.T) {
	for _, c := range []struct{ d, s float64 }{
		{0, 0.5},
		{400, 10.0 / 11},
		{-400, 1.0 / 11},
		{800, 100.0 / 101},
		{190.84850188786497, 0.75}, // 400*log10(3)
	} {
		if got := Expected(c.d); math.Abs(got-c.s) > 1e-15 {
			t.Errorf("Expected(%v) = %v, want %v", c.d, got, c.s)
		}
		if got := Diff(c.s); math.Abs(got-c.d) > 1e-9 {
			t.Errorf("Diff(%v) = %v, want %v", c.s, got, c.d)
		}
	}
	if !math.IsInf(Diff(1), 1) || !math.IsInf(Diff(0), -1) {
		t.Errorf("Diff(1), Diff(0) = %v, %v, want +Inf, -Inf", Diff(1), Diff(0))
	}
}

func TestEstimate(t *testing.T) {
	cases := []struct {
		w, d, l  int
		elo, tol float64
	}{
		{50, 0, 50, 0, 1e-9},
		{75, 0, 25, 190.849, 0.01}, // -400*log10(1/0.75-1)
		{25, 0, 75, -190.849, 0.01},
		{0, 100, 0, 0, 1e-9},
	}
	for _, c := range cases {
		elo, ci := Estimate(c.w, c.d, c.l)
		if math.Abs(elo-c.elo) > c.tol {
			t.Errorf("Estimate(%d,%d,%d) = %.3f, want %.3f", c.w, c.d, c.l, elo, c.elo)
		}
		if math.IsNaN(ci) || ci < 0 {
			t.Errorf("Estimate(%d,%d,%d): interval %v", c.w, c.d, c.l, ci)
		}
	}
	// 75%: se of the score = sqrt(0.75*0.25/100) = 0.0433; d elo/dp at 0.75
	// = 400/(ln10*0.1875) = 926.5; half-width = 1.96*0.0433*926.5 = 78.6.
	if _, ci := Estimate(75, 0, 25); math.Abs(ci-78.6) > 0.2 {
		t.Errorf("75/25: half-width %.2f, want 78.6", ci)
	}
	// 20-0 is read as 19.5/20: elo = -400*log10(1/0.975-1) = 636.4, and the
	// interval 1.96*sqrt(0.975*0.025/20)*400/(ln10*0.975*0.025)
	// = 1.96*0.034911*7126.8 = 487.6.
	if elo, ci := Estimate(20, 0, 0); math.Abs(elo-636.4) > 0.1 || math.Abs(ci-487.6) > 0.1 {
		t.Errorf("20-0: elo %.1f ± %.1f, want 636.4 ± 487.6", elo, ci)
	}
	// The exact values (of the code before it moved here from tournament):
	// the baselines' Elo and interval are stored, so they must not move by
	// a bit.
	for _, c := range []struct {
		w, d, l int
		elo, ci float64
	}{
		{75, 0, 25, 190.848501887865, 78.63063103778389},
		{20, 0, 0, 636.4258428105987, 487.64647256767483},
		{31, 52, 17, 48.962560037161914, 47.128839696214385},
	} {
		if elo, ci := Estimate(c.w, c.d, c.l); elo != c.elo || ci != c.ci {
			t.Errorf("Estimate(%d,%d,%d) = %v ± %v, want exactly %v ± %v", c.w, c.d, c.l, elo, ci, c.elo, c.ci)
		}
	}
	if elo, ci := Estimate(0, 0, 0); elo != 0 || !math.IsInf(ci, 1) {
		t.Errorf("no game: elo %v ± %v, want 0 ± +Inf", elo, ci)
	}
}

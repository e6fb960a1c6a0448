package elo

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

var nan = math.NaN()

// simulate draws games between players with the true ratings: the first
// mover's expected score is Expected(d) for d the rating difference plus
// adv, and a share drawShare of min(E, 1-E) of the games are drawn, so
// that draws are common between equals and rare in lopsided games.
func simulate(rng *rand.Rand, ratings []float64, pairs [][2]int, gamesPerPair int, drawShare, adv float64) []Game {
	var out []Game
	for _, p := range pairs {
		for k := range gamesPerPair {
			first, second := p[0], p[1]
			if k%2 == 1 {
				first, second = second, first
			}
			e := Expected(ratings[first] - ratings[second] + adv)
			draw := drawShare * 2 * math.Min(e, 1-e)
			win, loss := e-draw/2, 1-e-draw/2
			score := 0.5
			switch x := rng.Float64(); {
			case x < win:
				score = 1
			case x < win+loss:
				score = 0
			}
			out = append(out, Game{First: first, Second: second, Score: score})
		}
	}
	return out
}

func TestFitOneAnchorMatchesTheClosedForm(t *testing.T) {
	// 40 games against an anchor at 1000, colours balanced: 15 wins and 5
	// losses with each colour, no draw. The advantage is then 0 and the
	// rating solves 30 + PriorWeight/2 = (40 + PriorWeight)·σ(x): the
	// closed form below, derived by hand.
	var games []Game
	for first := range 2 {
		for k := range 20 {
			score := 1.0
			if k >= 15 {
				score = 0
			}
			if first == 1 {
				games = append(games, Game{First: 1, Second: 0, Score: 1 - score})
			} else {
				games = append(games, Game{First: 0, Second: 1, Score: score})
			}
		}
	}
	got, model, err := Fit([]float64{nan, 1000}, games)
	if err != nil {
		t.Fatal(err)
	}
	s := (30 + PriorWeight/2) / (40 + PriorWeight)
	want := 1000 + 400*math.Log10(s/(1-s))
	if math.Abs(got[0].Elo-want) > 1e-6 {
		t.Errorf("Elo = %.6f, want %.6f", got[0].Elo, want)
	}
	// The information about x is (40 + PriorWeight)·σ(1-σ) in natural
	// units (the advantage's cross terms cancel with balanced colours),
	// and the dispersion that of 30 wins and 10 losses at expectation s.
	dispersion := (30*(1-s)*(1-s) + 10*s*s) / (40 * s * (1 - s))
	wantHW := Z95 * math.Sqrt(dispersion/((40+PriorWeight)*s*(1-s))) / eloScale
	if math.Abs(got[0].HalfWidth-wantHW) > 1e-6 {
		t.Errorf("half-width = %.6f, want %.6f", got[0].HalfWidth, wantHW)
	}
	if math.Abs(model.Advantage) > 1e-6 || model.DrawRatio != 0 || math.Abs(model.Dispersion-dispersion) > 1e-9 {
		t.Errorf("model = %+v, want no advantage, no draws, dispersion %v", model, dispersion)
	}
	if got[1].Elo != 1000 || got[1].HalfWidth != 0 || got[0].Games != 40 || got[1].Games != 40 {
		t.Errorf("anchor = %+v, player games %d", got[1], got[0].Games)
	}
}

func TestFitRecoversSyntheticRatings(t *testing.T) {
	truth := []float64{0, 250, -180, 520, 100}
	const drawShare, adv = 0.6, 35.0
	var pairs [][2]int
	for i := range truth {
		for j := i + 1; j < len(truth); j++ {
			pairs = append(pairs, [2]int{i, j})
		}
	}
	games := simulate(rand.New(rand.NewPCG(1, 2)), truth, pairs, 2000, drawShare, adv)
	fixed := []float64{0, nan, nan, nan, nan}
	got, model, err := Fit(fixed, games)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(truth); i++ {
		if e := math.Abs(got[i].Elo - truth[i]); e > got[i].HalfWidth || got[i].HalfWidth > 20 {
			t.Errorf("player %d: %.1f ± %.1f, true %.0f", i, got[i].Elo, got[i].HalfWidth, truth[i])
		}
	}
	if math.Abs(model.Advantage-adv) > 8 || model.DrawRatio < 0.2 || model.Dispersion > 0.8 {
		t.Errorf("model = %+v, want advantage %v, many draws, and the dispersion they cause", model, adv)
	}
}

// TestFitIntervalsCover checks what a 95% interval promises: over many
// small independent samples with many draws, the interval holds the true
// rating in about 95% of them. The samples are seeded, so the count is
// exact; a wrong variance (the draws' dispersion left out, or applied
// twice) moves it well outside the band.
func TestFitIntervalsCover(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const trials = 400
	covered := 0
	for range trials {
		truth := []float64{300 * (rng.Float64() - 0.5), -100, 0, 150}
		games := simulate(rng, truth, [][2]int{{0, 1}, {0, 2}, {0, 3}}, 30, 0.5, 30)
		got, _, err := Fit([]float64{nan, -100, 0, 150}, games)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got[0].Elo-truth[0]) <= got[0].HalfWidth {
			covered++
		}
	}
	if rate := float64(covered) / trials; rate < 0.92 || rate > 0.98 {
		t.Errorf("the 95%% interval covered the true rating in %d of %d samples (%.1f%%)", covered, trials, 100*rate)
	}
}

func TestFitExtremeResultsStayFinite(t *testing.T) {
	for _, tc := range []struct {
		name  string
		score float64
		above bool // the estimate lies above the anchor
	}{{"all won", 1, true}, {"all lost", 0, false}, {"all drawn", 0.5, false}} {
		var games []Game
		for k := range 10 {
			if k%2 == 0 {
				games = append(games, Game{First: 0, Second: 1, Score: tc.score})
			} else {
				games = append(games, Game{First: 1, Second: 0, Score: 1 - tc.score})
			}
		}
		got, _, err := Fit([]float64{nan, 1500}, games)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		r := got[0]
		if math.IsNaN(r.Elo) || math.IsInf(r.Elo, 0) || math.IsNaN(r.HalfWidth) || math.IsInf(r.HalfWidth, 0) {
			t.Errorf("%s: %+v is not finite", tc.name, r)
		}
		switch {
		case tc.score == 0.5 && math.Abs(r.Elo-1500) > 1e-6:
			t.Errorf("%s: Elo %.2f, want the anchor's 1500", tc.name, r.Elo)
		case tc.score != 0.5 && (r.Elo > 1500) != tc.above:
			t.Errorf("%s: Elo %.2f on the wrong side of the anchor", tc.name, r.Elo)
		}
	}
}

// TestFitFarBelowItsStart is the case that broke a daemon rating: a player
// that scores 3% against the lowest anchor, starting from the anchors'
// mean far above. Plain Newton steps leapt to where every game looked
// certain and stopped at -8,000 ± 10^13; the bounded steps reach the
// maximum, about the Elo a 3% score implies.
func TestFitFarBelowItsStart(t *testing.T) {
	fixed := []float64{nan, 0, 739, 1029, 1194}
	var games []Game
	add := func(opp int, wins, draws, losses int) {
		k := 0
		for _, n := range [][2]float64{{float64(wins), 1}, {float64(draws), 0.5}, {float64(losses), 0}} {
			for range int(n[0]) {
				if k%2 == 0 {
					games = append(games, Game{First: 0, Second: opp, Score: n[1]})
				} else {
					games = append(games, Game{First: opp, Second: 0, Score: 1 - n[1]})
				}
				k++
			}
		}
	}
	add(1, 2, 8, 176) // what the rated player did against random
	add(2, 0, 0, 2)
	add(3, 0, 0, 2)
	add(4, 0, 0, 2)
	got, _, err := Fit(fixed, games)
	if err != nil {
		t.Fatal(err)
	}
	// 6 points in 186 games against 0 (3.2%, and half a virtual draw):
	// -400*log10(1/0.0334 - 1) = -587.
	if r := got[0]; math.Abs(r.Elo+587) > 40 || r.HalfWidth > 150 || r.HalfWidth < 50 {
		t.Errorf("Elo %.0f ± %.0f, want about -587 with an interval of about ±100", r.Elo, r.HalfWidth)
	}
}

func TestFitRefusesWhatItCannotFit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fixed []float64
		games []Game
	}{
		{"no origin", []float64{nan, nan}, []Game{{0, 1, 1}}},
		{"unlinked player", []float64{0, nan, nan}, []Game{{0, 1, 1}, {1, 0, 0.5}}},
		{"score", []float64{0, nan}, []Game{{0, 1, 0.7}}},
		{"player out of range", []float64{0, nan}, []Game{{0, 2, 1}}},
		{"self play", []float64{0, nan}, []Game{{1, 1, 1}}},
	} {
		if _, _, err := Fit(tc.fixed, tc.games); !errors.Is(err, ErrFit) {
			t.Errorf("%s: err = %v, want ErrFit", tc.name, err)
		}
	}
}

func BenchmarkFit(b *testing.B) {
	games := simulate(rand.New(rand.NewPCG(3, 3)), []float64{0, 100, 200, 300, 400, 500, 600},
		[][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {0, 6}}, 40, 0.5, 30)
	fixed := []float64{nan, 100, 200, 300, 400, 500, 600}
	for b.Loop() {
		if _, _, err := Fit(fixed, games); err != nil {
			b.Fatal(err)
		}
	}
}

package climb

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"testing"

	"evolved/elo"
	"evolved/storage"
)

// TestSummary checks the best point and the largest fall on curves
// worked out by hand.
func TestSummary(t *testing.T) {
	pt := func(gen int, elo, ci float64) Point { return Point{Generation: gen, Elo: elo, CI: ci} }
	for _, tc := range []struct {
		name     string
		points   []Point
		best     int
		fallFrom int // -1: no fall
		fallTo   int
		fallElo  float64
		beyond   bool
	}{
		{"one point", []Point{pt(100, 50, 20)}, 100, -1, 0, 0, false},
		{"a steady climb", []Point{pt(100, 50, 20), pt(200, 80, 20), pt(300, 80, 20)}, 300, -1, 0, 0, false},
		{"a dip inside its interval", []Point{pt(100, 50, 20), pt(200, 90, 20), pt(300, 75, 20), pt(400, 100, 20)}, 400, 200, 300, 15, false},
		{"a fall beyond it", []Point{pt(100, 50, 20), pt(200, 90, 20), pt(300, 60, 20)}, 200, 200, 300, 30, true},
		// The larger fall lies inside a wide interval, the smaller beyond a
		// narrow one: the one beyond is the one that counts.
		{"beyond outranks inside", []Point{pt(100, 100, 20), pt(200, 60, 50), pt(300, 120, 20), pt(400, 95, 20)}, 300, 300, 400, 25, true},
		// Falls are measured from the best before the point, not the best of all.
		{"from the best before", []Point{pt(100, 80, 10), pt(200, 60, 10), pt(300, 150, 10)}, 300, 100, 200, 20, true},
	} {
		best, fall := Summary(tc.points)
		if best.Generation != tc.best {
			t.Errorf("%s: best generation %d, want %d", tc.name, best.Generation, tc.best)
		}
		switch {
		case tc.fallFrom < 0 && fall != nil:
			t.Errorf("%s: fall %+v, want none", tc.name, *fall)
		case tc.fallFrom >= 0 && fall == nil:
			t.Errorf("%s: no fall, want %d -> %d", tc.name, tc.fallFrom, tc.fallTo)
		case tc.fallFrom >= 0 && (fall.From.Generation != tc.fallFrom || fall.To.Generation != tc.fallTo || fall.Elo != tc.fallElo || fall.Beyond != tc.beyond):
			t.Errorf("%s: fall %d -> %d by %g (beyond %v), want %d -> %d by %g (beyond %v)", tc.name,
				fall.From.Generation, fall.To.Generation, fall.Elo, fall.Beyond, tc.fallFrom, tc.fallTo, tc.fallElo, tc.beyond)
		}
	}
}

func TestGenerations(t *testing.T) {
	for _, tc := range []struct {
		from, to, every, latest, skip int
		want                          []int
	}{
		{0, 10, 5, 10, 0, []int{5, 10}},
		{0, 12, 5, 12, 0, []int{5, 10, 12}},
		{0, 12, 5, 12, -1, []int{0, 5, 10, 12}},
		{3, 12, 5, 12, 0, []int{5, 10, 12}},
		{6, 9, 5, 12, 0, []int{9}},
		{0, 10, 5, 12, 10, []int{0, 5}}, // the opponent's own generation is left out
		{0, 1, 1, 1, 0, []int{1}},
	} {
		got, err := Generations(tc.from, tc.to, tc.every, tc.latest, tc.skip)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Generations(%d, %d, %d, %d, %d) = %v, %v; want %v", tc.from, tc.to, tc.every, tc.latest, tc.skip, got, err, tc.want)
		}
	}
	for _, tc := range [][5]int{{0, 13, 5, 12, 0}, {13, 13, 5, 12, 0}, {0, 0, 5, 12, 0}} {
		if got, err := Generations(tc[0], tc[1], tc[2], tc[3], tc[4]); err == nil {
			t.Errorf("climbGenerations%v = %v, want an error", tc, got)
		}
	}
}

// TestGenerationsByHours checks --every-hours on a run whose
// generations took 0.5, 0.25, 0.25, 2.5, 0.1 and 0.4 hours (so they end
// at 0.5, 0.75, 1, 3.5, 3.6 and 4 hours of evolution), worked out by hand.
func TestGenerationsByHours(t *testing.T) {
	var rows []storage.ChampionRow
	for g, h := range []float64{0.5, 0.25, 0.25, 2.5, 0.1, 0.4} {
		rows = append(rows, storage.ChampionRow{Generation: g, Seconds: h * 3600})
	}
	for _, tc := range []struct {
		from, to int
		step     float64
		skip     int
		want     []int
	}{
		{0, 5, 1, -1, []int{0, 2, 3, 5}}, // generation 3 crosses 2 and 3 hours: played once
		{0, 5, 1, 0, []int{2, 3, 5}},
		{0, 5, 0.5, 0, []int{2, 3, 5}},
		{1, 4, 1, 0, []int{2, 3, 4}}, // from 1 (0.5 hours ahead of it) the first multiple is 1 hour
		{3, 5, 2, -1, []int{3, 5}},   // 1 hour ahead of 3: the first multiple is 2 hours
		{0, 1, 1, 0, []int{1}},       // no generation reaches 1 hour: the last alone
		{0, 5, 100, 0, []int{5}},
	} {
		got, err := GenerationsByHours(rows, tc.from, tc.to, tc.step, tc.skip)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("GenerationsByHours(from %d, to %d, every %g hours, skip %d) = %v, %v; want %v", tc.from, tc.to, tc.step, tc.skip, got, err, tc.want)
		}
	}
	for _, tc := range [][2]int{{0, 6}, {5, 4}} {
		if got, err := GenerationsByHours(rows, tc[0], tc[1], 1, 0); err == nil {
			t.Errorf("GenerationsByHours(from %d, to %d) = %v, want an error", tc[0], tc[1], got)
		}
	}
}

// TestGenerationAtHours checks the run of TestGenerationsByHours (its
// generations end at 0.5, 0.75, 1, 3.5, 3.6 and 4 hours) worked out by
// hand, and that it names the generations --every-hours plays: the first
// at each multiple of the step.
func TestGenerationAtHours(t *testing.T) {
	var rows []storage.ChampionRow
	for g, h := range []float64{0.5, 0.25, 0.25, 2.5, 0.1, 0.4} {
		rows = append(rows, storage.ChampionRow{Generation: g, Seconds: h * 3600})
	}
	for _, tc := range []struct {
		hours float64
		want  int
		ok    bool
	}{
		{0, 0, true},
		{0.25, 0, true},
		{0.5, 0, true}, // generation 0 ends at half an hour: it has reached it
		{0.6, 1, true},
		{1, 2, true},
		{1.01, 3, true},
		{3.5, 3, true},
		{3.55, 4, true},
		{4, 5, true},
		{4.01, 0, false},
		{100, 0, false},
	} {
		if got, ok := GenerationAtHours(rows, tc.hours); got != tc.want || ok != tc.ok {
			t.Errorf("GenerationAtHours(%g) = %d, %v; want %d, %v", tc.hours, got, ok, tc.want, tc.ok)
		}
	}
	for _, step := range []float64{0.25, 0.5, 1} {
		gens, err := GenerationsByHours(rows, 0, 5, step, -1)
		if err != nil {
			t.Fatal(err)
		}
		// every multiple of step the run reaches names a generation played,
		// and every generation played but the last (always played) is named
		named := map[int]bool{}
		for k := 0; ; k++ {
			at, ok := GenerationAtHours(rows, float64(k)*step)
			if !ok {
				break
			}
			named[at] = true
			if !slices.Contains(gens, at) {
				t.Errorf("every %g hours: GenerationAtHours(%g) = %d, which --every-hours did not play (%v)", step, float64(k)*step, at, gens)
			}
		}
		for _, g := range gens[:len(gens)-1] {
			if !named[g] {
				t.Errorf("every %g hours: --every-hours played generation %d, the first at no multiple of the step", step, g)
			}
		}
	}
}

// TestRangeErrors checks the errors' kinds, which the command turns into
// messages naming its flags.
func TestRangeErrors(t *testing.T) {
	var re *RangeError
	if _, err := Generations(0, 13, 5, 12, 0); !errors.As(err, &re) || *re != (RangeError{From: 0, To: 13, Latest: 12}) {
		t.Errorf("to beyond the run: %v, want a RangeError", err)
	}
	rows := []storage.ChampionRow{{Generation: 0, Seconds: 60}, {Generation: 1, Seconds: 60}}
	if _, err := GenerationsByHours(rows, 2, 1, 1, -1); !errors.As(err, &re) || *re != (RangeError{From: 2, To: 1, Latest: 1}) {
		t.Errorf("from after to: %v, want a RangeError", err)
	}
	if _, err := Generations(0, 0, 5, 12, 0); !errors.Is(err, ErrNothingToPlay) {
		t.Errorf("only the opponent's generation: %v, want ErrNothingToPlay", err)
	}
}

// TestNewPoint checks a point's score and Elo against elo.Estimate.
func TestNewPoint(t *testing.T) {
	p := NewPoint(7, 1.5, 5, 2, 1)
	diff, ci := elo.Estimate(5, 2, 1)
	want := Point{Generation: 7, Hours: 1.5, Wins: 5, Draws: 2, Losses: 1, Score: 75, Elo: diff, CI: ci}
	if p != want {
		t.Errorf("NewPoint = %+v, want %+v", p, want)
	}
}

// TestHours checks the hours of evolution behind each generation: the
// sum of the seconds up to and including its own.
func TestHours(t *testing.T) {
	rows := []storage.ChampionRow{{Generation: 0, Seconds: 1800}, {Generation: 1, Seconds: 900}, {Generation: 2, Seconds: 5400}}
	want := map[int]float64{0: 0.5, 1: 0.75, 2: 2.25}
	if got := Hours(rows); !reflect.DeepEqual(got, want) {
		t.Errorf("Hours = %v, want %v", got, want)
	}
	if got := Hours(nil); len(got) != 0 {
		t.Errorf("Hours(nil) = %v, want none", got)
	}
}

// TestTQuantile975 checks the 97.5% quantiles of Student's t against a
// published table (three decimals), exact for one and two degrees of
// freedom and the expansion's within 0.2% at three.
func TestTQuantile975(t *testing.T) {
	for _, tc := range []struct {
		df   int
		want float64
	}{
		{1, 12.706}, {2, 4.303}, {3, 3.182}, {4, 2.776}, {5, 2.571}, {6, 2.447}, {9, 2.262},
		{10, 2.228}, {20, 2.086}, {30, 2.042}, {60, 2.000}, {120, 1.980},
	} {
		tol := 0.0006 // the table's rounding
		if tc.df >= 3 && tc.df <= 5 {
			tol = 0.002 * tc.want
		}
		if got := tQuantile975(tc.df); math.Abs(got-tc.want) > tol {
			t.Errorf("t quantile at %d degrees of freedom: %.4f, want %.3f", tc.df, got, tc.want)
		}
	}
}

// TestLevel checks the level of the README's first-hour climb, worked out
// by hand: 387, 386 and 388.5 points of 400 are 96.75%, 96.5% and 97.125%,
// whose mean is 96.79167%, sample deviation 0.314576, 95% half-width
// 4.302653 × 0.314576 / √3 = 0.781453, and 96.79167% is +591.82 Elo.
func TestLevel(t *testing.T) {
	l := NewLevel([]Point{NewPoint(10, 0, 374, 26, 0), NewPoint(20, 0, 372, 28, 0), NewPoint(29, 0, 377, 23, 0)})
	for _, c := range []struct {
		name           string
		got, want, tol float64
	}{
		{"score", l.Score, 96.79167, 1e-5}, {"spread", l.Spread, 0.314576, 1e-6}, {"ci", l.CI, 0.781453, 1e-5}, {"elo", l.Elo, 591.82, 0.01},
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("level's %s %.4f, want %.4f", c.name, c.got, c.want)
		}
	}
	if l.Champions != 3 {
		t.Errorf("level over %d champions, want 3", l.Champions)
	}
	// Two equal scores: no spread, no interval, and the Elo of 50% is 0.
	l = NewLevel([]Point{NewPoint(1, 0, 5, 10, 5), NewPoint(2, 0, 10, 0, 10)})
	if l.Score != 50 || l.Spread != 0 || l.CI != 0 || math.Abs(l.Elo) > 1e-9 {
		t.Errorf("level of two 50%% points: %+v", *l)
	}
	// Three perfect scores of 400 games: half a game of 1,200 from the
	// edge, 1 − 1/2400, is 400·log10(2399) = +1352.01 Elo, as
	// elo.Estimate would take one match of 1,200 games.
	l = NewLevel([]Point{NewPoint(1, 0, 400, 0, 0), NewPoint(2, 0, 400, 0, 0), NewPoint(3, 0, 400, 0, 0)})
	if l.Score != 100 || l.Spread != 0 || math.Abs(l.Elo-1352.01) > 0.01 {
		t.Errorf("level of three perfect points: %+v, want +1352.01 Elo", *l)
	}
	// One point has no spread: no level.
	if l := NewLevel([]Point{NewPoint(1, 0, 3, 1, 0)}); l != nil {
		t.Errorf("level of one point: %+v, want none", *l)
	}
}

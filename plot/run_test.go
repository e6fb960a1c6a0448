package plot

import (
	"math"
	"reflect"
	"testing"

	"evolved/storage"
)

// TestMovingMean checks the mean of the last n values against sums done
// by hand, the first n-1 points over what there is.
func TestMovingMean(t *testing.T) {
	got := movingMean([]float64{1, 2, 3, 4, 5, -6}, 3)
	if want := []float64{1, 1.5, 2, 3, 4, 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("movingMean(..., 3) = %v, want %v", got, want)
	}
	if got := movingMean(nil, 10); len(got) != 0 {
		t.Errorf("movingMean(nil, 10) = %v, want none", got)
	}
}

// TestLearning checks the panels of a three-generation run: fitness, the
// ladder with its moving mean, and the baselines in name order with the
// interval of a 0±0 Elo difference at 50% and of 400±400 at 50% and
// 1/(1+10^-2) = 99.0099...%.
func TestLearning(t *testing.T) {
	c := storage.Curves{
		Generations: []int{0, 1, 2}, Best: []float64{4, 6, 8}, Mean: []float64{1, 2, 3},
		LadderGenerations: []int{1, 2}, LadderMean: []float64{0.5, -0.5},
		Baselines: map[string][]storage.BaselinePoint{
			"random":     {{Generation: 2, Score: 0.75, Elo: 400, EloCI: 400, Games: 8}},
			"material:1": {{Generation: 1, Score: 0.5}, {Generation: 2, Score: 0.25, Elo: -190.8, EloCI: 0, Games: 4}},
		},
	}
	charts := Learning("chess", c)
	if len(charts) != 3 {
		t.Fatalf("%d charts, want 3", len(charts))
	}
	fitness := Chart{Title: "chess: tournament fitness (win +2, draw 0, loss -1)", XLabel: "generation", YLabel: "points", IntegerX: true,
		Series: []Series{{Name: "best", X: []float64{0, 1, 2}, Y: []float64{4, 6, 8}}, {Name: "mean", X: []float64{0, 1, 2}, Y: []float64{1, 2, 3}}}}
	if !reflect.DeepEqual(charts[0], fitness) {
		t.Errorf("fitness:\n%+v\nwant\n%+v", charts[0], fitness)
	}
	ladder := Chart{Title: "champion against the previous champions (mean of 1/0/-1 per game)", XLabel: "generation", YLabel: "ladder mean",
		YMin: -1, YMax: 1, IntegerX: true,
		Series: []Series{{Name: "ladder", X: []float64{1, 2}, Y: []float64{0.5, -0.5}}, {Name: "10-point mean", X: []float64{1, 2}, Y: []float64{0.5, 0}}}}
	if !reflect.DeepEqual(charts[1], ladder) {
		t.Errorf("ladder:\n%+v\nwant\n%+v", charts[1], ladder)
	}
	b := charts[2]
	if b.Title != "champion's score against the baselines, with 95% intervals" || b.YMin != 0 || b.YMax != 100 || !b.IntegerX || len(b.Series) != 2 {
		t.Fatalf("baselines: %+v", b)
	}
	m, r := b.Series[0], b.Series[1]
	if m.Name != "material:1" || !reflect.DeepEqual(m.X, []float64{1, 2}) || !reflect.DeepEqual(m.Y, []float64{50, 25}) ||
		m.Low[0] != 50 || m.High[0] != 50 || math.Abs(m.Low[1]-m.High[1]) > 1e-12 {
		t.Errorf("material:1: %+v", m)
	}
	if want := 100 / (1 + math.Pow(10, -2)); r.Name != "random" || r.Y[0] != 75 || math.Abs(r.Low[0]-50) > 1e-12 || math.Abs(r.High[0]-want) > 1e-9 {
		t.Errorf("random: %+v, want 75 in [50, %v]", r, want)
	}

	// No baseline played: two panels.
	c.Baselines = nil
	if n := len(Learning("chess", c)); n != 2 {
		t.Errorf("without baselines: %d charts, want 2", n)
	}
}

// ratings are two ratings on an untimed scale and one at a time control,
// the timed one between them.
var ratings = []storage.Rating{
	{Generation: 10, Hours: 1.5, Scale: "ladder", TC: "untimed", Elo: 1000, CI: 50},
	{Generation: 20, Hours: 3, Scale: "ladder", TC: "10+0.1", Elo: 1100, CI: 40},
	{Generation: 30, Hours: 4.5, Scale: "ladder", TC: "untimed", Elo: 1200, CI: 30},
}

// TestRatings checks one band per scale and time control, in the order
// they first come, by generation and by hours.
func TestRatings(t *testing.T) {
	if got := Ratings(nil); got != nil {
		t.Errorf("Ratings(nil) = %+v, want none", got)
	}
	charts := Ratings(ratings)
	want := []Chart{
		{Title: "champion's rating, with 95% intervals", XLabel: "generation", YLabel: "Elo", IntegerX: true, Series: []Series{
			{Name: "ladder", X: []float64{10, 30}, Y: []float64{1000, 1200}, Low: []float64{950, 1170}, High: []float64{1050, 1230}, Band: true},
			{Name: "ladder at 10+0.1", X: []float64{20}, Y: []float64{1100}, Low: []float64{1060}, High: []float64{1140}, Band: true},
		}},
		{Title: "champion's rating against the hours of evolution that made it", XLabel: "hours of evolution", YLabel: "Elo", Series: []Series{
			{Name: "ladder", X: []float64{1.5, 4.5}, Y: []float64{1000, 1200}, Low: []float64{950, 1170}, High: []float64{1050, 1230}, Band: true},
			{Name: "ladder at 10+0.1", X: []float64{3}, Y: []float64{1100}, Low: []float64{1060}, High: []float64{1140}, Band: true},
		}},
	}
	if !reflect.DeepEqual(charts, want) {
		t.Errorf("Ratings:\n%+v\nwant\n%+v", charts, want)
	}
}

// TestCompare checks one band per run, named by the run, under a title
// naming the game and the scale; runs on different scales, or none
// rated, are refused.
func TestCompare(t *testing.T) {
	untimed := []storage.Rating{ratings[0], ratings[2]}
	charts, err := Compare("draughts", []Run{{Name: "a", Ratings: untimed}, {Name: "b", Ratings: untimed[1:]}})
	if err != nil {
		t.Fatal(err)
	}
	if len(charts) != 2 || charts[0].Title != "draughts: champions' ratings, with 95% intervals (ladder)" ||
		charts[1].Title != "champion's rating against the hours of evolution that made it" {
		t.Fatalf("Compare: %+v", charts)
	}
	want := []Series{
		{Name: "a", X: []float64{10, 30}, Y: []float64{1000, 1200}, Low: []float64{950, 1170}, High: []float64{1050, 1230}, Band: true},
		{Name: "b", X: []float64{30}, Y: []float64{1200}, Low: []float64{1170}, High: []float64{1230}, Band: true},
	}
	if !reflect.DeepEqual(charts[0].Series, want) {
		t.Errorf("Compare series:\n%+v\nwant\n%+v", charts[0].Series, want)
	}
	_, err = Compare("draughts", []Run{{Name: "a", Ratings: untimed}, {Name: "b", Ratings: ratings[1:2]}})
	if want := "the runs are rated on different scales (ladder, ladder at 10+0.1); compare runs rated alike"; err == nil || err.Error() != want {
		t.Errorf("Compare on two scales: %v, want %s", err, want)
	}
	if _, err := Compare("draughts", []Run{{Name: "a"}}); err == nil {
		t.Error("Compare of no rating: no error")
	}
}

// TestLabRun checks a short run drawn point by point, and a run of 1,001
// iterations drawn in bins of 3: the mean of each bin's means, the best at
// its end, the last bin shorter.
func TestLabRun(t *testing.T) {
	r := storage.MetaRun{ID: 7, Method: "aco", Opponent: "material:2"}
	short := []storage.MetaIteration{{Iteration: 1, BestCost: 5, MeanCost: 8}, {Iteration: 2, BestCost: 3, MeanCost: 6}}
	want := Chart{Title: "meta run 7: aco against material:2", XLabel: "iteration", YLabel: "cost (learner's material balance)", IntegerX: true,
		Series: []Series{{Name: "best so far", X: []float64{1, 2}, Y: []float64{5, 3}}, {Name: "iteration mean", X: []float64{1, 2}, Y: []float64{8, 6}}}}
	if got := LabRun(r, short); !reflect.DeepEqual(got, want) {
		t.Errorf("LabRun of 2 iterations:\n%+v\nwant\n%+v", got, want)
	}
	var long []storage.MetaIteration
	for i := 1; i <= 1001; i++ {
		long = append(long, storage.MetaIteration{Iteration: i, BestCost: float64(-i), MeanCost: float64(i)})
	}
	got := LabRun(r, long)
	best, mean := got.Series[0], got.Series[1]
	if len(best.X) != 334 || mean.Name != "mean of 3 iterations" ||
		best.X[0] != 3 || best.Y[0] != -3 || mean.Y[0] != 2 ||
		best.X[333] != 1001 || best.Y[333] != -1001 || mean.Y[333] != 1000.5 {
		t.Errorf("LabRun of 1001 iterations: %d points, %q, first (%v, %v, %v), last (%v, %v, %v)", len(best.X), mean.Name,
			best.X[0], best.Y[0], mean.Y[0], best.X[len(best.X)-1], best.Y[len(best.Y)-1], mean.Y[len(mean.Y)-1])
	}
}

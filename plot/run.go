package plot

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"evolved/elo"
	"evolved/rating"
	"evolved/storage"
)

// Learning returns a run's learning curves as panels: the tournament's
// best and mean fitness, the champion ladder with its 10-point moving
// mean, and, when the run played baselines, the champion's score against
// each (by name) with the 95% interval of its Elo difference as a score.
func Learning(game string, c storage.Curves) []Chart {
	gens, ladderGens := floats(c.Generations), floats(c.LadderGenerations)
	fitness := Chart{
		Title: game + ": tournament fitness (win +2, draw 0, loss -1)", XLabel: "generation", YLabel: "points",
		Series:   []Series{{Name: "best", X: gens, Y: c.Best}, {Name: "mean", X: gens, Y: c.Mean}},
		IntegerX: true,
	}
	ladder := Chart{
		Title: "champion against the previous champions (mean of 1/0/-1 per game)", XLabel: "generation", YLabel: "ladder mean",
		YMin: -1, YMax: 1, IntegerX: true,
		Series: []Series{{Name: "ladder", X: ladderGens, Y: c.LadderMean}, {Name: "10-point mean", X: ladderGens, Y: movingMean(c.LadderMean, 10)}},
	}
	baselines := Chart{Title: "champion's score against the baselines, with 95% intervals", XLabel: "generation",
		YLabel: "score (%)", YMin: 0, YMax: 100, IntegerX: true}
	for _, name := range slices.Sorted(maps.Keys(c.Baselines)) {
		s := Series{Name: name}
		for _, p := range c.Baselines[name] {
			s.X = append(s.X, float64(p.Generation))
			s.Y = append(s.Y, 100*p.Score)
			// The interval of the Elo difference, as a score: the expected
			// score at each of its ends.
			s.Low = append(s.Low, 100*elo.Expected(p.Elo-p.EloCI))
			s.High = append(s.High, 100*elo.Expected(p.Elo+p.EloCI))
		}
		baselines.Series = append(baselines.Series, s)
	}
	charts := []Chart{fitness, ladder}
	if len(baselines.Series) > 0 {
		charts = append(charts, baselines)
	}
	return charts
}

// Ratings draws the champions' ratings with their 95% intervals as bands,
// one series per scale and time control in the order they first come:
// against the generation, and against the hours of evolution that made
// each champion. It returns no chart when nothing was rated.
func Ratings(ratings []storage.Rating) []Chart {
	if len(ratings) == 0 {
		return nil
	}
	byGen := Chart{Title: "champion's rating, with 95% intervals", XLabel: "generation", YLabel: "Elo", IntegerX: true}
	byHour := Chart{Title: "champion's rating against the hours of evolution that made it", XLabel: "hours of evolution", YLabel: "Elo"}
	index := map[string]int{}
	for _, r := range ratings {
		name := scaleName(r)
		i, ok := index[name]
		if !ok {
			i = len(byGen.Series)
			index[name] = i
			byGen.Series = append(byGen.Series, Series{Name: name, Band: true})
			byHour.Series = append(byHour.Series, Series{Name: name, Band: true})
		}
		for _, ch := range []*Chart{&byGen, &byHour} {
			s := &ch.Series[i]
			x := float64(r.Generation)
			if ch == &byHour {
				x = r.Hours
			}
			s.X, s.Y = append(s.X, x), append(s.Y, r.Elo)
			s.Low, s.High = append(s.Low, r.Elo-r.CI), append(s.High, r.Elo+r.CI)
		}
	}
	return []Chart{byGen, byHour}
}

// scaleName names r's scale and, when timed, its time control.
func scaleName(r storage.Rating) string {
	if r.TC != rating.Untimed {
		return r.Scale + " at " + r.TC
	}
	return r.Scale
}

// Run is one run's ratings, under the name its curve takes.
type Run struct {
	Name    string
	Ratings []storage.Rating
}

// Compare draws the rating curves of runs of game side by side, one
// series each, named by the run, as Ratings does. Runs rated on different
// scales or time controls cannot be compared, and no rating at all draws
// nothing: both are errors.
func Compare(game string, runs []Run) ([]Chart, error) {
	var all []storage.Rating
	scales := map[string]bool{}
	for _, run := range runs {
		for _, r := range run.Ratings {
			scales[scaleName(r)] = true
			r.Scale, r.TC = run.Name, rating.Untimed // one series per run
			all = append(all, r)
		}
	}
	switch len(scales) {
	case 0:
		return nil, errors.New("no rating to compare")
	case 1:
	default:
		return nil, fmt.Errorf("the runs are rated on different scales (%s); compare runs rated alike", strings.Join(slices.Sorted(maps.Keys(scales)), ", "))
	}
	charts := Ratings(all)
	charts[0].Title = game + ": champions' ratings, with 95% intervals (" + slices.Collect(maps.Keys(scales))[0] + ")"
	return charts, nil
}

// LabRun draws a lab run's best cost so far and its iterations' mean cost.
// A long run is drawn in at most 500 bins (the mean of each bin's
// iteration means, the best at its end), so that the picture stays small.
func LabRun(r storage.MetaRun, its []storage.MetaIteration) Chart {
	bin := max(1, (len(its)+499)/500)
	var x, best, mean []float64
	for i := 0; i < len(its); i += bin {
		j := min(i+bin, len(its))
		sum := 0.0
		for _, it := range its[i:j] {
			sum += it.MeanCost
		}
		last := its[j-1]
		x, best, mean = append(x, float64(last.Iteration)), append(best, last.BestCost), append(mean, sum/float64(j-i))
	}
	meanName := "iteration mean"
	if bin > 1 {
		meanName = fmt.Sprintf("mean of %d iterations", bin)
	}
	return Chart{
		Title:  fmt.Sprintf("meta run %d: %s against %s", r.ID, r.Method, r.Opponent),
		XLabel: "iteration", YLabel: "cost (learner's material balance)",
		Series:   []Series{{Name: "best so far", X: x, Y: best}, {Name: meanName, X: x, Y: mean}},
		IntegerX: true,
	}
}

// floats returns the generations as float64s, for a chart's x axis.
func floats(gens []int) []float64 {
	out := make([]float64, len(gens))
	for i, g := range gens {
		out[i] = float64(g)
	}
	return out
}

// movingMean returns the mean of the last n values at each point.
func movingMean(v []float64, n int) []float64 {
	out := make([]float64, len(v))
	sum := 0.0
	for i, x := range v {
		sum += x
		if i >= n {
			sum -= v[i-n]
		}
		out[i] = sum / float64(min(i+1, n))
	}
	return out
}

// Package climb answers the question of `evolved climb`: does a run still
// climb? It chooses the generations whose champions are played against
// one opponent (every N-th, or one per N hours of evolution), makes each
// match a point of the run's curve, and finds where the strength stands:
// the best point and the largest fall below an earlier best, with whether
// that fall exceeds the fallen point's interval.
//
// Climb plays the matches, with the players the command finds for it
// (where champions are stored is the command's); the choices and the
// verdict are pure functions of their arguments.
package climb

import (
	"errors"
	"fmt"
	"math"

	"evolved/elo"
	"evolved/storage"
)

// Point is one champion's match against the fixed opponent, from the
// champion's side.
type Point struct {
	Generation int `json:"generation"`
	// Hours is the run's time of evolution up to this generation.
	Hours  float64 `json:"hours"`
	Wins   int     `json:"wins"`
	Draws  int     `json:"draws"`
	Losses int     `json:"losses"`
	// Score is in percent; Elo and CI (the half-width of its 95% interval)
	// are the difference to the opponent.
	Score float64 `json:"score"`
	Elo   float64 `json:"elo"`
	CI    float64 `json:"ci"`
	// Nodes is the node budget the champion played under, its
	// generation's, in a run whose curriculum has checked its climb; 0
	// (absent) in others, whose champions play under the run's budget.
	Nodes int64 `json:"nodes,omitempty"`
}

// NewPoint returns the point of generation's champion, hours into the
// run, that scored wins, draws and losses (at least one game): its score
// and its Elo difference to the opponent with the interval (elo.Estimate).
func NewPoint(generation int, hours float64, wins, draws, losses int) Point {
	p := Point{Generation: generation, Hours: hours, Wins: wins, Draws: draws, Losses: losses}
	p.Score = 100 * (float64(wins) + float64(draws)/2) / float64(wins+draws+losses)
	p.Elo, p.CI = elo.Estimate(wins, draws, losses)
	return p
}

// Fall is the largest fall of a climb: how far a point lay below the best
// point before it.
type Fall struct {
	From Point `json:"from"` // the best point before
	To   Point `json:"to"`
	// Elo is From.Elo - To.Elo; Beyond says whether it exceeds To's
	// interval, which is what "fell" means.
	Elo    float64 `json:"elo"`
	Beyond bool    `json:"beyond_interval"`
}

// Report is a climb's measurements and verdict, as `evolved climb --json`
// prints it.
type Report struct {
	Game    string `json:"game"`
	DB      string `json:"db"`
	Against string `json:"against"`
	Games   int    `json:"games"`
	Seed    uint64 `json:"seed"`
	TC      string `json:"tc"`
	// Nodes is the node budget every player searched a move under when
	// the climb set one (climb --nodes), in place of the run's own; 0
	// otherwise.
	Nodes  int64   `json:"nodes,omitempty"`
	Points []Point `json:"points"`
	Best   Point   `json:"best"`
	// Fall is the largest fall, absent when no point lay below an earlier one.
	Fall *Fall `json:"largest_fall,omitempty"`
	// Level is the mean of the points, absent with fewer than two.
	Level *Level `json:"level,omitempty"`
}

// Level is where a run's champions stand together: the mean of their
// scores against the one opponent. A run's champion changes nearly every
// generation, and two champions of one run differ by more than their
// games' intervals, so one champion against another measures two draws
// from the run; the level of the champions of a window of generations
// measures the run.
type Level struct {
	Champions int `json:"champions"`
	// Score is the mean score in percent and Elo its difference to the
	// opponent.
	Score float64 `json:"score"`
	Elo   float64 `json:"elo"`
	// Spread is the scores' sample standard deviation in points, which
	// holds both the games' noise and the champions' differences; CI is
	// the half-width of the mean's 95% interval (Student's t with one
	// degree of freedom fewer than champions).
	Spread float64 `json:"spread"`
	CI     float64 `json:"ci"`
}

// NewLevel returns the level of points (each of at least one game, as
// NewPoint makes them), or nil with fewer than two, which have no spread.
// A mean score of 0 or 100% is taken half a game of all the points' games
// from the edge for its Elo, as elo.Estimate takes one match's.
func NewLevel(points []Point) *Level {
	if len(points) < 2 {
		return nil
	}
	n := float64(len(points))
	mean, games := 0.0, 0
	for _, p := range points {
		mean += p.Score
		games += p.Wins + p.Draws + p.Losses
	}
	mean /= n
	ss := 0.0
	for _, p := range points {
		ss += (p.Score - mean) * (p.Score - mean)
	}
	spread := math.Sqrt(ss / (n - 1))
	edge := 0.5 / float64(games)
	return &Level{
		Champions: len(points),
		Score:     mean,
		Elo:       elo.Diff(math.Min(math.Max(mean/100, edge), 1-edge)),
		Spread:    spread,
		CI:        tQuantile975(len(points)-1) * spread / math.Sqrt(n),
	}
}

// tQuantile975 returns the 97.5% quantile of Student's t distribution
// with df degrees of freedom (at least 1): exact for one and two, and
// for more the expansion about the normal quantile of Abramowitz and
// Stegun, 26.7.5, within 0.2% at three degrees and closer above.
func tQuantile975(df int) float64 {
	switch df {
	case 1:
		return math.Tan(math.Pi * (0.975 - 0.5))
	case 2:
		return (2*0.975 - 1) / math.Sqrt(2*0.975*(1-0.975))
	}
	z := math.Sqrt2 * math.Erfinv(2*0.975-1)
	v := float64(df)
	z3, z5 := z*z*z, z*z*z*z*z
	z7, z9 := z5*z*z, z5*z*z*z*z
	return z + (z3+z)/(4*v) +
		(5*z5+16*z3+3*z)/(96*v*v) +
		(3*z7+19*z5+17*z3-15*z)/(384*v*v*v) +
		(79*z9+776*z7+1482*z5-1920*z3-945*z)/(92160*v*v*v*v)
}

// Summary returns the point of highest Elo (the later on a tie) and the
// largest fall: how far a point lay below the best point before it. A
// fall beyond the fallen point's own interval outranks any fall inside
// one; fall is nil when no point lay below an earlier one.
func Summary(points []Point) (best Point, fall *Fall) {
	for i, p := range points {
		if i > 0 && best.Elo > p.Elo { // best is still the best before p
			f := Fall{From: best, To: p, Elo: best.Elo - p.Elo, Beyond: best.Elo-p.Elo > p.CI}
			if fall == nil || f.Beyond && !fall.Beyond || f.Beyond == fall.Beyond && f.Elo > fall.Elo {
				fall = &f
			}
		}
		if i == 0 || p.Elo >= best.Elo {
			best = p
		}
	}
	return best, fall
}

// Hours returns the run's time of evolution up to each generation, in
// hours: the sum of the seconds of rows (the run's champions in order of
// generation) up to and including the generation's own.
func Hours(rows []storage.ChampionRow) map[int]float64 {
	hours := make(map[int]float64, len(rows))
	total := 0.0
	for _, r := range rows {
		total += r.Seconds
		hours[r.Generation] = total / 3600
	}
	return hours
}

// GenerationAtHours returns the first generation of rows (the run's
// champions in order of generation) whose time of evolution, as Hours
// counts it, reaches hours: the generation a run had played by then, which
// is what "the run at six hours" means wherever runs are compared at equal
// hours. ok is false when the run has not evolved that long.
func GenerationAtHours(rows []storage.ChampionRow, hours float64) (generation int, ok bool) {
	total := 0.0
	for _, r := range rows {
		total += r.Seconds
		if total/3600 >= hours {
			return r.Generation, true
		}
	}
	return 0, false
}

// RangeError is a range of generations the run has not played: To after
// the run's Latest generation, or From after To.
type RangeError struct{ From, To, Latest int }

// Error says which end lies outside the run.
func (e *RangeError) Error() string {
	if e.To > e.Latest {
		return fmt.Sprintf("climb: the range %d to %d ends after the run's latest generation, %d", e.From, e.To, e.Latest)
	}
	return fmt.Sprintf("climb: the range %d to %d is empty (the run's latest generation is %d)", e.From, e.To, e.Latest)
}

// ErrNothingToPlay is the error of a range that holds no generation but
// the opponent's own.
var ErrNothingToPlay = errors.New("climb: no generation to play but the opponent's own")

// Generations returns the generations to play, in order: every every-th
// from from on up to to, and to itself, leaving out skip (the opponent's
// own generation, or -1). latest is the run's latest generation.
func Generations(from, to, every, latest, skip int) ([]int, error) {
	if err := checkRange(from, to, latest); err != nil {
		return nil, err
	}
	var gens []int
	for g := (from + every - 1) / every * every; g <= to; g += every {
		gens = append(gens, g)
	}
	return played(gens, to, skip)
}

// GenerationsByHours returns the generations to play by the hours of
// evolution behind them: from from on up to to, the first generation
// whose hours (its own seconds included) reach each multiple of step,
// counted from the first multiple not before the hours ahead of from, and
// to itself, leaving out skip. A generation that crosses several multiples
// is played once. rows are the run's champions in order of generation
// (at least one).
func GenerationsByHours(rows []storage.ChampionRow, from, to int, step float64, skip int) ([]int, error) {
	if err := checkRange(from, to, rows[len(rows)-1].Generation); err != nil {
		return nil, err
	}
	var gens []int
	total, next, started := 0.0, 0.0, false
	for _, r := range rows {
		before := total
		total += r.Seconds
		if r.Generation < from || r.Generation > to {
			continue
		}
		if !started {
			next, started = math.Ceil(before/3600/step)*step, true
		}
		if h := total / 3600; h >= next {
			gens = append(gens, r.Generation)
			next = (math.Floor(h/step) + 1) * step
		}
	}
	return played(gens, to, skip)
}

// checkRange refuses a range outside the run's generations 0 to latest.
func checkRange(from, to, latest int) error {
	if to > latest || from > to {
		return &RangeError{From: from, To: to, Latest: latest}
	}
	return nil
}

// played finishes a choice of generations: without skip, and with to at
// the end.
func played(chosen []int, to, skip int) ([]int, error) {
	var gens []int
	for _, g := range chosen {
		if g != skip {
			gens = append(gens, g)
		}
	}
	if to != skip && (len(gens) == 0 || gens[len(gens)-1] != to) {
		gens = append(gens, to)
	}
	if len(gens) == 0 {
		return nil, ErrNothingToPlay
	}
	return gens, nil
}

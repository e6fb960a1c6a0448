package rating

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"evolved/elo"
	"evolved/game"
	"evolved/search"
	"evolved/tournament"
)

// CalibrateOptions configures a calibration.
type CalibrateOptions struct {
	// Pairs is the number of colour-swapped game pairs each two players
	// meet with.
	Pairs int
	// Concurrency, Seed, Clock and Progress are as in Options (Progress
	// gets valid false throughout).
	Concurrency int
	Seed        uint64
	Clock       tournament.Clock
	Progress    func(done, total int)
}

// Calibration is the outcome of Calibrate.
type Calibration struct {
	// Ratings holds every player's rating, in the order given.
	Ratings []Rated
	Model   elo.Model
	// Games is the number of games played.
	Games int
	// Scores[i][j] is player i's score against player j, in points, and
	// Met[i][j] the number of games they played.
	Scores [][]float64
	Met    [][]int
}

// Calibrate fits the ratings of players on a scale: every two players of
// which at least one is free (Elo NaN) meet in opts.Pairs colour-swapped
// pairs of games (the fixed players' ratings say how they stand among
// themselves), and Fit estimates the free ratings with the others held.
// It is how a ladder's own players get their ratings (`evolved ladder`).
func Calibrate[M comparable, S search.Game[M]](ctx context.Context, arena tournament.Arena[M, S], players []Opponent[M, S], opts CalibrateOptions) (Calibration, error) {
	if opts.Pairs < 1 {
		return Calibration{}, fmt.Errorf("rating: calibrate: need at least one pair of games per meeting, got %d", opts.Pairs)
	}
	n := len(players)
	fixed := make([]float64, n)
	agents := make([]func() search.Player[M, S], n)
	for i, p := range players {
		fixed[i], agents[i] = p.Elo, p.New
	}
	var schedule []tournament.Pairing
	opening := 0
	for i := range n {
		for j := i + 1; j < n; j++ {
			if !math.IsNaN(fixed[i]) && !math.IsNaN(fixed[j]) {
				continue
			}
			for range opts.Pairs {
				schedule = append(schedule, tournament.Pairing{First: i, Second: j, OpeningIndex: opening},
					tournament.Pairing{First: j, Second: i, OpeningIndex: opening})
				opening++
			}
		}
	}
	if len(schedule) == 0 {
		return Calibration{}, fmt.Errorf("rating: calibrate: every player's rating is fixed: nothing to fit")
	}
	res, err := tournament.Run(ctx, arena, agents, schedule,
		tournament.Config{Workers: opts.Concurrency, Clock: opts.Clock}, opts.Seed, 0, opts.Progress)
	if err != nil {
		return Calibration{}, fmt.Errorf("rating: calibrate: %w", err)
	}
	cal := Calibration{Games: len(res.Games), Scores: make([][]float64, n), Met: make([][]int, n)}
	for i := range n {
		cal.Scores[i], cal.Met[i] = make([]float64, n), make([]int, n)
	}
	games := make([]elo.Game, len(res.Games))
	for k, g := range res.Games {
		if g.Outcome.Reason == game.TimeForfeit {
			return Calibration{}, fmt.Errorf("%w: game %d between %s and %s; use a longer time control or a lower concurrency",
				ErrForfeit, k+1, players[g.First].Name, players[g.Second].Name)
		}
		score := g.Outcome.Result.FirstScore()
		games[k] = elo.Game{First: g.First, Second: g.Second, Score: score}
		cal.Scores[g.First][g.Second] += score
		cal.Scores[g.Second][g.First] += 1 - score
		cal.Met[g.First][g.Second]++
		cal.Met[g.Second][g.First]++
	}
	cal.Ratings, cal.Model, err = elo.Fit(fixed, games)
	if err != nil {
		return Calibration{}, err
	}
	return cal, nil
}

// Refit returns a copy of the ladder with the ratings of its own players
// replaced by cal's (players in ladder order) and the anchors sorted weakest
// first; command and games record how it was made.
func (l *Ladder) Refit(cal Calibration, command string) *Ladder {
	out := *l
	out.Anchors = slices.Clone(l.Anchors)
	for i := range out.Anchors {
		if out.Anchors[i].EngineElo == 0 {
			out.Anchors[i].Elo = math.Round(cal.Ratings[i].Elo*10) / 10
			out.Anchors[i].HalfWidth = math.Round(cal.Ratings[i].HalfWidth*10) / 10
		}
	}
	slices.SortStableFunc(out.Anchors, func(a, b Anchor) int {
		switch {
		case a.Elo < b.Elo:
			return -1
		case a.Elo > b.Elo:
			return 1
		}
		return 0
	})
	out.Command, out.Games = command, cal.Games
	return &out
}

// CalibrationField returns who takes part in the calibration of l, from
// the opponents of all its anchors in ladder order (Opponents): every own
// player, free (Elo NaN) unless it is l's origin, held at 0, and the first
// engineLevels engine levels, the lowest, fixed at their Elo. They come in
// the order of their names, so that the games, and the ratings, do not
// depend on the order of the ladder file: the command recorded in a
// fitted file regenerates it exactly from the file itself. index[k] is
// the anchor of players[k].
func CalibrationField[M comparable, S search.Game[M]](l *Ladder, all []Opponent[M, S], engineLevels int) (players []Opponent[M, S], index []int) {
	levels := 0
	for i, a := range l.Anchors {
		p := all[i]
		switch {
		case a.EngineElo > 0:
			if levels == engineLevels {
				continue
			}
			levels++
		case a.Player == l.Origin:
			p.Elo = 0
		default:
			p.Elo = math.NaN()
		}
		players = append(players, p)
		index = append(index, i)
	}
	order := make([]int, len(players))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(players[a].Name, players[b].Name) })
	sortedPlayers, sortedIndex := make([]Opponent[M, S], len(order)), make([]int, len(order))
	for k, i := range order {
		sortedPlayers[k], sortedIndex[k] = players[i], index[i]
	}
	return sortedPlayers, sortedIndex
}

// CalibrationGames returns the games Calibrate plays among players at
// pairs game pairs a meeting: two games a pair for every two players of
// which at least one is free.
func CalibrationGames[M comparable, S search.Game[M]](players []Opponent[M, S], pairs int) int {
	meetings := 0
	for i := range players {
		for j := i + 1; j < len(players); j++ {
			if math.IsNaN(players[i].Elo) || math.IsNaN(players[j].Elo) {
				meetings++
			}
		}
	}
	return 2 * pairs * meetings
}

// InLadderOrder returns cal, the calibration of the players of index
// (CalibrationField), with a rating for every anchor of l in ladder
// order: the fitted ones carried back, the anchors left out keeping their
// own.
func (l *Ladder) InLadderOrder(cal Calibration, index []int) Calibration {
	full := Calibration{Games: cal.Games, Model: cal.Model, Ratings: make([]Rated, len(l.Anchors))}
	for i, a := range l.Anchors {
		full.Ratings[i] = Rated{Elo: a.Elo, HalfWidth: a.HalfWidth}
	}
	for k, i := range index {
		full.Ratings[i] = cal.Ratings[k]
	}
	return full
}

package rating

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"golang.org/x/sync/semaphore"

	"evolved/elo"
	"evolved/game"
	"evolved/search"
	"evolved/tournament"
)

// Rated is a player's fitted rating on a ladder's scale, as elo.Fit
// returns it: the type of Report.Rating and Calibration.Ratings.
type Rated = elo.Rated

// Opponent is an anchor ready to play: its name, its rating and a
// constructor of fresh, independent players (one per concurrent game).
type Opponent[M comparable, S search.Game[M]] struct {
	Name string
	Elo  float64
	New  func() search.Player[M, S]
}

// Options configures a rating.
type Options struct {
	// Games bounds the number of games; it is rounded up to whole pairs.
	Games int
	// RoundPairs is the number of game pairs played between two choices of
	// anchors (default DefaultRoundPairs). The choice depends only on the
	// rounds before, never on the order games finish in, so the games and
	// the rating do not depend on Concurrency.
	RoundPairs int
	// Concurrency is the number of games played at once (default: the
	// number of CPUs).
	Concurrency int
	// Seed seeds the openings and the players' random choices.
	Seed uint64
	// Clock, if not zero, times every game.
	Clock tournament.Clock
	// Slots, if set, is a game budget shared with other work.
	Slots *semaphore.Weighted
	// Progress, if set, is called after every game with the games done, the
	// total, and the estimate after the last complete round (valid false
	// before the first), and once more after each round with its new
	// estimate: the last call carries the rating of the Report.
	Progress func(done, total int, last Rated, valid bool)
}

// DefaultRoundPairs is the default number of game pairs per round: 16
// games, enough to keep a few workers busy between two choices of anchors.
const DefaultRoundPairs = 8

// Report is a finished rating.
type Report[M comparable] struct {
	// Rating is the player's rating on the ladder's scale.
	Rating Rated
	// Model holds the first-move advantage fitted with it, the draw ratio
	// and the dispersion of the scores.
	Model elo.Model
	// Anchors holds the results against each anchor, in ladder order, from
	// the rated player's side (anchors it did not meet have no games).
	Anchors []Tally
	// Games holds every game in the order played; Opponent[i] is the index
	// of game i's anchor and PlayerFirst[i] whether the rated player moved
	// first.
	Games       []tournament.Record[M]
	Opponent    []int
	PlayerFirst []bool
	// Elapsed is the wall time the rating took.
	Elapsed time.Duration
}

// TimeUse sums the clocks of the report's games under clock for the rated
// player and for its anchors together (zero when untimed).
func (r Report[M]) TimeUse(clock tournament.Clock) (rated, anchors tournament.TimeUse) {
	return tournament.SumClocks(r.Games, r.PlayerFirst, clock)
}

// Tally is the rated player's results against one anchor.
type Tally struct {
	Name                string
	Elo                 float64
	Wins, Draws, Losses int
}

// Games returns the number of games of the tally.
func (t Tally) Games() int { return t.Wins + t.Draws + t.Losses }

// ErrForfeit is wrapped by the error of a rating in which a game was lost
// on time: the time control is too short for the players on this machine
// (or the machine too loaded), and a rating from such games would measure
// the machine rather than the player.
var ErrForfeit = errors.New("rating: a game was lost on time")

// Rate rates the player that rated makes against the anchors (weakest
// first), in rounds of game pairs: each pair starts from one opening with
// colours swapped, each round's anchors come from Plan on the estimate of
// the rounds before, and the estimate is Fit over all games, anchors held
// at their ratings. Round r's games take their seeds from (Seed, arena,
// r), so a rating is reproducible whatever the concurrency when the
// players are (untimed, seeded); a timed game never is.
func Rate[M comparable, S search.Game[M]](ctx context.Context, arena tournament.Arena[M, S], rated func() search.Player[M, S], anchors []Opponent[M, S], opts Options) (Report[M], error) {
	start := time.Now()
	if len(anchors) < 1 {
		return Report[M]{}, fmt.Errorf("rating: no anchors")
	}
	for i := 1; i < len(anchors); i++ {
		if anchors[i].Elo < anchors[i-1].Elo {
			return Report[M]{}, fmt.Errorf("rating: anchors must be ordered weakest first (%s after %s)", anchors[i].Name, anchors[i-1].Name)
		}
	}
	if opts.Games < 1 {
		return Report[M]{}, fmt.Errorf("rating: need at least one game, got %d", opts.Games)
	}
	roundPairs := opts.RoundPairs
	if roundPairs <= 0 {
		roundPairs = DefaultRoundPairs
	}
	totalPairs := (opts.Games + 1) / 2
	total := 2 * totalPairs
	elos := make([]float64, len(anchors))
	fixed := make([]float64, len(anchors)+1)
	fixed[0] = math.NaN()
	agents := make([]func() search.Player[M, S], len(anchors)+1)
	agents[0] = rated
	rep := Report[M]{Anchors: make([]Tally, len(anchors))}
	for i, a := range anchors {
		elos[i], fixed[i+1], agents[i+1] = a.Elo, a.Elo, a.New
		rep.Anchors[i] = Tally{Name: a.Name, Elo: a.Elo}
	}
	var (
		games []elo.Game
		est   Rated
		known bool
	)
	for round, played := 0, 0; played < totalPairs; round++ {
		pairs := min(roundPairs, totalPairs-played)
		chosen := Plan(elos, est.Elo, est.HalfWidth, known, pairs)
		schedule := make([]tournament.Pairing, 0, 2*pairs)
		for k, a := range chosen {
			schedule = append(schedule,
				tournament.Pairing{First: 0, Second: a + 1, OpeningIndex: k},
				tournament.Pairing{First: a + 1, Second: 0, OpeningIndex: k})
		}
		var progress func(done, total int)
		if opts.Progress != nil {
			base, last, valid := 2*played, est, known
			progress = func(done, _ int) { opts.Progress(base+done, total, last, valid) }
		}
		res, err := tournament.Run(ctx, arena, agents, schedule,
			tournament.Config{Workers: opts.Concurrency, Clock: opts.Clock, Slots: opts.Slots}, opts.Seed, round, progress)
		if err != nil {
			return Report[M]{}, fmt.Errorf("rating: round %d: %w", round+1, err)
		}
		for k, g := range res.Games {
			a := chosen[k/2]
			if g.Outcome.Reason == game.TimeForfeit {
				loser := anchors[a].Name
				if (g.Outcome.Result == game.SecondWins) == (g.First == 0) {
					loser = "the rated player"
				}
				return Report[M]{}, fmt.Errorf("%w: %s lost game %d (against %s) on time; use a longer time control or a lower concurrency",
					ErrForfeit, loser, 2*played+k+1, anchors[a].Name)
			}
			score := g.Outcome.Result.FirstScore()
			games = append(games, elo.Game{First: g.First, Second: g.Second, Score: score})
			mine := score
			if g.First != 0 {
				mine = 1 - score
			}
			switch mine {
			case 1:
				rep.Anchors[a].Wins++
			case 0:
				rep.Anchors[a].Losses++
			default:
				rep.Anchors[a].Draws++
			}
			rep.Games = append(rep.Games, g.Record)
			rep.Opponent = append(rep.Opponent, a)
			rep.PlayerFirst = append(rep.PlayerFirst, g.First == 0)
		}
		played += pairs
		ratings, model, err := elo.Fit(fixed, games)
		if err != nil {
			return Report[M]{}, err
		}
		est, known, rep.Model = ratings[0], true, model
		if opts.Progress != nil {
			// The round's estimate at once: after the last round
			// the live line shows the rating the report gives.
			opts.Progress(2*played, total, est, true)
		}
	}
	rep.Rating = est
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// Opponents makes the ladder's anchors ready to play: parse reads a player
// spec of the ladder's game, and enginePath is the resolved path of the
// ladder's engine ("" when it has none). The project's own players play at
// their fixed depth or playouts whatever the time control (see Unclocked),
// as they were fitted; engine anchors play by the clock, as their scale
// was calibrated.
func Opponents[M comparable, S search.Game[M]](l *Ladder, enginePath string, parse func(spec string) (func() search.Player[M, S], error)) ([]Opponent[M, S], error) {
	out := make([]Opponent[M, S], len(l.Anchors))
	for i, a := range l.Anchors {
		if a.EngineElo > 0 && enginePath == "" {
			return nil, fmt.Errorf("rating: anchor %s needs the engine %q", a.Name(l.Engine), l.Engine)
		}
		newPlayer, err := parse(a.Spec(enginePath, l.EngineOptions))
		if err != nil {
			return nil, fmt.Errorf("rating: anchor %s: %w", a.Name(l.Engine), err)
		}
		if a.EngineElo == 0 {
			newPlayer = Unclocked(newPlayer)
		}
		out[i] = Opponent[M, S]{Name: a.Name(l.Engine), Elo: a.Elo, New: newPlayer}
	}
	return out, nil
}

// Unclocked returns a constructor of the players newPlayer makes that do
// not take a clock (tournament.Clocked): in a timed game they search to
// their fixed depth or playouts, as a ladder's own anchors must to stay the
// players whose ratings were fitted.
func Unclocked[M comparable, S search.Game[M]](newPlayer func() search.Player[M, S]) func() search.Player[M, S] {
	return func() search.Player[M, S] { return unclocked[M, S]{newPlayer()} }
}

// unclocked hides every method of its player but those of search.Player.
type unclocked[M comparable, S search.Game[M]] struct {
	p search.Player[M, S]
}

func (u unclocked[M, S]) NewGame(seed uint64) { u.p.NewGame(seed) }

func (u unclocked[M, S]) Move(ctx context.Context, s S) (search.Result[M], error) {
	return u.p.Move(ctx, s)
}

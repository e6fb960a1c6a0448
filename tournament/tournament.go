package tournament

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"sync"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"

	"evolved/search"
)

// Format is a tournament format.
type Format string

const (
	// RoundRobin pairs every agent with every other twice, once with each
	// colour: n*(n-1) games, 210 for 15 agents, a round; Config.Rounds
	// plays more rounds. Both games of a pair start from the same opening,
	// and each round from new ones.
	RoundRobin Format = "roundrobin"
	// Blondie is the format of the Blondie24 experiments: each agent plays
	// BlondieGames games with the first move against opponents drawn at
	// random (never itself): 75 games for 15 agents.
	Blondie Format = "blondie"
)

// ErrFormat is returned for an unknown tournament format.
var ErrFormat = errors.New("tournament: unknown format")

// ParseFormat reads a format name.
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case RoundRobin, Blondie:
		return f, nil
	}
	return "", fmt.Errorf("%w %q (want %s or %s)", ErrFormat, s, RoundRobin, Blondie)
}

// DefaultBlondieGames is the games each agent plays first in the Blondie
// format when Config.BlondieGames is not set.
const DefaultBlondieGames = 5

// Scoring gives the points of a win, a draw and a loss.
type Scoring struct{ Win, Draw, Loss int }

// DefaultScoring is Blondie24's: win +2, draw 0, loss -1.
var DefaultScoring = Scoring{Win: 2, Draw: 0, Loss: -1}

// Config configures a tournament.
type Config struct {
	Format Format
	// BlondieGames is the number of games each agent plays first in the
	// Blondie format; default DefaultBlondieGames.
	BlondieGames int
	// Rounds is the number of rounds of the RoundRobin format, each pair's
	// games of a round from an opening of their own; 0 means 1. More
	// rounds measure each agent on more games, at their cost in time.
	Rounds  int
	Scoring Scoring
	// Workers is the number of games played at once; default runtime.NumCPU().
	Workers int
	// Clock, if not zero, times every game; results then depend on the
	// machine's speed and are not reproducible.
	Clock Clock
	// Slots, if set, is a budget shared with other tournaments: each game
	// holds one unit of it while it is played, so that populations evolving
	// side by side never play more games at once than the budget allows.
	Slots *semaphore.Weighted
}

// Pairing is one scheduled game: agent First moves first. Games with the
// same OpeningIndex start from the same opening.
type Pairing struct {
	First, Second int
	OpeningIndex  int
}

// Schedule returns the games of a tournament among n agents. rng is used
// only by the Blondie format, to draw opponents.
func Schedule(cfg Config, n int, rng *rand.Rand) ([]Pairing, error) {
	var out []Pairing
	switch cfg.Format {
	case RoundRobin, "":
		opening := 0
		for range max(cfg.Rounds, 1) {
			for i := range n {
				for j := i + 1; j < n; j++ {
					out = append(out, Pairing{i, j, opening}, Pairing{j, i, opening})
					opening++
				}
			}
		}
	case Blondie:
		games := cfg.BlondieGames
		if games <= 0 {
			games = DefaultBlondieGames
		}
		if n < 2 {
			return nil, nil
		}
		for i := range n {
			for range games {
				j := rng.IntN(n - 1)
				if j >= i {
					j++
				}
				out = append(out, Pairing{i, j, len(out)})
			}
		}
	default:
		return nil, fmt.Errorf("%w %q", ErrFormat, cfg.Format)
	}
	return out, nil
}

// GameResult is a played game of a tournament.
type GameResult[M comparable] struct {
	Pairing
	Record[M]
}

// Results holds a tournament's games and each agent's points.
type Results[M comparable] struct {
	Games  []GameResult[M]
	Points []int
	// Wins, Draws and Losses count each agent's results.
	Wins, Draws, Losses []int
}

// Run plays the tournament among len(agents) agents: agents[i]() makes a
// fresh player for agent i (each worker makes its own, once). Game k of the
// schedule draws its opening from seed.Rand(runSeed, arena.Name, generation,
// seed.Opening, OpeningIndex) and its players' seeds from
// (…, seed.Player, k), so results do not depend on the number of workers.
// progress, if not nil, is called after every finished game, from one
// goroutine at a time. Cancelling ctx stops the tournament within a move's
// time and returns the context's error.
func Run[M comparable, S search.Game[M]](ctx context.Context, arena Arena[M, S], agents []func() search.Player[M, S], schedule []Pairing, cfg Config, runSeed uint64, generation int, progress func(done, total int)) (Results[M], error) {
	return RunFrom(ctx, arena, agents, schedule, 0, cfg, runSeed, generation, progress)
}

// RunFrom is Run for games that continue a generation's schedule: game k
// of schedule is game first+k of the generation (GameID.Index), so that
// games played in several calls (a race after a tournament) each have
// their own players' seeds.
func RunFrom[M comparable, S search.Game[M]](ctx context.Context, arena Arena[M, S], agents []func() search.Player[M, S], schedule []Pairing, first int, cfg Config, runSeed uint64, generation int, progress func(done, total int)) (Results[M], error) {
	n := len(agents)
	games := make([]GameResult[M], len(schedule))
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = max(1, min(workers, len(schedule)))
	jobs := make(chan int)
	var mu sync.Mutex // serialises progress and the done count
	done := 0
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		defer close(jobs)
		for k := range schedule {
			select {
			case jobs <- k:
			case <-gctx.Done():
				return gctx.Err()
			}
		}
		return nil
	})
	for range workers {
		g.Go(func() error {
			players := make([]search.Player[M, S], n)
			// Players that hold resources (an external engine's process)
			// are closed when the worker ends, whatever ends it.
			defer func() {
				for _, p := range players {
					if c, ok := p.(io.Closer); ok {
						c.Close()
					}
				}
			}()
			get := func(i int) search.Player[M, S] {
				if players[i] == nil {
					players[i] = agents[i]()
				}
				return players[i]
			}
			for k := range jobs {
				pr := schedule[k]
				if cfg.Slots != nil {
					if err := cfg.Slots.Acquire(gctx, 1); err != nil {
						return err
					}
				}
				rec, err := arena.PlayScheduled(gctx, GameID{RunSeed: runSeed, Generation: generation, Index: first + k, Pairing: pr},
					get(pr.First), get(pr.Second), cfg.Clock)
				if cfg.Slots != nil {
					cfg.Slots.Release(1)
				}
				if err != nil {
					return err
				}
				games[k] = GameResult[M]{Pairing: pr, Record: rec}
				if progress != nil {
					mu.Lock()
					done++
					progress(done, len(schedule))
					mu.Unlock()
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		if ctx.Err() != nil {
			return Results[M]{}, fmt.Errorf("tournament: %w", ctx.Err())
		}
		return Results[M]{}, fmt.Errorf("tournament: %w", err)
	}
	return Tally(n, games, cfg.Scoring), nil
}

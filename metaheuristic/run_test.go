package metaheuristic

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"evolved/game/chess"
	"evolved/search"
)

// runners runs each method briefly with the given opponent.
func runners(opp Opponent) map[string]func(ctx context.Context) (Result, error) {
	base := DefaultConfig()
	base.Opponent, base.Iterations, base.Turns, base.Workers = opp, 3, 6, 2
	return map[string]func(ctx context.Context) (Result, error){
		"aco": func(ctx context.Context) (Result, error) {
			c := DefaultACOConfig()
			c.Config, c.Ants = base, 4
			return RunACO(ctx, c)
		},
		"ga": func(ctx context.Context) (Result, error) {
			c := DefaultGAConfig()
			c.Config, c.Population = base, 4
			return RunGA(ctx, c)
		},
		"sa": func(ctx context.Context) (Result, error) {
			c := DefaultSAConfig()
			c.Config = base
			return RunSA(ctx, c)
		},
	}
}

// stallingOpponent thinks until its context is done, as an engine given
// too long a search would.
type stallingOpponent struct {
	search.Random[chess.Move, *chess.Game]
}

func (stallingOpponent) NewGame(uint64) {}

func (stallingOpponent) Move(ctx context.Context, g *chess.Game) (search.Result[chess.Move], error) {
	select {
	case <-ctx.Done():
		return search.Result[chess.Move]{}, ctx.Err()
	case <-time.After(time.Minute):
		return search.Result[chess.Move]{}, errors.New("not cancelled")
	}
}

func TestCancelStopsAGameInProgress(t *testing.T) {
	opp := func() search.Player[chess.Move, *chess.Game] { return stallingOpponent{} }
	for name, run := range runners(opp) {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		began := time.Now()
		res, err := run(ctx)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: error %v, want the context's", name, err)
		}
		if d := time.Since(began); d > 2*time.Second {
			t.Errorf("%s: returned %v after the deadline", name, d)
		}
		if len(res.Iterations) != 0 || res.Method != Method(name) || res.Table == nil {
			t.Errorf("%s: result %+v, want no iteration and an empty table", name, res)
		}
	}
}

// faultyOpponent fails or cheats at its third move.
type faultyOpponent struct {
	*search.Random[chess.Move, *chess.Game]
	moves   *int
	illegal bool
}

func (o faultyOpponent) Move(ctx context.Context, g *chess.Game) (search.Result[chess.Move], error) {
	if *o.moves++; *o.moves == 3 {
		if o.illegal {
			return search.Result[chess.Move]{Move: chess.NoMove}, nil
		}
		return search.Result[chess.Move]{}, errors.New("engine crashed")
	}
	return o.Random.Move(ctx, g)
}

func TestOpponentFailures(t *testing.T) {
	for _, illegal := range []bool{false, true} {
		want := "opponent: engine crashed"
		if illegal {
			want = "opponent played no move, not a legal move in "
		}
		opp := func() search.Player[chess.Move, *chess.Game] {
			return faultyOpponent{search.NewRandom[chess.Move, *chess.Game](), new(int), illegal}
		}
		for name, run := range runners(opp) {
			_, err := run(context.Background())
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "iteration ") {
				t.Errorf("%s: error %v, want one with %q naming the game", name, err, want)
			}
		}
	}
}

package population_test

import (
	"bytes"
	"context"
	"testing"

	"evolved/distill"
	"evolved/game/draughts"
	"evolved/tournament"

	"evolved/games"
	"evolved/nnet"
	"evolved/population"
)

// TestDistillSearchesElsewhere steps a draughts population that distills
// every 2 generations through 4 generations twice: with the searches here,
// and through an Env whose Distill searches each position's FEN
// with the game's Scorer as a cluster's worker does and notes what it was
// asked. The states are the same bit for bit, and the searches elsewhere
// were asked for the champion's net at the configured budget, with the
// run's seed and the generation.
func TestDistillSearchesElsewhere(t *testing.T) {
	ctx := context.Background()
	cfg := smallConfig(2)
	cfg.BaselineEvery = 0
	cfg.DistillEvery, cfg.DistillNodes = 2, 80
	local := population.LocalEnv(games.Draughts(), games.Setup{Depth: 1})
	type asked struct {
		net        *nnet.Net
		nodes      int64
		seed       uint64
		generation int
		positions  int
	}
	var calls []asked
	remote := searchEnv{local, func(ctx context.Context, net *nnet.Net, nodes int64, runSeed uint64, generation int, fens []string) ([]float64, error) {
		calls = append(calls, asked{net, nodes, runSeed, generation, len(fens)})
		score, err := games.Draughts().Scorer(net, nodes)
		if err != nil {
			return nil, err
		}
		out := make([]float64, len(fens))
		for i, fen := range fens {
			if out[i], err = score(ctx, fen); err != nil {
				return nil, err
			}
		}
		return out, nil
	}}
	st, err := population.New("draughts", nnet.NumDraughtsInputs, cfg, 9)
	if err != nil {
		t.Fatal(err)
	}
	stRemote := st
	for g := range 4 {
		next, rep, err := population.Step(ctx, local, cfg, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		before := len(calls)
		nextRemote, repRemote, err := population.Step(ctx, remote, cfg, stRemote, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(encode(t, next), encode(t, nextRemote)) {
			t.Fatalf("generation %d: the state after the searches elsewhere differs from the local one", g)
		}
		if (rep.Distill != nil) != (g%2 == 1) || (repRemote.Distill == nil) != (rep.Distill == nil) {
			t.Fatalf("generation %d: distilled here %v, elsewhere %v", g, rep.Distill != nil, repRemote.Distill != nil)
		}
		if rep.Distill == nil {
			if len(calls) != before {
				t.Errorf("generation %d: searched elsewhere without a distillation", g)
			}
		} else {
			want := asked{rep.Champion.Net, 80, st.Seed, g, rep.Distill.Searched} // each distinct position once
			if got := calls[before:]; len(got) != 1 || !got[0].net.Equal(want.net) || got[0].nodes != want.nodes || got[0].seed != want.seed ||
				got[0].generation != want.generation || got[0].positions != want.positions {
				t.Errorf("generation %d: the searches elsewhere were asked %+v, want once for the champion's net, %d nodes, seed %d, generation %d, %d positions",
					g, got, want.nodes, want.seed, want.generation, want.positions)
			}
		}
		st, stRemote = next, nextRemote
	}
}

// TestDistillProgress: a distillation reports its searches through
// Observer.Searched, rising to the distinct positions it searched, and a
// generation without one reports nothing: the daemon's live line and its
// watchdog rely on it during a long distillation.
func TestDistillProgress(t *testing.T) {
	ctx := context.Background()
	cfg := smallConfig(2)
	cfg.BaselineEvery = 0
	cfg.DistillEvery, cfg.DistillNodes = 2, 80
	sp := population.LocalEnv(games.Draughts(), games.Setup{Depth: 1})
	var done, total, calls int
	obs := searchedFunc(func(d, n int) {
		if d < done || (total != 0 && n != total) {
			t.Errorf("progress %d/%d after %d/%d", d, n, done, total)
		}
		done, total = d, n
		calls++
	})
	st, err := population.New("draughts", nnet.NumDraughtsInputs, cfg, 9)
	if err != nil {
		t.Fatal(err)
	}
	for g := range 4 {
		done, total, calls = 0, 0, 0
		next, rep, err := population.Step(ctx, sp, cfg, st, obs)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case rep.Distill == nil && calls > 0:
			t.Errorf("generation %d: %d progress reports without a distillation", g, calls)
		case rep.Distill != nil && (calls == 0 || done != rep.Distill.Searched || total != rep.Distill.Searched || rep.Distill.Searched > rep.Distill.Positions):
			t.Errorf("generation %d: progress ended at %d/%d after %d reports, want %d/%d (the distinct of %d positions)", g, done, total, calls,
				rep.Distill.Searched, rep.Distill.Searched, rep.Distill.Positions)
		}
		st = next
	}
}

// searchEnv is a Local Env whose distillation searches with search, as
// the daemon's runs them on the cluster's workers.
type searchEnv struct {
	population.Local[dm, *draughts.Game]
	search func(ctx context.Context, net *nnet.Net, nodes int64, runSeed uint64, generation int, fens []string) ([]float64, error)
}

// Distill fits net with its searches run by e.search.
func (e searchEnv) Distill(ctx context.Context, g games.Binding[dm, *draughts.Game], net *nnet.Net, records []tournament.Record[dm], nodes int64,
	runSeed uint64, generation int, opts distill.Options) (*nnet.Net, distill.Report, error) {
	opts.Search = func(ctx context.Context, fens []string, _ func(done, total int)) ([]float64, error) {
		return e.search(ctx, net, nodes, runSeed, generation, fens)
	}
	return e.Local.Distill(ctx, g, net, records, nodes, runSeed, generation, opts)
}

// searchedFunc is an Observer that hears only the distillation's searches.
type searchedFunc func(done, total int)

// Played hears nothing.
func (searchedFunc) Played(int, int) {}

// Searched calls f.
func (f searchedFunc) Searched(done, total int) { f(done, total) }

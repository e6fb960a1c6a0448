package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"

	"evolved/agent"
	"evolved/distill"
	"evolved/games"
	"evolved/nnet"
	"evolved/positions"
	"evolved/progress"
)

// trainCommand sets up "evolved train": an agent's perspective net trained
// on a position store.
func trainCommand(fs *flag.FlagSet) action {
	agentPath := fs.String("agent", "", "the agent file `FILE` whose net is trained (a chess or xiangqi agent with a perspective net)")
	storeDir := fs.String("store", "", "the position store `DIR` to learn from (evolved selfplay fills one)")
	out := fs.String("o", "", "write the trained agent to `FILE`")
	epochs := fs.Int("epochs", 0, "`N` passes over the positions (default 1)")
	batch := fs.Int("batch", 0, "`N` positions a step (default 1024)")
	rate := fs.Float64("rate", 0, "Adam's step `R` (default 0.001)")
	results := fs.Float64("results", 0, "take the share `S` (0 to 1) of each position's target from its game's result, the rest from its search's score")
	l2 := fs.Float64("l2", 0, "pull the net's weights back to the agent's by `L` times their squared distance (default 0: none)")
	noisy := fs.Bool("noisy", false, "train on positions in check or whose best move captures too (left out by default)")
	workers := fs.Int("workers", 0, "use `N` cores (default: all; the result does not depend on it)")
	seed := fs.Uint64("seed", 1, "the shuffles' random `SEED`")
	setHelp(fs, help{
		usage: []string{"--agent FILE --store DIR -o FILE [--epochs N] [--batch N] [--rate R] [--results S] [--l2 L] [--noisy] [--workers N] [--seed S]"},
		about: `Trains the agent's perspective net (chess.perspective or xiangqi.perspective) on the positions of
the store by minibatch Adam: the net learns to predict, beside the agent's
material, tables and terms, which stay as they are, a blend of each position's
game result and its search's score. One position in 20 is held out; the loss on
those before training and after each epoch says whether the net learns or only
remembers. The trained agent plays with the quantized net, as any agent does.`,
	})
	return func(ctx context.Context, _ io.Reader, stdout, stderr io.Writer) error {
		switch {
		case *agentPath == "" || *storeDir == "" || *out == "":
			return usagef("train: give --agent FILE, --store DIR and -o FILE")
		case *epochs < 0 || *epochs > 1000:
			return usagef("train: --epochs must be 1 to 1000 (0: the default), got %d", *epochs)
		case *batch < 0:
			return usagef("train: --batch must be 1 or more (0: the default), got %d", *batch)
		case !(*rate >= 0 && *rate <= 1):
			return usagef("train: --rate must be 0 to 1 (0: the default), got %v", *rate)
		case !(*results >= 0 && *results <= 1):
			return usagef("train: --results must be 0 to 1, got %v", *results)
		case !(*l2 >= 0 && *l2 <= 1):
			return usagef("train: --l2 must be 0 to 1, got %v", *l2)
		case *workers < 0:
			return usagef("train: --workers must be 0 or more, got %d", *workers)
		}
		if err := checkOutput("train", "-o", *out); err != nil {
			return err
		}
		f, err := readAgentFile(*agentPath)
		if err != nil {
			return fmt.Errorf("train: %w", err)
		}
		if f.Game != games.ChessName && f.Game != games.XiangqiName {
			return fmt.Errorf("train: %s is a %s agent; training takes chess and xiangqi agents with a perspective net", *agentPath, f.Game)
		}
		records, err := readStore(ctx, *storeDir, f.Game)
		if err != nil {
			return fmt.Errorf("train: %w", err)
		}
		net, r, err := trainAgent(ctx, f, records, distill.TrainOptions{Epochs: *epochs, Batch: *batch, Rate: *rate, Results: *results, L2: *l2,
			Noisy: *noisy, Workers: *workers, Seed: *seed}, stderr)
		if err != nil {
			return fmt.Errorf("train: %s on %s: %w", *agentPath, *storeDir, err)
		}
		f.Net = net
		var buf bytes.Buffer
		if err := agent.Write(&buf, f); err != nil {
			return fmt.Errorf("train: %w", err)
		}
		if err := outputGuard().WriteFile(*out, buf.Bytes()); err != nil {
			return fmt.Errorf("train: %w", err)
		}
		fmt.Fprintf(stdout, "train: %d records, %d positions trained on, %d held out\n", r.Records, r.Positions, r.HeldOut)
		for e := range r.Loss {
			fmt.Fprintf(stdout, "  epoch %d: loss %.6f, held out %.6f\n", e, r.Loss[e], r.HeldOutLoss[e])
		}
		fmt.Fprintf(stdout, "wrote %s\n", *out)
		return nil
	}
}

// trainAgent trains f's net on records under opts, showing each epoch's
// progress on stderr.
func trainAgent(ctx context.Context, f agent.File, records []positions.Record, opts distill.TrainOptions, stderr io.Writer) (*nnet.Net, distill.TrainReport, error) {
	var rep *progress.Reporter // one line an epoch
	current := 0
	opts.Progress = func(epoch, done, total int) {
		if epoch != current {
			if rep != nil {
				rep.Finish()
			}
			current = epoch
			rep = progress.New(stderr, fmt.Sprintf("train: epoch %d", epoch), total, "positions", progress.IsTerminal(stderr))
		}
		rep.Update(done)
	}
	fit := distill.TrainChess
	if f.Game == games.XiangqiName {
		fit = distill.TrainXiangqi
	}
	net, r, err := fit(ctx, f.Net, records, opts)
	if rep != nil {
		rep.Finish()
	}
	return net, r, err
}

// readStore returns every committed record of the position store dir, of
// game, opened read-only: a selfplay or a daemon may be adding to it.
func readStore(ctx context.Context, dir, game string) ([]positions.Record, error) {
	store, err := positions.Open(ctx, dir, positions.Options{Game: game, ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer store.Close()
	records := make([]positions.Record, 0, store.Records())
	err = store.Scan(ctx, func(_ int64, r *positions.Record) error {
		records = append(records, *r)
		return nil
	})
	return records, err
}

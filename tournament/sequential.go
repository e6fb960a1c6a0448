package tournament

import (
	"context"
	"errors"
	"fmt"

	"evolved/search"
	"evolved/sprt"
)

// SequentialChunkPairs is the number of game pairs a sequential match
// plays between two looks at its test: large enough to keep the workers
// busy, and fixed, so that where a test stops does not depend on the
// concurrency.
const SequentialChunkPairs = 16

// Sequential is the state of a sequential match's test: the pentanomial
// counts of the pairs kept, the decision and the log-likelihood ratio.
type Sequential struct {
	Pentanomial sprt.Pentanomial
	Decision    sprt.Decision
	LLR         float64
}

// SequentialMatch plays at most opts.Games games (an even number) between
// the players that newA and newB make, as pairs that share an opening with
// colours swapped, until test decides. It plays chunks of
// SequentialChunkPairs pairs; chunk c's games take their seeds from
// (opts.Seed, arena.Name, c), chunk 0's being those of Match. The test is
// decided at the first pair, in schedule order, at which the LLR over the
// pairs up to it crosses a bound, and games of later pairs already played
// are dropped, so that the result is the same at any concurrency; without
// a decision the match ends at opts.Games with Decision sprt.Continue.
//
// progress, if not nil, is called as the games finish, with the games
// done and the LLR of the pairs decided before their chunk, and after each
// chunk with the games kept and the LLR over them; calls come one at a
// time. opts.Progress is not called, and opts.FixedColors must be false.
func SequentialMatch[M comparable, S search.Game[M]](ctx context.Context, arena Arena[M, S], newA, newB func() search.Player[M, S], opts MatchOptions, test sprt.Test, progress func(done int, llr float64)) (MatchResult[M], Sequential, error) {
	var (
		res MatchResult[M]
		seq Sequential
	)
	switch {
	case opts.FixedColors:
		return res, seq, errors.New("tournament: a sequential match plays game pairs: it needs alternating colours")
	case opts.Games < 2 || opts.Games%2 != 0:
		return res, seq, fmt.Errorf("tournament: a sequential match plays game pairs: it needs an even number of games, got %d", opts.Games)
	}
	if progress == nil {
		progress = func(int, float64) {}
	}
	agents := []func() search.Player[M, S]{newA, newB}
	cfg := Config{Workers: opts.Concurrency, Slots: opts.Slots, Clock: opts.Clock}
	kept := 0 // games counted, resumed ones too
	for chunk, played := 0, 0; played < opts.Games/2 && seq.Decision == sprt.Continue; chunk++ {
		pairs := min(SequentialChunkPairs, opts.Games/2-played)
		var scores []PairScores
		var games []GameResult[M]
		if played < len(opts.Resume) {
			if len(opts.Resume)-played < pairs {
				return res, seq, fmt.Errorf("tournament: match: resumed with %d pairs, which ends inside chunk %d of %d pairs", len(opts.Resume), chunk, pairs)
			}
			scores = opts.Resume[played : played+pairs]
		} else {
			schedule := make([]Pairing, 0, 2*pairs)
			for j := range pairs {
				schedule = append(schedule, Pairing{First: 0, Second: 1, OpeningIndex: j}, Pairing{First: 1, Second: 0, OpeningIndex: j})
			}
			base, llr := 2*played, seq.LLR
			r, err := Run(ctx, arena, agents, schedule, cfg, opts.Seed, chunk, func(done, _ int) { progress(base+done, llr) })
			if err != nil {
				return res, seq, fmt.Errorf("tournament: match: %w", err)
			}
			games = r.Games
			for j := range pairs {
				scores = append(scores, PairScores{firstAgentScore(games[2*j]), firstAgentScore(games[2*j+1])})
			}
			if opts.ChunkDone != nil {
				if err := opts.ChunkDone(chunk, scores); err != nil {
					return res, seq, fmt.Errorf("tournament: match: chunk %d: %w", chunk, err)
				}
			}
		}
		for j := 0; j < pairs && seq.Decision == sprt.Continue; j++ {
			if games != nil {
				for _, g := range games[2*j : 2*j+2] {
					res.Records = append(res.Records, g.Record)
					res.AFirst = append(res.AFirst, g.First == 0)
				}
			}
			for _, x := range scores[j] {
				switch x {
				case 1:
					res.Wins++
				case 0:
					res.Losses++
				default:
					res.Draws++
				}
			}
			kept += 2
			seq.Pentanomial.Add(scores[j][0], scores[j][1])
			seq.Decision, seq.LLR = test.Decide(seq.Pentanomial)
		}
		played += pairs
		progress(kept, seq.LLR)
	}
	return res, seq, nil
}

// firstAgentScore returns A's score in g, a game of a two-agent schedule in
// which A is agent 0.
func firstAgentScore[M comparable](g GameResult[M]) float64 {
	s := g.Record.Outcome.Result.FirstScore()
	if g.First != 0 {
		s = 1 - s
	}
	return s
}

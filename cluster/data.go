package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"

	"evolved/games"
	"evolved/nnet"
	"evolved/positions"
	"evolved/search"
	"evolved/tournament"
)

// ErrForgedScores is wrapped by the errors about a data game's result
// whose scores are not its searches': not one a move after the opening,
// or, replayed here, other than the searches give.
var ErrForgedScores = errors.New("cluster: not the scores of the data game's searches")

// Data is a generation's data games for PlayData.
type Data[M MoveCode, S search.Game[M]] struct {
	// Binding is the coordinator's own binding of the game under the
	// setup the workers bind it with (games.Kind.Bind): its Setup is sent
	// to them, its data arena checks their games by the rules, its
	// players replay the sampled games, and its DataRecords makes the
	// records.
	Binding games.Binding[M, S]
	// Net plays both sides of every game.
	Net *nnet.Net
	// Games are the games: Games, First, RunSeed, Generation and
	// Progress (called after each game counted); Workers is unused, the
	// workers' concurrency being theirs.
	Games games.DataGames
	// Replay > 0 plays one game in about Replay, drawn by the hash of its
	// job (as Generation.Replay), again here, and refuses a result whose
	// moves, outcome or scores differ: the rules cannot tell a legal move
	// the net would not play, nor any score from the search's.
	Replay int
	// Alive, if set, is called every few seconds while PlayData waits for
	// results (see Generation.Alive).
	Alive func()
}

// dataGame is what a data game's result states, checked: the game, its
// scores as sent, and its records.
type dataGame[M MoveCode] struct {
	rec     tournament.Record[M]
	scores  []int32
	records []positions.Record
}

// PlayData plays a generation's data games on the workers, a job each,
// and returns their records in game order: what d.Binding.PlayData gives
// here with the same net and games, record for record. A result counts
// only in this protocol version, as a game of the data arena played by
// the rules (tournament.Arena.Verify) with one score a move after the
// opening, and, when sampled (d.Replay), once the game played again here
// is the same move for move and score for score; a refused result is
// logged with its worker's name and its job published again. The jobs'
// delivery, resumption and stragglers are the games' (collect).
// Cancelling ctx abandons the games.
func PlayData[M MoveCode, S search.Game[M]](ctx context.Context, c *Coordinator, d Data[M, S]) ([]positions.Record, error) {
	b, dg := d.Binding, d.Games
	if b.Kind.Pack == nil {
		return nil, fmt.Errorf("cluster: data games: %s positions are not stored", b.Kind.Name)
	}
	if dg.Games <= 0 {
		return nil, nil
	}
	setup, err := json.Marshal(b.Setup)
	if err != nil {
		return nil, fmt.Errorf("cluster: data games: setup: %w", err)
	}
	epoch := c.currentEpoch() // the streams' epoch the genome is in
	hash, err := c.put(ctx, d.Net, d.Alive)
	if err != nil {
		return nil, err
	}
	reply := dataSubject(b.Kind.Name, dg.RunSeed, dg.Generation)
	jobs := make([]Job, dg.Games)
	for i := range jobs {
		id := dg.ID(i)
		j := Job{Version: ProtocolVersion, Kind: DataJob, Game: b.Kind.Name, Setup: setup, RunSeed: id.RunSeed, Generation: id.Generation,
			Index: id.Index, OpeningIndex: id.OpeningIndex, Genomes: [2]string{hash, hash}, Reply: reply}
		j.ID = dataJobID(j.Game, j.RunSeed, j.Generation, j.Index) + "/" + j.digest()
		jobs[i] = j
	}
	arena := b.DataArena()
	done := 0
	bt := batch[dataGame[M]]{game: b.Kind.Name, generation: dg.Generation, one: "data game", many: "data games",
		reply: reply, jobs: jobs, nets: []*nnet.Net{d.Net}, games: true, alive: d.Alive,
		check: func(k int, r *Result) (dataGame[M], error) { return checkData(b, arena, &jobs[k], r) },
		counted: func(int) {
			done++
			if dg.Progress != nil {
				dg.Progress(done, len(jobs))
			}
		},
	}
	if d.Replay > 0 {
		bt.sampled = func(job *Job) bool { return sampled(job.ID, d.Replay) }
		bt.verify = func(ctx context.Context, job *Job, g dataGame[M]) error { return replayData(ctx, d, job, g) }
	}
	played, err := collect(ctx, c, epoch, bt)
	if err != nil {
		return nil, err
	}
	var out []positions.Record
	for _, g := range played {
		out = append(out, g.records...)
	}
	return out, nil
}

// checkData returns what r states for the data job job, or why it is
// refused: another protocol version, a worker's error, a record that is
// not the job's game of the data arena played by the rules, or not one
// score a move after the opening.
func checkData[M MoveCode, S search.Game[M]](b games.Binding[M, S], arena tournament.Arena[M, S], job *Job, r *Result) (dataGame[M], error) {
	rec, err := checkResult(arena, job, r)
	if err != nil {
		return dataGame[M]{}, err
	}
	if len(r.Scores) != len(rec.Moves)-rec.Opening {
		return dataGame[M]{}, fmt.Errorf("%w: %d scores for %d moves after the opening", ErrForgedScores, len(r.Scores), len(rec.Moves)-rec.Opening)
	}
	scores := make([]int, len(r.Scores))
	for i, s := range r.Scores {
		scores[i] = int(s)
	}
	records, err := b.DataRecords(rec, scores)
	if err != nil {
		return dataGame[M]{}, err
	}
	return dataGame[M]{rec: rec, scores: r.Scores, records: records}, nil
}

// replayData plays the data job job here with d's players and returns an
// error unless the game is g's, move for move, and its scores g's.
func replayData[M MoveCode, S search.Game[M]](ctx context.Context, d Data[M, S], job *Job, g dataGame[M]) error {
	newPlayer, err := d.Binding.Player(d.Net)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	want, scores, err := d.Binding.PlayDataGame(ctx, job.GameID(), [2]search.Player[M, S]{newPlayer(), newPlayer()})
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	if !slices.Equal(want.Moves, g.rec.Moves) || want.Outcome != g.rec.Outcome {
		return fmt.Errorf("%w: replayed here, the game has %d plies and ends %v, not the worker's %d and %v",
			tournament.ErrForged, len(want.Moves), want.Outcome, len(g.rec.Moves), g.rec.Outcome)
	}
	for i, s := range wireScores(scores) {
		if s != g.scores[i] {
			return fmt.Errorf("%w: replayed here, the search at ply %d scores %d, not the worker's %d", ErrForgedScores, want.Opening+i+1, s, g.scores[i])
		}
	}
	return nil
}

// wireScores returns a data game's scores as a Result carries them,
// clamped to int32 (positions.ClampScore clamps them further); nil for
// none.
func wireScores(scores []int) []int32 {
	if len(scores) == 0 {
		return nil
	}
	out := make([]int32, len(scores))
	for i, s := range scores {
		out[i] = int32(max(math.MinInt32, min(math.MaxInt32, s)))
	}
	return out
}

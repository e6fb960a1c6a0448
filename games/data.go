package games

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

	"evolved/game"
	"evolved/nnet"
	"evolved/positions"
	"evolved/search"
	"evolved/tournament"
)

// DataGames are self-play games played to fill a position store: one
// net against itself, under the binding's setup (a node budget makes them
// reproducible), each from a random opening, every position after the
// opening recorded with its search's score and best move and, once the
// game ends, its result.
//
// Game i is the scheduled game (RunSeed, Generation, index First+i) of the
// binding's arena under the name "<game>/data", so its opening and its
// players' seeds are streams of their own, apart from the tournament's
// games of the same generation: the records are a function of the net,
// the setup and those numbers, wherever and with however many workers
// they are played.
type DataGames struct {
	// Games is the number of games; First the index of the first.
	Games, First int
	// RunSeed and Generation name the games' random streams.
	RunSeed    uint64
	Generation int
	// Workers plays that many games at once (at least 1).
	Workers int
	// Progress, if set, is called after each game with the games done and
	// their total, from one goroutine at a time.
	Progress func(done, total int)
}

// ID returns the scheduled game that game i of d is, in the data arena
// (DataArena): index and opening First+i of the generation.
func (d DataGames) ID(i int) tournament.GameID {
	index := d.First + i
	return tournament.GameID{RunSeed: d.RunSeed, Generation: d.Generation, Index: index, Pairing: tournament.Pairing{OpeningIndex: index}}
}

// DataArena returns the arena of b's data games: b's arena named
// "<game>/data", so that their openings and seeds are streams apart from
// the tournament's.
func (b Binding[M, S]) DataArena() tournament.Arena[M, S] {
	arena := b.Arena
	arena.Name = b.Kind.Name + "/data"
	return arena
}

// PlayData plays d's games of net with b's setup and calls emit with each
// game's records, in game order (i from 0), from one goroutine at a time.
// The error names the game that failed, or is emit's.
func (b Binding[M, S]) PlayData(ctx context.Context, net *nnet.Net, d DataGames, emit func(i int, recs []positions.Record) error) error {
	if b.Kind.Pack == nil {
		return fmt.Errorf("data games: %s positions are not stored", b.Kind.Name)
	}
	newPlayer, err := b.Player(net)
	if err != nil {
		return fmt.Errorf("data games: %w", err)
	}
	done := make([][]positions.Record, d.Games)
	ready := make([]bool, d.Games)
	var mu sync.Mutex
	next, finished := 0, 0
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(max(1, d.Workers))
	players := sync.Pool{New: func() any { return [2]search.Player[M, S]{newPlayer(), newPlayer()} }}
	for i := range d.Games {
		g.Go(func() error {
			pair := players.Get().([2]search.Player[M, S])
			defer players.Put(pair)
			recs, err := b.dataGame(ctx, pair, d.ID(i))
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			done[i], ready[i] = recs, true
			finished++
			if d.Progress != nil {
				d.Progress(finished, d.Games)
			}
			for next < d.Games && ready[next] {
				if err := emit(next, done[next]); err != nil {
					return err
				}
				done[next] = nil
				next++
			}
			return nil
		})
	}
	return g.Wait()
}

// dataGame plays the data game id with the two players and returns its
// records: PlayDataGame, then DataRecords, the two steps a data game
// played on the cluster takes on a worker and on the coordinator.
func (b Binding[M, S]) dataGame(ctx context.Context, pair [2]search.Player[M, S], id tournament.GameID) ([]positions.Record, error) {
	rec, scores, err := b.PlayDataGame(ctx, id, pair)
	if err != nil {
		return nil, err
	}
	return b.DataRecords(rec, scores)
}

// PlayDataGame plays the scheduled data game id in the data arena
// (DataArena) with the two players, and returns the game and the score
// of each search its players made: one a move after the opening, in
// order, from the side to move's point of view. DataRecords turns the
// two into the game's records.
func (b Binding[M, S]) PlayDataGame(ctx context.Context, id tournament.GameID, pair [2]search.Player[M, S]) (tournament.Record[M], []int, error) {
	var scores []int
	rec := func(p search.Player[M, S]) search.Player[M, S] {
		return &recorder[M, S]{Player: p, record: func(_ S, res search.Result[M]) { scores = append(scores, res.Score) }}
	}
	r, err := b.DataArena().PlayScheduled(ctx, id, rec(pair[0]), rec(pair[1]), tournament.Clock{})
	if err != nil {
		return tournament.Record[M]{}, nil, fmt.Errorf("data game %d: %w", id.Index, err)
	}
	return r, scores, nil
}

// DataRecords returns the records of a data game, rec with the scores
// PlayDataGame gave: its moves replayed from its start (Kind.NewGame
// under b's setup), one record a move after the opening, the position
// before the move packed, the score clamped (positions.ClampScore), the
// move packed, the ply from the start, the game's result for the side to
// move. The error names a count of scores other than one a move after the
// opening, a start that cannot be read, or an illegal move.
func (b Binding[M, S]) DataRecords(rec tournament.Record[M], scores []int) ([]positions.Record, error) {
	if b.Kind.Pack == nil {
		return nil, fmt.Errorf("data records: %s positions are not stored", b.Kind.Name)
	}
	if rec.Opening < 0 || rec.Opening > len(rec.Moves) || len(scores) != len(rec.Moves)-rec.Opening {
		return nil, fmt.Errorf("data records: %d scores for %d moves after an opening of %d", len(scores), len(rec.Moves)-rec.Opening, rec.Opening)
	}
	s, err := b.Kind.NewGame(rec.Start, b.Setup)
	if err != nil {
		return nil, fmt.Errorf("data records: start: %w", err)
	}
	recs := make([]positions.Record, 0, len(scores))
	var legal []M
	for i, m := range rec.Moves {
		legal = s.LegalMoves(legal)
		if !slices.Contains(legal, m) {
			return nil, fmt.Errorf("data records: ply %d, %v, is illegal", i+1, m)
		}
		if i >= rec.Opening {
			recs = append(recs, positions.Record{Position: b.Kind.Pack(s), Score: positions.ClampScore(scores[i-rec.Opening]),
				Move: b.Kind.PackMove(m), Ply: uint16(min(s.Ply(), 65535)), Result: resultFor(rec.Outcome.Result, s.ToMove()),
				Source: positions.DataGame})
		}
		s.Make(m)
	}
	return recs, nil
}

// resultFor returns r as the result of side.
func resultFor(r game.Result, side game.Player) positions.Result {
	switch {
	case r == game.Ongoing:
		return positions.Unknown
	case r == game.Draw:
		return positions.Draw
	case r == game.WinFor(side):
		return positions.Win
	}
	return positions.Loss
}

// recorder is a player that tells record of each position it moves in
// and what its search said, before it returns the move.
type recorder[M comparable, S search.Game[M]] struct {
	search.Player[M, S]
	record func(s S, res search.Result[M])
}

// Move searches as the player does, and records.
func (r *recorder[M, S]) Move(ctx context.Context, s S) (search.Result[M], error) {
	res, err := r.Player.Move(ctx, s)
	if err == nil {
		r.record(s, res)
	}
	return res, err
}

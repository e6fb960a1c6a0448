package games

import (
	"context"
	"fmt"
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
	arena := b.Arena
	arena.Name = b.Kind.Name + "/data"
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
			recs, err := b.dataGame(ctx, arena, pair, d, i)
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

// dataGame plays game i of d with the two players and returns its
// records.
func (b Binding[M, S]) dataGame(ctx context.Context, arena tournament.Arena[M, S], pair [2]search.Player[M, S], d DataGames, i int) ([]positions.Record, error) {
	var recs []positions.Record
	var sides []game.Player
	rec := func(p search.Player[M, S]) search.Player[M, S] {
		return &recorder[M, S]{Player: p, record: func(s S, res search.Result[M]) {
			recs = append(recs, positions.Record{Position: b.Kind.Pack(s), Score: positions.ClampScore(res.Score),
				Move: b.Kind.PackMove(res.Move), Ply: uint16(min(s.Ply(), 65535)), Source: positions.DataGame})
			sides = append(sides, s.ToMove())
		}}
	}
	index := d.First + i
	id := tournament.GameID{RunSeed: d.RunSeed, Generation: d.Generation, Index: index, Pairing: tournament.Pairing{OpeningIndex: index}}
	r, err := arena.PlayScheduled(ctx, id, rec(pair[0]), rec(pair[1]), tournament.Clock{})
	if err != nil {
		return nil, fmt.Errorf("data game %d: %w", index, err)
	}
	for k := range recs {
		recs[k].Result = resultFor(r.Outcome.Result, sides[k])
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

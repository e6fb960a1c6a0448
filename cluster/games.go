package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"evolved/game"
	"evolved/games"
	"evolved/nnet"
	"evolved/search"
	"evolved/tournament"
)

// MoveCode is a game's move type as the cluster sends it: an integer code
// that names the move (draughts.Move, chess.Move, xiangqi.Move), sent as
// a uint64.
type MoveCode interface {
	comparable
	~uint32 | ~uint64
}

// playJob plays a job, a game or a data game (DataJob), with the nets of
// its two players, with the same code as a local tournament or local data
// games: the game bound with the job's setup, and
// tournament.Arena.PlayScheduled or games.Binding.PlayDataGame. players,
// if not nil, keeps the players it makes for later jobs of the same
// goroutine, as a local tournament's worker keeps its players from game
// to game.
func playJob(ctx context.Context, job *Job, nets [2]*nnet.Net, players *playerCache) (*Result, error) {
	var setup games.Setup
	if err := strictJSON(job.Setup, &setup); err != nil {
		return nil, err
	}
	if !slices.Contains(games.Names(), job.Game) {
		return nil, fmt.Errorf("%w: job %s: unknown game %q", ErrProtocol, job.ID, job.Game)
	}
	var res *Result
	err := games.Visit(job.Game, games.Funcs{
		Draughts: func(k games.DraughtsKind) (err error) {
			res, err = playWith(ctx, k.Bind(setup), job, nets, players)
			return err
		},
		Chess: func(k games.ChessKind) (err error) {
			res, err = playWith(ctx, k.Bind(setup), job, nets, players)
			return err
		},
		Xiangqi: func(k games.XiangqiKind) (err error) {
			res, err = playWith(ctx, k.Bind(setup), job, nets, players)
			return err
		},
	})
	return res, err
}

// strictJSON decodes a setup, refusing fields this build does not know:
// a setup from a newer coordinator must not be played with a field
// silently ignored.
func strictJSON(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("%w: setup %s: %w", ErrProtocol, data, err)
	}
	return nil
}

// playWith plays job with sp's players for nets and returns its result:
// a data game's (DataJob) with its searches' scores.
func playWith[M MoveCode, S search.Game[M]](ctx context.Context, sp games.Binding[M, S], job *Job, nets [2]*nnet.Net, cache *playerCache) (*Result, error) {
	if job.Kind == DataJob && sp.Kind.Pack == nil {
		return nil, fmt.Errorf("job %s: %s positions are not stored: no data games", job.ID, sp.Kind.Name)
	}
	var players [2]search.Player[M, S]
	for i, n := range nets {
		// A game with the same net on both sides needs two players.
		key := job.Game + "\x00" + string(job.Setup) + "\x00" + job.Genomes[i] + "\x00" + string(rune('0'+i))
		if p, ok := cache.get(key).(search.Player[M, S]); ok {
			players[i] = p
			continue
		}
		p, err := sp.Player(n)
		if err != nil {
			return nil, fmt.Errorf("job %s: player %d: %w", job.ID, i+1, err)
		}
		players[i] = p()
		cache.put(key, players[i])
	}
	var rec tournament.Record[M]
	var scores []int
	var err error
	if job.Kind == DataJob {
		rec, scores, err = sp.PlayDataGame(ctx, job.GameID(), players)
	} else {
		rec, err = sp.Arena.PlayScheduled(ctx, job.GameID(), players[0], players[1], tournament.Clock{})
	}
	if err != nil {
		return nil, fmt.Errorf("job %s: %w", job.ID, err)
	}
	r := &Result{Version: ProtocolVersion, ID: job.ID, Attempt: job.Attempt, Start: rec.Start,
		Moves: make([]uint64, len(rec.Moves)), Opening: rec.Opening, Result: rec.Outcome.Result, Reason: rec.Outcome.Reason,
		Scores: wireScores(scores)}
	for i, m := range rec.Moves {
		r.Moves[i] = uint64(m)
	}
	return r, nil
}

// record returns the game a result states, checked against its job with
// the rules (tournament.Arena.Verify): the error wraps
// tournament.ErrForged when the result is not such a game.
func record[M MoveCode, S search.Game[M]](arena tournament.Arena[M, S], id tournament.GameID, r *Result) (tournament.Record[M], error) {
	rec := tournament.Record[M]{Start: r.Start, Moves: make([]M, len(r.Moves)), Opening: r.Opening,
		Outcome: game.Outcome{Result: r.Result, Reason: r.Reason}}
	for i, c := range r.Moves {
		m := M(c)
		if uint64(m) != c {
			return rec, fmt.Errorf("%w: ply %d: %#x is no move code of this game", tournament.ErrForged, i+1, c)
		}
		rec.Moves[i] = m
	}
	return rec, arena.Verify(id, rec)
}

// playerCache keeps the players a worker goroutine made, by game, setup,
// net and side, and its distillation searches, by game, net and budget,
// the latest few: a player starts every game afresh from its seed
// (search.Player.NewGame) and a distillation's search every position
// from a cleared table, so reusing one changes no game and no value, and
// saves building its evaluator and search for every job. A nil cache
// keeps nothing.
type playerCache struct {
	size    int
	players map[string]any
	order   []string // oldest first
}

func newPlayerCache(size int) *playerCache {
	return &playerCache{size: size, players: map[string]any{}}
}

func (c *playerCache) get(key string) any {
	if c == nil {
		return nil
	}
	return c.players[key]
}

func (c *playerCache) put(key string, p any) {
	if c == nil {
		return
	}
	if _, ok := c.players[key]; !ok {
		c.order = append(c.order, key)
	}
	c.players[key] = p
	if len(c.order) > c.size {
		delete(c.players, c.order[0])
		c.order = c.order[1:]
	}
}

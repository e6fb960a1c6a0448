package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// Member is one agent of a played generation, as the generation's page
// shows it: its slot, how it was made and what it scored.
type Member struct {
	Slot    int    `json:"slot"`
	AgentID int64  `json:"agent_id"`
	Origin  string `json:"origin"` // "random", "elite", "crossover", "mutation" or "distilled"
	// Born is the generation the agent first belonged to; Parents are the
	// agents it was made from and Node the net node a crossover swapped
	// ("" otherwise).
	Born    int     `json:"born"`
	Parents []int64 `json:"parents"`
	Node    string  `json:"node,omitempty"`
	// Points, Wins, Draws, Losses and Rank are its tournament results (rank
	// 1 is the champion).
	Points              int  `json:"points"`
	Wins, Draws, Losses int  `json:"-"`
	Rank                int  `json:"rank"`
	Pruned              bool `json:"pruned"` // retention dropped its genome for good (one kept as its lineage reads back)
}

// GameSummary is one stored game of a generation, without its moves.
type GameSummary struct {
	Kind     string `json:"kind"` // "tournament", "ladder", "baseline" or "challenge"
	Index    int    `json:"idx"`
	First    string `json:"first"`  // an agent id or a player spec
	Second   string `json:"second"` // likewise
	Result   string `json:"result"` // from the first player's side
	Reason   string `json:"reason"`
	Champion bool   `json:"champion"` // the generation's champion played it
}

// StoredGame is one stored game with its moves, for replay and download.
type StoredGame struct {
	GameSummary
	Game       string `json:"game"`
	Generation int    `json:"generation"`
	Start      string `json:"start"` // a FEN, or "" for the standard start
	Moves      string `json:"moves"` // the game's own move text
}

// ErrNoGame means the game asked for is not stored: never played, or
// dropped by retention.
var ErrNoGame = errors.New("storage: no such game")

// Generations returns the number of played generations of game's run, or
// an error wrapping ErrNoRun.
func (d *DB) Generations(ctx context.Context, game string) (int, error) {
	if _, err := d.LoadRun(ctx, game); err != nil {
		return 0, err
	}
	var n int
	if err := d.db.QueryRowContext(ctx, "SELECT count(*) FROM generations WHERE game = ?", game).Scan(&n); err != nil {
		return 0, fmt.Errorf("generations of %s: %w", game, err)
	}
	return n, nil
}

// Members returns the agents of a played generation of game, by slot.
func (d *DB) Members(ctx context.Context, game string, generation int) ([]Member, error) {
	if err := d.played(ctx, game, generation); err != nil {
		return nil, err
	}
	fail := func(err error) error { return fmt.Errorf("members of %s generation %d: %w", game, generation, err) }
	rows, err := d.db.QueryContext(ctx, `SELECT m.slot, m.agent_id, m.origin, g.born, g.parents, coalesce(g.node, ''),
			coalesce(m.points, 0), coalesce(m.wins, 0), coalesce(m.draws, 0), coalesce(m.losses, 0), coalesce(m.rank, 0),
			g.genome IS NULL AND (l.depth IS NULL OR l.depth < 0)
		FROM `+membersByGeneration("m")+` JOIN genomes g ON g.game = m.game AND g.agent_id = m.agent_id
		LEFT JOIN lineage l ON l.game = m.game AND l.agent_id = m.agent_id
		WHERE m.game = ? AND m.generation = ? ORDER BY m.slot`, game, generation)
	if err != nil {
		return nil, fail(err)
	}
	defer rows.Close()
	var out []Member
	for rows.Next() {
		var m Member
		var parents string
		if err := rows.Scan(&m.Slot, &m.AgentID, &m.Origin, &m.Born, &parents, &m.Node,
			&m.Points, &m.Wins, &m.Draws, &m.Losses, &m.Rank, &m.Pruned); err != nil {
			return nil, fail(err)
		}
		if err := json.Unmarshal([]byte(parents), &m.Parents); err != nil {
			return nil, fail(fmt.Errorf("agent %d's parents %q: %w", m.AgentID, parents, err))
		}
		if m.Parents == nil {
			m.Parents = []int64{}
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fail(err)
	}
	return out, nil
}

// GameList returns the stored games of a played generation of game, by
// kind and index; none when retention dropped them.
func (d *DB) GameList(ctx context.Context, game string, generation int) ([]GameSummary, error) {
	if err := d.played(ctx, game, generation); err != nil {
		return nil, err
	}
	fail := func(err error) error { return fmt.Errorf("games of %s generation %d: %w", game, generation, err) }
	rows, err := d.db.QueryContext(ctx, `SELECT kind, idx, first, second, result, reason, champion
		FROM games WHERE game = ? AND generation = ? ORDER BY kind DESC, idx`, game, generation)
	if err != nil {
		return nil, fail(err)
	}
	defer rows.Close()
	out := []GameSummary{}
	for rows.Next() {
		var g GameSummary
		if err := rows.Scan(&g.Kind, &g.Index, &g.First, &g.Second, &g.Result, &g.Reason, &g.Champion); err != nil {
			return nil, fail(err)
		}
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fail(err)
	}
	return out, nil
}

// StoredGameOf returns one stored game: ErrNoGeneration if the generation
// was not played, ErrNoGame if it holds no such game.
func (d *DB) StoredGameOf(ctx context.Context, game string, generation int, kind string, idx int) (StoredGame, error) {
	g := StoredGame{Game: game, Generation: generation}
	if err := d.played(ctx, game, generation); err != nil {
		return g, err
	}
	err := d.db.QueryRowContext(ctx, `SELECT kind, idx, first, second, result, reason, champion, start, moves
		FROM games WHERE game = ? AND generation = ? AND kind = ? AND idx = ?`, game, generation, kind, idx).
		Scan(&g.Kind, &g.Index, &g.First, &g.Second, &g.Result, &g.Reason, &g.Champion, &g.Start, &g.Moves)
	if errors.Is(err, sql.ErrNoRows) {
		return g, fmt.Errorf("%s generation %d %s game %d: %w", game, generation, kind, idx, ErrNoGame)
	}
	if err != nil {
		return g, fmt.Errorf("%s generation %d %s game %d: %w", game, generation, kind, idx, err)
	}
	return g, nil
}

// played returns ErrNoRun or ErrNoGeneration unless game's run has played
// generation.
func (d *DB) played(ctx context.Context, game string, generation int) error {
	n, err := d.Generations(ctx, game)
	if err != nil {
		return err
	}
	if generation < 0 || generation >= n {
		return fmt.Errorf("%s generation %d: %w (%d played)", game, generation, ErrNoGeneration, n)
	}
	return nil
}

// Progress is how far a run has got, for live updates: the generations
// played and the ratings stored.
type Progress struct {
	Generations int `json:"generations"`
	Ratings     int `json:"ratings"`
}

// Progress returns the progress of every run in the database, by game; a
// run that has played nothing yet has zero counts.
func (d *DB) Progress(ctx context.Context) (map[string]Progress, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT r.game,
			(SELECT count(*) FROM generations g WHERE g.game = r.game),
			(SELECT count(*) FROM ratings t WHERE t.game = r.game)
		FROM runs r`)
	if err != nil {
		return nil, fmt.Errorf("progress: %w", err)
	}
	defer rows.Close()
	out := map[string]Progress{}
	for rows.Next() {
		var game string
		var p Progress
		if err := rows.Scan(&game, &p.Generations, &p.Ratings); err != nil {
			return nil, fmt.Errorf("progress: %w", err)
		}
		out[game] = p
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("progress: %w", err)
	}
	return out, nil
}

// Challenge returns game's title match of generation, or nil when that
// generation played none.
func (d *DB) Challenge(ctx context.Context, game string, generation int) (*ChallengeRecord, error) {
	var c ChallengeRecord
	err := d.db.QueryRowContext(ctx, `SELECT incumbent_id, challenger_id, wins, draws, losses, replaced FROM challenges
		WHERE game = ? AND generation = ?`, game, generation).Scan(&c.IncumbentID, &c.ChallengerID, &c.Wins, &c.Draws, &c.Losses, &c.Replaced)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("title match of %s generation %d: %w", game, generation, err)
	}
	return &c, nil
}

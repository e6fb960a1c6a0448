package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"evolved/lineage"
	"evolved/nnet"
)

// ErrNoRun means the database holds no run of the game asked for.
var ErrNoRun = errors.New("storage: no run of this game")

// Run is a population's identity: its game, seed and the configuration
// that, with the seed, determines every generation.
type Run struct {
	Game      string
	Seed      uint64
	Config    string // JSON: the settings that define the run, which it keeps on resume
	CreatedAt time.Time
	// Steps are the mutation's steps, which rebuilding a genome from its
	// lineage needs (RecordSteps).
	Steps nnet.Steps
}

// Population is a generation's population as the database keeps it:
// what a run needs to play on, in storage's own terms (the daemon converts
// it to and from the GA's state). CreateRun and CommitGeneration write its
// Game, Generation and Agents; LoadPopulation fills every field.
type Population struct {
	Game string
	// Seed is the run's seed: LoadPopulation fills it; the writers take
	// it from Run.
	Seed uint64
	// Generation is the number of the generation the agents form, the next
	// one to play.
	Generation int
	// Agents are the members, in slot order.
	Agents []AgentRow
	// Champions are the champions of the played generations, by
	// generation, as Champions returns them (without nets: ChampionNet
	// reads one).
	Champions []ChampionRow
	// NextID is the ID the next new genome gets: one more than the
	// largest stored.
	NextID int64
	// Nodes is the node budget the curriculum left for the population's
	// games (the last check's next_nodes); 0 before any check, when the
	// run's own budget holds.
	Nodes int64
}

// AgentRow is a member of a stored population with its genome.
type AgentRow struct {
	ID int64
	// Origin is how the agent came into its generation: "random",
	// "elite", "crossover", "mutation" or "distilled". An OriginElite member's genome
	// row is the one written when it was born; every other member brings
	// a new genome row.
	Origin string
	// Parents are the IDs the agent came from (an elite's is itself), and
	// Node the swapped node of a crossover child.
	Parents []int64
	Node    *nnet.Node
	Net     *nnet.Net
	// Recipe is how the GA bred a new genome from Parents (nil for an
	// elite, a random genome and ES or SPSA samples): the writers keep it
	// as the genome's lineage, which rebuilds the genome once retention
	// has dropped its weights. LoadPopulation reads it back.
	Recipe *lineage.Recipe
	// PastPoints and PastGames are the points and games of the
	// generations the agent played before this one (an elite keeps its
	// ID): the writers store them with the member, LoadPopulation reads
	// them back.
	PastPoints, PastGames int
	// Learner is the genome's learning settings, nil for none (a run that
	// does not evolve learners): the writers store them in learners the
	// first time the genome is a member with them, LoadPopulation reads
	// them back.
	Learner *Learner
}

// Learner is a genome's learning settings, a row of learners.
type Learner struct {
	// Rate is the trainer's learning rate.
	Rate float64
	// Results is the share of a position's target its game's result gives.
	Results float64
}

// OriginElite is the origin of a member kept from the generation before,
// whose genome is stored already.
const OriginElite = "elite"

// timeFormat is how times are stored: UTC, sortable, readable in sqlite3.
const timeFormat = "2006-01-02T15:04:05.000Z"

// CreateRun records a new run and its generation-0 population in one
// transaction.
func (d *DB) CreateRun(ctx context.Context, run Run, st Population) error {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("create run %s: %w", run.Game, err)
	}
	defer tx.Rollback()
	steps, err := json.Marshal(run.Steps)
	if err != nil {
		return fmt.Errorf("create run %s: %w", run.Game, err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO runs (game, seed, config, created_at, steps) VALUES (?, ?, ?, ?, ?)",
		run.Game, int64(run.Seed), run.Config, run.CreatedAt.UTC().Format(timeFormat), string(steps)); err != nil {
		return fmt.Errorf("create run %s: %w", run.Game, err)
	}
	if err := insertPopulation(ctx, tx, st); err != nil {
		return fmt.Errorf("create run %s: %w", run.Game, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("create run %s: %w", run.Game, err)
	}
	return nil
}

// LoadRun returns the run of game, or ErrNoRun.
func (d *DB) LoadRun(ctx context.Context, game string) (Run, error) {
	var r Run
	var seed int64
	var created string
	err := d.db.QueryRowContext(ctx, "SELECT game, seed, config, created_at FROM runs WHERE game = ?", game).
		Scan(&r.Game, &seed, &r.Config, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("load run %s: %w", game, ErrNoRun)
	}
	if err != nil {
		return r, fmt.Errorf("load run %s: %w", game, err)
	}
	r.Seed = uint64(seed)
	r.CreatedAt, _ = time.Parse(timeFormat, created)
	return r, nil
}

// insertPopulation writes st's agents as the members of its generation,
// and the genomes that are new, a distillation's step once (see
// insertLineage).
func insertPopulation(ctx context.Context, tx *sql.Tx, st Population) error {
	var shared sharedStep
	for slot, a := range st.Agents {
		if a.Origin != OriginElite {
			blob, err := a.Net.MarshalBinary()
			if err != nil {
				return fmt.Errorf("agent %d: %w", a.ID, err)
			}
			parents, _ := json.Marshal(a.Parents)
			if a.Parents == nil {
				parents = []byte("[]")
			}
			var node any
			if a.Node != nil {
				node = a.Node.String()
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO genomes (game, agent_id, born, origin, parents, node, genome)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, st.Game, a.ID, st.Generation, a.Origin, string(parents), node, blob); err != nil {
				return fmt.Errorf("agent %d: %w", a.ID, err)
			}
			if err := insertLineage(ctx, tx, st.Game, a, &shared); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO members (game, generation, slot, agent_id, origin, past_points, past_games)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, st.Game, st.Generation, slot, a.ID, a.Origin, a.PastPoints, a.PastGames); err != nil {
			return fmt.Errorf("member %d of generation %d: %w", slot, st.Generation, err)
		}
		if l := a.Learner; l != nil {
			// An elite's row is there already; one of a run that has
			// just begun to evolve learners is not.
			if _, err := tx.ExecContext(ctx, `INSERT INTO learners (game, agent_id, rate, results) VALUES (?, ?, ?, ?)
				ON CONFLICT (game, agent_id) DO NOTHING`, st.Game, a.ID, l.Rate, l.Results); err != nil {
				return fmt.Errorf("learner of agent %d: %w", a.ID, err)
			}
		}
	}
	return nil
}

// Generation is a played generation as the database keeps it. The daemon
// fills it from a population.Report, with each game's moves already in the
// game's own notation.
type Generation struct {
	Game       string
	Generation int
	// Points, Wins, Draws, Losses and Rank are per slot of the population
	// that played.
	Points, Wins, Draws, Losses, Rank []int
	ChampionID                        int64
	Games                             []GameRecord
	Ladder                            []LadderRecord
	// LadderPlayed reports whether the generation played the ladder
	// (population.Config.LadderDue); without it ladder_mean and improved
	// are stored NULL.
	LadderPlayed bool
	LadderMean   float64
	Improved     bool
	Baselines    []BaselineRecord
	// Curriculum is the generation's check of the curriculum, or nil.
	Curriculum *CurriculumRecord
	// Challenge is the generation's title match, or nil when it played
	// none.
	Challenge *ChallengeRecord
	Seconds   float64
	CreatedAt time.Time
}

// ChallengeRecord is a title match: the champion of the generation before
// (IncumbentID) against the generation's best-ranked other agent, the
// counts the challenger's.
type ChallengeRecord struct {
	IncumbentID  int64 `json:"incumbent_id"`
	ChallengerID int64 `json:"challenger_id"`
	Wins         int   `json:"wins"`
	Draws        int   `json:"draws"`
	Losses       int   `json:"losses"`
	Replaced     bool  `json:"replaced"`
}

// CurriculumRecord is a check of the curriculum: the champion against the
// champion of OpponentGeneration, and the node budget before and after.
type CurriculumRecord struct {
	OpponentGeneration  int
	Wins, Draws, Losses int
	Elo, HalfWidth      float64
	Nodes, NextNodes    int64
}

// GameRecord is one game of a generation.
type GameRecord struct {
	Kind          string // "tournament", "ladder", "baseline" or "challenge"
	Start         string // the start position (a FEN), "" for the standard one
	First, Second string // agent ids or player specs
	Opening       int
	Result        string // "1-0", "0-1" or "1/2-1/2", from the first player's side
	Reason        string
	Moves         string
	Champion      bool // the generation's champion played it
}

// LadderRecord is the champion's result against one previous champion.
type LadderRecord struct {
	OpponentGeneration  int
	Wins, Draws, Losses int
	Mean                float64
}

// BaselineRecord is the champion's result against a baseline player.
type BaselineRecord struct {
	Opponent              string
	Wins, Draws, Losses   int
	Score, Elo, HalfWidth float64
}

// CommitGeneration writes a played generation and the population of the
// next one (next, the rows of the state Step returned) in a single
// transaction: after a crash the database holds either both or neither.
// In the same transaction it applies keep to what the new generation
// moved out of the retention windows, and records the database's size in
// the generation's db_bytes.
func (d *DB) CommitGeneration(ctx context.Context, g Generation, next Population, keep Retention) error {
	fail := func(err error) error { return fmt.Errorf("commit %s generation %d: %w", g.Game, g.Generation, err) }
	if next.Generation != g.Generation+1 || next.Game != g.Game {
		return fail(fmt.Errorf("next population is %s generation %d", next.Game, next.Generation))
	}
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return fail(err)
	}
	defer tx.Rollback()
	// The summary counts the tournament; ladder and baseline games are
	// measurements of the champion, stored beside it.
	games, draws, total := 0, 0, 0
	for _, gr := range g.Games {
		if gr.Kind != "tournament" {
			continue
		}
		games++
		if gr.Result == "1/2-1/2" {
			draws++
		}
	}
	best := 0
	for slot, p := range g.Points {
		total += p
		if g.Rank[slot] == 1 {
			best = p
		}
		res, err := tx.ExecContext(ctx, `UPDATE members SET points = ?, wins = ?, draws = ?, losses = ?, rank = ?
			WHERE game = ? AND generation = ? AND slot = ?`,
			p, g.Wins[slot], g.Draws[slot], g.Losses[slot], g.Rank[slot], g.Game, g.Generation, slot)
		if err != nil {
			return fail(err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fail(fmt.Errorf("generation %d has no member in slot %d (was its population stored?)", g.Generation, slot))
		}
	}
	mean := 0.0
	if len(g.Points) > 0 {
		mean = float64(total) / float64(len(g.Points))
	}
	var ladderMean, improved any // NULL in a generation without the ladder
	if g.LadderPlayed {
		ladderMean, improved = g.LadderMean, g.Improved
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO generations (game, generation, games, draws, mean_fitness,
		best_fitness, champion_id, ladder_mean, improved, seconds, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.Game, g.Generation, games, draws, mean, best, g.ChampionID, ladderMean, improved, g.Seconds,
		g.CreatedAt.UTC().Format(timeFormat)); err != nil {
		return fail(err)
	}
	idx := map[string]int{}
	for _, gr := range g.Games {
		i := idx[gr.Kind]
		idx[gr.Kind]++
		if _, err := tx.ExecContext(ctx, `INSERT INTO games (game, generation, kind, idx, first, second, opening,
			result, reason, moves, champion, start) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			g.Game, g.Generation, gr.Kind, i, gr.First, gr.Second, gr.Opening, gr.Result, gr.Reason, gr.Moves, gr.Champion, gr.Start); err != nil {
			return fail(err)
		}
	}
	for _, l := range g.Ladder {
		if _, err := tx.ExecContext(ctx, `INSERT INTO ladder (game, generation, opponent_generation, wins, draws,
			losses, mean) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			g.Game, g.Generation, l.OpponentGeneration, l.Wins, l.Draws, l.Losses, l.Mean); err != nil {
			return fail(err)
		}
	}
	for _, b := range g.Baselines {
		if _, err := tx.ExecContext(ctx, `INSERT INTO baselines (game, generation, opponent, wins, draws, losses,
			score, elo, elo_ci) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			g.Game, g.Generation, b.Opponent, b.Wins, b.Draws, b.Losses, b.Score, b.Elo, b.HalfWidth); err != nil {
			return fail(err)
		}
	}
	if c := g.Curriculum; c != nil {
		if _, err := tx.ExecContext(ctx, `INSERT INTO curriculum (game, generation, opponent_generation, wins, draws,
			losses, elo, elo_ci, nodes, next_nodes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			g.Game, g.Generation, c.OpponentGeneration, c.Wins, c.Draws, c.Losses, c.Elo, c.HalfWidth, c.Nodes, c.NextNodes); err != nil {
			return fail(err)
		}
	}
	if c := g.Challenge; c != nil {
		if _, err := tx.ExecContext(ctx, `INSERT INTO challenges (game, generation, incumbent_id, challenger_id, wins, draws,
			losses, replaced) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			g.Game, g.Generation, c.IncumbentID, c.ChallengerID, c.Wins, c.Draws, c.Losses, c.Replaced); err != nil {
			return fail(err)
		}
	}
	if err := insertPopulation(ctx, tx, next); err != nil {
		return fail(err)
	}
	if _, err := prune(ctx, tx, g.Game, g.Generation, keep, true); err != nil {
		return fail(err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE generations SET db_bytes =
		(SELECT p.page_count * s.page_size FROM pragma_page_count() p, pragma_page_size() s)
		WHERE game = ? AND generation = ?`, g.Game, g.Generation); err != nil {
		return fail(err)
	}
	if err := tx.Commit(); err != nil {
		return fail(err)
	}
	return nil
}

// LoadPopulation reads the population of game's run from the last
// committed generation: the population waiting to play with each member's
// past, every champion before it (without its net: ChampionNet reads one),
// and the next agent ID.
func (d *DB) LoadPopulation(ctx context.Context, game string) (Population, error) {
	run, err := d.LoadRun(ctx, game)
	if err != nil {
		return Population{}, err
	}
	fail := func(err error) (Population, error) {
		return Population{}, fmt.Errorf("load %s population: %w", game, err)
	}
	st := Population{Game: game, Seed: run.Seed}
	if err := d.db.QueryRowContext(ctx, "SELECT coalesce(max(generation), -1) FROM members WHERE game = ?", game).
		Scan(&st.Generation); err != nil {
		return fail(err)
	}
	if st.Generation < 0 {
		return fail(errors.New("the run has no population"))
	}
	if err := d.db.QueryRowContext(ctx, "SELECT max(agent_id) + 1 FROM genomes WHERE game = ?", game).
		Scan(&st.NextID); err != nil {
		return fail(err)
	}
	if st.Agents, err = d.loadAgents(ctx, game, st.Generation); err != nil {
		return fail(err)
	}
	if st.Nodes, err = d.CurriculumNodes(ctx, game, st.Generation); err != nil {
		return fail(err)
	}
	// The champions without their nets: Step reads the few it plays
	// against through ChampionNet.
	if st.Champions, err = d.Champions(ctx, game); err != nil {
		return fail(err)
	}
	for i, c := range st.Champions {
		if c.Generation != i {
			return fail(fmt.Errorf("champion of generation %d missing", i))
		}
	}
	if len(st.Champions) != st.Generation {
		return fail(fmt.Errorf("%d champions for %d played generations", len(st.Champions), st.Generation))
	}
	return st, nil
}

// CurriculumNodes returns the node budget the curriculum set for game's
// generation: the next_nodes of the last check before it, or 0 when none
// was made (the run's own budget).
func (d *DB) CurriculumNodes(ctx context.Context, game string, generation int) (int64, error) {
	var nodes int64
	err := d.db.QueryRowContext(ctx, `SELECT coalesce((SELECT next_nodes FROM curriculum
		WHERE game = ? AND generation < ? ORDER BY generation DESC LIMIT 1), 0)`, game, generation).Scan(&nodes)
	if err != nil {
		return 0, fmt.Errorf("curriculum of %s generation %d: %w", game, generation, err)
	}
	return nodes, nil
}

// CurriculumSummary is where a run's curriculum stands: its checks so
// far, how many raised the node budget, the last that did, and the budget
// of its first check and of the generations from now on.
type CurriculumSummary struct {
	Checks int `json:"checks"`
	Raises int `json:"raises"`
	// LastRaise is the generation of the last check that raised the
	// budget, or -1.
	LastRaise  int   `json:"last_raise"`
	FirstNodes int64 `json:"first_nodes"`
	Nodes      int64 `json:"nodes"`
}

// Curriculum returns the summary of game's curriculum checks, and false
// when the run has made none.
func (d *DB) Curriculum(ctx context.Context, game string) (CurriculumSummary, bool, error) {
	var c CurriculumSummary
	err := d.db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(next_nodes > nodes), 0),
		coalesce(max(CASE WHEN next_nodes > nodes THEN generation END), -1),
		coalesce((SELECT nodes FROM curriculum WHERE game = ?1 ORDER BY generation LIMIT 1), 0),
		coalesce((SELECT next_nodes FROM curriculum WHERE game = ?1 ORDER BY generation DESC LIMIT 1), 0)
		FROM curriculum WHERE game = ?1`, game).Scan(&c.Checks, &c.Raises, &c.LastRaise, &c.FirstNodes, &c.Nodes)
	if err != nil {
		return CurriculumSummary{}, false, fmt.Errorf("curriculum of %s: %w", game, err)
	}
	return c, c.Checks > 0, nil
}

// DistillSummary is where a run's distillation stands
// (population.Config.DistillEvery): how many champions were distilled,
// and the generation whose champion was the last.
type DistillSummary struct {
	Champions int `json:"champions"`
	Last      int `json:"last"`
}

// Distillations returns the summary of game's distillations, and false
// when the run has made none. A distillation's genomes (the elite moved
// by its step) are born into the generation after its champion's.
func (d *DB) Distillations(ctx context.Context, game string) (DistillSummary, bool, error) {
	var s DistillSummary
	err := d.db.QueryRowContext(ctx, `SELECT count(DISTINCT born), coalesce(max(born), 0) - 1 FROM genomes
		WHERE game = ? AND origin = 'distilled'`, game).Scan(&s.Champions, &s.Last)
	if err != nil {
		return DistillSummary{}, false, fmt.Errorf("distillations of %s: %w", game, err)
	}
	return s, s.Champions > 0, nil
}

// loadAgents reads the members of generation of game's run with their
// genomes and their past.
func (d *DB) loadAgents(ctx context.Context, game string, generation int) ([]AgentRow, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT m.slot, m.agent_id, m.origin, m.past_points, m.past_games, g.parents, g.node, l.op, l.op_index, `+holderColumn+`, g.genome,
		r.rate, r.results
		FROM `+membersByGeneration("m")+` JOIN genomes g ON g.game = m.game AND g.agent_id = m.agent_id
		LEFT JOIN lineage l ON l.game = m.game AND l.agent_id = m.agent_id
		LEFT JOIN learners r ON r.game = m.game AND r.agent_id = m.agent_id
		WHERE m.game = ? AND m.generation = ? ORDER BY m.slot`, game, generation)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var agents []AgentRow
	holders := map[int]int64{} // the distilled members' slots: the agent whose step_parts hold their step
	summed := true             // every member carries its past (written since migration 10)
	for rows.Next() {
		var slot int
		var a AgentRow
		var parents string
		var node, op sql.NullString
		var index, pastPoints, pastGames, holder sql.NullInt64
		var blob []byte
		var rate, results sql.NullFloat64
		if err := rows.Scan(&slot, &a.ID, &a.Origin, &pastPoints, &pastGames, &parents, &node, &op, &index, &holder, &blob, &rate, &results); err != nil {
			return nil, err
		}
		if rate.Valid {
			a.Learner = &Learner{Rate: rate.Float64, Results: results.Float64}
		}
		if pastPoints.Valid && pastGames.Valid {
			a.PastPoints, a.PastGames = int(pastPoints.Int64), int(pastGames.Int64)
		} else {
			summed = false
		}
		if slot != len(agents) {
			return nil, fmt.Errorf("generation %d: slot %d missing", generation, len(agents))
		}
		if a.Origin == OriginElite {
			a.Parents = []int64{a.ID}
		} else {
			if err := json.Unmarshal([]byte(parents), &a.Parents); err != nil {
				return nil, fmt.Errorf("agent %d parents: %w", a.ID, err)
			}
			if len(a.Parents) == 0 {
				a.Parents = nil
			}
			if op.Valid {
				a.Recipe = &lineage.Recipe{Op: lineage.Op(op.String), Index: int(index.Int64)}
				if holder.Valid {
					holders[slot] = holder.Int64
				}
			}
			if node.Valid {
				n, err := parseNode(node.String)
				if err != nil {
					return nil, fmt.Errorf("agent %d: %w", a.ID, err)
				}
				a.Node = &n
			}
		}
		if a.Net, err = decodeNet(blob); err != nil {
			return nil, fmt.Errorf("agent %d: %w", a.ID, err)
		}
		agents = append(agents, a)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	for slot, holder := range holders {
		step, err := readStep(ctx, d.db, game, holder)
		if err != nil {
			return nil, fmt.Errorf("agent %d recipe: %w", agents[slot].ID, err)
		}
		if agents[slot].Recipe.Step, err = lineage.DecodeStep(step); err != nil {
			return nil, fmt.Errorf("agent %d recipe: %w", agents[slot].ID, err)
		}
	}
	if summed {
		return agents, nil
	}
	// A population written before migration 10: each agent's past is
	// the sum of the generations it played before this one (an elite
	// keeps its id), for the GA's fitness memory.
	past, err := d.db.QueryContext(ctx, `SELECT agent_id, sum(points), sum(wins + draws + losses) FROM members
		WHERE game = ? AND generation < ? AND points IS NOT NULL
		AND agent_id IN (SELECT agent_id FROM `+membersByGeneration("members")+` WHERE game = ? AND generation = ?)
		GROUP BY agent_id`, game, generation, game, generation)
	if err != nil {
		return nil, err
	}
	defer past.Close()
	for past.Next() {
		var id int64
		var points, games int
		if err := past.Scan(&id, &points, &games); err != nil {
			return nil, err
		}
		for i := range agents {
			if agents[i].ID == id {
				agents[i].PastPoints, agents[i].PastGames = points, games
			}
		}
	}
	if err := past.Err(); err != nil {
		return nil, err
	}
	return agents, nil
}

// ChampionNet returns a reader of the nets of game's champions by
// generation, for the GA's state to read the champions it plays against
// (Population.Champions comes without nets).
func (d *DB) ChampionNet(game string) func(ctx context.Context, generation int) (*nnet.Net, error) {
	return func(ctx context.Context, generation int) (*nnet.Net, error) {
		c, err := d.Champion(ctx, game, generation)
		return c.Net, err
	}
}

// ErrPruned means a genome asked for was dropped by retention (Retention):
// only champions and the recent generations' members keep theirs.
var ErrPruned = errors.New("storage: genome dropped by retention")

// decodeNet reads a genome blob; a NULL blob (nil) is ErrPruned.
func decodeNet(blob []byte) (*nnet.Net, error) {
	if blob == nil {
		return nil, ErrPruned
	}
	var n nnet.Net
	if err := n.UnmarshalBinary(blob); err != nil {
		return nil, err
	}
	return &n, nil
}

// parseNode reads a node as nnet.Node.String writes it: "layer L node I".
func parseNode(s string) (nnet.Node, error) {
	var n nnet.Node
	if _, err := fmt.Sscanf(s, "layer %d node %d", &n.Layer, &n.Index); err != nil {
		return n, fmt.Errorf("node %q: %w", s, err)
	}
	if got := n.String(); got != s {
		return n, fmt.Errorf("node %q: does not read back (%q)", s, got)
	}
	return n, nil
}

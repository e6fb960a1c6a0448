package daemon

import (
	"context"
	"fmt"

	"evolved/cluster"
	"evolved/game/chess"
	"evolved/game/draughts"
	"evolved/game/xiangqi"
	"evolved/games"
	"evolved/population"
	"evolved/search"
	"evolved/seed"
	"evolved/storage"
	"evolved/tournament"
)

// section is what the daemon reads of a game's section of the
// configuration: the keys every game has, how its games are played, and
// the genetic algorithm's configuration.
type section interface {
	common() PopulationConfig
	setup() games.Setup
	population(workers int) population.Config
}

// common returns the keys every game's section has.
func (p PopulationConfig) common() PopulationConfig { return p }

// setup returns how the population's games are played: the keys every
// game has.
func (p PopulationConfig) setup() games.Setup {
	return games.Setup{Depth: p.Depth, Nodes: p.Nodes, OpeningPlies: p.OpeningPlies, MaxMoves: p.MaxMoves, Search: p.Search}
}

// setup returns how the chess population's games are played.
func (c ChessConfig) setup() games.Setup {
	s := c.PopulationConfig.setup()
	s.AdjudicateMaterial, s.Chess960 = c.AdjudicateMaterial, c.Chess960
	return s
}

// setup returns how the xiangqi population's games are played.
func (x XiangqiConfig) setup() games.Setup {
	s := x.PopulationConfig.setup()
	s.AdjudicateMaterial = x.AdjudicateMaterial
	return s
}

// gameRun is a game the daemon evolves, its move and state types hidden:
// newGameRun, the one place that turns a game's name into its Kind, picks
// them.
type gameRun interface {
	// evolve runs the game's population until the target or ctx's end.
	evolve(ctx context.Context, d *Daemon) error
	// baselines plays champion c against the configured baselines and
	// describes each result.
	baselines(ctx context.Context, d *Daemon, c storage.ChampionGenome) ([]string, error)
}

// kindRun is the gameRun of the game kind, whose configuration is the
// section of Config that section returns.
type kindRun[M cluster.MoveCode, S search.Game[M], C section] struct {
	kind    games.Kind[M, S]
	section func(Config) C
}

// newGameRun returns the game called name.
func newGameRun(name string) (gameRun, error) {
	var run gameRun
	err := games.Visit(name, games.Funcs{
		Draughts: func(k games.DraughtsKind) error {
			run = kindRun[draughts.Move, *draughts.Game, DraughtsConfig]{k, func(c Config) DraughtsConfig { return c.Draughts }}
			return nil
		},
		Chess: func(k games.ChessKind) error {
			run = kindRun[chess.Move, *chess.Game, ChessConfig]{k, func(c Config) ChessConfig { return c.Chess }}
			return nil
		},
		Xiangqi: func(k games.XiangqiKind) error {
			run = kindRun[xiangqi.Move, *xiangqi.Game, XiangqiConfig]{k, func(c Config) XiangqiConfig { return c.Xiangqi }}
			return nil
		},
	})
	if err != nil {
		return nil, fmt.Errorf("daemon: %w", err)
	}
	return run, nil
}

// evolve runs the population with the settings its run was started with
// (runSettings), its tournaments and its distillation's searches on the
// cluster's workers when there are.
func (r kindRun[M, S, C]) evolve(ctx context.Context, d *Daemon) error {
	sec, err := runSettings(ctx, d, r.kind.Name, r.section(d.config()))
	if err != nil {
		return err
	}
	return evolve(ctx, d, r.kind, sec.setup(), sec, sec.population(0))
}

// jobBaselineIndex offsets the seeds of the baseline job's matches from
// those of the generation's own baseline matches.
const jobBaselineIndex = 1000

// baselines plays champion c against each of the configured baselines,
// under the current configuration, as the baseline job does.
func (r kindRun[M, S, C]) baselines(ctx context.Context, d *Daemon, c storage.ChampionGenome) ([]string, error) {
	sec := r.section(d.config())
	bound := r.kind.Bind(sec.setup())
	champ, err := bound.Player(c.Net)
	if err != nil {
		return nil, err
	}
	pc := sec.common()
	var parts []string
	for i, spec := range pc.Baselines {
		opp, err := bound.Baseline(spec)
		if err != nil {
			return nil, err
		}
		res, err := tournament.Match(ctx, bound.Arena, champ, opp, tournament.MatchOptions{
			Games: pc.BaselineGames, Slots: d.slots, Concurrency: d.workers(),
			Seed: seed.Derive(c.Seed, r.kind.Name, c.Generation, seed.Baseline, jobBaselineIndex+i),
		})
		if err != nil {
			return nil, err
		}
		parts = append(parts, fmt.Sprintf("%s champion %d vs %s: +%d =%d -%d", r.kind.Name, c.Generation, spec, res.Wins, res.Draws, res.Losses))
	}
	return parts, nil
}

package daemon

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"

	"evolved/cluster"
	"evolved/distill"
	"evolved/games"
	"evolved/nnet"
	"evolved/population"
	"evolved/positions"
	"evolved/search"
	"evolved/tournament"
)

// env is the population.Env of one of the daemon's populations: the game
// under the run's setup, its champions' nets read from the database, its
// fitness games, data games and distillation's searches on the cluster's
// workers when the daemon has them (else here), and every game and search
// counted for the live line, the watchdog and the metrics.
type env[M cluster.MoveCode, S search.Game[M]] struct {
	population.Local[M, S]
	d     *Daemon
	live  *liveGames         // the game's place on the live line
	nodes prometheus.Counter // the nodes its players search
}

// newEnv returns the Env of game kind under setup in d.
func newEnv[M cluster.MoveCode, S search.Game[M]](d *Daemon, kind games.Kind[M, S], setup games.Setup, live *liveGames) env[M, S] {
	return env[M, S]{
		Local: population.Local[M, S]{Kind: kind, Setup: setup, ChampionNet: d.db.ChampionNet(kind.Name)},
		d:     d, live: live, nodes: d.metrics.Nodes.WithLabelValues(kind.Name),
	}
}

// Game binds the game with every game it starts counted (the watchdog's
// beat, the live line) and every node its players search counted.
func (e env[M, S]) Game(nodes int64) games.Binding[M, S] {
	b := e.Local.Game(nodes)
	b.Player = countNodes(b.Player, e.nodes)
	b.Arena = countStarts(b.Arena, func() {
		e.d.beat()
		e.live.started()
	})
	return b
}

// remote reports whether the fitness games, the data games and the
// distillation's searches go to the cluster's workers.
func (e env[M, S]) remote() bool { return e.d.coord != nil }

// Play plays the games on the workers, checked (and some replayed) with
// the game bound as they bind it, or here.
func (e env[M, S]) Play(ctx context.Context, g games.Binding[M, S], nets []*nnet.Net, schedule []tournament.Pairing, first int, cfg tournament.Config,
	runSeed uint64, generation int, progress func(done, total int)) ([]tournament.GameResult[M], error) {
	if !e.remote() {
		return population.PlayHere(ctx, g, nets, schedule, first, cfg, runSeed, generation, progress)
	}
	bare := g.Kind.Bind(g.Setup) // the coordinator's own copy: its checks and replays are not the population's games
	return cluster.Play(ctx, e.d.coord, cluster.Generation[M, S]{Game: g.Kind.Name, Setup: g.Setup, Arena: bare.Arena, Player: bare.Player,
		Replay: e.d.config().Cluster.Replay, Nets: nets, Schedule: schedule, First: first, RunSeed: runSeed, Generation: generation,
		Progress: progress, Alive: e.d.beat})
}

// PlayData plays the data games on the workers, checked (and some
// replayed) with the game bound as they bind it, or here.
func (e env[M, S]) PlayData(ctx context.Context, g games.Binding[M, S], net *nnet.Net, d games.DataGames) ([]positions.Record, error) {
	if !e.remote() {
		return e.Local.PlayData(ctx, g, net, d)
	}
	bare := g.Kind.Bind(g.Setup) // the coordinator's own copy, as Play's
	return cluster.PlayData(ctx, e.d.coord, cluster.Data[M, S]{Binding: bare, Net: net, Games: d, Replay: e.d.config().Cluster.Replay,
		Alive: e.d.beat})
}

// Distill fits net with its searches on the workers, or here.
func (e env[M, S]) Distill(ctx context.Context, g games.Binding[M, S], net *nnet.Net, records []tournament.Record[M], nodes int64,
	runSeed uint64, generation int, opts distill.Options) (*nnet.Net, distill.Report, error) {
	// A distillation at a large distill_nodes searches for minutes
	// between games: it feeds the watchdog and shows on the line.
	progress := opts.Progress
	opts.Progress = func(done, total int) {
		e.d.beat()
		e.live.distilling(done, total)
		if progress != nil {
			progress(done, total)
		}
	}
	if e.remote() {
		opts.Search = func(ctx context.Context, fens []string, progress func(done, total int)) ([]float64, error) {
			return cluster.Search(ctx, e.d.coord, cluster.Searches{Game: g.Kind.Name, Positions: fens, Net: net, Nodes: nodes, Scorer: g.Kind.Scorer,
				RunSeed: runSeed, Generation: generation, Progress: progress, Alive: e.d.beat})
		}
	}
	return e.Local.Distill(ctx, g, net, records, nodes, runSeed, generation, opts)
}

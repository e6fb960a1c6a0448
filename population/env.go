package population

import (
	"context"
	"fmt"

	"evolved/distill"
	"evolved/games"
	"evolved/nnet"
	"evolved/positions"
	"evolved/search"
	"evolved/tournament"
)

// Env is the world a generation reaches through: the game it plays, where
// its games are played and its positions searched, and the champions of
// generations before it. Step asks nothing of anything else, so one
// generation reads top to bottom in this package; what it found it
// returns as its Report, and the caller stores it.
//
// Local plays everything on this machine; the daemon's Env plays the
// fitness games and the distillation's searches on the cluster's workers
// when it has them. An Env must give the same games and values wherever
// they are played: the run is a function of its seed.
type Env[M comparable, S search.Game[M]] interface {
	// Game returns the game bound under the run's setup, its agents
	// searching under nodes nodes a move; 0 is the setup's own budget.
	Game(nodes int64) games.Binding[M, S]
	// Play plays the fitness games of schedule (the tournament's, the hall
	// of fame's, the race's, the title match's) between the slots whose
	// nets are nets, under g's rules and with g's players, and returns
	// them in schedule order. Game k of schedule is game first+k of the
	// generation (tournament.GameID.Index). cfg carries the tournament's
	// workers and slots. progress, if not nil, is called after each game
	// with the games done and len(schedule).
	Play(ctx context.Context, g games.Binding[M, S], nets []*nnet.Net, schedule []tournament.Pairing, first int, cfg tournament.Config,
		runSeed uint64, generation int, progress func(done, total int)) ([]tournament.GameResult[M], error)
	// Distill returns net with its linear weights fitted to what searches
	// of nodes nodes with it say of the positions of records (package
	// distill, under opts). runSeed and generation name the generation,
	// so that its searches are known again after a restart. It must be
	// deterministic: the same net and records give the same genome
	// wherever the searches run.
	Distill(ctx context.Context, g games.Binding[M, S], net *nnet.Net, records []tournament.Record[M], nodes int64,
		runSeed uint64, generation int, opts distill.Options) (*nnet.Net, distill.Report, error)
	// PlayData plays the data games d of net with g's players, here or
	// elsewhere, and returns their positions in game order
	// (games.Binding.PlayData). The records must be the same wherever
	// the games are played.
	PlayData(ctx context.Context, g games.Binding[M, S], net *nnet.Net, d games.DataGames) ([]positions.Record, error)
	// Train trains net's perspective net on the newest newest positions
	// of the run's position store as committed after the generation
	// before (games.Kind.Train under opts), or returns a nil net when the
	// store holds none yet. It must be deterministic: the same store and
	// net give the same genome.
	Train(ctx context.Context, g games.Binding[M, S], net *nnet.Net, newest int, opts distill.TrainOptions) (*nnet.Net, distill.TrainReport, error)
	// Champions returns the reader of earlier champions' nets from where
	// the run is kept (storage.DB.ChampionNet), or nil. With a reader Step
	// keeps in State.Champions only the nets the next generation plays
	// against (Config.ChampionNets) and reads the others when it needs
	// them, so that a run of weeks, with hundreds of thousands of
	// champions, does not hold them all in memory; without one every net
	// stays in the state.
	Champions() func(ctx context.Context, generation int) (*nnet.Net, error)
}

// Observer hears how a generation goes while Step plays it; its methods
// are called from one goroutine at a time. A nil Observer hears nothing.
type Observer interface {
	// Played is called after each fitness game with the generation's
	// fitness games done and their total (the tournament's, the hall of
	// fame's, the whole racing budget and the title match's: the race
	// usually ends before its budget does).
	Played(done, total int)
	// Searched is called as the distillation's searches are done, with
	// the positions searched and their total: at a large distill_nodes
	// they take minutes between games.
	Searched(done, total int)
}

// Local is the Env of a run played on this machine: Kind under Setup, the
// games by tournament.RunFrom, the distillation by Kind.Distill with the
// tournament's workers. ChampionNet, if set, reads the net of an earlier
// champion (storage.DB.ChampionNet); without it Step keeps every
// champion's net in the state.
type Local[M comparable, S search.Game[M]] struct {
	Kind        games.Kind[M, S]
	Setup       games.Setup
	ChampionNet func(ctx context.Context, generation int) (*nnet.Net, error)
	// Positions is the run's position store, which Train reads; nil
	// without one (Config.LearnEvery is 0), and Train refuses.
	Positions *positions.Store
}

// LocalEnv returns the Local Env of kind under setup, which keeps every
// champion's net in the state.
func LocalEnv[M comparable, S search.Game[M]](kind games.Kind[M, S], setup games.Setup) Local[M, S] {
	return Local[M, S]{Kind: kind, Setup: setup}
}

// Game binds Kind under Setup, at nodes nodes a move when nodes is
// positive.
func (l Local[M, S]) Game(nodes int64) games.Binding[M, S] {
	setup := l.Setup
	if nodes > 0 {
		setup.Nodes = nodes
	}
	return l.Kind.Bind(setup)
}

// Play plays schedule here, with cfg's workers.
func (l Local[M, S]) Play(ctx context.Context, g games.Binding[M, S], nets []*nnet.Net, schedule []tournament.Pairing, first int, cfg tournament.Config,
	runSeed uint64, generation int, progress func(done, total int)) ([]tournament.GameResult[M], error) {
	return PlayHere(ctx, g, nets, schedule, first, cfg, runSeed, generation, progress)
}

// PlayHere plays schedule on this machine with g's players for nets and
// cfg's workers: Local's Play, which another Env uses when it has no
// workers.
func PlayHere[M comparable, S search.Game[M]](ctx context.Context, g games.Binding[M, S], nets []*nnet.Net, schedule []tournament.Pairing, first int,
	cfg tournament.Config, runSeed uint64, generation int, progress func(done, total int)) ([]tournament.GameResult[M], error) {
	players := make([]func() search.Player[M, S], len(nets))
	for i, net := range nets {
		p, err := g.Player(net)
		if err != nil {
			return nil, fmt.Errorf("slot %d: %w", i, err)
		}
		players[i] = p
	}
	res, err := tournament.RunFrom(ctx, g.Arena, players, schedule, first, cfg, runSeed, generation, progress)
	return res.Games, err
}

// Distill fits net here, with opts' workers.
func (l Local[M, S]) Distill(ctx context.Context, g games.Binding[M, S], net *nnet.Net, records []tournament.Record[M], nodes int64,
	_ uint64, _ int, opts distill.Options) (*nnet.Net, distill.Report, error) {
	return g.Kind.Distill(ctx, net, records, nodes, opts)
}

// PlayData plays d's games here, with d's workers.
func (l Local[M, S]) PlayData(ctx context.Context, g games.Binding[M, S], net *nnet.Net, d games.DataGames) ([]positions.Record, error) {
	var out []positions.Record
	err := g.PlayData(ctx, net, d, func(_ int, recs []positions.Record) error {
		out = append(out, recs...)
		return nil
	})
	return out, err
}

// Train reads the newest positions of Positions and trains net on them
// here.
func (l Local[M, S]) Train(ctx context.Context, g games.Binding[M, S], net *nnet.Net, newest int, opts distill.TrainOptions) (*nnet.Net, distill.TrainReport, error) {
	if l.Positions == nil {
		return nil, distill.TrainReport{}, fmt.Errorf("train: %s: no position store", g.Kind.Name)
	}
	if g.Kind.Train == nil {
		return nil, distill.TrainReport{}, fmt.Errorf("train: %s nets are not trained", g.Kind.Name)
	}
	records, err := Newest(ctx, l.Positions, newest)
	if err != nil || len(records) == 0 {
		return nil, distill.TrainReport{}, err
	}
	return g.Kind.Train(ctx, net, records, opts)
}

// Newest returns the newest n committed records of store, oldest first.
func Newest(ctx context.Context, store *positions.Store, n int) ([]positions.Record, error) {
	skip := max(0, store.CommittedRecords()-int64(n))
	out := make([]positions.Record, 0, min(int64(n), store.CommittedRecords()))
	err := store.Scan(ctx, func(i int64, r *positions.Record) error {
		if i >= skip {
			out = append(out, *r)
		}
		return nil
	})
	return out, err
}

// Champions returns ChampionNet.
func (l Local[M, S]) Champions() func(ctx context.Context, generation int) (*nnet.Net, error) {
	return l.ChampionNet
}

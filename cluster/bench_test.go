package cluster

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"

	"evolved/game/draughts"
	"evolved/games"
	"evolved/nnet"
	"evolved/search"
	"evolved/tournament"
)

// BenchmarkGeneration plays one draughts generation of the default
// experiment's shape (15 Blondie24 nets at depth 4, a round robin of 210
// games) per iteration: "local" with tournament.Run on two goroutines, as
// the daemon does on this machine, and "workers=N" through an embedded
// NATS server and N in-process workers of one game at a time, so that
// games/s compares the queue's cost with the same cores. Run it on an
// otherwise idle machine: go test ./cluster -run X -bench Generation.
func BenchmarkGeneration(b *testing.B) {
	setup := games.Setup{Depth: 4}
	sp := games.Draughts().Species(setup)
	rng := rand.New(rand.NewPCG(19, 4))
	nets := make([]*nnet.Net, 15)
	players := make([]func() search.Player[draughts.Move, *draughts.Game], len(nets))
	for i := range nets {
		n, err := nnet.Random([]int{nnet.NumDraughtsInputs, 40, 10, 1}, nnet.PieceDiff, rng)
		if err != nil {
			b.Fatal(err)
		}
		nets[i] = n
		if players[i], err = sp.Player(n); err != nil {
			b.Fatal(err)
		}
	}
	schedule, err := tournament.Schedule(tournament.Config{Format: tournament.RoundRobin}, len(nets), nil)
	if err != nil {
		b.Fatal(err)
	}
	games := func(b *testing.B, n int) {
		b.ReportMetric(float64(n*len(schedule))/b.Elapsed().Seconds(), "games/s")
	}
	b.Run("local", func(b *testing.B) {
		gen := 0
		for b.Loop() {
			if _, err := tournament.Run(context.Background(), sp.Arena, players, schedule, tournament.Config{Workers: 2}, 1, gen, nil); err != nil {
				b.Fatal(err)
			}
			gen++
		}
		games(b, gen)
	})
	for _, workers := range []int{1, 2, 4} {
		b.Run("workers="+strconv.Itoa(workers), func(b *testing.B) {
			s, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: b.TempDir()})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			nc, err := Connect(context.Background(), ConnectOptions{URL: s.URL()})
			if err != nil {
				b.Fatal(err)
			}
			defer nc.Close()
			log := slog.New(slog.DiscardHandler)
			c, err := NewCoordinator(context.Background(), nc, Limits{}, log)
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			for i := range workers {
				w := &Worker{Name: strconv.Itoa(i), Concurrency: 1, Log: log}
				wg.Go(func() { w.Run(ctx, nc) })
			}
			defer func() { cancel(); wg.Wait() }()
			gen := 0
			for b.Loop() {
				g := Generation[draughts.Move, *draughts.Game]{Game: "draughts", Setup: setup, Arena: sp.Arena,
					Nets: nets, Schedule: schedule, RunSeed: 1, Generation: gen}
				if _, err := Play(context.Background(), c, g); err != nil {
					b.Fatal(err)
				}
				gen++
			}
			games(b, gen)
		})
	}
}

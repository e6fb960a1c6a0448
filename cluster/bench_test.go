package cluster

import (
	"context"
	"encoding/json"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"

	"evolved/cputime"
	"evolved/distill"
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
// games/cpu-s counts the games a second of this process's CPU (the
// coordinator's, the embedded server's and the workers' alike): what the
// queue costs in CPU, which the other work of a shared machine leaves
// alone where it slows games/s.
func BenchmarkGeneration(b *testing.B) {
	setup := games.Setup{Depth: 4}
	sp := games.Draughts().Bind(setup)
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
	games := func(b *testing.B, n int, cpu0 float64) {
		b.ReportMetric(float64(n*len(schedule))/b.Elapsed().Seconds(), "games/s")
		if cpu := cputime.Seconds() - cpu0; cpu > 0 {
			b.ReportMetric(float64(n*len(schedule))/cpu, "games/cpu-s")
		}
	}
	b.Run("local", func(b *testing.B) {
		gen, cpu0 := 0, cputime.Seconds()
		for b.Loop() {
			if _, err := tournament.Run(context.Background(), sp.Arena, players, schedule, tournament.Config{Workers: 2}, 1, gen, nil); err != nil {
				b.Fatal(err)
			}
			gen++
		}
		games(b, gen, cpu0)
	})
	for _, workers := range []int{1, 2, 4} {
		b.Run("workers="+strconv.Itoa(workers), func(b *testing.B) {
			_, nc := testServer(b)
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
			gen, cpu0 := 0, cputime.Seconds()
			for b.Loop() {
				g := Generation[draughts.Move, *draughts.Game]{Game: "draughts", Setup: setup, Arena: sp.Arena,
					Nets: nets, Schedule: schedule, RunSeed: 1, Generation: gen}
				if _, err := Play(context.Background(), c, g); err != nil {
					b.Fatal(err)
				}
				gen++
			}
			games(b, gen, cpu0)
		})
	}
}

// BenchmarkDistillation runs one chess distillation of the default run's
// shape (the default net, 32 and 8 hidden nodes with every linear weight,
// 1,500-node searches) per iteration over the quiet positions of a round
// robin of 15 such nets (210 games, played by depth-1 agents for speed,
// which gives about as many positions as a default generation):
// "local" with its searches on one goroutine here (workers = 1), and
// "worker" with them on one worker of one search at a time through an
// embedded NATS server, so that positions/s compares the queue's cost on
// the same core. The worker runs in this process, or with
// EVOLVED_BENCH_WORKER set to an evolved binary, as a process of its own
// (evolved worker --workers 1). Run it on an otherwise idle machine:
// go test ./cluster -run X -bench Distillation -benchtime 1x.
func BenchmarkDistillation(b *testing.B) {
	k := games.Chess()
	rng := rand.New(rand.NewPCG(23, 8))
	flags := nnet.EvolvePieceValues | nnet.EvolvePST | nnet.EvolveTerms | nnet.EvolveMoreTerms
	nets := make([]*nnet.Net, 15)
	for i := range nets {
		n, err := nnet.RandomChess([]int{32, 8}, flags, rng)
		if err != nil {
			b.Fatal(err)
		}
		nets[i] = n
	}
	records := playedRecords(b, k, games.Setup{Depth: 1, MaxMoves: 100}, nets, 1, 0)
	const nodes = 1500
	// distillAll runs the distillations and returns the positions searched
	// and the CPU seconds this process took meanwhile.
	distillAll := func(b *testing.B, opts distill.Options) (positions int, cpu float64) {
		cpu0 := cputime.Seconds()
		for b.Loop() {
			_, rep, err := k.Distill(context.Background(), nets[0], records, nodes, opts)
			if err != nil {
				b.Fatal(err)
			}
			positions += rep.Positions
		}
		return positions, cputime.Seconds() - cpu0
	}
	// report reports positions a second, and a CPU second of all the
	// processes that took part (the daemon's, the server's, the worker's).
	report := func(b *testing.B, positions int, cpu float64) {
		b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "positions/s")
		if cpu > 0 {
			b.ReportMetric(float64(positions)/cpu, "positions/cpu-s")
		}
	}
	b.Run("local", func(b *testing.B) {
		positions, cpu := distillAll(b, distill.Options{Workers: 1})
		report(b, positions, cpu)
	})
	b.Run("worker", func(b *testing.B) {
		s, nc := testServer(b)
		log := slog.New(slog.DiscardHandler)
		c, err := NewCoordinator(context.Background(), nc, Limits{}, log)
		if err != nil {
			b.Fatal(err)
		}
		var stop func() float64 // stops the worker, returning the CPU seconds it took in a process of its own
		if bin := os.Getenv("EVOLVED_BENCH_WORKER"); bin != "" {
			cmd := exec.Command(bin, "worker", "--nats", s.URL(), "--workers", "1", "--log-format", "json")
			if err := cmd.Start(); err != nil {
				b.Fatal(err)
			}
			stop = func() float64 {
				cmd.Process.Signal(os.Interrupt)
				cmd.Wait()
				return (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
			}
		} else {
			ctx, cancel := context.WithCancel(context.Background())
			w := &Worker{Name: "w", Concurrency: 1, Log: log}
			var wg sync.WaitGroup
			wg.Go(func() { w.Run(ctx, nc) })
			stop = func() float64 { cancel(); wg.Wait(); return 0 }
		}
		generation := 0
		positions, cpu := distillAll(b, distill.Options{Search: func(ctx context.Context, fens []string, progress func(done, total int)) ([]float64, error) {
			generation++ // each iteration's jobs anew, not the last one's results
			return Search(ctx, c, Searches{Game: k.Name, Positions: fens, Net: nets[0], Nodes: nodes, Scorer: k.Scorer,
				RunSeed: 1, Generation: generation, Progress: progress})
		}})
		report(b, positions, cpu+stop())
	})
}

// BenchmarkWire encodes and decodes a job or result of each kind
// (wireSamples: a default draughts game's job and result, a search job of
// SearchBatch chess positions and its values, a worker's error) per
// iteration, in version 3's JSON and in the binary form, and reports the
// bytes on the wire: go test ./cluster -run '^$' -bench Wire -benchmem.
func BenchmarkWire(b *testing.B) {
	for _, s := range wireSamples(b) {
		var v any = s.job
		decode := func(data []byte) error { var j Job; return j.UnmarshalBinary(data) }
		decodeJSON := func(data []byte) error { var j Job; return json.Unmarshal(data, &j) }
		if s.job == nil {
			v = s.result
			decode = func(data []byte) error { var r Result; return r.UnmarshalBinary(data) }
			decodeJSON = func(data []byte) error { var r Result; return json.Unmarshal(data, &r) }
		}
		b.Run(s.name+"/json", func(b *testing.B) {
			var n int
			for b.Loop() {
				data, err := json.Marshal(v)
				if err == nil {
					err = decodeJSON(data)
				}
				if err != nil {
					b.Fatal(err)
				}
				n = len(data)
			}
			b.ReportMetric(float64(n), "bytes")
		})
		b.Run(s.name+"/binary", func(b *testing.B) {
			var n int
			for b.Loop() {
				data := s.marshal(b)
				if err := decode(data); err != nil {
					b.Fatal(err)
				}
				n = len(data)
			}
			b.ReportMetric(float64(n), "bytes")
		})
	}
}

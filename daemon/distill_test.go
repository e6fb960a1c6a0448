package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"evolved/cluster"
	"evolved/storage"
)

// TestDistillJoinsAChessRun turns the distillation on in a chess run that
// has played two generations, through its file as a run may change it:
// to generation 8 in one go, and to 5 then 8 with a restart between. Both
// play the same games and distill the same champions, at generations 3
// and 5 (the last of every 2; 7's would join generation 8, unplayed),
// the elite of each next generation distilled: origin "distilled", the
// first from the champion, each the net of the elite it came from but for
// its linear weights, all moved by the same step, stored whole and read
// back, and the parents of the generation's children.
func TestDistillJoinsAChessRun(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	conf := func(db string, generations int, section string) Config {
		t.Helper()
		base := DefaultConfig()
		base.Games = []string{"chess"}
		base.Workers = 2
		base.DB, base.Seed, base.Generations = filepath.Join(dir, db), 5, generations
		base.Jobs.Backup, base.Jobs.Prune, base.Jobs.RatingEvery = "", "", 0
		file := "[chess]\ndepth = 1\nnodes = 0\nmax_moves = 25\nformat = \"blondie\"\nladder_games = 2\nbaseline_every = 0\n" + section
		cfg, err := ParseConfig(base, strings.NewReader(file), "test.toml")
		if err != nil {
			t.Fatal(err)
		}
		if err := cfg.Validate(); err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	run := func(cfg Config) *Daemon { return runDaemon(t, ctx, cfg) }
	const distill = "distill_every = 2\ndistill_nodes = 150\n"
	run(conf("a.db", 2, "")).Close()
	copyDB(t, filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")) // b's first two generations, as played
	straight := run(conf("a.db", 8, distill))
	run(conf("b.db", 5, distill)).Close()
	resumed := run(conf("b.db", 8, distill))

	for g := 2; g < 8; g++ {
		a, b := storedGames(t, straight.db, "chess", g), storedGames(t, resumed.db, "chess", g)
		if len(a) == 0 || fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("generation %d: %d games straight, %d resumed, or they differ", g, len(a), len(b))
		}
	}
	for name, d := range map[string]*Daemon{"straight": straight, "resumed": resumed} {
		var distilled []string
		for g := 0; g < 8; g++ {
			members, err := d.db.Members(ctx, "chess", g)
			if err != nil {
				t.Fatal(err)
			}
			var step []float64 // the change of the linear weights, the same for every elite
			for _, m := range members {
				if m.Origin != "distilled" {
					continue
				}
				distilled = append(distilled, fmt.Sprintf("%d/%d", g, m.Slot))
				if len(m.Parents) != 1 || m.Born != g {
					t.Fatalf("%s: generation %d: a distilled member with parents %v, born %d", name, g, m.Parents, m.Born)
				}
				if m.Slot == 0 {
					champ, err := d.db.ChampionAgent(ctx, "chess", g-1)
					if err != nil {
						t.Fatal(err)
					}
					if m.Parents[0] != champ.Provenance.AgentID {
						t.Errorf("%s: generation %d: the head of the elite comes from %d, want the champion of generation %d (%d)",
							name, g, m.Parents[0], g-1, champ.Provenance.AgentID)
					}
				}
				parent, err := d.db.AgentByID(ctx, "chess", m.Parents[0])
				if err != nil {
					t.Fatal(err)
				}
				got, err := d.db.AgentByID(ctx, "chess", m.AgentID)
				if err != nil {
					t.Fatal(err)
				}
				pw, dw := parent.Net.Weights(), got.Net.Weights()
				sizes := parent.Net.Sizes()
				own := parent.Net.BiasIndex(len(sizes)-1, sizes[len(sizes)-1]-1) + 1 // the net's own weights; the linear ones follow
				hidden, moved := 0, 0
				for i := range pw {
					if pw[i] != dw[i] {
						if i < own {
							hidden++
						} else {
							moved++
						}
					}
				}
				if hidden != 0 || moved < 20 {
					t.Errorf("%s: generation %d: the distilled genome differs from its parent in %d hidden weights and %d linear ones; want 0 and many", name, g, hidden, moved)
				}
				if step == nil {
					step = make([]float64, len(pw))
					for i := range pw {
						step[i] = dw[i] - pw[i]
					}
				} else {
					for i := range pw {
						if math.Abs(dw[i]-pw[i]-step[i]) > 2e-6 { // each sum rounded to a float32
							t.Fatalf("%s: generation %d slot %d: weight %d moved by %v, the champion's by %v", name, g, m.Slot, i, dw[i]-pw[i], step[i])
						}
					}
				}
				// It bred: some member of the generation descends from it.
				if !slices.ContainsFunc(members, func(c storage.Member) bool { return slices.Contains(c.Parents, m.AgentID) && c.AgentID != m.AgentID }) && m.Slot < 3 {
					t.Errorf("%s: generation %d: no member descends from the distilled elite in slot %d", name, g, m.Slot)
				}
			}
		}
		want := "[4/0 4/1 4/2 4/3 4/4 6/0 6/1 6/2 6/3 6/4]"
		if fmt.Sprint(distilled) != want {
			t.Errorf("%s: distilled members (generation/slot) %v, want %s", name, distilled, want)
		}
	}
}

// TestDraughtsDistills runs draughts with the distillation every 2
// generations, to generation 6 straight and to 3 then 6 with a restart:
// the same games, the elites of generations 2 and 4 distilled (generation
// 5's would join generation 6, unplayed), most weights of their nets
// moved, all by one step, and the genomes read back from the resumed
// run's database (the dense steps rebuilt) the straight run's. The
// straight run is played again through a worker (checkDistillOnWorkers).
func TestDraughtsDistills(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	conf := func(db string, generations int) Config {
		cfg := fastDraughts()
		cfg.DB, cfg.Seed, cfg.Generations = filepath.Join(dir, db), 3, generations
		cfg.Draughts.DistillEvery, cfg.Draughts.DistillNodes = 2, 100
		return cfg
	}
	run := func(cfg Config) *Daemon { return runDaemon(t, ctx, cfg) }
	straight := run(conf("a.db", 6))
	run(conf("b.db", 3)).Close()
	resumed := run(conf("b.db", 6))
	for g := 0; g < 6; g++ {
		a, b := storedGames(t, straight.db, "draughts", g), storedGames(t, resumed.db, "draughts", g)
		if len(a) == 0 || fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("generation %d: %d games straight, %d resumed, or they differ", g, len(a), len(b))
		}
	}
	var distilled []string
	for g := 0; g < 6; g++ {
		members, err := straight.db.Members(ctx, "draughts", g)
		if err != nil {
			t.Fatal(err)
		}
		var step []float64
		for _, m := range members {
			if m.Origin != "distilled" {
				continue
			}
			distilled = append(distilled, fmt.Sprintf("%d/%d", g, m.Slot))
			parent, err := straight.db.AgentByID(ctx, "draughts", m.Parents[0])
			if err != nil {
				t.Fatal(err)
			}
			got, err := resumed.db.AgentByID(ctx, "draughts", m.AgentID)
			if err != nil {
				t.Fatal(err)
			}
			if bred, err := straight.db.AgentByID(ctx, "draughts", m.AgentID); err != nil || !bred.Net.Equal(got.Net) {
				t.Fatalf("generation %d slot %d: the resumed run's genome is not the straight run's (%v)", g, m.Slot, err)
			}
			pw, dw := parent.Net.Weights(), got.Net.Weights()
			moved := 0
			for i := range pw {
				if pw[i] != dw[i] {
					moved++
				}
			}
			if moved < len(pw)/2 {
				t.Errorf("generation %d slot %d: %d of %d weights moved, want most", g, m.Slot, moved, len(pw))
			}
			if step == nil {
				step = make([]float64, len(pw))
				for i := range pw {
					step[i] = dw[i] - pw[i]
				}
			} else {
				for i := range pw {
					if math.Abs(dw[i]-pw[i]-step[i]) > 2e-6 {
						t.Fatalf("generation %d slot %d: weight %d moved by %v, the champion's by %v", g, m.Slot, i, dw[i]-pw[i], step[i])
					}
				}
			}
		}
	}
	if want := "[2/0 2/1 2/2 2/3 2/4 4/0 4/1 4/2 4/3 4/4]"; fmt.Sprint(distilled) != want {
		t.Errorf("distilled members (generation/slot) %v, want %s", distilled, want)
	}
	t.Run("on workers", func(t *testing.T) { checkDistillOnWorkers(t, straight, conf("cluster.db", 6)) })
}

// checkDistillOnWorkers runs cfg, the configuration of the local run
// local, again with a NATS server and a worker process's worth of
// in-process worker: the tournaments and the distillations' searches go to
// the worker (it searched positions), and every generation's members,
// their genomes bit for bit and their games are the local run's.
// TestDraughtsDistills calls it with its straight run.
func checkDistillOnWorkers(t *testing.T, local *Daemon, cfg Config) {
	if testing.Short() {
		t.Skip("-short: a daemon of six distilling generations through a NATS server (the race detector's run; cluster's own tests race the workers)")
	}
	ctx := context.Background()
	var played, searched atomic.Int64
	url := startWorker(t, func(job *cluster.Job) {
		if job.Kind == cluster.SearchJob {
			searched.Add(int64(len(job.Positions)))
		} else {
			played.Add(1)
		}
	})
	cfg.Cluster.NATS = url
	remote := runDaemon(t, ctx, cfg)

	if played.Load() == 0 || searched.Load() == 0 {
		t.Fatalf("the worker played %d games and searched %d positions; want both", played.Load(), searched.Load())
	}
	distilled := 0
	for g := 0; g < cfg.Generations; g++ {
		a, b := storedGames(t, local.db, "draughts", g), storedGames(t, remote.db, "draughts", g)
		if len(a) == 0 || fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("generation %d: %d games here, %d on the worker, or they differ", g, len(a), len(b))
		}
		ma, err := local.db.Members(ctx, "draughts", g)
		if err != nil {
			t.Fatal(err)
		}
		mb, err := remote.db.Members(ctx, "draughts", g)
		if err != nil {
			t.Fatal(err)
		}
		if len(ma) == 0 || len(ma) != len(mb) {
			t.Fatalf("generation %d: %d members here, %d with the worker", g, len(ma), len(mb))
		}
		for i := range ma {
			if ma[i].AgentID != mb[i].AgentID || ma[i].Origin != mb[i].Origin || !slices.Equal(ma[i].Parents, mb[i].Parents) {
				t.Fatalf("generation %d slot %d: %+v here, %+v with the worker", g, i, ma[i], mb[i])
			}
			na, err := local.db.AgentByID(ctx, "draughts", ma[i].AgentID)
			if err != nil {
				t.Fatal(err)
			}
			nb, err := remote.db.AgentByID(ctx, "draughts", mb[i].AgentID)
			if err != nil {
				t.Fatal(err)
			}
			if !na.Net.Equal(nb.Net) {
				t.Fatalf("generation %d slot %d: agent %d's genome differs with the worker", g, i, ma[i].AgentID)
			}
			if ma[i].Origin == "distilled" {
				distilled++
			}
		}
	}
	if distilled == 0 {
		t.Error("no member was distilled: the test compares nothing of the distillation")
	}
	t.Logf("the worker played %d games and searched %d positions; %d distilled members compared", played.Load(), searched.Load(), distilled)
}

// startWorker starts an embedded NATS server and a worker process's worth
// of in-process worker (two jobs at once) on it, both stopped when the
// test ends, and returns the server's URL; played, if set, hears of each
// job the worker played.
func startWorker(t *testing.T, played func(job *cluster.Job)) string {
	t.Helper()
	ctx := context.Background()
	s, err := cluster.StartServer(cluster.ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	nc, err := cluster.Connect(ctx, cluster.ConnectOptions{URL: s.URL()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	w := &cluster.Worker{Name: "w1", Concurrency: 2, Log: slog.New(slog.DiscardHandler), Wait: 50 * time.Millisecond, Played: played}
	wctx, stop := context.WithCancel(ctx)
	stopped := make(chan error, 1)
	go func() { stopped <- w.Run(wctx, nc) }()
	t.Cleanup(func() {
		stop()
		if err := <-stopped; err != nil {
			t.Errorf("worker: %v", err)
		}
	})
	return s.URL()
}

package daemon

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"evolved/nnet"
)

// TestDistillJoinsAChessRun turns the distillation on in a chess run that
// has played two generations, through its file as a run may change it:
// to generation 8 in one go, and to 5 then 8 with a restart between. Both
// play the same games and distill the same champions, at generations 3
// and 5 (the last of every 2; 7's would join generation 8, unplayed),
// each fitted genome the first member of the next generation with origin
// "distilled", the champion as its parent and the parent of children of
// the generation, and the champion's net but for its linear weights,
// stored whole and read back.
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
	run := func(cfg Config) *Daemon {
		t.Helper()
		d := newDaemonWith(t, cfg)
		if err := d.Run(ctx); err != nil {
			t.Fatal(err)
		}
		return d
	}
	const distill = "distill_every = 2\ndistill_nodes = 150\n"
	run(conf("a.db", 2, "")).Close()
	straight := run(conf("a.db", 8, distill))
	run(conf("b.db", 2, "")).Close()
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
			for _, m := range members {
				if m.Origin != "distilled" {
					continue
				}
				distilled = append(distilled, fmt.Sprintf("generation %d slot %d", g, m.Slot))
				champ, err := d.db.ChampionAgent(ctx, "chess", g-1)
				if err != nil {
					t.Fatal(err)
				}
				if len(m.Parents) != 1 || m.Parents[0] != champ.Provenance.AgentID || m.Born != g {
					t.Errorf("%s: generation %d: the distilled member has parents %v, born %d; want the champion of generation %d (%d)",
						name, g, m.Parents, m.Born, g-1, champ.Provenance.AgentID)
				}
				if m.Slot != 0 {
					t.Errorf("%s: generation %d: the distilled member is in slot %d, want 0, the champion's place", name, g, m.Slot)
				}
				// It bred in the champion's place.
				children := 0
				for _, c := range members {
					if slices.Contains(c.Parents, m.AgentID) && c.AgentID != m.AgentID {
						children++
					}
				}
				if children == 0 {
					t.Errorf("%s: generation %d: no member of the generation descends from the distilled agent %d", name, g, m.AgentID)
				}
				got, err := d.db.AgentByID(ctx, "chess", m.AgentID)
				if err != nil {
					t.Fatal(err)
				}
				cw, dw := champ.Net.Weights(), got.Net.Weights()
				linear := nnet.NumPieceValues + nnet.NumPSTValues + champ.Net.TermCount()
				hidden, moved := 0, 0
				for i := range cw {
					if cw[i] != dw[i] {
						if i < len(cw)-linear {
							hidden++
						} else {
							moved++
						}
					}
				}
				if hidden != 0 || moved < 20 {
					t.Errorf("%s: generation %d: the distilled genome differs from its parent in %d hidden weights and %d linear ones; want 0 and many", name, g, hidden, moved)
				}
			}
		}
		if want := []string{"generation 4 slot 0", "generation 6 slot 0"}; fmt.Sprint(distilled) != fmt.Sprint(want) {
			t.Errorf("%s: distilled members %v, want %v", name, distilled, want)
		}
	}
}

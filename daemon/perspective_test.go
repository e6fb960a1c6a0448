package daemon

import (
	"context"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"evolved/agent"
	"evolved/nnet"
)

// TestDraughtsPerspectiveRun runs a draughts population of perspective
// nets (draughts.perspective = true, 16 sums a side for speed) for two
// generations, resumes it for a third, and checks that its champion is a
// perspective genome of 128 features, a valid agent file, and that the
// run stored the key (so that it keeps it on resume) with the Blondie
// net's piece difference and distillation stepped aside.
func TestDraughtsPerspectiveRun(t *testing.T) {
	db := filepath.Join(t.TempDir(), "evolved.db")
	config := func(generations int) Config {
		return parsedConfig(t, fastDraughts(), "[draughts]\nperspective = true\nhidden = [16]\ndepth = 2\nmax_moves = 40\n", db, generations)
	}
	runDaemon(t, context.Background(), config(2)).Close()
	d := runDaemon(t, context.Background(), config(3))
	ctx := context.Background()
	f, err := d.db.ChampionAgent(ctx, "draughts", -1)
	if err != nil {
		t.Fatal(err)
	}
	if err := agent.Write(io.Discard, f); err != nil { // Write validates
		t.Errorf("the champion's agent file: %v", err)
	}
	if f.Provenance.Generation != 2 {
		t.Errorf("the last champion is generation %d's, want 2", f.Provenance.Generation)
	}
	if want := []int{nnet.NumDraughtsPerspectiveInputs, 16, 1}; !slices.Equal(f.Net.Sizes(), want) || f.Net.Flags() != nnet.Perspective {
		t.Errorf("the champion has sizes %v and flags %v, want %v and %v", f.Net.Sizes(), f.Net.Flags(), want, nnet.Perspective)
	}
	run, err := d.db.LoadRun(ctx, "draughts")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"perspective":true`, `"piece_diff":false`, `"hidden":[16]`} {
		if !strings.Contains(run.Config, want) {
			t.Errorf("the stored settings %s lack %s", run.Config, want)
		}
	}
	if strings.Contains(run.Config, `"distill_every"`) {
		t.Errorf("the stored settings %s distill", run.Config)
	}
}

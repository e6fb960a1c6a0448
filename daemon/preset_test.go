package daemon

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// noEnv is a lookup with no environment variable set.
func noEnv(string) (string, bool) { return "", false }

// blondieSettings are the draughts settings a run stores (DraughtsConfig's
// MarshalJSON) for the Blondie experiment as docs/draughts.md measured it:
// the defaults of the session that pinned them. They must never change:
// a change of default leaves the preset as it is.
const blondieSettings = `{"preset":"blondie24","depth":4,"nodes":0,"opening_plies":4,"max_moves":100,"format":"roundrobin","rounds":1,` +
	`"population":15,"elite":5,"hidden":[40,10],"piece_diff":true,"self_adaptive":false,"ladder_champions":5,"ladder_games":6,` +
	`"baseline_every":10,"baseline_later_every":100,"baselines":["random","material:4","mcts:1000"],"baseline_games":20,` +
	`"hall_of_fame":0,"hall_games":2,"mutation_scale":0.1,"fitness_memory":true,"distill_every":2,"evolve_king":false}`

// TestBlondiePresetIsTheExperiment checks what --preset blondie24 runs:
// draughts, 840 generations, and the pinned draughts settings.
func TestBlondiePresetIsTheExperiment(t *testing.T) {
	c, err := LoadConfig("", noEnv, map[string]string{PresetKey: "blondie24"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Games, []string{"draughts"}) || c.Generations != 840 {
		t.Errorf("games %v, generations %d; want [draughts], 840", c.Games, c.Generations)
	}
	got, err := json.Marshal(c.Draughts)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != blondieSettings {
		t.Errorf("the preset's draughts settings\n%s\nwant\n%s", got, blondieSettings)
	}
}

// TestBlondiePresetSetsEveryKey checks that the preset's file sets every
// key of the draughts section, so that a key added later, whatever its
// default, cannot change the experiment unnoticed: whoever adds one must
// say here what the experiment had.
func TestBlondiePresetSetsEveryKey(t *testing.T) {
	var printed bytes.Buffer
	if err := DefaultConfig().Print(&printed); err != nil {
		t.Fatal(err)
	}
	type section struct {
		Draughts map[string]any `toml:"draughts"`
	}
	var defaults, preset section
	if _, err := toml.Decode(printed.String(), &defaults); err != nil {
		t.Fatal(err)
	}
	data, err := presetFiles.ReadFile("presets/blondie24.toml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := toml.Decode(string(data), &preset); err != nil {
		t.Fatal(err)
	}
	want := defaults.Draughts
	if len(want) < 40 {
		t.Fatalf("the printed draughts section has %d keys: the test reads it wrong", len(want))
	}
	for key := range want {
		if _, ok := preset.Draughts[key]; !ok {
			t.Errorf("the blondie24 preset does not set draughts.%s: say what the experiment had", key)
		}
	}
}

// TestPresetLayers checks that the preset lies under the file, the
// environment and the other flags, and that an unknown name is refused
// with the known ones.
func TestPresetLayers(t *testing.T) {
	file := filepath.Join(t.TempDir(), "e.toml")
	if err := os.WriteFile(file, []byte("[draughts]\ndepth = 6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := func(k string) (string, bool) { return "9", k == "EVOLVED_SEED" }
	c, err := LoadConfig(file, env, map[string]string{PresetKey: "blondie24", "generations": "5"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Draughts.Depth != 6 || c.Generations != 5 || c.Seed != 9 || c.Draughts.MutationScale != 0.1 {
		t.Errorf("depth %d, generations %d, seed %d, mutation_scale %v; want the file's 6, the flag's 5, the environment's 9 and the preset's 0.1",
			c.Draughts.Depth, c.Generations, c.Seed, c.Draughts.MutationScale)
	}
	for _, name := range []string{"nope", "../presets/blondie24", "blondie24.toml", ""} {
		_, err := LoadConfig("", noEnv, map[string]string{PresetKey: name})
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), "want one of blondie24") {
			t.Errorf("preset %q: %v, want a ConfigError listing blondie24", name, err)
		}
	}
}

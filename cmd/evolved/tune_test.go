package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTuneRunsResumesAndRefuses plays a short tuning of two parameters of
// material:2 (from chess's own values: rfp_margin 92, lmr_divisor 190),
// runs it again (a finished state prints its result again),
// refuses a flag that disagrees with the state, a player without
// parameters, a state file that is not one, and a parameter it does not
// know.
func TestTuneRunsResumesAndRefuses(t *testing.T) {
	dir := t.TempDir()
	args := []string{"tune", "--game", "chess", "--player", "material:2", "--state", "t.json", "--pairs", "4", "--batch", "2",
		"--nodes", "300", "--params", "rfp_margin,lmr_divisor", "--max-moves", "30", "--workers", "2", "--plot", "t.svg"}
	out, err := evolvedIn(t, dir, args...).Output()
	if err != nil {
		t.Fatalf("tune: %v", err)
	}
	for _, want := range []string{"tune: 4 pairs at 300 nodes a move; plus won ", "rfp_margin           92 ", "lmr_divisor         190 ", "tune: wrote t.svg"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("tune said\n%s\nwant %q in it", out, want)
		}
	}
	if strings.Contains(string(out), "aspiration") {
		t.Errorf("tune reports a parameter it did not tune:\n%s", out)
	}
	if svg, err := os.ReadFile(filepath.Join(dir, "t.svg")); err != nil || !strings.Contains(string(svg), "<svg") || !strings.Contains(string(svg), "lmr_divisor") {
		t.Errorf("the plot: %v, %.80q", err, svg)
	}
	again, err := evolvedIn(t, dir, "tune", "--state", "t.json", "--plot", "t.svg").Output()
	if err != nil || string(again) != string(out) {
		t.Errorf("a finished tuning run again said (%v)\n%s\nthe first time\n%s", err, again, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"settings": {"pairs": 0}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tune", "--state", "t.json", "--nodes", "400"}, "--nodes 400, but the state file's tuning has 300"},
		{[]string{"tune", "--game", "chess", "--player", "random", "--state", "r.json"}, "random is not an alpha-beta player"},
		{[]string{"tune", "--state", "bad.json"}, "bad.json: tune: bad state file"},
		{[]string{"tune", "--game", "chess", "--player", "material:2", "--state", "p.json", "--params", "rfp"}, `unknown parameter "rfp"`},
		{[]string{"tune", "--game", "chess", "--player", "material:2"}, "give --state FILE"},
		{[]string{"tune", "--game", "chess", "--state", "n.json"}, "give --player SPEC"},
	} {
		out, err := evolvedIn(t, dir, tc.args...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), tc.want) {
			t.Errorf("%v: error %v, output %q, want %q", tc.args, err, out, tc.want)
		}
	}
}

package main

import (
	"database/sql"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestCheckNamesAMissingKeyframe runs a daemon whose genomes are mostly
// kept as their lineage, checks the database, removes one keyframe's
// weights, and checks that check names it and that exporting a champion
// rebuilt through it fails with the reason instead of writing another net.
func TestCheckNamesAMissingKeyframe(t *testing.T) {
	if testing.Short() {
		t.Skip("long: a 20-generation run (skipped with -short)")
	}
	dir, config := setup(t)
	if out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", "20").CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	out, err := evolvedIn(t, dir, "check").CombinedOutput()
	if err != nil {
		t.Fatalf("check of an intact database: %v\n%s", err, out)
	}
	counts := regexp.MustCompile(`genomes: (\d+): (\d+) whole .*, (\d+) rebuilt from their lineage \(at most (\d+) operations`).FindStringSubmatch(string(out))
	if counts == nil || counts[3] == "0" || counts[4] != "4" || !strings.Contains(string(out), "lineage: ok") {
		t.Fatalf("check of an intact run with keyframe_every = 4:\n%s", out)
	}

	// The keyframe with a dropped champion rebuilt through it: the
	// champion is the keyframe's own child, or further down.
	path := filepath.Join(dir, "evolved.db")
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	var key, generation int
	err = raw.QueryRow(`WITH RECURSIVE down(key, id) AS (
			SELECT agent_id, agent_id FROM lineage WHERE depth = 0 AND op IS NOT NULL
			UNION
			SELECT down.key, l.agent_id FROM lineage l JOIN down ON l.parent1 = down.id OR l.parent2 = down.id
			WHERE l.depth > 0 AND l.op IS NOT NULL)
		SELECT down.key, g.generation FROM down JOIN generations g ON g.champion_id = down.id
		WHERE down.id != down.key ORDER BY g.generation LIMIT 1`).Scan(&key, &generation)
	if err != nil {
		t.Fatalf("no champion rebuilt through a keyframe: %v", err)
	}
	if _, err := raw.Exec("UPDATE genomes SET genome = NULL WHERE agent_id = ?", key); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	out, err = evolvedIn(t, dir, "check").CombinedOutput()
	if code := exitCodeOf(err); code != 1 {
		t.Fatalf("check with keyframe %d removed: exit %d, want 1\n%s", key, code, out)
	}
	named := regexp.MustCompile(`lineage: draughts agent (\d+) \(born in generation \d+\): kept weights missing; (\d+) dropped genomes are rebuilt through it`).FindStringSubmatch(string(out))
	if named == nil || named[1] != strconv.Itoa(key) || named[2] == "0" {
		t.Errorf("check with keyframe %d removed does not name it:\n%s", key, out)
	}
	out, err = evolvedIn(t, dir, "export", "--generation", strconv.Itoa(generation)).CombinedOutput()
	if code := exitCodeOf(err); code != 1 || !strings.Contains(string(out), "cannot be rebuilt from its lineage") {
		t.Errorf("export of generation %d's champion, rebuilt through the missing keyframe: exit %d\n%.400s", generation, code, out)
	}
}

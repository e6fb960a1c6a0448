package storage_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"evolved/daemon"
	"evolved/distill"
	"evolved/game/draughts"
	"evolved/games"
	"evolved/longtest"
	"evolved/nnet"
	"evolved/population"
	"evolved/storage"
	"evolved/tournament"
)

// TestLineageRebuildsEveryGenome plays a run twice, one database keeping
// every genome whole (what evolved stored before lineage storage) and one
// with keyframes every 3 operations, and checks that every champion and
// every genome bred since reads back bit for bit, and that the second
// database keeps only a few genomes whole.
func TestLineageRebuildsEveryGenome(t *testing.T) {
	if testing.Short() {
		t.Skip("long: generations twice (skipped with -short)")
	}
	ctx := context.Background()
	const keyframes = 3
	tw := newTwin(t, storage.Retention{Games: 2, Genomes: 1, Keyframes: keyframes, Members: -1})
	played := 40 // the long tests play 200, a soak of the lineage
	if longtest.Enabled() {
		played = 200
	}
	tw.play(t, played)
	tw.sameChampions(t, played)

	ids := query(t, tw.allPath, "SELECT agent_id FROM genomes ORDER BY agent_id")
	rebuilt := 0
	for _, s := range ids {
		id, _ := strconv.ParseInt(s, 10, 64)
		want, err := tw.all.Genome(ctx, "draughts", id)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tw.kept.Genome(ctx, "draughts", id)
		if errors.Is(err, storage.ErrPruned) {
			// Dropped for good: only a genome nothing was bred
			// from and no recipe can make (generation 0's).
			if born := query(t, tw.allPath, "SELECT born FROM genomes WHERE agent_id = ?", id); born[0] != "0" {
				t.Errorf("genome %d (born %s) dropped for good; a bred genome must be rebuilt", id, born[0])
			}
			continue
		}
		if err != nil {
			t.Fatalf("genome %d: %v", id, err)
		}
		wb, _ := want.MarshalBinary()
		gb, _ := got.MarshalBinary()
		if !bytes.Equal(wb, gb) {
			t.Fatalf("genome %d rebuilt differs from the one bred", id)
		}
		if query(t, tw.keptPath, "SELECT genome IS NULL FROM genomes WHERE agent_id = ?", id)[0] == "1" {
			rebuilt++
		}
	}
	// What the kept database holds whole: the current population and
	// the window, generation 0's parents, and the keyframes.
	whole, _ := strconv.Atoi(query(t, tw.keptPath, "SELECT count(*) FROM genomes WHERE genome IS NOT NULL")[0])
	champions, _ := strconv.Atoi(query(t, tw.allPath, "SELECT count(DISTINCT champion_id) FROM generations")[0])
	t.Logf("%d genomes, %d rebuilt from their lineage, %d kept whole, %d distinct champions", len(ids), rebuilt, whole, champions)
	if rebuilt < len(ids)/2 {
		t.Errorf("only %d of %d genomes are kept as their lineage", rebuilt, len(ids))
	}
	// A dropped genome's row is small and shares its pages with others:
	// the leaf pages hold the rows at least half full. A whole draughts
	// genome's row keeps 489 bytes of its weights in the row (SQLite's
	// smallest local part), a dropped one about 90; rows whose weights
	// were dropped by an update kept their pages as they were, about three
	// times as many as this bound.
	leaves := atoi(t, query(t, tw.keptPath, "SELECT count(*) FROM dbstat WHERE name = 'genomes' AND pagetype = 'leaf'")[0])
	if limit := 2*(whole*520+rebuilt*90)/4096 + 4; leaves > limit {
		t.Errorf("%d leaf pages hold %d whole and %d dropped genome rows, want at most %d", leaves, whole, rebuilt, limit)
	}
	if got := query(t, tw.keptPath, "SELECT max(depth) FROM lineage")[0]; got != strconv.Itoa(keyframes) {
		t.Errorf("deepest dropped genome %s operations from kept weights, want at most (and here exactly) %d", got, keyframes)
	}
}

// TestMissingKeyframeIsReported removes the weights of one keyframe and
// damages another's, and checks that the check names each with exactly the
// champions whose export then fails.
func TestMissingKeyframeIsReported(t *testing.T) {
	if testing.Short() {
		t.Skip("long: 40 generations twice (skipped with -short)")
	}
	ctx := context.Background()
	tw := newTwin(t, rebuildMost())
	const played = 40
	tw.play(t, played)
	if p, err := tw.kept.CheckLineage(ctx); err != nil || len(p) != 0 {
		t.Fatalf("intact database: problems %v, %v", p, err)
	}
	// The two keyframes with the most dropped genomes bred from them.
	keys := query(t, tw.keptPath, `SELECT k.agent_id FROM lineage k WHERE k.depth = 0 AND k.op IS NOT NULL
		ORDER BY (SELECT count(*) FROM lineage c WHERE c.depth > 0 AND (c.parent1 = k.agent_id OR c.parent2 = k.agent_id)) DESC, k.agent_id LIMIT 2`)
	if len(keys) != 2 {
		t.Fatalf("keyframes bred by the GA: %v, want two", keys)
	}
	tw.kept.Close()
	raw, err := sql.Open("sqlite", "file:"+tw.keptPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("UPDATE genomes SET genome = NULL WHERE agent_id = ?", keys[0]); err != nil {
		t.Fatal(err)
	}
	// Damage: one byte of the weights flipped, so the format's CRC fails.
	if _, err := raw.Exec("UPDATE genomes SET genome = substr(genome, 1, 40) || X'FF' || substr(genome, 42) WHERE agent_id = ?", keys[1]); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	db := mustOpen(t, tw.keptPath)
	problems, err := db.CheckLineage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 2 {
		t.Fatalf("problems %v, want the two keyframes", problems)
	}
	// The champions whose export fails, found by exporting every one.
	var failing []int
	for g := range played {
		_, err := db.Champion(ctx, "draughts", g)
		switch {
		case errors.Is(err, storage.ErrLineage):
			failing = append(failing, g)
		case err != nil:
			t.Fatalf("champion %d: %v", g, err)
		}
	}
	var reported []int
	for i, p := range problems {
		if strconv.FormatInt(p.AgentID, 10) != keys[i] {
			t.Errorf("problem %d names agent %d, want %s", i, p.AgentID, keys[i])
		}
		if p.Rebuilt == 0 {
			t.Errorf("%v: nothing rebuilt through it", p)
		}
		reported = append(reported, p.Champions...)
		t.Log(p)
	}
	if problems[0].What != "missing" || !bytes.Contains([]byte(problems[1].What), []byte("damaged")) {
		t.Errorf("what: %q, %q", problems[0].What, problems[1].What)
	}
	slices.Sort(reported)
	reported = slices.Compact(reported)
	if len(failing) == 0 || !slices.Equal(reported, failing) {
		t.Errorf("reported champions %v, the exports that fail %v", reported, failing)
	}
}

// TestRebuildRefusesAWrongRecord changes one dropped genome's recipe and
// checks that reading it fails instead of returning other weights.
func TestRebuildRefusesAWrongRecord(t *testing.T) {
	ctx := context.Background()
	tw := newTwin(t, storage.Retention{Games: 2, Genomes: 1, Keyframes: 4, Members: -1})
	tw.play(t, 6)
	dropped := query(t, tw.keptPath, "SELECT agent_id FROM lineage WHERE depth > 0 AND op = 'mutation' ORDER BY agent_id LIMIT 1")
	if len(dropped) != 1 {
		t.Fatal("no dropped mutant after 6 generations")
	}
	id, _ := strconv.ParseInt(dropped[0], 10, 64)
	if _, err := tw.kept.Genome(ctx, "draughts", id); err != nil {
		t.Fatalf("genome %d before the change: %v", id, err)
	}
	tw.kept.Close()
	raw, err := sql.Open("sqlite", "file:"+tw.keptPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("UPDATE lineage SET op_index = op_index + 1 WHERE agent_id = ?", id); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	db := mustOpen(t, tw.keptPath)
	if _, err := db.Genome(ctx, "draughts", id); !errors.Is(err, storage.ErrLineage) {
		t.Fatalf("genome %d with another random stream: %v, want ErrLineage", id, err)
	}
	db.Close()

	// Steps with a key this version does not know, as a newer version
	// would store them: refused by name, not rebuilt without it.
	raw, err = sql.Open("sqlite", "file:"+tw.keptPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`UPDATE lineage SET op_index = op_index - 1 WHERE agent_id = ?`, id); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`UPDATE runs SET steps = json_set(steps, '$.Wobble', 0.5) WHERE game = 'draughts'`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	db = mustOpen(t, tw.keptPath)
	if _, err := db.Genome(ctx, "draughts", id); !errors.Is(err, storage.ErrLineage) || !strings.Contains(fmt.Sprint(err), `unknown field "Wobble"`) {
		t.Fatalf("genome %d of a run whose steps have an unknown key: %v, want ErrLineage naming the key", id, err)
	}
}

// TestMembersWindowKeepsWhatMatters plays a run with every retention
// window small and checks, against a database that keeps everything, that
// the old populations and ladder results are gone, that the genome rows
// deleted with them are exactly those worked out from the full database
// (decided, never a champion, nothing bred from them), that every champion
// still reads back bit for bit, and that the population read back for a
// resume, whose fitness memory reaches back past the window, is the one in
// memory.
func TestMembersWindowKeepsWhatMatters(t *testing.T) {
	if testing.Short() {
		t.Skip("long: 50 generations twice (skipped with -short)")
	}
	ctx := context.Background()
	keep := storage.Retention{Games: 2, Genomes: 1, Keyframes: 3, Members: 1}
	tw := newTwin(t, keep)
	const played = 50
	tw.play(t, played)
	tw.sameChampions(t, played)

	// Members and ladder results: only the last generations, unless an
	// undecided genome holds the cut back (then from its birth).
	first := query(t, tw.keptPath, "SELECT min(generation) FROM members")[0]
	undecided := query(t, tw.keptPath, `SELECT coalesce(min((SELECT max(m.generation) FROM members m WHERE m.agent_id = l.agent_id)), 1000000)
		FROM lineage l WHERE l.depth IS NULL`)[0]
	want := min(played-1-keep.Members+1, atoi(t, undecided))
	if atoi(t, first) != want {
		t.Errorf("members kept from generation %s, want %d (undecided genomes born from %s)", first, want, undecided)
	}
	if got := query(t, tw.keptPath, "SELECT count(*) FROM ladder WHERE generation < ?", want)[0]; got != "0" {
		t.Errorf("%s ladder results kept before generation %d", got, want)
	}

	// The genome rows deleted: computed from the full database by another
	// route, parents read from the genomes' own JSON lists.
	champion := map[string]bool{}
	for _, id := range query(t, tw.allPath, "SELECT champion_id FROM generations") {
		champion[id] = true
	}
	bred := map[string]bool{}
	for _, p := range query(t, tw.allPath, "SELECT DISTINCT p.value FROM genomes g, json_each(g.parents) p WHERE g.origin != 'random' AND g.born > 0") {
		bred[p] = true
	}
	last := map[string]int{}
	for _, r := range query(t, tw.allPath, "SELECT agent_id || ' ' || max(generation) FROM members GROUP BY agent_id") {
		var id string
		var g int
		fmt.Sscan(r, &id, &g)
		last[id] = g
	}
	decided := map[string]bool{}
	for _, id := range query(t, tw.keptPath, "SELECT agent_id FROM lineage WHERE depth IS NOT NULL") {
		decided[id] = true
	}
	var wantGone, gone []string
	kept := map[string]bool{}
	for _, id := range query(t, tw.keptPath, "SELECT agent_id FROM genomes") {
		kept[id] = true
	}
	for _, id := range query(t, tw.allPath, "SELECT agent_id FROM genomes WHERE born > 0 ORDER BY agent_id") {
		// Decided genomes are still listed in the kept database's
		// lineage unless deleted; a deleted one was decided.
		if !champion[id] && !bred[id] && last[id] < want && (decided[id] || !kept[id]) {
			wantGone = append(wantGone, id)
		}
		if !kept[id] {
			gone = append(gone, id)
		}
	}
	if len(gone) == 0 || !slices.Equal(gone, wantGone) {
		t.Errorf("genome rows deleted %v\nwant %v", gone, wantGone)
	}

	// A resume reads the population in memory, fitness memory included,
	// which for an elite older than the window reaches past it.
	old := query(t, tw.allPath, "SELECT count(*) FROM members WHERE generation = ? AND agent_id IN (SELECT agent_id FROM members WHERE generation < ?)", played, want)[0]
	if old == "0" {
		t.Fatalf("no member of the current population is older than the window: the check below would prove nothing")
	}
	p, err := tw.kept.LoadPopulation(ctx, "draughts")
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range p.Agents {
		m := tw.st.Agents[i]
		if a.ID != m.ID || a.PastPoints != m.PastPoints || a.PastGames != m.PastGames {
			t.Errorf("slot %d read back as agent %d with %d points in %d games; in memory agent %d, %d in %d",
				i, a.ID, a.PastPoints, a.PastGames, m.ID, m.PastPoints, m.PastGames)
		}
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestOldDatabaseGoesOnWithLineage makes a database as evolved wrote it
// before lineage storage (no lineage rows, no steps, retention keeping
// every champion whole and dropping the rest), then plays on with
// genomes kept by lineage: every champion, old and new, still reads back
// bit for bit, the old genomes the new ones were bred from keep their
// weights, and the check finds nothing wrong.
func TestOldDatabaseGoesOnWithLineage(t *testing.T) {
	if testing.Short() {
		t.Skip("long: 50 generations twice (skipped with -short)")
	}
	ctx := context.Background()
	tw := newTwin(t, storage.KeepEverything())
	tw.play(t, 10)
	tw.kept.Close()
	raw, err := sql.Open("sqlite", "file:"+tw.keptPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{"DELETE FROM lineage", "UPDATE runs SET steps = NULL", "UPDATE members SET past_points = NULL, past_games = NULL"} {
		if _, err := raw.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	tw.kept = mustOpen(t, tw.keptPath)
	// The old rule: every champion whole, the rest dropped after the window.
	if _, err := tw.kept.Prune(ctx, storage.Retention{Games: 2, Genomes: 1, Members: -1}); err != nil {
		t.Fatal(err)
	}
	// The daemon's resume: the steps recorded, then the population read
	// back from a database whose members do not carry their past.
	if err := tw.kept.RecordSteps(ctx, "draughts", testConfig().Steps()); err != nil {
		t.Fatal(err)
	}
	p, err := tw.kept.LoadPopulation(ctx, "draughts")
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range p.Agents {
		if a.PastPoints != tw.st.Agents[i].PastPoints || a.PastGames != tw.st.Agents[i].PastGames {
			t.Errorf("slot %d: past %d points in %d games summed from the old rows, %d in %d in memory",
				i, a.PastPoints, a.PastGames, tw.st.Agents[i].PastPoints, tw.st.Agents[i].PastGames)
		}
	}
	tw.keep = storage.Retention{Games: 2, Genomes: 1, Keyframes: 3, Members: 4}
	tw.play(t, 40)
	tw.sameChampions(t, 50)
	// The old genomes the new ones were bred from: whole.
	parents := query(t, tw.keptPath, `SELECT DISTINCT p.value FROM lineage l JOIN genomes g USING (game, agent_id), json_each(g.parents) p
		WHERE l.op IS NOT NULL AND p.value NOT IN (SELECT agent_id FROM lineage)`)
	if len(parents) == 0 {
		t.Fatal("no genome bred since the upgrade has an old parent: the test proves nothing")
	}
	for _, id := range parents {
		if got := query(t, tw.keptPath, "SELECT genome IS NOT NULL FROM genomes WHERE agent_id = ?", id); len(got) != 1 || got[0] != "1" {
			t.Errorf("old genome %s, a parent of a genome bred since, lost its weights", id)
		}
	}
	if problems, err := tw.kept.CheckLineage(ctx); err != nil || len(problems) > 0 {
		t.Errorf("check: %v %v", problems, err)
	}
}

// TestMembersWindowCatchesUpInChunks: a database that kept every
// population deletes the old ones a chunk of generations at a time.
func TestMembersWindowCatchesUpInChunks(t *testing.T) {
	ctx := context.Background()
	tw := newTwin(t, storage.KeepEverything())
	tw.play(t, 30)
	keep := storage.Retention{Games: -1, Genomes: 1, Keyframes: 3, Members: 2, MembersChunk: 8}
	for i, want := range []string{"8", "16", "24", "28", "28"} {
		if _, err := tw.kept.Prune(ctx, keep); err != nil {
			t.Fatal(err)
		}
		if got := query(t, tw.keptPath, "SELECT min(generation) FROM members")[0]; got != want {
			t.Errorf("after prune %d the first population kept is generation %s, want %s", i+1, got, want)
		}
	}
	tw.sameChampions(t, 30)
}

// TestLineageRebuildsDistilledGenomes plays a run that distills its
// champion every 3 generations into a database keeping every genome and
// one with keyframes every 2 operations: every genome of the second, the
// distilled ones and those bred from them, reads back bit for bit, the
// distilled ones kept as their step. The stand-in fits are deterministic,
// as a distillation is: one moves three weights far apart (a chess fit's
// few, kept sparse: 4 + 3*8 bytes), the others every weight by a multiple
// of a power of two (a draughts fit's rounded step, kept packed: 17 bytes
// and the bits of the largest multiple a weight).
func TestLineageRebuildsDistilledGenomes(t *testing.T) {
	for _, tc := range []struct {
		name string
		fit  func(w []float64, games int)
		size func(weights int) int
	}{
		{"sparse", func(w []float64, games int) {
			for _, i := range []int{0, len(w) / 2, len(w) - 1} {
				w[i] += 0.01 * float64(games%7+1)
			}
		}, func(int) int { return 4 + 3*8 }},
		{roundedFitName, roundedFit, func(weights int) int { return 17 + (5*weights+7)/8 }},
		{"packed, 11 bits", func(w []float64, games int) {
			for i := range w {
				w[i] += math.Ldexp(float64((i+games)%2001-1000), -14)
			}
		}, func(weights int) int { return 17 + (11*weights+7)/8 }},
	} {
		t.Run(tc.name, func(t *testing.T) { checkDistilledLineage(t, tc.name, tc.fit, tc.size) })
	}
}

// roundedFitName names the run distilled by roundedFit (distilledTwin).
const roundedFitName = "packed, 5 bits"

// roundedFit is a stand-in draughts fit: every weight moves by a multiple
// of 2^-12 up to 15, as a rounding fit's step does, spread evenly (kept
// packed, 5 bits a weight).
func roundedFit(w []float64, games int) {
	for i := range w {
		w[i] += math.Ldexp(float64((i+games)%31-15), -12)
	}
}

// rebuildMost keeps two generations of games and one of genomes, with
// keyframes every 2 operations and every member: most genomes are rebuilt
// when read.
func rebuildMost() storage.Retention {
	return storage.Retention{Games: 2, Genomes: 1, Keyframes: 2, Members: -1}
}

// checkDistilledLineage is TestLineageRebuildsDistilledGenomes with the
// stand-in fit fit, its run named name, and the size of its steps in the
// database.
func checkDistilledLineage(t *testing.T, name string, fit func(w []float64, games int), size func(weights int) int) {
	keep := rebuildMost()
	all, kept, keptPath, st := distilledTwin(t, name, fit, nil, keep, 16)
	distilled := query(t, keptPath, "SELECT agent_id FROM genomes WHERE origin = 'distilled' ORDER BY agent_id")
	if len(distilled) != 25 { // generations 2, 5, 8, 11 and 14, five elites each
		t.Fatalf("%d distilled genomes, want 25", len(distilled))
	}
	want := size(st.Agents[0].Net.NumWeights())
	if got := query(t, keptPath, fmt.Sprintf(`SELECT count(*) FROM genomes g JOIN lineage l USING (game, agent_id)
		WHERE g.origin = 'distilled' AND g.genome IS NULL
		  AND (SELECT sum(length(p.bytes)) FROM step_parts p WHERE p.agent_id = coalesce(l.step_of, l.agent_id)) = %d`, want)); got[0] == "0" {
		t.Errorf("no distilled genome is kept as its step alone (%d bytes): %v", want, query(t, keptPath, "SELECT sum(length(bytes)) FROM step_parts GROUP BY agent_id"))
	}
	// In parts of at most 960 bytes, each but the last full.
	if got := query(t, keptPath, `SELECT count(*), sum(n = 1 + max_part) FROM
		(SELECT count(*) AS n, max(part) AS max_part, sum(length(bytes)) AS size, min(length(bytes)) AS least, max(length(bytes)) AS most FROM step_parts GROUP BY agent_id
		 HAVING most <= 960 AND (size + 959) / 960 = n AND (n = 1 OR least = size - 960 * (n - 1) OR most = least))`); strings.Join(got, " ") != "5 5" {
		t.Errorf("the steps laid out right, and of them those numbered 0 to n-1: %v, want 5 and 5", got)
	}
	// Each distillation's step is stored once, by the champion's fitted
	// genome, the first of its generation; the other four name it.
	if got := query(t, keptPath, `SELECT g.born, sum(EXISTS (SELECT 1 FROM step_parts p WHERE p.agent_id = l.agent_id)), count(l.step_of), min(l.agent_id) = min(coalesce(l.step_of, l.agent_id)),
		(SELECT count(*) FROM lineage h WHERE h.agent_id IN (SELECT step_of FROM lineage WHERE step_of IS NOT NULL) AND NOT EXISTS (SELECT 1 FROM step_parts p WHERE p.agent_id = h.agent_id))
		FROM genomes g JOIN lineage l USING (game, agent_id) WHERE g.origin = 'distilled' GROUP BY g.born`); strings.Join(got, " ") != "3 1 4 1 0 6 1 4 1 0 9 1 4 1 0 12 1 4 1 0 15 1 4 1 0" {
		t.Errorf("by generation born: the steps stored, the rows naming another's, whether they name the first, rows named holding none: %v", got)
	}
	checkRebuilds(t, all, kept, keptPath)
}

// TestSharedStepOutlivesItsHolder: the champion's fitted genome holds its
// generation's step, and with a recipe that breeds nothing from the best
// rank it leaves the members window childless, where retention deletes
// such genomes' rows; it must keep this one's while others take their
// step from it, so that they still rebuild.
func TestSharedStepOutlivesItsHolder(t *testing.T) {
	fit := func(w []float64, games int) {
		for i := range w {
			w[i] += math.Ldexp(float64((i+games)%201-100), -12)
		}
	}
	noChildrenOfTheBest := func(c *population.Config) {
		c.Crossovers, c.Mutants = [][2]int{{2, 3}, {2, 4}}, []int{3, 4}
	}
	keep := storage.Retention{Games: 2, Genomes: 1, Keyframes: 2, Members: 2}
	all, kept, keptPath, _ := distilledTwin(t, "no children of the best", fit, noChildrenOfTheBest, keep, 24)
	held := query(t, keptPath, `SELECT count(*) FROM lineage h WHERE EXISTS (SELECT 1 FROM step_parts p WHERE p.agent_id = h.agent_id)
		AND NOT EXISTS (SELECT 1 FROM members m WHERE m.agent_id = h.agent_id)
		AND EXISTS (SELECT 1 FROM lineage r WHERE r.step_of = h.agent_id)`)
	if held[0] == "0" {
		t.Fatal("no step's holder has left the members window: the test would show nothing")
	}
	checkRebuilds(t, all, kept, keptPath)
}

// TestStepsMoveIntoParts: a database of the schema before migration 19,
// its steps in their lineage rows, opens with every step in parts and no
// step column left, and every genome rebuilds bit for bit through them.
func TestStepsMoveIntoParts(t *testing.T) {
	all, kept, keptPath, _ := distilledTwin(t, roundedFitName, roundedFit, nil, rebuildMost(), 16)
	before := query(t, keptPath, "SELECT agent_id, part, hex(bytes) FROM step_parts ORDER BY agent_id, part")
	kept.Close()
	// Back to migration 18: each step whole in its holder's row.
	raw, err := sql.Open("sqlite", "file:"+keptPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		"ALTER TABLE lineage ADD COLUMN step BLOB",
		"UPDATE lineage SET step = (SELECT unhex(group_concat(hex(p.bytes), '')) FROM (SELECT bytes FROM step_parts p WHERE p.agent_id = lineage.agent_id ORDER BY part) p) WHERE agent_id IN (SELECT agent_id FROM step_parts)",
		"DROP TABLE step_parts",
		"DROP TABLE writer",
		"DROP TABLE learners",
		"PRAGMA user_version = 18",
	} {
		if _, err := raw.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	raw.Close()
	if got := query(t, keptPath, "SELECT count(*), min(length(step)) FROM lineage WHERE step IS NOT NULL"); strings.Join(got, " ") != "5 2581" {
		t.Fatalf("the database of migration 18 holds steps (count, least length) %v, want 5 of 2581 bytes", got)
	}
	reopened := mustOpen(t, keptPath)
	if after := query(t, keptPath, "SELECT agent_id, part, hex(bytes) FROM step_parts ORDER BY agent_id, part"); !slices.Equal(after, before) {
		t.Errorf("after migration 19 the parts are %d values, want the %d a run writes", len(after), len(before))
	}
	if got := query(t, keptPath, "SELECT count(*) FROM pragma_table_info('lineage') WHERE name = 'step'"); got[0] != "0" {
		t.Error("the lineage table keeps its step column")
	}
	checkRebuilds(t, all, reopened, keptPath)
}

// TestMissingStepPartIsNamed: a distilled genome whose step lost a part
// does not rebuild, and the error names the step and the part.
func TestMissingStepPartIsNamed(t *testing.T) {
	_, kept, keptPath, _ := distilledTwin(t, roundedFitName, roundedFit, nil, rebuildMost(), 8)
	rows := query(t, keptPath, `SELECT l.agent_id, coalesce(l.step_of, l.agent_id) FROM lineage l JOIN genomes g USING (game, agent_id)
		WHERE l.op = 'distill' AND g.genome IS NULL ORDER BY l.agent_id LIMIT 1`)
	if len(rows) != 1 {
		t.Fatal("no distilled genome is rebuilt")
	}
	var id, holder int64
	if _, err := fmt.Sscan(rows[0], &id, &holder); err != nil {
		t.Fatal(err)
	}
	kept.Close()
	raw, err := sql.Open("sqlite", "file:"+keptPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("DELETE FROM step_parts WHERE agent_id = ? AND part = 1", holder); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	db := mustOpen(t, keptPath)
	_, err = db.Genome(context.Background(), "draughts", id)
	want := fmt.Sprintf("step of draughts agent %d: %v: part 1 missing", holder, storage.ErrLineage)
	if !errors.Is(err, storage.ErrLineage) || !strings.Contains(err.Error(), want) {
		t.Errorf("genome %d with its step's part 1 gone: %v, want %q", id, err, want)
	}
	// The check names every genome made with the step: its holder and
	// the four elites that name it.
	problems, err := db.CheckLineage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	users := query(t, keptPath, "SELECT agent_id FROM lineage WHERE agent_id = ?1 OR step_of = ?1 ORDER BY agent_id", holder)
	var named []string
	for _, p := range problems {
		if !p.Step || !strings.Contains(p.String(), "the step of its distillation damaged") || !strings.Contains(p.What, want) {
			t.Errorf("problem %q, want the step's", p)
		}
		named = append(named, strconv.FormatInt(p.AgentID, 10))
	}
	if len(users) != 5 || !slices.Equal(named, users) {
		t.Errorf("the check names %v, want the step's five genomes %v", named, users)
	}
}

// distilledTwin plays generations of a run that distills its champion
// every 3 generations with the stand-in fit fit, its configuration
// edited by edit (if set), into a database keeping everything (all) and
// one kept by keep (kept, at keptPath), and returns them with the last
// population. The run is named name: one name, one fit and edit (step).
func distilledTwin(t *testing.T, name string, fit func(w []float64, games int), edit func(*population.Config), keep storage.Retention, generations int) (all, kept *storage.DB, keptPath string, st *population.State) {
	t.Helper()
	ctx := context.Background()
	cfg := testConfig()
	cfg.ChampionGames = 0 // the distillation replaces the title's holder
	cfg.DistillEvery = 3
	if edit != nil {
		edit(&cfg)
	}
	sp := fitEnv{species, fit}
	dir := t.TempDir()
	keptPath = filepath.Join(dir, "kept.db")
	all, kept = mustOpen(t, filepath.Join(dir, "all.db")), mustOpen(t, keptPath)
	st, err := population.New("draughts", nnet.NumDraughtsInputs, cfg, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, db := range []*storage.DB{all, kept} {
		if err := db.CreateRun(ctx, storage.Run{Game: "draughts", Seed: 4, Config: "{}", CreatedAt: time.Now(), Steps: cfg.Steps()}, daemon.PopulationRows(st)); err != nil {
			t.Fatal(err)
		}
	}
	for range generations {
		next, rep := step(t, name, sp, cfg, st)
		if err := all.CommitGeneration(ctx, record(rep), daemon.PopulationRows(next), storage.KeepEverything()); err != nil {
			t.Fatal(err)
		}
		if err := kept.CommitGeneration(ctx, record(rep), daemon.PopulationRows(next), keep); err != nil {
			t.Fatal(err)
		}
		st = next
	}
	return all, kept, keptPath, st
}

// checkRebuilds checks that every genome kept (at keptPath) reads back as
// all has it, bit for bit, and that the lineage check finds nothing.
func checkRebuilds(t *testing.T, all, kept *storage.DB, keptPath string) {
	t.Helper()
	ctx := context.Background()
	for _, s := range query(t, keptPath, "SELECT agent_id FROM genomes ORDER BY agent_id") {
		id, _ := strconv.ParseInt(s, 10, 64)
		want, err := all.Genome(ctx, "draughts", id)
		if err != nil {
			t.Fatal(err)
		}
		got, err := kept.Genome(ctx, "draughts", id)
		if errors.Is(err, storage.ErrPruned) {
			continue
		}
		if err != nil {
			t.Fatalf("genome %d: %v", id, err)
		}
		if !got.Equal(want) {
			t.Fatalf("genome %d rebuilt differs from the one bred", id)
		}
	}
	if p, err := kept.CheckLineage(ctx); err != nil || len(p) != 0 {
		t.Errorf("check: problems %v, %v", p, err)
	}
}

// fitEnv is a Local Env whose distillation moves the champion's weights
// by fit instead of searching.
type fitEnv struct {
	population.Local[draughts.Move, *draughts.Game]
	fit func(w []float64, games int)
}

// Distill returns net with its weights moved by e.fit.
func (e fitEnv) Distill(_ context.Context, _ games.Binding[draughts.Move, *draughts.Game], net *nnet.Net, records []tournament.Record[draughts.Move], _ int64,
	_ uint64, _ int, _ distill.Options) (*nnet.Net, distill.Report, error) {
	w := net.Weights()
	e.fit(w, len(records))
	n, err := net.WithWeights(w)
	return n, distill.Report{Games: len(records)}, err
}

package storage_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"evolved/daemon"
	"evolved/longtest"
	"evolved/population"
	"evolved/storage"
)

// twin holds two databases that record the same run: one keeps
// everything, the other applies a retention as it commits.
type twin struct {
	all, kept         *storage.DB
	allPath, keptPath string
	keep              storage.Retention
	st                *population.State
}

func newTwin(t *testing.T, keep storage.Retention) *twin {
	t.Helper()
	dir := t.TempDir()
	tw := &twin{allPath: filepath.Join(dir, "all.db"), keptPath: filepath.Join(dir, "kept.db"), keep: keep}
	tw.all, tw.kept = mustOpen(t, tw.allPath), mustOpen(t, tw.keptPath)
	tw.st = newRun(t, tw.all, 9)
	if err := tw.kept.CreateRun(context.Background(), storage.Run{Game: "draughts", Seed: 9, Config: "{}", Steps: testConfig().Steps()}, daemon.PopulationRows(tw.st)); err != nil {
		t.Fatal(err)
	}
	return tw
}

// play plays n generations of the run of seed 9 (newTwin), as played
// once for the package (step), and commits each to both databases.
func (tw *twin) play(t *testing.T, n int) {
	t.Helper()
	ctx := context.Background()
	for range n {
		next, rep := step(t, "seed 9", species, testConfig(), tw.st)
		if err := tw.all.CommitGeneration(ctx, record(rep), daemon.PopulationRows(next), storage.KeepEverything()); err != nil {
			t.Fatal(err)
		}
		if err := tw.kept.CommitGeneration(ctx, record(rep), daemon.PopulationRows(next), tw.keep); err != nil {
			t.Fatal(err)
		}
		tw.st = next
	}
}

// sameChampions checks that the first n generations' champions export the
// same from both databases, bit for bit, in both agent formats.
func (tw *twin) sameChampions(t *testing.T, n int) {
	t.Helper()
	ctx := context.Background()
	for g := range n {
		a, errA := tw.all.Champion(ctx, "draughts", g)
		k, errK := tw.kept.Champion(ctx, "draughts", g)
		if errA != nil || errK != nil {
			t.Fatalf("champion %d: %v, %v", g, errA, errK)
		}
		ab, _ := a.Net.MarshalBinary()
		kb, _ := k.Net.MarshalBinary()
		aj, _ := a.Net.MarshalJSON()
		kj, _ := k.Net.MarshalJSON()
		if !bytes.Equal(ab, kb) || !bytes.Equal(aj, kj) || a.AgentID != k.AgentID {
			t.Fatalf("champion of generation %d differs after retention", g)
		}
	}
}

// query returns the rows of q on the database at path, one string a row.
func query(t *testing.T, path, q string, args ...any) []string {
	t.Helper()
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	rows, err := raw.Query(q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(vals...))
	}
	return out
}

func TestRetentionKeepsWhatIsNeeded(t *testing.T) {
	ctx := context.Background()
	keep := storage.Retention{Games: 2, Genomes: 1, Members: -1}
	tw := newTwin(t, keep)
	tw.play(t, 8) // generations 0..7 played; the population of 8 waits
	const latest = 7

	// Games: only the last two played generations keep theirs.
	if got := query(t, tw.keptPath, "SELECT DISTINCT generation FROM games ORDER BY 1"); !slices.Equal(got, []string{"6", "7"}) {
		t.Errorf("generations with games: %v, want [6 7]", got)
	}
	if a, k := query(t, tw.allPath, "SELECT count(*) FROM games WHERE generation >= 6"), query(t, tw.keptPath, "SELECT count(*) FROM games"); !slices.Equal(a, k) {
		t.Errorf("kept %v games of generations 6 and 7, want all %v", k, a)
	}

	// Genomes: computed here from the full database, by another route than
	// the retention's query: every champion, and every member of the
	// generations after latest - Genomes (the current population included).
	want := map[string]bool{}
	for _, id := range query(t, tw.allPath, "SELECT champion_id FROM generations") {
		want[id] = true
	}
	for _, id := range query(t, tw.allPath, "SELECT agent_id FROM members WHERE generation > ?", latest-keep.Genomes) {
		want[id] = true
	}
	kept := query(t, tw.keptPath, "SELECT agent_id FROM genomes WHERE genome IS NOT NULL ORDER BY agent_id")
	var wantList []string
	for _, id := range query(t, tw.allPath, "SELECT agent_id FROM genomes ORDER BY agent_id") {
		if want[id] {
			wantList = append(wantList, id)
		}
	}
	if !slices.Equal(kept, wantList) {
		t.Errorf("genomes kept %v, want %v", kept, wantList)
	}
	if len(kept) == len(query(t, tw.allPath, "SELECT agent_id FROM genomes")) {
		t.Fatal("retention dropped no genome; the test needs some dropped")
	}
	// The public views: every baseline match with its generation's time,
	// and every generation's database size.
	views := query(t, tw.keptPath, `SELECT (SELECT count(*) FROM baseline_history), (SELECT count(*) FROM baselines),
		(SELECT count(*) FROM generation_summary WHERE db_bytes > 0), (SELECT count(*) FROM baseline_history WHERE created_at IS NULL)`)
	// Baselines every 2 generations: random in 0, 2, 4, 6, and the
	// champion of half as many generations ago in 2, 4, 6.
	if views[0] != "7 7 8 0" {
		t.Errorf("baseline_history rows, baselines rows, generations with a size, rows without a time: %s, want 7 7 8 0", views[0])
	}
	// Every genome row stays, with its lineage.
	lineage := "SELECT agent_id, born, origin, parents, coalesce(node, '') FROM genomes ORDER BY agent_id"
	if a, k := query(t, tw.allPath, lineage), query(t, tw.keptPath, lineage); !slices.Equal(a, k) {
		t.Error("the genome rows' lineage differs after retention")
	}

	// Every champion exports bit for bit, and the run resumes identically.
	tw.sameChampions(t, latest+1)
	sa, err := loadState(ctx, tw.all)
	if err != nil {
		t.Fatal(err)
	}
	sk, err := loadState(ctx, tw.kept)
	if err != nil {
		t.Fatalf("resume after retention: %v", err)
	}
	if a, k := mustJSON(t, sa), mustJSON(t, sk); !bytes.Equal(a, k) {
		t.Error("the state loaded after retention differs from the full database's")
	}

	// Prune over the full database catches up to exactly what the
	// commits' retention left.
	p, err := tw.all.Prune(ctx, keep)
	if err != nil {
		t.Fatal(err)
	}
	if p.Games == 0 || p.Genomes == 0 {
		t.Errorf("Prune dropped %+v, want games and genomes", p)
	}
	for _, q := range []string{"SELECT game, generation, kind, idx, moves FROM games ORDER BY 1, 2, 3, 4",
		"SELECT agent_id, hex(genome) FROM genomes ORDER BY agent_id"} {
		if a, k := query(t, tw.allPath, q), query(t, tw.keptPath, q); !slices.Equal(a, k) {
			t.Errorf("%s: Prune on the full database left %d rows, the commits' retention %d", q, len(a), len(k))
		}
	}
	if again, err := tw.all.Prune(ctx, keep); err != nil || again != (storage.Pruned{}) {
		t.Errorf("a second Prune dropped %+v, %v; want nothing", again, err)
	}

	// Vacuum gives the freed pages back.
	before, _ := tw.all.Size(ctx)
	freed, err := tw.all.Vacuum(ctx)
	after, _ := tw.all.Size(ctx)
	if err != nil || freed <= 0 || after.Free != 0 || after.Bytes != before.Bytes-freed {
		t.Errorf("Vacuum freed %d (%v): %+v -> %+v", freed, err, before, after)
	}

	// A pruned genome is named as such, never read as garbage.
	var pruned int64
	for _, id := range query(t, tw.allPath, "SELECT agent_id FROM genomes WHERE genome IS NULL LIMIT 1") {
		fmt.Sscan(id, &pruned)
	}
	if _, err := tw.kept.Genome(ctx, "draughts", pruned); !errors.Is(err, storage.ErrPruned) {
		t.Errorf("Genome(%d) after retention: %v, want ErrPruned", pruned, err)
	}
}

func TestDatabaseSizeStaysBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("long: 50 generations (skipped with -short)")
	}
	// Half the run fills the retention windows (20 generations of games),
	// the other half is measured: 25 generations each (the 50 other tests
	// play of the same run), or 150 with the long tests.
	half := 25
	if longtest.Enabled() {
		half = 150
	}
	ctx := context.Background()
	tw := newTwin(t, storage.Retention{Games: 20, Genomes: 5, Members: -1})
	used := func(db *storage.DB) int64 {
		s, err := db.Size(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return s.Bytes - s.Free
	}
	tw.play(t, half)
	allMid, keptMid := used(tw.all), used(tw.kept)
	tw.play(t, half)
	allGrowth, keptGrowth := used(tw.all)-allMid, used(tw.kept)-keptMid
	var genome int64
	fmt.Sscan(query(t, tw.keptPath, "SELECT max(length(genome)) FROM genomes")[0], &genome)
	champions := len(query(t, tw.keptPath, "SELECT DISTINCT champion_id FROM generations WHERE generation >= ?", half))
	// What may grow: the new champions' genomes (a page of slack each: a
	// blob ends in a partly filled overflow page), and per generation its
	// rows (summary, 15 members, lineage, ladder, baselines) with their
	// index entries and the B-trees' half-empty pages, under 8 KiB.
	bound := int64(champions)*(genome+4096) + int64(half)*8192
	t.Logf("generations %d-%d: kept database grew %s (bound %s: %d new champions of %d B), full database %s",
		half, 2*half-1, storage.FormatBytes(keptGrowth), storage.FormatBytes(bound), champions, genome, storage.FormatBytes(allGrowth))
	if keptGrowth > bound {
		t.Errorf("the database grew %d bytes over %d generations, more than the bound %d", keptGrowth, half, bound)
	}
	if keptGrowth*3 > allGrowth {
		t.Errorf("retention saved too little: %d bytes against %d without it", keptGrowth, allGrowth)
	}
	// Every champion still exports bit for bit.
	tw.sameChampions(t, 2*half)
}

func TestLoadCurvesReadsBaselinesWithIntervals(t *testing.T) {
	ctx := context.Background()
	tw := newTwin(t, storage.KeepEverything())
	tw.play(t, 5)
	c, err := tw.all.LoadCurves(ctx, "draughts")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Generations) != 5 || len(c.Best) != 5 || len(c.LadderMean) != 5 {
		t.Fatalf("curves of %d generations (%d best, %d ladder), want 5", len(c.Generations), len(c.Best), len(c.LadderMean))
	}
	var got []string
	for _, name := range []string{"random", storage.HalfAgoChampion} {
		for _, p := range c.Baselines[name] {
			got = append(got, fmt.Sprint(p.Generation, p.Score, p.Elo, p.EloCI))
		}
	}
	// The same numbers, straight from the public view: random first, then
	// the champions of half as many generations ago.
	want := query(t, tw.allPath, `SELECT generation, score, elo, elo_ci FROM baseline_history
		ORDER BY opponent LIKE 'champion:%', generation`)
	if !slices.Equal(got, want) || len(want) != 5 {
		t.Errorf("curves' baselines %v, want %v (random in 0, 2, 4; champions in 2, 4)", got, want)
	}
}

// TestSampleFitness checks the generations a sparkline samples, spread
// from the first to the latest, and their champions' fitness.
func TestSampleFitness(t *testing.T) {
	ctx := context.Background()
	tw := newTwin(t, storage.KeepEverything())
	tw.play(t, 10)
	got, err := tw.all.SampleFitness(ctx, "draughts", 4)
	if err != nil {
		t.Fatal(err)
	}
	var gens []int
	for _, s := range got {
		gens = append(gens, s.Generation)
		if want := query(t, tw.allPath, "SELECT best_fitness FROM generations WHERE generation = ?", s.Generation)[0]; fmt.Sprint(s.Best) != want {
			t.Errorf("generation %d: fitness %v, want %s", s.Generation, s.Best, want)
		}
	}
	if !slices.Equal(gens, []int{0, 3, 6, 9}) {
		t.Errorf("sampled generations %v, want [0 3 6 9]", gens)
	}
	// More points than generations: each generation once.
	if got, _ := tw.all.SampleFitness(ctx, "draughts", 50); len(got) != 10 {
		t.Errorf("50 points of 10 generations: %d samples", len(got))
	}
}

// TestGenomeBytesNarrowsTheWindow checks Retention.GenomeBytes: a cap of
// two generations' genomes (the population times its largest genome)
// keeps what a window of two generations keeps, genome for genome, where
// the ten of Genomes alone keep more, and every champion still exports
// as the run bred it.
func TestGenomeBytesNarrowsTheWindow(t *testing.T) {
	probe := newTwin(t, storage.KeepEverything())
	probe.play(t, 1)
	members := query(t, probe.allPath, "SELECT count(*) FROM members WHERE generation = 0")
	largest := query(t, probe.allPath, "SELECT max(length(genome)) FROM genomes")
	var m, l int64
	fmt.Sscan(members[0], &m)
	fmt.Sscan(largest[0], &l)
	if m == 0 || l == 0 {
		t.Fatalf("members %v, largest genome %v", members, largest)
	}
	capped := newTwin(t, storage.Retention{Games: -1, Genomes: 10, GenomeBytes: 2*m*l + m*l/2, Keyframes: storage.DefaultKeyframes, Members: -1})
	two := newTwin(t, storage.Retention{Games: -1, Genomes: 2, Keyframes: storage.DefaultKeyframes, Members: -1})
	ten := newTwin(t, storage.Retention{Games: -1, Genomes: 10, Keyframes: storage.DefaultKeyframes, Members: -1})
	for _, tw := range []*twin{capped, two, ten} {
		tw.play(t, 8)
	}
	whole := func(tw *twin) []string {
		return query(t, tw.keptPath, "SELECT agent_id FROM genomes WHERE genome IS NOT NULL ORDER BY agent_id")
	}
	if got, want := whole(capped), whole(two); !slices.Equal(got, want) {
		t.Errorf("capped at two generations' bytes, whole genomes %v; a window of 2 keeps %v", got, want)
	}
	if got, wide := whole(capped), whole(ten); len(got) >= len(wide) {
		t.Errorf("the cap kept %d whole genomes, the window of 10 %d: the cap did nothing", len(got), len(wide))
	}
	capped.sameChampions(t, 8)
}

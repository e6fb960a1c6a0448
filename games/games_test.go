package games_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"evolved/games"
	"evolved/search"
	"evolved/tournament"
)

// mustSpec returns the constructor of players of spec in game k.
func mustSpec[M comparable, S search.Game[M]](t *testing.T, k games.Kind[M, S], spec string) func() search.Player[M, S] {
	t.Helper()
	s, err := k.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return s.New
}

// TestPerftThroughLookup counts the published perft numbers of each game
// through the type-free Info that the perft command uses: chess 20, 400,
// 8,902 (chessprogramming.org, Perft Results), English draughts 7, 49, 302
// (OEIS A133046 and Aart Bik's published counts), xiangqi 44, 1,920,
// 79,666 (chessprogramming.org, Chinese Chess Perft Results).
func TestPerftThroughLookup(t *testing.T) {
	want := map[string][]uint64{
		"chess":    {20, 400, 8902},
		"draughts": {7, 49, 302},
		"xiangqi":  {44, 1920, 79666},
	}
	for _, name := range games.Names() {
		g, err := games.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for d, n := range want[name] {
			if got, err := g.Perft("", d+1); err != nil || got != n {
				t.Errorf("%s perft(%d) = %d, %v; want %d", name, d+1, got, err, n)
			}
		}
		lines, err := g.Divide("", 2)
		var sum uint64
		for _, l := range lines {
			sum += l.Nodes
		}
		if err != nil || sum != want[name][1] || len(lines) != int(want[name][0]) {
			t.Errorf("%s divide(2): %d root moves, %d leaves, %v; want %d and %d", name, len(lines), sum, err, want[name][0], want[name][1])
		}
	}
	if _, err := games.Lookup("go"); !errors.Is(err, games.ErrUnknown) || !strings.Contains(err.Error(), `"go" (known: draughts, chess, xiangqi)`) {
		t.Errorf("Lookup(go) = %v", err)
	}
	if _, err := games.Draughts().Info().Perft("B:W33", 1); err == nil || !strings.Contains(err.Error(), "square 33") {
		t.Errorf("perft from a bad FEN: %v", err)
	}
}

// TestMatchRecordsRoundTrip writes a match's games with each game's
// writer and reads them back: the players sit in the tags in move order,
// and the start, moves and result come back as they were.
func TestMatchRecordsRoundTrip(t *testing.T) {
	t.Run("draughts", func(t *testing.T) { roundTrip(t, games.Draughts(), "B:W18,24,27,28:BK10,K15") })
	t.Run("chess", func(t *testing.T) { roundTrip(t, games.Chess(), "") })
	t.Run("xiangqi", func(t *testing.T) { roundTrip(t, games.Xiangqi(), "") })
}

func roundTrip[M comparable, S search.Game[M]](t *testing.T, k games.Kind[M, S], fen string) {
	setup := games.Setup{MaxMoves: 20, OpeningPlies: 2}
	arena := k.Arena(setup)
	if fen != "" {
		var err error
		if arena, err = k.FromPosition(arena, setup, fen); err != nil {
			t.Fatal(err)
		}
	}
	r, err := tournament.Match(t.Context(), arena, mustSpec(t, k, "random"), mustSpec(t, k, "material:1"),
		tournament.MatchOptions{Games: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	for i, rec := range r.Records {
		if err := k.WriteRecord(&buf, k.MatchRecord("test", i, rec, r.AFirst[i], "random", "material:1", fen)); err != nil {
			t.Fatal(err)
		}
	}
	back, err := k.ReadRecords(&buf)
	if err != nil || len(back) != 2 {
		t.Fatalf("read back %d records: %v\n%s", len(back), err, buf.String())
	}
	wantStart := fen
	if fen == "" {
		g, _ := k.NewGame("", setup)
		wantStart = k.FEN(g)
	}
	for i, rec := range back {
		first, second := "random", "material:1"
		if !r.AFirst[i] {
			first, second = second, first
		}
		tags := map[string]string{}
		for _, t := range rec.Tags {
			tags[t[0]] = t[1]
		}
		if tags[k.RecordTags[0]] != first || tags[k.RecordTags[1]] != second || tags["Round"] != []string{"1", "2"}[i] {
			t.Errorf("game %d tags %v: want %s %s and %s %s", i, rec.Tags, k.RecordTags[0], first, k.RecordTags[1], second)
		}
		if rec.Start != wantStart || len(rec.Moves) != len(r.Records[i].Moves) || rec.Result != k.ResultTag(r.Records[i].Outcome.Result) ||
			rec.Outcome != r.Records[i].Outcome.Result {
			t.Errorf("game %d read back from %q with %d moves and %q (%v); want %q, %d and %q (%v)", i, rec.Start, len(rec.Moves), rec.Result, rec.Outcome,
				wantStart, len(r.Records[i].Moves), k.ResultTag(r.Records[i].Outcome.Result), r.Records[i].Outcome.Result)
		}
		for j, m := range rec.Moves {
			if m != r.Records[i].Moves[j] {
				t.Errorf("game %d move %d differs", i, j+1)
				break
			}
		}
	}
}

package web_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"evolved/game/chess"
	"evolved/game/draughts"
	"evolved/game/xiangqi"
	"evolved/storage"
	"evolved/web"
)

// openFixture opens the fixture read-only for the expected values.
func openFixture(t *testing.T) *storage.DB {
	t.Helper()
	db, err := storage.Open(context.Background(), fixtureDB(t), storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestPagesShowTheDatabase(t *testing.T) {
	db := openFixture(t)
	ctx := context.Background()
	_, ts := newServer(t, web.Options{Version: "test"})
	champ, err := db.Champion(ctx, "xiangqi", 2)
	if err != nil {
		t.Fatal(err)
	}
	members, err := db.Members(ctx, "draughts", 1)
	if err != nil {
		t.Fatal(err)
	}
	// The chess run's hours of evolution: its generations' seconds.
	var chessSeconds float64
	chessRows, err := db.Champions(ctx, "chess")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range chessRows {
		chessSeconds += r.Seconds
	}
	chessHours := fmt.Sprintf("<dt>Hours of evolution</dt><dd>%.2f</dd>", chessSeconds/3600)
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"/", []string{`href="/games/draughts"`, `href="/games/chess"`, `href="/games/xiangqi"`,
			"1523 ± 61", "stockfish-uci-elo", "aco", "material:1"}},
		{"/games/chess", []string{"1523", chessHours, `data-src="/api/games/chess/curves"`, `/api/games/chess/champions/2/agent`,
			`href="/games/chess/generations/0"`, `data-game="chess" aria-busy="true"`, `<p class="chart-loading">Loading the curves…</p>`}},
		{"/games/xiangqi/generations/2", []string{fmt.Sprintf("Champion: agent %d", champ.AgentID), `rel="prev"`,
			`href="/games/xiangqi/generations/2/games/tournament/0"`}},
		{"/games/draughts/generations/1", []string{fmt.Sprintf("<td class=\"num\">%d</td>", members[3].AgentID), members[5].Origin}},
		{"/games/chess/generations/0/games/tournament/1", []string{`data-src="/api/games/chess/generations/0/games/tournament/1"`}},
		{"/play", []string{`id="play"`, `<option`}},
	} {
		status, body, h := get(t, nil, ts.URL+tc.path)
		if status != http.StatusOK {
			t.Errorf("GET %s: %d, want 200: %.300s", tc.path, status, body)
			continue
		}
		if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") {
			t.Errorf("GET %s: Content-Security-Policy %q", tc.path, csp)
		}
		for _, w := range tc.want {
			if !strings.Contains(body, w) {
				t.Errorf("GET %s: the page lacks %q", tc.path, w)
			}
		}
		// No inline script or style: the policy would block them.
		if regexp.MustCompile(`<script>|<script [^>]*>[^<]|style="`).MatchString(body) {
			t.Errorf("GET %s: the page has an inline script or style", tc.path)
		}
	}
}

func TestAPIAnswersWhatTheDatabaseHolds(t *testing.T) {
	db := openFixture(t)
	ctx := context.Background()
	_, ts := newServer(t, web.Options{})

	var status struct {
		Runs []struct {
			Game       string `json:"game"`
			Generation int    `json:"generation"`
			Games      int64  `json:"games"`
			Rating     *struct {
				Elo float64 `json:"elo"`
			} `json:"rating"`
		} `json:"runs"`
		Meta []struct{ Method string } `json:"meta"`
	}
	getJSON(t, ts.URL+"/api/status", &status)
	want, err := db.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(status.Runs) != 3 || len(status.Meta) != 1 || status.Meta[0].Method != "aco" {
		t.Fatalf("status: %+v", status)
	}
	for i, r := range status.Runs {
		if r.Game != want[i].Game || r.Generation != 3 || r.Games != want[i].Games || r.Games == 0 {
			t.Errorf("status run %d = %+v, want %s, 3 generations, %d games", i, r, want[i].Game, want[i].Games)
		}
		if (r.Rating != nil) != (r.Game == "chess") || r.Game == "chess" && r.Rating.Elo != testRating.Elo {
			t.Errorf("status run %s rating %+v, want %v for chess only", r.Game, r.Rating, testRating.Elo)
		}
	}

	var curves struct {
		Generations []int                        `json:"generations"`
		Best        []float64                    `json:"best"`
		LadderGens  []int                        `json:"ladder_generations"`
		Ladder      []float64                    `json:"ladder"`
		Baselines   map[string][]json.RawMessage `json:"baselines"`
		Ratings     []struct{ Generation int }   `json:"ratings"`
	}
	getJSON(t, ts.URL+"/api/games/chess/curves", &curves)
	c, err := db.LoadCurves(ctx, "chess")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(curves.Generations, []int{0, 1, 2}) || !slices.Equal(curves.Best, c.Best) ||
		!slices.Equal(curves.LadderGens, c.LadderGenerations) || !slices.Equal(curves.Ladder, c.LadderMean) || len(curves.Ladder) != 3 ||
		len(curves.Baselines["random"]) != 2 || len(curves.Ratings) != 1 || curves.Ratings[0].Generation != 1 {
		t.Errorf("curves = %+v, want 3 generations, best %v, 2 baseline points, the rating of generation 1", curves, c.Best)
	}
	// Each baseline score comes with its number of games, for the
	// interval of a score of 0 or 1; the fixture has such a score and
	// another (for the browser test's intervals).
	sqlDB, err := sql.Open("sqlite", "file:"+fixtureDB(t)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer sqlDB.Close()
	kinds := map[bool]int{}
	for opp, points := range curves.Baselines {
		for _, raw := range points {
			var p struct {
				Generation, Games int
				Score             float64
			}
			if err := json.Unmarshal(raw, &p); err != nil {
				t.Fatal(err)
			}
			name := opp
			if opp == storage.HalfAgoChampion {
				name = "champion:%"
			}
			var games int
			if err := sqlDB.QueryRowContext(ctx, "SELECT wins + draws + losses FROM baselines WHERE game = 'chess' AND generation = ? AND opponent LIKE ?",
				p.Generation, name).Scan(&games); err != nil {
				t.Fatal(err)
			}
			if p.Games != games || games == 0 {
				t.Errorf("baseline %s at generation %d: %d games, the database %d", opp, p.Generation, p.Games, games)
			}
			kinds[p.Score == 0 || p.Score == 1]++
		}
	}
	if kinds[true] == 0 || kinds[false] == 0 {
		t.Errorf("the fixture's chess baselines: %d scores of 0 or 1, %d others; want both", kinds[true], kinds[false])
	}

	var gen struct {
		Generation int              `json:"generation"`
		Members    []storage.Member `json:"members"`
		Games      []storage.GameSummary
	}
	getJSON(t, ts.URL+"/api/games/draughts/generations/2", &gen)
	members, err := db.Members(ctx, "draughts", 2)
	if err != nil {
		t.Fatal(err)
	}
	games, err := db.GameList(ctx, "draughts", 2)
	if err != nil {
		t.Fatal(err)
	}
	if gen.Generation != 2 || len(gen.Members) != len(members) || len(gen.Games) != len(games) {
		t.Fatalf("generation 2: %d members, %d games; want %d, %d", len(gen.Members), len(gen.Games), len(members), len(games))
	}
	for i := range members {
		m, w := gen.Members[i], members[i]
		if m.AgentID != w.AgentID || m.Origin != w.Origin || m.Points != w.Points || m.Rank != w.Rank || !slices.Equal(m.Parents, w.Parents) {
			t.Errorf("member %d = %+v, want %+v", i, m, w)
		}
	}

	// The fixture's draughts run plays title matches: the generation that
	// played one shows it, in the API and on its page; generation 0 never does.
	matched := 0
	for g := range 3 {
		var v struct {
			Challenge *storage.ChallengeRecord `json:"challenge"`
		}
		getJSON(t, fmt.Sprintf("%s/api/games/draughts/generations/%d", ts.URL, g), &v)
		want, err := db.Challenge(ctx, "draughts", g)
		if err != nil {
			t.Fatal(err)
		}
		if (v.Challenge == nil) != (want == nil) || (want != nil && *v.Challenge != *want) || (g == 0 && want != nil) {
			t.Errorf("generation %d: title match %+v, the database has %+v", g, v.Challenge, want)
		}
		_, page, _ := get(t, nil, fmt.Sprintf("%s/games/draughts/generations/%d", ts.URL, g))
		if shown := strings.Contains(page, `id="title-match"`); shown != (want != nil) {
			t.Errorf("generation %d: the page shows a title match: %v, the database has %+v", g, shown, want)
		}
		if want != nil {
			matched++
			if !strings.Contains(page, fmt.Sprintf("agent %d against the champion of the generation before, agent %d", want.ChallengerID, want.IncumbentID)) {
				t.Errorf("generation %d's page does not name the match's agents %+v", g, want)
			}
		}
	}
	if matched == 0 {
		t.Error("the fixture's draughts run played no title match: the page's was not tested")
	}

	var champs struct {
		Game      string                `json:"game"`
		Champions []storage.ChampionRow `json:"champions"`
	}
	getJSON(t, ts.URL+"/api/games/xiangqi/champions", &champs)
	wantChamps, err := db.Champions(ctx, "xiangqi")
	if err != nil {
		t.Fatal(err)
	}
	if champs.Game != "xiangqi" || len(champs.Champions) != 3 {
		t.Fatalf("champions: %+v", champs)
	}
	for i, c := range champs.Champions {
		if w := wantChamps[i]; c.Generation != w.Generation || c.AgentID != w.AgentID || c.Fitness != w.Fitness || !reflect.DeepEqual(c.LadderMean, w.LadderMean) || c.LadderMean == nil {
			t.Errorf("champion %d = %+v, want %+v", i, c, w)
		}
	}

	var page struct {
		Champions []storage.ChampionRow `json:"champions"`
		Next      *int                  `json:"next"`
	}
	getJSON(t, ts.URL+"/api/games/xiangqi/champions?from=1&limit=1", &page)
	if len(page.Champions) != 1 || page.Champions[0].Generation != 1 || page.Next == nil || *page.Next != 2 {
		t.Errorf("champions from 1, limit 1: %+v", page)
	}
	page.Next = nil
	getJSON(t, ts.URL+"/api/games/xiangqi/champions?from=2", &page)
	if len(page.Champions) != 1 || page.Next != nil {
		t.Errorf("the last page: %+v", page)
	}

	code, body, h := get(t, nil, ts.URL+"/api/games/chess/champions/2/agent")
	if code != http.StatusOK || !strings.Contains(h.Get("Content-Disposition"), `filename="chess-gen2.json"`) {
		t.Fatalf("agent download: %d %v", code, h)
	}
	var file struct {
		Game       string
		Provenance struct{ Generation int } `json:"provenance"`
		Search     struct{ Depth int }      `json:"search"`
	}
	if err := json.Unmarshal([]byte(body), &file); err != nil || file.Game != "chess" || file.Provenance.Generation != 2 || file.Search.Depth != 1 {
		t.Errorf("agent file: %v %+v", err, file)
	}
}

// TestReplayMatchesTheGamePackages replays a stored game of each game
// through the API and checks every board against the game package's own
// positions, read from the stored move text.
func TestReplayMatchesTheGamePackages(t *testing.T) {
	db := openFixture(t)
	ctx := context.Background()
	_, ts := newServer(t, web.Options{})
	for _, game := range []string{"draughts", "chess", "xiangqi"} {
		for _, kind := range []string{"tournament", "baseline"} {
			g, err := db.StoredGameOf(ctx, game, 2, kind, 1)
			if err != nil {
				t.Fatal(err)
			}
			fens := positions(t, game, g.Moves)
			var v struct {
				Result, Reason string
				Replay         struct {
					Boards []struct{ FEN string } `json:"boards"`
					Moves  []string               `json:"moves"`
				} `json:"replay"`
			}
			getJSON(t, fmt.Sprintf("%s/api/games/%s/generations/2/games/%s/1", ts.URL, game, kind), &v)
			if len(v.Replay.Boards) != len(fens) || len(v.Replay.Moves) != len(fens)-1 {
				t.Fatalf("%s %s game: %d boards and %d moves, want %d positions", game, kind, len(v.Replay.Boards), len(v.Replay.Moves), len(fens))
			}
			for i, b := range v.Replay.Boards {
				if b.FEN != fens[i] {
					t.Errorf("%s %s game ply %d: FEN %s, want %s", game, kind, i, b.FEN, fens[i])
					break
				}
			}
			if v.Result != g.Result || v.Reason != g.Reason {
				t.Errorf("%s %s game: result %s %s, want %s %s", game, kind, v.Result, v.Reason, g.Result, g.Reason)
			}
			code, rec, h := get(t, nil, fmt.Sprintf("%s/api/games/%s/generations/2/games/%s/1/record", ts.URL, game, kind))
			if code != http.StatusOK || !strings.Contains(rec, g.Result) || !strings.Contains(h.Get("Content-Disposition"), "attachment") {
				t.Errorf("%s %s record: %d %q", game, kind, code, rec)
			}
		}
	}
}

// positions returns the FEN after each ply of a stored game's move text,
// read by the game package alone.
func positions(t *testing.T, game, text string) []string {
	t.Helper()
	var out []string
	switch game {
	case "chess":
		pg, err := chess.ParsePGN(text)
		if err != nil {
			t.Fatal(err)
		}
		g := chess.NewGame(chess.Start(), chess.Rules{})
		out = append(out, g.Position().FEN())
		for _, m := range pg.Moves {
			g.Make(m)
			out = append(out, g.Position().FEN())
		}
	case "draughts":
		pg, err := draughts.ParsePDN(text)
		if err != nil {
			t.Fatal(err)
		}
		g := draughts.NewGame(draughts.Start(), draughts.Rules{})
		out = append(out, g.Position().FEN())
		for _, m := range pg.Moves {
			g.Make(m)
			out = append(out, g.Position().FEN())
		}
	case "xiangqi":
		recs, err := xiangqi.ReadRecords(strings.NewReader(text))
		if err != nil || len(recs) != 1 {
			t.Fatalf("xiangqi record: %v (%d records)", err, len(recs))
		}
		g := xiangqi.NewGame(xiangqi.Start(), xiangqi.Rules{})
		out = append(out, g.Position().FEN())
		for _, m := range recs[0].Moves {
			g.Make(m)
			out = append(out, g.Position().FEN())
		}
	}
	return out
}

// getJSON fetches url, which must answer 200, into v.
func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	code, body, h := get(t, nil, url)
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, code, body)
	}
	if ct := h.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("GET %s: Content-Type %q", url, ct)
	}
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("GET %s: %v in %.200s", url, err, body)
	}
}

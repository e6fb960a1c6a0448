package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"evolved/storage"
	"evolved/web"
)

// TestBadRequestsAreRefusedAndChangeNothing sends what a confused or
// hostile client might and checks each status and message, and that the
// database file is untouched.
func TestBadRequestsAreRefusedAndChangeNothing(t *testing.T) {
	path := fixtureDB(t)
	before := fileSum(t, path)
	_, ts := newServer(t, web.Options{})
	for _, tc := range []struct {
		method, path, contentType, body string
		status                          int
		msg                             string
	}{
		{"GET", "/api/games/go/curves", "", "", 400, `bad game "go": want one of draughts, chess, xiangqi`},
		{"GET", "/games/checkers", "", "", 400, `bad game "checkers"`},
		{"GET", "/api/games/chess/generations/3", "", "", 404, "chess generation 3: storage: no such generation (3 played)"},
		{"GET", "/api/games/chess/generations/-1", "", "", 400, `bad gen "-1"`},
		{"GET", "/api/games/chess/generations/99999999999", "", "", 400, `bad gen "99999999999"`},
		{"GET", "/games/chess/generations/x", "", "", 400, `bad gen "x"`},
		{"GET", "/api/games/chess/generations/1/games/friendly/0", "", "", 400, `bad kind "friendly": want one of tournament, ladder, baseline`},
		{"GET", "/api/games/chess/generations/1/games/tournament/100000", "", "", 404, "no such game"},
		{"GET", "/api/games/chess/champions/7/agent", "", "", 404, "no such generation"},
		{"GET", "/api/games/chess/champions?limit=0", "", "", 400, `bad limit "0": want a whole number from 1 to 10000`},
		{"GET", "/api/games/chess/champions?from=x", "", "", 400, `bad from "x"`},
		{"GET", "/api/games/chess/curves?points=5", "", "", 400, `bad points "5"`},
		{"GET", "/games/chess?from=-3", "", "", 400, `bad from &#34;-3&#34;`},
		{"GET", "/static/../../../../etc/passwd", "", "", 404, ""},
		{"GET", "/static/", "", "", 404, "no page at /static/"},
		{"GET", "/static/nothing.js", "", "", 404, ""},
		{"GET", "/nowhere", "", "", 404, "no page at /nowhere"},
		{"DELETE", "/api/status", "", "", 405, "DELETE is not allowed on /api/status (allowed: GET)"},
		{"GET", "/api/play/abc/move", "", "", 405, "GET is not allowed on /api/play/abc/move (allowed: POST)"},
		{"GET", "/api/play/opponents?game=go", "", "", 400, `bad game "go"`},
		{"POST", "/api/play", "text/plain", `{"game":"chess"}`, 415, "bad Content-Type"},
		{"POST", "/api/play", "application/json", `{"game":`, 400, "bad request body"},
		{"POST", "/api/play", "application/json", `{"game":"chess","colour":"white"}`, 400, `bad request body: json: unknown field "colour"`},
		{"POST", "/api/play", "application/json", `{"game":"chess"} {"game":"chess"}`, 400, "trailing data"},
		{"POST", "/api/play", "application/json", `{"game":"go"}`, 400, `bad game "go"`},
		{"POST", "/api/play", "application/json", `{"game":"chess","opponent":"uci:/bin/sh"}`, 400, `bad opponent "uci:/bin/sh"`},
		{"POST", "/api/play", "application/json", `{"game":"chess","opponent":"/etc/passwd"}`, 400, `bad opponent "/etc/passwd"`},
		{"POST", "/api/play", "application/json", `{"game":"chess","opponent":"champion:99"}`, 404, "no such generation"},
		{"POST", "/api/play", "application/json", `{"game":"chess","opponent":"random","side":"red"}`, 400, `bad side "red": want one of white, black`},
		{"POST", "/api/play", "application/json", `{"game":"chess","opponent":"` + strings.Repeat("x", 20000) + `"}`, 413, "over the limit"},
		{"POST", "/api/play/0123/move", "application/json", `{"move":"e4"}`, 404, `no game "0123" in play here`},
		{"GET", "/api/play/0123", "", "", 404, "no game"},
	} {
		req, err := http.NewRequest(tc.method, ts.URL+tc.path, strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		if tc.contentType != "" {
			req.Header.Set("Content-Type", tc.contentType)
		}
		code, body, _ := do(t, nil, req)
		if code != tc.status {
			t.Errorf("%s %s: %d, want %d: %.200s", tc.method, tc.path, code, tc.status, body)
			continue
		}
		if strings.HasPrefix(tc.path, "/api/") {
			var e struct{ Error string }
			if err := json.Unmarshal([]byte(body), &e); err != nil || !strings.Contains(e.Error, tc.msg) {
				t.Errorf("%s %s: error %q (%v), want it to say %q", tc.method, tc.path, e.Error, err, tc.msg)
			}
		} else if !strings.Contains(body, strings.ReplaceAll(strings.ReplaceAll(tc.msg, `"`, "&#34;"), "'", "&#39;")) {
			t.Errorf("%s %s: page %.300s does not say %q", tc.method, tc.path, body, tc.msg)
		}
	}
	if fileSum(t, path) != before {
		t.Error("the requests changed the database file")
	}
}

// TestPlayRefusesBadMovesAndKeepsTheGame plays a game through the API:
// an illegal move and a malformed one are refused with the legal moves
// listed, and the game is as it was; a legal move gets the engine's reply.
func TestPlayRefusesBadMovesAndKeepsTheGame(t *testing.T) {
	_, ts := newServer(t, web.Options{})
	var a answer
	postJSON(t, ts.URL+"/api/play", `{"game":"chess","opponent":"pst:2","side":"white"}`, http.StatusCreated, &a)
	if a.ID == "" || len(a.State.Legal) != 20 || len(a.State.Moves) != 0 || a.State.Human != "white" {
		t.Fatalf("new game: %+v", a)
	}
	for move, msg := range map[string]string{
		"e5":  `play: bad move "e5": illegal move: no legal move matches; legal moves: Na3, Nc3, Nf3, Nh3, a3, a4,`,
		"zz":  `play: bad move "zz": cannot read the move`,
		"Ke2": `play: bad move "Ke2"`,
	} {
		code, body, _ := post(t, nil, ts.URL+"/api/play/"+a.ID+"/move", "application/json", `{"move":"`+move+`"}`)
		var e struct{ Error string }
		json.Unmarshal([]byte(body), &e)
		if code != http.StatusBadRequest || !strings.HasPrefix(e.Error, msg) {
			t.Errorf("move %s: %d %s, want 400 saying %q", move, code, body, msg)
		}
	}
	var again answer
	getJSONInto(t, ts.URL+"/api/play/"+a.ID, &again)
	if len(again.State.Moves) != 0 || again.State.Board.FEN != a.State.Board.FEN {
		t.Errorf("refused moves changed the game: %v", again.State.Moves)
	}
	var b answer
	postJSON(t, ts.URL+"/api/play/"+a.ID+"/move", `{"move":"e4"}`, http.StatusOK, &b)
	if len(b.State.Moves) != 2 || b.State.Moves[0] != "e4" || len(b.State.Legal) == 0 || b.State.Figures == "" {
		t.Errorf("after e4: moves %v, %d legal, figures %q", b.State.Moves, len(b.State.Legal), b.State.Figures)
	}
	// The person plays Black: the engine has already moved.
	var c answer
	postJSON(t, ts.URL+"/api/play", `{"game":"xiangqi","opponent":"material:3","side":"black"}`, http.StatusCreated, &c)
	if len(c.State.Moves) != 1 || c.State.Board.ToMove != "black" || len(c.State.Legal) == 0 {
		t.Errorf("xiangqi as Black: %+v", c.State)
	}
}

// TestPlaySessionsAreBounded checks the session limit: a site full of
// games refuses another with 503.
func TestPlaySessionsAreBounded(t *testing.T) {
	_, ts := newServer(t, web.Options{MaxPlays: 2})
	for i := range 2 {
		var a answer
		postJSON(t, ts.URL+"/api/play", `{"game":"draughts","opponent":"random"}`, http.StatusCreated, &a)
		if i == 0 && (a.State.Human != "black" || len(a.State.Legal) != 7) {
			t.Errorf("draughts as Black: %+v", a.State)
		}
	}
	code, body, h := post(t, nil, ts.URL+"/api/play", "application/json", `{"game":"draughts","opponent":"random"}`)
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "too many games") || h.Get("Retry-After") == "" {
		t.Errorf("third game: %d %s", code, body)
	}
}

// TestPlaySessionsPerClient fills one client's share of the games in
// play: its next game is refused with 429 from any of its ports, another
// client still starts one, and a game that ends or idles out frees its
// place.
func TestPlaySessionsPerClient(t *testing.T) {
	const newGame = `{"game":"draughts","opponent":"random"}` // the person moves first
	send := func(s *web.Server, addr, method, path, body string) (int, string, http.Header) {
		req := httptest.NewRequest(method, "http://127.0.0.1"+path, strings.NewReader(body))
		req.RemoteAddr = addr
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		return rec.Code, rec.Body.String(), rec.Header()
	}
	fill := func(s *web.Server, addr string) []answer {
		t.Helper()
		var games []answer
		for i := range web.DefaultMaxPlaysPerClient {
			code, body, _ := send(s, addr, http.MethodPost, "/api/play", newGame)
			var a answer
			if err := json.Unmarshal([]byte(body), &a); code != http.StatusCreated || err != nil {
				t.Fatalf("game %d of %s: %d %s", i+1, addr, code, body)
			}
			games = append(games, a)
		}
		return games
	}
	const over = "you have 4 games in play on this site, the most one client may: finish one, or wait for one you left to end "

	s, _ := newServer(t, web.Options{PlayMaxMoves: 1, WriteRate: 1000})
	games := fill(s, "203.0.113.7:40000")
	for _, tc := range []struct {
		addr, why string
		code      int
	}{
		{"203.0.113.7:40000", "the full client", http.StatusTooManyRequests},
		{"203.0.113.7:40001", "the full client from another port", http.StatusTooManyRequests},
		{"[::ffff:203.0.113.7]:40002", "the full client, IPv4-mapped", http.StatusTooManyRequests},
		{"198.51.100.2:50000", "another client", http.StatusCreated},
	} {
		code, body, h := send(s, tc.addr, http.MethodPost, "/api/play", newGame)
		if code != tc.code {
			t.Errorf("%s (%s): %d %s, want %d", tc.why, tc.addr, code, body, tc.code)
		}
		if code == http.StatusTooManyRequests && (!strings.Contains(body, over+"30m0s after its last move") || h.Get("Retry-After") == "") {
			t.Errorf("%s: %s, Retry-After %q; want it to say %q", tc.why, body, h.Get("Retry-After"), over)
		}
	}
	// One move each and the game is drawn (PlayMaxMoves 1): it is over.
	code, body, _ := send(s, "203.0.113.7:40000", http.MethodPost, "/api/play/"+games[0].ID+"/move", `{"move":"`+games[0].State.Legal[0].Text+`"}`)
	if code != http.StatusOK || !strings.Contains(body, `"over":true`) {
		t.Fatalf("the move that ends the game: %d %s", code, body)
	}
	if code, body, _ := send(s, "203.0.113.7:40000", http.MethodPost, "/api/play", newGame); code != http.StatusCreated {
		t.Errorf("after a game ended: %d %s, want 201", code, body)
	}
	if code, _, _ := send(s, "203.0.113.7:40000", http.MethodGet, "/api/play/"+games[0].ID+"/record", ""); code != http.StatusOK {
		t.Errorf("the ended game's record: %d, want 200", code)
	}

	idle, _ := newServer(t, web.Options{PlayIdle: 500 * time.Millisecond})
	fill(idle, "[2001:db8:1:2::7]:40000")
	if code, body, _ := send(idle, "[2001:db8:1:2::8]:40000", http.MethodPost, "/api/play", newGame); code != http.StatusTooManyRequests {
		t.Errorf("another address of the same IPv6 /64: %d %s, want 429", code, body)
	}
	time.Sleep(600 * time.Millisecond)
	if code, body, _ := send(idle, "[2001:db8:1:2::7]:40000", http.MethodPost, "/api/play", newGame); code != http.StatusCreated {
		t.Errorf("after the games idled out: %d %s, want 201", code, body)
	}
}

// TestPlayToTheEnd plays a whole game of each kind against the random
// player, always choosing the first legal move, until it is over.
func TestPlayToTheEnd(t *testing.T) {
	_, ts := newServer(t, web.Options{PlayMaxMoves: 30, WriteRate: 1000})
	for _, game := range []string{"draughts", "chess", "xiangqi"} {
		var a answer
		postJSON(t, ts.URL+"/api/play", `{"game":"`+game+`","opponent":"random"}`, http.StatusCreated, &a)
		for plies := 0; !a.State.Over; plies++ {
			if plies > 200 || len(a.State.Legal) == 0 {
				t.Fatalf("%s: not over after %d plies, %d legal moves", game, plies, len(a.State.Legal))
			}
			postJSON(t, ts.URL+"/api/play/"+a.ID+"/move", `{"move":"`+a.State.Legal[0].Text+`"}`, http.StatusOK, &a)
		}
		if a.State.Result == "*" || a.State.Outcome == "" || len(a.State.Legal) != 0 {
			t.Errorf("%s over: result %q outcome %q", game, a.State.Result, a.State.Outcome)
		}
		code, body, _ := post(t, nil, ts.URL+"/api/play/"+a.ID+"/move", "application/json", `{"move":"x"}`)
		if code != http.StatusConflict || !strings.Contains(body, "the game is over") {
			t.Errorf("%s: a move after the end: %d %s", game, code, body)
		}
		code, rec, _ := get(t, nil, ts.URL+"/api/play/"+a.ID+"/record")
		if code != http.StatusOK || !strings.Contains(rec, a.State.Result) {
			t.Errorf("%s record: %d %s", game, code, rec)
		}
	}
}

// answer is the play API's answer.
type answer struct {
	ID    string `json:"id"`
	State struct {
		Board struct {
			FEN    string `json:"fen"`
			ToMove string `json:"to_move"`
		} `json:"board"`
		Moves   []string                `json:"moves"`
		Legal   []struct{ Text string } `json:"legal"`
		Human   string                  `json:"human"`
		Over    bool                    `json:"over"`
		Result  string                  `json:"result"`
		Outcome string                  `json:"outcome"`
		Figures string                  `json:"figures"`
	} `json:"state"`
}

// postJSON posts body and decodes the answer, which must have status.
func postJSON(t *testing.T, url, body string, status int, v any) {
	t.Helper()
	code, got, _ := post(t, nil, url, "application/json", body)
	if code != status {
		t.Fatalf("POST %s %s: %d, want %d: %s", url, body, code, status, got)
	}
	if err := json.Unmarshal([]byte(got), v); err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
}

func getJSONInto(t *testing.T, url string, v any) { getJSON(t, url, v) }

// TestEngineMoveSurvivesTheClientGoingAway sends a move whose request the
// client abandons after 50 ms, while the engine (MCTS of 1,000 playouts)
// thinks: the engine's move is still made, the next request sees it, and
// the game goes on (before, the person's move stayed, the engine never
// answered, and every later move got 409).
func TestEngineMoveSurvivesTheClientGoingAway(t *testing.T) {
	_, ts := newServer(t, web.Options{})
	var a answer
	postJSON(t, ts.URL+"/api/play", `{"game":"chess","opponent":"mcts:1000","side":"white"}`, http.StatusCreated, &a)
	impatient := &http.Client{Timeout: 50 * time.Millisecond}
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/api/play/"+a.ID+"/move", strings.NewReader(`{"move":"e4"}`))
	req.Header.Set("Content-Type", "application/json")
	if resp, err := impatient.Do(req); err == nil {
		resp.Body.Close()
		t.Skip("the engine answered within 50 ms: the client did not go away first")
	}
	var b answer
	getJSONInto(t, ts.URL+"/api/play/"+a.ID, &b) // waits for the move in progress
	if len(b.State.Moves) != 2 || b.State.Moves[0] != "e4" || len(b.State.Legal) == 0 {
		t.Fatalf("after the abandoned request: moves %v, %d legal moves; want e4 and the engine's reply", b.State.Moves, len(b.State.Legal))
	}
	var c answer
	postJSON(t, ts.URL+"/api/play/"+a.ID+"/move", `{"move":"d4"}`, http.StatusOK, &c)
	if len(c.State.Moves) != 4 {
		t.Errorf("the next move: moves %v, want 4", c.State.Moves)
	}
}

// TestOpponentsListGenerationZeroOnce rates generation 0's chess champion
// above the fixture's rated generation 1: /api/play/opponents lists it once,
// as the best rated, not again as generation 0's champion.
func TestOpponentsListGenerationZeroOnce(t *testing.T) {
	data, err := os.ReadFile(fixtureDB(t))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "evolved.db")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := storage.Open(ctx, path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := db.Champion(ctx, "chess", 0)
	if err == nil {
		r := testRating
		r.Generation, r.AgentID, r.Elo, r.CreatedAt = 0, c.AgentID, 2000, time.Now()
		err = db.AddRating(ctx, r)
	}
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	_, ts := newServer(t, web.Options{DB: path})
	var got struct {
		Opponents []struct{ ID, Name string }
	}
	getJSONInto(t, ts.URL+"/api/play/opponents?game=chess", &got)
	zero := 0
	for _, o := range got.Opponents {
		if o.ID == "champion:0" {
			zero++
			if !strings.Contains(o.Name, "best rated") {
				t.Errorf("champion:0 listed as %q, want the best rated", o.Name)
			}
		}
	}
	if zero != 1 {
		t.Errorf("champion:0 listed %d times, want once: %+v", zero, got.Opponents)
	}
}

// TestOpponentsNameALoneRatingPlainly checks the label of the rated
// champion among /api/play/opponents: with the fixture's one chess rating
// it is "the rated champion", not the best of one; TestOpponentsListGenerationZeroOnce
// has two ratings and the best of them.
func TestOpponentsNameALoneRatingPlainly(t *testing.T) {
	_, ts := newServer(t, web.Options{})
	var got struct {
		Opponents []struct{ ID, Name string }
	}
	getJSONInto(t, ts.URL+"/api/play/opponents?game=chess", &got)
	for _, o := range got.Opponents {
		if o.ID == "champion:1" {
			if o.Name != "the rated champion (generation 1)" {
				t.Errorf("champion:1 listed as %q, want the rated champion (generation 1)", o.Name)
			}
			return
		}
	}
	t.Errorf("the rated champion is not listed: %+v", got.Opponents)
}

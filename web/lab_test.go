package web_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"evolved/chess960"
	"evolved/lab"
	"evolved/metaheuristic"
	"evolved/storage"
	"evolved/web"
)

// labRun is the part of a lab run's JSON the tests read.
type labRun struct {
	ID       int64  `json:"id"`
	Store    string `json:"store"`
	State    string `json:"state"`
	Failure  string `json:"failure"`
	Spec     string `json:"spec"`
	Line     string `json:"line"`
	Progress struct {
		Iteration, Iterations, Games int
	} `json:"progress"`
	Curve struct {
		Iteration []int `json:"iteration"`
	} `json:"curve"`
	Replay *struct {
		Boards []json.RawMessage `json:"boards"`
		Moves  []string          `json:"moves"`
	} `json:"replay"`
	Settings map[string]any `json:"settings"`
}

// labServer serves the fixture with a lab database in a fresh directory.
func labServer(t *testing.T, opts web.Options) (*web.Server, string, string) {
	t.Helper()
	if opts.LabDB == "" {
		opts.LabDB = filepath.Join(t.TempDir(), "lab.db")
	}
	s, ts := newServer(t, opts)
	return s, ts.URL, opts.LabDB
}

// startLab posts a run's settings and returns the run, wanting status.
func startLab(t *testing.T, base, body string, status int) labRun {
	t.Helper()
	code, text, header := post(t, nil, base+"/api/lab/runs", "application/json", body)
	if code != status {
		t.Fatalf("POST /api/lab/runs %s: %d %s, want %d", body, code, text, status)
	}
	var r labRun
	if code == http.StatusCreated {
		if err := json.Unmarshal([]byte(text), &r); err != nil {
			t.Fatal(err)
		}
		if want := "/api/lab/runs/" + jsonNumber(r.ID); header.Get("Location") != want {
			t.Errorf("Location %q, want %q", header.Get("Location"), want)
		}
	}
	return r
}

func jsonNumber(n int64) string { b, _ := json.Marshal(n); return string(b) }

// waitLab polls run id until done says so (a minute at most: the machine
// may be loaded).
func waitLab(t *testing.T, base string, id int64, done func(labRun) bool) labRun {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		var r labRun
		getJSON(t, base+"/api/lab/runs/"+jsonNumber(id), &r)
		if done(r) {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %d: still %+v after a minute", id, r)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestLabRunsToItsEnd starts a run through the API and follows it to its
// end: stored as evolved meta stores it, its best game on a board, listed
// beside the served database's run.
func TestLabRunsToItsEnd(t *testing.T) {
	s, base, labDB := labServer(t, web.Options{AllowLabOnLoopback: true})
	r := startLab(t, base, `{"method":"aco","opponent":"material:1","iterations":3,"ants":4,"turns":5,"from":"1. e4 e5","seed":7}`, http.StatusCreated)
	if r.ID != 1 || (r.State != storage.MetaQueued && r.State != storage.MetaRunning) {
		t.Fatalf("new run %+v", r)
	}
	r = waitLab(t, base, r.ID, func(r labRun) bool { return r.State == storage.MetaFinished })
	if r.Progress.Iteration != 3 || r.Progress.Games != 12 || len(r.Curve.Iteration) != 3 || r.Line == "" || r.Replay == nil ||
		len(r.Replay.Boards) != len(r.Replay.Moves)+1 || r.Spec != "meta:1@"+labDB || r.Settings["ants"] != 4.0 {
		t.Fatalf("finished run %+v", r)
	}
	// The history was stored in UCI, as evolved meta stores it.
	if from, _ := json.Marshal(r.Settings["from"]); string(from) != `["e2e4","e7e5"]` {
		t.Errorf("stored history %s", from)
	}
	var list struct{ Runs []labRun }
	getJSON(t, base+"/api/lab/runs", &list)
	if len(list.Runs) != 2 || list.Runs[0].Store != "lab" || list.Runs[1].Store != "main" {
		t.Fatalf("runs %+v, want the lab's run then the fixture's", list.Runs)
	}
	// The overview lists the lab's run first, linked to its store.
	var status struct {
		Meta []struct {
			ID     int64
			Store  string
			Method string
		}
	}
	getJSON(t, base+"/api/status", &status)
	if len(status.Meta) != 2 || status.Meta[0].Store != "lab" || status.Meta[0].Method != "aco" || status.Meta[1].Store != "main" {
		t.Errorf("the overview's chess-lab runs %+v, want the lab's then the fixture's", status.Meta)
	}
	if code, page, _ := get(t, nil, base+"/"); code != http.StatusOK || !strings.Contains(page, `href="/lab?run=1&amp;store=lab"`) ||
		!strings.Contains(page, `href="/lab?run=1&amp;store=main"`) {
		t.Errorf("the overview page (%d) does not link both runs:\n%s", code, page)
	}
	var main labRun
	getJSON(t, base+"/api/lab/runs/1?store=main", &main)
	if main.Store != "main" || main.ID != 1 {
		t.Errorf("the served database's run: %+v", main)
	}
	for path, want := range map[string]int{"/api/lab/runs/9": 404, "/api/lab/runs/x": 400, "/api/lab/runs/1?store=disk": 400} {
		if code, body, _ := get(t, nil, base+path); code != want {
			t.Errorf("GET %s: %d %s, want %d", path, code, body, want)
		}
	}
	if code, body, _ := post(t, nil, base+"/api/lab/runs/1/stop", "", ""); code != http.StatusConflict || !strings.Contains(body, "finished") {
		t.Errorf("stopping a finished run: %d %s", code, body)
	}
	s.Close()
	db, err := storage.Open(context.Background(), labDB, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m, its, err := db.LoadMetaRun(context.Background(), 1)
	if err != nil || m.State != storage.MetaFinished || len(its) != 3 || m.Learned == "" || m.BestPGN == "" {
		t.Errorf("stored run %+v, %d iterations, %v", m, len(its), err)
	}
}

// TestLabPlaysPeSTO runs the lab against pesto:D, PeSTO's tables in the
// agents' search (issue 62's diagnostic), to its end.
func TestLabPlaysPeSTO(t *testing.T) {
	_, base, _ := labServer(t, web.Options{AllowLabOnLoopback: true})
	r := startLab(t, base, `{"method":"aco","opponent":"pesto:1","iterations":1,"ants":2,"turns":3,"seed":1}`, http.StatusCreated)
	r = waitLab(t, base, r.ID, func(r labRun) bool { return r.State == storage.MetaFinished })
	if r.Progress.Iteration != 1 || r.Progress.Games != 2 {
		t.Fatalf("finished run %+v, want 1 iteration of 2 games", r.Progress)
	}
}

// TestLabStopsAndQueues runs one run at a time: a second waits, queued;
// a queued run stops at once, a running one once it has stored what it
// learnt; a run the server's shutdown ends is stored as stopped, and so is
// one still queued.
func TestLabStopsAndQueues(t *testing.T) {
	s, base, labDB := labServer(t, web.Options{AllowLabOnLoopback: true, LabQueue: 2})
	long := `{"method":"sa","opponent":"material:1","iterations":100000,"turns":10}`
	a := startLab(t, base, long, http.StatusCreated)
	b := startLab(t, base, long, http.StatusCreated)
	c := startLab(t, base, long, http.StatusCreated)
	startLab(t, base, long, http.StatusServiceUnavailable) // the queue holds two
	waitLab(t, base, a.ID, func(r labRun) bool { return r.State == storage.MetaRunning && r.Progress.Iteration > 0 })
	if r := waitLab(t, base, b.ID, func(labRun) bool { return true }); r.State != storage.MetaQueued {
		t.Fatalf("second run %+v, want queued", r)
	}
	code, body, _ := post(t, nil, base+"/api/lab/runs/2/stop", "", "")
	if code != http.StatusOK || !strings.Contains(body, `"state":"stopped"`) || !strings.Contains(body, "before it started") {
		t.Fatalf("stopping the queued run: %d %s", code, body)
	}
	code, body, _ = post(t, nil, base+"/api/lab/runs/1/stop", "", "")
	if code != http.StatusOK || !strings.Contains(body, `"state":"stopped"`) || !strings.Contains(body, "stopped from the lab page") {
		t.Fatalf("stopping the running run: %d %s", code, body)
	}
	r := waitLab(t, base, a.ID, func(labRun) bool { return true })
	if r.Replay == nil || r.Progress.Iteration == 0 {
		t.Errorf("the stopped run kept nothing: %+v", r)
	}
	waitLab(t, base, c.ID, func(r labRun) bool { return r.State == storage.MetaRunning })
	d := startLab(t, base, long, http.StatusCreated)
	s.Close() // c runs, d waits
	db, err := storage.Open(context.Background(), labDB, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for id, why := range map[int64]string{c.ID: "the web server shut down", d.ID: "the web server shut down before it started"} {
		m, _, err := db.LoadMetaRun(context.Background(), id)
		if err != nil || m.State != storage.MetaStopped || m.Failure != why {
			t.Errorf("run %d after the shutdown: %+v, %v; want stopped, %q", id, m, err, why)
		}
	}
}

// TestLabRefusesBadRuns checks that every refused request names what is
// wrong and starts nothing: no lab database is even created.
func TestLabRefusesBadRuns(t *testing.T) {
	// The engine's path need not exist: the options are refused before
	// anything starts it.
	_, base, labDB := labServer(t, web.Options{AllowLabOnLoopback: true, LabEngines: []string{"/opt/engines/stockfish"}})
	for body, want := range map[string]string{
		`{"method":"aco","opponent":"material:1","iterations":0}`:                        "iterations 0: want 1 to 100000",
		`{"method":"aco","opponent":"material:1","iterations":100001}`:                   "iterations 100001",
		`{"method":"aco","opponent":"material:1","antz":3}`:                              "antz is no setting",
		`{"method":"aco","opponent":"material:1","turns":"ten"}`:                         "turns (a JSON string): want a whole number",
		`{"method":"sa","opponent":"material:1","ants":3}`:                               "ants is for method aco, not sa",
		`{"method":"aco","opponent":"uci:/bin/sh"}`:                                      "the lab's engines are /opt/engines/stockfish",
		`{"method":"aco","opponent":"uci:/opt/engines/stockfish:Debug Log File=/tmp/x"}`: "option \\\"Debug Log File\\\" is not one the lab sets",
		`{"method":"aco","opponent":"uci:/opt/engines/stockfish:Skill Level=25"}`:        "Skill Level=25: want 0 to 20",
		`{"method":"aco","opponent":"agent:/etc/passwd"}`:                                "the lab plays random",
		`{"method":"aco","opponent":"pesto:9"}`:                                          "pesto:D (D 1 to 8)",
		`{"method":"aco","opponent":"material:1","from":"1. e4 e5 2. Ke3"}`:              "no legal move matches",
		`{"method":"aco","opponent":"material:1","fen":"8/8 w"}`:                         "fen",
		`{"method":"aco","opponent":"material:1","workers":64}`:                          "workers 64",
		`not json`: "not a JSON object",
	} {
		code, text, _ := post(t, nil, base+"/api/lab/runs", "application/json", body)
		if code != http.StatusBadRequest || !strings.Contains(text, want) {
			t.Errorf("POST %s: %d %s, want 400 naming %q", body, code, text, want)
		}
	}
	for body, want := range map[string]string{
		`{"method":"classic","population":1}`:   "population 1, want at least 2",
		`{"method":"improved","budget":100000}`: "budget 100000: want at most 10000 on this site",
		`{"method":"steady"}`:                   "steady",
		`{"method":"classic","mutation":2}`:     "mutation rate 2",
	} {
		code, text, _ := post(t, nil, base+"/api/lab/chess960", "application/json", body)
		if code != http.StatusBadRequest || !strings.Contains(text, want) {
			t.Errorf("POST chess960 %s: %d %s, want 400 naming %q", body, code, text, want)
		}
	}
	if _, err := os.Stat(labDB); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("refused requests created the lab database: %v", err)
	}
}

// TestChess960ChecksAsTheCLI sends the Chess960 search settings that
// `evolved chess960` refuses, and some it takes: the site refuses and
// takes the same, with the chess960 package's own messages (a setting of
// the other method, like ga's missing --tournament, is refused by name);
// the site adds only its upper bounds. What it takes, it runs as the CLI
// does: the same seed gives the same search.
func TestChess960ChecksAsTheCLI(t *testing.T) {
	_, base, _ := labServer(t, web.Options{AllowLabOnLoopback: true})
	for _, tc := range []struct {
		body string
		code int
		msg  string
	}{
		{`{"method":"classic","tournament":3}`, 400, "tournament is for method improved, not classic"},
		{`{"tournament":3}`, 400, "tournament is for method improved, not classic"},
		{`{"method":"classic","budget":500}`, 400, "budget is for method improved, not classic"},
		{`{"method":"classic","retries":5}`, 400, "retries is for method improved, not classic"},
		{`{"method":"improved","elitism":0.5}`, 400, "elitism is for method classic, not improved"},
		{`{"method":"improved","iterations":5}`, 400, "iterations is for method classic, not improved"},
		{`{"method":"improved","tournament":0}`, 400, "chess960: invalid parameter: tournament 0, want at least 1"},
		{`{"method":"improved","retries":-1}`, 400, "chess960: invalid parameter: retries -1, want at least 0"},
		{`{"method":"improved","budget":0}`, 400, "chess960: invalid parameter: budget 0, want at least 1"},
		{`{"method":"improved","tournament":101}`, 400, "tournament 101: want at most 100 on this site"},
		{`{"method":"classic","iterations":-1}`, 400, "chess960: invalid parameter: iterations -1, want at least 0"},
		{`{"method":"classic","elitism":1.5}`, 400, "chess960: invalid parameter: elitism 1.5, want 0..1"},
		{`{"method":"classic","antz":1}`, 400, `unknown field \"antz\"`},
		{`{"method":3}`, 400, "method"},
		{`[]`, 400, "not a JSON object"},
		{`{"method":"classic","population":2}`, 200, ""},                 // the improved GA's tournament of 3 is no matter
		{`{"method":"improved","population":2,"tournament":3}`, 200, ""}, // drawn with replacement, as the CLI's bench takes
		{`{"method":"classic","population":10,"iterations":0,"mutation":0,"elitism":1}`, 200, ""},
	} {
		code, text, _ := post(t, nil, base+"/api/lab/chess960", "application/json", tc.body)
		if code != tc.code || !strings.Contains(text, tc.msg) {
			t.Errorf("POST chess960 %s: %d %s, want %d naming %q", tc.body, code, text, tc.code, tc.msg)
		}
	}
	type search struct {
		Best    string `json:"best"`
		Fitness int    `json:"fitness"`
		Used    int    `json:"used"`
		FoundAt int    `json:"found_at"`
	}
	classic, err := chess960.DefaultClassic().Run(chess960.Rand(7, chess960.ClassicGA, 0), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	improved, err := chess960.DefaultImproved().Run(chess960.Rand(7, chess960.ImprovedGA, 0), 500)
	if err != nil {
		t.Fatal(err)
	}
	for body, want := range map[string]chess960.Result{`{"seed":7}`: classic, `{"method":"improved","seed":7}`: improved} {
		code, text, _ := post(t, nil, base+"/api/lab/chess960", "application/json", body)
		var got search
		if err := json.Unmarshal([]byte(text), &got); code != http.StatusOK || err != nil {
			t.Fatalf("POST chess960 %s: %d %s", body, code, text)
		}
		if w := (search{want.Best.String(), want.Fitness, want.Evaluations, want.FoundAt}); got != w {
			t.Errorf("POST chess960 %s: %+v, want the CLI's defaults' %+v", body, got, w)
		}
	}
}

// TestLabNeedsTheToken checks the guards: without a token the lab starts
// nothing unless allowed on loopback; with one, a request without it or
// from another site's page is refused; nothing is started or created.
func TestLabNeedsTheToken(t *testing.T) {
	run := `{"method":"aco","opponent":"material:1","iterations":1}`
	_, base, labDB := labServer(t, web.Options{})
	if code, text, _ := post(t, nil, base+"/api/lab/runs", "application/json", run); code != http.StatusForbidden || !strings.Contains(text, "allow-lab-on-loopback") {
		t.Errorf("no token, not allowed: %d %s", code, text)
	}
	if code, _, _ := post(t, nil, base+"/api/lab/chess960", "application/json", `{}`); code != http.StatusForbidden {
		t.Errorf("chess960 without a token: %d", code)
	}
	var opts struct {
		CanStart bool   `json:"can_start"`
		WhyNot   string `json:"why_not"`
	}
	getJSON(t, base+"/api/lab/options", &opts)
	if opts.CanStart || !strings.Contains(opts.WhyNot, "token") {
		t.Errorf("options without a token: %+v", opts)
	}
	const token = "0123456789abcdef0123"
	_, base2, labDB2 := labServer(t, web.Options{Token: token})
	send := func(header ...string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, base2+"/api/lab/runs", strings.NewReader(run))
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		code, text, _ := do(t, nil, req)
		return code, text
	}
	if code, _ := send(); code != http.StatusUnauthorized {
		t.Errorf("without the token: %d", code)
	}
	if code, text := send("Authorization", "Bearer "+token, "Origin", "http://evil.example"); code != http.StatusForbidden || !strings.Contains(text, "cross-site") {
		t.Errorf("from another origin: %d %s", code, text)
	}
	if code, text := send("Authorization", "Bearer "+token, "Sec-Fetch-Site", "cross-site"); code != http.StatusForbidden {
		t.Errorf("cross-site fetch: %d %s", code, text)
	}
	for _, path := range []string{labDB, labDB2} {
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a refused request created %s: %v", path, err)
		}
	}
	if code, text := send("Authorization", "Bearer "+token); code != http.StatusCreated {
		t.Errorf("with the token: %d %s", code, text)
	}
}

// TestLabDatabaseIsNotTheServedOne refuses a lab database that is the
// served database under another name, or one of its side files, where it
// would be lost at the daemon's next checkpoint.
func TestLabDatabaseIsNotTheServedOne(t *testing.T) {
	path := copyFixture(t)
	link := filepath.Join(t.TempDir(), "alias.db")
	if err := os.Link(path, link); err != nil {
		t.Skip("no hard links here:", err)
	}
	for _, lab := range []string{path, link, path + "-wal", path + "-shm", link + "-wal"} {
		if _, err := web.New(context.Background(), web.Options{DB: path, LabDB: lab}); !errors.Is(err, web.ErrConfig) {
			t.Errorf("lab database %s over %s: %v, want ErrConfig", lab, path, err)
		}
	}
	if got := web.DefaultLabDB("/var/lib/evolved/evolved.db"); got != "/var/lib/evolved/evolved.lab.db" {
		t.Errorf("DefaultLabDB = %s", got)
	}
}

// TestLabOptionsDefaults checks that the lab page's defaults are the
// CLI's: `evolved meta`'s (lab.DefaultSettings and the classic piece
// weights) and `evolved chess960`'s, so that the page keeps none of its
// own to drift from them.
func TestLabOptionsDefaults(t *testing.T) {
	_, base, _ := labServer(t, web.Options{})
	var opts struct {
		Defaults lab.Settings `json:"defaults"`
		Weights  string       `json:"weights"`
		Chess960 map[string]struct {
			Seed       uint64  `json:"seed"`
			Population int     `json:"population"`
			Iterations int     `json:"iterations"`
			Mutation   float64 `json:"mutation"`
			Elitism    float64 `json:"elitism"`
			Tournament int     `json:"tournament"`
			Retries    int     `json:"retries"`
		} `json:"chess960"`
	}
	getJSON(t, base+"/api/lab/options", &opts)
	// Every key in the API's own spelling, as the rest of it: the limits
	// in snake case, not Go's field names.
	var raw struct {
		Limits map[string]int `json:"limits"`
	}
	getJSON(t, base+"/api/lab/options", &raw)
	if len(raw.Limits) != 5 || raw.Limits["max_workers"] < 1 || raw.Limits["max_iterations"] != 100_000 {
		t.Errorf("limits = %v, want max_iterations, max_turns, max_games, max_workers, max_history", raw.Limits)
	}
	if want := lab.DefaultSettings(); opts.Defaults != want {
		t.Errorf("defaults = %+v, want lab.DefaultSettings() %+v", opts.Defaults, want)
	}
	if want := metaheuristic.DefaultWeights().String(); opts.Weights != want {
		t.Errorf("weights = %q, want %q", opts.Weights, want)
	}
	c, imp := chess960.DefaultClassic(), chess960.DefaultImproved()
	if got := opts.Chess960["classic"]; got.Seed != 1 || got.Population != c.Population || got.Iterations != c.Iterations ||
		got.Mutation != c.MutationRate || got.Elitism != c.Elitism {
		t.Errorf("chess960 classic = %+v, want %+v", got, c)
	}
	if got := opts.Chess960["improved"]; got.Seed != 1 || got.Population != imp.Population || got.Tournament != imp.Tournament ||
		got.Mutation != imp.MutationRate || got.Retries != imp.MaxRetries {
		t.Errorf("chess960 improved = %+v, want %+v", got, imp)
	}
}

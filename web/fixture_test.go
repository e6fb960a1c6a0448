package web_test

import (
	"context"
	"crypto/sha256"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"evolved/daemon"
	"evolved/storage"
	"evolved/web"
)

// fixture is a database evolved by the daemon itself: three generations
// of each game at depth 1, small populations, a rating and a chess-lab run
// added by hand, built once for the package's tests.
var fixture struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// testRating is the rating the fixture stores for chess generation 1.
var testRating = storage.Rating{Game: "chess", Generation: 1, Scale: "stockfish-uci-elo", TC: "10+0.1",
	Elo: 1523, CI: 61, Games: 100, Wins: 40, Draws: 20, Losses: 40, Seed: 9}

// smallConfig is a fast configuration of every game into path.
func smallConfig(path string, generations int) daemon.Config {
	cfg := daemon.DefaultConfig()
	cfg.DB = path
	cfg.Games = []string{"draughts", "chess", "xiangqi"}
	cfg.Generations = generations
	cfg.Workers = 2
	for _, p := range []*daemon.PopulationConfig{&cfg.Draughts.PopulationConfig, &cfg.Chess.PopulationConfig, &cfg.Xiangqi.PopulationConfig} {
		p.Depth, p.Format = 1, "blondie"
		p.LadderChampions, p.LadderGames = 2, 2
		p.BaselineEvery, p.Baselines, p.BaselineGames = 2, []string{"random"}, 2
		p.MaxMoves = 40
	}
	cfg.Draughts.ChampionGames = 2 // a title match, for the generation page
	// An opponent the chess champion does not beat in every game, so
	// that its score has an interval for the population page to draw.
	cfg.Chess.Baselines = []string{"random", "material:1"}
	cfg.Jobs.Backup, cfg.Jobs.Prune, cfg.Jobs.RatingEvery = "", "", 0
	return cfg
}

// evolve runs the daemon on cfg to its generation target.
func evolve(ctx context.Context, cfg daemon.Config) error {
	log := slog.New(slog.DiscardHandler)
	d, err := daemon.New(ctx, cfg, daemon.Options{Logger: log, Level: new(slog.LevelVar)})
	if err != nil {
		return err
	}
	runErr := d.Run(ctx)
	if err := d.Close(); err != nil && runErr == nil {
		runErr = err
	}
	return runErr
}

// fixtureDB returns the path of the shared fixture database.
func fixtureDB(t testing.TB) string {
	t.Helper()
	fixture.once.Do(func() {
		fixture.dir, fixture.err = os.MkdirTemp("", "evolved-web-test-")
		if fixture.err != nil {
			return
		}
		fixture.path = filepath.Join(fixture.dir, "evolved.db")
		ctx := context.Background()
		if fixture.err = evolve(ctx, smallConfig(fixture.path, 3)); fixture.err != nil {
			return
		}
		db, err := storage.Open(ctx, fixture.path, storage.Options{})
		if err != nil {
			fixture.err = err
			return
		}
		defer db.Close()
		champ, err := db.Champion(ctx, "chess", 1)
		if err != nil {
			fixture.err = err
			return
		}
		r := testRating
		r.AgentID, r.CreatedAt = champ.AgentID, time.Now()
		if fixture.err = db.AddRating(ctx, r); fixture.err != nil {
			return
		}
		_, fixture.err = db.CreateMetaRun(ctx, storage.MetaRun{Method: "aco", Opponent: "material:1",
			Start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Params: "{}", Seed: 5, Created: time.Now()})
	})
	if fixture.err != nil {
		t.Fatalf("building the fixture database: %v", fixture.err)
	}
	return fixture.path
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fixture.dir != "" {
		os.RemoveAll(fixture.dir)
	}
	os.Exit(code)
}

// newServer serves a copy-free read-only site over path with opts.
func newServer(t testing.TB, opts web.Options) (*web.Server, *httptest.Server) {
	t.Helper()
	if opts.DB == "" {
		opts.DB = fixtureDB(t)
	}
	s, err := web.New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		// A browser's event stream never ends by itself: cut the
		// connections, or Close would wait for it.
		ts.CloseClientConnections()
		ts.Close()
		s.Close()
	})
	return s, ts
}

// get fetches url and returns the status and body.
func get(t testing.TB, client *http.Client, url string, header ...string) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return do(t, client, req)
}

// post sends body to url as contentType.
func post(t testing.TB, client *http.Client, url, contentType, body string) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return do(t, client, req)
}

func do(t testing.TB, client *http.Client, req *http.Request) (int, string, http.Header) {
	t.Helper()
	if client == nil {
		client = http.DefaultClient
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(b), res.Header
}

// fileSum hashes a file, to show a request changed nothing.
func fileSum(t testing.TB, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

package web_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"evolved/daemon"
	"evolved/web"
)

// copyFixture copies the fixture database, for a test that evolves it
// further.
func copyFixture(t *testing.T) string {
	t.Helper()
	src := fixtureDB(t)
	dst := filepath.Join(t.TempDir(), "evolved.db")
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(src + suffix)
		if os.IsNotExist(err) && suffix != "" {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst+suffix, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// TestLiveUpdatesFollowTheDaemon streams /events while the daemon evolves
// one more generation of each game in the served database.
func TestLiveUpdatesFollowTheDaemon(t *testing.T) {
	path := copyFixture(t)
	_, ts := newServer(t, web.Options{DB: path, Poll: 50 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); res.StatusCode != http.StatusOK || ct != "text/event-stream" {
		t.Fatalf("/events: %d %s", res.StatusCode, ct)
	}
	if err := evolve(ctx, smallConfig(path, 4)); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	sc := bufio.NewScanner(res.Body)
	for len(seen) < 3 && sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var u struct {
			Game        string `json:"game"`
			Generations int    `json:"generations"`
			Latest      int    `json:"latest"`
		}
		if err := json.Unmarshal([]byte(data), &u); err != nil {
			t.Fatalf("event data %q: %v", data, err)
		}
		if u.Latest != u.Generations-1 {
			t.Errorf("event %+v: latest is not generations - 1", u)
		}
		seen[u.Game] = max(seen[u.Game], u.Generations)
		if seen[u.Game] == 4 {
			continue
		}
	}
	for _, g := range []string{"draughts", "chess", "xiangqi"} {
		if seen[g] != 4 {
			t.Errorf("%s: last update said %d generations, want 4", g, seen[g])
		}
	}
}

func TestMetricsShowTheDatabase(t *testing.T) {
	_, ts := newServer(t, web.Options{})
	code, body, h := get(t, nil, ts.URL+"/metrics")
	if code != http.StatusOK || !strings.HasPrefix(h.Get("Content-Type"), "text/plain") {
		t.Fatalf("/metrics: %d %s", code, h.Get("Content-Type"))
	}
	for _, want := range []string{
		`evolved_generations{game="chess"} 3`,
		`evolved_generations{game="xiangqi"} 3`,
		`evolved_rating_elo{game="chess",generation="1",scale="stockfish-uci-elo",tc="10+0.1"} 1523`,
		`evolved_rating_ci_elo{game="chess",generation="1",scale="stockfish-uci-elo",tc="10+0.1"} 61`,
		`evolved_database_up 1`,
		`evolved_workers_connected 0`,
		`# TYPE evolved_games_total counter`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if !regexp.MustCompile(`(?m)^evolved_database_bytes [1-9]`).MatchString(body) {
		t.Error("/metrics: no database size")
	}
}

// syncBuffer is a bytes.Buffer safe for a logger and a reader at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestDaemonServesTheSite runs the daemon with [http] listen and reads its
// site and its own metrics: checkpoints, generations and search nodes.
func TestDaemonServesTheSite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "evolved.db")
	cfg := smallConfig(path, 0)
	cfg.Games = []string{"draughts"}
	cfg.HTTP.Listen = "127.0.0.1:0"
	var logs syncBuffer
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d, err := daemon.New(ctx, cfg, daemon.Options{Logger: log, Level: new(slog.LevelVar), LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
		d.Close()
	}()
	url := regexp.MustCompile(`"url":"(http://127\.0\.0\.1:[0-9]+/)"`)
	deadline := time.Now().Add(time.Minute)
	var site string
	for site == "" && time.Now().Before(deadline) {
		if m := url.FindStringSubmatch(logs.String()); m != nil {
			site = m[1]
		}
		time.Sleep(20 * time.Millisecond)
	}
	if site == "" {
		t.Fatalf("the daemon logged no site address: %s", logs.String())
	}
	// Wait for two committed generations, then read the metrics.
	gens := regexp.MustCompile(`(?m)^evolved_checkpoint_seconds_count\{game="draughts"\} ([0-9]+)$`)
	var body string
	for time.Now().Before(deadline) {
		res, err := http.Get(site + "metrics")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		body = string(b)
		if m := gens.FindStringSubmatch(body); m != nil {
			if n, _ := strconv.Atoi(m[1]); n >= 2 {
				break
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, want := range []*regexp.Regexp{
		gens,
		regexp.MustCompile(`(?m)^evolved_generation_seconds_count\{game="draughts"\} [1-9]`),
		regexp.MustCompile(`(?m)^evolved_search_nodes_total\{game="draughts"\} [1-9]`),
		regexp.MustCompile(`(?m)^evolved_generations\{game="draughts"\} [1-9]`),
	} {
		if !want.MatchString(body) {
			t.Errorf("the daemon's /metrics lacks %s", want)
		}
	}
	res, err := http.Get(site)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("the daemon's overview: %d", res.StatusCode)
	}
}

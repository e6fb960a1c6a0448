package daemon

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"evolved/game/chess"
	"evolved/game/draughts"
	"evolved/games"
	"evolved/nnet"
	"evolved/population"
	"evolved/progress"
	"evolved/search"
	"evolved/tournament"
)

// fastDraughts is a draughts configuration small enough for tests, with a
// ladder and baselines every other generation.
func fastDraughts() Config {
	cfg := DefaultConfig()
	cfg.Workers = 2
	cfg.Draughts.Depth = 1
	cfg.Draughts.Format = "blondie"
	cfg.Draughts.LadderGames = 2
	cfg.Draughts.BaselineEvery = 2
	cfg.Draughts.Baselines = []string{"random"}
	cfg.Draughts.BaselineGames = 2
	cfg.Draughts.DistillNodes = 100 // the default distillation, its searches short
	if testing.Short() {
		// The race detector's run (-short) makes each search ten times
		// slower; the distillation's own tests set it themselves.
		cfg.Draughts.DistillEvery, cfg.Draughts.DistillNodes = 0, 0
	}
	cfg.Jobs.Backup, cfg.Jobs.Prune = "", ""
	cfg.Jobs.RatingEvery = 0 // the rating tests turn ratings on
	return cfg
}

// TestExtraGamesCountsWhatStepPlays plays generations through an arena
// that counts every game, and checks the live line's total against it:
// the tournament, the ladder and, every other generation, the baselines.
func TestExtraGamesCountsWhatStepPlays(t *testing.T) {
	dc := fastDraughts().Draughts
	var n atomic.Int64
	species := countingEnv{population.LocalEnv(games.Draughts(), games.Setup{Depth: dc.Depth, OpeningPlies: dc.OpeningPlies, MaxMoves: dc.MaxMoves}), &n}
	pcfg := dc.population(2)
	st, err := population.New("draughts", nnet.NumDraughtsInputs, pcfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		want := pcfg.FitnessGames(st.Generation, len(st.Agents)) + pcfg.MeasurementGames(st.Generation)
		n.Store(0)
		next, _, err := population.Step(context.Background(), species, pcfg, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := int(n.Load()); got != want {
			t.Errorf("generation %d played %d games, the live line expects %d", st.Generation, got, want)
		}
		st = next
	}
}

// countingEnv is a Local Env whose arena counts the games it starts on n.
type countingEnv struct {
	population.Local[draughts.Move, *draughts.Game]
	n *atomic.Int64
}

// Game binds the game with its starts counted.
func (e countingEnv) Game(nodes int64) games.Binding[draughts.Move, *draughts.Game] {
	b := e.Local.Game(nodes)
	b.Arena = countStarts(b.Arena, func() { e.n.Add(1) })
	return b
}

// liveOutput runs a daemon of cfg to its end with its live line and its
// JSON log on one buffer, as a terminal would show them, and returns what
// was written.
func liveOutput(t *testing.T, cfg Config) string {
	t.Helper()
	var out bytes.Buffer
	line := progress.NewLine(&out)
	level := new(slog.LevelVar)
	d, err := New(context.Background(), cfg, Options{Logger: NewLogger(line, "json", false, level), Level: level,
		Line: line, Notifier: nopNotifier{}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestLiveLine runs the daemon with its live line on a buffer: each
// generation's line counts every game and ends complete, gives the
// overall rate, and every log line first erases the live line, which is
// redrawn after it.
func TestLiveLine(t *testing.T) {
	cfg := fastDraughts()
	cfg.DB = filepath.Join(t.TempDir(), "evolved.db")
	cfg.Generations = 3
	s := liveOutput(t, cfg)
	// The last draw of each generation: all of its games done.
	for gen, games := range []int{15*5 + 0 + 1*2, 15*5 + 1*2, 15*5 + 2*2 + 2*2} {
		want := fmt.Sprintf("\r\033[Kdraughts generation %d: %d/%d games, ", gen, games, games)
		if !strings.Contains(s, want) {
			t.Errorf("no complete line %q in\n%q", want, s)
		}
	}
	for _, m := range regexp.MustCompile(`generation \d+: (\d+)/(\d+) games`).FindAllStringSubmatch(s, -1) {
		done, _ := strconv.Atoi(m[1])
		total, _ := strconv.Atoi(m[2])
		if done > total {
			t.Errorf("live line %q counts more games than the generation plays", m[0])
		}
	}
	if !regexp.MustCompile(`draughts generation 2: \d+/\d+ games, [0-9.]+ games/s, [0-9.]+ gens/hour, 1 generation to the target`).MatchString(s) {
		t.Errorf("generation 2's line lacks the overall rate and the target:\n%q", s)
	}
	// One time estimate a line: its generation's ETA, not the run's too.
	if strings.Contains(s, "target in") {
		t.Errorf("a live line carries two time estimates:\n%q", s)
	}
	// A log line while the line shows: erase, the log line, the live line again.
	committed := regexp.MustCompile(`games, [^\r\n]*\r\033\[K\{[^\n]*"msg":"generation committed"[^\n]*\n(\r\033\[K)?draughts generation`)
	if !committed.MatchString(s) {
		t.Errorf("a committed line does not erase the live line and redraw it:\n%q", s)
	}
	// On the screen: every log line whole, and no live line left behind.
	rows := screen(s)
	for _, r := range rows {
		if !strings.HasPrefix(r, "{") {
			t.Errorf("screen row %q is not a whole log line; screen:\n%s", r, strings.Join(rows, "\n"))
		}
	}
	if n := strings.Count(s, `"msg":"generation committed"`); n != 3 || len(rows) < 3 {
		t.Errorf("%d committed lines, %d screen rows", n, len(rows))
	}
}

// screen renders what a terminal shows for s, knowing the carriage
// return, the newline and erase to the end of the line (ESC [ K), and
// returns its non-empty rows.
func screen(s string) []string {
	rows := [][]rune{nil}
	col := 0
	for i := 0; i < len(s); i++ {
		row := &rows[len(rows)-1]
		switch {
		case s[i] == '\r':
			col = 0
		case s[i] == '\n':
			rows = append(rows, nil)
			col = 0
		case strings.HasPrefix(s[i:], "\033[K"):
			*row = (*row)[:min(col, len(*row))]
			i += len("\033[K") - 1
		default:
			if col < len(*row) {
				(*row)[col] = rune(s[i])
			} else {
				*row = append(*row, rune(s[i]))
			}
			col++
		}
	}
	var out []string
	for _, r := range rows {
		if len(r) > 0 {
			out = append(out, string(r))
		}
	}
	return out
}

func TestOverallRate(t *testing.T) {
	for _, c := range []struct {
		played             int
		elapsed            time.Duration
		generation, target int
		want               string
	}{
		{0, 0, 0, 0, ""},
		{0, time.Minute, 5, 30, ""},
		{3, 90 * time.Second, 3, 0, "120.0 gens/hour"},
		{3, 90 * time.Second, 3, 30, "120.0 gens/hour, 27 generations to the target"},
		{3, 90 * time.Second, 30, 30, "120.0 gens/hour"},
	} {
		if got := overallRate(c.played, c.elapsed, c.generation, c.target); got != c.want {
			t.Errorf("overallRate(%d, %v, %d, %d) = %q, want %q", c.played, c.elapsed, c.generation, c.target, got, c.want)
		}
	}
}

// TestLiveLineShowsTheDistillation: a generation that distills shows its
// searches on the live line in the generation's place, counted to the
// positions it fitted, and the generation's line comes back after them.
func TestLiveLineShowsTheDistillation(t *testing.T) {
	cfg := fastDraughts()
	cfg.DB = filepath.Join(t.TempDir(), "evolved.db")
	cfg.Generations = 2
	cfg.Draughts.DistillEvery, cfg.Draughts.DistillNodes = 2, 100
	s := liveOutput(t, cfg)
	m := regexp.MustCompile(`"msg":"champion distilled"[^\n]*"generation":1[^\n]*"searched":(\d+)`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no distillation at generation 1 in\n%q", s)
	}
	want := fmt.Sprintf("draughts generation 1: distilling the champion: %s/%s positions, ", m[1], m[1])
	if !strings.Contains(s, want) {
		t.Errorf("no complete distillation line %q in\n%q", want, s)
	}
	if strings.Contains(s, "generation 0: distilling") {
		t.Errorf("generation 0, which does not distill, shows a distillation:\n%q", s)
	}
	after := s[strings.Index(s, want):]
	if !strings.Contains(after, "draughts generation 1: ") || !regexp.MustCompile(`draughts generation 1: \d+/\d+ games`).MatchString(after) {
		t.Errorf("the generation's line does not come back after the distillation:\n%q", after)
	}
}

// TestCountedPlayerTakesTheClock checks that the player the daemon's
// bindings make (counted, countNodes) is a tournament.Clocked that hands
// the clock to the champion's search: the daemon's ratings play timed
// games, and without it the champion searched each move at the
// tournaments' 800 nodes whatever its clock said (a chess champion rated
// 1282 ± 73 that way, some 500 below its rating by evolved rate).
func TestCountedPlayerTakesTheClock(t *testing.T) {
	cfg := DefaultConfig()
	st, err := population.New("chess", nnet.NumChessInputs, cfg.Chess.population(1), 1)
	if err != nil {
		t.Fatal(err)
	}
	b := population.LocalEnv(games.Chess(), games.Setup{Nodes: 800}).Game(0)
	counter := prometheus.NewCounter(prometheus.CounterOpts{Name: "nodes"})
	mk, err := countNodes(b.Player, counter)(st.Agents[0].Net)
	if err != nil {
		t.Fatal(err)
	}
	p := mk()
	c, ok := p.(tournament.Clocked)
	if !ok {
		t.Fatalf("the counted player %T takes no clock", p)
	}
	inner, ok := p.(nodeCounter[chess.Move, *chess.Game]).Player.(search.Searcher[chess.Move, *chess.Game])
	if !ok {
		t.Fatalf("the counted player wraps %T, not an alpha-beta searcher", p.(nodeCounter[chess.Move, *chess.Game]).Player)
	}
	if o := inner.Options(); o.Nodes != 800 || o.SoftTime != 0 {
		t.Fatalf("before the clock: nodes %d, soft time %v; want the binding's 800 nodes", o.Nodes, o.SoftTime)
	}
	c.SetClock(10*time.Second, 10*time.Second, 100*time.Millisecond)
	soft, hard := search.Budget(10*time.Second, 100*time.Millisecond, 0)
	if o := inner.Options(); o.Nodes != 0 || o.SoftTime != soft || o.Time != hard {
		t.Errorf("after SetClock(10 s + 0.1): nodes %d, soft %v, hard %v; want no node limit, %v and %v", o.Nodes, o.SoftTime, o.Time, soft, hard)
	}
	// A game with a clock, through the arena: the counter sees its nodes.
	g := b.Arena.NewGame()
	if _, err := b.Arena.Play(context.Background(), g, p, mk(), [2]uint64{1, 2}, tournament.Clock{Base: time.Second, Inc: 10 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if testutil.ToFloat64(counter) == 0 {
		t.Errorf("the counter saw no nodes")
	}
}

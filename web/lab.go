package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"evolved/game/chess"
	"evolved/lab"
	"evolved/metaheuristic"
	"evolved/play"
	"evolved/player"
	"evolved/storage"
)

// Bounds of the lab page's work: it shares the machine with the evolution
// and with the site's visitors.
const (
	// DefaultLabQueue bounds the runs waiting behind the one that runs.
	DefaultLabQueue = lab.DefaultQueue
	// labStopWait is how long a stop request waits for the run to store
	// what it learnt before answering "stopping".
	labStopWait = 10 * time.Second
	// labCurvePoints bounds the points of a run's cost curve in a response.
	labCurvePoints = 500
)

// labLimits are the settings a run started from the site may ask for.
func labLimits() lab.Limits {
	return lab.Limits{MaxIterations: 100_000, MaxTurns: 200, MaxGames: 1000,
		MaxWorkers: max(1, runtime.NumCPU()/2), MaxHistory: 400}
}

// DefaultLabDB returns where the lab page stores its runs for a site over
// db: beside it, "evolved.db" giving "evolved.lab.db". The served
// database stays read-only, and may have a daemon as its writer.
func DefaultLabDB(db string) string {
	return strings.TrimSuffix(db, filepath.Ext(db)) + ".lab.db"
}

// errLabForbidden refuses lab work on a site without a token whose owner
// has not allowed it on loopback.
var errLabForbidden = errors.New("starting lab work needs the site's access token ([http] token or $" + TokenEnv +
	"); on loopback without one, allow it with `evolved serve --allow-lab-on-loopback` ([http] allow_lab_on_loopback)")

// Reasons the site records for the runs it ends.
var (
	// errShutdown ends the runs the server's shutdown ends.
	errShutdown = errors.New("the web server shut down")
	// errStopRequested ends a run stopped from the page.
	errStopRequested = errors.New("stopped from the lab page")
)

// labEngine is a UCI engine the lab's runs may play against.
type labEngine struct {
	Name string `json:"name"`
	Path string `json:"path"`
}

// FindLabEngines returns the UCI engines found on this machine that the
// lab page offers as opponents: Stockfish, where Debian or PATH puts it.
func FindLabEngines() []string {
	var out []string
	for _, p := range []string{"/usr/games/stockfish", "/usr/bin/stockfish", "/usr/local/bin/stockfish"} {
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return append(out, p)
		}
	}
	return out
}

// labUCIOptions are the options a lab run may set on an engine, with their
// ranges: nothing that names a file (Stockfish's Debug Log File writes
// anywhere) and nothing that takes the machine.
var labUCIOptions = map[string][2]int{
	"skill level": {0, 20}, "uci_limitstrength": {0, 1}, "uci_elo": {500, 3200}, "threads": {1, 1}, "hash": {1, 64},
	"depth": {1, 30}, "nodes": {1, 10_000_000}, "movetime": {1, 10_000},
}

// labOpponent reads an opponent a run started from the site may play:
// random, material:D, pst:D, mcts:N, or one of the engines the server
// offers with options of labUCIOptions. Nothing names a file.
func (s *Server) labOpponent(spec string) (player.ChessSpec, error) {
	bad := func(format string, args ...any) (player.ChessSpec, error) {
		return player.ChessSpec{}, fmt.Errorf(format, args...)
	}
	if rest, ok := strings.CutPrefix(spec, "uci:"); ok {
		parts := strings.Split(rest, ":")
		known := false
		for _, e := range s.opts.LabEngines {
			known = known || e == parts[0]
		}
		if !known {
			return bad("the lab's engines are %s", orNone(s.opts.LabEngines))
		}
		for _, kv := range parts[1:] {
			name, value, _ := strings.Cut(kv, "=")
			r, ok := labUCIOptions[strings.ToLower(name)]
			n, err := strconv.Atoi(value)
			if !ok {
				return bad("engine option %q is not one the lab sets (Skill Level, UCI_LimitStrength, UCI_Elo, Threads, Hash, depth, nodes, movetime)", name)
			}
			if err != nil || n < r[0] || n > r[1] {
				return bad("engine option %s=%s: want %d to %d", name, value, r[0], r[1])
			}
		}
		return player.ParseChess(spec)
	}
	kind, arg, _ := strings.Cut(spec, ":")
	n, err := strconv.Atoi(arg)
	switch {
	case spec == "random":
	case (kind == "material" || kind == "pst" || kind == "pesto") && err == nil && n >= 1 && n <= 8:
	case kind == "mcts" && err == nil && n >= 1 && n <= 100_000:
	default:
		return bad("the lab plays random, material:D, pst:D or pesto:D (D 1 to 8), mcts:N (N up to 100000), or an engine: uci:PATH with PATH one of %s",
			orNone(s.opts.LabEngines))
	}
	return player.ParseChess(spec)
}

// orNone lists names, or says there are none.
func orNone(names []string) string {
	if len(names) == 0 {
		return "(none on this server)"
	}
	return strings.Join(names, ", ")
}

// labAllowed reports whether r may start lab work: the secure wrapper has
// already checked the token when the site has one.
func (s *Server) labAllowed() bool {
	return s.opts.Token != "" || s.opts.AllowLabOnLoopback
}

// mayStartLab answers a request that would start or stop lab work when
// it may not: 404 when it needs the lab database and the site has none,
// 403 when the site does not allow lab work. It reports whether the
// request may go on.
func (s *Server) mayStartLab(w http.ResponseWriter, r *http.Request, needsDB bool) bool {
	switch {
	case needsDB && s.lab == nil:
		s.fail(w, r, http.StatusNotFound, "this site has no lab database to store runs in")
		return false
	case !s.labAllowed():
		s.fail(w, r, http.StatusForbidden, "%v", errLabForbidden)
		return false
	}
	return true
}

// apiLabOptions tells the lab page what it may offer: the defaults (the
// CLI's own, `evolved meta`'s and `evolved chess960`'s, so that the page
// has none of its own), the limits, the engines and whether this site lets it start work.
func (s *Server) apiLabOptions(w http.ResponseWriter, r *http.Request) {
	var engines []labEngine
	for _, p := range s.opts.LabEngines {
		engines = append(engines, labEngine{Name: filepath.Base(p), Path: p})
	}
	reason := ""
	if !s.labAllowed() {
		reason = errLabForbidden.Error()
	}
	writeJSON(w, http.StatusOK, map[string]any{"defaults": lab.DefaultSettings(), "weights": metaheuristic.DefaultWeights().String(),
		"chess960": map[string]chess960Request{"classic": chess960Defaults("classic"), "improved": chess960Defaults("improved")},
		"limits":   labLimits(), "engines": engines, "can_start": s.labAllowed(), "why_not": reason, "lab_db": s.opts.LabDB})
}

// labRunRow is one run in the lab page's list.
type labRunRow struct {
	ID         int64     `json:"id"`
	Store      string    `json:"store"` // "lab": the lab database; "main": the served one
	Method     string    `json:"method"`
	Opponent   string    `json:"opponent"`
	Seed       uint64    `json:"seed"`
	State      string    `json:"state"`
	Iterations int       `json:"iterations"`
	BestCost   float64   `json:"best_cost"`
	Seconds    float64   `json:"seconds"`
	Created    time.Time `json:"created"`
	Params     string    `json:"params"`
}

// liveLabRun returns the lab database's run m with the state and
// progress of its job when the site runs it (queued or running), as
// stored otherwise.
func (s *Server) liveLabRun(m storage.MetaRun) storage.MetaRun {
	if s.lab == nil {
		return m
	}
	if j, ok := s.lab.Job(m.ID); ok {
		p := j.Progress
		m.State, m.Iterations, m.BestCost, m.Seconds = j.State, p.Iteration, p.BestCost, p.Seconds
	}
	return m
}

// apiLabRuns lists the lab database's runs, newest first, then the
// served database's (runs of `evolved meta` stored there).
func (s *Server) apiLabRuns(w http.ResponseWriter, r *http.Request) {
	rows := []labRunRow{}
	add := func(db *storage.DB, store string) error {
		if db == nil {
			return nil
		}
		runs, err := db.MetaRuns(r.Context())
		if err != nil {
			return err
		}
		for i := len(runs) - 1; i >= 0; i-- {
			m := runs[i]
			if store == "lab" {
				m = s.liveLabRun(m)
			}
			rows = append(rows, labRunRow{ID: m.ID, Store: store, Method: m.Method, Opponent: m.Opponent, Seed: m.Seed, State: m.State,
				Iterations: m.Iterations, BestCost: finite(m.BestCost), Seconds: m.Seconds, Created: m.Created, Params: m.Params})
		}
		return nil
	}
	if s.lab != nil {
		db, err := s.lab.DB(r.Context())
		if err == nil {
			err = add(db, "lab")
		}
		if err != nil {
			s.failErr(w, r, err)
			return
		}
	}
	if err := add(s.db, "main"); err != nil {
		s.failErr(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"runs": rows, "lab_db": s.opts.LabDB})
}

// apiLabStart starts a run from a body whose keys are `evolved meta`'s
// flags: 201 with the run, its Location the run's URL.
func (s *Server) apiLabStart(w http.ResponseWriter, r *http.Request) {
	if !s.mayStartLab(w, r, true) {
		return
	}
	settings, given, err := lab.DecodeSettings(r.Body)
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		s.fail(w, r, http.StatusRequestEntityTooLarge, "request body over the limit of %d bytes", tooLarge.Limit)
		return
	case err != nil:
		s.fail(w, r, http.StatusBadRequest, "%v", err)
		return
	}
	plan, err := lab.NewPlan(settings, given, s.labOpponent, labLimits())
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, "%v", err)
		return
	}
	id, err := s.lab.Submit(r.Context(), plan)
	switch {
	case errors.Is(err, storage.ErrLocked):
		s.fail(w, r, http.StatusConflict, "the lab database %s is in use by another process (an evolved meta run?): %v", s.opts.LabDB, err)
		return
	case errors.Is(err, lab.ErrQueueFull):
		w.Header().Set("Retry-After", "30")
		s.fail(w, r, http.StatusServiceUnavailable, "%v", err)
		return
	case errors.Is(err, errShutdown):
		s.fail(w, r, http.StatusServiceUnavailable, "%v", err)
		return
	case err != nil:
		s.failErr(w, r, err)
		return
	}
	w.Header().Set("Location", fmt.Sprintf("/api/lab/runs/%d", id))
	view, err := s.labRunView(r.Context(), "lab", id)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, view)
}

// labStore reads the ?store= of a run's URL: lab (the default) or main.
func labStore(r *http.Request) (string, error) {
	switch st := r.URL.Query().Get("store"); st {
	case "", "lab":
		return "lab", nil
	case "main":
		return "main", nil
	default:
		return "", &badParam{"store", st, "lab (the lab database, the default) or main (the served database)"}
	}
}

// labID reads a run's {id}.
func labID(r *http.Request) (int64, error) {
	text := r.PathValue("id")
	id, err := strconv.ParseInt(text, 10, 64)
	if err != nil || id < 1 {
		return 0, &badParam{"run", text, "a run number, 1 or more"}
	}
	return id, nil
}

// apiLabRun answers one run: its settings, state, progress (live while it
// runs), cost curve and best game.
func (s *Server) apiLabRun(w http.ResponseWriter, r *http.Request) {
	id, err := labID(r)
	if err == nil {
		var store string
		if store, err = labStore(r); err == nil {
			var view labRunView
			if view, err = s.labRunView(r.Context(), store, id); err == nil {
				writeJSON(w, http.StatusOK, view)
				return
			}
		}
	}
	if errors.Is(err, storage.ErrNoMetaRun) || errors.Is(err, errNoLabDB) {
		s.fail(w, r, http.StatusNotFound, "%v", err)
		return
	}
	s.failErr(w, r, err)
}

// apiLabStop stops a run of the lab database: 200 once it is stored as
// stopped, 202 while it still stores what it learnt, 409 when it had
// ended already.
func (s *Server) apiLabStop(w http.ResponseWriter, r *http.Request) {
	id, err := labID(r)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	if !s.mayStartLab(w, r, true) {
		return
	}
	if _, ok := s.lab.Job(id); !ok {
		view, err := s.labRunView(r.Context(), "lab", id)
		if err != nil {
			s.fail(w, r, http.StatusNotFound, "%v", err)
			return
		}
		s.fail(w, r, http.StatusConflict, "run %d is not running: it is %s", id, view.State)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), labStopWait)
	defer cancel()
	ended, err := s.lab.Cancel(ctx, id, errStopRequested)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	view, err := s.labRunView(r.Context(), "lab", id)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	status := http.StatusOK
	if !ended {
		status = http.StatusAccepted
	}
	writeJSON(w, status, view)
}

// errNoLabDB means the lab database does not exist yet.
var errNoLabDB = errors.New("no lab run has been stored yet")

// labRunView is a run as the lab page shows it.
type labRunView struct {
	labRunRow
	Start    string         `json:"start"` // FEN the learner starts from
	Failure  string         `json:"failure,omitempty"`
	Finished *time.Time     `json:"finished,omitempty"`
	Progress lab.Progress   `json:"progress"`
	Curve    labCurve       `json:"curve"`
	Line     string         `json:"line"`   // the best game's moves, SAN with numbers
	Replay   *play.Replay   `json:"replay"` // its positions, for the board
	Spec     string         `json:"spec"`   // how to play the learnt table: meta:RUN@FILE
	Settings map[string]any `json:"settings"`
}

// labCurve is a run's cost per iteration, in at most labCurvePoints bins.
type labCurve struct {
	Iteration []int     `json:"iteration"`
	Best      []float64 `json:"best"`
	Mean      []float64 `json:"mean"`
}

// labRunView reads run id of store, with the live progress of a run the
// site holds.
func (s *Server) labRunView(ctx context.Context, store string, id int64) (labRunView, error) {
	var db *storage.DB
	path := s.opts.DB
	if store == "main" {
		db = s.db
	} else if s.lab != nil {
		var err error
		if db, err = s.lab.DB(ctx); err != nil {
			return labRunView{}, err
		}
		path = s.opts.LabDB
	}
	if db == nil {
		return labRunView{}, fmt.Errorf("run %d: %w", id, errNoLabDB)
	}
	m, its, err := db.LoadMetaRun(ctx, id)
	if err != nil {
		return labRunView{}, err
	}
	v := labRunView{labRunRow: labRunRow{ID: m.ID, Store: store, Method: m.Method, Opponent: m.Opponent, Seed: m.Seed,
		State: m.State, Iterations: m.Iterations, BestCost: finite(m.BestCost), Seconds: m.Seconds, Created: m.Created, Params: m.Params},
		Start: m.Start, Failure: m.Failure, Spec: fmt.Sprintf("meta:%d@%s", m.ID, path)}
	if !m.Finished.IsZero() {
		v.Finished = &m.Finished
	}
	if err := jsonObject(m.Params, &v.Settings); err != nil {
		return v, fmt.Errorf("run %d's settings: %w", id, err)
	}
	for _, it := range its {
		v.Progress.Games += it.Games
		v.Progress.Wins += it.Wins
	}
	v.Progress.Iteration, v.Progress.BestCost, v.Progress.Seconds = m.Iterations, finite(m.BestCost), m.Seconds
	if n, ok := v.Settings["iterations"].(float64); ok {
		v.Progress.Iterations = int(n)
	}
	if len(its) > 0 {
		v.Progress.MeanCost = its[len(its)-1].MeanCost
		if last := its[len(its)-1].Seconds; last > 0 {
			v.Progress.GamesPerSecond = float64(v.Progress.Games) / last
		}
	}
	v.Curve = curveOf(its)
	var best *metaheuristic.GameRecord
	if store == "lab" && s.lab != nil {
		if j, ok := s.lab.Job(id); ok {
			p := j.Progress
			v.State, v.Progress, best, v.Curve = j.State, p, p.Best, curveOf(j.Iterations)
			v.Progress.BestCost, v.Progress.MeanCost = finite(p.BestCost), finite(p.MeanCost)
			v.Iterations, v.BestCost, v.Seconds = p.Iteration, finite(p.BestCost), p.Seconds
		}
	}
	var start chess.Position
	var moves []chess.Move
	switch {
	case best != nil:
		start, moves = best.Start, best.Moves
	case m.BestPGN != "":
		g, err := chess.ParsePGN(m.BestPGN)
		if err != nil {
			return v, fmt.Errorf("run %d's best line: %w", id, err)
		}
		start, moves = g.Start, g.Moves
	default:
		return v, nil
	}
	if v.Line, err = chess.MoveText(start, moves); err != nil {
		return v, fmt.Errorf("run %d's best line: %w", id, err)
	}
	rep, err := play.ReplayGame("chess", start.FEN(), v.Line)
	if err != nil {
		return v, fmt.Errorf("run %d's best line: %w", id, err)
	}
	v.Replay = &rep
	return v, nil
}

// curveOf bins a run's iterations into at most labCurvePoints points: each
// bin's mean of the iteration means, and the best so far at its end.
func curveOf(its []storage.MetaIteration) labCurve {
	c := labCurve{Iteration: []int{}, Best: []float64{}, Mean: []float64{}}
	bin := max(1, (len(its)+labCurvePoints-1)/labCurvePoints)
	for i := 0; i < len(its); i += bin {
		j := min(i+bin, len(its))
		sum := 0.0
		for _, it := range its[i:j] {
			sum += it.MeanCost
		}
		c.Iteration = append(c.Iteration, its[j-1].Iteration)
		c.Best = append(c.Best, finite(its[j-1].BestCost))
		c.Mean = append(c.Mean, finite(sum/float64(j-i)))
	}
	return c
}

// labPage serves the lab page; the script does the rest.
func (s *Server) labPage(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusOK, "lab", s.page("Lab"))
}

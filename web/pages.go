package web

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"evolved/progress"
	"evolved/storage"
)

// pageTemplate is one page: the layout with the page's own blocks.
type pageTemplate = template.Template

// pageNames are the site's pages, each templates/NAME.html.
var pageNames = []string{"overview", "population", "generation", "replay", "play", "lab", "error", "token"}

// templateFuncs are the helpers the templates use.
var templateFuncs = template.FuncMap{
	"signed": func(f float64) string { return fmt.Sprintf("%+.2f", f) },
	"fixed":  func(digits int, f float64) string { return strconv.FormatFloat(f, 'f', digits, 64) },
	"when": func(t time.Time) string {
		if t.IsZero() {
			return "—"
		}
		return t.UTC().Format("2006-01-02 15:04 UTC")
	},
	"bytes":   storage.FormatBytes,
	"pathEsc": url.PathEscape,
	"add":     func(a, b int) int { return a + b },
}

// parsePages parses every page with the layout.
func parsePages() (map[string]*pageTemplate, error) {
	pages := map[string]*pageTemplate{}
	for _, name := range pageNames {
		t, err := template.New(name).Funcs(templateFuncs).ParseFS(assets, "templates/layout.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("web: page %s: %w", name, err)
		}
		pages[name] = t
	}
	return pages, nil
}

// Page is what the layout shows on every page.
type Page struct {
	Title   string
	DB      string
	Version string
	// Game is the game a page is about ("" for none): live updates of
	// other games leave it alone.
	Game string
	// Outside marks a page for a visitor the site has not let in: it
	// shows nothing of the server (no database, no version, no links
	// in) and follows no live updates.
	Outside bool
}

// page returns the layout's data for a page titled title.
func (s *Server) page(title string) Page {
	return Page{Title: title, DB: s.opts.DB, Version: cmp.Or(s.opts.Version, "(devel)")}
}

// render executes page name with data into a buffer first, so that a
// failing template is a clean 500 rather than half a page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	var buf bytes.Buffer
	if err := s.pages[name].ExecuteTemplate(&buf, "layout", data); err != nil {
		s.log.Warn("web page failed", "page", name, "err", err)
		http.Error(w, "the page could not be drawn: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(buf.Bytes())
	}
}

// outsidePage returns the layout's data for a page titled title that a
// visitor without the access token sees.
func outsidePage(title string) Page {
	return Page{Title: title, Outside: true}
}

// errorPage is an error shown to a person.
type errorPage struct {
	Page
	Status  int
	Message string
}

// runRow is one population on the overview.
type runRow struct {
	storage.PopulationStatus
	// Target is the daemon's generation target (0: none) and ETA when it
	// should be reached ("" without a target or a rate).
	Target int    `json:"target,omitempty"`
	ETA    string `json:"eta,omitempty"`
	// Rating is the latest rating, if any.
	Rating *ratingView `json:"rating,omitempty"`
	// FitnessSpark and RatingSpark are the overview's sparklines: SVG
	// path data of the champion's fitness and of the ratings by
	// generation, in a sparkW by sparkH box ("" without data).
	FitnessSpark string `json:"-"`
	RatingSpark  string `json:"-"`
}

// The sparklines' box, in SVG units, and the fitness points sampled.
const (
	sparkW, sparkH = 120.0, 24.0
	sparkPoints    = 60
)

// sparkPath returns SVG path data drawing ys against xs in the sparkline
// box, x from 0 to xMax and y over the values' own range; a lone point is
// a short dash. "" without points.
func sparkPath(xs, ys []float64, xMax float64) string {
	if len(ys) == 0 {
		return ""
	}
	return spark{xMax, slices.Min(ys), slices.Max(ys)}.path(xs, ys)
}

// ratingSparkPath is sparkPath for ratings: the line of the Elos, then the
// latest rating's 95% interval (half-width ci) as a whisker, the y range
// covering it, so that a lone rating shows how sure it is.
func ratingSparkPath(xs, elos []float64, ci, xMax float64) string {
	if len(elos) == 0 {
		return ""
	}
	last, x := elos[len(elos)-1], xs[len(xs)-1]
	sp := spark{xMax, min(slices.Min(elos), last-ci), max(slices.Max(elos), last+ci)}
	return sp.path(xs, elos) + fmt.Sprintf("M%.1f %.1fV%.1f", sp.x(x), sp.y(last+ci), sp.y(last-ci))
}

// spark maps values to the sparkline box: x from 0 to xMax, y from lo
// (at the bottom) to hi.
type spark struct{ xMax, lo, hi float64 }

func (s spark) x(v float64) float64 {
	if s.xMax <= 0 {
		return sparkW / 2
	}
	return v / s.xMax * sparkW
}

func (s spark) y(v float64) float64 {
	if s.hi == s.lo {
		return sparkH / 2
	}
	return 1 + (s.hi-v)/(s.hi-s.lo)*(sparkH-2)
}

// path draws ys against xs; a lone point is a short dash.
func (s spark) path(xs, ys []float64) string {
	var b strings.Builder
	for i := range ys {
		cmd := "L"
		if i == 0 {
			cmd = "M"
		}
		fmt.Fprintf(&b, "%s%.1f %.1f", cmd, s.x(xs[i]), s.y(ys[i]))
	}
	if len(ys) == 1 {
		fmt.Fprintf(&b, "h2")
	}
	return b.String()
}

// ratingView is a rating as pages and the API show it.
type ratingView struct {
	Generation int     `json:"generation"`
	Elo        float64 `json:"elo"`
	CI         float64 `json:"ci"`
	Scale      string  `json:"scale"`
	TC         string  `json:"tc"`
	Games      int     `json:"games"`
	Hours      float64 `json:"hours"`
}

func viewRating(r storage.Rating) *ratingView {
	return &ratingView{Generation: r.Generation, Elo: r.Elo, CI: r.CI, Scale: r.Scale, TC: r.TC, Games: r.Games, Hours: r.Hours}
}

// metaRow is one chess-lab run on the overview.
type metaRow struct {
	ID int64 `json:"id"`
	// Store says where the run is: "lab", the lab page's database, or
	// "main", the served one (a run of evolved meta).
	Store      string    `json:"store"`
	Method     string    `json:"method"`
	Opponent   string    `json:"opponent"`
	Seed       uint64    `json:"seed"`
	Iterations int       `json:"iterations"`
	BestCost   float64   `json:"best_cost"`
	Seconds    float64   `json:"seconds"`
	Created    time.Time `json:"created"`
	Finished   time.Time `json:"finished,omitzero"`
	State      string    `json:"state"` // storage.MetaFinished, ...; MetaRunning may be a run whose process was killed
}

// overview is the overview page's data and the /api/status answer.
type overview struct {
	Page     `json:"-"`
	Runs     []runRow     `json:"runs"`
	Meta     []metaRow    `json:"meta"`
	Size     storage.Size `json:"size"`
	Workers  int          `json:"workers"`
	Database string       `json:"database"`
}

// overviewLabRuns is how many of the lab database's runs the overview
// lists, the newest; the lab page lists them all.
const overviewLabRuns = 10

// recentLabRuns returns the chess-lab runs the overview lists: the lab
// database's newest (overviewLabRuns of them, with the live progress of
// those the site runs), then every run of the served database, oldest
// first as before.
func (s *Server) recentLabRuns(ctx context.Context) ([]metaRow, error) {
	rows := []metaRow{}
	row := func(m storage.MetaRun, store string) metaRow {
		return metaRow{ID: m.ID, Store: store, Method: m.Method, Opponent: m.Opponent, Seed: m.Seed,
			Iterations: m.Iterations, BestCost: m.BestCost, Seconds: m.Seconds, Created: m.Created, Finished: m.Finished, State: m.State}
	}
	if s.lab != nil {
		db, err := s.lab.DB(ctx)
		if err != nil {
			return nil, err
		}
		var runs []storage.MetaRun
		if db != nil { // nil: no lab database yet
			runs, err = db.MetaRuns(ctx)
		}
		if err != nil {
			return nil, err
		}
		for i := len(runs) - 1; i >= 0 && i >= len(runs)-overviewLabRuns; i-- {
			rows = append(rows, row(s.liveLabRun(runs[i]), "lab"))
		}
	}
	runs, err := s.db.MetaRuns(ctx)
	if err != nil {
		return nil, err
	}
	for _, m := range runs {
		rows = append(rows, row(m, "main"))
	}
	return rows, nil
}

// loadOverview reads every run and chess-lab run.
func (s *Server) loadOverview(r *http.Request) (overview, error) {
	ctx := r.Context()
	o := overview{Page: s.page("Overview"), Runs: []runRow{}, Meta: []metaRow{}, Database: s.opts.DB}
	status, err := s.db.Status(ctx)
	if err != nil {
		return o, err
	}
	var targets map[string]int
	if s.opts.Targets != nil {
		targets = s.opts.Targets()
	}
	for _, st := range status {
		row := runRow{PopulationStatus: st, Target: targets[st.Game]}
		if row.Target <= 0 {
			row.Target = st.DaemonTarget // a daemon in another process
		}
		if eta, ok := progress.Remaining(st.Generation, row.Target, st.GensPerHour); ok && eta.Left > 0 {
			d := eta.Duration()
			row.ETA = fmt.Sprintf("%s (%s)", roundDuration(d), time.Now().Add(d).UTC().Format("Jan 2 15:04 UTC"))
		}
		if rt, ok, err := s.db.LatestRating(ctx, st.Game); err != nil {
			return o, err
		} else if ok {
			row.Rating = viewRating(rt)
		}
		if err := s.sparks(ctx, &row); err != nil {
			return o, err
		}
		o.Runs = append(o.Runs, row)
	}
	if o.Meta, err = s.recentLabRuns(ctx); err != nil {
		return o, err
	}
	if o.Size, err = s.db.Size(ctx); err != nil {
		return o, err
	}
	workers, err := s.db.Workers(ctx)
	if err != nil {
		return o, err
	}
	for _, w := range workers {
		if time.Since(w.LastSeen) < 5*time.Minute {
			o.Workers++
		}
	}
	return o, nil
}

// sparks draws row's sparklines: the champion's fitness at sparkPoints
// generations, and every rating, by generation.
func (s *Server) sparks(ctx context.Context, row *runRow) error {
	xMax := float64(max(row.Generation-1, 0))
	samples, err := s.db.SampleFitness(ctx, row.Game, sparkPoints)
	if err != nil {
		return err
	}
	var xs, ys []float64
	for _, p := range samples {
		xs, ys = append(xs, float64(p.Generation)), append(ys, p.Best)
	}
	row.FitnessSpark = sparkPath(xs, ys, xMax)
	ratings, err := s.db.Ratings(ctx, row.Game)
	if err != nil {
		return err
	}
	xs, ys = nil, nil
	ci := 0.0
	for _, r := range ratings {
		xs, ys, ci = append(xs, float64(r.Generation)), append(ys, r.Elo), r.CI
	}
	row.RatingSpark = ratingSparkPath(xs, ys, ci, xMax)
	return nil
}

// roundDuration writes d to the minute, or to the hour past two days.
func roundDuration(d time.Duration) string {
	if d > 48*time.Hour {
		return fmt.Sprintf("%.0f h", d.Hours())
	}
	d = d.Round(time.Minute)
	if d < time.Minute {
		return "under a minute"
	}
	return d.String()[:len(d.String())-2] // "1h5m0s" -> "1h5m"
}

// championView is one row of a population's champion history.
type championView struct {
	storage.ChampionRow
	Rating *ratingView `json:"rating,omitempty"`
}

// population is a population page's data.
type population struct {
	Page
	Status    storage.PopulationStatus
	Config    string // the run's stored configuration, indented
	Rating    *ratingView
	Ratings   []ratingView
	Champions []championView // latest first, one page of them
	// From is the first generation of the page (the latest on it) and
	// Older, Newer the From of the pages beside it (-1: none).
	From, Older, Newer int
	CurvesAPI          string
}

// championsPerPage is how many champions a population page lists.
const championsPerPage = 100

// populationPage shows a population: its curves, ratings and champions.
func (s *Server) populationPage(w http.ResponseWriter, r *http.Request) {
	game, err := gameParam(r)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	ctx := r.Context()
	run, err := s.db.LoadRun(ctx, game)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	status, err := s.db.Status(ctx)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	p := population{Page: s.page(game), CurvesAPI: "/api/games/" + game + "/curves", Older: -1, Newer: -1}
	p.Game = game
	for _, st := range status {
		if st.Game == game {
			p.Status = st
		}
	}
	var indented bytes.Buffer
	if json.Indent(&indented, []byte(run.Config), "", "  ") == nil {
		p.Config = indented.String()
	} else {
		p.Config = run.Config
	}
	ratings, err := s.db.Ratings(ctx, game)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	byGen := map[int]*ratingView{}
	for _, rt := range ratings {
		v := viewRating(rt)
		p.Ratings = append(p.Ratings, *v)
		byGen[rt.Generation] = v
	}
	if len(ratings) > 0 {
		p.Rating = viewRating(ratings[len(ratings)-1])
	}
	latest := p.Status.Generation - 1
	p.From = latest
	if v := r.URL.Query().Get("from"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			s.failErr(w, r, &badParam{"from", v, "a generation number"})
			return
		}
		p.From = min(n, latest)
	}
	page, err := s.db.ChampionRange(ctx, game, max(0, p.From-championsPerPage+1), p.From)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	for i := len(page) - 1; i >= 0; i-- { // latest first
		p.Champions = append(p.Champions, championView{ChampionRow: page[i], Rating: byGen[page[i].Generation]})
	}
	if p.From-championsPerPage >= 0 {
		p.Older = p.From - championsPerPage
	}
	if p.From < latest {
		p.Newer = min(latest, p.From+championsPerPage)
	}
	s.render(w, r, http.StatusOK, "population", p)
}

// generationView is a generation page's data and its API answer.
type generationView struct {
	Page       `json:"-"`
	Generation int                 `json:"generation"`
	Played     int                 `json:"played"`
	Champion   storage.ChampionRow `json:"champion"`
	// Challenge is the generation's title match (champion_games), or nil.
	Challenge   *storage.ChallengeRecord `json:"challenge,omitempty"`
	Members     []storage.Member         `json:"members"`
	Games       []storage.GameSummary    `json:"games"`
	Prev, Next  int                      `json:"-"` // -1: none
	PrunedGames bool                     `json:"pruned_games"`
	// PrunedMembers says the generation's population is no longer
	// stored ([jobs] members_keep); its summary and champion are.
	PrunedMembers bool `json:"pruned_members"`
}

// loadGeneration reads a generation's champion, agents and games.
func (s *Server) loadGeneration(r *http.Request) (generationView, error) {
	var v generationView
	game, err := gameParam(r)
	if err != nil {
		return v, err
	}
	gen, err := intParam(r, "gen")
	if err != nil {
		return v, err
	}
	ctx := r.Context()
	if v.Members, err = s.db.Members(ctx, game, gen); err != nil {
		return v, err
	}
	if v.Games, err = s.db.GameList(ctx, game, gen); err != nil {
		return v, err
	}
	if v.Challenge, err = s.db.Challenge(ctx, game, gen); err != nil {
		return v, err
	}
	if v.Played, err = s.db.Generations(ctx, game); err != nil {
		return v, err
	}
	champion, err := s.db.ChampionRange(ctx, game, gen, gen)
	if err != nil {
		return v, err
	}
	v.Page = s.page(fmt.Sprintf("%s generation %d", game, gen))
	v.Game, v.Generation, v.Champion = game, gen, champion[0]
	v.Prev, v.Next = gen-1, gen+1
	if v.Next >= v.Played {
		v.Next = -1
	}
	v.PrunedGames = len(v.Games) == 0
	v.PrunedMembers = len(v.Members) == 0
	return v, nil
}

// replayView is the replay page's data.
type replayView struct {
	Page
	Generation           int
	Kind                 string
	Index                int
	First, Second        string
	Result, Reason       string
	API, RecordURL, Back string
}

// replayPage shows one stored game on a board.
func (s *Server) replayPage(w http.ResponseWriter, r *http.Request) {
	game, gen, kind, idx, err := gameRef(r)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	g, err := s.db.StoredGameOf(r.Context(), game, gen, kind, idx)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	api := fmt.Sprintf("/api/games/%s/generations/%d/games/%s/%d", game, gen, kind, idx)
	v := replayView{Page: s.page(fmt.Sprintf("%s generation %d, %s game %d", game, gen, kind, idx)),
		Generation: gen, Kind: kind, Index: idx, First: playerName(g.First), Second: playerName(g.Second),
		Result: g.Result, Reason: g.Reason, API: api, RecordURL: api + "/record",
		Back: fmt.Sprintf("/games/%s/generations/%d", game, gen)}
	v.Game = game
	s.render(w, r, http.StatusOK, "replay", v)
}

// playerName names a stored game's player: "agent 12" for an agent id,
// the player spec otherwise.
func playerName(s string) string {
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return "agent " + s
	}
	return s
}

// playView is the play page's data.
type playView struct {
	Page
	Games []string
}

// playPage is the board to play on; play.js drives it through the API.
func (s *Server) playPage(w http.ResponseWriter, r *http.Request) {
	v := playView{Page: s.page("Play"), Games: slices.Clone(knownGames)}
	v.Game = "chess"
	if g := r.URL.Query().Get("game"); g != "" {
		if !slices.Contains(knownGames, g) {
			s.failErr(w, r, &badParam{"game", g, "one of draughts, chess, xiangqi"})
			return
		}
		v.Game = g
	} else if status, err := s.db.Status(r.Context()); err == nil && len(status) > 0 {
		v.Game = status[0].Game // the database's first run
	}
	s.render(w, r, http.StatusOK, "play", v)
}

// finite replaces NaN and infinities, which JSON cannot carry, with 0.
func finite(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}

package web

import (
	"bytes"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"evolved/agent"
	"evolved/games"
	"evolved/play"
	"evolved/storage"
)

// curvesView is a population's learning curves for the charts: per
// generation, the fitness, the ladder and the baselines, and the ratings.
type curvesView struct {
	Game string `json:"game"`
	// Bucket is how many generations each point averages: 1 until a run
	// has more generations than the curve has points.
	Bucket      int       `json:"bucket"`
	Generations []int     `json:"generations"`
	Best        []float64 `json:"best"`
	Mean        []float64 `json:"mean"`
	// Ladder holds the ladder's means at LadderGenerations, the
	// generations that played it (a long run plays it every tenth).
	LadderGenerations []int                      `json:"ladder_generations"`
	Ladder            []float64                  `json:"ladder"`
	Baselines         map[string][]baselinePoint `json:"baselines"`
	Ratings           []ratingView               `json:"ratings"`
}

type baselinePoint struct {
	Generation int     `json:"generation"`
	Score      float64 `json:"score"`
	Elo        float64 `json:"elo"`
	CI         float64 `json:"ci"`
	Games      int     `json:"games"`
}

// apiCurves answers a population's learning curves.
func (s *Server) apiCurves(w http.ResponseWriter, r *http.Request) {
	game, err := gameParam(r)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	c, err := s.db.LoadCurves(r.Context(), game)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	ratings, err := s.db.Ratings(r.Context(), game)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	points, err := queryInt(r, "points", maxCurvePoints, 10, 100_000)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	k := perPoint(len(c.Generations), points)
	v := curvesView{Game: game, Bucket: max(k, 1), Baselines: map[string][]baselinePoint{}, Ratings: []ratingView{}}
	v.Generations, v.Best = bucketMeans(c.Generations, c.Best, k)
	_, v.Mean = bucketMeans(c.Generations, c.Mean, k)
	// The ladder's points are fewer where it thins out: bucket them to
	// about as many points as the others.
	lk := perPoint(len(c.LadderGenerations), points)
	v.LadderGenerations, v.Ladder = bucketMeans(c.LadderGenerations, c.LadderMean, lk)
	if v.Generations == nil {
		v.Generations, v.Best, v.Mean = []int{}, []float64{}, []float64{}
	}
	if v.LadderGenerations == nil {
		v.LadderGenerations, v.Ladder = []int{}, []float64{}
	}
	for name, ps := range c.Baselines {
		// Baselines are played every baseline_every generations: thin
		// them to about as many points as the other curves.
		step := max(1, perPoint(len(ps), points))
		for i := len(ps) - 1; i >= 0; i -= step { // the latest always
			p := ps[i]
			// A score of 0 or 1 has an infinite Elo difference.
			v.Baselines[name] = append(v.Baselines[name], baselinePoint{Generation: p.Generation, Score: p.Score,
				Elo: finite(p.Elo), CI: finite(p.EloCI), Games: p.Games})
		}
		slices.Reverse(v.Baselines[name])
	}
	for _, rt := range ratings {
		v.Ratings = append(v.Ratings, *viewRating(rt))
	}
	writeJSON(w, http.StatusOK, v)
}

// apiChampions answers a population's champion history.
func (s *Server) apiChampions(w http.ResponseWriter, r *http.Request) {
	game, err := gameParam(r)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	from, err := queryInt(r, "from", 0, 0, math.MaxInt32)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	limit, err := queryInt(r, "limit", maxChampionsPerRequest, 1, maxChampionsPerRequest)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	c, err := s.db.ChampionRange(r.Context(), game, from, from+limit) // one more: is there a next page?
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	answer := map[string]any{"game": game}
	if len(c) > limit {
		c = c[:limit]
		answer["next"] = from + limit
	}
	if c == nil {
		c = []storage.ChampionRow{}
	}
	answer["champions"] = c
	writeJSON(w, http.StatusOK, answer)
}

// maxChampionsPerRequest bounds an answer of the champions API: a run of
// weeks has hundreds of thousands; "next" gives the following page.
const maxChampionsPerRequest = 10000

// queryInt reads an optional integer query parameter from lo to hi.
func queryInt(r *http.Request, name string, def, lo, hi int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, &badParam{name, v, fmt.Sprintf("a whole number from %d to %d", lo, hi)}
	}
	return n, nil
}

// maxCurvePoints is how many points a curve has at most by default: a run
// of weeks plays hundreds of thousands of generations, more than a chart
// has pixels, so longer curves are averaged over buckets of generations.
const maxCurvePoints = 2000

// perPoint returns how many of n values each of at most points points
// holds: n/points rounded up (0 for none).
func perPoint(n, points int) int { return (n + points - 1) / points }

// bucketMeans averages ys over consecutive runs of k points, each labelled with
// the last x of its run; k <= 1 returns them as they are.
func bucketMeans(xs []int, ys []float64, k int) ([]int, []float64) {
	if k <= 1 {
		return xs, ys
	}
	var bx []int
	var by []float64
	for i := 0; i < len(xs); i += k {
		j := min(i+k, len(xs))
		sum := 0.0
		for _, y := range ys[i:j] {
			sum += y
		}
		bx, by = append(bx, xs[j-1]), append(by, sum/float64(j-i))
	}
	return bx, by
}

// apiAgent serves a champion as an agent file, the bytes `evolved export`
// writes, as a download.
func (s *Server) apiAgent(w http.ResponseWriter, r *http.Request) {
	game, err := gameParam(r)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	gen, err := intParam(r, "gen")
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	f, err := s.db.ChampionAgent(r.Context(), game, gen)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	var buf bytes.Buffer
	if err := agent.Write(&buf, f); err != nil {
		s.failErr(w, r, err)
		return
	}
	download(w, fmt.Sprintf("%s-gen%d.json", game, gen), "application/json", buf.Bytes())
}

// download writes body as an attachment named name.
func download(w http.ResponseWriter, name, contentType string, body []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, name))
	w.Header().Set("Cache-Control", "no-store")
	w.Write(body)
}

// gameView is a stored game for the replay board.
type gameView struct {
	Game       string      `json:"game"`
	Generation int         `json:"generation"`
	Kind       string      `json:"kind"`
	Index      int         `json:"idx"`
	First      string      `json:"first"`
	Second     string      `json:"second"`
	Result     string      `json:"result"`
	Reason     string      `json:"reason"`
	Start      string      `json:"start"`
	Replay     play.Replay `json:"replay"`
}

// storedGame reads the stored game a path names.
func (s *Server) storedGame(r *http.Request) (storage.StoredGame, error) {
	game, gen, kind, idx, err := gameRef(r)
	if err != nil {
		return storage.StoredGame{}, err
	}
	return s.db.StoredGameOf(r.Context(), game, gen, kind, idx)
}

// apiGame answers a stored game, position by position.
func (s *Server) apiGame(w http.ResponseWriter, r *http.Request) {
	g, err := s.storedGame(r)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	rep, err := play.ReplayGame(g.Game, g.Start, g.Moves)
	if err != nil {
		// The daemon wrote it: a game that does not replay is a defect,
		// not bad input.
		s.fail(w, r, http.StatusInternalServerError, "replay %s generation %d %s game %d: %v", g.Game, g.Generation, g.Kind, g.Index, err)
		return
	}
	writeJSON(w, http.StatusOK, gameView{Game: g.Game, Generation: g.Generation, Kind: g.Kind, Index: g.Index,
		First: playerName(g.First), Second: playerName(g.Second), Result: g.Result, Reason: g.Reason, Start: g.Start, Replay: rep})
}

// recordExt returns the extension of game's records, without its dot
// ("pdn" for draughts), or "txt" for a game evolved does not know.
func recordExt(game string) string {
	g, err := games.Lookup(game)
	if err != nil {
		return "txt"
	}
	return strings.TrimPrefix(g.RecordExts[0], ".")
}

// apiGameRecord serves a stored game as a PGN or PDN file.
func (s *Server) apiGameRecord(w http.ResponseWriter, r *http.Request) {
	g, err := s.storedGame(r)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	var buf bytes.Buffer
	tags := map[string]string{
		"Event": fmt.Sprintf("evolved %s generation %d, %s game %d", g.Game, g.Generation, g.Kind, g.Index),
		"Site":  "evolved",
		"Round": fmt.Sprint(g.Generation),
	}
	if err := play.RecordOf(&buf, g.Game, g.Start, g.Moves, playerName(g.First), playerName(g.Second), g.Result, tags); err != nil {
		s.fail(w, r, http.StatusInternalServerError, "record of %s generation %d %s game %d: %v", g.Game, g.Generation, g.Kind, g.Index, err)
		return
	}
	name := fmt.Sprintf("%s-gen%d-%s%d.%s", g.Game, g.Generation, g.Kind, g.Index, recordExt(g.Game))
	download(w, name, "application/x-chess-pgn; charset=utf-8", buf.Bytes())
}

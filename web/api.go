package web

import (
	"bytes"
	"fmt"
	"net/http"

	"evolved/agent"
	"evolved/play"
	"evolved/player"
	"evolved/storage"
)

// apiStatus answers the overview as JSON.
func (s *Server) apiStatus(w http.ResponseWriter, r *http.Request) {
	o, err := s.loadOverview(r)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, o)
}

// curvesView is a population's learning curves for the charts: per
// generation, the fitness, the ladder and the baselines, and the ratings.
type curvesView struct {
	Game        string                     `json:"game"`
	Generations []int                      `json:"generations"`
	Best        []float64                  `json:"best"`
	Mean        []float64                  `json:"mean"`
	Ladder      []float64                  `json:"ladder"`
	Baselines   map[string][]baselinePoint `json:"baselines"`
	Ratings     []ratingView               `json:"ratings"`
}

type baselinePoint struct {
	Generation int     `json:"generation"`
	Score      float64 `json:"score"`
	Elo        float64 `json:"elo"`
	CI         float64 `json:"ci"`
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
	v := curvesView{Game: game, Generations: c.Generations, Best: c.Best, Mean: c.Mean, Ladder: c.LadderMean,
		Baselines: map[string][]baselinePoint{}, Ratings: []ratingView{}}
	if v.Generations == nil {
		v.Generations, v.Best, v.Mean, v.Ladder = []int{}, []float64{}, []float64{}, []float64{}
	}
	for name, points := range c.Baselines {
		for _, p := range points {
			// A score of 0 or 1 has an infinite Elo difference.
			v.Baselines[name] = append(v.Baselines[name], baselinePoint{Generation: p.Generation, Score: p.Score,
				Elo: finite(p.Elo), CI: finite(p.EloCI)})
		}
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
	c, err := s.db.Champions(r.Context(), game)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	if c == nil {
		c = []storage.ChampionRow{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"game": game, "champions": c})
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
	f, err := player.ChampionAgent(r.Context(), s.db, game, gen)
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

// apiGeneration answers a generation's agents and games.
func (s *Server) apiGeneration(w http.ResponseWriter, r *http.Request) {
	v, err := s.loadGeneration(r)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
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

// recordExt is the extension of each game's records.
var recordExt = map[string]string{"draughts": "pdn", "chess": "pgn", "xiangqi": "pgn"}

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
	name := fmt.Sprintf("%s-gen%d-%s%d.%s", g.Game, g.Generation, g.Kind, g.Index, recordExt[g.Game])
	download(w, name, "application/x-chess-pgn; charset=utf-8", buf.Bytes())
}

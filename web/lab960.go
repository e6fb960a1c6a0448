package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"evolved/chess960"
	"evolved/play"
)

// chess960Request is a Chess960 arrangement search the lab page asks for,
// named as `evolved chess960 ga`'s flags and the improved GA's
// parameters.
type chess960Request struct {
	Method     string  `json:"method"` // classic or improved
	Seed       uint64  `json:"seed"`
	Population int     `json:"population"`
	Iterations int     `json:"iterations"` // classic: generations bred
	Mutation   float64 `json:"mutation"`
	Elitism    float64 `json:"elitism"`    // classic
	Budget     int     `json:"budget"`     // improved: fitness evaluations at most
	Tournament int     `json:"tournament"` // improved
	Retries    int     `json:"retries"`    // improved
}

// chess960Limits bound a search the site runs while the request waits: at
// most a few hundred thousand fitness evaluations, a few milliseconds.
const (
	chess960MaxPopulation = 100
	chess960MaxIterations = 1000
	chess960MaxBudget     = 10_000
)

// chess960Generation is one generation of a classic run.
type chess960Generation struct {
	Iteration   int     `json:"iteration"`
	Best        int     `json:"best"`
	Mean        float64 `json:"mean"`
	Fitness     []int   `json:"fitness"`
	Evaluations int     `json:"evaluations"`
	Arrangement string  `json:"arrangement"` // the generation's best
}

// chess960Evaluation is one fitness evaluation of an improved run.
type chess960Evaluation struct {
	N       int `json:"n"`       // its number, from 1
	Fitness int `json:"fitness"` // the fitness evaluated
	Best    int `json:"best"`    // the best so far
}

// chess960Response is a finished search: its curve, its best arrangement
// and that arrangement's start position as a board.
type chess960Response struct {
	Method      string               `json:"method"`
	Seed        uint64               `json:"seed"`
	Generations []chess960Generation `json:"generations,omitempty"` // classic
	Evaluations []chess960Evaluation `json:"evaluations,omitempty"` // improved: every evaluation
	Best        string               `json:"best"`
	Glyphs      string               `json:"glyphs"`
	Fitness     int                  `json:"fitness"`
	Used        int                  `json:"used"`     // fitness evaluations spent
	FoundAt     int                  `json:"found_at"` // the evaluation that met the optimum; 0 if none
	Number      int                  `json:"number"`   // the best arrangement's Scharnagl number
	Board       play.Board           `json:"board"`
}

// apiChess960 runs the classic or the improved Chess960 GA and answers its
// curve and best arrangement. The search takes milliseconds, so the
// request waits for it.
func (s *Server) apiChess960(w http.ResponseWriter, r *http.Request) {
	if !s.mayStartLab(w, r, false) {
		return
	}
	c, imp := chess960.DefaultClassic(), chess960.DefaultImproved()
	req := chess960Request{Method: "classic", Seed: 1, Population: c.Population, Iterations: c.Iterations, Mutation: c.MutationRate,
		Elitism: c.Elitism, Budget: 500, Tournament: imp.Tournament, Retries: imp.MaxRetries}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		s.fail(w, r, http.StatusBadRequest, "the search's settings: %v", err)
		return
	}
	bad := func(name string, v any, want string) {
		s.fail(w, r, http.StatusBadRequest, "%s %v: want %s", name, v, want)
	}
	switch {
	case req.Method != "classic" && req.Method != "improved":
		bad("method", fmt.Sprintf("%q", req.Method), "classic or improved")
		return
	case req.Population < 2 || req.Population > chess960MaxPopulation:
		bad("population", req.Population, fmt.Sprintf("2 to %d", chess960MaxPopulation))
		return
	case req.Iterations < 0 || req.Iterations > chess960MaxIterations:
		bad("iterations", req.Iterations, fmt.Sprintf("0 to %d", chess960MaxIterations))
		return
	case req.Budget < 1 || req.Budget > chess960MaxBudget:
		bad("budget", req.Budget, fmt.Sprintf("1 to %d", chess960MaxBudget))
		return
	case req.Tournament < 1 || req.Tournament > req.Population:
		bad("tournament", req.Tournament, "1 to the population")
		return
	case req.Retries < 0 || req.Retries > 100:
		bad("retries", req.Retries, "0 to 100")
		return
	}
	out := chess960Response{Method: req.Method, Seed: req.Seed}
	var res chess960.Result
	var err error
	if req.Method == "classic" {
		c.Population, c.Iterations, c.MutationRate, c.Elitism = req.Population, req.Iterations, req.Mutation, req.Elitism
		res, err = c.Run(chess960.Rand(req.Seed, chess960.ClassicGA, 0), 0, func(g chess960.Generation) {
			a, f := g.Best()
			out.Generations = append(out.Generations, chess960Generation{Iteration: g.Iteration, Best: f, Mean: g.Mean(),
				Fitness: append([]int(nil), g.Fitness...), Evaluations: g.Evaluations, Arrangement: a.String()})
		})
	} else {
		imp.Population, imp.Tournament, imp.MutationRate, imp.MaxRetries = req.Population, req.Tournament, req.Mutation, req.Retries
		res, err = imp.Trace(chess960.Rand(req.Seed, chess960.ImprovedGA, 0), req.Budget, func(e chess960.Evaluation) {
			out.Evaluations = append(out.Evaluations, chess960Evaluation{N: e.N, Fitness: e.Fitness, Best: e.Best})
		})
	}
	if errors.Is(err, chess960.ErrConfig) {
		s.fail(w, r, http.StatusBadRequest, "%v", err)
		return
	}
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	out.Best, out.Glyphs, out.Fitness, out.Used, out.FoundAt, out.Number =
		res.Best.String(), res.Best.Glyphs(), res.Fitness, res.Evaluations, res.FoundAt, res.Best.Number()
	rep, err := play.ReplayGame("chess", chess960FEN(res.Best), "")
	if err != nil {
		s.failErr(w, r, fmt.Errorf("the board of %s: %w", res.Best, err))
		return
	}
	out.Board = rep.Boards[0]
	writeJSON(w, http.StatusOK, out)
}

// chess960FEN returns the start position of arrangement a: its back rank
// for both sides behind their pawns, White to move. Castling rights are
// left out: the position is only drawn.
func chess960FEN(a chess960.Arrangement) string {
	rank := a.String()
	return strings.ToLower(rank) + "/pppppppp/8/8/8/8/PPPPPPPP/" + rank + " w - - 0 1"
}

// jsonObject decodes text, a JSON object, into v.
func jsonObject(text string, v *map[string]any) error {
	if err := json.Unmarshal([]byte(text), v); err != nil {
		return fmt.Errorf("not a JSON object: %w", err)
	}
	return nil
}

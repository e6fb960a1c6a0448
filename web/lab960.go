package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
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
// They are the site's only checks of its own: every other range is the
// one `evolved chess960` checks, by the same Validate.
const (
	chess960MaxPopulation = 100
	chess960MaxIterations = 1000
	chess960MaxBudget     = 10_000
	chess960MaxTournament = 100
	chess960MaxRetries    = 100
)

// chess960Only are the settings of one method alone, by the request's
// JSON names; a request that gives another method's is refused, as
// `evolved chess960 ga` refuses --tournament, a flag it does not have.
var chess960Only = map[string][]string{
	"classic":  {"iterations", "elitism"},
	"improved": {"budget", "tournament", "retries"},
}

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
	req, c, imp, err := readChess960(r)
	if err != nil {
		s.failBody(w, r, err)
		return
	}
	out := chess960Response{Method: req.Method, Seed: req.Seed}
	var res chess960.Result
	if req.Method == "classic" {
		res, err = c.Run(chess960.Rand(req.Seed, chess960.ClassicGA, 0), 0, func(g chess960.Generation) {
			a, f := g.Best()
			out.Generations = append(out.Generations, chess960Generation{Iteration: g.Iteration, Best: f, Mean: g.Mean(),
				Fitness: append([]int(nil), g.Fitness...), Evaluations: g.Evaluations, Arrangement: a.String()})
		})
	} else {
		res, err = imp.Trace(chess960.Rand(req.Seed, chess960.ImprovedGA, 0), req.Budget, func(e chess960.Evaluation) {
			out.Evaluations = append(out.Evaluations, chess960Evaluation{N: e.N, Fitness: e.Fitness, Best: e.Best})
		})
	}
	if errors.Is(err, chess960.ErrConfig) { // the budget, which Trace checks
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

// chess960Defaults returns method's settings as `evolved chess960` has
// them by default, with only the fields that belong to method set. The
// lab page's form takes its defaults from them.
func chess960Defaults(method string) chess960Request {
	req := chess960Request{Method: method, Seed: 1} // `evolved chess960 ga`'s seed
	if method == "classic" {
		c := chess960.DefaultClassic()
		req.Population, req.Iterations, req.Mutation, req.Elitism = c.Population, c.Iterations, c.MutationRate, c.Elitism
	} else {
		imp := chess960.DefaultImproved()
		req.Budget = 500 // the classic GA's evaluations: population 10 × 50 iterations
		req.Population, req.Tournament, req.Mutation, req.Retries = imp.Population, imp.Tournament, imp.MutationRate, imp.MaxRetries
	}
	return req
}

// readChess960 reads a search's settings from r's JSON body over the
// method's defaults, `evolved chess960`'s, and checks them as the CLI
// does, with the method's own Validate, then against chess960Limits. It
// returns the request and the method's parameters; its errors are a
// *badInput or a *badParam, or the body's *http.MaxBytesError.
func readChess960(r *http.Request) (chess960Request, chess960.Classic, chess960.Improved, error) {
	c, imp := chess960.DefaultClassic(), chess960.DefaultImproved()
	req := chess960Request{Method: "classic"}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return req, c, imp, err
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		return req, c, imp, &badInput{fmt.Sprintf("the search's settings: not a JSON object: %v", err)}
	}
	if m, ok := keys["method"]; ok {
		if err := json.Unmarshal(m, &req.Method); err != nil {
			return req, c, imp, &badInput{fmt.Sprintf("the search's settings: method: %v", err)}
		}
	}
	if _, ok := chess960Only[req.Method]; !ok {
		return req, c, imp, &badParam{"method", req.Method, "classic or improved"}
	}
	for _, m := range slices.Sorted(maps.Keys(chess960Only)) {
		for _, name := range chess960Only[m] {
			if _, given := keys[name]; given && m != req.Method {
				return req, c, imp, &badInput{fmt.Sprintf("%s is for method %s, not %s", name, m, req.Method)}
			}
		}
	}
	req = chess960Defaults(req.Method)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return req, c, imp, &badInput{fmt.Sprintf("the search's settings: %v", err)}
	}
	if req.Method == "classic" {
		c.Population, c.Iterations, c.MutationRate, c.Elitism = req.Population, req.Iterations, req.Mutation, req.Elitism
		err = c.Validate()
	} else {
		imp.Population, imp.Tournament, imp.MutationRate, imp.MaxRetries = req.Population, req.Tournament, req.Mutation, req.Retries
		err = imp.Validate() // and Trace the budget
	}
	if err != nil {
		return req, c, imp, &badInput{err.Error()}
	}
	type limit struct {
		name    string
		v, most int
	}
	limits := []limit{{"population", req.Population, chess960MaxPopulation}}
	if req.Method == "classic" {
		limits = append(limits, limit{"iterations", req.Iterations, chess960MaxIterations})
	} else {
		limits = append(limits, limit{"budget", req.Budget, chess960MaxBudget}, limit{"tournament", req.Tournament, chess960MaxTournament},
			limit{"retries", req.Retries, chess960MaxRetries})
	}
	for _, l := range limits {
		if l.v > l.most {
			return req, c, imp, &badInput{fmt.Sprintf("%s %d: want at most %d on this site, which runs the search while the request waits", l.name, l.v, l.most)}
		}
	}
	return req, c, imp, nil
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

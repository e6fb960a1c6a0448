package player

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"evolved/agent"
	"evolved/game/chess"
	"evolved/game/xiangqi"
	"evolved/nnet"
	"evolved/search"
)

// EPTPlies is where MCTS with early playout termination cuts a playout and
// scores the position reached: after six plies, as in the study this
// project started from.
const EPTPlies = 6

// MaxPlayouts is the most playouts a move that mcts:N, ept:N and a run's
// search key may ask for.
const MaxPlayouts = maxPlayouts

// ErrSearch is wrapped by every error about a search setting (a run's
// search key) that is not one ParseSearch reads.
var ErrSearch = errors.New("player: bad search")

// ParseSearch reads how a population's agents search, a run's search key:
// "" for alpha-beta (to the run's depth, under its node budget), "#LIST"
// for alpha-beta with the techniques and parameters of LIST
// (search.ParseSettings: #rfp_margin=80,lmr_divisor=250), or "ept:N" for
// MCTS-EPT of N playouts a move, each cut after EPTPlies plies and scored
// by the agent's own net. It returns N (0 for alpha-beta) and LIST.
func ParseSearch(s string) (playouts int, settings string, err error) {
	playouts, settings, ok := agent.ParseSearch(s)
	if !ok {
		return 0, "", fmt.Errorf("%w %q: want \"\" (alpha-beta), #LIST (alpha-beta with the techniques and parameters of LIST, as #rfp_margin=80) or ept:N (MCTS-EPT of N playouts a move scored by the agent's net, N from 1 to %d)",
			ErrSearch, s, maxPlayouts)
	}
	if settings != "" {
		if _, _, err := search.ParseSettings(settings, search.DefaultTechniques, search.DefaultParams()); err != nil {
			return 0, "", fmt.Errorf("%w %q: %w", ErrSearch, s, err)
		}
	}
	return playouts, settings, nil
}

// netEPTSpec reads the specs that put an agent's net into MCTS-EPT,
// ept:N@FILE: N playouts a move, each cut after EPTPlies plies and scored
// by the net of the agent file FILE, an agent of game, through netEPT. ok
// is false for every other spec (an agent file whose name holds an @
// included). mcts:N@FILE is refused: plain MCTS plays its playouts to the
// end and scores no position.
func netEPTSpec[M comparable, S search.Game[M]](spec, game string, netEPT func(string, *nnet.Net, int) (Spec[M, S], error)) (_ Spec[M, S], ok bool, _ error) {
	head, path, hasAt := strings.Cut(spec, "@")
	kind, n, _ := strings.Cut(head, ":")
	kind = strings.ToLower(kind)
	if !hasAt || kind != "ept" && kind != "mcts" {
		return Spec[M, S]{}, false, nil
	}
	if kind == "mcts" {
		return Spec[M, S]{}, true, fmt.Errorf("%w %q: mcts plays every playout to the end and scores no position; ept:%s@FILE scores them with FILE's net", ErrSpec, spec, n)
	}
	playouts, err := strconv.Atoi(n)
	if err != nil || playouts < 1 || playouts > maxPlayouts {
		return Spec[M, S]{}, true, fmt.Errorf("%w %q: ept takes a whole number of playouts from 1 to %d, as in ept:1000@FILE", ErrSpec, spec, maxPlayouts)
	}
	if path == "" {
		return Spec[M, S]{}, true, fmt.Errorf("%w %q: ept:N@FILE needs the agent file whose net scores the playouts", ErrSpec, spec)
	}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return Spec[M, S]{}, true, fmt.Errorf("%w %q: no such agent file %s", ErrSpec, spec, path)
	}
	a, err := ReadAgent(path, game)
	if err != nil {
		return Spec[M, S]{}, true, &specError{spec: spec, err: err}
	}
	s, err := netEPT(fmt.Sprintf("ept:%d@%s", playouts, AgentName(path, a)), a.Net, playouts)
	return s, true, err
}

// specError is an error about the agent file of a spec: ErrSpec naming
// the spec, then the file's error without its package prefix.
type specError struct {
	spec string
	err  error
}

func (e *specError) Error() string {
	return fmt.Sprintf("%v %q: %s", ErrSpec, e.spec, strings.TrimPrefix(e.err.Error(), "player: "))
}

// Unwrap returns ErrSpec and the file's error.
func (e *specError) Unwrap() []error { return []error{ErrSpec, e.err} }

// eptOptions are the options of MCTS-EPT with playouts playouts a move.
func eptOptions(playouts int) search.MCTSOptions {
	return search.MCTSOptions{Playouts: playouts, PlayoutPlies: EPTPlies}
}

// clampEval rounds v, a net's value in centipawns, within search's bounds.
func clampEval(v float64) int {
	return int(max(-search.MaxEval, min(search.MaxEval, math.Round(v))))
}

// chessScratch scores a chess position with a net from scratch, for
// MCTS-EPT: a playout's leaf is no step of a search path, so an
// accumulator would only add a Reset per leaf (both points of view)
// to what one from-scratch evaluation (the side to move's) costs. It is
// bit-identical to chessNetEval, and does not allocate.
type chessScratch struct{ e *nnet.ChessEval }

// Evaluate returns the net's value in centipawns for the side to move.
func (c chessScratch) Evaluate(g *chess.Game) int {
	return clampEval(c.e.Evaluate(g.Position(), g.ToMove()) * 100)
}

// ChessNetEPT returns a spec whose players run MCTS-EPT, playouts
// playouts a move, with net scoring the playouts cut after EPTPlies plies
// (its centipawns turned into a win rate by centipawnWinRate). The net's
// evaluator is built once and shared read-only by every player made.
func ChessNetEPT(name string, net *nnet.Net, playouts int) (ChessSpec, error) {
	eval, err := nnet.NewChessEval(net)
	if err != nil {
		return ChessSpec{}, fmt.Errorf("player %s: %w", name, err)
	}
	return mctsSpec[chess.Move](name, eptOptions(playouts), search.Evaluator[*chess.Game](chessScratch{eval}), centipawnWinRate), nil
}

// xiangqiScratch scores a xiangqi position with a net from scratch, for
// MCTS-EPT, as chessScratch does for chess.
type xiangqiScratch struct{ e *nnet.XiangqiEval }

// Evaluate returns the net's value in centipawns for the side to move.
func (x xiangqiScratch) Evaluate(g *xiangqi.Game) int {
	return clampEval(x.e.Evaluate(g.Position(), g.ToMove()) * 100)
}

// XiangqiNetEPT returns a spec whose players run MCTS-EPT, playouts
// playouts a move, with net scoring the playouts cut after EPTPlies plies
// (its centipawns turned into a win rate by centipawnWinRate).
func XiangqiNetEPT(name string, net *nnet.Net, playouts int) (XiangqiSpec, error) {
	eval, err := nnet.NewXiangqiEval(net)
	if err != nil {
		return XiangqiSpec{}, fmt.Errorf("player %s: %w", name, err)
	}
	return mctsSpec[xiangqi.Move](name, eptOptions(playouts), search.Evaluator[*xiangqi.Game](xiangqiScratch{eval}), centipawnWinRate), nil
}

// ChessEPT is MCTS-EPT with a chess net as a UCI server drives it (the
// methods of uci/server.Searcher): the limits of each go command, one
// report a search. It belongs to one goroutine.
type ChessEPT struct {
	eval     chessScratch
	playouts int
	t        *search.MCTS[chess.Move, *chess.Game]
	src      *rand.PCG
	rng      *rand.Rand
	report   func(search.Result[chess.Move])
}

// ChessNetEPTSearch returns MCTS-EPT with net scoring the playouts,
// playouts a move unless a go command sets a limit, seeded as after Reset.
func ChessNetEPTSearch(net *nnet.Net, playouts int) (*ChessEPT, error) {
	e, err := nnet.NewChessEval(net)
	if err != nil {
		return nil, fmt.Errorf("player: %w", err)
	}
	c := &ChessEPT{eval: chessScratch{e}, playouts: playouts, src: rand.NewPCG(0, 0)}
	c.rng = rand.New(c.src)
	c.t = search.NewMCTS[chess.Move, *chess.Game](eptOptions(playouts), c.eval, centipawnWinRate)
	c.Reset()
	return c, nil
}

// Reset reseeds the playouts (ucinewgame), so that a game's moves depend
// only on its positions and limits.
func (c *ChessEPT) Reset() { c.src.Seed(uint64(c.playouts), 0x657074) } // "ept"

// Limits sets the next searches' budget: nodes playouts if positive; else
// as many as t allows if positive; else the playouts the search was made
// with (so also for go infinite, whose best move waits for stop). MCTS has
// no depth.
func (c *ChessEPT) Limits(_ int, nodes int64, t time.Duration) {
	o := eptOptions(c.playouts)
	o.Exploration = c.t.Options().Exploration
	switch {
	case nodes > 0:
		o.Playouts, o.Time = int(min(nodes, MaxPlayouts)), t
	case t > 0:
		o.Playouts, o.Time = 1<<30, t
	}
	if o != c.t.Options() {
		c.t = search.NewMCTS[chess.Move, *chess.Game](o, c.eval, centipawnWinRate)
	}
}

// Clock sets the next searches to run for the soft time of a clock: MCTS
// has no iterations whose stability could end it sooner.
func (c *ChessEPT) Clock(soft, _ time.Duration) { c.Limits(0, 0, soft) }

// OnIteration sets the function told each search's result (MCTS has one
// iteration), for the server's info line.
func (c *ChessEPT) OnIteration(f func(search.Result[chess.Move])) { c.report = f }

// ResizeTable does nothing: MCTS keeps its tree, no table.
func (c *ChessEPT) ResizeTable(int) {}

// Search runs the playouts from g's position. The result's Score is the
// chosen move's mean reward turned back into centipawns through
// centipawnWinRate, so that a GUI reads it as an evaluation; Depth is 1 and
// Nodes the playouts.
func (c *ChessEPT) Search(ctx context.Context, g *chess.Game) search.Result[chess.Move] {
	res := c.t.Search(ctx, g, c.rng)
	res.Score = winRateCentipawns(float64(res.Score) / 1000)
	if c.report != nil && res.Move != chess.NoMove {
		c.report(res)
	}
	return res
}

// centipawnWinRate maps centipawns to a win rate for MCTS-EPT, on the
// logistic scale of 400 centipawns per factor of e in the odds: the chess
// and xiangqi players' (their evaluations count in centipawns alike).
func centipawnWinRate(score int) float64 { return 1 / (1 + math.Exp(-float64(score)/400)) }

// winRateCentipawns inverts centipawnWinRate, p clamped to [0.001, 0.999]
// (±2763 centipawns, well inside search.MaxEval).
func winRateCentipawns(p float64) int {
	p = max(0.001, min(0.999, p))
	return int(math.Round(400 * math.Log(p/(1-p))))
}

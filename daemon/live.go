package daemon

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"evolved/nnet"
	"evolved/progress"
	"evolved/search"
	"evolved/tournament"
)

// liveGames counts the games a generation starts, and reports those past
// the tournament's (the ladder's and the baselines') on the live line.
type liveGames struct {
	line  *progress.Line // the terminal's live line; nil: none
	key   string         // the game's place on it
	mu    sync.Mutex
	rep   *progress.Reporter
	games int    // the tournament's games
	done  int    // the fitness games done (the tournament's and the race's), by Step's progress
	n     int    // games started this generation
	here  bool   // whether the tournament's games start here (not on workers)
	what  string // the generation, as the line names it
	// dist shows the generation's distillation, from its first search
	// on; the generation's line takes its place again when it is done.
	dist *progress.Reporter
}

// progressed records Step's count of the fitness games done.
func (l *liveGames) progressed(done int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.done = max(l.done, done)
}

// reset starts a generation, named what, whose tournament plays games,
// here or on workers; rep may be nil.
func (l *liveGames) reset(rep *progress.Reporter, games int, here bool, what string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.rep, l.games, l.done, l.n, l.here, l.what, l.dist = rep, games, 0, 0, here, what, nil
}

// distilling shows that the generation's distillation has searched done
// of its total positions, on the line in the generation's place.
func (l *liveGames) distilling(done, total int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.line == nil {
		return
	}
	if l.dist == nil {
		l.dist = progress.NewOnLine(l.line, l.key, l.what+": distilling the champion", total, "positions")
	}
	l.dist.Update(done)
}

// finish ends the generation's distillation on the line, if it had one.
func (l *liveGames) finish() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.dist != nil {
		l.dist.Finish()
		l.dist = nil
	}
}

// started records that a game started. Once the tournament's games are all
// started, the tournament reports itself finished before the ladder
// begins, so each later start stands for the previous game being done.
func (l *liveGames) started() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	switch {
	case l.rep == nil:
	case l.here && l.n > l.games+1:
		l.rep.Update(l.n - 1)
	case !l.here && l.n > 1: // only the ladder and baselines start here
		l.rep.Update(max(l.games, l.done) + l.n - 1)
	}
}

// countStarts returns a with NewGame and Start wrapped to call started for
// every game, which every tournament, ladder and baseline game begins with.
func countStarts[M comparable, S search.Game[M]](a tournament.Arena[M, S], started func()) tournament.Arena[M, S] {
	newGame := a.NewGame
	a.NewGame = func() S {
		started()
		return newGame()
	}
	if start := a.Start; start != nil {
		a.Start = func(rng *rand.Rand) S {
			started()
			return start(rng)
		}
	}
	return a
}

// overallRate is the live line's note: the population's generations per
// hour over this session (played generations in elapsed), and with a
// target how many generations are left; "" before the first generation is
// done. The line's one time estimate is its own generation's (its ETA):
// when the run will reach its target is status' ETA column and the web
// overview's.
func overallRate(played int, elapsed time.Duration, generation, target int) string {
	if played == 0 || elapsed <= 0 {
		return "" // no generation finished yet: no rate
	}
	perHour := float64(played) / elapsed.Hours()
	s := fmt.Sprintf("%.1f gens/hour", perHour)
	if eta, ok := progress.Remaining(generation, target, perHour); ok && eta.Left > 0 {
		unit := "generations"
		if eta.Left == 1 {
			unit = "generation"
		}
		s += fmt.Sprintf(", %d %s to the target", eta.Left, unit)
	}
	return s
}

// countNodes returns newPlayer with every player it makes counting the
// nodes of its searches on nodes, for the nodes-per-second metric.
func countNodes[M comparable, S search.Game[M]](newPlayer func(*nnet.Net) (func() search.Player[M, S], error),
	nodes prometheus.Counter) func(*nnet.Net) (func() search.Player[M, S], error) {
	return func(net *nnet.Net) (func() search.Player[M, S], error) {
		mk, err := newPlayer(net)
		if err != nil {
			return nil, err
		}
		return func() search.Player[M, S] { return nodeCounter[M, S]{mk(), nodes} }, nil
	}
}

// nodeCounter is a player that adds its searches' nodes to a counter.
type nodeCounter[M comparable, S search.Game[M]] struct {
	search.Player[M, S]
	nodes prometheus.Counter
}

// Move searches and counts the nodes.
func (n nodeCounter[M, S]) Move(ctx context.Context, s S) (search.Result[M], error) {
	r, err := n.Player.Move(ctx, s)
	n.nodes.Add(float64(r.Nodes))
	return r, err
}

// SetClock hands the clock to a player that manages one (a search by the
// clock, as the champion's in the daemon's ratings). Without it a timed
// game would find no tournament.Clocked here, and the champion would play
// each move at the tournaments' node budget whatever its clock said.
func (n nodeCounter[M, S]) SetClock(mine, theirs, inc time.Duration) {
	if c, ok := n.Player.(tournament.Clocked); ok {
		c.SetClock(mine, theirs, inc)
	}
}

// Prepare readies a player that has work to do before it thinks
// (tournament.Preparer), so that its clock starts after it.
func (n nodeCounter[M, S]) Prepare(ctx context.Context, s S) error {
	if p, ok := n.Player.(tournament.Preparer[S]); ok {
		return p.Prepare(ctx, s)
	}
	return nil
}

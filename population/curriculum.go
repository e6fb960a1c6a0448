package population

import (
	"cmp"
	"context"
	"fmt"
	"math"

	"evolved/elo"
	"evolved/games"
	"evolved/nnet"
	"evolved/search"
	"evolved/seed"
	"evolved/tournament"
)

// The curriculum (Config.CurriculumEvery): a run that has stopped
// climbing at its node budget is asked harder questions. Every
// CurriculumEvery generations the champion meets the champion of that
// many generations before at the budget the run plays; when it scores no
// more than half of the games, the selection at this budget has nothing
// left to find, and the games from the next generation on search under
// CurriculumStep times the nodes. Deeper searches let the finer parts of
// the genome (terms, tables) decide games, which is what a plateau lacks.
// The decision is a game result, so a resumed run decides the same.

// CurriculumCheck is a generation's check of the curriculum.
type CurriculumCheck struct {
	// Opponent is the generation whose champion the champion met.
	Opponent            int
	Wins, Draws, Losses int
	// Score is the champion's score fraction; Elo and HalfWidth the Elo
	// difference it implies with its 95% interval.
	Score, Elo, HalfWidth float64
	// Nodes is the budget the games searched under, Next the budget of the
	// next generation: Nodes times Config.CurriculumStep when Score is at
	// most half (Raised), else Nodes.
	Nodes, Next int64
	Raised      bool
}

// curriculumDue reports whether generation checks the curriculum.
func (c Config) curriculumDue(generation int) bool {
	return c.CurriculumEvery > 0 && generation >= c.CurriculumEvery && generation%c.CurriculumEvery == 0
}

// curriculumGames returns the games of a check.
func (c Config) curriculumGames() int { return cmp.Or(c.CurriculumGames, DefaultCurriculumGames) }

// curriculumStep returns the factor of a raise.
func (c Config) curriculumStep() float64 { return cmp.Or(c.CurriculumStep, DefaultCurriculumStep) }

// raisedNodes returns nodes times the step, rounded, at least one more
// and at most MaxCurriculumNodes.
func (c Config) raisedNodes(nodes int64) int64 {
	next := int64(math.Round(float64(nodes) * c.curriculumStep()))
	return min(max(next, nodes+1), MaxCurriculumNodes)
}

// checkCurriculum plays the champion (champ, searching under nodes)
// against the champion of generation st.Generation - CurriculumEvery
// (net) and decides the next budget.
func checkCurriculum[M comparable, S search.Game[M]](ctx context.Context, sp games.Binding[M, S], cfg Config, st *State, nodes int64,
	net *nnet.Net, champ func() search.Player[M, S]) (*CurriculumCheck, error) {
	opponent := st.Generation - cfg.CurriculumEvery
	opp, err := sp.Player(net)
	if err != nil {
		return nil, fmt.Errorf("population: curriculum: champion of generation %d: %w", opponent, err)
	}
	res, err := tournament.Match(ctx, sp.Arena, champ, opp, tournament.MatchOptions{
		Games: cfg.curriculumGames(), Concurrency: cfg.Tournament.Workers, Slots: cfg.Tournament.Slots,
		Seed: seed.Derive(st.Seed, st.Game, st.Generation, seed.Curriculum, 0),
	})
	if err != nil {
		return nil, fmt.Errorf("population: curriculum against generation %d: %w", opponent, err)
	}
	d, hw := elo.Estimate(res.Wins, res.Draws, res.Losses)
	c := &CurriculumCheck{Opponent: opponent, Wins: res.Wins, Draws: res.Draws, Losses: res.Losses,
		Score: res.Score(), Elo: d, HalfWidth: hw, Nodes: nodes, Next: nodes}
	if 2*res.Wins+res.Draws <= res.Wins+res.Draws+res.Losses { // at most half the points
		c.Raised, c.Next = true, cfg.raisedNodes(nodes)
	}
	return c, nil
}

package player

import (
	"time"

	"evolved/search"
)

// limiter is a player whose search limits can be set: search.Searcher.
type limiter interface {
	Limits(depth int, nodes int64, t time.Duration)
}

// withLimits returns spec whose players that take limits get these
// (limiter.Limits) as they are made; spec itself if on is false.
func withLimits[M comparable, S search.Game[M]](spec Spec[M, S], on bool, depth int, nodes int64, t time.Duration) Spec[M, S] {
	if !on || spec.New == nil {
		return spec
	}
	inner := spec.New
	spec.New = func() search.Player[M, S] {
		p := inner()
		if l, ok := p.(limiter); ok {
			l.Limits(depth, nodes, t)
		}
		return p
	}
	return spec
}

// WithNodes returns spec whose players also end each move's search after
// about nodes nodes (see ChessSetup.Nodes), if nodes is positive and the
// players take limits (alpha-beta searchers do); spec itself otherwise. A
// clock given to a player later (a timed match) replaces the budget.
func WithNodes[M comparable, S search.Game[M]](spec Spec[M, S], nodes int64) Spec[M, S] {
	return withLimits(spec, nodes > 0, 0, nodes, 0)
}

// WithNodeBudget returns spec whose alpha-beta players search each move
// until about nodes nodes are spent, as deep as that takes them (their
// own depth no longer counts), if nodes is positive; spec itself
// otherwise. Players that take no limits (MCTS, UCI engines, which take
// their own nodes= option) are left as they are.
func WithNodeBudget[M comparable, S search.Game[M]](spec Spec[M, S], nodes int64) Spec[M, S] {
	return withLimits(spec, nodes > 0, maxDepth, nodes, 0)
}

// WithMoveTime returns spec whose alpha-beta players search each move for
// about t, as deep as that takes them, if t is positive; spec itself
// otherwise. Players that take no limits are left as they are.
func WithMoveTime[M comparable, S search.Game[M]](spec Spec[M, S], t time.Duration) Spec[M, S] {
	return withLimits(spec, t > 0, maxDepth, 0, t)
}

package tune

import (
	"context"
	"fmt"

	"evolved/search"
	"evolved/tournament"
)

// paramSetter is a player whose search parameters can be set: the
// alpha-beta searchers (search.Searcher).
type paramSetter interface {
	SetParams(search.Params)
}

// Pairs returns the PairFunc that plays pair k in arena with players
// newPlayer makes, given plus's and minus's parameters: the scheduled
// games (tournament.GameID) of index 2k, plus first, and 2k+1, minus
// first, both from opening k, under seed runSeed. The players must take
// parameters (alpha-beta searchers); New's caller checks one first
// (Check).
func Pairs[M comparable, S search.Game[M]](arena tournament.Arena[M, S], runSeed uint64, newPlayer func() search.Player[M, S]) PairFunc {
	with := func(p search.Params) search.Player[M, S] {
		pl := newPlayer()
		pl.(paramSetter).SetParams(p)
		return pl
	}
	return func(ctx context.Context, k int, plus, minus search.Params) (Pair, error) {
		var pair Pair
		for g := range 2 {
			a, b := with(plus), with(minus)
			id := tournament.GameID{RunSeed: runSeed, Index: 2*k + g, Pairing: tournament.Pairing{First: 0, Second: 1, OpeningIndex: k}}
			if g == 1 {
				a, b = b, a
				id.First, id.Second = 1, 0
			}
			rec, err := arena.PlayScheduled(ctx, id, a, b, tournament.Clock{})
			if err != nil {
				return pair, err
			}
			pair[g] = rec.Outcome.Result.FirstScore()
			if g == 1 {
				pair[g] = 1 - pair[g]
			}
		}
		return pair, nil
	}
}

// Check returns an error unless newPlayer makes players whose search
// parameters can be set, naming the player as name.
func Check[M comparable, S search.Game[M]](name string, newPlayer func() search.Player[M, S]) (search.Params, error) {
	p := newPlayer()
	if _, ok := p.(paramSetter); !ok {
		return search.Params{}, fmt.Errorf("%w: %s is not an alpha-beta player: only alpha-beta searches have parameters to tune", ErrSettings, name)
	}
	o, ok := p.(interface{ Options() search.Options })
	if !ok || o.Options().Params == nil {
		return search.DefaultParams(), nil
	}
	return *o.Options().Params, nil
}

package player

import (
	"fmt"

	"evolved/game/draughts"
	"evolved/nnet"
	"evolved/population"
	"evolved/search"
	"evolved/tournament"
)

// DraughtsSetup is how the draughts population plays: the agents' search
// depth, the opening plies and the move limit.
type DraughtsSetup struct {
	// Depth is the agents' alpha-beta depth in plies; default 4.
	Depth int
	// OpeningPlies is the number of random plies opening each game; default 4.
	OpeningPlies int
	// MaxMoves draws a game once each side has made this many moves; default 100.
	MaxMoves int
}

// DraughtsSpecies returns the genetic algorithm's binding to English
// draughts.
func DraughtsSpecies(setup DraughtsSetup) population.Species[draughts.Move, *draughts.Game] {
	if setup.Depth <= 0 {
		setup.Depth = 4
	}
	if setup.OpeningPlies <= 0 {
		setup.OpeningPlies = 4
	}
	if setup.MaxMoves <= 0 {
		setup.MaxMoves = 100
	}
	rules := draughts.Rules{MaxMoves: setup.MaxMoves}
	return population.Species[draughts.Move, *draughts.Game]{
		Arena: tournament.Arena[draughts.Move, *draughts.Game]{
			Name:         "draughts",
			NewGame:      func() *draughts.Game { return draughts.NewGame(draughts.Start(), rules) },
			OpeningPlies: setup.OpeningPlies,
		},
		Player: func(net *nnet.Net) (func() search.Player[draughts.Move, *draughts.Game], error) {
			spec, err := DraughtsNet("agent", net, setup.Depth)
			if err != nil {
				return nil, err
			}
			return spec.New, nil
		},
		Baseline: func(s string) (func() search.Player[draughts.Move, *draughts.Game], error) {
			spec, err := ParseDraughts(s)
			if err != nil {
				return nil, fmt.Errorf("baseline: %w", err)
			}
			return spec.New, nil
		},
		Inputs: nnet.NumDraughtsInputs,
	}
}

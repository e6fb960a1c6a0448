package player

import (
	"math"

	"evolved/game/draughts"
	"evolved/search"
)

// DraughtsPlayer is a player of English draughts.
type DraughtsPlayer = search.Player[draughts.Move, *draughts.Game]

// DraughtsSpec is a parsed draughts player specification.
type DraughtsSpec = Spec[draughts.Move, *draughts.Game]

// Material values in evaluation units: a man is 100 and a king 150, the
// king weight K = 1.5 of the Blondie24 experiments.
const (
	manValue  = 100
	kingValue = 150
)

// DraughtsMaterial evaluates a draughts position by piece count alone: men
// 100, kings 150, from the side to move's point of view.
type DraughtsMaterial struct{}

// Evaluate returns the material balance for the side to move.
func (DraughtsMaterial) Evaluate(g *draughts.Game) int {
	p := g.Position()
	us, them := p.Side, p.Side.Other()
	return manValue*(popcount(p.Men(us))-popcount(p.Men(them))) +
		kingValue*(popcount(p.KingsOf(us))-popcount(p.KingsOf(them)))
}

// materialWinRate maps a material balance to a win probability for MCTS-EPT:
// a logistic curve on which one man up is worth about 62%.
func materialWinRate(score int) float64 {
	return 1 / (1 + math.Exp(-float64(score)/200))
}

// ParseDraughts reads a player specification for draughts: a built-in
// player, the path of an exported agent file, or ept:N@FILE, that agent's
// net scoring the playouts of MCTS-EPT.
//
// An alpha-beta spec may end in #TECHNIQUES to choose its search
// techniques and their parameters (material:6#-lmr,-null,
// pesto:6#rfp_margin=80; see search.ParseSettings).
func ParseDraughts(spec string) (DraughtsSpec, error) {
	if withSet, ok, err := withTechniques(spec, ParseDraughts); ok {
		return withSet, err
	}
	if foreignForm(spec, "draughts") {
		return DraughtsSpec{}, unknownPlayer(spec, "draughts")
	}
	if s, ok, err := agentFileSpec(spec, "draughts", DraughtsNet, DraughtsNetEPT); ok {
		return s, err
	}
	p, err := parse(spec, "draughts")
	if err != nil {
		return DraughtsSpec{}, err
	}
	switch p.kind {
	case "random":
		return randomSpec[draughts.Move, *draughts.Game](), nil
	case "material":
		return alphaBetaSpec[draughts.Move](spec, "material units (100 a man)", search.Evaluator[*draughts.Game](DraughtsMaterial{}),
			search.Options{Depth: p.arg, CaptureExtension: true, TableBits: 14}), nil
	case "mcts", "ept":
		return mctsSpec[draughts.Move](spec, mctsOptions(p), search.Evaluator[*draughts.Game](DraughtsMaterial{}), materialWinRate), nil
	}
	return DraughtsSpec{}, unknownPlayer(spec, "draughts")
}

package player

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"evolved/classic"

	"evolved/game/xiangqi"
	"evolved/search"
)

// XiangqiPlayer is a player of xiangqi.
type XiangqiPlayer = search.Player[xiangqi.Move, *xiangqi.Game]

// XiangqiSpec is a parsed xiangqi player specification.
type XiangqiSpec = Spec[xiangqi.Move, *xiangqi.Game]

// xiangqiValues are the material values of material:D in centipawns, by
// piece type: advisor and elephant 200, horse 400, chariot 900, cannon
// 450, soldier 100 (200 once across the river), the values most xiangqi
// programs start from. The general is not counted.
var xiangqiValues = [...]int{xiangqi.Advisor: 200, xiangqi.Elephant: 200, xiangqi.Horse: 400,
	xiangqi.Chariot: 900, xiangqi.Cannon: 450, xiangqi.Soldier: 100}

// XiangqiMaterial evaluates a xiangqi position by material alone (see
// xiangqiValues), from the side to move's point of view.
type XiangqiMaterial struct{}

// Evaluate returns the material balance for the side to move, in
// centipawns.
func (XiangqiMaterial) Evaluate(g *xiangqi.Game) int {
	p := g.Position()
	score := 0
	for s := range xiangqi.Square(xiangqi.Squares) {
		pt, c := p.PieceAt(s)
		if pt == xiangqi.NoPieceType || pt == xiangqi.General {
			continue
		}
		v := xiangqiValues[pt]
		if pt == xiangqi.Soldier && (c == xiangqi.Red) != (s.Rank() <= 4) {
			v *= 2
		}
		if c != p.Side() {
			v = -v
		}
		score += v
	}
	return score
}

// ParseXiangqi reads a player specification for xiangqi: random,
// material:D, mcts:N, ept:N, classic (the classic terminal program's
// evaluation and fixed-depth search), classic+[:MS] (that evaluation on our
// search, MS milliseconds a move, 1000 by default), uci:PATH[:option=value...]
// (an engine that knows UCI_Variant xiangqi, such as Fairy-Stockfish), an
// exported agent file, or ept:N@FILE (that agent's net scoring the
// playouts of MCTS-EPT).
//
// An alpha-beta spec may end in #TECHNIQUES to choose its search
// techniques and their parameters (material:6#-lmr,-null,
// pesto:6#rfp_margin=80; see search.ParseSettings).
func ParseXiangqi(spec string) (XiangqiSpec, error) {
	if withSet, ok, err := withTechniques(spec, ParseXiangqi); ok {
		return withSet, err
	}
	if foreignForm(spec, "xiangqi") {
		return XiangqiSpec{}, unknownPlayer(spec, "xiangqi")
	}
	if rest, ok := strings.CutPrefix(spec, "uci:"); ok {
		u, err := parseUCI[xiangqi.Move, *xiangqi.Game](spec, rest, xiangqiUCI{})
		if err != nil {
			return XiangqiSpec{}, err
		}
		return XiangqiSpec{Name: spec, New: func() XiangqiPlayer { return u.clone() }}, nil
	}
	if s, ok, err := agentFileSpec(spec, "xiangqi", XiangqiNet, XiangqiNetEPT); ok {
		return s, err
	}
	if spec == "classic" {
		return XiangqiSpec{Name: "classic", New: func() XiangqiPlayer { return classic.New() }}, nil
	}
	if rest, ok := strings.CutPrefix(spec, "classic+"); ok {
		opts := classic.PlusOptions{}
		if rest != "" {
			ms, err := strconv.Atoi(strings.TrimPrefix(rest, ":"))
			if !strings.HasPrefix(rest, ":") || err != nil || ms < 1 || ms > 3_600_000 {
				return XiangqiSpec{}, fmt.Errorf("%w %q: classic+ takes an optional move time in milliseconds, as in classic+:1000", ErrSpec, spec)
			}
			opts.MoveTime = time.Duration(ms) * time.Millisecond
		}
		return XiangqiSpec{Name: spec, New: func() XiangqiPlayer { return classic.NewPlus(opts) }}, nil
	}
	p, err := parse(spec, "xiangqi")
	if err != nil {
		return XiangqiSpec{}, err
	}
	switch p.kind {
	case "random":
		return randomSpec[xiangqi.Move, *xiangqi.Game](), nil
	case "material":
		return alphaBetaSpec[xiangqi.Move](spec, "", search.Evaluator[*xiangqi.Game](XiangqiMaterial{}),
			search.Options{Depth: p.arg, Quiescence: true, TableBits: 16}), nil
	case "mcts", "ept":
		return mctsSpec[xiangqi.Move](spec, mctsOptions(p), search.Evaluator[*xiangqi.Game](XiangqiMaterial{}), centipawnWinRate), nil
	}
	return XiangqiSpec{}, unknownPlayer(spec, "xiangqi")
}

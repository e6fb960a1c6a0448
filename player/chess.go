package player

import (
	"fmt"
	"math"
	"strings"

	"evolved/game/chess"
	"evolved/nnet"
	"evolved/search"
)

// ChessPlayer is a player of chess.
type ChessPlayer = search.Player[chess.Move, *chess.Game]

// ChessSpec is a parsed chess player specification.
type ChessSpec = Spec[chess.Move, *chess.Game]

// chessValues are the classic piece values in centipawns, by piece type.
var chessValues = [...]int{chess.Pawn: 100, chess.Knight: 300, chess.Bishop: 300, chess.Rook: 500, chess.Queen: 900}

// ChessMaterial evaluates a chess position by material (pawn 100, knight
// and bishop 300, rook 500, queen 900 centipawns), from the side to move's
// point of view, plus a mop-up term once one side is a rook ahead: it
// rewards driving the losing king to the edge and bringing the winning king
// closer, without which a material-only search cannot convert a won ending
// into mate and draws it by the move limit.
type ChessMaterial struct{}

// Evaluate returns the material balance for the side to move, in centipawns.
func (m ChessMaterial) Evaluate(g *chess.Game) int {
	p := g.Position()
	us, them := p.Side(), p.Side().Other()
	score := m.Balance(g)
	switch {
	case score >= 500:
		score += mopUp(p.King(us), p.King(them))
	case score <= -500:
		score -= mopUp(p.King(them), p.King(us))
	}
	return score
}

// Balance returns the material balance alone for the side to move, in
// centipawns.
func (ChessMaterial) Balance(g *chess.Game) int {
	p := g.Position()
	us, them := p.Side(), p.Side().Other()
	score := 0
	for pt, v := range chessValues {
		if v != 0 {
			score += v * (p.Pieces(us, chess.PieceType(pt)).Count() - p.Pieces(them, chess.PieceType(pt)).Count())
		}
	}
	return score
}

// mopUp scores how well the winning king (w) hunts the losing one (l).
func mopUp(w, l chess.Square) int {
	centre := func(s chess.Square) int {
		f, r := int(s.File()), int(s.Rank())
		return max(3-f, f-4) + max(3-r, r-4) // 0 in the centre, 6 in a corner
	}
	dist := abs(int(w.File())-int(l.File())) + abs(int(w.Rank())-int(l.Rank()))
	return 10*centre(l) + 4*(14-dist)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// ParseChess reads a player specification for chess: random, material:D,
// pst:D (material and Michniewski's piece-square tables), pesto:D
// (PeSTO's tapered tables, searched as agents search; see PeSTOSpec),
// mcts:N, ept:N,
// uci:PATH[:option=value...], an exported agent file, ept:N@FILE (that
// agent's net scoring the playouts of MCTS-EPT), or
// what the chess lab learnt: pheromones:FILE or meta:RUN[@FILE.db] (this
// one through ChessParser: here it is ErrNeedsDatabase).
//
// An alpha-beta spec may end in #TECHNIQUES to choose its search
// techniques and their parameters (material:6#-lmr,-null,
// pesto:6#rfp_margin=80; see search.ParseSettings).
func ParseChess(spec string) (ChessSpec, error) {
	if withSet, ok, err := withTechniques(spec, ParseChess); ok {
		return withSet, err
	}
	if foreignForm(spec, "chess") {
		return ChessSpec{}, unknownPlayer(spec, "chess")
	}
	if learned, ok, err := parseLearned(spec, nil); ok {
		return learned, err
	}
	if rest, ok := strings.CutPrefix(spec, "uci:"); ok {
		u, err := parseUCI[chess.Move, *chess.Game](spec, rest, chessUCI{})
		if err != nil {
			return ChessSpec{}, err
		}
		return ChessSpec{Name: spec, New: func() ChessPlayer { return u.clone() }}, nil
	}
	if s, ok, err := agentFileSpec(spec, "chess", ChessNet, ChessNetEPT); ok {
		return s, err
	}
	p, err := parse(spec, "chess")
	if err != nil {
		return ChessSpec{}, err
	}
	switch p.kind {
	case "random":
		return randomSpec[chess.Move, *chess.Game](), nil
	case "material", "pst":
		depth := p.arg
		var eval search.Evaluator[*chess.Game] = ChessMaterial{}
		if p.kind == "pst" {
			eval = ChessPST{}
		}
		return alphaBetaSpec[chess.Move](spec, "", eval, search.Options{Depth: depth, Quiescence: true, TableBits: 16}), nil
	case "pesto":
		return PeSTOSpec(spec, p.arg)
	case "mcts", "ept":
		return mctsSpec[chess.Move](spec, mctsOptions(p), search.Evaluator[*chess.Game](ChessMaterial{}), centipawnWinRate), nil
	}
	return ChessSpec{}, unknownPlayer(spec, "chess")
}

// PeSTOSpec returns the spec, named name, of players that evaluate with
// PeSTO's tapered tables (nnet.PeSTO: the net at 0, PeSTO's piece values
// and tables in the genome's) and search exactly as an agent file's
// players do (ChessNet: the same options, quiescence, transposition
// table, evaluation cache and exchange values): to depth plies in untimed
// games, by the clock in timed ones, where the depth no longer counts. It
// is the diagnostic of issue 62: the project's search with a known-good
// hand-made evaluation, so that a rating of it says how much of a gap
// is the search's and how much the evaluation's.
func PeSTOSpec(name string, depth int) (ChessSpec, error) {
	net, err := nnet.PeSTO()
	if err != nil {
		return ChessSpec{}, fmt.Errorf("player %s: %w", name, err)
	}
	return ChessNet(name, net, depth)
}

// chessNetEval is the search evaluator of one chess net: an incremental
// accumulator over a shared nnet.ChessEval, in centipawns.
type chessNetEval struct {
	acc    *nnet.ChessAccumulator
	cache  *nnet.EvalCache
	values []int // the net's piece values for the search's exchanges
}

// ExchangeValues returns the net's piece values in centipawns, for the
// search's static exchange evaluation and delta pruning.
func (c *chessNetEval) ExchangeValues() []int { return c.values }

// chessExchangeValues returns net's piece values as chess.ExchangeValues
// takes them, in centipawns, none below 0.
func chessExchangeValues(net *nnet.Net) []int {
	v := net.PieceValues()
	cp := func(pawns float64) int { return int(max(0, min(search.MaxEval, math.Round(pawns*100)))) }
	return chess.ExchangeValues(cp(v[chess.Pawn]), cp(v[chess.Knight]), cp(v[chess.Bishop]), cp(v[chess.Rook]), cp(v[chess.Queen]))
}

// Clone returns an evaluator of the same net with an accumulator and a
// cache of its own, for another thread of a parallel search
// (search.Cloner): the net's weights and piece values are shared, only
// read.
func (c *chessNetEval) Clone() search.Evaluator[*chess.Game] {
	return &chessNetEval{acc: c.acc.Eval().NewAccumulator(), cache: nnet.NewEvalCache(evalCacheEntries), values: c.values}
}

func (c *chessNetEval) Reset(g *chess.Game) { c.acc.Reset(g.Position()) }
func (c *chessNetEval) Push(g *chess.Game)  { c.acc.PushRef(g.Current()) }
func (c *chessNetEval) Pop()                { c.acc.Pop() }

// Evaluate returns the net's value (pawns) in centipawns, within search's
// bounds, from the cache when it holds the position.
func (c *chessNetEval) Evaluate(g *chess.Game) int {
	v := math.Round(cachedValue(c.cache, g.Hash(), g.ToMove(), c.acc) * 100)
	return int(max(-search.MaxEval, min(search.MaxEval, v)))
}

// ChessNet returns a spec whose players search with net: alpha-beta to
// depth plies with quiescence.
func ChessNet(name string, net *nnet.Net, depth int) (ChessSpec, error) {
	eval, err := nnet.NewChessEval(net)
	if err != nil {
		return ChessSpec{}, fmt.Errorf("player %s: %w", name, err)
	}
	values := chessExchangeValues(net)
	return ChessSpec{Name: name, New: func() ChessPlayer {
		ab := search.NewAlphaBeta[chess.Move, *chess.Game](&chessNetEval{acc: eval.NewAccumulator(), cache: nnet.NewEvalCache(evalCacheEntries), values: values},
			search.Options{Depth: depth, Quiescence: true, TableBits: 14})
		return search.Searcher[chess.Move, *chess.Game]{AlphaBeta: ab}
	}}, nil
}

// ChessNetSearch returns an alpha-beta search with net (quiescence on), for
// the UCI server, which sets its limits move by move.
func ChessNetSearch(net *nnet.Net, depth, tableBits int) (*search.AlphaBeta[chess.Move, *chess.Game], error) {
	eval, err := nnet.NewChessEval(net)
	if err != nil {
		return nil, fmt.Errorf("player: %w", err)
	}
	return search.NewAlphaBeta[chess.Move, *chess.Game](&chessNetEval{acc: eval.NewAccumulator(), cache: nnet.NewEvalCache(evalCacheEntries), values: chessExchangeValues(net)},
		search.Options{Depth: depth, Quiescence: true, TableBits: tableBits}), nil
}

package xiangqi

import (
	"fmt"

	"evolved/game"
)

// Rules holds the end-of-game rules that vary between uses.
type Rules struct {
	// MaxMoves draws the game once each side has made MaxMoves moves
	// (2*MaxMoves plies from the Game's start position). Zero means no limit.
	MaxMoves int
	// PerpetualCheckLoses replaces the draw by threefold repetition with a
	// loss for the side that gave check with every one of its moves since
	// the previous occurrence of the position, if the other side did not
	// (when both did, or neither, the repetition is a draw). This is the
	// core of the Asian rule "perpetual check loses"; the rest of the
	// Asian repetition rules (chases, mixed check and chase cycles) is not
	// implemented.
	PerpetualCheckLoses bool
}

// DefaultRules returns the rules of our tournaments: a draw after 150
// moves by each side and a draw by threefold repetition.
func DefaultRules() Rules { return Rules{MaxMoves: 150} }

// plyInfo is what a Game's history keeps per ply besides the position:
// whether the side to move is in check, which the perpetual check rule
// looks back on and search asks at every node.
type plyInfo struct {
	check bool
}

// Game is a xiangqi game in progress: the position and the history that
// the rules need. It implements game.State[Move] and the hooks of
// search.Game, search.Quiescent, search.NullMover and search.Exchanger.
// Make and Unmake do not allocate once the history has grown to the game's
// length. A Game is not safe for concurrent use.
type Game struct {
	rules   Rules
	history game.History[Position, Move, plyInfo]
}

var _ game.State[Move] = (*Game)(nil)

// NewGame starts a game from start under the given rules.
func NewGame(start Position, rules Rules) *Game {
	g := &Game{rules: rules}
	g.Reset(start)
	return g
}

// Reset restarts the game from start, keeping the history's storage.
func (g *Game) Reset(start Position) { g.history.Reset(start, plyInfo{check: start.InCheck()}) }

// Clone returns an independent copy of g: the same rules, position and
// history, sharing no storage with g, so that the helper threads of a
// parallel search (search.Cloner) each play on their own.
func (g *Game) Clone() *Game { return &Game{rules: g.rules, history: g.history.Clone()} }

// Rules returns the rules the game is played under.
func (g *Game) Rules() Rules { return g.rules }

// Position returns the current position.
func (g *Game) Position() Position { return g.history.Top().Pos }

// Start returns the position the game started from.
func (g *Game) Start() Position { return g.history.Start().Pos }

// Moves returns the moves made so far, appended to buf[:0].
func (g *Game) Moves(buf []Move) []Move { return g.history.Moves(buf) }

// LastMove returns the move that led to the current position, or NoMove
// at the start and after a pass (MakeNull). Incremental evaluators use it
// to update from the move rather than from the whole board.
func (g *Game) LastMove() Move { return g.history.Top().Move }

// Current returns the current position itself, not a copy, for reading
// only: it does not change until its move is unmade or the game is reset,
// so an incremental evaluator may keep the pointer along a search path
// (nnet.XiangqiAccumulator.PushPlayed).
func (g *Game) Current() *Position { return &g.history.Top().Pos }

// ToMove returns the player to move.
func (g *Game) ToMove() game.Player { return g.history.Top().Pos.side }

// LegalMoves appends the legal moves of the current position to buf[:0].
func (g *Game) LegalMoves(buf []Move) []Move { return g.history.Top().Pos.LegalMoves(buf) }

// Make plays m, which must be legal in the current position. It copies
// the position into the history's next entry and plays the move there in
// place.
func (g *Game) Make(m Move) {
	top, next := g.history.Push()
	next.Pos = top.Pos
	next.Pos.apply(m)
	next.Move = m
	next.Info.check = next.Pos.InCheck()
}

// Unmake takes back the last move. It panics at the start position.
func (g *Game) Unmake() {
	if !g.history.Pop() {
		panic("xiangqi: Unmake at the start of the game")
	}
}

// Hash returns the Zobrist hash of the current position.
func (g *Game) Hash() uint64 { return g.history.Top().Pos.hash }

// Ply returns the number of moves made since the start position.
func (g *Game) Ply() int { return g.history.Ply() }

// Repetitions returns how many times the current position occurred before
// in this game (0 the first time it occurs). Positions are the same when
// the pieces and the side to move are; only positions since the last
// capture can be.
func (g *Game) Repetitions() int {
	n, _ := g.repetitions()
	return n
}

// repetitions returns Repetitions and the ply of the latest earlier
// occurrence of the current position (-1 if none).
func (g *Game) repetitions() (int, int) {
	cur := &g.history.Top().Pos
	return g.history.Repetitions(int(cur.halfmove), func(q *Position) bool {
		return q.hash == cur.hash && q.board == cur.board && q.side == cur.side
	})
}

// perpetualLoser returns the side that gave check with every move after
// ply from up to the current position while the other did not, and false
// if there is none.
func (g *Game) perpetualLoser(from int) (game.Player, bool) {
	var all [2]bool
	all[0], all[1] = true, true
	for i := from + 1; i <= g.history.Ply(); i++ {
		e := g.history.At(i)
		mover := e.Pos.side ^ 1
		if !e.Info.check {
			all[mover] = false
		}
	}
	if all[0] != all[1] {
		if all[0] {
			return game.First, true
		}
		return game.Second, true
	}
	return 0, false
}

// Outcome reports whether the game is over and why: a side with no legal
// move loses (game.NoMoves, checkmate and stalemate alike); then threefold
// repetition (a draw, or under Rules.PerpetualCheckLoses a loss for a
// side that checked throughout), then the move limit.
func (g *Game) Outcome() game.Outcome {
	p := &g.history.Top().Pos
	if p.CountMoves() == 0 {
		return game.Outcome{Result: game.WinFor(p.side.Other()), Reason: game.NoMoves}
	}
	if n, last := g.repetitions(); n >= 2 {
		if g.rules.PerpetualCheckLoses {
			if loser, ok := g.perpetualLoser(last); ok {
				return game.Outcome{Result: game.WinFor(loser.Other()), Reason: game.Repetition}
			}
		}
		return game.Outcome{Result: game.Draw, Reason: game.Repetition}
	}
	if g.history.AtMoveLimit(g.rules.MaxMoves) {
		return game.Outcome{Result: game.Draw, Reason: game.MoveLimit}
	}
	return game.Outcome{}
}

// FormatMove writes m in Fairy-Stockfish's coordinates (h2e2).
func (g *Game) FormatMove(m Move) string { return m.String() }

// ParseMove reads a move in Fairy-Stockfish's coordinates and checks that
// it is legal now.
func (g *Game) ParseMove(s string) (Move, error) {
	p := g.Position()
	m, err := p.ParseUCI(s)
	if err != nil {
		return NoMove, fmt.Errorf("xiangqi: game move: %w", err)
	}
	return m, nil
}

// Drawn reports whether a rule draws the game in the current position
// whatever the legal moves are: a threefold repetition that is a draw
// (under Rules.PerpetualCheckLoses, one where no side checked throughout)
// or the move limit. It does not generate moves, so search can call it at
// every node; a position without legal moves is a loss that Outcome
// reports, and the search finds by itself.
func (g *Game) Drawn() bool {
	if g.history.AtMoveLimit(g.rules.MaxMoves) {
		return true
	}
	if g.history.Top().Pos.halfmove < 8 {
		return false
	}
	n, last := g.repetitions()
	if n < 2 {
		return false
	}
	if g.rules.PerpetualCheckLoses {
		_, lost := g.perpetualLoser(last)
		return !lost
	}
	return true
}

// Tactical reports whether the side to move is in check: such a position
// is not quiet, and a search extends rather than evaluates it.
func (g *Game) Tactical() bool { return g.history.Top().Info.check }

// MoveKeys is the number of distinct values MoveKey returns.
const MoveKeys = Squares * Squares

// MoveKey maps m to 0..MoveKeys-1 as from*90+to, for history and killer
// tables in search.
func (g *Game) MoveKey(m Move) int { return int(m.From())*Squares + int(m.To()) }

// SearchSettings returns the settings the project's alpha-beta search
// starts from in xiangqi (search.Tuned), as a list of its techniques and
// parameters: the history malus, which won its SPRTs here
// (docs/search.md).
func (g *Game) SearchSettings() string { return "+malus" }

// MoveKeySpace returns MoveKeys; search sizes its tables with it.
func (g *Game) MoveKeySpace() int { return MoveKeys }

// InCheck reports whether the side to move is in check.
func (g *Game) InCheck() bool { return g.history.Top().Info.check }

// NoisyMoves appends to buf[:0] the legal captures, which quiescence
// search walks at the leaves.
func (g *Game) NoisyMoves(buf []Move) []Move {
	return g.history.Top().Pos.LegalCaptures(buf[:0])
}

// orderValue is a piece's value for move ordering, in soldiers x 10.
var orderValue = [...]int{General: 200, Advisor: 20, Elephant: 20, Horse: 40, Chariot: 90, Cannon: 45, Soldier: 10, NoPieceType: 0}

// CaptureOrder scores a move for ordering by most valuable victim, least
// valuable attacker: captures of big pieces by small ones first; quiet
// moves score 0.
func (g *Game) CaptureOrder(m Move) int {
	if !m.IsCapture() {
		return 0
	}
	return 16*orderValue[m.Captured()] - orderValue[m.Piece()]
}

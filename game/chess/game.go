package chess

import (
	"fmt"

	"evolved/game"
)

// Rules holds the end-of-game rules that vary between uses, and how moves
// are written.
type Rules struct {
	// MaxMoves draws the game once each side has made MaxMoves moves
	// (2*MaxMoves plies from the Game's start position). Zero means no limit.
	MaxMoves int
	// FiftyMoveRule draws the game when 50 moves by each side (100 plies)
	// have passed without a capture or a pawn move. Over the board a player
	// must claim this draw; an automatic draw keeps self-play games short.
	FiftyMoveRule bool
	// Chess960 makes FormatMove write castling king-takes-rook (e1h1), as
	// UCI does under UCI_Chess960, and ParseMove expect it. Set it for
	// games from Chess960 start positions other than the standard one.
	Chess960 bool
}

// DefaultRules returns the rules of our tournaments: a draw after 100
// moves by each side, the 50-move rule, threefold repetition, insufficient
// material; castling written as in classical chess.
func DefaultRules() Rules { return Rules{MaxMoves: 100, FiftyMoveRule: true} }

// fiftyMovePlies is the 50-move rule's length in plies.
const fiftyMovePlies = 100

// Game is a chess game in progress: the position and the history that the
// rules need. It implements game.State[Move] and the hooks of search.Game,
// search.Quiescent, search.NullMover and search.Exchanger.
// Make and Unmake do not allocate once the history has grown to the game's
// length. A Game is not safe for concurrent use.
type Game struct {
	rules   Rules
	history game.History[Position, Move, struct{}]
}

var _ game.State[Move] = (*Game)(nil)

// NewGame starts a game from start under the given rules.
func NewGame(start Position, rules Rules) *Game {
	g := &Game{rules: rules}
	g.Reset(start)
	return g
}

// Reset restarts the game from start, keeping the history's storage.
func (g *Game) Reset(start Position) { g.history.Reset(start, struct{}{}) }

// Clone returns an independent copy of g: the same rules, position and
// history, sharing no storage with g, so that the helper threads of a
// parallel search (search.Cloner) each play on their own.
func (g *Game) Clone() *Game { return &Game{rules: g.rules, history: g.history.Clone()} }

// Rules returns the rules the game is played under.
func (g *Game) Rules() Rules { return g.rules }

// Position returns the current position.
func (g *Game) Position() Position { return g.history.Top().Pos }

// Current returns the current position itself, not a copy, for reading
// only: it does not change until its move is unmade or the game is reset,
// so an incremental evaluator may keep the pointer along a search path
// (nnet.ChessAccumulator.PushRef).
func (g *Game) Current() *Position { return &g.history.Top().Pos }

// Start returns the position the game started from.
func (g *Game) Start() Position { return g.history.Start().Pos }

// Moves returns the moves made so far, appended to buf[:0].
func (g *Game) Moves(buf []Move) []Move { return g.history.Moves(buf) }

// ToMove returns the player to move.
func (g *Game) ToMove() game.Player { return g.history.Top().Pos.side }

// LegalMoves appends the legal moves of the current position to buf[:0].
func (g *Game) LegalMoves(buf []Move) []Move { return g.history.Top().Pos.LegalMoves(buf) }

// Make plays m, which must be legal in the current position. It copies
// the position into the history's next entry and plays the move there in
// place (2.9x faster than appending a returned record; BenchmarkGameMake).
func (g *Game) Make(m Move) {
	top, next := g.history.Push()
	next.Pos = top.Pos
	next.Pos.apply(m)
	next.Move = m
}

// Unmake takes back the last move. It panics at the start position.
func (g *Game) Unmake() {
	if !g.history.Pop() {
		panic("chess: Unmake at the start of the game")
	}
}

// Hash returns the Zobrist hash of the current position.
func (g *Game) Hash() uint64 { return g.history.Top().Pos.hash }

// Ply returns the number of moves made since the start position.
func (g *Game) Ply() int { return g.history.Ply() }

// Repetitions returns how many times the current position occurred before
// in this game (0 the first time it occurs). Positions are the same when
// the pieces, the side to move, the castling rights and the en passant
// square are; only positions since the last capture or pawn move can be.
func (g *Game) Repetitions() int {
	cur := &g.history.Top().Pos
	n, _ := g.history.Repetitions(int(cur.rule50), func(q *Position) bool { return q.hash == cur.hash && q.samePosition(cur) })
	return n
}

// samePosition reports whether p and q agree in everything but the clocks.
func (p *Position) samePosition(q *Position) bool {
	return p.pieces == q.pieces && p.colors == q.colors && p.castling == q.castling &&
		p.ep == q.ep && p.side == q.side
}

// Outcome reports whether the game is over and why: checkmate (a loss for
// the side to move) and stalemate (a draw) first, then the draws by
// insufficient material, threefold repetition, the 50-move rule when on,
// and the move limit.
func (g *Game) Outcome() game.Outcome {
	p := &g.history.Top().Pos
	if p.CountMoves() == 0 {
		if p.InCheck() {
			return game.Outcome{Result: game.WinFor(p.side.Other()), Reason: game.Checkmate}
		}
		return game.Outcome{Result: game.Draw, Reason: game.Stalemate}
	}
	switch {
	case p.InsufficientMaterial():
		return game.Outcome{Result: game.Draw, Reason: game.InsufficientMaterial}
	case g.Repetitions() >= 2:
		return game.Outcome{Result: game.Draw, Reason: game.Repetition}
	case g.rules.FiftyMoveRule && p.rule50 >= fiftyMovePlies:
		return game.Outcome{Result: game.Draw, Reason: game.NoProgress}
	case g.history.AtMoveLimit(g.rules.MaxMoves):
		return game.Outcome{Result: game.Draw, Reason: game.MoveLimit}
	}
	return game.Outcome{}
}

// InsufficientMaterial reports whether neither side can ever mate: kings
// alone, a king and one knight against a king, or kings and bishops that
// all stand on squares of one colour (which includes a king and bishop
// against a king, and against a king and a bishop on the same colour).
func (p *Position) InsufficientMaterial() bool {
	if p.pieces[Pawn]|p.pieces[Rook]|p.pieces[Queen] != 0 {
		return false
	}
	bishops, knights := p.pieces[Bishop], p.pieces[Knight]
	if knights != 0 {
		return bishops == 0 && knights&(knights-1) == 0
	}
	return bishops&darkSquares == 0 || bishops&^darkSquares == 0
}

// FormatMove writes m, legal in the current position, in UCI notation, with
// castling as Rules.Chess960 asks. UCI rather than SAN is the notation games
// are stored in: it is unambiguous, cheap and what engines speak; FormatSAN
// writes SAN.
func (g *Game) FormatMove(m Move) string {
	p := g.Position()
	return p.FormatUCI(m, g.rules.Chess960)
}

// ParseMove reads a move in UCI notation (with castling as Rules.Chess960
// asks) or, failing that, in SAN, and checks that it is legal now.
func (g *Game) ParseMove(s string) (Move, error) {
	p := g.Position()
	m, err := p.ParseUCI(s, g.rules.Chess960)
	if err == nil {
		return m, nil
	}
	if m, err2 := p.ParseSAN(s); err2 == nil {
		return m, nil
	}
	return NoMove, fmt.Errorf("chess: parse move %q (neither UCI nor SAN): %w", s, err)
}

// Drawn reports whether a rule draws the game in the current position
// whatever the legal moves are: insufficient material, threefold
// repetition, the move limit, or the 50-move rule when the side to move is
// not in check (in check, only move generation can tell a checkmate, which
// takes precedence, so Drawn leaves that case to Outcome). It does not
// generate moves, so search can call it at every node.
func (g *Game) Drawn() bool {
	p := &g.history.Top().Pos
	return p.rule50 >= 8 && g.Repetitions() >= 2 ||
		g.rules.FiftyMoveRule && p.rule50 >= fiftyMovePlies && !p.InCheck() ||
		g.history.AtMoveLimit(g.rules.MaxMoves) ||
		p.InsufficientMaterial()
}

// Tactical reports whether the side to move is in check: such a position is
// not quiet, and a search extends rather than evaluates it. Unlike in
// draughts a capture is never forced in chess, so a capture being available
// does not make a position tactical; a quiescence search over captures is
// the searcher's business.
func (g *Game) Tactical() bool { return g.history.Top().Pos.InCheck() }

// MoveKeys is the number of distinct values MoveKey returns.
const MoveKeys = 64 * 64

// MoveKey maps m to 0..MoveKeys-1 as from*64+to (for castling, to is the
// rook's square), for history and killer tables in search.
func (g *Game) MoveKey(m Move) int { return int(m.From())<<6 | int(m.To()) }

// SearchSettings returns the settings the project's alpha-beta search
// starts from in chess (search.Tuned), as a list of its techniques and
// parameters: the history malus, and the parameters SPSA tuned (4,000
// game pairs at 4,000 nodes), each of which won its SPRTs here
// (docs/search.md).
func (g *Game) SearchSettings() string {
	return "+malus,aspiration=27,rfp_margin=92,futility_margin=49,delta_margin=195,lmr_base=101,lmr_divisor=190"
}

// MoveKeySpace returns MoveKeys; search sizes its tables with it.
func (g *Game) MoveKeySpace() int { return MoveKeys }

// InCheck reports whether the side to move is in check.
func (g *Game) InCheck() bool { return g.history.Top().Pos.InCheck() }

// NoisyMoves appends to buf[:0] the legal moves that change the material:
// captures (en passant included) and promotions. Quiescence search walks
// these at the leaves.
func (g *Game) NoisyMoves(buf []Move) []Move {
	return g.history.Top().Pos.LegalNoisyMoves(buf[:0])
}

// orderValue is a piece's value for move ordering, in pawns x 10.
var orderValue = [...]int{Pawn: 10, Knight: 30, Bishop: 32, Rook: 50, Queen: 90, King: 200, NoPieceType: 0}

// CaptureOrder scores a move for ordering by most valuable victim, least
// valuable attacker: captures of big pieces by small ones first, then
// promotions; quiet moves score 0.
func (g *Game) CaptureOrder(m Move) int {
	p := &g.history.Top().Pos
	score := 0
	switch {
	case m.IsEnPassant():
		score = 16 * orderValue[Pawn]
	case !m.IsCastle() && p.Occupied().Has(m.To()):
		victim, _ := p.PieceAt(m.To())
		score = 16*orderValue[victim] - orderValue[m.Piece()]
	}
	if pr := m.Promotion(); pr != NoPieceType {
		score += 16 * orderValue[pr]
	}
	return score
}

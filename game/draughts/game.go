package draughts

import "evolved/game"

// Rules holds the end-of-game rules that vary between uses: tournaments cap
// the length of a game, and the 40-move rule is optional.
type Rules struct {
	// MaxMoves draws the game once each side has made MaxMoves moves
	// (2*MaxMoves plies from the Game's start position). Zero means no limit.
	// Blondie24's tournaments used 100, counted per side.
	MaxMoves int
	// FortyMoveRule draws the game when each side has made 40 moves in a
	// row with neither a capture nor a man move.
	FortyMoveRule bool
}

// DefaultRules returns the rules of our tournaments: a draw after 100 moves
// by each side, threefold repetition, no 40-move rule.
func DefaultRules() Rules { return Rules{MaxMoves: 100} }

// fortyMovePlies is the 40-move rule's length in plies.
const fortyMovePlies = 80

// plyInfo is what a Game's history keeps per ply besides the position:
// how many plies in a row (ending with this one) were reversible, that is
// king moves without a capture (only positions within that run can repeat
// the current one), and the side to move's pieces that can capture
// (Position.jumpers), found once per position: a search asks for them up
// to three times a node (Tactical, then LegalMoves).
type plyInfo struct {
	reversible int
	jumpers    uint32
}

// Game is a draughts game in progress: the position and the history that the
// rules need. It implements game.State[Move]. Make and Unmake do not allocate
// once the history has grown to the game's length. A Game is not safe for
// concurrent use.
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
func (g *Game) Reset(start Position) { g.history.Reset(start, plyInfo{jumpers: start.jumpers()}) }

// Rules returns the rules the game is played under.
func (g *Game) Rules() Rules { return g.rules }

// Position returns the current position.
func (g *Game) Position() Position { return g.history.Top().Pos }

// Pieces returns the current position's Black, White and Kings bitboards:
// what an evaluation reads, without copying the whole position (whose
// copy, just after a move wrote it, stalls the processor's store
// forwarding).
func (g *Game) Pieces() (black, white, kings uint32) {
	p := &g.history.Top().Pos
	return p.Black, p.White, p.Kings
}

// Start returns the position the game started from.
func (g *Game) Start() Position { return g.history.Start().Pos }

// Moves returns the moves made so far, appended to buf[:0].
func (g *Game) Moves(buf []Move) []Move { return g.history.Moves(buf) }

// ToMove returns the player to move.
func (g *Game) ToMove() game.Player { return g.history.Top().Pos.Side }

// LegalMoves appends the legal moves of the current position to buf[:0].
func (g *Game) LegalMoves(buf []Move) []Move {
	top := g.history.Top()
	return top.Pos.movesWith(buf, top.Info.jumpers)
}

// Make plays m, which must be legal in the current position.
//
// It writes the new entry's fields in place, from play's separate
// results, rather than storing a Position value: the compiler built that
// value on the stack from Play's register results and copied it with wider
// loads than its stores, a store-forwarding stall.
func (g *Game) Make(m Move) {
	top, next := g.history.Push()
	p := &next.Pos
	p.Black, p.White, p.Kings, p.Side, p.hash = top.Pos.play(m)
	next.Move = m
	next.Info.jumpers = p.jumpers()
	next.Info.reversible = 0
	if !m.IsCapture() && top.Pos.Kings&(1<<m.From()) != 0 {
		next.Info.reversible = top.Info.reversible + 1
	}
}

// Unmake takes back the last move. It panics at the start position.
func (g *Game) Unmake() {
	if !g.history.Pop() {
		panic("draughts: Unmake at the start of the game")
	}
}

// Hash returns the Zobrist hash of the current position.
func (g *Game) Hash() uint64 { return g.history.Top().Pos.hash }

// Ply returns the number of moves made since the start position.
func (g *Game) Ply() int { return g.history.Ply() }

// Repetitions returns how many times the current position occurred before
// in this game (0 the first time it occurs), within the run of reversible
// moves that ends with it.
func (g *Game) Repetitions() int {
	top := g.history.Top()
	n, _ := g.history.Repetitions(top.Info.reversible, func(q *Position) bool { return *q == top.Pos })
	return n
}

// Outcome reports whether the game is over: the side to move loses when it
// has no legal move; otherwise it is a draw on the third occurrence of a
// position, under the 40-move rule when on, or at the move limit.
func (g *Game) Outcome() game.Outcome {
	top := g.history.Top()
	p := &top.Pos
	if top.Info.jumpers == 0 {
		var buf [64]Move
		if len(p.appendQuiet(buf[:0])) == 0 {
			return game.Outcome{Result: game.WinFor(p.Side.Other()), Reason: game.NoMoves}
		}
	}
	if g.Repetitions() >= 2 {
		return game.Outcome{Result: game.Draw, Reason: game.Repetition}
	}
	if g.rules.FortyMoveRule && top.Info.reversible >= fortyMovePlies {
		return game.Outcome{Result: game.Draw, Reason: game.NoProgress}
	}
	if g.history.AtMoveLimit(g.rules.MaxMoves) {
		return game.Outcome{Result: game.Draw, Reason: game.MoveLimit}
	}
	return game.Outcome{}
}

// FormatMove writes m, legal in the current position, in standard notation.
func (g *Game) FormatMove(m Move) string {
	p := g.Position()
	return p.FormatMove(m)
}

// ParseMove reads a move in standard notation and checks it is legal now.
func (g *Game) ParseMove(s string) (Move, error) {
	p := g.Position()
	return p.ParseMove(s)
}

// Drawn reports whether a rule draws the game in the current position
// whatever the legal moves are: threefold repetition, the 40-move rule when
// on, or the move limit. It does not generate moves, so search can call it
// at every node; Outcome gives the reason.
func (g *Game) Drawn() bool {
	top := g.history.Top()
	r := top.Info.reversible
	if r >= 4 {
		if n, _ := g.history.Repetitions(r, func(q *Position) bool { return *q == top.Pos }); n >= 2 {
			return true
		}
	}
	return g.rules.FortyMoveRule && r >= fortyMovePlies ||
		g.history.AtMoveLimit(g.rules.MaxMoves)
}

// Tactical reports whether the side to move must capture: such a position is
// not quiet, and a search extends rather than evaluates it.
func (g *Game) Tactical() bool { return g.history.Top().Info.jumpers != 0 }

// MoveKeys is the number of distinct values MoveKey returns.
const MoveKeys = 32 * 32

// MoveKey maps m to 0..MoveKeys-1 by its start and end squares, for
// history and killer tables in search.
func (g *Game) MoveKey(m Move) int { return m.From()<<5 | m.To() }

// MoveKeySpace returns MoveKeys; search sizes its tables with it.
func (g *Game) MoveKeySpace() int { return MoveKeys }

// Package game declares what search, tournaments and the CLI need from any
// two-player board game: legal moves, make/unmake, the side to move, a hash,
// the result and the game's own move notation.
//
// The rules themselves live in the packages below it (game/draughts,
// game/chess, game/xiangqi). They take from this package the small value
// types declared here and the plumbing they would otherwise each write:
// History, the stack of positions a Game keeps for repetitions and move
// limits; Perft and Divide; Error, the message that wraps a package's
// sentinel error; SplitMix64, the generator of their Zobrist keys;
// ParseFENClocks, the two counters at the end of a FEN. They depend on
// nothing else of ours but game/pgn.
package game

import "fmt"

// Player names a side by move order rather than by colour, so that one type
// serves every game: First is Black in English draughts, White in chess and
// Red in xiangqi.
type Player uint8

const (
	// First is the player who moves first from the standard start position.
	First Player = 0
	// Second is the player who moves second.
	Second Player = 1
)

// Other returns the opponent of p.
func (p Player) Other() Player { return p ^ 1 }

// String returns "first" or "second".
func (p Player) String() string {
	if p == First {
		return "first"
	}
	return "second"
}

// Result is the state of a game: still going, a win for one side, or a draw.
type Result uint8

const (
	// Ongoing means the game has not ended.
	Ongoing Result = iota
	// FirstWins means the first player has won.
	FirstWins
	// SecondWins means the second player has won.
	SecondWins
	// Draw means the game ended without a winner.
	Draw
)

// String returns a short lower-case name of the result.
func (r Result) String() string {
	switch r {
	case Ongoing:
		return "ongoing"
	case FirstWins:
		return "first wins"
	case SecondWins:
		return "second wins"
	case Draw:
		return "draw"
	}
	return fmt.Sprintf("Result(%d)", uint8(r))
}

// FirstScore returns the first player's score: 1 for a win, 0 for a loss,
// 1/2 for a draw (and for a game not over, which ratings never see).
func (r Result) FirstScore() float64 {
	switch r {
	case FirstWins:
		return 1
	case SecondWins:
		return 0
	}
	return 0.5
}

// Tag returns the result as game records write it, from the first
// player's side: "1-0" when the first player won, "0-1" when the second
// did, "1/2-1/2" for a draw and "*" for a game not over. PGN (White moves
// first), PDN for English draughts (Black moves first) and xiangqi PGN
// (Red moves first) all follow it.
func (r Result) Tag() string {
	switch r {
	case FirstWins:
		return "1-0"
	case SecondWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "*"
}

// ParseTag reads a result as Tag writes it; "*" gives Ongoing. The second
// value is false for any other string.
func ParseTag(s string) (Result, bool) {
	for _, r := range []Result{Ongoing, FirstWins, SecondWins, Draw} {
		if s == r.Tag() {
			return r, true
		}
	}
	return Ongoing, false
}

// WinFor returns the result in which p wins.
func WinFor(p Player) Result {
	if p == First {
		return FirstWins
	}
	return SecondWins
}

// Reason says why a game ended.
type Reason uint8

const (
	// NoReason accompanies Ongoing.
	NoReason Reason = iota
	// NoMoves means the side to move had no legal move and lost
	// (draughts, xiangqi; in chess this is Checkmate or Stalemate).
	NoMoves
	// Checkmate means the side to move was in check with no legal move.
	Checkmate
	// Stalemate means the side to move was not in check and had no legal move (a chess draw).
	Stalemate
	// Repetition means the same position occurred for the third time.
	Repetition
	// MoveLimit means the configured maximum number of moves was reached.
	MoveLimit
	// NoProgress means a no-progress rule ended the game (draughts' 40-move rule, chess' 50-move rule).
	NoProgress
	// InsufficientMaterial means neither side can mate any more.
	InsufficientMaterial
	// Adjudicated means something outside the rules ended the game
	// (a material advantage judged decisive, an engine that crashed).
	Adjudicated
	// TimeForfeit means the side to move ran out of time.
	TimeForfeit
)

var reasonNames = [...]string{
	NoReason:             "none",
	NoMoves:              "no legal move",
	Checkmate:            "checkmate",
	Stalemate:            "stalemate",
	Repetition:           "threefold repetition",
	MoveLimit:            "move limit",
	NoProgress:           "no-progress rule",
	InsufficientMaterial: "insufficient material",
	Adjudicated:          "adjudicated",
	TimeForfeit:          "lost on time",
}

// String returns a short description of the reason.
func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

// Outcome is a result together with the reason for it.
type Outcome struct {
	Result Result
	Reason Reason
}

// Over reports whether the game has ended.
func (o Outcome) Over() bool { return o.Result != Ongoing }

// String returns, for example, "first wins (no legal move)".
func (o Outcome) String() string {
	if o.Result == Ongoing {
		return "ongoing"
	}
	return o.Result.String() + " (" + o.Reason.String() + ")"
}

// State is a game in progress: a position together with the history that the
// rules need (repetition, move limits). M is the game's own move type, a small
// value that compares with ==.
//
// Implementations are not safe for concurrent use; a search or a tournament
// game owns its State. Methods on the hot path (LegalMoves, Make, Unmake,
// Hash) must not allocate once the State has warmed up.
type State[M comparable] interface {
	// ToMove returns the player whose turn it is.
	ToMove() Player
	// LegalMoves appends the legal moves of the current position to buf[:0]
	// and returns the extended slice. The caller owns buf.
	LegalMoves(buf []M) []M
	// Make plays m, which must be legal in the current position.
	Make(m M)
	// Unmake takes back the last move made. It panics if there is none.
	Unmake()
	// Hash returns the Zobrist hash of the current position, side to move included.
	Hash() uint64
	// Ply returns the number of moves made since the start position of this State.
	Ply() int
	// Outcome reports whether the game has ended in the current position and why.
	Outcome() Outcome
	// FormatMove writes m, legal in the current position, in the game's standard notation.
	FormatMove(m M) string
	// ParseMove reads a move in the game's standard notation and checks that
	// it is legal in the current position.
	ParseMove(s string) (M, error)
}

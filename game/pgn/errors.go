package pgn

import (
	"fmt"

	"evolved/game"
)

// Error reports a problem in a record file: which game (counting from 1),
// on which line, and what. Err wraps one of the game package's sentinel
// errors.
type Error struct {
	// Format names the package and the record format, "chess: pgn" or
	// "draughts: pdn"; the message starts with it.
	Format string
	Game   int   // the game's index in the input, from 1
	Line   int   // the line of the offending token, from 1
	Err    error // what is wrong
}

// Error returns, for example, `chess: pgn game 1, line 9: move 12... "Nf6"
// (position ...): ...`.
func (e *Error) Error() string {
	return fmt.Sprintf("%s game %d, line %d: %v", e.Format, e.Game, e.Line, e.Err)
}

// Unwrap returns e.Err.
func (e *Error) Unwrap() error { return e.Err }

// One returns the only game of games, which a reader returned with err:
// err itself if it is not nil, else, when there is not exactly one game,
// an error that wraps syntax and starts with op ("chess: parse pgn").
func One[G any](games []G, err error, op string, syntax error) (G, error) {
	var none G
	if err != nil {
		return none, err
	}
	if len(games) != 1 {
		return none, fmt.Errorf("%s: %w", op, game.Errorf(syntax, "found %d games, want exactly one", len(games)))
	}
	return games[0], nil
}

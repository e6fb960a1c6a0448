package xiangqi

import "errors"

// The sentinel errors of the package. Every error returned by ParseFEN,
// ParseUCI and Game.ParseMove wraps one of them, so that callers can test
// the kind of failure with errors.Is while the message says exactly what
// was wrong.
var (
	// ErrSyntax means the text is not well-formed: a FEN field, a move or
	// a square that cannot be read.
	ErrSyntax = errors.New("xiangqi: syntax error")
	// ErrInvalidPosition means a well-formed position breaks a rule of the
	// game: no general or two, a piece on a point it can never reach, more
	// pieces of a kind than a set has, the side not to move in check.
	ErrInvalidPosition = errors.New("xiangqi: invalid position")
	// ErrIllegalMove means a well-formed move is not legal in the position.
	ErrIllegalMove = errors.New("xiangqi: illegal move")
)

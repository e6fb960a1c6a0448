package chess

import "errors"

// The sentinel errors of the package. Every error returned by a parser
// (ParseFEN, ParseUCI, ParseSAN, ReadPGN, ParseEPD and their relatives) or by
// Chess960 and Validate wraps one of them, so that callers can test the kind
// of failure with errors.Is while the message says exactly what was wrong.
var (
	// ErrSyntax means the text is not well-formed: a FEN field, a move, a
	// square or a PGN token that cannot be read.
	ErrSyntax = errors.New("chess: syntax error")
	// ErrInvalidPosition means a well-formed position breaks a rule of the
	// game: no king or two, pawns on the first or last rank, the side not to
	// move in check, a castling right without its rook, an impossible en
	// passant square, a Chess960 number out of range.
	ErrInvalidPosition = errors.New("chess: invalid position")
	// ErrIllegalMove means a well-formed move is not legal in the position.
	ErrIllegalMove = errors.New("chess: illegal move")
	// ErrAmbiguousMove means a SAN move matches more than one legal move.
	ErrAmbiguousMove = errors.New("chess: ambiguous move")
	// ErrUnsupported means valid input that this package does not handle,
	// such as a PGN game of another variant.
	ErrUnsupported = errors.New("chess: unsupported")
)

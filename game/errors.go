package game

import "fmt"

// Error is an error of a rules package that says exactly what is wrong
// and wraps one of the package's sentinel errors (chess.ErrSyntax,
// draughts.ErrIllegalMove, ...): errors.Is finds the sentinel, while the
// message does not repeat the sentinel's own text.
type Error struct {
	// Kind is the sentinel: what sort of failure this is.
	Kind error
	// Msg is the message Error returns.
	Msg string
}

// Error returns e.Msg.
func (e *Error) Error() string { return e.Msg }

// Unwrap returns e.Kind.
func (e *Error) Unwrap() error { return e.Kind }

// Errorf returns an *Error of the given kind whose message is formatted as
// fmt.Sprintf does.
func Errorf(kind error, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// Parsed returns what a rules package's parser found as its exported
// parser returns it: v and a nil error, or the zero T and err wrapped as
// `op "input": err` (for example `chess: parse FEN "x": ...`). It turns a
// nil *Error into a nil error, which returning err as an error would not.
func Parsed[T any](op, input string, v T, err *Error) (T, error) {
	if err != nil {
		var zero T
		return zero, fmt.Errorf("%s %q: %w", op, input, err)
	}
	return v, nil
}

// ParsedIn is Parsed for text read in a position, such as a move: the
// message also names the position by the FEN that fen returns, which is
// called only for an error: `op "input" in FEN: err`.
func ParsedIn[T any](op, input string, fen func() string, v T, err *Error) (T, error) {
	if err != nil {
		var zero T
		return zero, fmt.Errorf("%s %q in %s: %w", op, input, fen(), err)
	}
	return v, nil
}

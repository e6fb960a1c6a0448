package chess

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"evolved/game"
)

// EPD is one record of an Extended Position Description file, the format
// of the test suites (Win At Chess, Bratko-Kopec): a position and its
// operations. The operations the suites are scored by are read into
// fields; every operation, these included, is also kept as text in Ops.
type EPD struct {
	// Position is the position, with the clocks of the hmvc and fmvn
	// operations or of FEN clock fields if the line has them (0 and 1 if
	// not).
	Position Position
	// BestMoves are the moves of the bm operation: a program solves the
	// position by playing one of them.
	BestMoves []Move
	// AvoidMoves are the moves of the am operation: a program fails the
	// position by playing one of them.
	AvoidMoves []Move
	// ID is the operand of the id operation ("" without one).
	ID string
	// Ops are the operations in the order of the line.
	Ops []EPDOp
}

// EPDOp is one operation of an EPD record: its opcode and its operands as
// written, a quoted string's quotes removed.
type EPDOp struct {
	Opcode   string
	Operands []string
}

// Op returns the operation with opcode, if e has it.
func (e *EPD) Op(opcode string) (EPDOp, bool) {
	for _, op := range e.Ops {
		if op.Opcode == opcode {
			return op, true
		}
	}
	return EPDOp{}, false
}

// Solved reports whether m solves e: it is one of the best moves (if e
// has a bm operation) and none of the moves to avoid. A record with
// neither operation is solved by no move.
func (e *EPD) Solved(m Move) bool {
	if len(e.BestMoves) == 0 && len(e.AvoidMoves) == 0 {
		return false
	}
	for _, a := range e.AvoidMoves {
		if a == m {
			return false
		}
	}
	if len(e.BestMoves) == 0 {
		return true
	}
	for _, b := range e.BestMoves {
		if b == m {
			return true
		}
	}
	return false
}

// EPDError reports a problem in an EPD file: the line (counting from 1),
// its id when it was read before the problem, and what. Err wraps one of
// the sentinel errors.
type EPDError struct {
	Line int    // the line, from 1
	ID   string // the record's id operand, if read
	Err  error  // what is wrong
}

// Error returns, for example, `chess: epd line 7 (id "WAC.007"): bm move
// "Nf9" (position ...): "f9" is not a destination square a1..h8`.
func (e *EPDError) Error() string {
	if e.ID != "" {
		return fmt.Sprintf("chess: epd line %d (id %q): %v", e.Line, e.ID, e.Err)
	}
	return fmt.Sprintf("chess: epd line %d: %v", e.Line, e.Err)
}

// Unwrap returns e.Err.
func (e *EPDError) Unwrap() error { return e.Err }

// ReadEPD reads every record of an EPD file, one a line as ParseEPD reads
// it, skipping blank lines and lines that start with '#'. The first
// problem ends reading: ReadEPD returns the records before it and an
// *EPDError naming the line.
func ReadEPD(r io.Reader) ([]EPD, error) {
	var out []EPD
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		e, id, err := parseEPD(text)
		if err != nil {
			return out, &EPDError{Line: line, ID: id, Err: err}
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("chess: read epd after line %d: %w", line, err)
	}
	return out, nil
}

// ParseEPD reads one EPD record: the first four fields of a FEN (board,
// side to move, castling, en passant), optionally the FEN's two clock
// fields, then operations, each an opcode (a letter, then letters, digits
// and underscores) followed by operands and ended by a semicolon (the
// last one's may be missing). An operand is a word or a string in double
// quotes, which may hold spaces and semicolons. The moves of bm and am are
// in SAN, as ParseSAN reads them, and must be legal in the position; id
// takes exactly one operand, hmvc and fmvn a number that sets the
// position's clock. Errors wrap ErrSyntax, ErrInvalidPosition,
// ErrIllegalMove or ErrAmbiguousMove and name the problem.
func ParseEPD(line string) (EPD, error) {
	e, _, err := parseEPD(line)
	if err != nil {
		return EPD{}, fmt.Errorf("chess: parse EPD %q: %w", line, err)
	}
	return e, nil
}

// parseEPD is ParseEPD without the prefix; it also returns the id read
// before a problem, for the error.
func parseEPD(line string) (EPD, string, error) {
	var e EPD
	fields, rest := epdFields(line, 4)
	if len(fields) < 4 {
		return EPD{}, "", game.Errorf(ErrSyntax, "%d position fields, want 4 (board, side, castling, en passant)", len(fields))
	}
	clocks := [2]string{"0", "1"}
	for i := range clocks {
		// FEN-style clock fields: an opcode never starts with a digit.
		more, after := epdFields(rest, 1)
		if len(more) == 0 || more[0][0] < '0' || more[0][0] > '9' {
			break
		}
		clocks[i], rest = more[0], after
	}
	ops, err := epdOps(rest)
	if err != nil {
		return EPD{}, "", err
	}
	e.Ops = ops
	// The id first, so that the errors below can name the record.
	seen := map[string]bool{}
	for _, op := range ops {
		if seen[op.Opcode] {
			return EPD{}, e.ID, game.Errorf(ErrSyntax, "operation %s given twice", op.Opcode)
		}
		seen[op.Opcode] = true
		if op.Opcode == "id" {
			if len(op.Operands) != 1 {
				return EPD{}, "", game.Errorf(ErrSyntax, "id has %d operands, want 1", len(op.Operands))
			}
			e.ID = op.Operands[0]
		}
	}
	for _, op := range ops {
		switch op.Opcode {
		case "hmvc", "fmvn":
			if len(op.Operands) != 1 {
				return EPD{}, e.ID, game.Errorf(ErrSyntax, "%s has %d operands, want 1", op.Opcode, len(op.Operands))
			}
			if op.Opcode == "hmvc" {
				clocks[0] = op.Operands[0]
			} else {
				clocks[1] = op.Operands[0]
			}
		}
	}
	pos, perr := parseFEN(strings.Join(fields, " ") + " " + clocks[0] + " " + clocks[1])
	if perr != nil {
		return EPD{}, e.ID, fmt.Errorf("position %q: %w", strings.Join(fields, " "), perr)
	}
	e.Position = pos
	for _, op := range ops {
		var moves *[]Move
		switch op.Opcode {
		case "bm":
			moves = &e.BestMoves
		case "am":
			moves = &e.AvoidMoves
		default:
			continue
		}
		if len(op.Operands) == 0 {
			return EPD{}, e.ID, game.Errorf(ErrSyntax, "%s has no move", op.Opcode)
		}
		for _, text := range op.Operands {
			m, err := pos.parseSAN(text)
			if err != nil {
				return EPD{}, e.ID, fmt.Errorf("%s move %q (position %s): %w", op.Opcode, text, pos.FEN(), err)
			}
			*moves = append(*moves, m)
		}
	}
	return e, e.ID, nil
}

// epdFields splits off up to n whitespace-separated fields from the start
// of s and returns them with the rest of s.
func epdFields(s string, n int) ([]string, string) {
	var fields []string
	for len(fields) < n {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			break
		}
		end := strings.IndexAny(s, " \t")
		if end < 0 {
			end = len(s)
		}
		fields = append(fields, s[:end])
		s = s[end:]
	}
	return fields, s
}

// epdOps reads the operations of an EPD record.
func epdOps(s string) ([]EPDOp, error) {
	var ops []EPDOp
	var op *EPDOp // the operation being read, if any
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == ';':
			if op == nil {
				return nil, game.Errorf(ErrSyntax, "a semicolon without an operation at column %d", i+1)
			}
			op = nil
			i++
		case op == nil:
			end := i
			for end < len(s) && s[end] != ' ' && s[end] != '\t' && s[end] != ';' {
				end++
			}
			code := s[i:end]
			if !isOpcode(code) {
				return nil, game.Errorf(ErrSyntax, "opcode %q: want a letter, then letters, digits or underscores", code)
			}
			ops = append(ops, EPDOp{Opcode: code})
			op = &ops[len(ops)-1]
			i = end
		case c == '"':
			end := strings.IndexByte(s[i+1:], '"')
			if end < 0 {
				return nil, game.Errorf(ErrSyntax, "%s: string %s has no closing quote", op.Opcode, s[i:])
			}
			end += i + 1
			if end+1 < len(s) && s[end+1] != ' ' && s[end+1] != '\t' && s[end+1] != ';' {
				return nil, game.Errorf(ErrSyntax, "%s: %q follows the string %s", op.Opcode, s[end+1], s[i:end+1])
			}
			op.Operands = append(op.Operands, s[i+1:end])
			i = end + 1
		default:
			end := i
			for end < len(s) && s[end] != ' ' && s[end] != '\t' && s[end] != ';' {
				end++
			}
			op.Operands = append(op.Operands, s[i:end])
			i = end
		}
	}
	return ops, nil
}

// isOpcode reports whether s is an EPD opcode: a letter, then letters,
// digits or underscores.
func isOpcode(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isLetter(c) && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

package game

import (
	"strconv"
	"strings"
)

// WriteFENBoard writes the piece placement field of a FEN of a board of
// files by ranks squares (at most 9 files) to sb: the ranks from the last
// to the first, separated by '/', each from its first file, a piece as the
// letter letter returns for its square and a run of empty squares (letter
// returns 0) as its length.
func WriteFENBoard(sb *strings.Builder, files, ranks int, letter func(file, rank int) byte) {
	for r := ranks - 1; r >= 0; r-- {
		empty := 0
		for f := range files {
			ch := letter(f, r)
			if ch == 0 {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
				empty = 0
			}
			sb.WriteByte(ch)
		}
		if empty > 0 {
			sb.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			sb.WriteByte('/')
		}
	}
}

// ParseFENBoard reads the piece placement field of a FEN as WriteFENBoard
// writes it, for a board of files by ranks squares (at most 9 files): a
// digit 1..files is a run of empty squares, and any other byte must be a
// piece letter (isPiece) that put places on its file and rank, or returns
// an error for. Its own errors are of kind syntax and call the squares
// unit ("squares" in chess, "points" in xiangqi).
func ParseFENBoard(field string, files, ranks int, unit string, syntax error, isPiece func(byte) bool, put func(ch byte, file, rank int) *Error) *Error {
	rows := strings.Split(field, "/")
	if len(rows) != ranks {
		return Errorf(syntax, "board has %d ranks, want %d", len(rows), ranks)
	}
	lastDigit := byte('0' + files)
	for i, row := range rows {
		r := ranks - 1 - i
		f := 0
		for j := 0; j < len(row); j++ {
			ch := row[j]
			if ch >= '1' && ch <= lastDigit {
				f += int(ch - '0')
				if f > files {
					return Errorf(syntax, "rank %d %q is longer than %d %s", r+1, row, files, unit)
				}
				continue
			}
			if !isPiece(ch) {
				return Errorf(syntax, "rank %d %q: %q is not a piece letter or digit 1..%d", r+1, row, ch, files)
			}
			if f >= files {
				return Errorf(syntax, "rank %d %q is longer than %d %s", r+1, row, files, unit)
			}
			if err := put(ch, f, r); err != nil {
				return err
			}
			f++
		}
		if f != files {
			return Errorf(syntax, "rank %d %q has %d %s, want %d", r+1, row, f, unit, files)
		}
	}
	return nil
}

// ParseFENSide reads the side-to-move field of a FEN: w (or W) for the
// first player, b (or B) for the second. Its error wraps syntax and ends
// with want ("want w or b").
func ParseFENSide(field string, syntax error, want string) (Player, *Error) {
	switch field {
	case "w", "W":
		return First, nil
	case "b", "B":
		return Second, nil
	}
	return First, Errorf(syntax, "side to move %q, %s", field, want)
}

// ParseFENClocks reads the clocks of a FEN split into fields: the halfmove
// clock, fields[4], and the move number, fields[5], where present (0 and
// 1 where not; a move number of 0, where some writers start, reads as 1).
// Its errors wrap syntax and call the move number moveName ("fullmove
// number" in chess, "move number" in xiangqi).
func ParseFENClocks(fields []string, syntax error, moveName string) (halfmove, fullmove uint16, err *Error) {
	fullmove = 1
	if len(fields) > 4 {
		n, err := strconv.ParseUint(fields[4], 10, 16)
		if err != nil {
			return 0, 0, Errorf(syntax, "halfmove clock %q is not a number 0..65535", fields[4])
		}
		halfmove = uint16(n)
	}
	if len(fields) > 5 {
		n, err := strconv.ParseUint(fields[5], 10, 16)
		if err != nil {
			return 0, 0, Errorf(syntax, "%s %q is not a number 0..65535", moveName, fields[5])
		}
		fullmove = max(uint16(n), 1)
	}
	return halfmove, fullmove, nil
}

package game

import "strconv"

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

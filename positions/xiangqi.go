package positions

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"strings"

	"evolved/game"
	"evolved/game/xiangqi"
)

// The xiangqi layout of a Packed position:
//
//	bytes 0-11   the occupied points, a set of 90 bits (point s =
//	             xiangqi.Square s, bit s%8 of byte s/8)
//	bytes 12-27  a nibble a piece, in the order of its point, the low nibble
//	             of a byte first: 0-6 a red general .. soldier
//	             (xiangqi.General .. xiangqi.Soldier), 7-13 a black one
//	byte 28      bit 7 the side to move (1: Black), bits 0-6 zero
//	bytes 29-31  zero
//
// A xiangqi position holds at most 32 pieces. The clocks are left out, as
// for chess.
const xiangqiOccBytes = 12

// PackXiangqi packs the xiangqi position p (see the layout above).
func PackXiangqi(p *xiangqi.Position) Packed {
	var out Packed
	i := 0
	for s := xiangqi.Square(0); s < xiangqi.Squares; s++ {
		pt, c := p.PieceAt(s)
		if pt == xiangqi.NoPieceType {
			continue
		}
		out[s/8] |= 1 << (s % 8)
		out[xiangqiOccBytes+i/2] |= (byte(c)*7 + byte(pt)) << (4 * (i & 1))
		i++
	}
	out[28] = byte(p.Side()) << 7
	return out
}

// UnpackXiangqi returns the xiangqi position PackXiangqi packed into b,
// its halfmove clock 0 and its move number 1. The position is checked as
// xiangqi.ParseFEN checks a FEN, and b must be the one packing of it; the
// error wraps ErrCorrupt otherwise, and names what is wrong.
func UnpackXiangqi(b *Packed) (xiangqi.Position, error) {
	return unpack(b, "xiangqi", "PackXiangqi", xiangqiFEN, xiangqi.ParseFEN, PackXiangqi)
}

// xiangqiFEN writes the FEN of the packed xiangqi position b.
func xiangqiFEN(b *Packed) (string, error) {
	lo, hi := binary.LittleEndian.Uint64(b[:]), uint64(binary.LittleEndian.Uint32(b[8:]))
	if hi>>(xiangqi.Squares-64) != 0 {
		return "", fmt.Errorf("occupied bits beyond point %d", xiangqi.Squares-1)
	}
	n := bits.OnesCount64(lo) + bits.OnesCount64(hi)
	if n > 32 {
		return "", fmt.Errorf("%d occupied points, more than 32", n)
	}
	var board [xiangqi.Squares]byte
	i := 0
	for s := range xiangqi.Squares {
		if b[s/8]>>(s%8)&1 == 0 {
			continue
		}
		code := b[xiangqiOccBytes+i/2] >> (4 * (i & 1)) & 15
		if code >= 14 {
			return "", fmt.Errorf("piece code %d on %s", code, xiangqi.Square(s))
		}
		board[s] = "KABNRCP"[code%7] | (code/7)*0x20
		i++
	}
	for ; i < 32; i++ {
		if b[xiangqiOccBytes+i/2]>>(4*(i&1))&15 != 0 {
			return "", fmt.Errorf("piece code beyond the %d pieces", n)
		}
	}
	if b[28]&127 != 0 || b[29]|b[30]|b[31] != 0 {
		return "", fmt.Errorf("stray bits in bytes 28-31")
	}
	var sb strings.Builder
	game.WriteFENBoard(&sb, xiangqi.Files, xiangqi.Ranks, func(f, r int) byte { return board[xiangqi.NewSquare(f, r)] })
	sb.WriteString(sideField(b[28] >> 7))
	sb.WriteString("- -")
	return sb.String(), nil
}

// PackXiangqiMove packs a xiangqi move into 16 bits: its from point and its
// to point, seven bits each; 0 for the zero move (no move goes from point 0
// to point 0).
func PackXiangqiMove(m xiangqi.Move) uint16 {
	if m == 0 {
		return 0
	}
	return uint16(m.From()) | uint16(m.To())<<7
}

// XiangqiMove returns the legal move of p that PackXiangqiMove packs into
// m, and false when none does.
func XiangqiMove(p *xiangqi.Position, m uint16) (xiangqi.Move, bool) {
	var buf [256]xiangqi.Move
	for _, x := range p.LegalMoves(buf[:0]) {
		if PackXiangqiMove(x) == m {
			return x, true
		}
	}
	return 0, false
}

package positions

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"strings"

	"evolved/game"
	"evolved/game/chess"
)

// The chess layout of a Packed position:
//
//	bytes 0-7    the occupied squares, a bitboard (a1 = bit 0), little-endian
//	bytes 8-23   a nibble a piece, in the order of its square, the low nibble
//	             of a byte first: 0-5 a white pawn .. king, 6-11 a black one,
//	             12 a white rook that keeps a castling right, 13 a black one
//	byte 24      bit 7 the side to move (1: Black); bits 0-6 the en passant
//	             square (0-63), or 64 for none
//	bytes 25-31  zero
//
// A chess position holds at most 32 pieces, so the nibbles fit. The clocks
// are left out: an evaluation does not read them, and positions that
// differ only in their clocks are one position to the store.
const (
	chessCastlingRook = 12
	chessNoEnPassant  = 64
)

// PackChess packs the chess position p (see the layout above).
func PackChess(p *chess.Position) Packed {
	var out Packed
	occ := uint64(p.Occupied())
	binary.LittleEndian.PutUint64(out[:], occ)
	castling := uint64(p.CastlingRooks())
	for i, b := 0, occ; b != 0; i, b = i+1, b&(b-1) {
		s := chess.Square(bits.TrailingZeros64(b))
		pt, c := p.PieceAt(s)
		code := byte(c)*6 + byte(pt)
		if castling&(1<<s) != 0 {
			code = chessCastlingRook + byte(c)
		}
		out[8+i/2] |= code << (4 * (i & 1))
	}
	ep := byte(chessNoEnPassant)
	if s := p.EnPassant(); s != chess.NoSquare {
		ep = byte(s)
	}
	out[24] = ep | byte(p.Side())<<7
	return out
}

// UnpackChess returns the chess position PackChess packed into b, its
// halfmove clock 0 and its move number 1. The position is checked as
// chess.ParseFEN checks a FEN, and b must be the one packing of it (no
// stray bits, an en passant square only where a pawn can take); the error
// wraps ErrCorrupt otherwise, and names what is wrong.
func UnpackChess(b *Packed) (chess.Position, error) {
	return unpack(b, "chess", "PackChess", chessFEN, chess.ParseFEN, PackChess)
}

// chessFEN writes the FEN of the packed chess position b, its castling
// rights in Shredder-FEN (the rooks' files), which ParseFEN reads for
// classical chess and Chess960 alike.
func chessFEN(b *Packed) (string, error) {
	occ := binary.LittleEndian.Uint64(b[:])
	n := bits.OnesCount64(occ)
	if n > 32 {
		return "", fmt.Errorf("%d occupied squares, more than 32", n)
	}
	var board [64]byte
	var castling []byte
	for i, o := 0, occ; o != 0; i, o = i+1, o&(o-1) {
		s := bits.TrailingZeros64(o)
		code := b[8+i/2] >> (4 * (i & 1)) & 15
		switch {
		case code < 12:
			board[s] = "PNBRQKpnbrqk"[code]
		case code <= 13:
			board[s] = "Rr"[code-12]
			castling = append(castling, byte('A'+s%8)|(code-12)*0x20)
		default:
			return "", fmt.Errorf("piece code %d on %s", code, chess.Square(s))
		}
	}
	for i := n; i < 32; i++ {
		if b[8+i/2]>>(4*(i&1))&15 != 0 {
			return "", fmt.Errorf("piece code beyond the %d pieces", n)
		}
	}
	for i := 25; i < PackedSize; i++ {
		if b[i] != 0 {
			return "", fmt.Errorf("byte %d is %d, want 0", i, b[i])
		}
	}
	var sb strings.Builder
	game.WriteFENBoard(&sb, 8, 8, func(f, r int) byte { return board[r*8+f] })
	sb.WriteString(sideField(b[24] >> 7))
	if len(castling) == 0 {
		sb.WriteByte('-')
	}
	sb.Write(castling)
	sb.WriteByte(' ')
	switch ep := b[24] & 127; {
	case ep == chessNoEnPassant:
		sb.WriteByte('-')
	case ep < 64:
		sb.WriteString(chess.Square(ep).String())
	default:
		return "", fmt.Errorf("en passant byte %d", ep)
	}
	return sb.String(), nil
}

// PackChessMove packs a chess move into 16 bits: its from square, its to
// square (as the move holds it: the rook's square for a castling) and its
// promotion (0 none, 1 knight .. 4 queen), 0 for the zero move.
func PackChessMove(m chess.Move) uint16 {
	if m == 0 {
		return 0
	}
	promo := uint16(0)
	if pt := m.Promotion(); pt != chess.NoPieceType {
		promo = uint16(pt)
	}
	return uint16(m.From()) | uint16(m.To())<<6 | promo<<12
}

// ChessMove returns the legal move of p that PackChessMove packs into m,
// and false when none does.
func ChessMove(p *chess.Position, m uint16) (chess.Move, bool) {
	var buf [256]chess.Move
	for _, x := range p.LegalMoves(buf[:0]) {
		if PackChessMove(x) == m {
			return x, true
		}
	}
	return 0, false
}

// sideField returns a FEN's side field with the spaces around it: " w "
// for side 0 (White, Red), " b " for 1.
func sideField(side byte) string {
	if side == 0 {
		return " w "
	}
	return " b "
}

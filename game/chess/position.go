package chess

import "evolved/game"

// White and Black name the chess sides. White moves first.
const (
	White = game.First
	Black = game.Second
)

// PieceType is a kind of piece regardless of colour.
type PieceType uint8

// The piece types, in the order of their usual value. NoPieceType marks an
// empty square or the absence of a promotion.
const (
	Pawn PieceType = iota
	Knight
	Bishop
	Rook
	Queen
	King
	NoPieceType
)

// String returns the lower-case letter of the piece type ("p", "n", ..., "k"),
// or "-" for NoPieceType.
func (pt PieceType) String() string {
	if pt < NoPieceType {
		return string("pnbrqk"[pt])
	}
	return "-"
}

// Position is a chess position: the pieces, the side to move, the castling
// rights, the en passant square and the move counters. It is a value of 88
// bytes; Play returns a new Position rather than changing this one
// (copy-make), which is simpler than make/unmake and measured as fast for
// perft and search.
//
// The castling rights are kept as the set of rooks that may still castle,
// which serves classical chess and Chess960 alike: a right is lost when its
// rook or its king moves, or when the rook is captured.
//
// The en passant square is set only when a pawn of the side to move stands
// beside the pawn that has just advanced two squares, so that positions
// which differ only in an en passant square nobody could use are equal and
// hash alike (repetitions depend on it). The zero Position is not valid; get
// one from Start, Chess960 or ParseFEN.
type Position struct {
	pieces   [6]Bitboard // by PieceType, both colours
	colors   [2]Bitboard // by game.Player
	castling Bitboard    // the rooks that keep a castling right
	hash     uint64
	side     game.Player
	ep       Square // en passant target square, or NoSquare
	rule50   uint16 // plies since the last capture or pawn move
	fullmove uint16 // the move number, starting at 1 and incremented after Black moves
}

// Side returns the player to move.
func (p *Position) Side() game.Player { return p.side }

// Hash returns the Zobrist hash of the position: the pieces, the side to
// move, the castling rights and the en passant square, but not the clocks.
func (p *Position) Hash() uint64 { return p.hash }

// Pieces returns the pieces of type pt and colour c.
func (p *Position) Pieces(c game.Player, pt PieceType) Bitboard {
	return p.pieces[pt%NoPieceType] & p.colors[c&1]
}

// Color returns every piece of colour c.
func (p *Position) Color(c game.Player) Bitboard { return p.colors[c&1] }

// Occupied returns every occupied square.
func (p *Position) Occupied() Bitboard { return p.colors[0] | p.colors[1] }

// King returns the square of c's king.
func (p *Position) King(c game.Player) Square { return lsb(p.pieces[King] & p.colors[c&1]) }

// Changed returns the squares whose content differs between p and q: a
// piece of another type or colour, or a piece on one and none on the other.
func (p *Position) Changed(q *Position) Bitboard {
	d := (p.colors[0] ^ q.colors[0]) | (p.colors[1] ^ q.colors[1])
	for pt := range p.pieces {
		d |= p.pieces[pt] ^ q.pieces[pt]
	}
	return d
}

// PieceAt returns the type and colour of the piece on s, or NoPieceType
// (and White) for an empty square.
func (p *Position) PieceAt(s Square) (PieceType, game.Player) {
	b := bit(s)
	if (p.colors[0]|p.colors[1])&b == 0 {
		return NoPieceType, White
	}
	c := White
	if p.colors[Black]&b != 0 {
		c = Black
	}
	return p.typeAt(b), c
}

// typeAt returns the type of the piece on the (occupied) square b.
func (p *Position) typeAt(b Bitboard) PieceType {
	for pt := Pawn; pt < King; pt++ {
		if p.pieces[pt]&b != 0 {
			return pt
		}
	}
	return King
}

// EnPassant returns the square a pawn of the side to move could capture
// en passant onto, or NoSquare.
func (p *Position) EnPassant() Square { return p.ep }

// CastlingRooks returns the rooks that keep a castling right, of both colours.
func (p *Position) CastlingRooks() Bitboard { return p.castling }

// HalfmoveClock returns the number of plies since the last capture or pawn
// move, which the 50-move rule counts.
func (p *Position) HalfmoveClock() int { return int(p.rule50) }

// FullmoveNumber returns the move number, 1 at the start of a game.
func (p *Position) FullmoveNumber() int { return int(p.fullmove) }

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool {
	us := p.side
	return p.attackedBy(p.King(us), p.colors[0]|p.colors[1], us^1)
}

// Checkers returns the pieces giving check to the side to move.
func (p *Position) Checkers() Bitboard {
	us := p.side
	return p.attackersTo(p.King(us), p.colors[0]|p.colors[1]) & p.colors[us^1]
}

// attackersTo returns the pieces of both colours that attack s given the occupancy occ.
func (p *Position) attackersTo(s Square, occ Bitboard) Bitboard {
	return tab.knight[s]&p.pieces[Knight] |
		tab.king[s]&p.pieces[King] |
		tab.pawn[White][s]&p.pieces[Pawn]&p.colors[Black] |
		tab.pawn[Black][s]&p.pieces[Pawn]&p.colors[White] |
		bishopAttacks(s, occ)&(p.pieces[Bishop]|p.pieces[Queen]) |
		rookAttacks(s, occ)&(p.pieces[Rook]|p.pieces[Queen])
}

// attackedBy reports whether a piece of colour by attacks s given the occupancy occ.
func (p *Position) attackedBy(s Square, occ Bitboard, by game.Player) bool {
	theirs := p.colors[by&1]
	if (tab.knight[s]&p.pieces[Knight]|tab.king[s]&p.pieces[King]|tab.pawn[by^1][s]&p.pieces[Pawn])&theirs != 0 {
		return true
	}
	return (bishopAttacks(s, occ)&(p.pieces[Bishop]|p.pieces[Queen])|
		rookAttacks(s, occ)&(p.pieces[Rook]|p.pieces[Queen]))&theirs != 0
}

// backRank returns the first rank of colour c.
func backRank(c game.Player) Bitboard {
	return rank1 << (56 * Bitboard(c&1))
}

// Play returns the position after m, which must be legal in p (a move from
// LegalMoves or a parser). It updates the hash incrementally.
func (p Position) Play(m Move) Position {
	p.apply(m)
	return p
}

// apply plays m on p in place. Game.Make copies the position into its
// history and applies the move there: building the child as a returned
// value cost a copy through a stack temporary.
func (p *Position) apply(m Move) {
	from, to := m.From(), m.To()
	us := p.side & 1
	them := us ^ 1
	pt := m.Piece()
	fromBB, toBB := bit(from), bit(to)
	keys := &zobrist
	hash := p.hash ^ keys.side
	if p.ep != NoSquare {
		hash ^= keys.ep[p.ep&7]
		p.ep = NoSquare
	}
	p.rule50++
	p.fullmove += uint16(us)
	if m.kind() == kindCastle {
		kTo, rTo := castleKingTo(from, to), castleRookTo(from, to)
		kMove, rMove := fromBB^bit(kTo), toBB^bit(rTo)
		p.pieces[King] ^= kMove
		p.pieces[Rook] ^= rMove
		p.colors[us] ^= kMove ^ rMove
		hash ^= keys.piece[us][King][from] ^ keys.piece[us][King][kTo] ^
			keys.piece[us][Rook][to] ^ keys.piece[us][Rook][rTo]
	} else {
		if p.colors[them]&toBB != 0 {
			ct := p.typeAt(toBB)
			p.pieces[ct] ^= toBB
			p.colors[them] ^= toBB
			hash ^= keys.piece[them][ct][to]
			p.rule50 = 0
		}
		moved := fromBB | toBB
		p.pieces[pt] ^= moved
		p.colors[us] ^= moved
		hash ^= keys.piece[us][pt][from] ^ keys.piece[us][pt][to]
		if pt == Pawn {
			p.rule50 = 0
			switch m.kind() {
			case kindDouble:
				// Record the square only if an enemy pawn stands beside
				// the pawn that advanced.
				if (east(toBB)|west(toBB))&p.pieces[Pawn]&p.colors[them] != 0 {
					p.ep = (from + to) / 2
					hash ^= keys.ep[p.ep&7]
				}
			case kindEnPassant:
				capSq := to ^ 8
				p.pieces[Pawn] ^= bit(capSq)
				p.colors[them] ^= bit(capSq)
				hash ^= keys.piece[them][Pawn][capSq]
			default:
				if promo := m.Promotion(); promo != NoPieceType {
					p.pieces[Pawn] ^= toBB
					p.pieces[promo] ^= toBB
					hash ^= keys.piece[us][Pawn][to] ^ keys.piece[us][promo][to]
				}
			}
		}
	}
	if p.castling != 0 {
		lost := p.castling & (fromBB | toBB)
		if pt == King {
			lost |= p.castling & backRank(us)
		}
		if lost != 0 {
			p.castling ^= lost
			for ; lost != 0; lost &= lost - 1 {
				hash ^= keys.castle[lsb(lost)]
			}
		}
	}
	p.side = them
	p.hash = hash
}

// PlayNull returns the position with the move passed to the opponent (a
// null move, for search): the en passant square is cleared, the clocks
// advance. p must not be in check.
func (p Position) PlayNull() Position {
	if p.ep != NoSquare {
		p.hash ^= zobrist.ep[p.ep&7]
		p.ep = NoSquare
	}
	p.hash ^= zobrist.side
	p.rule50++
	p.fullmove += uint16(p.side & 1)
	p.side ^= 1
	return p
}

// computeHash returns the Zobrist hash computed from scratch.
func (p *Position) computeHash() uint64 {
	var h uint64
	for c := White; c <= Black; c++ {
		for pt := Pawn; pt <= King; pt++ {
			for b := p.pieces[pt] & p.colors[c]; b != 0; b &= b - 1 {
				h ^= zobrist.piece[c][pt][lsb(b)]
			}
		}
	}
	for b := p.castling; b != 0; b &= b - 1 {
		h ^= zobrist.castle[lsb(b)]
	}
	if p.ep != NoSquare {
		h ^= zobrist.ep[p.ep&7]
	}
	if p.side == Black {
		h ^= zobrist.side
	}
	return h
}

// zobristKeys are the random numbers of the Zobrist hash.
type zobristKeys struct {
	piece  [2][6][64]uint64 // [colour][piece type][square]
	castle [64]uint64       // per castling rook; only the first and last ranks are used
	ep     [8]uint64        // per file of the en passant square
	side   uint64           // xored in when Black is to move
}

// zobrist holds fixed keys drawn from game.SplitMix64 with a constant seed, so
// hashes are the same in every run and on every machine (they are stored in
// databases and compared across processes). It is never written after init.
var zobrist = func() (z zobristKeys) {
	keys := game.SplitMix64(0x6576_6f6c_7665_6443) // "evolvedC"
	for c := range 2 {
		for pt := range 6 {
			for s := range 64 {
				z.piece[c][pt][s] = keys.Next()
			}
		}
	}
	for s := range 64 {
		z.castle[s] = keys.Next()
	}
	for f := range 8 {
		z.ep[f] = keys.Next()
	}
	z.side = keys.Next()
	return z
}()

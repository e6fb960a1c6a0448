package xiangqi

import "evolved/game"

// Position is a xiangqi position: the pieces, the side to move and the
// move counters. Play returns a new Position rather than changing this one
// (copy-make). The board is a mailbox of 90 cells, with the occupied
// squares of each colour as a 128-bit set for walking the pieces. The zero
// Position is not valid; get one from Start or ParseFEN.
type Position struct {
	board    [Squares]cell
	occ      [2][2]uint64 // [colour][word]: squares 0..63 and 64..89
	hash     uint64
	kings    [2]Square
	side     game.Player
	halfmove uint16 // plies since the last capture, as Fairy-Stockfish counts them
	fullmove uint16 // the move number, starting at 1 and incremented after Black moves
}

// Side returns the player to move.
func (p *Position) Side() game.Player { return p.side }

// Hash returns the Zobrist hash of the position: the pieces and the side
// to move, not the clocks.
func (p *Position) Hash() uint64 { return p.hash }

// PieceAt returns the type and colour of the piece on s, or NoPieceType
// (and Red) for an empty square.
func (p *Position) PieceAt(s Square) (PieceType, game.Player) {
	if s >= NoSquare || p.board[s] == 0 {
		return NoPieceType, Red
	}
	x := p.board[s]
	return cellType(x), cellColor(x)
}

// General returns the square of c's general.
func (p *Position) General(c game.Player) Square { return p.kings[c&1] }

// HalfmoveClock returns the number of plies since the last capture (a
// soldier's move does not reset it, as in Fairy-Stockfish).
func (p *Position) HalfmoveClock() int { return int(p.halfmove) }

// FullmoveNumber returns the move number, 1 at the start of a game.
func (p *Position) FullmoveNumber() int { return int(p.fullmove) }

// InCheck reports whether the side to move is in check. Facing the enemy
// general on an open file counts as check, though a legal move never
// leads to it.
func (p *Position) InCheck() bool { return attacked(&p.board, p.kings[p.side&1], p.side&1) }

// attacked reports whether the general of colour us on k is attacked on
// board b: by a chariot, or the enemy general, first on a line from k; by
// a cannon second on a line; by a horse whose leg is free; by a soldier.
// Advisors and elephants never leave their own half, so they cannot
// attack a general.
func attacked(b *[Squares]cell, k Square, us game.Player) bool {
	them := us ^ 1
	chariot, cannon, general := makeCell(them, Chariot), makeCell(them, Cannon), makeCell(them, General)
	for d := range 4 {
		ray := &tab.ray[k][d]
		n := int(tab.rayLen[k][d])
		i := 0
		for ; i < n; i++ {
			if x := b[ray[i]]; x != 0 {
				if x == chariot || x == general {
					return true
				}
				break
			}
		}
		for i++; i < n; i++ {
			if x := b[ray[i]]; x != 0 {
				if x == cannon {
					return true
				}
				break
			}
		}
	}
	horse := makeCell(them, Horse)
	ha := &tab.horseAttack[k]
	for i := range int(ha.n) {
		if b[ha.to[i]] == horse && b[ha.leg[i]] == 0 {
			return true
		}
	}
	soldier := makeCell(them, Soldier)
	sa := &tab.soldierFrom[them][k]
	for i := range int(sa.n) {
		if b[sa.sq[i]] == soldier {
			return true
		}
	}
	return false
}

// Play returns the position after m, which must be legal in p (a move from
// LegalMoves or a parser). It updates the hash incrementally.
func (p Position) Play(m Move) Position {
	p.apply(m)
	return p
}

// apply plays m on p in place.
func (p *Position) apply(m Move) {
	from, to := m.From(), m.To()
	us := p.side & 1
	them := us ^ 1
	x := p.board[from]
	keys := &zobrist
	hash := p.hash ^ keys.side ^ keys.cell[x][from] ^ keys.cell[x][to]
	if y := p.board[to]; y != 0 {
		hash ^= keys.cell[y][to]
		p.occ[them][to>>6] ^= 1 << (to & 63)
		p.halfmove = 0
	} else {
		p.halfmove++
	}
	p.board[to] = x
	p.board[from] = 0
	p.occ[us][from>>6] ^= 1 << (from & 63)
	p.occ[us][to>>6] ^= 1 << (to & 63)
	if m.Piece() == General {
		p.kings[us] = to
	}
	p.fullmove += uint16(us)
	p.side = them
	p.hash = hash
}

// PlayNull returns the position with the move passed to the opponent (a
// null move, for search). p must not be in check.
func (p Position) PlayNull() Position {
	p.hash ^= zobrist.side
	p.halfmove++
	p.fullmove += uint16(p.side & 1)
	p.side ^= 1
	return p
}

// put places a piece of colour c and type pt on the empty square s,
// without touching the hash.
func (p *Position) put(c game.Player, pt PieceType, s Square) {
	p.board[s] = makeCell(c, pt)
	p.occ[c&1][s>>6] |= 1 << (s & 63)
	if pt == General {
		p.kings[c&1] = s
	}
}

// computeHash returns the Zobrist hash computed from scratch.
func (p *Position) computeHash() uint64 {
	var h uint64
	for s, x := range p.board {
		if x != 0 {
			h ^= zobrist.cell[x][s]
		}
	}
	if p.side == Black {
		h ^= zobrist.side
	}
	return h
}

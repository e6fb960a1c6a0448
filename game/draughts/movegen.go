package draughts

// This file holds only the hot path: move generation and move counting.

// Moves appends the legal moves of p to buf[:0] and returns the extended
// slice. Captures are compulsory, so when any capture exists only captures
// are returned. Two routes of a king that take the same pieces and end on
// the same square (round a ring, either way) lead to the same position and
// are one move. Moves allocates only if buf is too small.
func (p *Position) Moves(buf []Move) []Move { return p.movesWith(buf, p.jumpers()) }

// movesWith is Moves given the position's jumpers (Game keeps them).
func (p *Position) movesWith(buf []Move, jumpers uint32) []Move {
	if jumpers != 0 {
		return p.appendCaptures(buf[:0], jumpers, true)
	}
	return p.appendQuiet(buf[:0])
}

// Routes is Moves counted the way published perft figures count: a king
// capture that can be made in several directions over the same pieces
// appears once per route (Aart Bik: "the move generator does not eliminate
// duplicate captures", which first matters at depth 12 from the start).
// Perft walks routes; play and search use Moves.
func (p *Position) Routes(buf []Move) []Move {
	if j := p.jumpers(); j != 0 {
		return p.appendCaptures(buf[:0], j, false)
	}
	return p.appendQuiet(buf[:0])
}

// CountRoutes returns len(p.Routes(...)). It builds the list, in scratch,
// only when there are captures; otherwise it counts with popcounts, which is
// what makes perft's bulk counting at the last ply cheap.
func (p *Position) CountRoutes(scratch []Move) int {
	if j := p.jumpers(); j != 0 {
		return len(p.appendCaptures(scratch[:0], j, false))
	}
	empty := p.Empty()
	men, kings := p.Men(p.Side), p.KingsOf(p.Side)
	n := popcount(downLeft(kings)&empty) + popcount(downRight(kings)&empty) +
		popcount(upLeft(kings)&empty) + popcount(upRight(kings)&empty)
	if p.Side == Black {
		return n + popcount(downLeft(men)&empty) + popcount(downRight(men)&empty)
	}
	return n + popcount(upLeft(men)&empty) + popcount(upRight(men)&empty)
}

// HasCapture reports whether the side to move has a capture.
func (p *Position) HasCapture() bool {
	return p.jumpers() != 0
}

// jumpers returns the pieces of the side to move that can capture.
func (p *Position) jumpers() uint32 {
	us, them := p.Side, p.Side^1
	empty := p.Empty()
	opp := p.Pieces(them)
	men, kings := p.Men(us), p.KingsOf(us)
	// A piece can jump down-left if the square below-left holds an
	// opponent and the one beyond it is empty: walk back from the empty
	// squares through the opponents.
	down := upRight(upRight(empty)&opp) | upLeft(upLeft(empty)&opp)
	up := downRight(downRight(empty)&opp) | downLeft(downLeft(empty)&opp)
	if us == Black {
		return (men|kings)&down | kings&up
	}
	return (men|kings)&up | kings&down
}

// appendQuiet appends the non-capturing moves.
func (p *Position) appendQuiet(buf []Move) []Move {
	empty := p.Empty()
	men, kings := p.Men(p.Side), p.KingsOf(p.Side)
	downMovers, upMovers := kings, kings
	if p.Side == Black {
		downMovers |= men
	} else {
		upMovers |= men
	}
	// Each step is order-preserving, so the k-th lowest target pairs with
	// the k-th lowest source.
	if downMovers != 0 {
		t := downLeft(downMovers) & empty
		buf = appendPairs(buf, upRight(t), t)
		t = downRight(downMovers) & empty
		buf = appendPairs(buf, upLeft(t), t)
	}
	if upMovers != 0 {
		t := upLeft(upMovers) & empty
		buf = appendPairs(buf, downRight(t), t)
		t = upRight(upMovers) & empty
		buf = appendPairs(buf, downLeft(t), t)
	}
	return buf
}

// appendPairs appends one quiet move per square of from and to, paired in order.
func appendPairs(buf []Move, from, to uint32) []Move {
	for ; to != 0; to &= to - 1 {
		buf = append(buf, newMove(lowest(from), lowest(to), 0))
		from &= from - 1
	}
	return buf
}

// capture is the state of one capture search: a piece's start square, the
// opponent's pieces and the empty squares as they stand during the move (the
// mover's start square counts as empty; captured pieces stay on the board
// until the move ends, so they can be neither jumped again nor landed on).
type capture struct {
	from  int
	opp   uint32
	empty uint32
	crown uint32 // the row where a man of the mover is crowned
	black bool   // whether the mover is Black, whose men move down
}

// appendCaptures appends every capture of the side to move; jumpers are
// the pieces that can capture. With distinct, a king's routes that take the
// same pieces to the same square are kept once.
func (p *Position) appendCaptures(buf []Move, jumpers uint32, distinct bool) []Move {
	us := p.Side
	c := capture{opp: p.Pieces(us ^ 1), crown: crownRow(us), black: us == Black}
	for ; jumpers != 0; jumpers &= jumpers - 1 {
		s := lowest(jumpers)
		c.from = s
		c.empty = p.Empty() | 1<<s
		if p.Kings&(1<<s) != 0 {
			start := len(buf)
			buf = c.king(buf, s, 0)
			if distinct {
				buf = dedupe(buf, start)
			}
		} else {
			buf = c.man(buf, s, 0)
		}
	}
	return buf
}

// man extends a man's capture that has reached square s having taken
// captured. Men are the hot path of capture generation, so their two forward
// directions are stepped with bit operations rather than table look-ups.
func (c *capture) man(buf []Move, s int, captured uint32) []Move {
	b := uint32(1) << s
	free := c.opp &^ captured
	var over1, over2, land1, land2 uint32
	if c.black {
		over1, over2 = downLeft(b)&free, downRight(b)&free
		land1, land2 = downLeft(over1)&c.empty, downRight(over2)&c.empty
	} else {
		over1, over2 = upLeft(b)&free, upRight(b)&free
		land1, land2 = upLeft(over1)&c.empty, upRight(over2)&c.empty
	}
	if land1|land2 == 0 {
		if captured != 0 {
			buf = append(buf, newMove(c.from, s, captured))
		}
		return buf
	}
	// A man crowned by a capture stops there.
	if land1 != 0 {
		if land1&c.crown != 0 {
			buf = append(buf, newMove(c.from, lowest(land1), captured|over1))
		} else {
			buf = c.man(buf, lowest(land1), captured|over1)
		}
	}
	if land2 != 0 {
		if land2&c.crown != 0 {
			buf = append(buf, newMove(c.from, lowest(land2), captured|over2))
		} else {
			buf = c.man(buf, lowest(land2), captured|over2)
		}
	}
	return buf
}

// king extends a king's capture that has reached square s having taken captured.
func (c *capture) king(buf []Move, s int, captured uint32) []Move {
	extended := false
	for d := range 4 {
		over, land := neighbour[d][s], beyond[d][s]
		if over&c.opp&^captured == 0 || land&c.empty == 0 {
			continue
		}
		extended = true
		buf = c.king(buf, lowest(land), captured|over)
	}
	if !extended && captured != 0 {
		buf = append(buf, newMove(c.from, s, captured))
	}
	return buf
}

// dedupe removes, from buf[start:], moves equal to an earlier one. Only a
// king that takes four or more pieces can reach the same end with the same
// captures by two routes, so shorter captures are not compared.
func dedupe(buf []Move, start int) []Move {
	out := start
	for i := start; i < len(buf); i++ {
		m := buf[i]
		dup := false
		if m.Jumps() >= 4 {
			for _, prev := range buf[start:out] {
				if prev == m {
					dup = true
					break
				}
			}
		}
		if !dup {
			buf[out] = m
			out++
		}
	}
	return buf[:out]
}

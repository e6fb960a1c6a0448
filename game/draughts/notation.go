package draughts

// This file holds the move notation of English draughts: square numbers
// 1..32 joined by "-" for a quiet move and by "x" for a capture, which is
// always written as its full route (15x24x31). Nothing here is on the hot
// path; search and perft never format or parse moves.

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"evolved/game"
)

// The sentinel errors of the notation layer. Every error returned by
// ParseMove, ParseFEN, Validate, ReadPDN, ParsePDN and WritePDN wraps one of
// them, so callers can test the kind of failure with errors.Is while the
// message says exactly what was wrong.
var (
	// ErrSyntax means the text is not well-formed notation: not a move, a
	// malformed FEN token, a square number out of range, broken PDN.
	ErrSyntax = errors.New("draughts: syntax error")
	// ErrIllegalMove means a well-formed move is not legal in the position.
	ErrIllegalMove = errors.New("draughts: illegal move")
	// ErrAmbiguousMove means a short capture (start and end square only)
	// matches more than one legal move; the full route is needed.
	ErrAmbiguousMove = errors.New("draughts: ambiguous move")
	// ErrInvalidPosition means a position breaks a structural rule: pieces
	// overlap, too many pieces, a man on its own crowning row, and so on.
	ErrInvalidPosition = errors.New("draughts: invalid position")
	// ErrUnsupported means valid PDN that this package does not handle:
	// another game type, or a set-up in the middle of the move text.
	ErrUnsupported = errors.New("draughts: unsupported")
)

// Route returns the landing squares of m as square numbers 1..32, starting
// with the start square: [11 15] for a quiet move, [15 24 31] for a double
// jump. m should be legal in p.
//
// A capture's route is found again by a search over jumps from m's start
// square that takes exactly m's captured pieces and ends on m's end square,
// under the rules of move generation: the start square is empty during the
// move, captured pieces stay on the board until it ends (so they are neither
// jumped twice nor landed on), and a man crowned by a jump stops there. When
// several routes take the same pieces (a king going round a ring either way),
// Route returns the one whose sequence of squares is lexicographically
// smallest, so that output is deterministic. For a capture that p's pieces
// cannot make, Route returns nil.
func (p *Position) Route(m Move) []int {
	from, to := m.From(), m.To()
	if !m.IsCapture() {
		return []int{from + 1, to + 1}
	}
	r := router{
		captured: m.Captured(),
		to:       to,
		empty:    p.Empty() | 1<<from,
		king:     p.Kings&(1<<from) != 0,
		crown:    crownRow(p.Side),
		black:    p.Side == Black,
		path:     make([]int, 1, m.Jumps()+1),
	}
	r.path[0] = from
	if !r.search(from, 0) {
		return nil
	}
	for i := range r.path {
		r.path[i]++
	}
	return r.path
}

// router is the state of Route's search.
type router struct {
	captured uint32 // the pieces the route must take, all of them
	to       int    // where it must end
	empty    uint32 // squares a jump may land on (the start square included)
	king     bool   // whether the moving piece is a king
	crown    uint32 // the row where a man of the mover is crowned
	black    bool   // whether the mover is Black, whose men move down
	path     []int  // landing squares so far, indices 0..31
}

// search extends the route that has reached s having taken taken, trying
// the landing squares in ascending order so that the first complete route
// found is the lexicographically smallest (all complete routes have the
// same length, one square per captured piece plus the start).
func (r *router) search(s int, taken uint32) bool {
	if taken == r.captured {
		return s == r.to
	}
	if !r.king && taken != 0 && r.crown&(1<<s) != 0 {
		return false // a man crowned by a capture stops
	}
	dirs := []int{dirDL, dirDR, dirUL, dirUR}
	switch {
	case r.king:
	case r.black:
		dirs = dirs[:2]
	default:
		dirs = dirs[2:]
	}
	var lands [4]int
	n := 0
	for _, d := range dirs {
		over, land := neighbour[d][s], beyond[d][s]
		if over&r.captured&^taken == 0 || land&r.empty&^r.captured == 0 {
			continue
		}
		lands[n] = lowest(land)
		n++
	}
	slices.Sort(lands[:n])
	for _, l := range lands[:n] {
		over := jumped(s, l)
		r.path = append(r.path, l)
		if r.search(l, taken|over) {
			return true
		}
		r.path = r.path[:len(r.path)-1]
	}
	return false
}

// jumped returns the square between a and b, two diagonal steps apart, or 0
// when they are not.
func jumped(a, b int) uint32 {
	for d := range 4 {
		if beyond[d][a] == 1<<b {
			return neighbour[d][a]
		}
	}
	return 0
}

// FormatMove writes m, which should be legal in p, in standard notation:
// "11-15" for a quiet move and the full route "15x24x31" for a capture. The
// full route names the jumped pieces, so it tells apart two captures with
// the same start and end. A capture p cannot make is written by its start
// and end only ("15x31"), and NoMove as "--".
func (p *Position) FormatMove(m Move) string {
	if m == NoMove {
		return "--"
	}
	if !m.IsCapture() {
		return strconv.Itoa(m.From()+1) + "-" + strconv.Itoa(m.To()+1)
	}
	route := p.Route(m)
	if route == nil {
		route = []int{m.From() + 1, m.To() + 1}
	}
	var b strings.Builder
	for i, s := range route {
		if i > 0 {
			b.WriteByte('x')
		}
		b.WriteString(strconv.Itoa(s))
	}
	return b.String()
}

// ParseMove reads a move in standard notation and returns it if it is legal
// in p. It accepts "11-15", "15x24", the full route of a multi-jump
// "15x24x31", and the short form "15x31" (start and end only) when exactly
// one legal move matches it. Captures may also use "-" or ":" between
// squares (and a quiet move "x"), "X" is read as "x", square numbers may
// have a leading zero, and surrounding white space is ignored. Either
// direction of a king's ring capture is accepted.
//
// Errors wrap ErrSyntax, ErrIllegalMove or ErrAmbiguousMove and say what is
// wrong, listing the legal moves or the matching routes. ParseMove does not
// panic on any input.
func (p *Position) ParseMove(s string) (Move, error) {
	squares, err := parseRoute(strings.TrimSpace(s))
	if err != nil {
		return NoMove, fmt.Errorf("draughts: parse move %q: %w", s, err)
	}
	legal := p.Moves(nil)
	if m, ok := p.followRoute(squares); ok && slices.Contains(legal, m) {
		return m, nil
	}
	if len(squares) == 2 {
		var matches []Move
		for _, m := range legal {
			if m.From() == squares[0] && m.To() == squares[1] {
				matches = append(matches, m)
			}
		}
		switch {
		case len(matches) == 1:
			return matches[0], nil
		case len(matches) > 1:
			return NoMove, fmt.Errorf("draughts: parse move %q: %w", s,
				game.Errorf(ErrAmbiguousMove, "ambiguous: %s (give the full route)", p.listMoves(matches, " and ")))
		}
	}
	if len(legal) == 0 {
		return NoMove, fmt.Errorf("draughts: parse move %q: %w", s,
			game.Errorf(ErrIllegalMove, "illegal in this position; there are no legal moves"))
	}
	return NoMove, fmt.Errorf("draughts: parse move %q: %w", s,
		game.Errorf(ErrIllegalMove, "illegal in this position; legal moves: %s", p.listMoves(legal, ", ")))
}

// listMoves formats moves sorted by route and joins them with ", ", the
// last pair with last.
func (p *Position) listMoves(moves []Move, last string) string {
	type entry struct {
		route []int
		text  string
	}
	entries := make([]entry, len(moves))
	for i, m := range moves {
		entries[i] = entry{p.Route(m), p.FormatMove(m)}
	}
	slices.SortFunc(entries, func(a, b entry) int { return slices.Compare(a.route, b.route) })
	var b strings.Builder
	for i, e := range entries {
		switch {
		case i == 0:
		case i == len(entries)-1:
			b.WriteString(last)
		default:
			b.WriteString(", ")
		}
		b.WriteString(e.text)
	}
	return b.String()
}

// parseRoute splits a move into square indices 0..31. It needs at least two
// squares, separated by one of "-", "x", "X" or ":".
func parseRoute(s string) ([]int, *game.Error) {
	if s == "" {
		return nil, game.Errorf(ErrSyntax, "not a move: empty")
	}
	var squares []int
	for i := 0; ; {
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i {
			return nil, game.Errorf(ErrSyntax, "not a move: expected a square number at %q", s[i:])
		}
		n, err := strconv.Atoi(s[i:j])
		if err != nil || n < 1 || n > 32 {
			return nil, game.Errorf(ErrSyntax, "square %s out of range 1..32", s[i:j])
		}
		squares = append(squares, n-1)
		if j == len(s) {
			break
		}
		switch s[j] {
		case '-', 'x', 'X', ':':
		default:
			return nil, game.Errorf(ErrSyntax, "not a move: unexpected %q after square %d (want - or x)", s[j:], n)
		}
		i = j + 1
		if i == len(s) {
			return nil, game.Errorf(ErrSyntax, "not a move: ends with %q", s[j:])
		}
	}
	if len(squares) < 2 {
		return nil, game.Errorf(ErrSyntax, "not a move: one square only")
	}
	return squares, nil
}

// followRoute plays the landing squares (indices 0..31) as a chain of jumps
// by the piece on the first square, checking every jump against the rules,
// and returns the capture it makes. It reports false when the squares are
// not such a chain. Whether the capture is complete and allowed is for the
// caller to check against the legal moves.
func (p *Position) followRoute(squares []int) (Move, bool) {
	from := squares[0]
	us := p.Side
	if p.Pieces(us)&(1<<from) == 0 || p.Pieces(us^1)&(1<<from) != 0 {
		return NoMove, false
	}
	king := p.Kings&(1<<from) != 0
	opp := p.Pieces(us ^ 1)
	empty := p.Empty() | 1<<from
	crown := crownRow(us)
	var captured uint32
	s := from
	for i, l := range squares[1:] {
		if !king && i > 0 && crown&(1<<s) != 0 {
			return NoMove, false // crowned by the previous jump: the move ended there
		}
		over := jumped(s, l)
		if over == 0 || over&opp&^captured == 0 || empty&(1<<l) == 0 {
			return NoMove, false
		}
		if !king {
			forward := l > s
			if us != Black {
				forward = l < s
			}
			if !forward {
				return NoMove, false
			}
		}
		captured |= over
		s = l
	}
	return newMove(from, s, captured), true
}

// String returns an ASCII diagram of p for debugging and test messages:
// Black's side at the top as in the standard numbering, "b" and "w" for men,
// "B" and "W" for kings, "." for empty dark squares and "?" for a square
// claimed by both sides, the square numbers beside each row, and a last
// line with the side to move and the FEN. The start position:
//
//	   b   b   b   b      1   2   3   4
//	 b   b   b   b      5   6   7   8
//	   b   b   b   b      9  10  11  12
//	 .   .   .   .     13  14  15  16
//	   .   .   .   .     17  18  19  20
//	 w   w   w   w     21  22  23  24
//	   w   w   w   w     25  26  27  28
//	 w   w   w   w     29  30  31  32
//	Black to move; FEN B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12
func (p *Position) String() string {
	var b strings.Builder
	for row := range 8 {
		var board, legend strings.Builder
		for file := range 8 {
			if (row+file)%2 == 0 {
				board.WriteString("  ")
				legend.WriteString("  ")
				continue
			}
			s := row*4 + file/2
			bit := uint32(1) << s
			c := byte('.')
			switch {
			case p.Black&bit != 0 && p.White&bit != 0:
				c = '?'
			case p.Black&bit != 0:
				c = 'b'
			case p.White&bit != 0:
				c = 'w'
			}
			if p.Kings&bit != 0 && c != '.' && c != '?' {
				c -= 'a' - 'A'
			}
			board.WriteByte(' ')
			board.WriteByte(c)
			fmt.Fprintf(&legend, "%2d", s+1)
		}
		b.WriteString(strings.TrimRight(board.String()+"   "+legend.String(), " "))
		b.WriteByte('\n')
	}
	side := "Black"
	if p.Side != Black {
		side = "White"
	}
	b.WriteString(side + " to move; FEN " + p.FEN())
	return b.String()
}

package xiangqi

// This file explains why a move a person typed cannot be played, in the
// words of the rules: a blocked horse leg, an elephant's blocked eye, a
// cannon without a screen, the flying general and so on. It is used by the
// parsers only, never by search, so it favours clarity over speed.

import (
	"strconv"

	"evolved/game"
)

// WhyIllegal returns why moving the piece on from to to is not a legal
// move in p, as a phrase such as "the horse on b1 is blocked: its leg b2
// is occupied", or "" if the move is legal.
func (p *Position) WhyIllegal(from, to Square) string {
	if from >= NoSquare || to >= NoSquare {
		return "that is not a point of the board"
	}
	pt, c := p.PieceAt(from)
	if pt == NoPieceType {
		return "there is no piece on " + from.String()
	}
	name := pieceNames[pt] + " on " + from.String()
	if c != p.side {
		return "the " + name + " is " + colorName(c) + "'s, and " + colorName(p.side) + " is to move"
	}
	if from == to {
		return "a move must go somewhere: " + from.String() + " to itself"
	}
	if tt, tc := p.PieceAt(to); tt != NoPieceType && tc == c {
		return "your own " + pieceNames[tt] + " stands on " + to.String()
	}
	if why := p.whyUnreachable(pt, c, from, to); why != "" {
		return "the " + name + " cannot go to " + to.String() + ": " + why
	}
	after := *p
	captured, _ := p.PieceAt(to)
	after.apply(newMove(from, to, pt, captured))
	if !attacked(&after.board, after.kings[c&1], c&1) {
		return ""
	}
	if after.facing() {
		return "the generals would face each other on an open file (the flying general)"
	}
	if p.InCheck() {
		return "your general is in check, and " + from.String() + "-" + to.String() + " does not parry it"
	}
	return "it would leave your general in check"
}

// whyUnreachable says why a piece of type pt and colour c on from cannot
// reach to by its way of moving, whatever the kings, or "" if it can.
func (p *Position) whyUnreachable(pt PieceType, c game.Player, from, to Square) string {
	df, dr := to.File()-from.File(), to.Rank()-from.Rank()
	adf, adr := abs(df), abs(dr)
	switch pt {
	case General:
		if !tab.inPalace[c&1][to] {
			return "the general may not leave the palace"
		}
		if adf+adr != 1 {
			return "the general moves one point along a line"
		}
	case Advisor:
		if !tab.inPalace[c&1][to] {
			return "the advisor may not leave the palace"
		}
		if adf != 1 || adr != 1 {
			return "the advisor moves one point diagonally"
		}
	case Elephant:
		if adf != 2 || adr != 2 {
			return "the elephant moves exactly two points diagonally"
		}
		if sideOf(to.Rank()) != c {
			return "the elephant may not cross the river"
		}
		if eye := NewSquare(from.File()+df/2, from.Rank()+dr/2); p.board[eye] != 0 {
			return "its eye " + eye.String() + " is blocked"
		}
	case Horse:
		if !(adf == 1 && adr == 2 || adf == 2 && adr == 1) {
			return "the horse moves one point along a line and one diagonally outward"
		}
		leg := NewSquare(from.File(), from.Rank()+dr/2)
		if adf == 2 {
			leg = NewSquare(from.File()+df/2, from.Rank())
		}
		if p.board[leg] != 0 {
			return "its leg " + leg.String() + " is blocked (hobbled horse)"
		}
	case Chariot, Cannon:
		if df != 0 && dr != 0 {
			return "the " + pieceNames[pt] + " moves along a file or a rank"
		}
		between := p.between(from, to)
		target, _ := p.PieceAt(to)
		switch {
		case pt == Chariot && between > 0:
			return plural(between, "piece stands", "pieces stand") + " in the way"
		case pt == Cannon && target == NoPieceType && between > 0:
			return "a cannon moves without capturing only over empty points, and " + plural(between, "piece stands", "pieces stand") + " in the way"
		case pt == Cannon && target != NoPieceType && between != 1:
			return "a cannon captures by jumping exactly one piece (the screen), and " + plural(between, "piece stands", "pieces stand") + " between"
		}
	case Soldier:
		forward := 1
		if c == Black {
			forward = -1
		}
		crossed := sideOf(from.Rank()) != c
		switch {
		case dr == forward && df == 0:
		case dr == 0 && adf == 1 && crossed:
		case dr == 0 && adf == 1:
			return "a soldier moves sideways only after crossing the river"
		case dr*forward < 0:
			return "a soldier never moves backwards"
		default:
			return "a soldier moves one point forward (or sideways across the river)"
		}
	}
	return ""
}

// between counts the pieces strictly between two squares on one line.
func (p *Position) between(from, to Square) int {
	df, dr := sign(to.File()-from.File()), sign(to.Rank()-from.Rank())
	n := 0
	for f, r := from.File()+df, from.Rank()+dr; NewSquare(f, r) != to; f, r = f+df, r+dr {
		if p.board[NewSquare(f, r)] != 0 {
			n++
		}
	}
	return n
}

func plural(n int, one, many string) string {
	switch n {
	case 0:
		return "no " + one
	case 1:
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

package draughts

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"evolved/longtest"
)

// This file holds an independent reference move generator on (row, column)
// coordinates: slow and obvious, written without the bitboard code, to
// check the real generator against on many random positions.

// refSquare returns the (row, column) of square index i, row 0 at the top
// (Black's side), as the diagram in bitboard.go shows.
func refSquare(i int) (int, int) {
	r, k := i/4, i%4
	if r%2 == 0 {
		return r, 2*k + 1
	}
	return r, 2 * k
}

// refIndex returns the square index at (r, c), or -1 off the board or on a
// light square.
func refIndex(r, c int) int {
	if r < 0 || r > 7 || c < 0 || c > 7 || (r+c)%2 == 0 {
		return -1
	}
	return r*4 + c/2
}

// refMoves returns p's legal moves as "from>to{captured}" strings, each
// distinct capture once.
func refMoves(p Position) []string {
	type piece struct{ black, king bool }
	var board [32]*piece
	for i := range 32 {
		switch {
		case p.Black&(1<<i) != 0:
			board[i] = &piece{true, p.Kings&(1<<i) != 0}
		case p.White&(1<<i) != 0:
			board[i] = &piece{false, p.Kings&(1<<i) != 0}
		}
	}
	black := p.Side == Black
	var caps, quiet []string
	seen := map[string]bool{}
	var jump func(from, at int, king bool, taken []int)
	jump = func(from, at int, king bool, taken []int) {
		r, c := refSquare(at)
		extended := false
		for _, d := range [][2]int{{1, -1}, {1, 1}, {-1, -1}, {-1, 1}} {
			if !king && (d[0] == 1) != black {
				continue
			}
			over, land := refIndex(r+d[0], c+d[1]), refIndex(r+2*d[0], c+2*d[1])
			if over < 0 || land < 0 || board[over] == nil || board[over].black == black || slices.Contains(taken, over) {
				continue
			}
			if land != from && board[land] != nil {
				continue
			}
			extended = true
			lr, _ := refSquare(land)
			crowned := !king && (black && lr == 7 || !black && lr == 0)
			next := append(slices.Clone(taken), over)
			if crowned {
				refRecord(&caps, seen, from, land, next)
				continue
			}
			jump(from, land, king, next)
		}
		if !extended && len(taken) > 0 {
			refRecord(&caps, seen, from, at, taken)
		}
	}
	for i, pc := range board {
		if pc == nil || pc.black != black {
			continue
		}
		jump(i, i, pc.king, nil)
		r, c := refSquare(i)
		for _, d := range [][2]int{{1, -1}, {1, 1}, {-1, -1}, {-1, 1}} {
			if !pc.king && (d[0] == 1) != black {
				continue
			}
			if to := refIndex(r+d[0], c+d[1]); to >= 0 && board[to] == nil {
				quiet = append(quiet, fmt.Sprintf("%d>%d{}", i+1, to+1))
			}
		}
	}
	if len(caps) > 0 {
		slices.Sort(caps)
		return caps
	}
	slices.Sort(quiet)
	return quiet
}

// refRecord adds a capture once.
func refRecord(out *[]string, seen map[string]bool, from, to int, taken []int) {
	var m Move = newMove(from, to, 0)
	for _, s := range taken {
		m |= Move(1) << s
	}
	d := describe(m)
	if !seen[d] {
		seen[d] = true
		*out = append(*out, d)
	}
}

// randomPosition places a random number of men and kings of each side.
func randomPosition(rng *rand.Rand) Position {
	var black, white, kings uint32
	for _, i := range rng.Perm(32)[:2+rng.IntN(20)] {
		bit := uint32(1) << i
		r, _ := refSquare(i)
		isBlack := rng.IntN(2) == 0
		king := rng.IntN(3) == 0 || isBlack && r == 7 || !isBlack && r == 0
		if isBlack {
			black |= bit
		} else {
			white |= bit
		}
		if king {
			kings |= bit
		}
	}
	side := Black
	if rng.IntN(2) == 0 {
		side = White
	}
	return NewPosition(black, white, kings, side)
}

func TestMovesAgreeWithReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 34))
	for n := 0; n < 200000; n++ {
		p := randomPosition(rng)
		var got []string
		for _, m := range p.Moves(nil) {
			got = append(got, describe(m))
		}
		slices.Sort(got)
		if want := refMoves(p); !slices.Equal(got, want) {
			t.Fatalf("position %s (%s to move):\n got %v\nwant %v", p.FEN(), p.Side, got, want)
		}
		if n := p.CountRoutes(nil); n < len(got) || n != len(p.Routes(nil)) {
			t.Fatalf("position %s: CountRoutes = %d, %d distinct moves, %d routes", p.FEN(), n, len(got), len(p.Routes(nil)))
		}
		for _, m := range p.Moves(nil) {
			if got, want := p.Play(m), refPlay(p, m); got != want {
				t.Fatalf("position %s, move %s: Play gives %s, want %s", p.FEN(), describe(m), got.FEN(), want.FEN())
			}
		}
	}
}

// refPlay plays m square by square: the piece leaves its start, the
// captured pieces go, and a man ending on the far row is crowned.
func refPlay(p Position, m Move) Position {
	black, white, kings := p.Black, p.White, p.Kings
	from, to := uint32(1)<<m.From(), uint32(1)<<m.To()
	king := kings&from != 0
	own := &black
	other := &white
	if p.Side == White {
		own, other = &white, &black
	}
	*own &^= from
	kings &^= from
	*other &^= m.Captured()
	kings &^= m.Captured()
	*own |= to
	r, _ := refSquare(m.To())
	if king || p.Side == Black && r == 7 || p.Side == White && r == 0 {
		kings |= to
	}
	return NewPosition(black, white, kings, p.Side.Other())
}

func TestOpeningPositionsAgreeWithReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	games := 20000 // the long tests play 100,000, a soak of the generator
	if longtest.Enabled() {
		games = 100000
	}
	for range games {
		p := Start()
		for ply := 0; ply < 14; ply++ {
			moves := p.Moves(nil)
			var got []string
			for _, m := range moves {
				got = append(got, describe(m))
			}
			slices.Sort(got)
			if want := refMoves(p); !slices.Equal(got, want) {
				t.Fatalf("position %s:\n got %v\nwant %v", p.FEN(), got, want)
			}
			if len(moves) == 0 {
				break
			}
			p = p.Play(moves[rng.IntN(len(moves))])
		}
	}
}

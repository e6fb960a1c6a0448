package nnet

import (
	"math"
	"testing"

	"evolved/game"
	"evolved/game/chess"
	"evolved/game/xiangqi"
)

// TestChessAccumulatorAcrossNullMove plays random games on a chess.Game
// and, now and then, passes (MakeNull) and pushes the position as search
// does, then plays a move after the pass, takes both back, and checks at
// every step that the incremental value equals a fresh Reset's on the
// same position.
func TestChessAccumulatorAcrossNullMove(t *testing.T) {
	e := chessTestEval(t, chessExtras, 191)
	acc, fresh := e.NewAccumulator(), e.NewAccumulator()
	rng := newRNG(192)
	check := func(g *chess.Game, what string) {
		t.Helper()
		p := g.Position()
		fresh.Reset(p)
		for _, pov := range []game.Player{chess.White, chess.Black} {
			if got, want := acc.Evaluate(pov), fresh.Evaluate(pov); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%s, %s, pov %v: incremental %v, fresh %v", what, p.FEN(), pov, got, want)
			}
		}
	}
	var buf []chess.Move
	nulls := 0
	for range 4 {
		g := chess.NewGame(chess.Start(), chess.DefaultRules())
		acc.Reset(g.Position())
		for range 120 {
			if buf = g.LegalMoves(buf[:0]); len(buf) == 0 {
				break
			}
			if !g.InCheck() && rng.IntN(4) == 0 {
				acc.Evaluate(game.Player(rng.IntN(2))) // a parent computed for one side only
				g.MakeNull()
				acc.Push(g.Position())
				check(g, "after a pass")
				if reply := g.LegalMoves(nil); len(reply) > 0 {
					g.Make(reply[rng.IntN(len(reply))])
					acc.Push(g.Position())
					check(g, "after a move after a pass")
					g.Unmake()
					acc.Pop()
				}
				g.UnmakeNull()
				acc.Pop()
				check(g, "after taking a pass back")
				nulls++
			}
			g.Make(buf[rng.IntN(len(buf))])
			acc.Push(g.Position())
		}
	}
	if nulls < 50 {
		t.Errorf("%d passes, want at least 50", nulls)
	}
}

// TestXiangqiAccumulatorAcrossNullMove is the same for xiangqi, pushing
// with PushPlayed(Current(), LastMove()), as the xiangqi net players do,
// or PushMove(LastMove()), at random; after a pass the move is NoMove.
func TestXiangqiAccumulatorAcrossNullMove(t *testing.T) {
	e := xiangqiTestEval(t, xiangqiExtras, 193)
	acc, fresh := e.NewAccumulator(), e.NewAccumulator()
	rng := newRNG(194)
	check := func(g *xiangqi.Game, what string) {
		t.Helper()
		p := g.Position()
		if acc.Position() != p {
			t.Fatalf("%s: Position() = %s, want %s", what, acc.Position().FEN(), p.FEN())
		}
		fresh.Reset(p)
		for _, pov := range []game.Player{xiangqi.Red, xiangqi.Black} {
			if got, want := acc.Evaluate(pov), fresh.Evaluate(pov); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%s, %s, pov %v: incremental %v, fresh %v", what, p.FEN(), pov, got, want)
			}
		}
	}
	push := func(g *xiangqi.Game) {
		if rng.IntN(2) == 0 {
			acc.PushMove(g.LastMove())
		} else {
			acc.PushPlayed(g.Current(), g.LastMove())
		}
	}
	var buf []xiangqi.Move
	nulls := 0
	for range 4 {
		g := xiangqi.NewGame(xiangqi.Start(), xiangqi.DefaultRules())
		acc.Reset(g.Position())
		for range 120 {
			if buf = g.LegalMoves(buf[:0]); len(buf) == 0 {
				break
			}
			if !g.InCheck() && rng.IntN(4) == 0 {
				acc.Evaluate(game.Player(rng.IntN(2)))
				g.MakeNull()
				push(g)
				check(g, "after a pass")
				if reply := g.LegalMoves(nil); len(reply) > 0 {
					g.Make(reply[rng.IntN(len(reply))])
					push(g)
					check(g, "after a move after a pass")
					g.Unmake()
					acc.Pop()
				}
				g.UnmakeNull()
				acc.Pop()
				check(g, "after taking a pass back")
				nulls++
			}
			g.Make(buf[rng.IntN(len(buf))])
			push(g)
		}
	}
	if nulls < 50 {
		t.Errorf("%d passes, want at least 50", nulls)
	}
}

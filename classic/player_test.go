package classic

import (
	"context"
	"testing"

	"evolved/game"
	"evolved/game/xiangqi"
	"evolved/search"
)

// Hand-built positions for the players, each checked legal by ParseFEN.
const (
	// mateIn1FEN: Red's chariots on a9 and b1 against the lone black
	// general on e10, Red's general on f1 holding the f-file. b1b10
	// mates (rank 10 and rank 9 are both held); so do b1d1 and a9d9,
	// which leave Black without a legal move though not in check, a
	// loss all the same.
	mateIn1FEN = "4k4/R8/9/9/9/9/9/9/9/1R3K3 w - - 0 1"
	// mateIn2FEN: the same with the chariot on a8, where no move mates
	// at once (the general escapes to e9 or d10), but a8a9 leaves only
	// e10d10, and then b1b10 mates.
	mateIn2FEN = "4k4/9/R8/9/9/9/9/9/9/1R3K3 w - - 0 1"
	// hangingFEN: the start position with Black's right chariot moved
	// to c5, where Red's soldier on c4 takes it and nothing defends it.
	hangingFEN = "rnbakabn1/9/1c5c1/p1p1p1p1p/9/2r6/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
)

// newGame returns a game at fen under the default rules.
func newGame(t testing.TB, fen string) *xiangqi.Game {
	t.Helper()
	return xiangqi.NewGame(mustFEN(t, fen), xiangqi.DefaultRules())
}

// lost reports whether the side to move in g has no legal move.
func lost(g *xiangqi.Game) bool {
	o := g.Outcome()
	return o.Reason == game.NoMoves
}

// testPlayer runs the checks every player must pass: mate in 1, mate in
// 2 against every defence, and taking a hanging chariot.
func testPlayer(t *testing.T, newPlayer func() search.Player[xiangqi.Move, *xiangqi.Game]) {
	ctx := context.Background()
	t.Run("mate in 1", func(t *testing.T) {
		g := newGame(t, mateIn1FEN)
		pl := newPlayer()
		pl.NewGame(1)
		res, err := pl.Move(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if res.Score != search.Win-1 {
			t.Errorf("score %d, want %d (mate in 1)", res.Score, search.Win-1)
		}
		g.Make(res.Move)
		if !lost(g) {
			t.Errorf("%v does not mate: %s", res.Move, g.Position().FEN())
		}
	})
	t.Run("mate in 2", func(t *testing.T) {
		g := newGame(t, mateIn2FEN)
		pl := newPlayer()
		pl.NewGame(1)
		res, err := pl.Move(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if res.Score != search.Win-3 {
			t.Errorf("score %d, want %d (mate in 2)", res.Score, search.Win-3)
		}
		g.Make(res.Move)
		if lost(g) {
			t.Fatalf("%v mates at once, but the position has no mate in 1", res.Move)
		}
		for _, reply := range g.LegalMoves(nil) {
			g.Make(reply)
			second, err := pl.Move(ctx, g)
			if err != nil {
				t.Fatal(err)
			}
			g.Make(second.Move)
			if !lost(g) {
				t.Errorf("after %v %v, %v does not mate: %s", res.Move, reply, second.Move, g.Position().FEN())
			}
			g.Unmake()
			g.Unmake()
		}
	})
	t.Run("hanging chariot", func(t *testing.T) {
		g := newGame(t, hangingFEN)
		pl := newPlayer()
		pl.NewGame(1)
		res, err := pl.Move(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Move.String(); got != "c4c5" {
			t.Errorf("move %s, want c4c5 (the soldier takes the chariot)", got)
		}
	})
}

// TestPlayer checks the classic player on the hand-built positions.
func TestPlayer(t *testing.T) {
	testPlayer(t, func() search.Player[xiangqi.Move, *xiangqi.Game] { return New() })
}

// TestPlayerResult checks the fields of a Result: the depth is Depth's
// for the position, nodes are counted, and two searches agree (the
// search is deterministic and keeps nothing between moves).
func TestPlayerResult(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		fen   string
		depth int
	}{
		{xiangqi.StartFEN, 3},
		{hangingFEN, 3},
		{middlegameFEN, 4},
		{mateIn1FEN, 6},
	} {
		pl := New()
		g := newGame(t, tc.fen)
		a, err := pl.Move(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := pl.Move(ctx, g)
		if a.Depth != tc.depth || a.Nodes <= 1 || a.Move == xiangqi.NoMove || a.PV != nil {
			t.Errorf("%s: result %+v, want depth %d", tc.fen, a, tc.depth)
		}
		if a.Move != b.Move || a.Score != b.Score || a.Nodes != b.Nodes {
			t.Errorf("%s: two searches differ: %+v and %+v", tc.fen, a, b)
		}
		if g.Position().FEN() != mustFEN(t, tc.fen).FEN() {
			t.Errorf("%s: Move changed the game", tc.fen)
		}
	}
}

// TestPlayerStartScore checks the root score against a search by hand
// at depth 1: the best capture from the start is the cannon's b3b10 (or
// h3h10) taking a horse, and Score is its evaluation for Red, from Red's
// point of view, over Scale.
func TestPlayerStartScore(t *testing.T) {
	pl := New()
	p := xiangqi.Start()
	res := pl.Search(context.Background(), p, 1)
	best, bestMove := -infinity, xiangqi.NoMove
	moves := p.LegalMoves(nil)
	OrderMoves(moves)
	for _, m := range moves {
		c := p.Play(m)
		if v := -Evaluate(&c); v > best {
			best, bestMove = v, m
		}
	}
	if res.Move != bestMove || res.Score != best/Scale || res.Nodes != int64(1+len(moves)) {
		t.Errorf("Search(start, 1) = %v %d after %d nodes, want %v %d after %d", res.Move, res.Score, res.Nodes, bestMove, best/Scale, 1+len(moves))
	}
}

// TestPlayerNoMove checks the error for a position without a legal move
// (Black, mated by mateIn1FEN's b1b10).
func TestPlayerNoMove(t *testing.T) {
	g := newGame(t, mateIn1FEN)
	m, err := g.ParseMove("b1b10")
	if err != nil {
		t.Fatal(err)
	}
	g.Make(m)
	if _, err := New().Move(context.Background(), g); err != search.ErrNoMove {
		t.Errorf("Move without legal moves: error %v, want search.ErrNoMove", err)
	}
}

// TestPlayerCancel checks that a search whose context is done still
// returns a legal move.
func TestPlayerCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g := newGame(t, middlegameFEN)
	res, err := New().Move(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.ParseMove(res.Move.String()); err != nil {
		t.Errorf("cancelled search returned %v: %v", res.Move, err)
	}
}

// TestLazyEvaluation checks that lazy evaluation changes nothing: the
// same move, score and node count as evaluating every leaf in full, on
// positions from random games at depths 1 to 4 and on the hand-built
// positions at their own depths.
func TestLazyEvaluation(t *testing.T) {
	ctx := context.Background()
	lazy, eager := New(), New()
	eager.eager = true
	check := func(p xiangqi.Position, depth int) {
		a, b := lazy.Search(ctx, p, depth), eager.Search(ctx, p, depth)
		if a.Move != b.Move || a.Score != b.Score || a.Nodes != b.Nodes {
			t.Fatalf("%s depth %d: lazy %v %d %d nodes, eager %v %d %d nodes",
				p.FEN(), depth, a.Move, a.Score, a.Nodes, b.Move, b.Score, b.Nodes)
		}
	}
	positions := randomPositions(t, 6, 100)
	if testing.Short() {
		positions = positions[:200]
	}
	for i, p := range positions {
		check(p, 1+i%4)
	}
	for _, fen := range []string{xiangqi.StartFEN, middlegameFEN, hangingFEN, mateIn2FEN} {
		p := mustFEN(t, fen)
		check(p, Depth(p.Occupied(xiangqi.Red).Count()+p.Occupied(xiangqi.Black).Count()))
		check(p, 4)
	}
}

// TestPlayerAllocs checks that searching does not allocate.
func TestPlayerAllocs(t *testing.T) {
	pl := New()
	p := mustFEN(t, middlegameFEN)
	ctx := context.Background()
	if n := testing.AllocsPerRun(3, func() { pl.Search(ctx, p, 3) }); n != 0 {
		t.Errorf("Search allocates %v times", n)
	}
}

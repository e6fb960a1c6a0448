package chess

import (
	"strings"
	"testing"
)

// flipSide returns fen with the other side to move and no en passant
// square: what a pass leaves.
func flipSide(fen string) string {
	f := strings.Fields(fen)
	if f[1] == "w" {
		f[1] = "b"
	} else {
		f[1] = "w"
	}
	f[3] = "-"
	return strings.Join(f[:4], " ")
}

func TestMakeNullHashAndPosition(t *testing.T) {
	for _, fen := range []string{
		StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
		// An en passant right that the pass lets lapse.
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
		"4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
	} {
		g := NewGame(mustFEN(t, fen), DefaultRules())
		before := g.Position()
		if before.EnPassant() == NoSquare && strings.Fields(fen)[3] != "-" {
			t.Fatalf("%s: the en passant square was dropped; the test needs it", fen)
		}
		g.MakeNull()
		want := mustFEN(t, flipSide(fen))
		got := g.Position()
		if g.Hash() != want.Hash() || got.hash != got.computeHash() {
			t.Errorf("%s: hash after MakeNull %#x (from scratch %#x), want %#x as %q parses",
				fen, g.Hash(), got.computeHash(), want.Hash(), flipSide(fen))
		}
		if !got.samePosition(&want) || g.ToMove() == before.Side() {
			t.Errorf("%s: MakeNull gives %s, want %s", fen, got.FEN(), want.FEN())
		}
		if g.Ply() != 1 || g.Moves(nil)[0] != NoMove {
			t.Errorf("%s: after MakeNull Ply %d, Moves %v; want 1, [NoMove]", fen, g.Ply(), g.Moves(nil))
		}
		g.UnmakeNull()
		if g.Position() != before || g.Ply() != 0 {
			t.Errorf("%s: UnmakeNull gives %s at ply %d, want %s at 0", fen, g.Position().FEN(), g.Ply(), before.FEN())
		}
		// Unmake takes a pass back too.
		g.MakeNull()
		g.Unmake()
		if g.Position() != before {
			t.Errorf("%s: Unmake after MakeNull gives %s", fen, g.Position().FEN())
		}
	}
}

// play makes the UCI moves in g, failing the test on a bad one; "null"
// is a pass.
func play(t *testing.T, g *Game, moves string) {
	t.Helper()
	for _, s := range strings.Fields(moves) {
		if s == "null" {
			g.MakeNull()
			continue
		}
		m, err := g.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		g.Make(m)
	}
}

func TestNullMoveIsNoRepetition(t *testing.T) {
	const shuffle = "g1f3 g8f6 f3g1 f6g8 "
	for _, tc := range []struct {
		name        string
		moves       string
		repetitions int
		drawn       bool
	}{
		{"two shuffles repeat the start twice", shuffle + shuffle, 2, true},
		// Two passes in a row give back the position, with the same side
		// to move, as it was before them: no repetition.
		{"two passes after two shuffles", shuffle + shuffle + "null null", 0, false},
		{"two passes", "null null", 0, false},
		// After g8 the start stands with white to move (entry 4); a pass,
		// Nf6 and another pass give back entry 3 (black knight on f6, black
		// to move), across the passes.
		{"passes around a move", "g1f3 g8f6 f3g1 f6g8 null g8f6 null", 0, false},
		// Repetitions after the passes still count.
		{"a shuffle after two passes", shuffle + "null null " + shuffle, 1, false},
		{"two shuffles after a pass", "null " + "g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8 f3g1", 2, true},
	} {
		g := NewGame(Start(), DefaultRules())
		play(t, g, tc.moves)
		if got := g.Repetitions(); got != tc.repetitions {
			t.Errorf("%s: Repetitions = %d, want %d", tc.name, got, tc.repetitions)
		}
		if got := g.Drawn(); got != tc.drawn {
			t.Errorf("%s: Drawn = %v, want %v", tc.name, got, tc.drawn)
		}
	}
}

func TestUnmakeNullPanics(t *testing.T) {
	for _, moves := range []string{"", "e2e4"} {
		g := NewGame(Start(), DefaultRules())
		play(t, g, moves)
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("UnmakeNull after %q did not panic", moves)
				}
			}()
			g.UnmakeNull()
		}()
	}
}

func TestNullSafe(t *testing.T) {
	for _, tc := range []struct {
		fen  string
		want bool
	}{
		{StartFEN, true},
		{"4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1", false},   // pawns only
		{"4k3/4p3/8/8/8/8/4P3/1N2K3 b - - 0 1", false}, // the knight is white's
		{"4k3/4p3/8/8/8/8/4P3/1N2K3 w - - 0 1", true},
		{"4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true},
		{"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", true},
		{"4k3/8/8/8/8/8/8/3QK3 w - - 0 1", true},
	} {
		g := NewGame(mustFEN(t, tc.fen), DefaultRules())
		if got := g.NullSafe(); got != tc.want {
			t.Errorf("%s: NullSafe = %v, want %v", tc.fen, got, tc.want)
		}
	}
}

func TestMakeNullDoesNotAllocate(t *testing.T) {
	g := NewGame(Start(), DefaultRules())
	allocs := testing.AllocsPerRun(100, func() {
		g.MakeNull()
		g.UnmakeNull()
	})
	if allocs != 0 {
		t.Errorf("MakeNull and UnmakeNull: %v allocations, want 0", allocs)
	}
}

package xiangqi

import (
	"strings"
	"testing"
)

// flipSide returns fen with the other side to move: what a pass leaves.
func flipSide(fen string) string {
	f := strings.Fields(fen)
	if f[1] == "w" {
		f[1] = "b"
	} else {
		f[1] = "w"
	}
	return strings.Join(f[:2], " ")
}

func TestMakeNullHashAndPosition(t *testing.T) {
	for _, fen := range []string{
		StartFEN,
		"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
		"2na1k3/4c4/9/9/9/9/9/4R4/4R4/3K5 w - - 0 1",
		"3k5/9/9/5n3/5P3/4r4/9/3N5/9/5K3 b - - 3 20",
	} {
		g := NewGame(mustFEN(t, fen), DefaultRules())
		before := g.Position()
		g.MakeNull()
		want := mustFEN(t, flipSide(fen))
		got := g.Position()
		if g.Hash() != want.Hash() || got.hash != got.computeHash() {
			t.Errorf("%s: hash after MakeNull %#x (from scratch %#x), want %#x as %q parses",
				fen, g.Hash(), got.computeHash(), want.Hash(), flipSide(fen))
		}
		if got.board != want.board || got.side != want.side || got.kings != want.kings || got.occ != want.occ {
			t.Errorf("%s: MakeNull gives %s, want %s", fen, got.FEN(), want.FEN())
		}
		if g.InCheck() || g.InCheck() != got.InCheck() || g.Tactical() {
			t.Errorf("%s: after MakeNull InCheck %v, Tactical %v; want false", fen, g.InCheck(), g.Tactical())
		}
		if g.Ply() != 1 || g.LastMove() != NoMove || g.Moves(nil)[0] != NoMove {
			t.Errorf("%s: after MakeNull Ply %d, LastMove %v; want 1, NoMove", fen, g.Ply(), g.LastMove())
		}
		g.UnmakeNull()
		if g.Position() != before || g.Ply() != 0 {
			t.Errorf("%s: UnmakeNull gives %s at ply %d, want %s at 0", fen, g.Position().FEN(), g.Ply(), before.FEN())
		}
		g.MakeNull()
		g.Unmake()
		if g.Position() != before {
			t.Errorf("%s: Unmake after MakeNull gives %s", fen, g.Position().FEN())
		}
	}
}

// play makes the moves in g, failing the test on a bad one; "null" is a
// pass.
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
	const shuffle = "b1c3 b10c8 c3b1 c8b10 "
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
		// After b10 the start stands with red to move (entry 4); a pass,
		// Nc8 and another pass give back entry 3 (black horse on c8, black
		// to move), across the passes.
		{"passes around a move", shuffle + "null b10c8 null", 0, false},
		{"a shuffle after two passes", shuffle + "null null " + shuffle, 1, false},
		{"two shuffles after a pass", "null b10c8 b1c3 c8b10 c3b1 b10c8 b1c3 c8b10 c3b1", 2, true},
	} {
		for _, perpetual := range []bool{false, true} {
			g := NewGame(Start(), Rules{MaxMoves: 150, PerpetualCheckLoses: perpetual})
			play(t, g, tc.moves)
			if got := g.Repetitions(); got != tc.repetitions {
				t.Errorf("%s: Repetitions = %d, want %d", tc.name, got, tc.repetitions)
			}
			if got := g.Drawn(); got != tc.drawn {
				t.Errorf("%s (perpetual check loses %v): Drawn = %v, want %v", tc.name, perpetual, got, tc.drawn)
			}
		}
	}
}

// TestNullMoveAndPerpetualCheck: red checks with its chariot on every
// move while black's general steps back and forth; the third occurrence
// loses for red under the perpetual check rule. Passes before the cycle
// do not change that, and an occurrence before a pass does not count.
func TestNullMoveAndPerpetualCheck(t *testing.T) {
	// Red chariot on a9, black general e10: Ra9-a10 checks, Ke10-e9, Ra10-a9
	// checks again, Ke9-e10.
	const fen = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1"
	const cycle = "a9a10 e10e9 a10a9 e9e10 "
	for _, tc := range []struct {
		name  string
		moves string
		over  bool // Outcome reports a loss for red by repetition
	}{
		{"perpetual check", cycle + cycle, true},
		{"passes before the cycle", "a9b9 null b9a9 null " + cycle + cycle, true},
		// The passes give back the start position at entry 4; one cycle
		// makes it a second occurrence, not a third across the passes.
		{"one cycle after the passes", "a9b9 null b9a9 null " + cycle, false},
	} {
		g := NewGame(mustFEN(t, fen), Rules{MaxMoves: 150, PerpetualCheckLoses: true})
		play(t, g, tc.moves)
		o := g.Outcome()
		if got := o.Reason != 0; got != tc.over {
			t.Errorf("%s: Outcome %+v, want over %v", tc.name, o, tc.over)
		}
	}
}

func TestMakeNullInCheckPanics(t *testing.T) {
	g := NewGame(mustFEN(t, "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1"), DefaultRules())
	play(t, g, "a9a10")
	defer func() {
		if recover() == nil {
			t.Errorf("MakeNull in check did not panic")
		}
	}()
	g.MakeNull()
}

func TestUnmakeNullPanics(t *testing.T) {
	for _, moves := range []string{"", "b1c3"} {
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
		{"5k3/4a4/9/9/9/9/P8/9/4A4/3K1A3 w - - 0 1", false}, // soldier and advisors
		{"5k3/4a4/9/9/9/9/P8/9/4A4/2BK1A3 w - - 0 1", false},
		{"5k3/4a4/9/9/9/9/P8/9/4A4/2BK1A3 b - - 0 1", false},
		{"5k3/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", true},
		{"5k3/9/9/9/9/9/9/9/9/N2K5 w - - 0 1", true},
		{"5k3/9/9/9/9/9/9/9/9/C2K5 w - - 0 1", true},
		{"5k3/9/9/9/9/9/9/9/9/C2K5 b - - 0 1", false}, // the cannon is red's
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

package draughts

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"evolved/game"
)

// squares returns the bitboard of the given square numbers (1..32).
func squares(ns ...int) uint32 {
	var b uint32
	for _, n := range ns {
		b |= 1 << (n - 1)
	}
	return b
}

// describe writes m as "from>to{captured squares}" using square numbers
// only, independently of the notation code under test.
func describe(m Move) string {
	var caps []string
	for c := m.Captured(); c != 0; c &= c - 1 {
		caps = append(caps, fmt.Sprint(lowest(c)+1))
	}
	return fmt.Sprintf("%d>%d{%s}", m.From()+1, m.To()+1, strings.Join(caps, ","))
}

// moveSet returns the sorted descriptions of p's legal moves.
func moveSet(p Position) []string {
	var out []string
	for _, m := range p.Moves(nil) {
		out = append(out, describe(m))
	}
	slices.Sort(out)
	return out
}

// The positions below were checked by hand on the board diagram in
// bitboard.go; each comment names the squares by file and rank as well.

func TestMultiJumpWithBranching(t *testing.T) {
	// Black man on 6 (c7); White men on 9 (b6), 10 (d6), 18 (d4), 19 (f4).
	// 6x13 takes 9 and stops on the edge; 6x15 takes 10 and then must go on,
	// either over 18 to 22 or over 19 to 24.
	p := NewPosition(squares(6), squares(9, 10, 18, 19), 0, Black)
	want := []string{"6>13{9}", "6>22{10,18}", "6>24{10,19}"}
	if got := moveSet(p); !slices.Equal(got, want) {
		t.Errorf("moves = %v, want %v", got, want)
	}
}

func TestSameStartAndEndDifferentRoutes(t *testing.T) {
	// Black man on 15 (e5); White men on 18, 26 (d4, d2) and 19, 27 (f4, f2):
	// 15x22x31 and 15x24x31 both end on 31 but take different pieces.
	p := NewPosition(squares(15), squares(18, 19, 26, 27), 0, Black)
	want := []string{"15>31{18,26}", "15>31{19,27}"}
	if got := moveSet(p); !slices.Equal(got, want) {
		t.Errorf("moves = %v, want %v", got, want)
	}
}

func TestKingCapturesInAllDirections(t *testing.T) {
	// A king on 15 (e5) with opponents on all four neighbours 10, 11, 18, 19
	// and the squares beyond (6, 8, 22, 24) empty. No capture continues: the
	// king cannot jump a piece twice.
	for _, side := range []game.Player{Black, White} {
		king, opp := squares(15), squares(10, 11, 18, 19)
		var p Position
		if side == Black {
			p = NewPosition(king, opp, king, Black)
		} else {
			p = NewPosition(opp, king, king, White)
		}
		want := []string{"15>22{18}", "15>24{19}", "15>6{10}", "15>8{11}"}
		if got := moveSet(p); !slices.Equal(got, want) {
			t.Errorf("%v king: moves = %v, want %v", side, got, want)
		}
	}
}

func TestKingRingCaptureIsOneMove(t *testing.T) {
	// A Black king on 15 (e5) and White men on 10 (d6), 9 (b6), 17 (b4) and
	// 18 (d4) form a ring: 15x6x13x22x15 and 15x22x13x6x15 take the same four
	// men and end where they began, on the start square (empty during the
	// move). They are one move; playing it leaves the king on 15 alone.
	k := squares(15)
	p := NewPosition(k, squares(9, 10, 17, 18), k, Black)
	want := []string{"15>15{9,10,17,18}"}
	if got := moveSet(p); !slices.Equal(got, want) {
		t.Fatalf("moves = %v, want %v", got, want)
	}
	// As routes, as perft counts them, the ring is taken both ways.
	if routes := p.Routes(nil); len(routes) != 2 || routes[0] != routes[1] {
		t.Errorf("routes = %v, want the ring capture twice", routes)
	}
	after := p.Play(p.Moves(nil)[0])
	if after != NewPosition(k, 0, k, White) {
		t.Errorf("after the ring: %+v, want only the Black king on 15", after)
	}
}

func TestManCrownedMidCaptureStops(t *testing.T) {
	// Black man on 22 (c3) takes 26 (d2) and lands on 31 (e1), Black's
	// crowning row. As a king it could go on over 27 (f2) to 24, but a man
	// crowned by a capture ends its move there.
	p := NewPosition(squares(22), squares(26, 27), 0, Black)
	want := []string{"22>31{26}"}
	if got := moveSet(p); !slices.Equal(got, want) {
		t.Fatalf("man: moves = %v, want %v", got, want)
	}
	after := p.Play(p.Moves(nil)[0])
	if after.KingsOf(Black) != squares(31) || after.White != squares(27) {
		t.Errorf("after 22x31: black kings %032b white %032b, want a king on 31 and a man on 27", after.KingsOf(Black), after.White)
	}
	// The same square holding a king goes on.
	k := squares(22)
	p = NewPosition(k, squares(26, 27), k, Black)
	want = []string{"22>24{26,27}"}
	if got := moveSet(p); !slices.Equal(got, want) {
		t.Errorf("king: moves = %v, want %v", got, want)
	}
	// White's men crown on row 1..4: a White man on 11 (f6) takes 7 (e7)
	// landing on 2 (d8) and stops although 6 (c7) could be taken next.
	p = NewPosition(squares(6, 7), squares(11), 0, White)
	want = []string{"11>2{7}"}
	if got := moveSet(p); !slices.Equal(got, want) {
		t.Errorf("white man: moves = %v, want %v", got, want)
	}
}

func TestCaptureIsCompulsory(t *testing.T) {
	// Black men on 1 and 10, White man on 14 (c5): Black must take 10x17...
	// 10 (d6) over 14? 10's down-left neighbour is 14 (c5), beyond is 17
	// (b4). The quiet moves of the man on 1 are not allowed.
	p := NewPosition(squares(1, 10), squares(14), 0, Black)
	want := []string{"10>17{14}"}
	if got := moveSet(p); !slices.Equal(got, want) {
		t.Errorf("moves = %v, want %v", got, want)
	}
	if !p.HasCapture() {
		t.Error("HasCapture = false, want true")
	}
}

func TestNoLegalMoveLoses(t *testing.T) {
	cases := []struct {
		name string
		pos  Position
		want game.Outcome
	}{
		{"blocked man", NewPosition(squares(28), squares(32), 0, Black),
			game.Outcome{Result: game.SecondWins, Reason: game.NoMoves}},
		{"no pieces", NewPosition(0, squares(5), 0, Black),
			game.Outcome{Result: game.SecondWins, Reason: game.NoMoves}},
		{"white blocked", NewPosition(squares(1), squares(5), 0, White),
			game.Outcome{Result: game.FirstWins, Reason: game.NoMoves}},
		{"can still move", NewPosition(squares(28), squares(31), 0, Black),
			game.Outcome{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := NewGame(c.pos, DefaultRules())
			if got := g.Outcome(); got != c.want {
				t.Errorf("Outcome() = %v, want %v (moves %v)", got, c.want, moveSet(c.pos))
			}
		})
	}
}

func TestRepetitionDraw(t *testing.T) {
	// Black king on 1 and White king on 32 shuffle: 1-5 32-27 5-1 27-32
	// twice brings the start position back a third time.
	b, w := squares(1), squares(32)
	g := NewGame(NewPosition(b, w, b|w, Black), DefaultRules())
	route := [][2]int{{1, 5}, {32, 27}, {5, 1}, {27, 32}}
	for i := range 8 {
		if o := g.Outcome(); o.Over() {
			t.Fatalf("after %d plies: Outcome() = %v, want ongoing", i, o)
		}
		step := route[i%4]
		g.Make(newMove(step[0]-1, step[1]-1, 0))
	}
	if got := g.Repetitions(); got != 2 {
		t.Errorf("Repetitions() = %d, want 2", got)
	}
	want := game.Outcome{Result: game.Draw, Reason: game.Repetition}
	if got := g.Outcome(); got != want {
		t.Errorf("Outcome() = %v, want %v", got, want)
	}
	g.Unmake()
	if got := g.Outcome(); got.Over() {
		t.Errorf("after Unmake: Outcome() = %v, want ongoing", got)
	}
}

func TestRepetitionNeedsSameSideToMove(t *testing.T) {
	// A man move is irreversible: it cuts the run that repetitions are
	// searched in, even if the kings later shuffle back.
	b, w := squares(1, 12), squares(32)
	g := NewGame(NewPosition(b, w, squares(1, 32), Black), DefaultRules())
	for _, s := range [][2]int{{1, 5}, {32, 27}, {5, 1}, {27, 32}, {12, 16}, {32, 27}, {1, 5}, {27, 32}, {5, 1}} {
		g.Make(newMove(s[0]-1, s[1]-1, 0))
	}
	if got := g.Repetitions(); got != 1 {
		t.Errorf("Repetitions() = %d, want 1 (only the occurrence after the man move counts)", got)
	}
}

func TestMoveLimitAndFortyMoveRule(t *testing.T) {
	b, w := squares(1), squares(32)
	start := NewPosition(b, w, b|w, Black)
	// Kings walking a loop of four squares never repeat within 3 plies... use
	// a long cycle: the Black king tours 1-5-9-6-1? Simpler: count plies with
	// rules that trigger before any repetition could.
	g := NewGame(start, Rules{MaxMoves: 1})
	g.Make(newMove(0, 4, 0))
	if g.Outcome().Over() {
		t.Fatalf("after 1 ply: over, want ongoing")
	}
	g.Make(newMove(31, 26, 0))
	if got, want := g.Outcome(), (game.Outcome{Result: game.Draw, Reason: game.MoveLimit}); got != want {
		t.Errorf("MaxMoves 1 after 2 plies: Outcome() = %v, want %v", got, want)
	}

	// 40-move rule: 80 reversible plies. Search depth-first for a line of
	// king moves that never offers a capture nor repeats a position three
	// times (a random walk can get cornered).
	g = NewGame(start, Rules{FortyMoveRule: true})
	rng := rand.New(rand.NewPCG(1, 2))
	var extend func(ply int) bool
	extend = func(ply int) bool {
		if ply == fortyMovePlies {
			return true
		}
		if o := g.Outcome(); o.Over() {
			t.Fatalf("ply %d: Outcome() = %v, want ongoing", ply, o)
		}
		moves := g.LegalMoves(nil)
		for _, i := range rng.Perm(len(moves)) {
			g.Make(moves[i])
			if !g.Tactical() && g.Repetitions() < 2 && extend(ply+1) {
				return true
			}
			g.Unmake()
		}
		return false
	}
	if !extend(0) {
		t.Fatal("found no line of 80 quiet king moves")
	}
	if got, want := g.Outcome(), (game.Outcome{Result: game.Draw, Reason: game.NoProgress}); got != want {
		t.Errorf("after 80 king moves: Outcome() = %v, want %v", got, want)
	}
}

// randomGames plays n seeded random games from the start and calls visit on
// every position reached, with the game in that position.
func randomGames(t testing.TB, n int, seed uint64, visit func(g *Game)) {
	rng := rand.New(rand.NewPCG(seed, 0xd4a9))
	var buf []Move
	for range n {
		g := NewGame(Start(), DefaultRules())
		for !g.Outcome().Over() {
			visit(g)
			buf = g.LegalMoves(buf)
			g.Make(buf[rng.IntN(len(buf))])
		}
		visit(g)
	}
}

func TestHashMatchesRecompute(t *testing.T) {
	positions := 0
	randomGames(t, 300, 7, func(g *Game) {
		p := g.Position()
		if got, want := p.Hash(), p.computeHash(); got != want {
			t.Fatalf("after %v: incremental hash %x, recomputed %x", g.Moves(nil), got, want)
		}
		positions++
	})
	if positions < 10000 {
		t.Errorf("visited only %d positions", positions)
	}
}

// TestPiecesAreThePosition checks Game.Pieces against the position's
// fields along random games.
func TestPiecesAreThePosition(t *testing.T) {
	randomGames(t, 50, 17, func(g *Game) {
		p := g.Position()
		if b, w, k := g.Pieces(); b != p.Black || w != p.White || k != p.Kings {
			t.Fatalf("after %v: Pieces %#x %#x %#x, position %#x %#x %#x", g.Moves(nil), b, w, k, p.Black, p.White, p.Kings)
		}
	})
}

// TestJumpersKeptPerPly checks the jumpers a Game keeps for each ply
// against those of its position, along random games and after taking
// moves back.
func TestJumpersKeptPerPly(t *testing.T) {
	randomGames(t, 100, 19, func(g *Game) {
		top := g.history.Top()
		if got, want := top.Info.jumpers, top.Pos.jumpers(); got != want {
			t.Fatalf("after %v: jumpers kept %#x, position's %#x", g.Moves(nil), got, want)
		}
		if g.Tactical() != (top.Pos.jumpers() != 0) {
			t.Fatalf("after %v: Tactical %v", g.Moves(nil), g.Tactical())
		}
	})
}

func TestMakeUnmakeRestores(t *testing.T) {
	randomGames(t, 100, 11, func(g *Game) {
		before, hash, ply := g.Position(), g.Hash(), g.Ply()
		for _, m := range g.LegalMoves(nil) {
			g.Make(m)
			g.Unmake()
			if g.Position() != before || g.Hash() != hash || g.Ply() != ply {
				t.Fatalf("Make/Unmake of %s changed the game", describe(m))
			}
		}
	})
}

func TestCountRoutesMatchesRoutes(t *testing.T) {
	var scratch []Move
	randomGames(t, 200, 13, func(g *Game) {
		p := g.Position()
		if got, want := p.CountRoutes(scratch), len(p.Routes(nil)); got != want {
			t.Fatalf("CountRoutes = %d, len(Routes) = %d in %s", got, want, p.FEN())
		}
	})
}

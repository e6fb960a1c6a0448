package classic

import (
	"slices"
	"testing"

	"evolved/game/xiangqi"
)

// TestOrderMoves checks the search order on a position with seven
// captures for Red, by hand: the soldier on d6 takes the chariot on d7
// (victim 600, attacker 70), the cannon on d1 takes it over the soldier
// (600, 500), the horse on e4 takes the cannon on f6 (500, 300), the
// soldier takes the horse on c6 sideways (300, 70), the chariot on c3
// takes that horse (300, 600), the horse takes the soldier on g5 (70,
// 300), the chariot on g3 takes it (70, 600). The quiet moves follow in
// the order they were generated.
func TestOrderMoves(t *testing.T) {
	p := mustFEN(t, "4k4/4a4/9/3r5/2nP1c3/6p2/4N4/2R3R2/9/3CK4 w - - 0 1")
	moves := p.LegalMoves(nil)
	var quiet []string
	for _, m := range moves {
		if !m.IsCapture() {
			quiet = append(quiet, m.String())
		}
	}
	OrderMoves(moves)
	var got []string
	for _, m := range moves {
		got = append(got, m.String())
	}
	want := append([]string{"d6d7", "d1d7", "e4f6", "d6c6", "c3c6", "e4g5", "g3g5"}, quiet...)
	if !slices.Equal(got, want) {
		t.Errorf("OrderMoves =\n%v\nwant\n%v", got, want)
	}
	for i := 1; i < len(moves); i++ {
		if OrderKey(moves[i-1]) < OrderKey(moves[i]) {
			t.Errorf("keys out of order at %d: %v before %v", i, moves[i-1], moves[i])
		}
	}
}

// TestOrderKey checks the key's arithmetic on single pairs.
func TestOrderKey(t *testing.T) {
	p := mustFEN(t, "4k4/4a4/9/3r5/2nP1c3/6p2/4N4/2R3R2/9/3CK4 w - - 0 1")
	keys := map[string]int64{}
	for _, m := range p.LegalMoves(nil) {
		keys[m.String()] = OrderKey(m)
	}
	for move, want := range map[string]int64{
		"d6d7": 600<<20 + (1<<20 - 1 - 70),
		"c3c6": 300<<20 + (1<<20 - 1 - 600),
		"d6e6": 0,
	} {
		if got := keys[move]; got != want {
			t.Errorf("OrderKey(%s) = %d, want %d", move, got, want)
		}
	}
	// A general's capture comes after any other capture of the same
	// victim: the black soldier on d1 checks the general on e1, which
	// may take it, as may the advisor; nothing else is legal (e1f1
	// would face the black general).
	g := mustFEN(t, "5k3/9/9/9/9/9/9/9/4A4/3pK4 w - - 0 1")
	var order []string
	moves := g.LegalMoves(nil)
	OrderMoves(moves)
	for _, m := range moves {
		order = append(order, m.String())
	}
	if want := []string{"e2d1", "e1d1"}; !slices.Equal(order, want) {
		t.Errorf("OrderMoves = %v, want %v", order, want)
	}
}

// TestOrderMovesAllocs checks that ordering does not allocate.
func TestOrderMovesAllocs(t *testing.T) {
	p := mustFEN(t, middlegameFEN)
	var buf [xiangqi.MaxMoves]xiangqi.Move
	moves := p.LegalMoves(buf[:0])
	if n := testing.AllocsPerRun(100, func() { OrderMoves(moves) }); n != 0 {
		t.Errorf("OrderMoves allocates %v times", n)
	}
}

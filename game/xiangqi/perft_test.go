package xiangqi

import (
	"math/rand/v2"
	"testing"
)

// perftCase is a position with its perft counts, depth 1 first.
type perftCase struct {
	name  string
	fen   string
	nodes []uint64
	short int // the deepest depth run under -short
}

// perftCases are the start position with the published xiangqi counts
// (chessprogramming.org, "Chinese Chess Perft Results"), each confirmed
// with Fairy-Stockfish 11.1's "go perft N" under UCI_Variant xiangqi.
var perftCases = []perftCase{
	{"start", StartFEN, []uint64{44, 1920, 79666, 3290240, 133312995}, 4},
}

func TestPerft(t *testing.T) {
	for _, tc := range perftCases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			for d, want := range tc.nodes {
				depth := d + 1
				if testing.Short() && depth > tc.short {
					break
				}
				if got := Perft(p, depth); got != want {
					t.Errorf("Perft(%q, %d) = %d, want %d", tc.fen, depth, got, want)
				}
			}
		})
	}
}

// mustFEN parses fen or fails the test.
func mustFEN(tb testing.TB, fen string) Position {
	tb.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// TestLegalCaptures checks that LegalCaptures gives exactly the captures
// of LegalMoves (which perft and Fairy-Stockfish check), in the same
// order, at every node of the start position's tree to depth 3 and along
// random games, in check or not.
func TestLegalCaptures(t *testing.T) {
	var all, caps [MaxMoves]Move
	check := func(p *Position) {
		t.Helper()
		var want []Move
		for _, m := range p.LegalMoves(all[:0]) {
			if m.IsCapture() {
				want = append(want, m)
			}
		}
		got := p.LegalCaptures(caps[:0])
		if len(got) != len(want) {
			t.Fatalf("%s: %d captures %v, want %d %v", p.FEN(), len(got), got, len(want), want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: capture %d is %v, want %v", p.FEN(), i, got[i], want[i])
			}
		}
	}
	var walk func(p Position, depth int)
	walk = func(p Position, depth int) {
		check(&p)
		if depth == 0 {
			return
		}
		for _, m := range p.LegalMoves(nil) {
			walk(p.Play(m), depth-1)
		}
	}
	walk(Start(), 3)
	rng := rand.New(rand.NewPCG(11, 12))
	positions := 0
	for range 200 {
		p := Start()
		for range 150 {
			check(&p)
			positions++
			moves := p.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			p = p.Play(moves[rng.IntN(len(moves))])
		}
	}
	if positions < 10000 {
		t.Errorf("only %d positions along the random games", positions)
	}
}

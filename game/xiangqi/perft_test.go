package xiangqi

import "testing"

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

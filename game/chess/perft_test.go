package chess

import (
	"slices"
	"testing"

	"evolved/longtest"
)

// perftCase is a position with its published perft counts, depth 1 first;
// a zero stands for a depth whose count was not published.
type perftCase struct {
	name  string
	fen   string
	nodes []uint64
	short int // the deepest depth run under -short
}

// perftCases are the positions of the chessprogramming wiki's "Perft
// Results" page, https://www.chessprogramming.org/Perft_Results, with the
// counts published there.
var perftCases = []perftCase{
	{"start", StartFEN,
		[]uint64{20, 400, 8902, 197281, 4865609, 119060324}, 5},
	{"kiwipete (position 2)", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		[]uint64{48, 2039, 97862, 4085603, 193690690}, 4},
	{"position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		[]uint64{14, 191, 2812, 43238, 674624, 11030083, 178633661}, 5},
	{"position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		[]uint64{6, 264, 9467, 422333, 15833292, 706045033}, 4},
	{"position 4 mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
		[]uint64{6, 264, 9467, 422333, 15833292, 706045033}, 4},
	{"position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		[]uint64{44, 1486, 62379, 2103487, 89941194}, 4},
	{"position 6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
		[]uint64{46, 2079, 89890, 3894594, 164075551}, 4},
}

// trickyCases are Martin Sedlak's perft positions from the TalkChess forum
// (collected on the chessprogramming.net page "Perfect Perft!",
// https://www.chessprogramming.net/perfect-perft/), each aimed at one rule;
// only the depth-6 counts are published there.
var trickyCases = []perftCase{
	{"illegal en passant 1 (horizontal pin)", "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
		[]uint64{5: 1134888}, 6},
	{"illegal en passant 2 (diagonal pin)", "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
		[]uint64{5: 1015133}, 6},
	{"en passant gives check", "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
		[]uint64{5: 1440467}, 6},
	{"short castling gives check", "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
		[]uint64{5: 661072}, 6},
	{"long castling gives check", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
		[]uint64{5: 803711}, 6},
}

// perft960Cases are positions of the chessprogramming wiki's "Chess960
// Perft Results" page, https://www.chessprogramming.org/Chess960_Perft_Results
// (the same table as Ethereal's src/perft/fischer.epd), depths 1..6.
var perft960Cases = []perftCase{
	{"960 #1", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
		[]uint64{21, 528, 12189, 326672, 8146062, 227689589}, 4},
	{"960 #2", "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
		[]uint64{21, 807, 18002, 667366, 16253601, 590751109}, 4},
	{"960 #3", "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
		[]uint64{20, 479, 10471, 273318, 6417013, 177654692}, 4},
	{"960 #4", "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
		[]uint64{22, 593, 13440, 382958, 9183776, 274103539}, 4},
	{"960 #5", "1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9",
		[]uint64{28, 1120, 31058, 1171749, 34030312, 1250970898}, 3},
	{"960 #6", "qnbnr1kr/ppp1b1pp/4p3/3p1p2/8/2NPP3/PPP1BPPP/QNB1R1KR w HEhe - 1 9",
		[]uint64{29, 899, 26578, 824055, 24851983, 775718317}, 4},
	{"960 #7", "q1bnrkr1/ppppp2p/2n2p2/4b1p1/2NP4/8/PPP1PPPP/QNB1RRKB w ge - 1 9",
		[]uint64{30, 860, 24566, 732757, 21093346, 649209803}, 4},
	{"960 #10", "qn1rbbkr/ppp2p1p/1n1pp1p1/8/3P4/P6P/1PP1PPPK/QNNRBB1R w hd - 2 9",
		[]uint64{28, 811, 23175, 679699, 19836606, 594527992}, 4},
	{"960 #11", "qnr1bkrb/pppp2pp/3np3/5p2/8/P2P2P1/NPP1PP1P/QN1RBKRB w GDg - 3 9",
		[]uint64{33, 823, 26895, 713420, 23114629, 646390782}, 4},
}

// maxPerftNodes bounds the counts the long tests ($EVOLVED_LONG) check, so
// that the full test stays within a minute or so; the default run stops at
// a tenth of it.
const maxPerftNodes = 250_000_000

func TestPerft(t *testing.T) {
	maxNodes := uint64(maxPerftNodes / 10)
	if longtest.Enabled() {
		maxNodes = maxPerftNodes
	}
	for _, tc := range slices.Concat(perftCases, trickyCases, perft960Cases) {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			for d, want := range tc.nodes {
				depth := d + 1
				if testing.Short() && depth > tc.short || want > maxNodes {
					break
				}
				if want == 0 {
					continue
				}
				if got := Perft(p, depth); got != want {
					t.Errorf("Perft(%q, %d) = %d, want %d", tc.fen, depth, got, want)
				}
			}
		})
	}
}

// TestLegalNoisyMoves checks that LegalNoisyMoves gives exactly the
// captures and promotions of LegalMoves (which perft checks), in the same
// order, at every node of the perft positions' trees to depth 3 (2 for
// Kiwipete's and position 4's), Chess960 ones included: pins, en passant,
// promotions and castling, in check and not.
func TestLegalNoisyMoves(t *testing.T) {
	var all, noisy [MaxMoves]Move
	nodes := 0
	var walk func(p Position, depth int)
	walk = func(p Position, depth int) {
		var want []Move
		for _, m := range p.LegalMoves(all[:0]) {
			if p.isNoisy(m) {
				want = append(want, m)
			}
		}
		if got := p.LegalNoisyMoves(noisy[:0]); !slices.Equal(got, want) {
			t.Fatalf("%s: noisy moves %v, want %v", p.FEN(), got, want)
		}
		nodes++
		if depth == 0 {
			return
		}
		for _, m := range p.LegalMoves(nil) {
			walk(p.Play(m), depth-1)
		}
	}
	for _, cases := range [][]perftCase{perftCases, trickyCases, perft960Cases} {
		for _, tc := range cases {
			depth := 3
			if tc.nodes[0] > 40 && tc.nodes[1] > 1500 {
				depth = 2
			}
			walk(mustFEN(t, tc.fen), depth)
		}
	}
	if nodes < 100000 {
		t.Errorf("only %d positions checked", nodes)
	}
}

// isNoisy reports whether m captures or promotes: the definition
// LegalNoisyMoves is checked against.
func (p *Position) isNoisy(m Move) bool {
	return m.IsEnPassant() || m.Promotion() != NoPieceType ||
		!m.IsCastle() && p.Occupied().Has(m.To())
}

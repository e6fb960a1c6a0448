package nnet

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode"

	"evolved/game"
	"evolved/game/chess"
)

// TestChessTermFeaturesHandCounted checks the features of positions
// counted by hand, square by square (the comments show the counts); the
// king danger entries, which follow from each side's king attack, are
// checked in TestKingDangerByHand.
func TestChessTermFeaturesHandCounted(t *testing.T) {
	for _, c := range []struct {
		fen  string
		want [NumChessTerms]int // for White
	}{
		// Na1 attacks b3 and c2; nothing else on the board counts but
		// White's move.
		{"4k3/8/8/8/8/8/8/N3K3 w - - 0 1", [NumChessTerms]int{termKnightMobility: 2, termTempo: 1}},
		// White a2, a3, d4 against Black e6. Doubled: a3 (1). Isolated:
		// a2, a3, d4 against e6 (3 - 1). Passed: a2 (1*1) and a3 (2*2);
		// d4 is held by e6 and e6 by d4. Shelter: e6 in front of Ke8. A
		// pawn ending (phase 0): the passers count 24 times in it.
		{"4k3/8/4p3/8/3P4/P7/P7/4K3 w - - 0 1", [NumChessTerms]int{
			termPassedPawns: 5, termDoubledPawns: 1, termIsolatedPawns: 2, termKingShelter: -1,
			termTempo: 1, termPassedEndgame: 5 * 24}},
		// Ra1: b1, c1, d1 and a2..a8 (e1 is its own king's), open file.
		// Bf1: e2, d3, c4, b5, a6, g2, h3. Pb2: isolated, passed (1*1),
		// at phase 3 (a rook and a bishop).
		{"4k3/8/8/8/8/8/1P6/R3KB2 w - - 0 1", [NumChessTerms]int{
			termBishopMobility: 7, termRookMobility: 10, termPassedPawns: 1, termIsolatedPawns: 1, termRookOpenFile: 1,
			termTempo: 1, termPassedEndgame: 24 - 3}},
		// Qd1: d2..d8 but d6 (e7 attacks it), c1, b1, a1, c2, b3, a4, e2,
		// f3, g4, h5: 16; it attacks d7 and d8 next to Ke8. Rh1: h2..h8,
		// g1, f1: 9, open file. Black's e7 is isolated, passed (1*1) and
		// shelters Ke8 (phase 6). The queen alone attacks next to the king.
		{"4k3/4p3/8/8/8/8/8/3QK2R w - - 0 1", [NumChessTerms]int{
			termRookMobility: 9, termQueenMobility: 16, termPassedPawns: -1, termIsolatedPawns: -1,
			termRookOpenFile: 1, termKingShelter: -1, termKingAttack: 2,
			termTempo: 1, termPassedEndgame: -(24 - 6), termKingAttackers: 2 * 1}},
		// Two bishops against one. Bc1: b2, a3, d2, e3, g5, h6 (f4 is
		// e5's): 6. Bg2: f1, h1, h3, f3, e4, d5, c6, b7, a8: 9. Re1: d1,
		// f1, e2..e5 (c1 and g1 are its own side's): 6, on a half-open
		// file. Pf2 is isolated, held by e5, and shelters Kg1. Black's
		// Bb4: a3, a5, c5, d6, e7, f8, c3, d2, e1: 9; e5 is isolated and
		// held by f2. Bb4 attacks Re1, which nothing of White's defends:
		// a hanging piece and a minor threat for Black.
		{"4k3/8/8/4p3/1b6/8/5PB1/2B1R1K1 w - - 0 1", [NumChessTerms]int{
			termBishopMobility: 6 + 9 - 9, termRookMobility: 6, termBishopPair: 1,
			termRookHalfOpenFile: 1, termKingShelter: 1,
			termHanging: -1, termMinorThreats: -1, termTempo: 1}},
		// Nd5: b4, b6, c3, e3, e7, f4, f6 (c7 is its own rook): 7. Rc7:
		// a7, b7, d7..h7, c8, c6, c5: 10, on the seventh; Black's Ra8:
		// a7..a2 (a3 is b2's), b8, c8, d8: 9, open file. Passers: b2, c2
		// (1 each), c4 (9) against e4 (16); c2 doubled, e4 isolated. Nd5
		// is an outpost (c4 defends it, no Black pawn can reach it); b2
		// and c2 are connected. Rc7 attacks d7, e7, f7 and Nd5 e7, next
		// to Ke8: 4 attacks by 2 pieces. Phase 5. Black to move.
		{"r3k3/2R5/8/3N4/2P1p3/8/1PP5/4K3 b - - 0 1", [NumChessTerms]int{
			termKnightMobility: 7, termRookMobility: 10 - 9, termPassedPawns: 11 - 16,
			termDoubledPawns: 1, termIsolatedPawns: -1, termRookOpenFile: -1, termKingAttack: 4,
			termRookSeventh: 1, termOutposts: 1, termTempo: -1, termPassedEndgame: (11 - 16) * (24 - 5),
			termKingAttackers: 4 * 2, termConnectedPawns: 2}},
		// Pb5 attacks Nc6 (which Qe4 defends); Bf3 attacks Qe4, which
		// nothing defends, and Qe4 attacks Bf3, which nothing defends
		// either. Black's Nc6: 8 squares; Ra1: a2..a8 but a6 (b5's), b1,
		// c1, d1, e1: 10; Qe4: e5..e7, e3..e1, a4..d4, f4..h4, d5, f5..h7,
		// d3..b1, f3: 21. Bf3: e4, g4, h5, e2, d1, g2, h1: 7. Pb5 isolated
		// and passed (16), phase 8. Qe4 attacks e2 and Ra1 d1 next to Ke1.
		{"4k3/8/2n5/1P6/4q3/5B2/8/r3K3 w - - 0 1", [NumChessTerms]int{
			termKnightMobility: -8, termBishopMobility: 7, termRookMobility: -10, termQueenMobility: -21,
			termPassedPawns: 16, termIsolatedPawns: 1, termRookOpenFile: -1, termKingAttack: -2,
			termPawnThreats: 1, termHanging: 1 - 1, termMinorThreats: 1, termTempo: 1,
			termPassedEndgame: 16 * (24 - 8), termKingAttackers: -2 * 2}},
	} {
		p, err := chess.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		const n = NumMoreChessTerms
		if got := ChessTermFeatures(p, chess.White); !slices.Equal(got[:n], c.want[:n]) {
			t.Errorf("%s: features %v, want %v", c.fen, got[:n], c.want[:n])
		}
		neg := c.want
		for i := range neg {
			neg[i] = -neg[i]
		}
		if got := ChessTermFeatures(p, chess.Black); !slices.Equal(got[:n], neg[:n]) {
			t.Errorf("%s: features for Black %v, want %v", c.fen, got[:n], neg[:n])
		}
		if got := naiveTermFeatures(p, chess.White); !slices.Equal(got[:n], c.want[:n]) {
			t.Errorf("%s: the naive count %v, want %v", c.fen, got[:n], c.want[:n])
		}
	}
}

// naiveTermFeatures counts the positional features square by square with
// the rules spelled out (rays walked step by step, files and ranks
// scanned), independently of the bitboard code.
func naiveTermFeatures(p chess.Position, pov game.Player) [NumChessTerms]int {
	type piece struct {
		pt    chess.PieceType
		color game.Player
	}
	var board [8][8]*piece // [file][rank]
	for s := chess.A1; s <= chess.H8; s++ {
		if pt, c := p.PieceAt(s); pt != chess.NoPieceType {
			board[s.File()][s.Rank()] = &piece{pt, c}
		}
	}
	on := func(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }
	is := func(f, r int, pt chess.PieceType, c game.Player) bool {
		return on(f, r) && board[f][r] != nil && board[f][r].pt == pt && board[f][r].color == c
	}
	forward := func(c game.Player) int {
		if c == chess.White {
			return 1
		}
		return -1
	}
	// pawnAttacked reports whether a pawn of colour c attacks (f, r).
	pawnAttacked := func(f, r int, c game.Player) bool {
		return is(f-1, r-forward(c), chess.Pawn, c) || is(f+1, r-forward(c), chess.Pawn, c)
	}
	diagonal := [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	straight := [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	jumps := [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	// attacks lists the squares the piece on (f, r) attacks.
	attacks := func(f, r int) [][2]int {
		var out [][2]int
		step := func(dirs [][2]int, slide bool) {
			for _, d := range dirs {
				for x, y := f+d[0], r+d[1]; on(x, y); x, y = x+d[0], y+d[1] {
					out = append(out, [2]int{x, y})
					if !slide || board[x][y] != nil {
						break
					}
				}
			}
		}
		switch sq := board[f][r]; sq.pt {
		case chess.Pawn:
			step([][2]int{{-1, forward(sq.color)}, {1, forward(sq.color)}}, false)
		case chess.Knight:
			step(jumps, false)
		case chess.Bishop:
			step(diagonal, true)
		case chess.Rook:
			step(straight, true)
		case chess.Queen:
			step(append(diagonal, straight...), true)
		case chess.King:
			step(append(diagonal, straight...), false)
		}
		return out
	}
	// attackedBy reports whether a piece of colour c and one of the types
	// pts (any type without pts) attacks (x, y).
	attackedBy := func(x, y int, c game.Player, pts ...chess.PieceType) bool {
		for f := range 8 {
			for r := range 8 {
				sq := board[f][r]
				if sq == nil || sq.color != c || len(pts) > 0 && !slices.Contains(pts, sq.pt) {
					continue
				}
				for _, a := range attacks(f, r) {
					if a == [2]int{x, y} {
						return true
					}
				}
			}
		}
		return false
	}
	side := func(us game.Player) [NumChessTerms]int {
		var out [NumChessTerms]int
		them := us ^ 1
		var kf, kr, ekf, ekr int
		for f := range 8 {
			for r := range 8 {
				if is(f, r, chess.King, us) {
					kf, kr = f, r
				}
				if is(f, r, chess.King, them) {
					ekf, ekr = f, r
				}
			}
		}
		nextToEnemyKing := func(f, r int) bool {
			return (f != ekf || r != ekr) && abs(f-ekf) <= 1 && abs(r-ekr) <= 1
		}
		// count adds a target square to a piece's mobility and king attack.
		count := func(term, f, r int) {
			if board[f][r] == nil || board[f][r].color != us {
				if !pawnAttacked(f, r, them) {
					out[term]++
				}
			}
			if nextToEnemyKing(f, r) {
				out[termKingAttack]++
			}
		}
		rays := func(term, f, r int, dirs [][2]int) {
			for _, d := range dirs {
				for x, y := f+d[0], r+d[1]; on(x, y); x, y = x+d[0], y+d[1] {
					count(term, x, y)
					if board[x][y] != nil {
						break
					}
				}
			}
		}
		pawnsOn := func(f int, c game.Player) int {
			n := 0
			for r := range 8 {
				if is(f, r, chess.Pawn, c) {
					n++
				}
			}
			return n
		}
		bishops := 0
		for f := range 8 {
			for r := range 8 {
				sq := board[f][r]
				if sq == nil || sq.color != us {
					continue
				}
				switch sq.pt {
				case chess.Knight:
					for _, d := range jumps {
						if on(f+d[0], r+d[1]) {
							count(termKnightMobility, f+d[0], r+d[1])
						}
					}
				case chess.Bishop:
					bishops++
					rays(termBishopMobility, f, r, diagonal)
				case chess.Rook:
					rays(termRookMobility, f, r, straight)
					if pawnsOn(f, us) == 0 {
						if pawnsOn(f, them) == 0 {
							out[termRookOpenFile]++
						} else {
							out[termRookHalfOpenFile]++
						}
					}
				case chess.Queen:
					rays(termQueenMobility, f, r, append(diagonal, straight...))
				case chess.Pawn:
					if (f == 0 || pawnsOn(f-1, us) == 0) && (f == 7 || pawnsOn(f+1, us) == 0) {
						out[termIsolatedPawns]++
					}
					passed := true
					for y := r + forward(us); on(0, y); y += forward(us) {
						for x := f - 1; x <= f+1; x++ {
							if is(x, y, chess.Pawn, them) {
								passed = false
							}
						}
					}
					if passed {
						a := r
						if us == chess.Black {
							a = 7 - r
						}
						out[termPassedPawns] += a * a
					}
				}
			}
		}
		if bishops >= 2 {
			out[termBishopPair] = 1
		}
		for f := range 8 {
			if n := pawnsOn(f, us); n > 1 {
				out[termDoubledPawns] += n - 1
			}
		}
		for x := kf - 1; x <= kf+1; x++ {
			for _, y := range []int{kr + forward(us), kr + 2*forward(us)} {
				if is(x, y, chess.Pawn, us) {
					out[termKingShelter]++
				}
			}
		}

		// The terms of EvolveMoreTerms.
		phase := 0
		for f := range 8 {
			for r := range 8 {
				sq := board[f][r]
				if sq == nil {
					continue
				}
				phase += map[chess.PieceType]int{chess.Knight: 1, chess.Bishop: 1, chess.Rook: 2, chess.Queen: 4}[sq.pt]
				if sq.color == them {
					if sq.pt == chess.Pawn || sq.pt == chess.King {
						continue
					}
					if attackedBy(f, r, us, chess.Pawn) {
						out[termPawnThreats]++
					}
					if attackedBy(f, r, us) && !attackedBy(f, r, them) {
						out[termHanging]++
					}
					if (sq.pt == chess.Rook || sq.pt == chess.Queen) && attackedBy(f, r, us, chess.Knight, chess.Bishop) {
						out[termMinorThreats]++
					}
					if sq.pt == chess.Queen && attackedBy(f, r, us, chess.Rook) {
						out[termMinorThreats]++
					}
					continue
				}
				rel := r // the rank as us counts them
				if us == chess.Black {
					rel = 7 - r
				}
				switch sq.pt {
				case chess.Rook:
					if rel == 6 {
						out[termRookSeventh]++
					}
				case chess.Knight, chess.Bishop:
					safe := true // from enemy pawns, now and later
					for x := f - 1; x <= f+1; x += 2 {
						for y := r + forward(us); on(0, y); y += forward(us) {
							if is(x, y, chess.Pawn, them) {
								safe = false
							}
						}
					}
					if rel >= 3 && rel <= 5 && safe && attackedBy(f, r, us, chess.Pawn) {
						out[termOutposts]++
					}
				case chess.Pawn:
					if attackedBy(f, r, us, chess.Pawn) || is(f-1, r, chess.Pawn, us) || is(f+1, r, chess.Pawn, us) {
						out[termConnectedPawns]++
					}
				}
				if sq.pt != chess.Pawn && sq.pt != chess.King {
					for _, a := range attacks(f, r) {
						if nextToEnemyKing(a[0], a[1]) {
							out[termKingAttackers]++ // the raiders, for now
							break
						}
					}
				}
			}
		}
		if p.Side() == us {
			out[termTempo] = 1
		}
		out[termPassedEndgame] = out[termPassedPawns] * (24 - min(phase, 24))
		out[termKingAttackers] *= out[termKingAttack]
		if a := out[termKingAttack]; a > 0 { // the king danger table's entry
			out[termKingDanger+min(a, NumKingDangerTerms)-1] = 1
		}
		return out
	}
	ours, theirs := side(pov), side(pov^1)
	for i := range ours {
		ours[i] -= theirs[i]
	}
	return ours
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestChessTermFeaturesMatchNaive compares the bitboard features with the
// naive count on positions of random games and of heavy king attacks,
// from both sides.
func TestChessTermFeaturesMatchNaive(t *testing.T) {
	positions := randomChessPositions(t, newRNG(301), 2000)
	for _, fen := range kingDangerPositions { // random games rarely attack a king this hard
		p, err := chess.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		positions = append(positions, p)
	}
	nonzero := [NumChessTerms]int{}
	for _, p := range positions {
		for pov := chess.White; pov <= chess.Black; pov++ {
			got, want := ChessTermFeatures(p, pov), naiveTermFeatures(p, pov)
			if got != want {
				t.Fatalf("%s pov %v: features %v, naive %v", p.FEN(), pov, got, want)
			}
			for i, x := range got {
				if x != 0 {
					nonzero[i]++
				}
			}
		}
	}
	names := ChessTermNames()
	for i, n := range nonzero {
		if n == 0 {
			t.Errorf("%s is 0 in every position: the comparison does not test it", names[i])
		}
	}
}

// TestChessTermsInEvaluation checks that a net's terms add weight*unit*
// feature to its value, with the basic terms and with them all, and that a
// net with all terms at 0 evaluates as the same net without them, bit for
// bit.
func TestChessTermsInEvaluation(t *testing.T) {
	base := chessTestNet(t, chessHidden, PieceDiff|EvolvePieceValues|EvolvePST, 311)
	w := base.Weights()
	tail := NumPieceValues
	eBase, _ := NewChessEval(base)
	positions := randomChessPositions(t, newRNG(312), 300)
	for _, c := range []struct {
		flags Flags
		terms int
	}{{EvolveTerms, NumBasicChessTerms}, {EvolveTerms | EvolveMoreTerms, NumMoreChessTerms},
		{EvolveTerms | EvolveMoreTerms | EvolveKingDanger, NumChessTerms}} {
		withW := append(append(append([]float64{}, w[:len(w)-tail]...), make([]float64, c.terms)...), w[len(w)-tail:]...)
		zero, err := New(base.Sizes(), base.Flags()|c.flags)
		if err != nil {
			t.Fatal(err)
		}
		if zero, err = zero.WithWeights(withW); err != nil {
			t.Fatal(err)
		}
		weights := [NumChessTerms]float64{1, 0.5, -2, 3, 1, 0.25, 1, 2, -1, 1.5, 1, 0.75,
			2, -1, 1.25, 0.5, 3, -2, 1, 0.5, -0.75,
			0.5, -1, 1.5, 2, -0.5, 3, 1, -2, 0.25, 4, 1.75, -1.5, 2.5, 0.75, 5}
		clear(weights[c.terms:])
		with, err := zero.WithChessTerms(weights)
		if err != nil {
			t.Fatal(err)
		}
		if got := with.ChessTerms(); got != weights {
			t.Fatalf("ChessTerms = %v, want %v", got, weights)
		}
		eZero, _ := NewChessEval(zero)
		eWith, _ := NewChessEval(with)
		units := ChessTermUnits()
		for _, p := range positions {
			for pov := chess.White; pov <= chess.Black; pov++ {
				b := eBase.Evaluate(p, pov)
				if z := eZero.Evaluate(p, pov); z != b {
					t.Fatalf("%v: %s: terms at 0 give %v, without terms %v", c.flags, p.FEN(), z, b)
				}
				f := naiveTermFeatures(p, pov)
				want := b
				for i := range c.terms {
					want += weights[i] * units[i] * float64(f[i])
				}
				if got := eWith.Evaluate(p, pov); math.Abs(got-want) > 1e-9 {
					t.Fatalf("%v: %s pov %v: Evaluate = %v, want %v", c.flags, p.FEN(), pov, got, want)
				}
			}
		}
	}
}

// TestChessTermsLayout checks where the terms sit in the genome, that only
// chess nets take them, that the more terms need the basic ones, and that
// WithChessTerms needs the terms it sets.
func TestChessTermsLayout(t *testing.T) {
	plain, _ := New(ChessSizes(4), EvolvePST|EvolvePieceValues)
	basic, err := New(ChessSizes(4), EvolvePST|EvolvePieceValues|EvolveTerms)
	if err != nil {
		t.Fatal(err)
	}
	n, err := New(ChessSizes(4), EvolvePST|EvolvePieceValues|EvolveTerms|EvolveMoreTerms)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := basic.NumWeights(), plain.NumWeights()+NumBasicChessTerms; got != want {
		t.Fatalf("basic terms: %d weights, want %d", got, want)
	}
	if got, want := n.NumWeights(), plain.NumWeights()+NumMoreChessTerms; got != want {
		t.Fatalf("the more terms: %d weights, want %d", got, want)
	}
	if _, err := n.WithChessTerms([NumChessTerms]float64{termKingDanger: 1}); !errors.Is(err, ErrArchitecture) {
		t.Errorf("WithChessTerms of a king danger entry without EvolveKingDanger: error %v, want ErrArchitecture", err)
	}
	if n, err = New(ChessSizes(4), EvolvePST|EvolvePieceValues|EvolveTerms|EvolveMoreTerms|EvolveKingDanger); err != nil {
		t.Fatal(err)
	}
	if got, want := n.NumWeights(), plain.NumWeights()+NumChessTerms; got != want {
		t.Fatalf("all terms: %d weights, want %d", got, want)
	}
	if _, err := New(ChessSizes(4), EvolvePST|EvolveTerms|EvolveKingDanger); !errors.Is(err, ErrArchitecture) {
		t.Errorf("EvolveKingDanger without EvolveMoreTerms: error %v, want ErrArchitecture", err)
	}
	n, _ = n.WithChessTerms([NumChessTerms]float64{0: 5, NumChessTerms - 1: 7})
	w := n.Weights()
	if w[len(w)-NumPieceValues-1] != 7 || w[len(w)-NumPieceValues-NumChessTerms] != 5 || n.PieceValues() != ClassicPieceValues() {
		t.Errorf("the terms are not just before the piece values: %v", w[len(w)-NumPieceValues-NumChessTerms:])
	}
	if tables, _ := n.PST(); tables != ClassicPST() {
		t.Errorf("the tables moved: %v", tables[:8])
	}
	if _, err := New(draughtsSizes, EvolveTerms); !errors.Is(err, ErrArchitecture) {
		t.Errorf("EvolveTerms on %v inputs: error %v, want ErrArchitecture", draughtsSizes[0], err)
	}
	if _, err := New(ChessSizes(4), EvolveMoreTerms); !errors.Is(err, ErrArchitecture) {
		t.Errorf("EvolveMoreTerms without EvolveTerms: error %v, want ErrArchitecture", err)
	}
	if _, err := plain.WithChessTerms([NumChessTerms]float64{}); !errors.Is(err, ErrArchitecture) {
		t.Errorf("WithChessTerms without EvolveTerms: error %v, want ErrArchitecture", err)
	}
	if _, err := basic.WithChessTerms([NumChessTerms]float64{termHanging: 1}); !errors.Is(err, ErrArchitecture) {
		t.Errorf("WithChessTerms of a more term on basic terms: error %v, want ErrArchitecture", err)
	}
	if _, err := basic.WithChessTerms([NumChessTerms]float64{termKingAttack: 1}); err != nil {
		t.Errorf("WithChessTerms of a basic term on basic terms: %v", err)
	}
	if _, err := n.WithChessTerms([NumChessTerms]float64{3: math.NaN()}); !errors.Is(err, ErrValue) {
		t.Errorf("WithChessTerms with NaN: error %v, want ErrValue", err)
	}
}

// TestChessTermsMutation checks the terms' own step: each moves by less
// than tableScale, some by more than a tenth of it, with and without
// SelfAdaptive, while the net's weights keep their step.
func TestChessTermsMutation(t *testing.T) {
	for _, flags := range []Flags{EvolvePST | EvolvePieceValues | EvolveTerms, SelfAdaptive | EvolveTerms | EvolveMoreTerms} {
		n, err := RandomChess(chessHidden, flags, newRNG(321))
		if err != nil {
			t.Fatal(err)
		}
		rng := newRNG(322)
		far := 0
		for range 50 {
			m := n.MutatedByParts(rng, 0.01, 0.3)
			before, after := n.ChessTerms(), m.ChessTerms()
			for i := range before {
				d := math.Abs(after[i] - before[i])
				if d >= 0.3 {
					t.Fatalf("flags %v: term %d stepped %v, want below 0.3", flags, i, d)
				}
				if d > 0.03 {
					far++
				}
			}
			if d := math.Abs(m.Weights()[0] - n.Weights()[0]); d > 0.01*MutationStep(n.NumWeights())*4 {
				t.Fatalf("flags %v: the net's first weight stepped %v", flags, d)
			}
		}
		if steps := 50 * len(n.terms()); far < steps*2/3 {
			t.Errorf("flags %v: %d of %d term steps above a tenth of the scale, want most", flags, far, steps)
		}
	}
}

// TestChessTaperedTerms checks TaperedTerms: twice the terms' weights,
// the middlegame's then the endgame's, on chess nets with EvolveTerms
// only; each count worth (mg*phase + eg*(24-phase))/24 of its unit, the
// phase counted here from the FEN's letters (n, b 1; r 2; q 4; at most
// 24); WithChessTerms setting both phases, which then evaluate as the
// untapered net; and mutation stepping the endgame's weights as the
// middlegame's.
func TestChessTaperedTerms(t *testing.T) {
	flags := EvolvePST | EvolvePieceValues | EvolveTerms | EvolveMoreTerms | EvolveKingDanger
	newTapered(t, flags, TaperedTerms, NumChessTerms)
	if _, err := New(ChessSizes(4), EvolvePST|TaperedTerms); !errors.Is(err, ErrArchitecture) {
		t.Errorf("TaperedTerms without EvolveTerms: error %v, want ErrArchitecture", err)
	}
	if _, err := New(XiangqiSizes(4), EvolveTerms|TaperedTerms); !errors.Is(err, ErrArchitecture) {
		t.Errorf("TaperedTerms on a xiangqi net: error %v, want ErrArchitecture", err)
	}

	base := chessTestNet(t, chessHidden, PieceDiff|flags|TaperedTerms, 331)
	w := base.Weights()
	values := len(w) - NumPieceValues
	for i := values - 2*NumChessTerms; i < values; i++ {
		w[i] = 0
	}
	zero, err := base.WithWeights(w)
	if err != nil {
		t.Fatal(err)
	}
	rng := newRNG(332)
	var mg, eg [NumChessTerms]float64
	for i := range NumChessTerms {
		mg[i], eg[i] = float64(float32(rng.Float64()*4-2)), float64(float32(rng.Float64()*4-2)) // as stored
		w[values-2*NumChessTerms+i], w[values-NumChessTerms+i] = mg[i], eg[i]
	}
	tapered, err := base.WithWeights(w)
	if err != nil {
		t.Fatal(err)
	}
	if tapered.ChessTerms() != mg || tapered.ChessEndgameTerms() != eg {
		t.Fatalf("ChessTerms %v and ChessEndgameTerms %v, want %v and %v", tapered.ChessTerms(), tapered.ChessEndgameTerms(), mg, eg)
	}
	flat, err := zero.WithChessTerms(mg)
	if err != nil {
		t.Fatal(err)
	}
	if flat.ChessTerms() != mg || flat.ChessEndgameTerms() != mg {
		t.Errorf("WithChessTerms set %v and %v, want %v in both phases", flat.ChessTerms(), flat.ChessEndgameTerms(), mg)
	}
	same, err := New(base.Sizes(), base.Flags()&^TaperedTerms)
	if err != nil {
		t.Fatal(err)
	}
	sw := append(append(append([]float64{}, w[:values-2*NumChessTerms]...), mg[:]...), w[values:]...)
	if same, err = same.WithWeights(sw); err != nil {
		t.Fatal(err)
	}
	eZero, _ := NewChessEval(zero)
	eTapered, _ := NewChessEval(tapered)
	eFlat, _ := NewChessEval(flat)
	eSame, _ := NewChessEval(same)
	units := ChessTermUnits()
	phases := map[int]bool{}
	for _, p := range randomChessPositions(t, newRNG(333), 300) {
		phase := fenPhase(p)
		phases[phase] = true
		for pov := chess.White; pov <= chess.Black; pov++ {
			f := naiveTermFeatures(p, pov)
			want := eZero.Evaluate(p, pov)
			for i := range NumChessTerms {
				want += units[i] * float64(f[i]) * (mg[i]*float64(phase) + eg[i]*float64(24-phase)) / 24
			}
			if got := eTapered.Evaluate(p, pov); math.Abs(got-want) > 1e-9 {
				t.Fatalf("%s pov %v (phase %d): Evaluate = %v, want %v", p.FEN(), pov, phase, got, want)
			}
			if a, b := eFlat.Evaluate(p, pov), eSame.Evaluate(p, pov); math.Abs(a-b) > 1e-9 {
				t.Fatalf("%s pov %v: equal phases give %v, the untapered net %v", p.FEN(), pov, a, b)
			}
		}
	}
	if len(phases) < 5 {
		t.Errorf("the positions have %d phases, want a spread", len(phases))
	}
	m := tapered.MutatedByParts(newRNG(334), 0.01, 0.3)
	moved := 0
	for i, e := range m.ChessEndgameTerms() {
		if d := math.Abs(e - eg[i]); d >= 0.3 {
			t.Fatalf("endgame term %d stepped %v, want below 0.3", i, d)
		} else if d > 0 {
			moved++
		}
	}
	if moved < NumChessTerms*9/10 {
		t.Errorf("%d of %d endgame terms moved under mutation", moved, NumChessTerms)
	}
}

// kingDangerPositions are positions of heavy attacks on Black's king on
// e8, whose counts TestKingDangerByHand explains: 10 to 16 attacks.
var kingDangerPositions = []string{
	"4k3/8/2NQ1Q2/8/8/8/8/7K b - - 0 1",     // 10: Qd6 4, Qf6 4, Nc6 2
	"4k3/R7/3Q1Q2/8/8/8/8/7K b - - 0 1",     // 11: the queens and Ra7 3
	"4k3/8/2NQ1QN1/8/8/8/8/7K b - - 0 1",    // 12: the queens and both knights
	"4k3/R7/2NQ1Q2/8/8/8/8/7K b - - 0 1",    // 13
	"4k3/R7/2NQ1Q2/4Q3/8/8/8/7K b - - 0 1",  // 14: Qe5 1 (e7)
	"4k3/R7/2NQ1QN1/8/8/8/8/7K b - - 0 1",   // 15
	"4k3/R7/2NQ1QN1/4Q3/8/8/8/7K b - - 0 1", // 16
}

// TestKingDangerByHand checks the king danger entries on positions whose
// king attacks were counted by hand (the squares next to Black's king on
// e8 are d8, f8, d7, e7 and f7; each white piece counts the ones it
// attacks): White's entry for its count, the last for 15 or more, and
// none for Black, which attacks nothing.
//
//   - Qd1 and Rh1: the queen sees d7 and d8 up the open d-file; the rook
//     on h1 nothing near e8: 2.
//   - Qd1 and Rf1: the rook adds f7 and f8: 4.
//   - Qd6 (d7, d8, e7, f8), Qf6 (f7, f8, e7, d8), Ra7 (d7, e7, f7 along
//     the 7th), Nc6 (d8, e7) and Ng6 (f8, e7): 4+4+3+2+2 = 15, the last
//     entry; with Qe5 as well (e7 up the e-file) 16, the last entry still.
func TestKingDangerByHand(t *testing.T) {
	for _, c := range []struct {
		fen           string
		attack, entry int
	}{
		{"4k3/8/8/8/8/8/8/3QK2R w - - 0 1", 2, 2},
		{"4k3/8/8/8/8/8/8/3QKR2 w - - 0 1", 4, 4},
		{kingDangerPositions[5], 15, 15},
		{kingDangerPositions[6], 16, 15},
	} {
		p, err := chess.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		f := ChessTermFeatures(p, chess.White)
		var want [NumKingDangerTerms]int
		want[c.entry-1] = 1
		if got := f[termKingDanger:]; !slices.Equal(got, want[:]) || f[termKingAttack] != c.attack {
			t.Errorf("%s: king attack %d, danger entries %v, want %d and entry %d", c.fen, f[termKingAttack], got, c.attack, c.entry)
		}
	}
}

// BenchmarkChessTermFeatures counts every positional feature (king danger
// included) of the positions of random games, from the side to move's
// point of view.
func BenchmarkChessTermFeatures(b *testing.B) {
	var positions []chess.Position
	for _, g := range randomChessGames(b, 32, 20) {
		positions = append(positions, g...)
	}
	b.ReportAllocs()
	i := 0
	var sink int
	for b.Loop() {
		p := &positions[i%len(positions)]
		f := chessTermFeatures(p, p.Side(), NumChessTerms)
		sink += f[termHanging]
		i++
	}
	_ = sink
}

// newTapered returns New(ChessSizes(4), flags|taper), after checking that
// taper adds extra weights to the net of flags alone.
func newTapered(t *testing.T, flags, taper Flags, extra int) *Net {
	t.Helper()
	untapered, err := New(ChessSizes(4), flags)
	if err != nil {
		t.Fatal(err)
	}
	n, err := New(ChessSizes(4), flags|taper)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := n.NumWeights(), untapered.NumWeights()+extra; got != want {
		t.Fatalf("%v: %d weights, want %d", taper, got, want)
	}
	return n
}

// fenPhase returns the game's phase of p counted from its FEN's letters:
// knights and bishops 1, rooks 2, queens 4, both sides, at most 24.
func fenPhase(p chess.Position) int {
	phase := 0
	for _, c := range strings.Fields(p.FEN())[0] {
		phase += map[rune]int{'n': 1, 'b': 1, 'r': 2, 'q': 4}[unicode.ToLower(c)]
	}
	return min(phase, 24)
}

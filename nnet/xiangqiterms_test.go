package nnet

import (
	"errors"
	"math"
	"testing"

	"evolved/game"
	"evolved/game/xiangqi"
)

// naiveXiangqiTermFeatures counts the xiangqi positional features point by
// point with the rules of movement spelled out (rays walked step by step,
// legs and eyes looked at), independently of xiangqi.Position.Activity.
func naiveXiangqiTermFeatures(p xiangqi.Position, pov game.Player) [NumXiangqiTerms]int {
	type piece struct {
		pt    xiangqi.PieceType
		color game.Player
	}
	var board [xiangqi.Files][xiangqi.Ranks]*piece
	for s := range xiangqi.Squares {
		sq := xiangqi.Square(s)
		if pt, c := p.PieceAt(sq); pt != xiangqi.NoPieceType {
			board[sq.File()][sq.Rank()] = &piece{pt, c}
		}
	}
	on := func(f, r int) bool { return f >= 0 && f < xiangqi.Files && r >= 0 && r < xiangqi.Ranks }
	empty := func(f, r int) bool { return board[f][r] == nil }
	home := func(c game.Player, r int) bool { return (c == xiangqi.Red) == (r <= 4) } // r on c's half
	inPalace := func(c game.Player, f, r int) bool {
		return on(f, r) && f >= 3 && f <= 5 && home(c, r) && (r <= 2 || r >= 7)
	}
	forward := func(c game.Player) int {
		if c == xiangqi.Red {
			return 1
		}
		return -1
	}
	orthogonal := [][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}}
	diagonal := [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	// reach returns the points the piece on (f, r) attacks, and for a
	// cannon the empty points it can move to before its screen.
	reach := func(f, r int) (attacks, quiet [][2]int) {
		sq := board[f][r]
		c := sq.color
		switch sq.pt {
		case xiangqi.General, xiangqi.Advisor:
			dirs := orthogonal
			if sq.pt == xiangqi.Advisor {
				dirs = diagonal
			}
			for _, d := range dirs {
				if x, y := f+d[0], r+d[1]; inPalace(c, x, y) {
					attacks = append(attacks, [2]int{x, y})
				}
			}
		case xiangqi.Elephant:
			for _, d := range diagonal {
				x, y := f+2*d[0], r+2*d[1]
				if on(x, y) && home(c, y) && empty(f+d[0], r+d[1]) {
					attacks = append(attacks, [2]int{x, y})
				}
			}
		case xiangqi.Horse:
			for _, d := range orthogonal {
				if !on(f+d[0], r+d[1]) || !empty(f+d[0], r+d[1]) {
					continue // a blocked leg
				}
				for _, side := range []int{-1, 1} {
					x, y := f+2*d[0]+side*d[1], r+2*d[1]+side*d[0]
					if on(x, y) {
						attacks = append(attacks, [2]int{x, y})
					}
				}
			}
		case xiangqi.Chariot, xiangqi.Cannon:
			for _, d := range orthogonal {
				screened := false
				for x, y := f+d[0], r+d[1]; on(x, y); x, y = x+d[0], y+d[1] {
					switch {
					case sq.pt == xiangqi.Chariot:
						attacks = append(attacks, [2]int{x, y})
					case !screened && empty(x, y):
						quiet = append(quiet, [2]int{x, y})
					case screened && !empty(x, y):
						attacks = append(attacks, [2]int{x, y})
					}
					if !empty(x, y) {
						if sq.pt == xiangqi.Chariot || screened {
							break
						}
						screened = true
					}
				}
			}
		case xiangqi.Soldier:
			steps := [][2]int{{0, forward(c)}}
			if !home(c, r) {
				steps = append(steps, [2]int{1, 0}, [2]int{-1, 0})
			}
			for _, d := range steps {
				if on(f+d[0], r+d[1]) {
					attacks = append(attacks, [2]int{f + d[0], r + d[1]})
				}
			}
		}
		return attacks, quiet
	}
	var attacked [2][xiangqi.Files][xiangqi.Ranks]bool
	var attackedBy [2][xiangqi.NoPieceType][xiangqi.Files][xiangqi.Ranks]bool
	var generals [2][2]int
	for f := range xiangqi.Files {
		for r := range xiangqi.Ranks {
			if sq := board[f][r]; sq != nil {
				a, _ := reach(f, r)
				for _, x := range a {
					attacked[sq.color][x[0]][x[1]] = true
					attackedBy[sq.color][sq.pt][x[0]][x[1]] = true
				}
				if sq.pt == xiangqi.General {
					generals[sq.color] = [2]int{f, r}
				}
			}
		}
	}
	side := func(us game.Player) [NumXiangqiTerms]int {
		var out [NumXiangqiTerms]int
		them := us ^ 1
		mobility := map[xiangqi.PieceType]int{xiangqi.Horse: xqTermHorseMobility, xiangqi.Chariot: xqTermChariotMobility,
			xiangqi.Cannon: xqTermCannonMobility, xiangqi.Soldier: xqTermSoldierMobility}
		for f := range xiangqi.Files {
			for r := range xiangqi.Ranks {
				if attacked[us][f][r] {
					out[xqTermControl]++
					if home(them, r) {
						out[xqTermControlEnemyHalf]++
					}
					if inPalace(them, f, r) {
						out[xqTermControlEnemyPalace]++
					}
				}
				sq := board[f][r]
				if sq == nil {
					continue
				}
				if sq.color == them && sq.pt != xiangqi.General && attacked[us][f][r] && !attacked[them][f][r] {
					out[xqTermHanging]++
				}
				term, ok := mobility[sq.pt]
				if sq.color != us || !ok {
					continue
				}
				a, quiet := reach(f, r)
				out[term] += len(quiet)
				for _, x := range a {
					if t := board[x[0]][x[1]]; t == nil || t.color != us {
						out[term]++
					}
				}
			}
		}
		if p.Side() == us {
			out[xqTermTempo] = 1
		}
		// The more terms, piece by piece.
		defenders := 0
		for f := range xiangqi.Files {
			for r := range xiangqi.Ranks {
				sq := board[f][r]
				if sq == nil {
					continue
				}
				if sq.color == them {
					by := func(types ...xiangqi.PieceType) bool {
						for _, pt := range types {
							if attackedBy[us][pt][f][r] {
								return true
							}
						}
						return false
					}
					switch sq.pt {
					case xiangqi.Advisor, xiangqi.Elephant:
						defenders++
					case xiangqi.Chariot:
						if by(xiangqi.Soldier, xiangqi.Advisor, xiangqi.Elephant, xiangqi.Horse, xiangqi.Cannon) {
							out[xqTermThreats]++
						}
					case xiangqi.Horse, xiangqi.Cannon:
						if by(xiangqi.Soldier, xiangqi.Advisor, xiangqi.Elephant) {
							out[xqTermThreats]++
						}
					}
					continue
				}
				switch sq.pt {
				case xiangqi.Horse, xiangqi.Chariot, xiangqi.Cannon, xiangqi.Soldier:
					a, _ := reach(f, r)
					for _, x := range a {
						if inPalace(them, x[0], x[1]) {
							out[xqTermPalaceAttackers]++
							break
						}
					}
				}
				if sq.pt == xiangqi.Soldier && !home(us, r) {
					for _, x := range []int{f - 1, f + 1} {
						if n := func() *piece {
							if on(x, r) {
								return board[x][r]
							}
							return nil
						}(); n != nil && n.color == us && n.pt == xiangqi.Soldier {
							out[xqTermConnectedSoldiers]++
							break
						}
					}
				}
			}
		}
		out[xqTermAttackersVsDefenders] = out[xqTermPalaceAttackers] * (4 - defenders)
		g := generals[them]
		for y := g[1] + forward(them); on(0, y); y += forward(them) {
			if sq := board[g[0]][y]; sq != nil {
				if sq.pt == xiangqi.Cannon && sq.color == us {
					out[xqTermHollowCannons] = 1
				}
				break
			}
		}
		return out
	}
	ours, theirs := side(pov&1), side(pov&1^1)
	for i := range ours {
		ours[i] -= theirs[i]
	}
	return ours
}

// TestXiangqiTermFeaturesHandCounted checks the features of positions
// counted by hand (the comments show the counts).
func TestXiangqiTermFeaturesHandCounted(t *testing.T) {
	for _, c := range []struct {
		fen  string
		want [NumXiangqiTerms]int // for Red
	}{
		// Red: chariot a1, general e1; Black: general f10, advisor e9.
		// Ra1 attacks a2..a10 and b1..e1 (e1 its own general's): 12
		// moves, 13 points; a6..a10 on Black's half. Ke1 adds f1 and e2
		// (d1 is the chariot's too): 15 points. Black's Kf10 attacks e10
		// and f9, Ae9 d10, f10 (its general's), d8 and f8: 6 points.
		// Nothing hangs. Red to move.
		{"5k3/4a4/9/9/9/9/9/9/9/R3K4 w - - 0 1", [NumXiangqiTerms]int{
			xqTermChariotMobility: 12, xqTermControl: 15 - 6, xqTermControlEnemyHalf: 5, xqTermTempo: 1}},
		// Red's cannon e3 faces Black's general e10 with nothing between:
		// a hollow cannon. Ce3: e4..e9 (6 quiet; e10 is a screen with
		// nothing beyond), a3..d3, f3..i3 (8 quiet), e2 quiet (e1 its own
		// general's, a screen with nothing beyond): 15 moves, no attacks.
		// Ke1: d1, f1, e2; Ke10: d10, f10, e9, each in its own palace.
		// Black to move.
		{"4k4/9/9/9/9/9/9/4C4/9/4K4 b - - 0 1", [NumXiangqiTerms]int{
			xqTermCannonMobility: 15, xqTermControl: 3 - 3, xqTermTempo: -1, xqTermHollowCannons: 1}},
		// Red's horse c3 (legs c4, b3, d3, c2 free) attacks a2, a4, b1,
		// b5, d1 (its general's), d5, e2, e4: 7 moves; with Kd1's e1 and
		// d2, 10 points, none on Black's half. Black's chariot c10 attacks
		// c9..c4 and the horse c3, a10, b10, d10 and its general's e10:
		// 11 points, 10 moves, c5, c4, c3 on Red's half; with Ke10's f10
		// and e9, 13 points. The horse hangs: nothing of Red's defends
		// c3. Red to move.
		{"2r1k4/9/9/9/9/9/9/2N6/9/3K5 w - - 0 1", [NumXiangqiTerms]int{
			xqTermHorseMobility: 7, xqTermChariotMobility: -10, xqTermControl: 10 - 13,
			xqTermControlEnemyHalf: 0 - 3, xqTermHanging: 0 - 1, xqTermTempo: 1}},
		// Red's chariot d1 attacks d2..d10 (d6..d10 on Black's half, d8,
		// d9, d10 in Black's palace), c1, b1, a1 and its general's e1: 13
		// points, 12 moves; Ke1 adds d1, f1 and e2: 16. Black's Kf10
		// attacks e10 and f9. Red to move. The chariot attacks Black's
		// palace, which lacks all four of its defenders: 1 palace
		// attacker, 4 times missing defenders.
		{"5k3/9/9/9/9/9/9/9/9/3RK4 w - - 0 1", [NumXiangqiTerms]int{
			xqTermChariotMobility: 12, xqTermControl: 16 - 2, xqTermControlEnemyHalf: 5,
			xqTermControlEnemyPalace: 3, xqTermTempo: 1, xqTermPalaceAttackers: 1, xqTermAttackersVsDefenders: 4}},
	} {
		p, err := xiangqi.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := XiangqiTermFeatures(p, xiangqi.Red); got != c.want {
			t.Errorf("%s: features %v, want %v", c.fen, got, c.want)
		}
		neg := c.want
		for i := range neg {
			neg[i] = -neg[i]
		}
		if got := XiangqiTermFeatures(p, xiangqi.Black); got != neg {
			t.Errorf("%s: features for Black %v, want %v", c.fen, got, neg)
		}
		if got := naiveXiangqiTermFeatures(p, xiangqi.Red); got != c.want {
			t.Errorf("%s: the naive count %v, want %v", c.fen, got, c.want)
		}
	}
}

// TestXiangqiMoreTermsHandCounted checks the more terms on positions
// counted by hand (the comments show the counts; the other terms are the
// naive count's, compared in TestXiangqiTermFeaturesMatchNaive).
func TestXiangqiMoreTermsHandCounted(t *testing.T) {
	for _, c := range []struct {
		fen  string
		want [4]int // Red's threats, palace attackers, attackers times missing defenders, connected soldiers
	}{
		// Red's soldiers d7 and e7 have crossed the river side by side (2
		// connected) and attack d8 and e8 in Black's palace (2 palace
		// attackers, which lacks its 4 defenders: 8); d7 attacks the
		// Black chariot on d8 (1 threat). The chariot attacks the soldier
		// d7, a piece of lower value (no threat), and no point of Red's
		// palace.
		{"5k3/9/3r5/3PP4/9/9/9/9/9/4K4 w - - 0 1", [4]int{1, 2, 8, 2}},
		// Black keeps an advisor (e9) and an elephant (a8): 2 defenders
		// missing, so Red's 2 palace attackers, the soldiers d7 and f7
		// (attacking d8 and f8), count 4. Both attack the Black horse
		// on e7 between them: 1 threat (a piece, not an attack, counts).
		// The horse keeps them from being side by side: 0 connected.
		{"5k3/4a4/b8/3PnP3/9/9/9/9/9/4K4 w - - 0 1", [4]int{1, 2, 4, 0}},
	} {
		p, err := xiangqi.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		got := XiangqiTermFeatures(p, xiangqi.Red)
		black := XiangqiTermFeatures(p, xiangqi.Black)
		naive := naiveXiangqiTermFeatures(p, xiangqi.Red)
		for i, w := range c.want {
			k := NumBasicXiangqiTerms + i
			if got[k] != w || black[k] != -w || naive[k] != w {
				t.Errorf("%s: %s = %d (Black's view %d, naive %d), want %d", c.fen, XiangqiTermNames()[k], got[k], black[k], naive[k], w)
			}
		}
	}
}

// TestXiangqiTermFeaturesMatchNaive compares the features with the naive
// count on positions of random games, from both sides.
func TestXiangqiTermFeaturesMatchNaive(t *testing.T) {
	positions := randomXiangqiPositions(newRNG(331), 2000)
	var nonzero [NumXiangqiTerms]int
	for _, p := range positions {
		for pov := xiangqi.Red; pov <= xiangqi.Black; pov++ {
			got, want := XiangqiTermFeatures(p, pov), naiveXiangqiTermFeatures(p, pov)
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
	names := XiangqiTermNames()
	for i, n := range nonzero {
		if n == 0 {
			t.Errorf("%s is 0 in every position: the comparison does not test it", names[i])
		}
	}
}

// TestXiangqiTermsInEvaluation checks that a xiangqi net's terms add
// weight*unit*feature to its value, from scratch and incrementally, and
// that a net with all terms at 0 evaluates as the same net without them,
// bit for bit: the basic terms, and with EvolveMoreTerms all of them.
func TestXiangqiTermsInEvaluation(t *testing.T) {
	base := xiangqiTestNet(t, xiangqiHidden, PieceDiff|EvolvePieceValues|EvolvePST, 341)
	w := base.Weights()
	tail := NumXiangqiPieceValues
	for _, tc := range []struct {
		flags Flags
		k     int
	}{{EvolveTerms, NumBasicXiangqiTerms}, {EvolveTerms | EvolveMoreTerms, NumXiangqiTerms}} {
		withW := append(append(append([]float64{}, w[:len(w)-tail]...), make([]float64, tc.k)...), w[len(w)-tail:]...)
		zero, err := New(base.Sizes(), base.Flags()|tc.flags)
		if err != nil {
			t.Fatal(err)
		}
		if zero, err = zero.WithWeights(withW); err != nil {
			t.Fatal(err)
		}
		all := [NumXiangqiTerms]float64{1, 0.5, -2, 3, 1, 0.25, 1, 2, -1, 1.5, 1.25, -0.5, 2, 0.75}
		var weights [NumXiangqiTerms]float64
		copy(weights[:tc.k], all[:])
		if _, err := zero.WithXiangqiTerms(all); tc.k < NumXiangqiTerms && !errors.Is(err, ErrArchitecture) {
			t.Errorf("flags %v: more terms set on a net without them: %v, want ErrArchitecture", tc.flags, err)
		}
		with, err := zero.WithXiangqiTerms(weights)
		if err != nil {
			t.Fatal(err)
		}
		if got := with.XiangqiTerms(); got != weights {
			t.Fatalf("XiangqiTerms = %v, want %v", got, weights)
		}
		eBase, _ := NewXiangqiEval(base)
		eZero, _ := NewXiangqiEval(zero)
		eWith, _ := NewXiangqiEval(with)
		units := XiangqiTermUnits()
		for _, g := range randomXiangqiGames(342, 20, 60) {
			acc := eWith.NewAccumulator()
			acc.Reset(g[0])
			for i, p := range g {
				if i > 0 {
					acc.Push(p)
				}
				for pov := xiangqi.Red; pov <= xiangqi.Black; pov++ {
					b := eBase.Evaluate(p, pov)
					if z := eZero.Evaluate(p, pov); z != b {
						t.Fatalf("%s: terms at 0 give %v, without terms %v", p.FEN(), z, b)
					}
					f := naiveXiangqiTermFeatures(p, pov)
					want := b
					for i := range f {
						want += weights[i] * units[i] * float64(f[i])
					}
					got := eWith.Evaluate(p, pov)
					if math.Abs(got-want) > 1e-9 {
						t.Fatalf("flags %v, %s pov %v: Evaluate = %v, want %v", tc.flags, p.FEN(), pov, got, want)
					}
					if inc := acc.Evaluate(pov); inc != got {
						t.Fatalf("%s pov %v: the accumulator gives %v, Evaluate %v", p.FEN(), pov, inc, got)
					}
				}
			}
		}
	}
}

// TestXiangqiTermsLayout checks where the terms sit in a xiangqi genome,
// that the chess-only calls refuse them, and that WithXiangqiTerms needs
// them.
func TestXiangqiTermsLayout(t *testing.T) {
	plain, _ := New(XiangqiSizes(4), EvolvePST|EvolvePieceValues)
	basic, err := New(XiangqiSizes(4), EvolvePST|EvolvePieceValues|EvolveTerms)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := basic.NumWeights(), plain.NumWeights()+NumBasicXiangqiTerms; got != want || basic.TermCount() != NumBasicXiangqiTerms {
		t.Fatalf("%d weights, %d terms; want %d, %d", got, basic.TermCount(), want, NumBasicXiangqiTerms)
	}
	n, err := New(XiangqiSizes(4), EvolvePST|EvolvePieceValues|EvolveTerms|EvolveMoreTerms)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := n.NumWeights(), plain.NumWeights()+NumXiangqiTerms; got != want || n.TermCount() != NumXiangqiTerms {
		t.Fatalf("%d weights, %d terms; want %d, %d", got, n.TermCount(), want, NumXiangqiTerms)
	}
	n, _ = n.WithXiangqiTerms([NumXiangqiTerms]float64{0: 5, NumXiangqiTerms - 1: 7})
	w := n.Weights()
	if w[len(w)-NumXiangqiPieceValues-1] != 7 || w[len(w)-NumXiangqiPieceValues-NumXiangqiTerms] != 5 ||
		n.XiangqiPieceValues() != plain.XiangqiPieceValues() {
		t.Errorf("the terms are not just before the piece values: %v", w[len(w)-NumXiangqiPieceValues-NumXiangqiTerms:])
	}
	if tables, _ := n.XiangqiPST(); tables != ClassicXiangqiPST() {
		t.Errorf("the tables moved")
	}
	if got := n.ChessTerms(); got != [NumChessTerms]float64{} {
		t.Errorf("ChessTerms of a xiangqi net = %v, want zeros", got)
	}
	if _, err := n.WithChessTerms([NumChessTerms]float64{}); !errors.Is(err, ErrArchitecture) {
		t.Errorf("WithChessTerms on a xiangqi net: error %v, want ErrArchitecture", err)
	}
	if _, err := New(XiangqiSizes(4), EvolveMoreTerms); !errors.Is(err, ErrArchitecture) {
		t.Errorf("EvolveMoreTerms without EvolveTerms on a xiangqi net: error %v, want ErrArchitecture", err)
	}
	for _, f := range []Flags{EvolveTerms | EvolveMoreTerms | EvolveKingDanger, EvolveTerms | TaperedTerms} {
		if _, err := New(XiangqiSizes(4), f); !errors.Is(err, ErrArchitecture) {
			t.Errorf("%v on a xiangqi net: error %v, want ErrArchitecture (chess only)", f, err)
		}
	}
	if _, err := plain.WithXiangqiTerms([NumXiangqiTerms]float64{}); !errors.Is(err, ErrArchitecture) {
		t.Errorf("WithXiangqiTerms without EvolveTerms: error %v, want ErrArchitecture", err)
	}
	chessNet, _ := New(ChessSizes(4), EvolveTerms)
	if _, err := chessNet.WithXiangqiTerms([NumXiangqiTerms]float64{}); !errors.Is(err, ErrArchitecture) {
		t.Errorf("WithXiangqiTerms on a chess net: error %v, want ErrArchitecture", err)
	}
	if _, err := n.WithXiangqiTerms([NumXiangqiTerms]float64{3: math.Inf(1)}); !errors.Is(err, ErrValue) {
		t.Errorf("WithXiangqiTerms with +Inf: error %v, want ErrValue", err)
	}
}

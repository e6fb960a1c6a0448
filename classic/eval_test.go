package classic

import (
	"math/rand/v2"
	"strings"
	"testing"

	"evolved/game"
	"evolved/game/xiangqi"
	"evolved/search"
)

// middlegameFEN is a middlegame position: the one after ten moves of the
// classic player against itself from the start (28 pieces, so depth 4).
const middlegameFEN = "rnbak1b2/4a4/4c4/p1p1nCp1p/4C4/9/P1P1P1P1P/R1N6/9/2BAKABc1 w - - 4 11"

// mustFEN parses fen or fails the test.
func mustFEN(t testing.TB, fen string) xiangqi.Position {
	t.Helper()
	p, err := xiangqi.ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

// expandRanks returns the board part of a FEN as ten rows of nine
// characters, rank 10 first, '.' for an empty point.
func expandRanks(fen string) []string {
	board, _, _ := strings.Cut(fen, " ")
	var rows []string
	for _, rank := range strings.Split(board, "/") {
		var b strings.Builder
		for _, ch := range rank {
			if ch >= '1' && ch <= '9' {
				b.WriteString(strings.Repeat(".", int(ch-'0')))
			} else {
				b.WriteRune(ch)
			}
		}
		rows = append(rows, b.String())
	}
	return rows
}

// joinRanks is the inverse of expandRanks.
func joinRanks(rows []string) string {
	var b strings.Builder
	game.WriteFENBoard(&b, xiangqi.Files, len(rows), func(f, r int) byte {
		if ch := rows[len(rows)-1-r][f]; ch != '.' {
			return ch
		}
		return 0
	})
	return b.String()
}

// flipColours returns the position with the colours swapped and the board
// turned upside down (rank r becomes rank 11-r), the side to move given
// by side ("w" or "b").
func flipColours(fen, side string) string {
	rows := expandRanks(fen)
	flipped := make([]string, len(rows))
	for i, row := range rows {
		var b strings.Builder
		for _, ch := range row {
			switch {
			case ch >= 'a' && ch <= 'z':
				ch += 'A' - 'a'
			case ch >= 'A' && ch <= 'Z':
				ch += 'a' - 'A'
			}
			b.WriteRune(ch)
		}
		flipped[len(rows)-1-i] = b.String()
	}
	return joinRanks(flipped) + " " + side + " - - 0 1"
}

// mirrorFiles returns the position with files a..i reversed.
func mirrorFiles(fen string) string {
	rows := expandRanks(fen)
	for i, row := range rows {
		r := []rune(row)
		for a, b := 0, len(r)-1; a < b; a, b = a+1, b-1 {
			r[a], r[b] = r[b], r[a]
		}
		rows[i] = string(r)
	}
	_, rest, _ := strings.Cut(fen, " ")
	return joinRanks(rows) + " " + rest
}

// other returns the other side's FEN letter.
func other(side string) string {
	if side == "w" {
		return "b"
	}
	return "w"
}

// TestEvaluateStart checks the terms of the start position, the same for
// both sides, and its evaluation, 0 by symmetry.
//
// Strength: 2*110 + 2*110 + 2*300 + 2*600 + 2*500 + 5*70 = 3590.
// Material (tables.go, rank 1 and rank 3 and 4 rows): general e1 15,
// advisors d1 f1 20+20, elephants c1 g1 20+20, horses b1 h1 85+85,
// chariots a1 i1 194+194, cannons b3 h3 96+96, soldiers a4 c4 e4 g4 i4
// 7+7+15+7+7: 888.
// Threat: nothing across the river, 0.
// Mobility: horses 2+2 moves (the elephants block the legs towards d2
// and f2), chariots 2+2 (a2 a3, i2 i3), cannons 12+12, soldiers 5:
// 13*4 + 7*4 + 7*24 + 15*5 = 323.
// Control: the chariots attack a2 a3 a4 b1 and i2 i3 i4 h1, the horses c3
// g3 (a3 and i3 are counted), the cannons b10 and h10 over the cannons on
// b8 and h8, the soldiers a5 c5 e5 g5 i5, the elephants e3 (and a3, i3),
// the advisors e2, the general d1 f1 (and e2): 21 squares, of which b10
// and h10 lie across the river: 21 + 2 = 23.
func TestEvaluateStart(t *testing.T) {
	p := xiangqi.Start()
	want := Terms{Strength: 3590, Material: 888, Threat: 0, Mobility: 323, Control: 23}
	got := Breakdown(&p)
	for c, terms := range got {
		if terms != want {
			t.Errorf("Breakdown(start)[%d] = %+v, want %+v", c, terms, want)
		}
	}
	if v := Evaluate(&p); v != 0 {
		t.Errorf("Evaluate(start) = %d, want 0", v)
	}
	if total := want.Total(); total != 6*3590+4*888+323+23 {
		t.Errorf("Total = %d", total)
	}
}

// TestEvaluateHand checks the terms of small positions computed by hand.
func TestEvaluateHand(t *testing.T) {
	for _, tc := range []struct {
		name string
		fen  string
		red  Terms
		blk  Terms
		eval int
	}{
		{
			// Red: general e1 and a horse on e5; Black: general d10.
			// Red Strength 300. Material: general e1 15 + horse e5 103
			// (tableHorse, rank 5 row, file e) = 118. Threat 0: e5 is
			// on Red's half. Mobility: the horse's legs e6 e4 d5 f5 are
			// empty, so it has all 8 moves: 8*13 = 104. Control: the
			// horse attacks d7 f7 c6 g6 (across the river) and d3 f3 c4
			// g4, the general d1 f1 e2: 11 squares, 4 across: 15.
			// Total 6*300 + 4*118 + 104 + 15 = 2391.
			// Black Strength 0. Material: the general on d10 reads
			// Red's d1, 11. Control: e10 and d9, 2. Total 4*11 + 2 = 46.
			// Evaluate = 2391 - 46 = 2345.
			name: "horse",
			fen:  "3k5/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1",
			red:  Terms{Strength: 300, Material: 118, Mobility: 104, Control: 15},
			blk:  Terms{Material: 11, Control: 2},
			eval: 2345,
		},
		{
			// Red: general e1, chariot a6, soldier c6, cannon e3; Black:
			// general e10, advisor d10.
			// Red Strength 600 + 70 + 500 = 1170. Material: general 15,
			// chariot a6 208, soldier c6 41, cannon e3 101: 365.
			// Threat: chariot a6 20 and soldier c6 10 across: 30.
			// Mobility: chariot a7..a10 (4), a5..a1 (5), b6 (1), 10*7;
			// cannon e4..e9 (6, e10 is its screen), e2 (1, e1 is a
			// screen), a3..d3 (4), f3..i3 (4), 15*7; soldier c7 b6 d6,
			// 3*15: 70 + 105 + 45 = 220.
			// Control: chariot a7 a8 a9 a10 a5 a4 a3 a2 a1 b6 c6 (11,
			// 6 across), cannon none (nothing beyond its screens),
			// soldier c7 d6 (b6 counted; 2 across), general d1 f1 e2:
			// 16 squares, 8 across: 24.
			// Total 6*1170 + 4*365 + 4*30 + 220 + 24 = 8844.
			// Black Strength 110. Material: general 15 (Red's e1),
			// advisor 20 (Red's d1): 35. Control: d10 f10 e9: 3.
			// Total 660 + 140 + 3 = 803. Evaluate = 8844 - 803 = 8041.
			name: "chariot cannon soldier",
			fen:  "3ak4/9/9/9/R1P6/9/9/4C4/9/4K4 w - - 0 1",
			red:  Terms{Strength: 1170, Material: 365, Threat: 30, Mobility: 220, Control: 24},
			blk:  Terms{Strength: 110, Material: 35, Control: 3},
			eval: 8041,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			got := Breakdown(&p)
			if got[xiangqi.Red] != tc.red {
				t.Errorf("Red terms = %+v, want %+v", got[xiangqi.Red], tc.red)
			}
			if got[xiangqi.Black] != tc.blk {
				t.Errorf("Black terms = %+v, want %+v", got[xiangqi.Black], tc.blk)
			}
			if v := Evaluate(&p); v != tc.eval {
				t.Errorf("Evaluate = %d, want %d", v, tc.eval)
			}
			// The same position with the colours flipped and Black to
			// move is the same for the side to move.
			q := mustFEN(t, flipColours(tc.fen, "b"))
			if v := Evaluate(&q); v != tc.eval {
				t.Errorf("Evaluate(%s) = %d, want %d", q.FEN(), v, tc.eval)
			}
		})
	}
}

// randomPositions returns positions from seeded random games.
func randomPositions(t testing.TB, games, plies int) []xiangqi.Position {
	t.Helper()
	rng := rand.New(rand.NewPCG(11, 12))
	var out []xiangqi.Position
	var buf [xiangqi.MaxMoves]xiangqi.Move
	for range games {
		p := xiangqi.Start()
		for range plies {
			out = append(out, p)
			moves := p.LegalMoves(buf[:0])
			if len(moves) == 0 {
				break
			}
			p = p.Play(moves[rng.IntN(len(moves))])
		}
	}
	return out
}

// TestEvaluateSymmetry checks along random games that flipping the
// colours (and the board upside down) swaps the sides' terms, so that the
// evaluation for the same colour to move is negated and for the flipped
// side to move is unchanged; that mirroring the files changes nothing
// (the tables are symmetric); and that with the other side to move (when
// that position is legal) the evaluation is negated.
func TestEvaluateSymmetry(t *testing.T) {
	for _, p := range randomPositions(t, 40, 120) {
		fen := p.FEN()
		side := strings.Fields(fen)[1]
		terms := Breakdown(&p)
		v := Evaluate(&p)
		if v != terms[p.Side()].Total()-terms[p.Side().Other()].Total() {
			t.Fatalf("%s: Evaluate = %d, terms %+v", fen, v, terms)
		}
		q := mustFEN(t, flipColours(fen, other(side)))
		flipped := Breakdown(&q)
		if flipped[0] != terms[1] || flipped[1] != terms[0] {
			t.Fatalf("%s: flipped terms %+v, want %+v swapped", fen, flipped, terms)
		}
		if w := Evaluate(&q); w != v {
			t.Fatalf("%s: Evaluate(flipped) = %d, want %d", fen, w, v)
		}
		m := mustFEN(t, mirrorFiles(fen))
		if w := Evaluate(&m); w != v {
			t.Fatalf("%s: Evaluate(mirrored) = %d, want %d", fen, w, v)
		}
		if r, err := xiangqi.ParseFEN(strings.Replace(fen, " "+side+" ", " "+other(side)+" ", 1)); err == nil {
			if w := Evaluate(&r); w != -v {
				t.Fatalf("%s: Evaluate with the other side to move = %d, want %d", fen, w, -v)
			}
		}
	}
}

// TestStaticIncremental checks that staticDelta keeps staticDiff exact
// move by move, as the classic player's search relies on, and that
// evaluate with it equals Evaluate.
func TestStaticIncremental(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	var buf [xiangqi.MaxMoves]xiangqi.Move
	for range 40 {
		p := xiangqi.Start()
		static := staticDiff(&p)
		for range 200 {
			if want := staticDiff(&p); static != want {
				t.Fatalf("%s: incremental static %d, recomputed %d", p.FEN(), static, want)
			}
			if got, want := evaluate(&p, static), Evaluate(&p); got != want {
				t.Fatalf("%s: evaluate = %d, Evaluate = %d", p.FEN(), got, want)
			}
			moves := p.LegalMoves(buf[:0])
			if len(moves) == 0 {
				break
			}
			m := moves[rng.IntN(len(moves))]
			static += staticDelta(m, p.Side())
			p = p.Play(m)
		}
	}
}

// TestEvaluateBounds checks the documented bound and the scaling into
// search's range on random positions.
func TestEvaluateBounds(t *testing.T) {
	var ev Evaluator
	for _, p := range randomPositions(t, 20, 200) {
		v := Evaluate(&p)
		if v > 28937 || v < -28937 {
			t.Fatalf("%s: Evaluate = %d, beyond the bound", p.FEN(), v)
		}
		g := xiangqi.NewGame(p, xiangqi.DefaultRules())
		if got := ev.Evaluate(g); got != v/Scale || got > search.MaxEval || got < -search.MaxEval {
			t.Fatalf("%s: Evaluator = %d, Evaluate = %d", p.FEN(), got, v)
		}
	}
}

// TestEvaluateAllocs checks that the evaluation does not allocate.
func TestEvaluateAllocs(t *testing.T) {
	p := mustFEN(t, middlegameFEN)
	g := xiangqi.NewGame(p, xiangqi.DefaultRules())
	var ev Evaluator
	if n := testing.AllocsPerRun(100, func() {
		_ = Evaluate(&p)
		_ = Breakdown(&p)
		_ = ev.Evaluate(g)
	}); n != 0 {
		t.Errorf("the evaluation allocates %v times", n)
	}
}

// TestStrength checks the strength table.
func TestStrength(t *testing.T) {
	want := map[xiangqi.PieceType]int{
		xiangqi.General: 1_000_000, xiangqi.Advisor: 110, xiangqi.Elephant: 110, xiangqi.Horse: 300,
		xiangqi.Chariot: 600, xiangqi.Cannon: 500, xiangqi.Soldier: 70, xiangqi.NoPieceType: 0, 42: 0,
	}
	for pt, v := range want {
		if got := Strength(pt); got != v {
			t.Errorf("Strength(%v) = %d, want %d", pt, got, v)
		}
	}
}

// TestPositionValue checks PositionValue against ElephantEye's tables read
// by hand: 4 x the table value plus 4 x 20 for a chariot or horse across
// the river, Black's values on the mirrored point.
func TestPositionValue(t *testing.T) {
	for _, tc := range []struct {
		pt   xiangqi.PieceType
		c    game.Player
		sq   string
		want int
	}{
		{xiangqi.Chariot, xiangqi.Red, "e9", 4*233 + 4*20},
		{xiangqi.Chariot, xiangqi.Black, "e2", 4*233 + 4*20},
		{xiangqi.Chariot, xiangqi.Red, "a1", 4 * 194},
		{xiangqi.Horse, xiangqi.Red, "b1", 4 * 85},
		{xiangqi.Horse, xiangqi.Black, "e4", 4*100 + 4*20}, // Red's e7
		{xiangqi.Soldier, xiangqi.Red, "e4", 4 * 15},
		{xiangqi.Soldier, xiangqi.Red, "e9", 4*89 + 4*10},
		{xiangqi.Cannon, xiangqi.Red, "b3", 4 * 96},
		{xiangqi.Elephant, xiangqi.Red, "e3", 4 * 23},
		{xiangqi.General, xiangqi.Black, "e10", 4 * 15},
		{xiangqi.NoPieceType, xiangqi.Red, "e1", 0},
	} {
		s, err := xiangqi.ParseSquare(tc.sq)
		if err != nil {
			t.Fatal(err)
		}
		if got := PositionValue(tc.pt, tc.c, s); got != tc.want {
			t.Errorf("%v of colour %v on %s: %d, want %d", tc.pt, tc.c, tc.sq, got, tc.want)
		}
	}
	if got := PositionValue(xiangqi.Chariot, xiangqi.Red, xiangqi.Squares); got != 0 {
		t.Errorf("a point off the board: %d, want 0", got)
	}
}

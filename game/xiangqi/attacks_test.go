package xiangqi

import (
	"math/rand/v2"
	"testing"

	"evolved/game"
)

// refActivity recomputes ActivityByType the slow way, from PieceAt and the
// rules of movement stated square pair by square pair, with no move tables.
func refActivity(p *Position, c game.Player) (Activity, PieceActivity) {
	var a Activity
	var d PieceActivity
	abs := func(x int) int { return max(x, -x) }
	between := func(from, to Square) int { // pieces strictly between two squares on a line
		n := 0
		df, dr := to.File()-from.File(), to.Rank()-from.Rank()
		steps := max(abs(df), abs(dr))
		sf, sr := df/max(steps, 1), dr/max(steps, 1)
		for i := 1; i < steps; i++ {
			if pt, _ := p.PieceAt(NewSquare(from.File()+i*sf, from.Rank()+i*sr)); pt != NoPieceType {
				n++
			}
		}
		return n
	}
	ownHalf := func(s Square) bool { return (c == Red) == (s.Rank() <= 4) }
	inPalace := func(s Square) bool {
		f, r := s.File(), s.Rank()
		return f >= 3 && f <= 5 && (c == Red && r <= 2 || c == Black && r >= 7)
	}
	enemyPalace := func(s Square) bool {
		f, r := s.File(), s.Rank()
		return f >= 3 && f <= 5 && (c == Black && r <= 2 || c == Red && r >= 7)
	}
	for from := range Square(Squares) {
		pt, col := p.PieceAt(from)
		if pt == NoPieceType || col != c {
			continue
		}
		d.Pieces[pt] = d.Pieces[pt].With(from)
		hitsPalace := false
		for to := range Square(Squares) {
			if to == from {
				continue
			}
			df, dr := to.File()-from.File(), to.Rank()-from.Rank()
			target, tcol := p.PieceAt(to)
			empty := target == NoPieceType
			enemy := !empty && tcol != c
			line := df == 0 || dr == 0
			var attacks, moves bool
			switch pt {
			case General:
				attacks = inPalace(to) && abs(df)+abs(dr) == 1
			case Advisor:
				attacks = inPalace(to) && abs(df) == 1 && abs(dr) == 1
			case Elephant:
				eye, _ := p.PieceAt(NewSquare(from.File()+df/2, from.Rank()+dr/2))
				attacks = abs(df) == 2 && abs(dr) == 2 && ownHalf(to) && eye == NoPieceType
			case Horse:
				var leg Square
				switch {
				case abs(df) == 1 && abs(dr) == 2:
					leg = NewSquare(from.File(), from.Rank()+dr/2)
				case abs(df) == 2 && abs(dr) == 1:
					leg = NewSquare(from.File()+df/2, from.Rank())
				default:
					continue
				}
				legPiece, _ := p.PieceAt(leg)
				attacks = legPiece == NoPieceType
			case Chariot:
				attacks = line && between(from, to) == 0
			case Cannon:
				attacks = line && !empty && between(from, to) == 1
				moves = line && (empty && between(from, to) == 0 || enemy && between(from, to) == 1)
			case Soldier:
				fwd := 1
				if c == Black {
					fwd = -1
				}
				attacks = df == 0 && dr == fwd || !ownHalf(from) && dr == 0 && abs(df) == 1
			}
			if pt != Cannon {
				moves = attacks && (empty || enemy)
			}
			if attacks {
				a.Attacks = a.Attacks.With(to)
				d.ByType[pt] = d.ByType[pt].With(to)
				if !hitsPalace && pt >= Horse && enemyPalace(to) {
					hitsPalace = true
					d.PalaceAttackers++
				}
			}
			if moves {
				a.Moves[pt]++
			}
		}
	}
	return a, d
}

// TestActivityStart checks Activity on the start position against counts
// made by hand. Red's 44 moves: chariots 2+2 (up to their soldiers),
// horses 2+2 (the elephant blocks the leg towards d2 and f2), cannons
// 12+12 (b3: b4..b7, the capture on b10 over the cannon on b8, b2, a3 and
// c3..g3), soldiers 5, elephants 2+2, advisors 1+1 (to e2), general 1.
// Black's are the mirror image.
func TestActivityStart(t *testing.T) {
	p := Start()
	want := [NoPieceType]int{General: 1, Advisor: 2, Elephant: 4, Horse: 4, Chariot: 4, Cannon: 24, Soldier: 5}
	for _, c := range []game.Player{Red, Black} {
		a := p.Activity(c)
		if a.Moves != want {
			t.Errorf("Activity(%v).Moves = %v, want %v", c, a.Moves, want)
		}
		if ref, _ := refActivity(&p, c); a != ref {
			t.Errorf("Activity(%v) = %+v, reference %+v", c, a, ref)
		}
	}
	a := p.Activity(Red)
	for _, tc := range []struct {
		sq   string
		want bool
	}{
		{"b10", true},  // the cannon on b3 over the cannon on b8
		{"b8", false},  // that screen itself
		{"b5", false},  // a cannon moves to b5 but does not attack it
		{"a4", true},   // the chariot on a1 defends its soldier
		{"a5", true},   // and the soldier attacks the point ahead
		{"e2", true},   // general and advisors
		{"d2", false},  // the horse's leg towards d2 is blocked
		{"c3", true},   // horse b1
		{"e10", false}, // no facing-generals attack
	} {
		s, err := ParseSquare(tc.sq)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.Attacks.Has(s); got != tc.want {
			t.Errorf("Red attacks %s = %v, want %v", tc.sq, got, tc.want)
		}
	}
	if got := p.Occupied(Red).Count(); got != 16 {
		t.Errorf("Occupied(Red).Count() = %d, want 16", got)
	}
}

// TestRegions checks Palace and Half: nine and 45 points, each palace in
// its own half, the halves disjoint, and some points named by hand.
func TestRegions(t *testing.T) {
	for _, c := range []game.Player{Red, Black} {
		if n := Palace(c).Count(); n != 9 {
			t.Errorf("Palace(%v) has %d points, want 9", c, n)
		}
		if n := Half(c).Count(); n != 45 {
			t.Errorf("Half(%v) has %d points, want 45", c, n)
		}
		if Palace(c).And(Half(c)) != Palace(c) || Half(c).And(Half(c^1)) != (SquareSet{}) {
			t.Errorf("Palace(%v) is not within Half(%v), or the halves overlap", c, c)
		}
	}
	for _, tc := range []struct {
		sq           string
		palace, half game.Player
		inPalace     bool
	}{
		{"d1", Red, Red, true}, {"f3", Red, Red, true}, {"e10", Black, Black, true}, {"d8", Black, Black, true},
		{"c2", Red, Red, false}, {"e4", Red, Red, false}, {"e5", Red, Red, false}, {"e6", Black, Black, false}, {"g8", Black, Black, false},
	} {
		s, err := ParseSquare(tc.sq)
		if err != nil {
			t.Fatal(err)
		}
		if Palace(tc.palace).Has(s) != tc.inPalace || Palace(tc.palace^1).Has(s) {
			t.Errorf("%s in the palace of %v: %v, want %v (and never the other's)", tc.sq, tc.palace, Palace(tc.palace).Has(s), tc.inPalace)
		}
		if !Half(tc.half).Has(s) || Half(tc.half^1).Has(s) {
			t.Errorf("%s is not in the half of %v alone", tc.sq, tc.half)
		}
	}
}

// TestActivityRandom compares Activity with the slow reference along
// random games, and checks that the pseudo-legal moves of the side to move
// include its legal moves, type by type.
func TestActivityRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	games := 60
	if testing.Short() {
		games = 15
	}
	for range games {
		randomWalk(rng, Start(), 200, func(p *Position, moves []Move) {
			for _, c := range []game.Player{Red, Black} {
				want, wantD := refActivity(p, c)
				if got := p.Activity(c); got != want {
					t.Fatalf("%s: Activity(%v) = %+v, reference %+v", p.FEN(), c, got, want)
				}
				if got, gotD := p.ActivityByType(c); got != want || gotD != wantD {
					t.Fatalf("%s: ActivityByType(%v) = %+v, %+v, reference %+v, %+v", p.FEN(), c, got, gotD, want, wantD)
				}
			}
			var legal [NoPieceType]int
			for _, m := range moves {
				legal[m.Piece()]++
			}
			a := p.Activity(p.Side())
			for pt, n := range legal {
				if n > a.Moves[pt] {
					t.Fatalf("%s: %d legal %v moves, %d pseudo-legal", p.FEN(), n, PieceType(pt), a.Moves[pt])
				}
			}
		})
	}
}

// TestSquareSet checks the set operations on squares in both words.
func TestSquareSet(t *testing.T) {
	var s SquareSet
	s = s.With(0).With(63).With(64).With(89)
	if s.Count() != 4 || !s.Has(63) || !s.Has(64) || s.Has(1) || s.Has(NoSquare) {
		t.Errorf("set %v: wrong membership", s)
	}
	u := SquareSet{}.With(64).With(5)
	if got := s.And(u); got != (SquareSet{}.With(64)) {
		t.Errorf("And = %v", got)
	}
	if got := s.Or(u).Count(); got != 5 {
		t.Errorf("Or count = %d, want 5", got)
	}
}

// TestActivityAllocs checks that Activity does not allocate.
func TestActivityAllocs(t *testing.T) {
	p := Start()
	if n := testing.AllocsPerRun(100, func() { _ = p.Activity(Red) }); n != 0 {
		t.Errorf("Activity allocates %v times", n)
	}
}

// BenchmarkActivity reports the cost of one side's Activity, over 256
// positions from random games so that branches are predicted no better
// than in a search.
func BenchmarkActivity(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	var positions []Position
	for len(positions) < 256 {
		randomWalk(rng, Start(), 60, func(p *Position, _ []Move) {
			positions = append(positions, *p)
		})
	}
	b.ReportAllocs()
	b.Run("plain", func(b *testing.B) {
		n, i := 0, 0
		for b.Loop() {
			p := &positions[i&255]
			n += p.Activity(p.Side()).Moves[Cannon]
			i++
		}
		_ = n
	})
	b.Run("by-type", func(b *testing.B) {
		n, i := 0, 0
		for b.Loop() {
			p := &positions[i&255]
			a, d := p.ActivityByType(p.Side())
			n += a.Moves[Cannon] + d.PalaceAttackers
			i++
		}
		_ = n
	})
}

// TestActivityByTypeByHand checks ByType, Pieces and PalaceAttackers on a
// position set by hand: a Red chariot on e5 sees up the open e file to the
// Black palace (its general on d10), a Red horse on c7 reaches d9 and e8 in the palace,
// a Red soldier on d6 attacks d7, c6 and e6 but no palace point, and an
// advisor never counts.
func TestActivityByTypeByHand(t *testing.T) {
	p, err := ParseFEN("3k5/9/9/2N6/3P5/4R4/9/9/4A4/3K5 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	_, a := p.ActivityByType(Red)
	if a.PalaceAttackers != 2 {
		t.Errorf("PalaceAttackers = %d, want 2 (the chariot, the horse)", a.PalaceAttackers)
	}
	sq := func(s string) Square {
		x, err := ParseSquare(s)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	for _, tc := range []struct {
		pt   PieceType
		sq   string
		want bool
	}{
		{Chariot, "e6", true}, {Chariot, "e10", true}, {Chariot, "a5", true}, {Chariot, "d6", false},
		{Horse, "d9", true}, {Horse, "e8", true}, {Horse, "e6", true}, {Horse, "d5", true}, {Horse, "c5", false},
		{Soldier, "d7", true}, {Soldier, "c6", true}, {Soldier, "e6", true}, {Soldier, "d5", false},
		{Advisor, "d1", true}, {Advisor, "d2", false},
	} {
		if got := a.ByType[tc.pt].Has(sq(tc.sq)); got != tc.want {
			t.Errorf("ByType[%v] has %s: %v, want %v", tc.pt, tc.sq, got, tc.want)
		}
	}
	if !a.Pieces[Soldier].Has(sq("d6")) || a.Pieces[Soldier].Count() != 1 || !a.Pieces[General].Has(sq("d1")) || a.Pieces[Cannon].Count() != 0 {
		t.Errorf("Pieces = %v", a.Pieces)
	}
	if _, b := p.ActivityByType(Black); b.PalaceAttackers != 0 || !b.Pieces[General].Has(sq("d10")) || b.Pieces[General].Count() != 1 {
		t.Errorf("Black's activity %+v: want no palace attackers, the general on d10", b)
	}
}

package classic

import (
	"math/bits"

	"evolved/game"
	"evolved/game/xiangqi"
	"evolved/search"
)

// strengths are the classic program's piece strengths, by piece type.
var strengths = [xiangqi.NoPieceType + 1]int{
	xiangqi.General:  1_000_000,
	xiangqi.Advisor:  110,
	xiangqi.Elephant: 110,
	xiangqi.Horse:    300,
	xiangqi.Chariot:  600,
	xiangqi.Cannon:   500,
	xiangqi.Soldier:  70,
}

// Strength returns the classic strength of a piece type: general
// 1,000,000, advisor 110, elephant 110, horse 300, chariot 600, cannon 500,
// soldier 70; 0 for NoPieceType. The general's strength never enters the
// evaluation (each side always has its general: the game ends when a side
// has no legal move, never by capturing a general); it orders moves, and
// the search uses it as the value of a mate.
func Strength(pt xiangqi.PieceType) int {
	if pt > xiangqi.NoPieceType {
		return 0
	}
	return strengths[pt]
}

// The weights of the evaluation terms, per unit of each term.
const (
	// WeightStrength, WeightMaterial, WeightThreat, WeightMobility and
	// WeightControl combine a side's Terms: 6*Strength + 4*Material +
	// 4*Threat + Mobility + Control. The first three weigh what depends on
	// a piece and its point alone, and are package xiangqi's, which keeps
	// the position values for the nets too.
	WeightStrength = xiangqi.ClassicWeightStrength
	WeightMaterial = xiangqi.ClassicWeightMaterial
	WeightThreat   = xiangqi.ClassicWeightThreat
	WeightMobility = 1
	WeightControl  = 1
)

// Mobility weights per pseudo-legal move of a piece type; generals,
// advisors and elephants do not count.
const (
	MobilityHorse   = 13
	MobilityChariot = 7
	MobilityCannon  = 7
	MobilitySoldier = 15
)

// Terms is one side's share of the evaluation, before weighting.
type Terms struct {
	// Strength is the sum of the classic strengths (see Strength) of the
	// side's pieces other than its general: 3590 for a full set.
	Strength int
	// Material is the sum of the position-table values of all the side's
	// pieces, its general included (xiangqi.ClassicTableValue): 888 for
	// the start position.
	Material int
	// Threat is the sum over the side's pieces standing on the enemy's
	// half of the board (ranks 6 to 10 for Red, 1 to 5 for Black) of 20
	// per chariot or horse and 10 per cannon or soldier
	// (xiangqi.ClassicThreat).
	Threat int
	// Mobility is the weighted count of the side's pseudo-legal moves
	// (xiangqi.Activity: legal but for leaving its own general attacked,
	// which is what the classic program generated): 13 per horse move, 7
	// per chariot move, 7 per cannon move, 15 per soldier move.
	Mobility int
	// Control is the value of the squares the side attacks
	// (xiangqi.Activity's Attacks, every square counted once however many
	// pieces attack it): 1 per square on the side's own half, 2 per square
	// on the enemy's half, 3 per square of the enemy's palace.
	Control int
}

// Total combines the terms with the classic weights: 6*Strength +
// 4*Material + 4*Threat + Mobility + Control.
func (t Terms) Total() int {
	return WeightStrength*t.Strength + WeightMaterial*t.Material + WeightThreat*t.Threat +
		WeightMobility*t.Mobility + WeightControl*t.Control
}

// evalTables are the lookup tables of the evaluation, by colour, built once
// from package xiangqi's position values.
type evalTables struct {
	material [2][xiangqi.NoPieceType][xiangqi.Squares]int32
	threat   [2][xiangqi.NoPieceType][xiangqi.Squares]int32
	// static is WeightStrength*strength + WeightMaterial*material +
	// WeightThreat*threat: everything that depends only on the piece and
	// its square, in one lookup for Evaluate.
	static [2][xiangqi.NoPieceType][xiangqi.Squares]int32
}

// tables holds the evaluation's lookup tables. It is never written after
// initialisation.
var tables = buildTables()

func buildTables() *evalTables {
	t := new(evalTables)
	for s := range xiangqi.Square(xiangqi.Squares) {
		for c := xiangqi.Red; c <= xiangqi.Black; c++ {
			for pt := range xiangqi.PieceType(xiangqi.NoPieceType) {
				st := int32(0)
				if pt != xiangqi.General {
					st = int32(strengths[pt])
				}
				t.material[c][pt][s] = int32(xiangqi.ClassicTableValue(pt, c, s))
				t.threat[c][pt][s] = int32(xiangqi.ClassicThreat(pt, c, s))
				t.static[c][pt][s] = WeightStrength*st + int32(xiangqi.ClassicPositionValue(pt, c, s))
			}
		}
	}
	return t
}

// PositionValue returns what the evaluation gives a piece of type pt of
// side c on point s for standing there, in the evaluation's units:
// WeightMaterial times its position-table value plus WeightThreat times
// its threat bonus (xiangqi.ClassicPositionValue). With WeightStrength
// times its strength, it is the part of the evaluation that depends on
// the piece and its point alone; the rest (mobility, control) depends on
// the other pieces too. Black's values are Red's on the mirrored point. It
// returns 0 for NoPieceType or a point off the board.
func PositionValue(pt xiangqi.PieceType, c game.Player, s xiangqi.Square) int {
	return xiangqi.ClassicPositionValue(pt, c, s)
}

// SideTerms returns the evaluation terms of side c in p.
func SideTerms(p *xiangqi.Position, c game.Player) Terms {
	var t Terms
	c &= 1
	occ := p.Occupied(c)
	for w := range 2 {
		for set := occ[w]; set != 0; set &= set - 1 {
			s := xiangqi.Square(w*64 + bits.TrailingZeros64(set))
			pt, _ := p.PieceAt(s)
			if pt != xiangqi.General {
				t.Strength += strengths[pt]
			}
			t.Material += int(tables.material[c][pt][s])
			t.Threat += int(tables.threat[c][pt][s])
		}
	}
	a := p.Activity(c)
	t.Mobility = mobility(&a)
	t.Control = control(&a, c)
	return t
}

// Breakdown returns the evaluation terms of both sides, indexed by colour
// (xiangqi.Red, xiangqi.Black).
func Breakdown(p *xiangqi.Position) [2]Terms {
	return [2]Terms{SideTerms(p, xiangqi.Red), SideTerms(p, xiangqi.Black)}
}

// mobility returns the Mobility term of an Activity.
func mobility(a *xiangqi.Activity) int {
	return MobilityHorse*a.Moves[xiangqi.Horse] + MobilityChariot*a.Moves[xiangqi.Chariot] +
		MobilityCannon*a.Moves[xiangqi.Cannon] + MobilitySoldier*a.Moves[xiangqi.Soldier]
}

// control returns the Control term of side c's Activity: every attacked
// square once, those on the enemy half once more, those in the enemy
// palace once more again.
func control(a *xiangqi.Activity, c game.Player) int {
	return a.Attacks.Count() + a.Attacks.And(xiangqi.Half(c^1)).Count() + a.Attacks.And(xiangqi.Palace(c^1)).Count()
}

// staticDiff returns the part of the evaluation that depends only on
// which piece stands where, WeightStrength*Strength +
// WeightMaterial*Material + WeightThreat*Threat, Red's less Black's.
func staticDiff(p *xiangqi.Position) int {
	total := 0
	for c := xiangqi.Red; c <= xiangqi.Black; c++ {
		sum := 0
		occ := p.Occupied(c)
		st := &tables.static[c]
		for w := range 2 {
			for set := occ[w]; set != 0; set &= set - 1 {
				s := xiangqi.Square(w*64 + bits.TrailingZeros64(set))
				pt, _ := p.PieceAt(s)
				sum += int(st[pt][s])
			}
		}
		if c == xiangqi.Red {
			total += sum
		} else {
			total -= sum
		}
	}
	return total
}

// staticDelta returns how much m, played by side c, changes staticDiff:
// the search keeps staticDiff up to date with it in constant time instead
// of walking the pieces at every leaf.
func staticDelta(m xiangqi.Move, c game.Player) int {
	c &= 1
	st := &tables.static
	d := int(st[c][m.Piece()][m.To()] - st[c][m.Piece()][m.From()])
	if victim := m.Captured(); victim != xiangqi.NoPieceType {
		d += int(st[c^1][victim][m.To()])
	}
	if c == xiangqi.Black {
		d = -d
	}
	return d
}

// maxActivity bounds a side's WeightMobility*Mobility +
// WeightControl*Control: at most 8 moves per horse, 17 per chariot or
// cannon (a rank and a file), 3 per soldier, so Mobility <= 2*8*13 +
// 2*17*7 + 2*17*7 + 5*3*15 = 909, and Control <= 90 + 45 + 9 = 144.
// Evaluate therefore lies within maxActivity of the static part.
const maxActivity = WeightMobility*909 + WeightControl*144

// evaluate returns Evaluate(p) given staticDiff(p).
func evaluate(p *xiangqi.Position, static int) int {
	us := p.Side() & 1
	them := us ^ 1
	if us == xiangqi.Black {
		static = -static
	}
	a := p.Activity(us)
	b := p.Activity(them)
	return static + WeightMobility*(mobility(&a)-mobility(&b)) + WeightControl*(control(&a, us)-control(&b, them))
}

// Evaluate returns the classic evaluation of p from the point of view of
// the side to move: the Total of its Terms less the Total of the
// opponent's, in the classic program's units (a soldier is worth about
// 450, a chariot about 4500). It never exceeds 29,000 in absolute value:
// a side's Total is at most 6*3590 + 4*1436 + 4*150 + 909 + 144 = 28,937
// (every term at its largest at once, which no position reaches), and the
// opponent's is never negative. It does not allocate.
func Evaluate(p *xiangqi.Position) int { return evaluate(p, staticDiff(p)) }

// Scale is the divisor that brings Evaluate into search's bounds:
// |Evaluate|/Scale < 14,500 < search.MaxEval.
const Scale = 2

// Evaluator is the classic evaluation as a search.Evaluator of xiangqi
// games, for search.AlphaBeta: Evaluate(position) / Scale, clamped to
// ±search.MaxEval for safety (the bound above means it never is). The zero
// value is ready to use and safe for concurrent use.
type Evaluator struct{}

var _ search.Evaluator[*xiangqi.Game] = Evaluator{}

// Evaluate returns the scaled classic evaluation of g's current position
// for the side to move.
func (Evaluator) Evaluate(g *xiangqi.Game) int {
	p := g.Position()
	return max(-search.MaxEval, min(search.MaxEval, Evaluate(&p)/Scale))
}

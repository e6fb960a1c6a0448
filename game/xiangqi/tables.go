package xiangqi

import "evolved/game"

// The classic program's position values: the part of its evaluation that
// depends on a piece and its point alone. Package classic evaluates with
// them, and nnet starts a xiangqi net's piece-square tables from them; they
// live here, beside the rules, as data and a lookup, so that the nets need
// not depend on a player or the search.
//
// The position tables are typed in from the piece-square tables of
// ElephantEye 3.3 by Morning Yellow (www.xqbase.com, 2004-2012, file
// eval/preeval.cpp), which in turn adapted those of the program "Meng Ru
// Shen Dan". ElephantEye keeps each table on a 16x16 board and blends a
// midgame and an endgame version by the material left; the classic
// program used the midgame tables alone, as we do. ElephantEye's values
// already include a base value for the piece (a chariot is worth about
// 200, a horse or cannon about 100, a soldier 7 to 89).
//
// Each table is written as the board is drawn with Red at the bottom: the
// first row is rank 10 (Black's back rank), the last row rank 1 (Red's),
// files a to i from left to right. The values are Red's; Black reads the
// table upside down (its rank r is Red's rank 11-r), so the evaluation of
// a position and of its colour-flipped mirror image are opposite. All the
// tables are symmetric between the left and right wings.

// The weights of the classic evaluation's terms that depend on a piece
// and its point alone, per unit of each: ClassicWeightStrength per unit of
// the piece's classic strength (100 units are a pawn), ClassicWeightMaterial
// per unit of its position-table value (ClassicTableValue) and
// ClassicWeightThreat per unit of its threat bonus (ClassicThreat).
const (
	ClassicWeightStrength = 6
	ClassicWeightMaterial = 4
	ClassicWeightThreat   = 4
)

// ClassicPositionValue returns what the classic evaluation gives a piece of
// type pt of side c on point s for standing there, in the evaluation's
// units: ClassicWeightMaterial times its position-table value plus
// ClassicWeightThreat times its threat bonus. Black's values are Red's on
// the mirrored point. It returns 0 for NoPieceType or a point off the
// board.
func ClassicPositionValue(pt PieceType, c game.Player, s Square) int {
	return ClassicWeightMaterial*ClassicTableValue(pt, c, s) + ClassicWeightThreat*ClassicThreat(pt, c, s)
}

// ClassicTableValue returns the value ElephantEye's position table of its
// type gives a piece of type pt of side c on point s; 0 for NoPieceType or
// a point off the board.
func ClassicTableValue(pt PieceType, c game.Player, s Square) int {
	if pt >= NoPieceType || int(s) >= Squares {
		return 0
	}
	var t *[Ranks][Files]int16
	switch pt {
	case General, Soldier:
		t = &tableKingSoldier
	case Advisor, Elephant:
		t = &tableAdvisorElephant
	case Horse:
		t = &tableHorse
	case Chariot:
		t = &tableChariot
	default:
		t = &tableCannon
	}
	return int(t[Ranks-1-ownRank(c, s)][s.File()])
}

// ClassicThreat returns the classic threat bonus of a piece of type pt of
// side c on point s: for a piece standing across the river (ranks 6 to 10
// for Red, 1 to 5 for Black) ElephantEye's weights for its attack
// evaluation (chariot and horse 2, cannon and soldier 1) times ten, else 0.
// Generals, advisors and elephants never cross. It returns 0 for
// NoPieceType or a point off the board.
func ClassicThreat(pt PieceType, c game.Player, s Square) int {
	if pt >= NoPieceType || int(s) >= Squares || ownRank(c, s) < Ranks/2 {
		return 0
	}
	switch pt {
	case Horse, Chariot:
		return 20
	case Cannon, Soldier:
		return 10
	}
	return 0
}

// ownRank returns the rank of s as side c sees it, 0 for its own back
// rank.
func ownRank(c game.Player, s Square) int {
	if c&1 == Black {
		return Ranks - 1 - s.Rank()
	}
	return s.Rank()
}

// tableKingSoldier is ElephantEye's cucvlKingPawnMidgameAttacking, the
// table of the general and the soldiers in the opening and middlegame for
// a side that has attacking chances. The general only ever stands on the
// palace points at the bottom; a soldier gains most on the ranks in front
// of the enemy palace.
var tableKingSoldier = [Ranks][Files]int16{
	{9, 9, 9, 11, 13, 11, 9, 9, 9},
	{39, 49, 69, 84, 89, 84, 69, 49, 39},
	{39, 49, 64, 74, 74, 74, 64, 49, 39},
	{39, 46, 54, 59, 61, 59, 54, 46, 39},
	{29, 37, 41, 54, 59, 54, 41, 37, 29},
	{7, 0, 13, 0, 16, 0, 13, 0, 7},
	{7, 0, 7, 0, 15, 0, 7, 0, 7},
	{0, 0, 0, 1, 1, 1, 0, 0, 0},
	{0, 0, 0, 2, 2, 2, 0, 0, 0},
	{0, 0, 0, 11, 15, 11, 0, 0, 0},
}

// tableAdvisorElephant is ElephantEye's cucvlAdvisorBishopThreatless, the
// table of the advisors and elephants of a side that is not under attack.
// Its only non-zero entries are the five advisor points (d1, f1, e2, d3,
// f3) and the seven elephant points (c1, g1, a3, e3, i3, c5, g5).
var tableAdvisorElephant = [Ranks][Files]int16{
	{0, 0, 0, 0, 0, 0, 0, 0, 0},
	{0, 0, 0, 0, 0, 0, 0, 0, 0},
	{0, 0, 0, 0, 0, 0, 0, 0, 0},
	{0, 0, 0, 0, 0, 0, 0, 0, 0},
	{0, 0, 0, 0, 0, 0, 0, 0, 0},
	{0, 0, 20, 0, 0, 0, 20, 0, 0},
	{0, 0, 0, 0, 0, 0, 0, 0, 0},
	{18, 0, 0, 20, 23, 20, 0, 0, 18},
	{0, 0, 0, 0, 23, 0, 0, 0, 0},
	{0, 0, 20, 20, 0, 20, 20, 0, 0},
}

// tableHorse is ElephantEye's cucvlKnightMidgame: horses are worth most
// on the enemy's side of the river near its palace, and least on their
// own back rank and on e2, where they block their general.
var tableHorse = [Ranks][Files]int16{
	{90, 90, 90, 96, 90, 96, 90, 90, 90},
	{90, 96, 103, 97, 94, 97, 103, 96, 90},
	{92, 98, 99, 103, 99, 103, 99, 98, 92},
	{93, 108, 100, 107, 100, 107, 100, 108, 93},
	{90, 100, 99, 103, 104, 103, 99, 100, 90},
	{90, 98, 101, 102, 103, 102, 101, 98, 90},
	{92, 94, 98, 95, 98, 95, 98, 94, 92},
	{93, 92, 94, 95, 92, 95, 94, 92, 93},
	{85, 90, 92, 93, 78, 93, 92, 90, 85},
	{88, 85, 90, 88, 90, 88, 90, 85, 88},
}

// tableChariot is ElephantEye's cucvlRookMidgame: chariots like open
// central files and the rank in front of the enemy palace (e9 is the
// maximum, 233), and dislike the corners they start in.
var tableChariot = [Ranks][Files]int16{
	{206, 208, 207, 213, 214, 213, 207, 208, 206},
	{206, 212, 209, 216, 233, 216, 209, 212, 206},
	{206, 208, 207, 214, 216, 214, 207, 208, 206},
	{206, 213, 213, 216, 216, 216, 213, 213, 206},
	{208, 211, 211, 214, 215, 214, 211, 211, 208},
	{208, 212, 212, 214, 215, 214, 212, 212, 208},
	{204, 209, 204, 212, 214, 212, 204, 209, 204},
	{198, 208, 204, 212, 212, 212, 204, 208, 198},
	{200, 208, 206, 212, 200, 212, 206, 208, 200},
	{194, 206, 204, 212, 200, 212, 204, 206, 194},
}

// tableCannon is ElephantEye's cucvlCannonMidgame: cannons like the
// central file (the central cannon opening) and the enemy's back corners,
// from where they pin along the back rank.
var tableCannon = [Ranks][Files]int16{
	{100, 100, 96, 91, 90, 91, 96, 100, 100},
	{98, 98, 96, 92, 89, 92, 96, 98, 98},
	{97, 97, 96, 91, 92, 91, 96, 97, 97},
	{96, 99, 99, 98, 100, 98, 99, 99, 96},
	{96, 96, 96, 96, 100, 96, 96, 96, 96},
	{95, 96, 99, 96, 100, 96, 99, 96, 95},
	{96, 96, 96, 96, 96, 96, 96, 96, 96},
	{97, 96, 100, 99, 101, 99, 100, 96, 97},
	{96, 97, 98, 98, 98, 98, 98, 97, 96},
	{96, 96, 97, 99, 99, 99, 97, 96, 96},
}

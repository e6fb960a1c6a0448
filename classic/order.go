package classic

import "evolved/game/xiangqi"

// attackerBits is the width of the attacker's share of an ordering key:
// it must hold the general's strength, 1,000,000 < 1<<20.
const attackerBits = 20

// orderKeys holds OrderKey for every pair of moving and captured piece
// types. It is never written after initialisation.
var orderKeys = func() (k [xiangqi.NoPieceType][xiangqi.NoPieceType + 1]int64) {
	for pt := range xiangqi.PieceType(xiangqi.NoPieceType) {
		for victim := range xiangqi.PieceType(xiangqi.NoPieceType) {
			k[pt][victim] = int64(strengths[victim])<<attackerBits + (1<<attackerBits - 1 - int64(strengths[pt]))
		}
	}
	return k
}()

// OrderKey returns the ordering key of m: 0 for a move that captures
// nothing, and for a capture strength(victim)*2^20 + (2^20-1 -
// strength(mover)), which is positive and sorts captures by the captured
// piece's strength, strongest first, then by the moving piece's strength,
// weakest first (a general, with its 1,000,000, captures last).
func OrderKey(m xiangqi.Move) int64 { return orderKeys[m.Piece()][m.Captured()] }

// OrderMoves sorts moves in place into the classic program's search
// order, by OrderKey from the highest: captures of strong pieces by weak
// pieces first, quiet moves last. The sort is stable, so moves with equal
// keys (every quiet move; captures by an advisor and by an elephant, both
// of strength 110, of the same victim) keep the order they were generated
// in, and the search is deterministic. It does not allocate.
func OrderMoves(moves []xiangqi.Move) {
	// An insertion sort: quiet moves never move, and the few captures
	// each move forward past the moves with smaller keys.
	for i := 1; i < len(moves); i++ {
		m := moves[i]
		k := OrderKey(m)
		if k == 0 {
			continue
		}
		j := i
		for ; j > 0 && OrderKey(moves[j-1]) < k; j-- {
			moves[j] = moves[j-1]
		}
		moves[j] = m
	}
}

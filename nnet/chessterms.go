package nnet

import (
	"fmt"
	"math/bits"

	"evolved/game"
	"evolved/game/chess"
)

// Chess positional terms (EvolveTerms).
//
// Each term counts a feature of the position for each side, and adds
// weight*unit*(pov's count - the opponent's count) pawns to the value. The
// weight is what evolves, starting at 0; the unit is the term's rough
// textbook value, so a weight of 1 values the feature as a classical
// hand-written evaluation would, and mutation steps every term by the
// same fraction of its own unit. The features, for one side:
//
//	knight, bishop, rook and queen mobility: the squares each such piece
//	    attacks that hold none of the side's pieces and no enemy pawn
//	    attacks, summed over the pieces (sliders see the occupied board);
//	bishop pair: 1 with two or more bishops;
//	passed pawns: the sum over the side's passed pawns (no enemy pawn ahead
//	    on its file or the files beside it) of a*a, a = 1 on the pawn's
//	    second rank .. 6 on its seventh;
//	doubled pawns: pawns beyond the first on each file;
//	isolated pawns: pawns with no pawn of their side on the files beside;
//	rooks on open files (no pawns) and on half-open files (no pawn of
//	    the rook's side, some of the enemy's);
//	king shelter: the side's pawns on the king's file and the files beside
//	    it, one and two ranks in front of the king;
//	king attack: the squares next to the enemy king that the side's
//	    knights, bishops, rooks and queens attack, counted once per piece.

// NumChessTerms is the number of positional terms of EvolveTerms.
const NumChessTerms = 12

// The terms, in storage order.
const (
	termKnightMobility = iota
	termBishopMobility
	termRookMobility
	termQueenMobility
	termBishopPair
	termPassedPawns
	termDoubledPawns
	termIsolatedPawns
	termRookOpenFile
	termRookHalfOpenFile
	termKingShelter
	termKingAttack
)

// ChessTermNames returns the names of the positional terms, in storage
// order.
func ChessTermNames() [NumChessTerms]string {
	return [NumChessTerms]string{
		"knight mobility", "bishop mobility", "rook mobility", "queen mobility",
		"bishop pair", "passed pawns", "doubled pawns", "isolated pawns",
		"rook on open file", "rook on half-open file", "king shelter", "king attack",
	}
}

// ChessTermUnits returns the unit of each positional term in pawns per
// count of its feature, in storage order: a weight of 1 values the
// feature at this. They are the rough magnitudes of classical hand-made
// evaluations: 0.04, 0.05, 0.03 and 0.01 a square of knight, bishop, rook
// and queen mobility; 0.4 for the bishop pair; 1/36 per a*a of a passed
// pawn (1 pawn on its seventh rank, 0.25 on its fourth); -0.15 for a
// doubled and for an isolated pawn; 0.2 and 0.1 for a rook on an open and
// a half-open file; 0.05 a shelter pawn and an attacked square next to
// the enemy king.
func ChessTermUnits() [NumChessTerms]float64 {
	return [NumChessTerms]float64{0.04, 0.05, 0.03, 0.01, 0.4, 1.0 / 36, -0.15, -0.15, 0.2, 0.1, 0.05, 0.05}
}

// ChessTermFeatures returns the positional features of p (see above) as
// pov's count minus the opponent's, in storage order.
func ChessTermFeatures(p chess.Position, pov game.Player) [NumChessTerms]int {
	return chessTermFeatures(&p, pov)
}

// chessTermFeatures is ChessTermFeatures on a pointer.
func chessTermFeatures(p *chess.Position, pov game.Player) [NumChessTerms]int {
	ours, theirs := sideFeatures(p, pov&1), sideFeatures(p, pov&1^1)
	for i := range ours {
		ours[i] -= theirs[i]
	}
	return ours
}

// sideFeatures counts the positional features of side us in p.
func sideFeatures(p *chess.Position, us game.Player) [NumChessTerms]int {
	var f [NumChessTerms]int
	them := us ^ 1
	occ := p.Occupied()
	ourPawns, theirPawns := p.Pieces(us, chess.Pawn), p.Pieces(them, chess.Pawn)
	safe := ^p.Color(us) &^ chess.PawnAttacksOf(them, theirPawns)
	zone := chess.KingAttacks(p.King(them))
	for b := p.Pieces(us, chess.Knight); b != 0; b &= b - 1 {
		a := chess.KnightAttacks(b.First())
		f[termKnightMobility] += (a & safe).Count()
		f[termKingAttack] += (a & zone).Count()
	}
	for b := p.Pieces(us, chess.Bishop); b != 0; b &= b - 1 {
		a := chess.BishopAttacks(b.First(), occ)
		f[termBishopMobility] += (a & safe).Count()
		f[termKingAttack] += (a & zone).Count()
	}
	for b := p.Pieces(us, chess.Rook); b != 0; b &= b - 1 {
		s := b.First()
		a := chess.RookAttacks(s, occ)
		f[termRookMobility] += (a & safe).Count()
		f[termKingAttack] += (a & zone).Count()
		if file := chess.FileMask(s.File()); file&ourPawns == 0 {
			if file&theirPawns == 0 {
				f[termRookOpenFile]++
			} else {
				f[termRookHalfOpenFile]++
			}
		}
	}
	for b := p.Pieces(us, chess.Queen); b != 0; b &= b - 1 {
		s := b.First()
		a := chess.BishopAttacks(s, occ) | chess.RookAttacks(s, occ)
		f[termQueenMobility] += (a & safe).Count()
		f[termKingAttack] += (a & zone).Count()
	}
	if p.Pieces(us, chess.Bishop).Count() >= 2 {
		f[termBishopPair] = 1
	}
	files := fileSet(ourPawns)
	f[termDoubledPawns] = ourPawns.Count() - bits.OnesCount8(files)
	isolated := files &^ (files<<1 | files>>1)
	f[termIsolatedPawns] = (ourPawns & fillFiles(isolated)).Count()
	// A pawn is held when an enemy pawn stands ahead of it on its file or
	// the files beside: behind every enemy pawn, from our side's view, on
	// those three files.
	var held chess.Bitboard
	if us == chess.White {
		held = southFill(theirPawns >> 8)
	} else {
		held = northFill(theirPawns << 8)
	}
	held |= held<<1&^chess.FileMask(0) | held>>1&^chess.FileMask(7)
	for b := ourPawns &^ held; b != 0; b &= b - 1 {
		a := b.First().Rank()
		if us == chess.Black {
			a = 7 - a
		}
		f[termPassedPawns] += a * a
	}
	k := p.King(us)
	shelter := besideFiles(k.File()) | chess.FileMask(k.File())
	if us == chess.White {
		shelter &= rankMask(k.Rank()+1) | rankMask(k.Rank()+2)
	} else {
		shelter &= rankMask(k.Rank()-1) | rankMask(k.Rank()-2)
	}
	f[termKingShelter] = (shelter & ourPawns).Count()
	return f
}

// besideFiles returns the squares of the files next to file f.
func besideFiles(f int) chess.Bitboard {
	var b chess.Bitboard
	if f > 0 {
		b |= chess.FileMask(f - 1)
	}
	if f < 7 {
		b |= chess.FileMask(f + 1)
	}
	return b
}

// fileSet returns the files b has a square on, bit f for file f.
func fileSet(b chess.Bitboard) uint8 {
	b |= b >> 32
	b |= b >> 16
	b |= b >> 8
	return uint8(b)
}

// fillFiles returns every square of the files in set (bit f for file f).
func fillFiles(set uint8) chess.Bitboard { return chess.Bitboard(set) * chess.FileMask(0) }

// southFill returns b and every square below one of its squares.
func southFill(b chess.Bitboard) chess.Bitboard {
	b |= b >> 8
	b |= b >> 16
	return b | b>>32
}

// northFill returns b and every square above one of its squares.
func northFill(b chess.Bitboard) chess.Bitboard {
	b |= b << 8
	b |= b << 16
	return b | b<<32
}

// rankMask returns the squares of rank r (0 = rank 1 .. 7 = rank 8), none
// for a rank off the board.
func rankMask(r int) chess.Bitboard {
	if r < 0 || r > 7 {
		return 0
	}
	return chess.Bitboard(0xFF) << (8 * r)
}

// ChessTerms returns the weights of n's positional terms in units of
// ChessTermUnits, in storage order; zeros without EvolveTerms.
func (n *Net) ChessTerms() [NumChessTerms]float64 {
	var t [NumChessTerms]float64
	copy(t[:], n.terms())
	return t
}

// WithChessTerms returns a copy of n with its positional terms' weights
// set to t (finite, in units of ChessTermUnits). n must have EvolveTerms;
// otherwise the error wraps ErrArchitecture.
func (n *Net) WithChessTerms(t [NumChessTerms]float64) (*Net, error) {
	if n.flags&EvolveTerms == 0 {
		return nil, fmt.Errorf("set positional terms: %w: flags %v lack %v", ErrArchitecture, n.flags, EvolveTerms)
	}
	c := n.Clone()
	for i, w := range t {
		c.terms()[i] = round32(w)
	}
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("set positional terms: %w", err)
	}
	return c, nil
}

// chessTermValues returns what one count of each feature is worth in
// pawns for n: its term weights times ChessTermUnits; nil without
// EvolveTerms.
func chessTermValues(n *Net) []float64 {
	t := n.terms()
	if t == nil {
		return nil
	}
	units := ChessTermUnits()
	v := make([]float64, NumChessTerms)
	for i := range v {
		v[i] = float64(t[i] * units[i])
	}
	return v
}

// chessTermsValue returns the positional terms' part of p's value for pov
// in pawns, with the per-count values v: the sum in storage order of
// v[i]*feature[i].
func chessTermsValue(p *chess.Position, pov game.Player, v []float64) float64 {
	f := chessTermFeatures(p, pov)
	sum := 0.0
	for i, x := range v {
		sum += float64(x * float64(f[i]))
	}
	return sum
}

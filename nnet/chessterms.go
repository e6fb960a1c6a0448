package nnet

import (
	"fmt"
	"math/bits"

	"evolved/game"
	"evolved/game/chess"
)

// Chess positional terms (EvolveTerms, EvolveMoreTerms).
//
// Each term counts a feature of the position for each side, and adds
// weight*unit*(pov's count - the opponent's count) pawns to the value. The
// weight is what evolves, starting at 0; the unit is the term's rough
// textbook value, so a weight of 1 values the feature as a classical
// hand-written evaluation would, and mutation steps every term by the
// same fraction of its own unit. The first NumBasicChessTerms are those of
// EvolveTerms; EvolveMoreTerms adds the rest. The features, for one side:
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
//	    knights, bishops, rooks and queens attack, counted once per piece;
//
// and with EvolveMoreTerms:
//
//	pawn threats: enemy knights, bishops, rooks and queens the side's
//	    pawns attack;
//	hanging pieces: enemy knights, bishops, rooks and queens the side
//	    attacks (with any piece) and no enemy piece defends;
//	minor threats: enemy rooks and queens the side's knights and bishops
//	    attack, plus enemy queens its rooks attack;
//	rooks on the seventh: the side's rooks on its seventh rank;
//	outposts: the side's knights and bishops on its fourth to sixth
//	    ranks, defended by one of its pawns, on a square no enemy pawn can
//	    ever attack (none on the files beside it, ahead of it);
//	tempo: 1 for the side to move;
//	passed pawns in the endgame: the passed pawns' count times 24 - phase,
//	    phase = knights and bishops + 2 a rook + 4 a queen, both sides', at
//	    most 24 (so 0 with everything on the board, 24 in a pawn ending);
//	king attackers: the king attack count times the number of the side's
//	    pieces that attack a square next to the enemy king (attacks by
//	    several pieces together count more than their sum);
//	connected pawns: the side's pawns defended by one of its pawns or with
//	    one of its pawns beside them on the same rank;
//
// and with EvolveKingDanger, king safety as a table rather than a line:
//
//	king danger k, for k = 1 .. NumKingDangerTerms: 1 when the side's king
//	    attack count (the king attack term's feature) is k, the last when
//	    it is k or more; 0 otherwise. Their weights form a table of what
//	    an attack of each weight is worth, which may rise steeply where a
//	    linear term cannot (engines' king danger tables do).

// NumBasicChessTerms is the number of positional terms of EvolveTerms.
const NumBasicChessTerms = 12

// NumMoreChessTerms is the number of positional terms of EvolveTerms
// with EvolveMoreTerms: the basic terms, then nine more.
const NumMoreChessTerms = 21

// NumKingDangerTerms is the number of king danger terms of
// EvolveKingDanger, after the more terms.
const NumKingDangerTerms = 15

// NumChessTerms is the number of positional terms of EvolveTerms with
// EvolveMoreTerms and EvolveKingDanger: every chess term.
const NumChessTerms = NumMoreChessTerms + NumKingDangerTerms

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
	// EvolveMoreTerms
	termPawnThreats
	termHanging
	termMinorThreats
	termRookSeventh
	termOutposts
	termTempo
	termPassedEndgame
	termKingAttackers
	termConnectedPawns
	// EvolveKingDanger: NumKingDangerTerms of them, for attack counts 1, 2, ...
	termKingDanger
)

// ChessTermNames returns the names of the positional terms, in storage
// order.
func ChessTermNames() [NumChessTerms]string {
	names := [NumChessTerms]string{
		"knight mobility", "bishop mobility", "rook mobility", "queen mobility",
		"bishop pair", "passed pawns", "doubled pawns", "isolated pawns",
		"rook on open file", "rook on half-open file", "king shelter", "king attack",
		"pawn threats", "hanging pieces", "minor threats", "rook on seventh",
		"outposts", "tempo", "passed pawns in endgame", "king attackers", "connected pawns",
	}
	for k := range NumKingDangerTerms {
		names[termKingDanger+k] = fmt.Sprintf("king danger %d", k+1)
	}
	names[NumChessTerms-1] += "+"
	return names
}

// ChessTermUnits returns the unit of each positional term in pawns per
// count of its feature, in storage order: a weight of 1 values the
// feature at this. They are the rough magnitudes of classical hand-made
// evaluations: 0.04, 0.05, 0.03 and 0.01 a square of knight, bishop, rook
// and queen mobility; 0.4 for the bishop pair; 1/36 per a*a of a passed
// pawn (1 pawn on its seventh rank, 0.25 on its fourth); -0.15 for a
// doubled and for an isolated pawn; 0.2 and 0.1 for a rook on an open and
// a half-open file; 0.05 a shelter pawn and an attacked square next to
// the enemy king; 0.5 a pawn threat; 0.3 a hanging piece and a minor
// threat; 0.2 a rook on the seventh and an outpost; 0.1 the tempo; 1/36/24
// for the endgame passers (a passer on the seventh another pawn in a pawn
// ending); 0.02 for the king attackers; 0.1 a connected pawn; 0.5 each
// king danger entry, so that the table's steps (a tenth of a unit at the
// chess default) move it by 5 hundredths of a pawn.
func ChessTermUnits() [NumChessTerms]float64 {
	units := [NumChessTerms]float64{
		0.04, 0.05, 0.03, 0.01, 0.4, 1.0 / 36, -0.15, -0.15, 0.2, 0.1, 0.05, 0.05,
		0.5, 0.3, 0.3, 0.2, 0.2, 0.1, 1.0 / 36 / 24, 0.02, 0.1,
	}
	for k := range NumKingDangerTerms {
		units[termKingDanger+k] = 0.5
	}
	return units
}

// ChessTermFeatures returns the positional features of p (see above) as
// pov's count minus the opponent's, in storage order.
func ChessTermFeatures(p chess.Position, pov game.Player) [NumChessTerms]int {
	return chessTermFeatures(&p, pov, NumChessTerms)
}

// attackSets holds what one side's pieces attack, as the terms need it.
type attackSets struct {
	pawns    chess.Bitboard // attacked by its pawns
	minors   chess.Bitboard // by its knights and bishops
	rooks    chess.Bitboard // by its rooks
	all      chess.Bitboard // by any of its pieces, the king included
	mobility [4]int         // knight, bishop, rook and queen mobility
	zone     int            // attacks on the squares next to the enemy king
	raiders  int            // pieces attacking such a square
}

// chessTermFeatures returns the first n (NumBasicChessTerms,
// NumMoreChessTerms or NumChessTerms) features of p as pov's count minus
// the opponent's; the rest are 0.
func chessTermFeatures(p *chess.Position, pov game.Player, n int) [NumChessTerms]int {
	us, them := pov&1, pov&1^1
	var a [2]attackSets
	a[0].pawns = chess.PawnAttacksOf(0, p.Pieces(0, chess.Pawn))
	a[1].pawns = chess.PawnAttacksOf(1, p.Pieces(1, chess.Pawn))
	pieceAttacks(p, 0, &a[0], a[1].pawns)
	pieceAttacks(p, 1, &a[1], a[0].pawns)
	var f [NumChessTerms]int
	sideFeatures(p, us, &a, n, &f, 1)
	sideFeatures(p, them, &a, n, &f, -1)
	return f
}

// pieceAttacks fills in a, whose pawns are set, with what c's other pieces
// attack, given theirPawns, what the enemy pawns attack.
func pieceAttacks(p *chess.Position, c game.Player, a *attackSets, theirPawns chess.Bitboard) {
	occ := p.Occupied()
	safe := ^p.Color(c) &^ theirPawns
	zone := chess.KingAttacks(p.King(c ^ 1))
	count := func(att chess.Bitboard, mobility *int) {
		*mobility += (att & safe).Count()
		if z := (att & zone).Count(); z > 0 {
			a.zone += z
			a.raiders++
		}
		a.all |= att
	}
	for b := p.Pieces(c, chess.Knight); b != 0; b &= b - 1 {
		att := chess.KnightAttacks(b.First())
		a.minors |= att
		count(att, &a.mobility[0])
	}
	for b := p.Pieces(c, chess.Bishop); b != 0; b &= b - 1 {
		att := chess.BishopAttacks(b.First(), occ)
		a.minors |= att
		count(att, &a.mobility[1])
	}
	for b := p.Pieces(c, chess.Rook); b != 0; b &= b - 1 {
		att := chess.RookAttacks(b.First(), occ)
		a.rooks |= att
		count(att, &a.mobility[2])
	}
	for b := p.Pieces(c, chess.Queen); b != 0; b &= b - 1 {
		s := b.First()
		count(chess.BishopAttacks(s, occ)|chess.RookAttacks(s, occ), &a.mobility[3])
	}
	a.all |= a.pawns | chess.KingAttacks(p.King(c))
}

// sideFeatures adds sign (1 or -1) times the first n positional features
// of side us in p, given both sides' attacks a, to f. Adding each side's
// counts in place, rather than returning them for the caller to subtract,
// spares two copies of the array and a pass over it.
func sideFeatures(p *chess.Position, us game.Player, a *[2]attackSets, n int, f *[NumChessTerms]int, sign int) {
	them := us ^ 1
	ours := &a[us]
	ourPawns, theirPawns := p.Pieces(us, chess.Pawn), p.Pieces(them, chess.Pawn)
	f[termKnightMobility] += sign * ours.mobility[0]
	f[termBishopMobility] += sign * ours.mobility[1]
	f[termRookMobility] += sign * ours.mobility[2]
	f[termQueenMobility] += sign * ours.mobility[3]
	f[termKingAttack] += sign * ours.zone
	rooks := p.Pieces(us, chess.Rook)
	for b := rooks; b != 0; b &= b - 1 {
		if file := chess.FileMask(b.First().File()); file&ourPawns == 0 {
			if file&theirPawns == 0 {
				f[termRookOpenFile] += sign
			} else {
				f[termRookHalfOpenFile] += sign
			}
		}
	}
	if p.Pieces(us, chess.Bishop).Count() >= 2 {
		f[termBishopPair] += sign
	}
	files := fileSet(ourPawns)
	f[termDoubledPawns] += sign * (ourPawns.Count() - bits.OnesCount8(files))
	isolated := files &^ (files<<1 | files>>1)
	f[termIsolatedPawns] += sign * (ourPawns & fillFiles(isolated)).Count()
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
	passed := 0
	for b := ourPawns &^ held; b != 0; b &= b - 1 {
		passed += square(relativeRank(us, b.First()))
	}
	f[termPassedPawns] += sign * passed
	k := p.King(us)
	shelter := besideFiles(k.File()) | chess.FileMask(k.File())
	if us == chess.White {
		shelter &= rankMask(k.Rank()+1) | rankMask(k.Rank()+2)
	} else {
		shelter &= rankMask(k.Rank()-1) | rankMask(k.Rank()-2)
	}
	f[termKingShelter] += sign * (shelter & ourPawns).Count()
	if n <= NumBasicChessTerms {
		return
	}

	targets := p.Color(them) &^ theirPawns &^ p.Pieces(them, chess.King)
	f[termPawnThreats] += sign * (ours.pawns & targets).Count()
	f[termHanging] += sign * (ours.all &^ a[them].all & targets).Count()
	queens := p.Pieces(them, chess.Queen)
	f[termMinorThreats] += sign * ((ours.minors & (p.Pieces(them, chess.Rook) | queens)).Count() + (ours.rooks & queens).Count())
	f[termRookSeventh] += sign * (rooks & relativeRankMask(us, 6)).Count()
	minors := p.Pieces(us, chess.Knight) | p.Pieces(us, chess.Bishop)
	outposts := relativeRankMask(us, 3) | relativeRankMask(us, 4) | relativeRankMask(us, 5)
	f[termOutposts] += sign * (minors & outposts & ours.pawns &^ aheadOf(them, a[them].pawns)).Count()
	if p.Side() == us {
		f[termTempo] += sign
	}
	f[termPassedEndgame] += sign * passed * (24 - chessPhase(p))
	f[termKingAttackers] += sign * ours.zone * ours.raiders
	beside := ourPawns<<1&^chess.FileMask(0) | ourPawns>>1&^chess.FileMask(7)
	f[termConnectedPawns] += sign * (ourPawns & (ours.pawns | beside)).Count()
	if n <= NumMoreChessTerms {
		return
	}
	if ours.zone > 0 {
		f[termKingDanger+min(ours.zone, NumKingDangerTerms)-1] += sign
	}
}

// chessPhase returns how much of the pieces is left on p's board: 1 a
// knight or bishop, 2 a rook, 4 a queen, both sides', at most 24 (the
// starting count).
func chessPhase(p *chess.Position) int {
	count := func(pt chess.PieceType) int { return (p.Pieces(0, pt) | p.Pieces(1, pt)).Count() }
	return min(24, count(chess.Knight)+count(chess.Bishop)+2*count(chess.Rook)+4*count(chess.Queen))
}

// aheadOf returns b and every square ahead of one of its squares as side
// c moves: towards rank 8 for White, rank 1 for Black.
func aheadOf(c game.Player, b chess.Bitboard) chess.Bitboard {
	if c == chess.White {
		return northFill(b)
	}
	return southFill(b)
}

// relativeRank returns the rank of s as side c counts them: 0 its first
// rank .. 7 its eighth.
func relativeRank(c game.Player, s chess.Square) int {
	if c == chess.Black {
		return 7 - s.Rank()
	}
	return s.Rank()
}

// relativeRankMask returns the squares of side c's rank r (0 its first).
func relativeRankMask(c game.Player, r int) chess.Bitboard {
	if c == chess.Black {
		return rankMask(7 - r)
	}
	return rankMask(r)
}

// square returns x*x.
func square(x int) int { return x * x }

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
// ChessTermUnits, in storage order: zeros for the terms n does not have
// (all without EvolveTerms or for a net of another game, those after
// NumBasicChessTerms without EvolveMoreTerms). With TaperedTerms they are
// the middlegame's weights (ChessEndgameTerms has the others).
func (n *Net) ChessTerms() [NumChessTerms]float64 {
	var t [NumChessTerms]float64
	if n.sizes[0] == NumChessInputs {
		copy(t[:], n.terms()[:n.TermCount()])
	}
	return t
}

// ChessEndgameTerms returns the endgame's weights of n's positional terms
// with TaperedTerms, as ChessTerms returns the middlegame's; without it
// the terms weigh the same in every phase, and it returns ChessTerms.
func (n *Net) ChessEndgameTerms() [NumChessTerms]float64 {
	if n.flags&TaperedTerms == 0 || n.sizes[0] != NumChessInputs {
		return n.ChessTerms()
	}
	var t [NumChessTerms]float64
	copy(t[:], n.terms()[n.TermCount():])
	return t
}

// WithChessTerms returns a copy of n with its positional terms' weights
// set to t (finite, in units of ChessTermUnits), in every phase with
// TaperedTerms. n must be a chess net
// with EvolveTerms, and EvolveMoreTerms unless the terms after NumBasicChessTerms are 0;
// otherwise the error wraps ErrArchitecture.
func (n *Net) WithChessTerms(t [NumChessTerms]float64) (*Net, error) {
	if n.sizes[0] != NumChessInputs || n.flags&EvolveTerms == 0 {
		return nil, fmt.Errorf("set positional terms: %w: a net of %d inputs with flags %v, want %d inputs with %v",
			ErrArchitecture, n.sizes[0], n.flags, NumChessInputs, EvolveTerms)
	}
	names := ChessTermNames()
	return n.withTerms(t[:], names[:], "set positional terms")
}

// withTerms returns a copy of n, a net with EvolveTerms, with its terms'
// weights set to t; the terms n does not have (those of EvolveMoreTerms
// without it) must be 0 in t. names names the terms and op the operation
// in errors.
func (n *Net) withTerms(t []float64, names []string, op string) (*Net, error) {
	c := n.Clone()
	terms := c.terms()
	k := n.TermCount()
	for i, w := range t {
		if i >= k {
			if w != 0 {
				needs := EvolveMoreTerms
				if i >= NumMoreChessTerms {
					needs = EvolveKingDanger
				}
				return nil, fmt.Errorf("%s: %w: %s needs %v, which flags %v lack", op, ErrArchitecture, names[i], needs, n.flags)
			}
			continue
		}
		terms[i] = round32(w)
		if len(terms) > k { // tapered: the endgame's too
			terms[k+i] = round32(w)
		}
	}
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return c, nil
}

// chessTermValues returns what one count of each of n's features is worth
// in pawns: its term weights times ChessTermUnits; nil without
// EvolveTerms.
func chessTermValues(n *Net) []float64 {
	units := ChessTermUnits()
	if n.flags&TaperedTerms != 0 {
		k := n.TermCount()
		return append(termValues(n.terms()[:k], units[:]), termValues(n.terms()[k:], units[:])...)
	}
	return termValues(n.terms(), units[:])
}

// termValues returns weights[i]*units[i] for each of the weights, what one
// count of each feature is worth in pawns; nil for no weights.
func termValues(weights, units []float64) []float64 {
	if weights == nil {
		return nil
	}
	v := make([]float64, len(weights))
	for i := range v {
		v[i] = float64(weights[i] * units[i])
	}
	return v
}

// termsSum returns the sum in order of v[i]*f[i] over v.
func termsSum(v []float64, f []int) float64 {
	sum := 0.0
	for i, x := range v {
		sum += float64(x * float64(f[i]))
	}
	return sum
}

// chessTermsValue returns the positional terms' part of p's value for pov
// in pawns, with the per-count values v of k terms (NumBasicChessTerms or
// NumChessTerms): the sum in storage order of v[i]*feature[i]; with
// TaperedTerms (2k values, the middlegame's then the endgame's) the two
// sums blended by the phase, (mg*phase + eg*(24-phase))/24.
func chessTermsValue(p *chess.Position, pov game.Player, v []float64, k int) float64 {
	f := chessTermFeatures(p, pov, k)
	if len(v) == k {
		return termsSum(v, f[:])
	}
	return taper(termsSum(v[:k], f[:]), termsSum(v[k:], f[:]), chessPhase(p))
}

// taper blends a middlegame and an endgame value by the phase (24 with
// every piece on the board, 0 with none; chessPhase), as the tapered terms
// and tables are: (mg*phase + eg*(24-phase))/24.
func taper(mg, eg float64, phase int) float64 {
	ph := float64(phase)
	return (float64(mg*ph) + float64(eg*(24-ph))) / 24
}

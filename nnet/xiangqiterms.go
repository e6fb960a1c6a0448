package nnet

import (
	"fmt"
	"math/bits"

	"evolved/game"
	"evolved/game/xiangqi"
)

// Xiangqi positional terms (EvolveTerms on a xiangqi net).
//
// As the chess terms do, each term counts a feature of the position for
// each side and adds weight*unit*(pov's count - the opponent's count)
// pawns to the value; the weight evolves from 0, the unit is the term's
// rough textbook value. The first seven are the classic program's
// activity terms (package classic), the others threats. The features, for
// one side (xiangqi.Position.Activity gives the moves and attacks):
//
//	horse, chariot, cannon and soldier mobility: the pseudo-legal moves
//	    of the side's pieces of that type;
//	control: the points the side attacks; those on the enemy half count
//	    again in the second term, those in the enemy palace in the third;
//	hanging pieces: enemy pieces other than the general that the side
//	    attacks and no enemy piece defends;
//	tempo: 1 for the side to move;
//	hollow cannons: 1 when the first piece in front of the enemy general
//	    on its file is one of the side's cannons (a cannon there mates with
//	    any screen that lands between);
//
// and with EvolveMoreTerms:
//
//	threats: enemy chariots the side attacks with a piece of lower value
//	    (anything but a chariot or the general), and enemy horses and
//	    cannons it attacks with a soldier, advisor or elephant;
//	palace attackers: the side's chariots, horses, cannons and soldiers
//	    that attack a point of the enemy palace;
//	attackers against missing defenders: the palace attackers times the
//	    enemy's missing advisors and elephants (4 less those left), so that
//	    an attack on a general stripped of its guards can weigh more than
//	    the sum of its parts;
//	connected soldiers: the side's soldiers across the river with another
//	    of its soldiers beside them on the same rank.

// NumXiangqiTerms is the number of positional terms of a xiangqi net with
// EvolveTerms and EvolveMoreTerms, NumBasicXiangqiTerms of them with
// EvolveTerms alone.
const (
	NumXiangqiTerms      = 14
	NumBasicXiangqiTerms = 10
)

// The xiangqi terms, in storage order.
const (
	xqTermHorseMobility = iota
	xqTermChariotMobility
	xqTermCannonMobility
	xqTermSoldierMobility
	xqTermControl
	xqTermControlEnemyHalf
	xqTermControlEnemyPalace
	xqTermHanging
	xqTermTempo
	xqTermHollowCannons
	// EvolveMoreTerms
	xqTermThreats
	xqTermPalaceAttackers
	xqTermAttackersVsDefenders
	xqTermConnectedSoldiers
)

// XiangqiTermNames returns the names of the xiangqi positional terms, in
// storage order.
func XiangqiTermNames() [NumXiangqiTerms]string {
	return [NumXiangqiTerms]string{
		"horse mobility", "chariot mobility", "cannon mobility", "soldier mobility",
		"control", "control of the enemy half", "control of the enemy palace",
		"hanging pieces", "tempo", "hollow cannons",
		"threats by lower-valued pieces", "palace attackers", "palace attackers times missing defenders", "connected soldiers",
	}
}

// XiangqiTermUnits returns the unit of each xiangqi positional term in
// pawns per count of its feature, in storage order. The activity terms'
// are the classic program's weights in pawns (600 of its units, WeightStrength
// times a strength of 100): 0.02 a horse move, 0.01 a chariot or cannon
// move, 0.025 a soldier move, 0.002 an attacked point, again on the enemy
// half and again in the enemy palace. The others are 0.3 a hanging piece,
// 0.1 the tempo and 0.5 a hollow cannon; of the more terms 0.3 a threat,
// 0.1 a palace attacker, 0.05 an attacker per missing defender and 0.1 a
// connected soldier.
func XiangqiTermUnits() [NumXiangqiTerms]float64 {
	return [NumXiangqiTerms]float64{0.02, 0.01, 0.01, 0.025, 0.002, 0.002, 0.002, 0.3, 0.1, 0.5, 0.3, 0.1, 0.05, 0.1}
}

// XiangqiTermFeatures returns the positional features of p (see above) as
// pov's count minus the opponent's, in storage order.
func XiangqiTermFeatures(p xiangqi.Position, pov game.Player) [NumXiangqiTerms]int {
	return xiangqiTermFeatures(&p, pov, true)
}

// xiangqiTermFeatures is XiangqiTermFeatures on a pointer; without more
// the more terms are left 0.
func xiangqiTermFeatures(p *xiangqi.Position, pov game.Player, more bool) [NumXiangqiTerms]int {
	us, them := pov&1, pov&1^1
	var a [2]xiangqi.Activity
	var d *[2]xiangqi.PieceActivity // the by-type walk costs two fifths more: only where it is used
	if more {
		d = new([2]xiangqi.PieceActivity)
		a[0], d[0] = p.ActivityByType(xiangqi.Red)
		a[1], d[1] = p.ActivityByType(xiangqi.Black)
	} else {
		a = [2]xiangqi.Activity{p.Activity(xiangqi.Red), p.Activity(xiangqi.Black)}
	}
	ours, theirs := xiangqiSideFeatures(p, us, &a), xiangqiSideFeatures(p, them, &a)
	if d != nil {
		xiangqiMoreFeatures(&ours, us, d)
		xiangqiMoreFeatures(&theirs, them, d)
	}
	for i := range ours {
		ours[i] -= theirs[i]
	}
	return ours
}

// xiangqiSideFeatures counts the positional features of side us in p,
// given both sides' activity a, the basic terms.
func xiangqiSideFeatures(p *xiangqi.Position, us game.Player, a *[2]xiangqi.Activity) [NumXiangqiTerms]int {
	var f [NumXiangqiTerms]int
	them := us ^ 1
	ours := &a[us]
	f[xqTermHorseMobility] = ours.Moves[xiangqi.Horse]
	f[xqTermChariotMobility] = ours.Moves[xiangqi.Chariot]
	f[xqTermCannonMobility] = ours.Moves[xiangqi.Cannon]
	f[xqTermSoldierMobility] = ours.Moves[xiangqi.Soldier]
	f[xqTermControl] = ours.Attacks.Count()
	f[xqTermControlEnemyHalf] = ours.Attacks.And(xiangqi.Half(them)).Count()
	f[xqTermControlEnemyPalace] = ours.Attacks.And(xiangqi.Palace(them)).Count()
	defended, attacked := a[them].Attacks, p.Occupied(them).And(ours.Attacks)
	hanging := xiangqi.SquareSet{attacked[0] &^ defended[0], attacked[1] &^ defended[1]}
	g := p.General(them)
	f[xqTermHanging] = hanging.Count()
	if hanging.Has(g) {
		f[xqTermHanging]-- // the general is never a hanging piece
	}
	if p.Side() == us {
		f[xqTermTempo] = 1
	}
	// Walk away from the enemy general along its file: the first piece
	// met is a hollow cannon when it is one of ours.
	step := xiangqi.Files
	if them == xiangqi.Black {
		step = -xiangqi.Files // Black's general stands on the top ranks
	}
	for s := int(g) + step; s >= 0 && s < xiangqi.Squares; s += step {
		pt, c := p.PieceAt(xiangqi.Square(s))
		if pt == xiangqi.NoPieceType {
			continue
		}
		if pt == xiangqi.Cannon && c == us {
			f[xqTermHollowCannons] = 1
		}
		break
	}
	return f
}

// xiangqiMoreFeatures counts the more terms' features of side us into f,
// given both sides' activity by type d.
func xiangqiMoreFeatures(f *[NumXiangqiTerms]int, us game.Player, d *[2]xiangqi.PieceActivity) {
	them := us ^ 1
	mine, enemy := &d[us], &d[them]
	belowHorse := mine.ByType[xiangqi.Soldier].Or(mine.ByType[xiangqi.Advisor]).Or(mine.ByType[xiangqi.Elephant])
	belowChariot := belowHorse.Or(mine.ByType[xiangqi.Horse]).Or(mine.ByType[xiangqi.Cannon])
	f[xqTermThreats] = enemy.Pieces[xiangqi.Chariot].And(belowChariot).Count() +
		enemy.Pieces[xiangqi.Horse].Or(enemy.Pieces[xiangqi.Cannon]).And(belowHorse).Count()
	f[xqTermPalaceAttackers] = mine.PalaceAttackers
	missing := 4 - enemy.Pieces[xiangqi.Advisor].Count() - enemy.Pieces[xiangqi.Elephant].Count()
	f[xqTermAttackersVsDefenders] = mine.PalaceAttackers * max(missing, 0)
	crossed := mine.Pieces[xiangqi.Soldier].And(xiangqi.Half(them))
	for w, set := range crossed {
		for ; set != 0; set &= set - 1 {
			s := w*64 + bits.TrailingZeros64(set)
			file := s % xiangqi.Files
			if file > 0 && crossed.Has(xiangqi.Square(s-1)) || file < xiangqi.Files-1 && crossed.Has(xiangqi.Square(s+1)) {
				f[xqTermConnectedSoldiers]++
			}
		}
	}
}

// XiangqiTerms returns the weights of n's xiangqi positional terms in
// units of XiangqiTermUnits, in storage order; zeros without EvolveTerms
// or for a net of another game.
func (n *Net) XiangqiTerms() [NumXiangqiTerms]float64 {
	var t [NumXiangqiTerms]float64
	if n.isXiangqi() {
		copy(t[:], n.terms())
	}
	return t
}

// WithXiangqiTerms returns a copy of n with its xiangqi positional terms'
// weights set to t (finite, in units of XiangqiTermUnits). n must be a
// xiangqi net with EvolveTerms; otherwise the error wraps ErrArchitecture.
func (n *Net) WithXiangqiTerms(t [NumXiangqiTerms]float64) (*Net, error) {
	if !n.isXiangqi() || n.flags&EvolveTerms == 0 {
		return nil, fmt.Errorf("set xiangqi positional terms: %w: a net of %d inputs with flags %v, want %d inputs with %v",
			ErrArchitecture, n.sizes[0], n.flags, NumXiangqiInputs, EvolveTerms)
	}
	names := XiangqiTermNames()
	return n.withTerms(t[:], names[:], "set xiangqi positional terms")
}

// xiangqiTermValues returns what one count of each of n's xiangqi features
// is worth in pawns: its term weights times XiangqiTermUnits; nil without
// EvolveTerms.
func xiangqiTermValues(n *Net) []float64 {
	units := XiangqiTermUnits()
	return termValues(n.terms(), units[:])
}

// xiangqiTermsValue returns the positional terms' part of p's value for
// pov in pawns, with the per-count values v: the sum in storage order of
// v[i]*feature[i].
func xiangqiTermsValue(p *xiangqi.Position, pov game.Player, v []float64) float64 {
	f := xiangqiTermFeatures(p, pov, len(v) > NumBasicXiangqiTerms)
	return termsSum(v, f[:])
}

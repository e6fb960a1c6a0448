package metaheuristic

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"evolved/game"
	"evolved/game/chess"
)

// Weights are the piece values of the cost function, indexed by
// chess.PieceType (Pawn .. King). The zero Weights stands for
// DefaultWeights wherever a Config holds one.
type Weights [6]float64

// DefaultWeights returns the classic project's piece values: pawn 1,
// knight 5, bishop 5, rook 7, queen 10, king 1000. The king's value is what
// makes a mate dominate any material gain.
func DefaultWeights() Weights {
	return Weights{chess.Pawn: 1, chess.Knight: 5, chess.Bishop: 5, chess.Rook: 7, chess.Queen: 10, chess.King: 1000}
}

// ErrWeights means a weights text cannot be read.
var ErrWeights = errors.New("metaheuristic: bad piece weights")

// weightLetters are the piece letters of the weights text, by PieceType.
const weightLetters = "pnbrqk"

// ParseWeights reads weights written as "p=1,n=5,b=5,r=7,q=10,k=1000":
// comma-separated letter=value pairs (letters p, n, b, r, q, k in either
// case, values any finite number, spaces around items allowed). A partial
// list overrides the defaults only for the pieces it names, so "q=9"
// is the defaults with a queen worth 9; "" gives the defaults. A letter
// given twice is an error. Errors wrap ErrWeights and name the item.
func ParseWeights(s string) (Weights, error) {
	w := DefaultWeights()
	if strings.TrimSpace(s) == "" {
		return w, nil
	}
	var seen [6]bool
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		name, value, ok := strings.Cut(item, "=")
		if !ok {
			return Weights{}, fmt.Errorf("%w %q: %q is not piece=value", ErrWeights, s, item)
		}
		name = strings.ToLower(strings.TrimSpace(name))
		pt := strings.Index(weightLetters, name)
		if len(name) != 1 || pt < 0 {
			return Weights{}, fmt.Errorf("%w %q: %q is not one of p, n, b, r, q, k", ErrWeights, s, name)
		}
		if seen[pt] {
			return Weights{}, fmt.Errorf("%w %q: %s is given twice", ErrWeights, s, name)
		}
		seen[pt] = true
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return Weights{}, fmt.Errorf("%w %q: the value of %s, %q, is not a finite number", ErrWeights, s, name, strings.TrimSpace(value))
		}
		w[pt] = v
	}
	return w, nil
}

// String writes w as ParseWeights reads it, every piece named:
// "p=1,n=5,b=5,r=7,q=10,k=1000".
func (w Weights) String() string {
	var b strings.Builder
	for pt, v := range w {
		if pt > 0 {
			b.WriteByte(',')
		}
		b.WriteByte(weightLetters[pt])
		b.WriteByte('=')
		b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	}
	return b.String()
}

// orDefault returns w, or DefaultWeights for the zero Weights.
func (w Weights) orDefault() Weights {
	if w == (Weights{}) {
		return DefaultWeights()
	}
	return w
}

// Cost returns the cost of the position p from learner's side: the sum of
// the weights of learner's pieces minus those of the opponent's. A side
// that is checkmated in p counts as having lost its king, so that with the
// default weights a mate scores about +1000 for the learner who gives it
// and -1000 for the learner who suffers it, more than any material. Every
// other end (stalemate, a draw by rule, the turn limit) is scored by the
// material alone. Higher is better for the learner; the name "cost" is the
// classic project's.
func (w Weights) Cost(p *chess.Position, learner game.Player) float64 {
	opp := learner.Other()
	mated := p.InCheck() && p.CountMoves() == 0
	cost := 0.0
	for pt := chess.Pawn; pt <= chess.King; pt++ {
		own, theirs := p.Pieces(learner, pt).Count(), p.Pieces(opp, pt).Count()
		if pt == chess.King && mated {
			if p.Side() == learner {
				own--
			} else {
				theirs--
			}
		}
		cost += w[pt] * float64(own-theirs)
	}
	return cost
}

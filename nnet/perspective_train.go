package nnet

import (
	"fmt"

	"evolved/game"
	"evolved/game/chess"
	"evolved/game/xiangqi"
)

// What a trainer of perspective nets needs of this package: the features
// each point of view sees, and the way back from trained masters to a
// genome.

// PerspectivePieces is the most features a perspective net sees on from
// one point of view: the most pieces a chess or xiangqi position holds.
const PerspectivePieces = perspectivePieces

// ChessPerspectiveFeatures writes the features of a chess perspective net
// that are on in p from pov's point of view into f (see PerspectiveNet) and
// returns how many there are: the sums a trainer adds, as Evaluate does.
func ChessPerspectiveFeatures(p *chess.Position, pov game.Player, f *[PerspectivePieces]uint16) int {
	return chessFeatures(p, pov, f)
}

// XiangqiPerspectiveFeatures is ChessPerspectiveFeatures for a xiangqi
// position and net.
func XiangqiPerspectiveFeatures(p *xiangqi.Position, pov game.Player, f *[PerspectivePieces]uint16) int {
	return xiangqiFeatures(p, pov, f)
}

// WithPerspective returns a copy of the Perspective net n whose first and
// output layers are p's masters (the inverse of Perspective, which p's
// weights survive exactly when they lie within its clamps), its sigmas,
// flags and other weights n's. The error wraps ErrArchitecture when n has
// no Perspective flag or p's shape is not n's.
func (n *Net) WithPerspective(p *PerspectiveNet) (*Net, error) {
	if n.flags&Perspective == 0 {
		return nil, fmt.Errorf("with perspective: %w: flags %v, not a perspective net", ErrArchitecture, n.flags)
	}
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("with perspective: %w", err)
	}
	h, inputs := n.sizes[1], n.sizes[0]
	if p.Hidden != h || p.Inputs != inputs {
		return nil, fmt.Errorf("with perspective: %w: masters of %d inputs and width %d, genome of %d and %d",
			ErrArchitecture, p.Inputs, p.Hidden, inputs, h)
	}
	c := n.Clone()
	for i := range h {
		col := c.w[c.WeightIndex(1, i, 0):][:inputs]
		for f := range col {
			col[f] = float64(p.FeatureWeights[f*h+i])
		}
		c.w[c.BiasIndex(1, i)] = float64(p.FeatureBias[i])
	}
	out := c.w[c.WeightIndex(2, 0, 0):][:2*h]
	for i := range out {
		out[i] = float64(p.OutputWeights[i])
	}
	c.w[c.BiasIndex(2, 0)] = float64(p.OutputBias)
	return c, nil
}

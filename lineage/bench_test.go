package lineage_test

import (
	"testing"

	"evolved/lineage"
	"evolved/nnet"
	"evolved/seed"
)

// BenchmarkRebuildStep measures one step of a rebuild (a mutation, then
// the checksum that checks it) for each game's default net: a rebuild
// through keyframe_every operations costs at most that many steps per
// genome on its path.
func BenchmarkRebuildStep(b *testing.B) {
	for _, c := range []struct {
		name string
		net  func() (*nnet.Net, error)
	}{
		{"draughts", func() (*nnet.Net, error) {
			return nnet.Random([]int{nnet.NumDraughtsInputs, 40, 10, 1}, nnet.SelfAdaptive|nnet.EvolveKing, seed.Rand(1, "draughts", 0, seed.Init, 0))
		}},
		{"chess", func() (*nnet.Net, error) {
			return nnet.RandomChess([]int{32, 8}, nnet.EvolvePST|nnet.EvolveTerms, seed.Rand(1, "chess", 0, seed.Init, 0))
		}},
		{"chess/perspective256", func() (*nnet.Net, error) {
			return nnet.Random([]int{nnet.NumChessInputs, nnet.DefaultPerspectiveHidden, 1}, nnet.Perspective|nnet.EvolvePieceValues|nnet.EvolvePST|nnet.EvolveTerms, seed.Rand(1, "chess", 0, seed.Init, 0))
		}},
		{"xiangqi", func() (*nnet.Net, error) {
			return nnet.RandomXiangqi([]int{32, 8}, nnet.EvolvePST|nnet.EvolveTerms, seed.Rand(1, "xiangqi", 0, seed.Init, 0))
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			parent, err := c.net()
			if err != nil {
				b.Fatal(err)
			}
			r := lineage.Recipe{Op: lineage.Mutation}
			steps := nnet.Steps{Net: 1, Tables: 1}
			for i := 0; b.Loop(); i++ {
				n, _, err := r.Make(1, c.name, i, steps, parent)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := lineage.Sum(n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package elo

import (
	"math"
	"testing"
)

func TestPoolMaximumLikelihood(t *testing.T) {
	// Two players, A scores 75% over 4000 games: the estimate must approach
	// the 190.85 Elo gap (the prior's one virtual draw each is negligible).
	var games []Game
	for i := range 4000 {
		s := 0.0
		if i%4 != 0 {
			s = 1
		}
		games = append(games, Game{First: 0, Second: 1, Score: s})
	}
	r := Pool(2, games)
	if gap := r[0].Elo - r[1].Elo; math.Abs(gap-190.85) > 1 {
		t.Errorf("gap %.2f, want 190.85 ± 1", gap)
	}
	if math.Abs(r[0].Elo+r[1].Elo) > 1e-9 {
		t.Errorf("ratings %v do not have mean 0", r)
	}
	// Three players in a chain, A > B > C by 75% each: ML gives equal gaps,
	// and C - A about twice the gap.
	games = games[:0]
	for i := range 4000 {
		s := 0.0
		if i%4 != 0 {
			s = 1
		}
		games = append(games, Game{0, 1, s}, Game{1, 2, s})
	}
	r = Pool(3, games)
	g1, g2 := r[0].Elo-r[1].Elo, r[1].Elo-r[2].Elo
	if math.Abs(g1-g2) > 1 || math.Abs(g1-190.85) > 2 {
		t.Errorf("chain gaps %.2f and %.2f, want both about 190.85", g1, g2)
	}
	if !(r[1].HalfWidth < r[0].HalfWidth) {
		t.Errorf("the middle player, with twice the games, should be the best known: %+v", r)
	}
	// A player who won everything stays finite.
	r = Pool(2, []Game{{0, 1, 1}, {0, 1, 1}})
	if math.IsInf(r[0].Elo, 0) || math.IsNaN(r[0].Elo) || r[0].Elo <= 0 {
		t.Errorf("all wins: %+v", r)
	}
}

package rating

import (
	"math"
	"reflect"
	"testing"

	"evolved/game/draughts"
)

// fieldLadder is a ladder of three own players, random the origin, and
// three engine levels, weakest first, with opponents named so that name
// order differs from ladder order.
func fieldLadder() (*Ladder, []Opponent[draughts.Move, *draughts.Game]) {
	l := &Ladder{Game: "draughts", Engine: "engine", Origin: "random", Anchors: []Anchor{
		{Player: "random", Elo: 0},
		{EngineElo: 1350, Elo: 1350},
		{Player: "mcts:10", Elo: 220, HalfWidth: 30},
		{EngineElo: 1500, Elo: 1500},
		{Player: "material:1", Elo: 700, HalfWidth: 35},
		{EngineElo: 1700, Elo: 1700},
	}}
	names := []string{"random", "engine@1350", "mcts:10", "engine@1500", "material:1", "engine@1700"}
	all := make([]Opponent[draughts.Move, *draughts.Game], len(names))
	for i, n := range names {
		all[i] = Opponent[draughts.Move, *draughts.Game]{Name: n, Elo: l.Anchors[i].Elo}
	}
	return l, all
}

// TestCalibrationField checks who takes part, in name order, with the
// origin held at 0, the own players free and the lowest engine levels
// fixed, and the games they play.
func TestCalibrationField(t *testing.T) {
	l, all := fieldLadder()
	players, index := CalibrationField(l, all, 2)
	var names []string
	var elos []float64
	for _, p := range players {
		names = append(names, p.Name)
		elos = append(elos, p.Elo)
	}
	wantNames := []string{"engine@1350", "engine@1500", "material:1", "mcts:10", "random"}
	if !reflect.DeepEqual(names, wantNames) || !reflect.DeepEqual(index, []int{1, 3, 4, 2, 0}) {
		t.Errorf("CalibrationField = %q at anchors %v, want %q at [1 3 4 2 0]", names, index, wantNames)
	}
	if elos[0] != 1350 || elos[1] != 1500 || !math.IsNaN(elos[2]) || !math.IsNaN(elos[3]) || elos[4] != 0 {
		t.Errorf("CalibrationField's Elos = %v, want [1350 1500 NaN NaN 0]", elos)
	}
	// Ten meetings among five players, less the three among the fixed
	// ones (two engine levels and the origin), at three pairs of games.
	if got := CalibrationGames(players, 3); got != 42 {
		t.Errorf("CalibrationGames(3 pairs) = %d, want 42", got)
	}
}

// TestInLadderOrder checks that fitted ratings go back to their anchors
// and that the anchors left out keep their own.
func TestInLadderOrder(t *testing.T) {
	l, _ := fieldLadder()
	cal := Calibration{Games: 42, Ratings: []Rated{{Elo: 1350}, {Elo: 1500}, {Elo: 750, HalfWidth: 20}, {Elo: 240, HalfWidth: 25}, {Elo: 0}}}
	got := l.InLadderOrder(cal, []int{1, 3, 4, 2, 0})
	want := []Rated{{Elo: 0}, {Elo: 1350}, {Elo: 240, HalfWidth: 25}, {Elo: 1500}, {Elo: 750, HalfWidth: 20}, {Elo: 1700}}
	if got.Games != 42 || !reflect.DeepEqual(got.Ratings, want) {
		t.Errorf("InLadderOrder = %d games, %+v, want 42 games, %+v", got.Games, got.Ratings, want)
	}
}

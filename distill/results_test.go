package distill

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"evolved/game"
	"evolved/game/chess"
	"evolved/game/draughts"
	"evolved/nnet"
)

// TestTargetByHand: a search's win probability 0.6 with a quarter of the
// target from the result is 0.75*0.6 + 0.25*score, the score the side to
// move's.
func TestTargetByHand(t *testing.T) {
	o := Options{Results: 0.25}
	for _, c := range []struct {
		res  game.Result
		side game.Player
		want float64
	}{
		{game.FirstWins, game.First, 0.7},
		{game.FirstWins, game.Second, 0.45},
		{game.SecondWins, game.First, 0.45},
		{game.SecondWins, game.Second, 0.7},
		{game.Draw, game.First, 0.575},
		{game.Draw, game.Second, 0.575},
		{game.Ongoing, game.First, 0.6},
	} {
		if got := o.target(0.6, c.res, c.side); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("%v, %v to move: %v, want %v", c.res, c.side, got, c.want)
		}
	}
	if got := (Options{}).target(0.6, game.FirstWins, game.First); got != 0.6 {
		t.Errorf("no share of the results: %v, want 0.6", got)
	}
}

// TestTDTargetsByHand: two games, the first of three quiet positions
// (White, Black, White to move; searches 0.6, 0.3 and 0.8 for the side to
// move, so 0.6, 0.7 and 0.8 for White), the second of one (Black to move,
// 0.4). At lambda 1/2, backwards from White's win: 0.9, 0.8, 0.7 for
// White, so targets 0.7, 0.2, 0.9; the drawn game's 0.6 for White with
// the draw gives 0.55, 0.45 for Black. With the first game's result
// unknown its last position looks ahead to itself: 0.8, 0.75, 0.675.
func TestTDTargetsByHand(t *testing.T) {
	q := []float64{0.6, 0.3, 0.8, 0.4}
	sides := []game.Player{game.First, game.Second, game.First, game.Second}
	from := []int{0, 0, 0, 1}
	for _, c := range []struct {
		first game.Result
		want  []float64
	}{
		{game.FirstWins, []float64{0.7, 0.2, 0.9, 0.45}},
		{game.Ongoing, []float64{0.675, 0.25, 0.8, 0.45}},
	} {
		results := []game.Result{c.first, game.Draw}
		got := Options{Lambda: 0.5}.targets(q, sides, from, func(g int) game.Result { return results[g] })
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("first game %v: targets %v, want %v", c.first, got, c.want)
				break
			}
		}
		if got := (Options{}).targets(q, sides, from, func(g int) game.Result { return results[g] }); !slices.Equal(got, q) {
			t.Errorf("lambda 0: targets %v, want the searches' %v", got, q)
		}
	}
}

// TestLambdaChangesTheFits: both fits take their targets through Lambda
// (the targets themselves are checked by hand above).
func TestLambdaChangesTheFits(t *testing.T) {
	student := testNet(t, 6)
	games := randomGames(t, 7, 20, 60)
	a, _, err := Fit(context.Background(), student, games, staticScorer(t, student), Options{Steps: 10})
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := Fit(context.Background(), student, games, staticScorer(t, student), Options{Steps: 10, Lambda: 0.7})
	if err != nil {
		t.Fatal(err)
	}
	if a.Equal(b) {
		t.Error("chess: lambda 0.7 fitted the genome of lambda 0")
	}
	net, err := nnet.Random([]int{nnet.NumDraughtsInputs, 10, 4, 1}, nnet.PieceDiff, rand.New(rand.NewPCG(17, 18)))
	if err != nil {
		t.Fatal(err)
	}
	dg := randomDraughtsGames(8, 20, 60)
	c, _, err := FitDraughts(context.Background(), net, dg, draughtsStatic(t, net), Options{Steps: 2})
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := FitDraughts(context.Background(), net, dg, draughtsStatic(t, net), Options{Steps: 2, Lambda: 0.7})
	if err != nil {
		t.Fatal(err)
	}
	if c.Equal(d) {
		t.Error("draughts: lambda 0.7 fitted the net of lambda 0")
	}
}

// checkTowardsTheTeacher checks that a fit moved the evaluation of
// positions (moved, the change of a position's value) towards the
// teacher's (edge, the teacher's value less the genome's before): the
// cosine of the two over the positions must be above 0.3.
func checkTowardsTheTeacher[P any](t *testing.T, positions []P, moved, edge func(P) float64, rep Report) {
	t.Helper()
	var a, b []float64
	for _, p := range positions {
		a, b = append(a, moved(p)), append(b, edge(p))
	}
	c := cosine(a, b)
	t.Logf("%d positions; loss %.5f -> %.5f, moved %.4f; cosine of the change and the teacher's edge on other games %.3f", rep.Positions, rep.Before, rep.After, rep.Moved, c)
	if !(c > 0.3) {
		t.Errorf("the change's cosine with the teacher's edge is %.3f, want above 0.3", c)
	}
}

// cosine is the cosine of the angle between two vectors.
func cosine(a, b []float64) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += a[i] * b[i]
		aa += a[i] * a[i]
		bb += b[i] * b[i]
	}
	return ab / math.Sqrt(aa*bb)
}

// resultsBy gives each game the result that a teacher's edge over the
// student says: the first player wins a game whose quiet positions the
// teacher values above the student on average (from the first player's
// point of view), the second player the others. diff is that edge in one
// position.
func resultsBy[P any](positions []P, from []int, games int, diff func(p P) float64) []game.Result {
	sum := make([]float64, games)
	for i, p := range positions {
		sum[from[i]] += diff(p)
	}
	out := make([]game.Result, games)
	for g, s := range sum {
		out[g] = game.SecondWins
		if s > 0 {
			out[g] = game.FirstWins
		}
	}
	return out
}

// TestFitLearnsFromResults fits a chess genome to results alone, its
// search being its own evaluation (which alone would teach it nothing),
// where each game's result is what a teacher's edge over the genome says.
// On other games the evaluation must move towards the teacher's (a
// positive cosine between the change and the difference); results ignored,
// or read from the wrong side, would leave it or turn it away. Games
// without a result must be as if results had no share.
func TestFitLearnsFromResults(t *testing.T) {
	student := testNet(t, 4)
	teach := teacher(t, student)
	es, err := nnet.NewChessEval(student)
	if err != nil {
		t.Fatal(err)
	}
	et, err := nnet.NewChessEval(teach)
	if err != nil {
		t.Fatal(err)
	}
	diff := func(p chess.Position) float64 { return et.Evaluate(p, game.First) - es.Evaluate(p, game.First) }
	train, test := randomGames(t, 4, 300, 90), randomGames(t, 5, 60, 90)
	positions, from, err := QuietPositions(train, 10)
	if err != nil {
		t.Fatal(err)
	}
	for g, r := range resultsBy(positions, from, len(train), diff) {
		train[g].Result = r
	}
	fitted, rep, err := Fit(context.Background(), student, train, staticScorer(t, student), Options{Steps: 150, Results: 1})
	if err != nil {
		t.Fatal(err)
	}
	ef, err := nnet.NewChessEval(fitted)
	if err != nil {
		t.Fatal(err)
	}
	testPositions, _, err := QuietPositions(test, 10)
	if err != nil {
		t.Fatal(err)
	}
	checkTowardsTheTeacher(t, testPositions, func(p chess.Position) float64 { return ef.Evaluate(p, game.First) - es.Evaluate(p, game.First) }, diff, rep)

	for g := range train {
		train[g].Result = game.Ongoing
	}
	a, _, err := Fit(context.Background(), student, train, staticScorer(t, teach), Options{Steps: 20, Results: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := Fit(context.Background(), student, train, staticScorer(t, teach), Options{Steps: 20})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Equal(b) {
		t.Error("games without a result changed the fit")
	}
}

// TestFitDraughtsLearnsFromResults is TestFitLearnsFromResults for a
// whole draughts net.
func TestFitDraughtsLearnsFromResults(t *testing.T) {
	student, teach := draughtsStudentAndTeacher(t, rand.New(rand.NewPCG(15, 16)))
	es, err := nnet.NewDraughtsEval(student)
	if err != nil {
		t.Fatal(err)
	}
	et, err := nnet.NewDraughtsEval(teach)
	if err != nil {
		t.Fatal(err)
	}
	diff := func(p draughts.Position) float64 { return et.Evaluate(p, game.First) - es.Evaluate(p, game.First) }
	train, test := randomDraughtsGames(5, 600, 80), randomDraughtsGames(6, 60, 80)
	positions, from, err := DraughtsQuietPositions(train, 10)
	if err != nil {
		t.Fatal(err)
	}
	for g, r := range resultsBy(positions, from, len(train), diff) {
		train[g].Result = r
	}
	fitted, rep, err := FitDraughts(context.Background(), student, train, draughtsStatic(t, student), Options{Steps: 5, Rate: 0.001, Results: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	ef, err := nnet.NewDraughtsEval(fitted)
	if err != nil {
		t.Fatal(err)
	}
	testPositions, _, err := DraughtsQuietPositions(test, 10)
	if err != nil {
		t.Fatal(err)
	}
	checkTowardsTheTeacher(t, testPositions, func(p draughts.Position) float64 { return ef.Evaluate(p, game.First) - es.Evaluate(p, game.First) }, diff, rep)

	for g := range train {
		train[g].Result = game.Ongoing
	}
	a, _, err := FitDraughts(context.Background(), student, train, draughtsStatic(t, teach), Options{Steps: 2, Results: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := FitDraughts(context.Background(), student, train, draughtsStatic(t, teach), Options{Steps: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Equal(b) {
		t.Error("games without a result changed the fit")
	}
}

// TestResultsOutOfRange: a share of the results or a lambda outside 0 to
// 1 is refused, naming it.
func TestResultsOutOfRange(t *testing.T) {
	student := testNet(t, 5)
	games := randomGames(t, 6, 2, 30)
	for _, r := range []float64{-0.1, 1.5, math.NaN()} {
		_, _, err := Fit(context.Background(), student, games, staticScorer(t, student), Options{Results: r})
		if err == nil || !strings.Contains(err.Error(), "share of the results") {
			t.Errorf("results %v: %v, want an error naming the share of the results", r, err)
		}
	}
	_, _, err := FitDraughts(context.Background(), student, nil, nil, Options{Results: 2})
	if err == nil || !strings.Contains(err.Error(), "share of the results") {
		t.Errorf("draughts, results 2: %v, want an error naming the share of the results", err)
	}
	for _, l := range []float64{-0.5, 1.01, math.NaN()} {
		_, _, err := Fit(context.Background(), student, games, staticScorer(t, student), Options{Lambda: l})
		if err == nil || !strings.Contains(err.Error(), "lambda must be 0 to 1") {
			t.Errorf("lambda %v: %v, want an error naming lambda", l, err)
		}
	}
}

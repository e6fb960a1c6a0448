package distill

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"evolved/game/draughts"
	"evolved/nnet"
)

// randomDraughtsGames plays count games of random legal moves, up to
// plies plies each.
func randomDraughtsGames(seed uint64, count, plies int) []DraughtsGame {
	rng := rand.New(rand.NewPCG(seed, 1))
	var buf []draughts.Move
	var games []DraughtsGame
	for range count {
		g := DraughtsGame{Start: draughts.Start()}
		p := g.Start
		for range plies {
			if buf = p.Moves(buf[:0]); len(buf) == 0 {
				break
			}
			m := buf[rng.IntN(len(buf))]
			g.Moves = append(g.Moves, m)
			p = p.Play(m)
		}
		games = append(games, g)
	}
	return games
}

// draughtsStatic scores a position by n's evaluation itself.
func draughtsStatic(t *testing.T, n *nnet.Net) func() DraughtsScorer {
	e, err := nnet.NewDraughtsEval(n)
	if err != nil {
		t.Fatal(err)
	}
	return func() DraughtsScorer {
		return func(_ context.Context, p draughts.Position) (float64, error) { return e.Evaluate(p, p.Side), nil }
	}
}

// draughtsStudentAndTeacher returns a random Blondie24 net (with
// self-adaptive steps) and the same net with every weight moved by
// N(0, 0.1^2).
func draughtsStudentAndTeacher(t *testing.T, rng *rand.Rand) (student, teacher *nnet.Net) {
	t.Helper()
	student, err := nnet.Random([]int{nnet.NumDraughtsInputs, 40, 10, 1}, nnet.PieceDiff|nnet.SelfAdaptive, rng)
	if err != nil {
		t.Fatal(err)
	}
	w := student.Weights()
	for i := range w {
		w[i] += 0.1 * rng.NormFloat64()
	}
	if teacher, err = student.WithWeights(w); err != nil {
		t.Fatal(err)
	}
	return student, teacher
}

// draughtsDistance is the root mean square difference of two nets' values
// over the quiet positions of games.
func draughtsDistance(t *testing.T, a, b *nnet.Net, games []DraughtsGame) float64 {
	t.Helper()
	positions, _, err := DraughtsQuietPositions(games, 10)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, p := range positions {
		d := a.Forward(nil, nnet.DraughtsInputs(nil, p, p.Side, a.King()), nnet.DraughtsPieceDiff(p, p.Side, a.King()))[0] -
			b.Forward(nil, nnet.DraughtsInputs(nil, p, p.Side, b.King()), nnet.DraughtsPieceDiff(p, p.Side, b.King()))[0]
		sum += d * d
	}
	return math.Sqrt(sum / float64(len(positions)))
}

// TestFitDraughtsLearnsTheTeacher fits a Blondie24 net to the values of
// another (the student with every weight moved): on positions of other
// games the fitted net's values must come within a third of the
// distance the student started from, every layer having moved, and the
// king value and mutation steps not at all.
func TestFitDraughtsLearnsTheTeacher(t *testing.T) {
	student, teach := draughtsStudentAndTeacher(t, rand.New(rand.NewPCG(11, 12)))
	train, test := randomDraughtsGames(1, 200, 80), randomDraughtsGames(2, 60, 80)
	fitted, rep, err := FitDraughts(context.Background(), student, train, draughtsStatic(t, teach), Options{Steps: 40, Rate: 0.003, L2: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	before, after := draughtsDistance(t, student, teach, test), draughtsDistance(t, fitted, teach, test)
	t.Logf("%d positions; loss %.6f -> %.6f; on other games the teacher is %.4f away before, %.4f after", rep.Positions, rep.Before, rep.After, before, after)
	if before < 0.05 {
		t.Fatalf("the teacher is only %.4f from the student: the test would show nothing", before)
	}
	if after > before/3 {
		t.Errorf("after the fit the net is %.4f from the teacher (%.4f before), want at most a third", after, before)
	}
	if !(rep.After < rep.Before/5) || rep.Moved <= 0 {
		t.Errorf("loss %.6f -> %.6f, moved %v: want the loss divided by 5 at least", rep.Before, rep.After, rep.Moved)
	}
	ws, wf := student.Weights(), fitted.Weights()
	movedIn := map[int]int{}
	for l := 1; l <= 3; l++ {
		for i := student.WeightIndex(l, 0, 0); i < student.BiasIndex(l, 0); i++ {
			if ws[i] != wf[i] {
				movedIn[l]++
			}
		}
	}
	if movedIn[1] < 1000 || movedIn[2] < 100 || movedIn[3] < 5 || wf[student.DirectIndex(0)] == ws[student.DirectIndex(0)] {
		t.Errorf("weights moved by layer: %v; the direct weight %v -> %v", movedIn, ws[student.DirectIndex(0)], wf[student.DirectIndex(0)])
	}
	if fitted.King() != student.King() {
		t.Errorf("king %v -> %v", student.King(), fitted.King())
	}
	ss, sf := student.Sigmas(), fitted.Sigmas()
	for i := range ss {
		if ss[i] != sf[i] {
			t.Fatalf("sigma %d moved", i)
		}
	}
}

// TestFitDraughtsIsDeterministic: the same games give the same net bit for
// bit at any number of workers.
func TestFitDraughtsIsDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	student, err := nnet.Random([]int{nnet.NumDraughtsInputs, 40, 10, 1}, nnet.PieceDiff, rng)
	if err != nil {
		t.Fatal(err)
	}
	teach := student.Mutated(rng)
	games := randomDraughtsGames(3, 30, 60)
	a, ra, err := FitDraughts(context.Background(), student, games, draughtsStatic(t, teach), Options{Steps: 3, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, rb, err := FitDraughts(context.Background(), student, games, draughtsStatic(t, teach), Options{Steps: 3, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Equal(b) || ra != rb {
		t.Errorf("one worker and three differ: %+v, %+v", ra, rb)
	}
	if a.Equal(student) {
		t.Error("the fit changed nothing")
	}
}

// TestDraughtsQuietPositionsByHand: 11-15 22-18 15x22 25x18 8-11 29-25.
// Black's 15x22 and White's recapture 25x18 are forced (captures are), so
// the positions before them are not quiet; those before 11-15, 22-18,
// 8-11 and 29-25 are (no capture on the board for the side to move).
func TestDraughtsQuietPositionsByHand(t *testing.T) {
	moves := []string{"11-15", "22-18", "15x22", "25x18", "8-11", "29-25"}
	g := DraughtsGame{Start: draughts.Start()}
	p := g.Start
	var fens []string
	for _, s := range moves {
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatalf("%s in %s: %v", s, p.FEN(), err)
		}
		fens = append(fens, p.FEN())
		g.Moves = append(g.Moves, m)
		p = p.Play(m)
	}
	got, _, err := DraughtsQuietPositions([]DraughtsGame{g}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{fens[0], fens[1], fens[4], fens[5]}
	if len(got) != len(want) {
		t.Fatalf("%d positions, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].FEN() != want[i] {
			t.Errorf("position %d: %s, want %s", i, got[i].FEN(), want[i])
		}
	}
	if got, _, _ := DraughtsQuietPositions([]DraughtsGame{g}, 3); len(got) != 2 || got[0].FEN() != fens[4] || got[1].FEN() != fens[5] {
		t.Errorf("from ply 3: %d positions, want those before 8-11 and 29-25", len(got))
	}
}

func TestFitDraughtsErrors(t *testing.T) {
	ctx := context.Background()
	games := randomDraughtsGames(4, 2, 30)
	n, err := nnet.Random([]int{nnet.NumDraughtsInputs, 5, 1}, nnet.PieceDiff, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	chessNet := testNet(t, 5)
	if _, _, err := FitDraughts(ctx, chessNet, games, draughtsStatic(t, n), Options{}); !errors.Is(err, nnet.ErrArchitecture) {
		t.Errorf("a chess net: %v, want ErrArchitecture", err)
	}
	persp, err := nnet.Random([]int{nnet.NumDraughtsPerspectiveInputs, 8, 1}, nnet.Perspective, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := FitDraughts(ctx, persp, games, draughtsStatic(t, n), Options{}); !errors.Is(err, nnet.ErrArchitecture) || !strings.Contains(err.Error(), "perspective") {
		t.Errorf("a draughts perspective net: %v, want ErrArchitecture naming it", err)
	}
	if _, _, err := FitDraughts(ctx, n, games, draughtsStatic(t, n), Options{SkipPlies: 100}); !errors.Is(err, ErrNothingToFit) {
		t.Errorf("no position past the skipped plies: %v, want ErrNothingToFit", err)
	}
	bad := DraughtsGame{Start: draughts.Start(), Moves: []draughts.Move{games[0].Moves[0], games[0].Moves[0]}}
	if _, _, err := FitDraughts(ctx, n, []DraughtsGame{bad}, draughtsStatic(t, n), Options{SkipPlies: 1}); err == nil || !strings.Contains(err.Error(), "ply 1") {
		t.Errorf("an illegal move: %v, want an error naming ply 1", err)
	}
	failing := func() DraughtsScorer {
		return func(context.Context, draughts.Position) (float64, error) { return 0, errors.New("search gone") }
	}
	if _, _, err := FitDraughts(ctx, n, games, failing, Options{}); err == nil || !strings.Contains(err.Error(), "search gone") {
		t.Errorf("a failing search: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	slow := func() DraughtsScorer {
		return func(ctx context.Context, _ draughts.Position) (float64, error) { return 0, ctx.Err() }
	}
	if _, _, err := FitDraughts(cancelled, n, games, slow, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled fit: %v", err)
	}
}

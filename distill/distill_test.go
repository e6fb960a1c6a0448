package distill

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"evolved/game/chess"
	"evolved/game/xiangqi"
	"evolved/nnet"
)

// randomGames plays count games of random legal moves, preferring quiet
// ones, up to plies plies each.
func randomGames(t *testing.T, seed uint64, count, plies int) []Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	buf := make([]chess.Move, 0, chess.MaxMoves)
	var games []Game
	for range count {
		g := Game{Start: chess.Start()}
		p := g.Start
		for range plies {
			buf = p.LegalMoves(buf[:0])
			if len(buf) == 0 {
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

func testNet(t *testing.T, seed uint64) *nnet.Net {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 2))
	n, err := nnet.RandomChess([]int{8}, nnet.EvolvePieceValues|nnet.EvolvePST|nnet.EvolveTerms|nnet.EvolveMoreTerms, rng)
	if err != nil {
		t.Fatal(err)
	}
	return n.Mutated(rng)
}

// teacher returns n with its linear weights moved: other piece values,
// tables and terms, the kind of genome a fit should find its way to.
func teacher(t *testing.T, n *nnet.Net) *nnet.Net {
	t.Helper()
	v := n.PieceValues()
	v[chess.Knight] += 0.6
	v[chess.Rook] -= 0.5
	m, err := n.WithPieceValues(v)
	if err != nil {
		t.Fatal(err)
	}
	terms := m.ChessTerms()
	terms[0] += 1.5 // knight mobility
	terms[5] -= 1   // passed pawns
	if m, err = m.WithChessTerms(terms); err != nil {
		t.Fatal(err)
	}
	pst, _ := m.PST()
	for s := 16; s < 48; s++ {
		pst[nnet.PSTIndex(int(chess.Pawn), s)] += 0.02 * float64(s/8)
	}
	w := m.Weights()
	copy(w[len(w)-nnet.NumPieceValues-m.TermCount()-nnet.NumPSTValues:], pst[:])
	if m, err = m.WithWeights(w); err != nil {
		t.Fatal(err)
	}
	return m
}

// staticScorer scores a position by n's evaluation itself, a "search" of
// depth 0.
func staticScorer(t *testing.T, n *nnet.Net) func() Scorer {
	e, err := nnet.NewChessEval(n)
	if err != nil {
		t.Fatal(err)
	}
	return func() Scorer {
		return func(_ context.Context, p chess.Position) (float64, error) { return e.Evaluate(p, p.Side()), nil }
	}
}

// rmsDifference is the root mean square difference of two nets'
// evaluations over the quiet positions of games.
func rmsDifference(t *testing.T, a, b *nnet.Net, games []Game) float64 {
	t.Helper()
	ea, err := nnet.NewChessEval(a)
	if err != nil {
		t.Fatal(err)
	}
	eb, err := nnet.NewChessEval(b)
	if err != nil {
		t.Fatal(err)
	}
	positions, _, err := QuietPositions(games, 10)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, p := range positions {
		d := ea.Evaluate(p, p.Side()) - eb.Evaluate(p, p.Side())
		sum += d * d
	}
	return math.Sqrt(sum / float64(len(positions)))
}

// TestFitLearnsTheTeacher fits a genome to the values of a teacher that
// differs from it only in its linear weights: on positions of other games
// the fitted genome's evaluation must come close to the teacher's, much
// closer than the genome was, and the net's hidden layers must not move.
func TestFitLearnsTheTeacher(t *testing.T) {
	student := testNet(t, 1)
	teach := teacher(t, student)
	train, test := randomGames(t, 1, 150, 90), randomGames(t, 2, 60, 90)
	fitted, rep, err := Fit(context.Background(), student, train, staticScorer(t, teach), Options{Steps: 400, Rate: 0.02, L2: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	before, after := rmsDifference(t, student, teach, test), rmsDifference(t, fitted, teach, test)
	t.Logf("%d positions; loss %.6f -> %.6f; on other games the teacher's value is %.3f pawns away before, %.3f after", rep.Positions, rep.Before, rep.After, before, after)
	if before < 0.3 {
		t.Fatalf("the teacher is only %.3f pawns from the student: the test would show nothing", before)
	}
	if after > before/5 {
		t.Errorf("after the fit the evaluation is %.3f pawns from the teacher's (%.3f before), want at most a fifth", after, before)
	}
	if !(rep.After < rep.Before/5) {
		t.Errorf("loss %.6f -> %.6f, want it divided by 5 at least", rep.Before, rep.After)
	}
	if rep.Moved <= 0 {
		t.Errorf("moved %v", rep.Moved)
	}
	ws, wf := student.Weights(), fitted.Weights()
	linear := nnet.NumPieceValues + nnet.NumPSTValues + student.TermCount()
	for i := range len(ws) - linear {
		if ws[i] != wf[i] {
			t.Fatalf("weight %d of the hidden layers moved: %v -> %v", i, ws[i], wf[i])
		}
	}
	v := fitted.PieceValues()
	want := teach.PieceValues()
	// The knight's value and its table are one direction, and so are the
	// rook's; what the fit must get is the sign of the change.
	if v[chess.Knight] <= student.PieceValues()[chess.Knight] || v[chess.Rook] >= student.PieceValues()[chess.Rook] {
		t.Errorf("piece values %v from %v, the teacher's %v: the knight should rise and the rook fall", v, student.PieceValues(), want)
	}
}

// TestFitIsDeterministic: the same games give the same genome bit for bit
// at any number of workers.
func TestFitIsDeterministic(t *testing.T) {
	student := testNet(t, 3)
	games := randomGames(t, 3, 40, 80)
	scorer := staticScorer(t, teacher(t, student))
	a, ra, err := Fit(context.Background(), student, games, scorer, Options{Steps: 30, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, rb, err := Fit(context.Background(), student, games, scorer, Options{Steps: 30, Workers: 3})
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

// TestFitSearchesElsewhere runs a fit's searches through Options.Search,
// as a cluster's workers do (each position read back from its FEN and
// scored by the same scorer): the fitted genome is the local fit's bit for
// bit, and Progress hears of every position. A Search that gives the
// wrong number of values, a value that is not finite or an error fails
// the fit, naming what went wrong.
func TestFitSearchesElsewhere(t *testing.T) {
	ctx := context.Background()
	student := testNet(t, 3)
	games := randomGames(t, 3, 40, 80)
	scorer := staticScorer(t, teacher(t, student))
	local, rl, err := Fit(ctx, student, games, scorer, Options{Steps: 30, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := func(change func([]float64) []float64) func(context.Context, []string, func(int, int)) ([]float64, error) {
		return func(ctx context.Context, fens []string, progress func(int, int)) ([]float64, error) {
			score := scorer()
			out := make([]float64, len(fens))
			for i, fen := range fens {
				p, err := chess.ParseFEN(fen)
				if err != nil {
					return nil, err
				}
				if out[i], err = score(ctx, p); err != nil {
					return nil, err
				}
				progress(i+1, len(fens))
			}
			return change(out), nil
		}
	}
	last, total := 0, 0
	progress := func(done, n int) { last, total = done, n }
	remote, rr, err := Fit(ctx, student, games, scorer, Options{Steps: 30, Search: elsewhere(func(v []float64) []float64 { return v }), Progress: progress})
	if err != nil {
		t.Fatal(err)
	}
	if !remote.Equal(local) || rr != rl {
		t.Errorf("the fit with its searches elsewhere differs from the local one: %+v, %+v", rr, rl)
	}
	if last != rl.Positions || total != rl.Positions {
		t.Errorf("progress last heard %d of %d, want %d of %d", last, total, rl.Positions, rl.Positions)
	}
	for _, c := range []struct {
		name   string
		change func([]float64) []float64
		want   string
	}{
		{"one value too few", func(v []float64) []float64 { return v[1:] }, "gave"},
		{"a NaN", func(v []float64) []float64 { v[3] = math.NaN(); return v }, "NaN"},
		{"an infinity", func(v []float64) []float64 { v[0] = math.Inf(-1); return v }, "-Inf"},
	} {
		if _, _, err := Fit(ctx, student, games, scorer, Options{Steps: 30, Search: elsewhere(c.change), Progress: progress}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	gone := func(context.Context, []string, func(int, int)) ([]float64, error) {
		return nil, errors.New("workers gone")
	}
	net, err := nnet.Random([]int{nnet.NumDraughtsInputs, 10, 1}, nnet.PieceDiff, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := FitDraughts(ctx, net, randomDraughtsGames(3, 4, 40), nil, Options{Search: gone}); err == nil || !strings.Contains(err.Error(), "workers gone") {
		t.Errorf("a failing search elsewhere: %v", err)
	}
}

// TestQuietPositionsByHand: 1. e4 d5 2. exd5 Qxd5 3. Nc3 Qe5+ 4. Be2 Nf6.
// From ply 0 the positions before e4, d5, Nc3, Qe5+ and Nf6 are kept;
// those before exd5 and Qxd5 are not (captures), nor the one before Be2
// (White is in check).
func TestQuietPositionsByHand(t *testing.T) {
	moves := []string{"e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5e5", "f1e2", "g8f6"}
	g := Game{Start: chess.Start()}
	p := g.Start
	var fens []string
	for _, s := range moves {
		m, err := p.ParseUCI(s, false)
		if err != nil {
			t.Fatal(err)
		}
		fens = append(fens, p.FEN())
		g.Moves = append(g.Moves, m)
		p = p.Play(m)
	}
	got, _, err := QuietPositions([]Game{g}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{fens[0], fens[1], fens[4], fens[5], fens[7]}
	if len(got) != len(want) {
		t.Fatalf("%d positions, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].FEN() != want[i] {
			t.Errorf("position %d: %s, want %s", i, got[i].FEN(), want[i])
		}
	}
	if got, _, _ := QuietPositions([]Game{g}, 5); len(got) != 2 || got[0].FEN() != fens[5] || got[1].FEN() != fens[7] {
		t.Errorf("from ply 5: %d positions, want those before Qe5+ and Nf6", len(got))
	}
}

func TestFitErrors(t *testing.T) {
	ctx := context.Background()
	games := randomGames(t, 4, 2, 30)
	plain, err := nnet.Random(nnet.ChessSizes(4), 0, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Fit(ctx, plain, games, staticScorer(t, plain), Options{}); !errors.Is(err, ErrNothingToFit) {
		t.Errorf("a net without linear weights: %v, want ErrNothingToFit", err)
	}
	n := testNet(t, 5)
	if _, _, err := Fit(ctx, n, games, staticScorer(t, n), Options{SkipPlies: 100}); !errors.Is(err, ErrNothingToFit) {
		t.Errorf("no position past the skipped plies: %v, want ErrNothingToFit", err)
	}
	bad := Game{Start: chess.Start(), Moves: []chess.Move{games[0].Moves[0], games[0].Moves[0]}}
	if _, _, err := Fit(ctx, n, []Game{bad}, staticScorer(t, n), Options{}); err == nil || !strings.Contains(err.Error(), "ply 1") {
		t.Errorf("an illegal move: %v, want an error naming ply 1", err)
	}
	failing := func() Scorer {
		return func(context.Context, chess.Position) (float64, error) { return 0, errors.New("engine gone") }
	}
	if _, _, err := Fit(ctx, n, games, failing, Options{}); err == nil || !strings.Contains(err.Error(), "engine gone") {
		t.Errorf("a failing search: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	slow := func() Scorer {
		return func(ctx context.Context, _ chess.Position) (float64, error) { return 0, ctx.Err() }
	}
	if _, _, err := Fit(cancelled, n, games, slow, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled fit: %v", err)
	}
}

// TestFitXiangqiLearnsTheTeacher is TestFitLearnsTheTeacher for xiangqi:
// a teacher with other piece values and terms, its static values the
// target; on other games the fitted genome's evaluation comes within a
// fifth of the distance the genome started from.
func TestFitXiangqiLearnsTheTeacher(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 7))
	student, err := nnet.RandomXiangqi([]int{8}, nnet.EvolvePST|nnet.EvolveTerms|nnet.EvolveMoreTerms, rng)
	if err != nil {
		t.Fatal(err)
	}
	student = student.Mutated(rng)
	v := student.XiangqiPieceValues()
	v[4] += 1   // the cannon
	v[5] -= 0.5 // the soldier
	teach, err := student.WithXiangqiPieceValues(v)
	if err != nil {
		t.Fatal(err)
	}
	terms := teach.XiangqiTerms()
	terms[0] += 1.5
	if teach, err = teach.WithXiangqiTerms(terms); err != nil {
		t.Fatal(err)
	}
	games := func(seed uint64, count int) []XiangqiGame {
		rng := rand.New(rand.NewPCG(seed, 3))
		buf := make([]xiangqi.Move, 0, xiangqi.MaxMoves)
		var out []XiangqiGame
		for range count {
			g := XiangqiGame{Start: xiangqi.Start()}
			p := g.Start
			for range 90 {
				if buf = p.LegalMoves(buf[:0]); len(buf) == 0 {
					break
				}
				m := buf[rng.IntN(len(buf))]
				g.Moves = append(g.Moves, m)
				p = p.Play(m)
			}
			out = append(out, g)
		}
		return out
	}
	te, err := nnet.NewXiangqiEval(teach)
	if err != nil {
		t.Fatal(err)
	}
	scorer := func() XiangqiScorer {
		return func(_ context.Context, p xiangqi.Position) (float64, error) { return te.Evaluate(p, p.Side()), nil }
	}
	train, test := games(1, 120), games(2, 40)
	fitted, rep, err := FitXiangqi(context.Background(), student, train, scorer, Options{Steps: 400, Rate: 0.02, L2: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	dist := func(n *nnet.Net) float64 {
		e, err := nnet.NewXiangqiEval(n)
		if err != nil {
			t.Fatal(err)
		}
		positions, _, err := XiangqiQuietPositions(test, 10)
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		for _, p := range positions {
			d := e.Evaluate(p, p.Side()) - te.Evaluate(p, p.Side())
			sum += d * d
		}
		return math.Sqrt(sum / float64(len(positions)))
	}
	before, after := dist(student), dist(fitted)
	t.Logf("%d positions; loss %.6f -> %.6f; the teacher %.3f pawns away before, %.3f after", rep.Positions, rep.Before, rep.After, before, after)
	if before < 0.3 || after > before/5 {
		t.Errorf("the teacher %.3f pawns away before, %.3f after; want at least 0.3 before and a fifth of it after", before, after)
	}
}

// TestXiangqiQuietPositionsByHand, in UCI coordinates (ranks 1 to 10 from
// Red's side): 1. h3e3 h8e8 2. e3e7+ (the cannon takes the soldier on e7
// over the soldier on e4 and checks over Black's cannon on e8) d10e9
// 3. b1c3. The positions before h3e3, h8e8 and b1c3 are quiet; not the
// one before e3e7 (a capture), nor the one before d10e9 (Black is in
// check).
func TestXiangqiQuietPositionsByHand(t *testing.T) {
	moves := []string{"h3e3", "h8e8", "e3e7", "d10e9", "b1c3"}
	g := XiangqiGame{Start: xiangqi.Start()}
	p := g.Start
	var fens []string
	for _, s := range moves {
		m, err := p.ParseUCI(s)
		if err != nil {
			t.Fatalf("%s in %s: %v", s, p.FEN(), err)
		}
		fens = append(fens, p.FEN())
		g.Moves = append(g.Moves, m)
		p = p.Play(m)
	}
	got, _, err := XiangqiQuietPositions([]XiangqiGame{g}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{fens[0], fens[1], fens[4]}
	if len(got) != len(want) {
		t.Fatalf("%d positions, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].FEN() != want[i] {
			t.Errorf("position %d: %s, want %s", i, got[i].FEN(), want[i])
		}
	}
}

// TestScoreSearchesEachPositionOnce: positions met several times (every
// game twice, and the openings' repeats) are searched once each, here
// and elsewhere, and every copy gets its position's value.
func TestScoreSearchesEachPositionOnce(t *testing.T) {
	ctx := context.Background()
	games := randomGames(t, 5, 20, 60)
	positions, _, err := QuietPositions(append(games, games...), 0)
	if err != nil {
		t.Fatal(err)
	}
	distinct := map[string]bool{}
	for _, p := range positions {
		distinct[p.FEN()] = true
	}
	if 2*len(distinct) > len(positions) {
		t.Fatalf("%d distinct of %d positions: the test needs every position at least twice", len(distinct), len(positions))
	}
	value := func(fen string) float64 { return float64(len(fen)%17) / 4 } // any function of the position
	var mu sync.Mutex
	searched := map[string]int{}
	newScorer := func() func(context.Context, chess.Position) (float64, error) {
		return func(_ context.Context, p chess.Position) (float64, error) {
			mu.Lock()
			defer mu.Unlock()
			searched[p.FEN()]++
			return value(p.FEN()), nil
		}
	}
	elsewhere := func(_ context.Context, fens []string, _ func(int, int)) ([]float64, error) {
		out := make([]float64, len(fens))
		for i, fen := range fens {
			mu.Lock()
			searched[fen]++
			mu.Unlock()
			out[i] = value(fen)
		}
		return out, nil
	}
	for _, c := range []struct {
		name string
		opts Options
	}{
		{"here", Options{Workers: 3}},
		{"elsewhere", Options{Search: elsewhere}},
	} {
		clear(searched)
		out, n, err := score(ctx, positions, newScorer, c.opts)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(searched) != len(distinct) || n != len(distinct) {
			t.Errorf("%s: %d positions searched (said %d), want the %d distinct", c.name, len(searched), n, len(distinct))
		}
		for fen, n := range searched {
			if n != 1 {
				t.Errorf("%s: %s searched %d times", c.name, fen, n)
			}
		}
		for i, p := range positions {
			if want := value(p.FEN()); out[i] != want {
				t.Fatalf("%s: position %d (%s) valued %v, want %v", c.name, i, p.FEN(), out[i], want)
			}
		}
	}
}

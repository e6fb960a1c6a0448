package player

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evolved/agent"
	"evolved/game/chess"
	"evolved/game/draughts"
	"evolved/game/xiangqi"
	"evolved/nnet"
	"evolved/search"
	"evolved/tournament"
)

// writeAgent writes an agent file of game with net to dir/name and
// returns its path.
func writeAgent(t *testing.T, dir, name, game string, net *nnet.Net) string {
	t.Helper()
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := agent.Write(f, agent.File{Game: game, Net: net, Search: agent.Search{Depth: 2},
		Provenance: agent.Provenance{Generation: 7}}); err != nil {
		t.Fatal(err)
	}
	return path
}

// mcts returns the MCTS options of the player spec makes, failing if it
// is not an MCTS player.
func mcts[M comparable, S search.Game[M]](t *testing.T, spec Spec[M, S]) search.MCTSOptions {
	t.Helper()
	p, ok := spec.New().(*search.MCTSPlayer[M, S])
	if !ok {
		t.Fatalf("%s makes a %T, want an MCTS player", spec.Name, spec.New())
	}
	return p.Options()
}

// TestParseNetEPT checks the spec ept:N@FILE in every game: an MCTS-EPT
// player of N playouts cut after six plies, named by the spec and the
// agent, and errors that name the spec and what is wrong with it.
func TestParseNetEPT(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	dnet := randomNet(t, 1)
	cnet, err := nnet.RandomChess([]int{8}, 0, rng)
	if err != nil {
		t.Fatal(err)
	}
	xnet, err := nnet.RandomXiangqi([]int{8}, 0, rng)
	if err != nil {
		t.Fatal(err)
	}
	d := writeAgent(t, dir, "d.json", "draughts", dnet)
	c := writeAgent(t, dir, "c.json", "chess", cnet)
	x := writeAgent(t, dir, "x.json", "xiangqi", xnet)

	want := search.MCTSOptions{Playouts: 50, PlayoutPlies: EPTPlies, Exploration: math.Sqrt2}
	ds, err := ParseDraughts("ept:50@" + d)
	if err != nil {
		t.Fatal(err)
	}
	if got := mcts(t, ds); got != want || ds.Name != "ept:50@d (gen 7)" {
		t.Errorf("ept:50@d.json: %s with %+v, want ept:50@d (gen 7) with %+v", ds.Name, got, want)
	}
	cs, err := ParseChess("EPT:50@" + c)
	if err != nil {
		t.Fatal(err)
	}
	if got := mcts(t, cs); got != want || cs.Name != "ept:50@c (gen 7)" {
		t.Errorf("EPT:50@c.json: %s with %+v, want ept:50@c (gen 7) with %+v", cs.Name, got, want)
	}
	xs, err := ParseXiangqi("ept:50@" + x)
	if err != nil {
		t.Fatal(err)
	}
	if got := mcts(t, xs); got != want || xs.Name != "ept:50@x (gen 7)" {
		t.Errorf("ept:50@x.json: %s with %+v, want ept:50@x (gen 7) with %+v", xs.Name, got, want)
	}

	// An agent file whose name holds an @ is still an agent file.
	at := writeAgent(t, dir, "run@7.json", "draughts", dnet)
	if s, err := ParseDraughts(at); err != nil || s.Name != "run@7 (gen 7)" {
		t.Errorf("ParseDraughts(%q) = %q, %v; want the agent searching by alpha-beta", at, s.Name, err)
	} else if _, ok := s.New().(search.Searcher[draughts.Move, *draughts.Game]); !ok {
		t.Errorf("ParseDraughts(%q) makes a %T, want an alpha-beta searcher", at, s.New())
	}

	for _, tc := range []struct {
		spec, want string
	}{
		{"ept:50@" + filepath.Join(dir, "none.json"), "no such agent file"},
		{"ept:50@" + c, "is a chess agent, not draughts"},
		{"ept:0@" + d, "ept takes a whole number of playouts from 1 to 10000000"},
		{"ept:10000001@" + d, "ept takes a whole number of playouts from 1 to 10000000"},
		{"ept:many@" + d, "ept takes a whole number"},
		{"ept@" + d, "ept takes a whole number"},
		{"ept:50@", "needs the agent file"},
		{"mcts:50@" + d, "mcts plays every playout to the end and scores no position"},
	} {
		_, err := ParseDraughts(tc.spec)
		if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), `"`+tc.spec+`"`) {
			t.Errorf("ParseDraughts(%q) = %v, want an ErrSpec naming the spec and saying %q", tc.spec, err, tc.want)
		}
	}
	if _, err := ParseChess("ept:50@" + x); !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), "is a xiangqi agent, not chess") {
		t.Errorf("a xiangqi agent in chess: %v", err)
	}
	if _, err := ParseXiangqi("ept:50@" + d); !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), "is a draughts agent, not xiangqi") {
		t.Errorf("a draughts agent in xiangqi: %v", err)
	}
}

func TestParseSearch(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		list string
	}{{"", 0, ""}, {"ept:1", 1, ""}, {"ept:50", 50, ""}, {"ept:10000000", 10_000_000, ""}, {"#rfp_margin=80,-lmr", 0, "rfp_margin=80,-lmr"}} {
		if got, list, err := ParseSearch(tc.in); got != tc.want || list != tc.list || err != nil {
			t.Errorf("ParseSearch(%q) = %d, %q, %v; want %d, %q", tc.in, got, list, err, tc.want, tc.list)
		}
	}
	for _, in := range []string{"foo", "ept", "ept:", "ept:0", "ept:-5", "ept:+5", "ept:050", "ept:10000001", "EPT:50", "mcts:50", "alphabeta", " ept:50",
		"#", "#rfp_margin=5", "#-lmx"} {
		if _, _, err := ParseSearch(in); !errors.Is(err, ErrSearch) || !strings.Contains(err.Error(), `"`+in+`"`) {
			t.Errorf("ParseSearch(%q) err = %v, want an ErrSearch naming it", in, err)
		}
	}
}

// constantNet returns a net of the given sizes whose output is always
// tanh(atanh(0.5)) = 0.5: every weight is 0 but the output's bias.
func constantNet(t *testing.T, sizes []int, flags nnet.Flags) *nnet.Net {
	t.Helper()
	n, err := nnet.New(sizes, flags)
	if err != nil {
		t.Fatal(err)
	}
	w := n.Weights()
	w[n.BiasIndex(len(sizes)-1, 0)] = math.Atanh(0.5)
	if n, err = n.WithWeights(w); err != nil {
		t.Fatal(err)
	}
	return n
}

// rootScore runs the player of spec on g with seed 1 and returns the
// score of its move (the mean reward per mille).
func rootScore[M comparable, S search.Game[M]](t *testing.T, spec Spec[M, S], g S) int {
	t.Helper()
	p := spec.New()
	p.NewGame(1)
	res, err := p.Move(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	return res.Score
}

// TestEPTScoresPlayoutsWithTheNet checks, in each game, the reward of
// MCTS-EPT with a net whose output is always 0.5, from positions where
// no playout can end the game or change the material within its seven
// plies (the root's move and six more): every leaf is then worth the
// same, and the move's mean reward follows by hand. The players run one
// playout per root move, so that each root move is tried once and every
// leaf lies seven plies below the root (later playouts descend the tree,
// and their leaves lie deeper).
//
// The side to move at a leaf is the root player's opponent, for whom the
// net says 0.5: in draughts the
// value 0.5 (NetScale units) is the win rate (0.5+1)/2 = 0.75, and the
// root's move scores 1-0.75 = 250 per mille; in chess and xiangqi the
// value is the material (0, unchanged) plus 0.5 pawns, 50 centipawns, a
// win rate of 1/(1+exp(-50/400)) = 0.53121, and the move scores 468 per
// mille. Scored by material instead (ept:N), the chess and xiangqi leaves
// are even and the move scores 500; a net read from the wrong side would
// score 750 or 531.
func TestEPTScoresPlayoutsWithTheNet(t *testing.T) {
	t.Run("draughts", func(t *testing.T) {
		// From the start no playout of seven plies ends; captures do not
		// matter, as the net has no piece differential.
		g := draughts.NewGame(draughts.Start(), draughts.DefaultRules())
		s, err := DraughtsNetEPT("half", constantNet(t, []int{nnet.NumDraughtsInputs, 4, 1}, 0), len(g.LegalMoves(nil)))
		if err != nil {
			t.Fatal(err)
		}
		if got := rootScore(t, s, g); got != 250 {
			t.Errorf("score %d, want 250", got)
		}
	})
	t.Run("chess", func(t *testing.T) {
		// Locked pawns, kings far apart: White's king needs five moves
		// to take e5 (d4 is guarded), Black's four to take e4, and the
		// playout holds four of White's moves and three of Black's.
		p, err := chess.ParseFEN("7k/8/8/4p3/4P3/8/8/K7 w - - 0 1")
		if err != nil {
			t.Fatal(err)
		}
		n := len(chess.NewGame(p, chess.DefaultRules()).LegalMoves(nil))
		s, err := ChessNetEPT("half", constantNet(t, nnet.ChessSizes(4), 0), n)
		if err != nil {
			t.Fatal(err)
		}
		if got := rootScore(t, s, chess.NewGame(p, chess.DefaultRules())); got != 468 {
			t.Errorf("score %d, want 468", got)
		}
		if got := rootScore(t, mustChess(t, fmt.Sprint("ept:", n)), chess.NewGame(p, chess.DefaultRules())); got != 500 {
			t.Errorf("scored by material: %d, want 500", got)
		}
	})
	t.Run("xiangqi", func(t *testing.T) {
		// The generals alone, on different files: nothing to capture.
		p, err := xiangqi.ParseFEN("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
		if err != nil {
			t.Fatal(err)
		}
		n := len(xiangqi.NewGame(p, xiangqi.DefaultRules()).LegalMoves(nil))
		s, err := XiangqiNetEPT("half", constantNet(t, nnet.XiangqiSizes(4), 0), n)
		if err != nil {
			t.Fatal(err)
		}
		if got := rootScore(t, s, xiangqi.NewGame(p, xiangqi.DefaultRules())); got != 468 {
			t.Errorf("score %d, want 468", got)
		}
		m, err := ParseXiangqi(fmt.Sprint("ept:", n))
		if err != nil {
			t.Fatal(err)
		}
		if got := rootScore(t, m, xiangqi.NewGame(p, xiangqi.DefaultRules())); got != 500 {
			t.Errorf("scored by material: %d, want 500", got)
		}
	})
}

// knightLover returns a chess net that counts no material (every piece
// value 0) and whose output is tanh(3) ≈ +0.995 pawns for the side with a
// knight more than the other: it weighs each of its own knights' inputs
// +3 and each of the opponent's -3.
func knightLover(t *testing.T) *nnet.Net {
	t.Helper()
	n, err := nnet.New(nnet.ChessSizes(), nnet.EvolvePieceValues)
	if err != nil {
		t.Fatal(err)
	}
	if n, err = n.WithPieceValues([nnet.NumPieceValues]float64{}); err != nil {
		t.Fatal(err)
	}
	w := n.Weights()
	for s := chess.Square(0); s < 64; s++ {
		w[n.WeightIndex(1, 0, nnet.ChessInputIndex(0, chess.Knight, s))] = 3
		w[n.WeightIndex(1, 0, nnet.ChessInputIndex(1, chess.Knight, s))] = -3
	}
	if n, err = n.WithWeights(w); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestEPTPlaysWhatTheNetWants checks that the net, not material, decides
// MCTS-EPT's move: with a pawn on b7, locked pawns on e4 and e5 (so that
// a knight more is no dead draw) and the kings far away, a net that
// values a knight and no material promotes to a knight (a playout after
// b8=N ends a knight up, +100 centipawns, a win rate of 0.56, unless the
// black king takes it; after any other move the leaf is even), where
// material (ept:N) takes a queen (+900 centipawns, 0.9).
func TestEPTPlaysWhatTheNetWants(t *testing.T) {
	p, err := chess.ParseFEN("7k/1P6/8/4p3/4P3/8/8/K7 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	move := func(spec ChessSpec) string {
		pl := spec.New()
		pl.NewGame(1)
		g := chess.NewGame(p, chess.DefaultRules())
		res, err := pl.Move(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		return g.FormatMove(res.Move)
	}
	net, err := ChessNetEPT("knights", knightLover(t), 2000)
	if err != nil {
		t.Fatal(err)
	}
	if got := move(net); got != "b7b8n" {
		t.Errorf("the knight-loving net plays %s, want b7b8n", got)
	}
	if got := move(mustChess(t, "ept:2000")); got != "b7b8q" {
		t.Errorf("material plays %s, want b7b8q", got)
	}
}

// TestEPTIsReproducible checks that an MCTS-EPT player's game depends
// only on its seeds and its net: the same seeds replay the same game
// move for move, and another net scores the same playouts differently.
func TestEPTIsReproducible(t *testing.T) {
	a, err := DraughtsNetEPT("a", randomNet(t, 1), 200)
	if err != nil {
		t.Fatal(err)
	}
	b, err := DraughtsNetEPT("b", randomNet(t, 2), 200)
	if err != nil {
		t.Fatal(err)
	}
	play := func(seeds [2]uint64) []draughts.Move {
		g := draughts.NewGame(draughts.Start(), draughts.Rules{MaxMoves: 20})
		moves, _, err := tournament.Play(context.Background(), g, a.New(), b.New(), seeds)
		if err != nil {
			t.Fatal(err)
		}
		return moves
	}
	first, again, other := play([2]uint64{1, 2}), play([2]uint64{1, 2}), play([2]uint64{3, 4})
	if len(first) != 40 || !equal(first, again) {
		t.Errorf("the same seeds played %v then %v, want the same 40 plies", first, again)
	}
	if equal(first, other) {
		t.Errorf("other seeds replayed the same game %v", first)
	}
	g := draughts.NewGame(draughts.Start(), draughts.DefaultRules())
	if sa, sb := rootScore(t, a, g), rootScore(t, b, g); sa == sb {
		t.Errorf("two nets score the start's playouts alike: %d", sa)
	}
}

func equal[M comparable](a, b []M) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestEPTLeafValueIsTheSearchValue checks that MCTS-EPT's evaluators,
// which score each leaf from scratch, give exactly the value the
// alpha-beta evaluators (incremental accumulators) give the same
// position, along random games, nets with every extra included.
func TestEPTLeafValueIsTheSearchValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	t.Run("chess", func(t *testing.T) {
		net, err := nnet.RandomChess([]int{16, 4}, nnet.EvolvePST|nnet.EvolveTerms|nnet.EvolveMoreTerms, rng)
		if err != nil {
			t.Fatal(err)
		}
		e, err := nnet.NewChessEval(net)
		if err != nil {
			t.Fatal(err)
		}
		leaf, ab := chessScratch{e}, &chessNetEval{acc: e.NewAccumulator(), cache: nnet.NewEvalCache(evalCacheEntries)}
		for range 4 {
			g := chess.NewGame(chess.Start(), chess.DefaultRules())
			for ply := 0; ply < 150 && !g.Outcome().Over(); ply++ {
				ab.Reset(g)
				if got, want := leaf.Evaluate(g), ab.Evaluate(g); got != want {
					t.Fatalf("ply %d: leaf %d, search %d", ply, got, want)
				}
				moves := g.LegalMoves(nil)
				g.Make(moves[rng.IntN(len(moves))])
			}
		}
	})
	t.Run("xiangqi", func(t *testing.T) {
		net, err := nnet.RandomXiangqi([]int{16, 4}, nnet.EvolvePST|nnet.EvolveTerms, rng)
		if err != nil {
			t.Fatal(err)
		}
		e, err := nnet.NewXiangqiEval(net)
		if err != nil {
			t.Fatal(err)
		}
		leaf, ab := xiangqiScratch{e}, &xiangqiNetEval{acc: e.NewAccumulator(), cache: nnet.NewEvalCache(evalCacheEntries)}
		for range 4 {
			g := xiangqi.NewGame(xiangqi.Start(), xiangqi.DefaultRules())
			for ply := 0; ply < 150 && !g.Outcome().Over(); ply++ {
				ab.Reset(g)
				if got, want := leaf.Evaluate(g), ab.Evaluate(g); got != want {
					t.Fatalf("ply %d: leaf %d, search %d", ply, got, want)
				}
				moves := g.LegalMoves(nil)
				g.Make(moves[rng.IntN(len(moves))])
			}
		}
	})
	t.Run("draughts", func(t *testing.T) {
		e, err := nnet.NewDraughtsEval(randomNet(t, 3))
		if err != nil {
			t.Fatal(err)
		}
		leaf, ab := netFromScratch{e}, &draughtsNetEval{acc: e.NewAccumulator(), cache: nnet.NewEvalCache(1 << 10)}
		for range 4 {
			g := draughts.NewGame(draughts.Start(), draughts.DefaultRules())
			for ply := 0; ply < 150 && !g.Outcome().Over(); ply++ {
				ab.Reset(g)
				if got, want := leaf.Evaluate(g), ab.Evaluate(g); got != want {
					t.Fatalf("ply %d: leaf %d, search %d", ply, got, want)
				}
				moves := g.LegalMoves(nil)
				g.Make(moves[rng.IntN(len(moves))])
			}
		}
	})
}

// TestEPTLeafEvaluationDoesNotAllocate checks the evaluators a playout's
// leaf is scored with, for nets of the games' default sizes.
func TestEPTLeafEvaluationDoesNotAllocate(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	cnet, err := nnet.RandomChess([]int{32, 8}, nnet.EvolvePST|nnet.EvolveTerms|nnet.EvolveMoreTerms, rng)
	if err != nil {
		t.Fatal(err)
	}
	xnet, err := nnet.RandomXiangqi([]int{32, 8}, nnet.EvolvePST|nnet.EvolveTerms, rng)
	if err != nil {
		t.Fatal(err)
	}
	ce, _ := nnet.NewChessEval(cnet)
	xe, _ := nnet.NewXiangqiEval(xnet)
	de, _ := nnet.NewDraughtsEval(randomNet(t, 1))
	cg := chess.NewGame(chess.Start(), chess.DefaultRules())
	xg := xiangqi.NewGame(xiangqi.Start(), xiangqi.DefaultRules())
	dg := draughts.NewGame(draughts.Start(), draughts.DefaultRules())
	for name, f := range map[string]func(){
		"chess":    func() { chessScratch{ce}.Evaluate(cg) },
		"xiangqi":  func() { xiangqiScratch{xe}.Evaluate(xg) },
		"draughts": func() { netFromScratch{de}.Evaluate(dg) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations per leaf, want 0", name, n)
		}
	}
}

// BenchmarkEPTMove times one move of MCTS-EPT, 1000 playouts, with a net
// of each game's default size from its start position.
func BenchmarkEPTMove(b *testing.B) {
	rng := rand.New(rand.NewPCG(4, 5))
	b.Run("draughts", func(b *testing.B) {
		s, err := DraughtsNetEPT("d", randomNet(b, 1), 1000)
		if err != nil {
			b.Fatal(err)
		}
		benchMove(b, s, draughts.NewGame(draughts.Start(), draughts.DefaultRules()))
	})
	b.Run("chess", func(b *testing.B) {
		net, err := nnet.RandomChess([]int{32, 8}, nnet.EvolvePST|nnet.EvolveTerms|nnet.EvolveMoreTerms, rng)
		if err != nil {
			b.Fatal(err)
		}
		s, err := ChessNetEPT("c", net, 1000)
		if err != nil {
			b.Fatal(err)
		}
		benchMove(b, s, chess.NewGame(chess.Start(), chess.DefaultRules()))
	})
	b.Run("xiangqi", func(b *testing.B) {
		net, err := nnet.RandomXiangqi([]int{32, 8}, nnet.EvolvePST|nnet.EvolveTerms, rng)
		if err != nil {
			b.Fatal(err)
		}
		s, err := XiangqiNetEPT("x", net, 1000)
		if err != nil {
			b.Fatal(err)
		}
		benchMove(b, s, xiangqi.NewGame(xiangqi.Start(), xiangqi.DefaultRules()))
	})
}

// benchMove times the moves of one player of spec from g's position.
func benchMove[M comparable, S search.Game[M]](b *testing.B, spec Spec[M, S], g S) {
	p := spec.New()
	p.NewGame(1)
	for b.Loop() {
		if _, err := p.Move(context.Background(), g); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/playout")
}

// TestChessEPTAsTheUCIServerDrivesIt checks the UCI searcher of MCTS-EPT:
// a go command's node limit is the playouts, no limit the playouts it was
// made with, the score is the move's mean reward back in centipawns
// (in the position of TestEPTScoresPlayoutsWithTheNet, a reward of 0.468,
// 400*ln(0.468/0.532) = -51), reported once, and ucinewgame's Reset
// replays the same searches.
func TestChessEPTAsTheUCIServerDrivesIt(t *testing.T) {
	p, err := chess.ParseFEN("7k/8/8/4p3/4P3/8/8/K7 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	c, err := ChessNetEPTSearch(constantNet(t, nnet.ChessSizes(4), 0), 40)
	if err != nil {
		t.Fatal(err)
	}
	var reports []search.Result[chess.Move]
	c.OnIteration(func(r search.Result[chess.Move]) { reports = append(reports, r) })
	c.ResizeTable(64)
	run := func(depth int, nodes int64) search.Result[chess.Move] {
		c.Limits(depth, nodes, 0)
		return c.Search(context.Background(), chess.NewGame(p, chess.DefaultRules()))
	}
	// Three root moves (Ka2, Kb1, Kb2), one playout each.
	if r := run(30, 3); r.Nodes != 3 || r.Score != -51 || len(reports) != 1 || reports[0].Score != -51 {
		t.Errorf("go nodes 3: %d playouts, score %d, reports %v; want 3, -51 and one report", r.Nodes, r.Score, reports)
	}
	first := run(2, 0)
	if first.Nodes != 40 {
		t.Errorf("go without a limit: %d playouts, want the 40 it was made with", first.Nodes)
	}
	second := run(2, 0)
	c.Reset()
	run(30, 3)
	if again := run(2, 0); again.Move != first.Move || again.Score != first.Score || second.Nodes != 40 {
		t.Errorf("after Reset: %v %d, want the first search's %v %d", again.Move, again.Score, first.Move, first.Score)
	}
	if got := winRateCentipawns(0.5); got != 0 {
		t.Errorf("a win rate of 0.5 is %d centipawns, want 0", got)
	}
	if got := winRateCentipawns(1); got != 2763 {
		t.Errorf("a win rate of 1 is %d centipawns, want the clamp's 2763", got)
	}
}

// TestAgentFileSearchesAsEvolved: an agent file from a run that searched
// by MCTS-EPT (search.ept) plays MCTS-EPT of its playouts; given a depth,
// or without the field, it plays alpha-beta.
func TestAgentFileSearchesAsEvolved(t *testing.T) {
	net := randomNet(t, 3)
	f := agent.File{Game: "draughts", Net: net, Search: agent.Search{Depth: 3, EPT: 40}}
	spec, err := AgentFileSpec("a", f, 0, DraughtsNet, DraughtsNetEPT)
	if err != nil {
		t.Fatal(err)
	}
	if o := mcts(t, spec); o.Playouts != 40 || o.PlayoutPlies != EPTPlies {
		t.Errorf("an EPT agent plays MCTS with %+v, want 40 playouts cut after %d plies", o, EPTPlies)
	}
	for _, c := range []struct {
		f     agent.File
		depth int
		want  int
	}{{f, 5, 5}, {agent.File{Game: "draughts", Net: net, Search: agent.Search{Depth: 3}}, 0, 3}} {
		spec, err := AgentFileSpec("a", c.f, c.depth, DraughtsNet, DraughtsNetEPT)
		if err != nil {
			t.Fatal(err)
		}
		s, ok := spec.New().(search.Searcher[draughts.Move, *draughts.Game])
		if !ok || s.Options().Depth != c.want {
			t.Errorf("depth %d, file %+v: not alpha-beta to depth %d", c.depth, c.f.Search, c.want)
		}
	}
	f.Format, f.Version, f.Search.EPT = agent.FormatName, agent.Version, -1
	if err := f.Validate(); err == nil || !strings.Contains(err.Error(), "ept -1") {
		t.Errorf("an agent file with ept -1: %v, want an error naming it", err)
	}
}

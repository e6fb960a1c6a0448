package player

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"evolved/agent"
	"evolved/game/chess"
	"evolved/longtest"
	"evolved/nnet"
	"evolved/search"
	"evolved/tournament"
)

func TestParseChess(t *testing.T) {
	for _, spec := range []string{"random", "material:3", "pst:2", "mcts:50", "ept:50", "uci:/usr/games/stockfish", "uci:/x:Skill Level=0:movetime=50"} {
		if _, err := ParseChess(spec); err != nil {
			t.Errorf("ParseChess(%q): %v", spec, err)
		}
	}
	for _, spec := range []string{"", "material:0", "pst", "pst:31", "uci:", "uci:/x:depth=zero", "uci:/x:Skill", "stockfish"} {
		if _, err := ParseChess(spec); !errors.Is(err, ErrSpec) {
			t.Errorf("ParseChess(%q) err = %v, want ErrSpec", spec, err)
		}
	}
}

func chessMatch(t *testing.T, a, b ChessSpec, games int) tournament.MatchResult[chess.Move] {
	t.Helper()
	r, err := tournament.Match(context.Background(), chessArena(4), a.New, b.New,
		tournament.MatchOptions{Games: games, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func mustChess(t *testing.T, spec string) ChessSpec {
	t.Helper()
	s, err := ParseChess(spec)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestChessPSTHandChecked checks ChessPST on positions worked out by hand
// from Michniewski's printed tables.
func TestChessPSTHandChecked(t *testing.T) {
	for _, tc := range []struct {
		fen  string
		want int // for the side to move, centipawns
	}{
		// Symmetric: 0.
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0},
		// 1.e4: the e-pawn goes from -20 (e2) to +20 (e4); Black to move sees -40.
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", -40},
		// 1.Nf3 Nc6: both knights -40 -> +10, symmetric again: 0 for White.
		{"r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2", 0},
		// Kings and a white pawn on a7 (+50 over +0 material 100):
		// White Kg1 (+30), Black Ke8 (its e1, 0), pawn a7 on rank 7 (+50).
		{"4k3/P7/8/8/8/8/8/6K1 w - - 0 1", 100 + 30 + 50 - 0},
		// The same for Black to move: the negation.
		{"4k3/P7/8/8/8/8/8/6K1 b - - 0 1", -(100 + 30 + 50)},
	} {
		p, err := chess.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := (ChessPST{}).Evaluate(chess.NewGame(p, chess.DefaultRules())); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.fen, got, tc.want)
		}
	}
}

func TestChessMaterial3BeatsRandom(t *testing.T) {
	r := chessMatch(t, mustChess(t, "material:3"), mustChess(t, "random"), 100)
	if r.Wins < 95 {
		t.Errorf("material:3 vs random: +%d =%d -%d, want at least 95 wins in 100", r.Wins, r.Draws, r.Losses)
	}
}

func TestNoIllegalMoveInAThousandGames(t *testing.T) {
	// tournament.Play checks every move against the legal moves and fails
	// the match on an illegal one, so finishing is the test. The thousand
	// games (matches of 50) are a soak that runs with the long tests;
	// otherwise every pairing of the specs plays a match of 8.
	specs := []string{"random", "material:1", "mcts:20", "ept:20"}
	games, match := len(specs)*len(specs)*8, 8
	if longtest.Enabled() {
		games, match = 1000, 50
	}
	played := 0
	for i := 0; played < games; i++ {
		a, b := mustChess(t, specs[i%len(specs)]), mustChess(t, specs[(i/len(specs))%len(specs)])
		n := min(match, games-played)
		chessMatch(t, a, b, n)
		played += n
	}
}

func TestChessNetPlayerBeatsRandom(t *testing.T) {
	// A generation-0 net is material plus a little noise: it must already
	// beat a random mover.
	net, err := nnet.RandomChess([]int{32, 8}, 0, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := ChessNet("net", net, 2)
	if err != nil {
		t.Fatal(err)
	}
	r := chessMatch(t, spec, mustChess(t, "random"), 20)
	if r.Score() < 0.8 {
		t.Errorf("generation-0 net vs random: +%d =%d -%d, want at least 80%%", r.Wins, r.Draws, r.Losses)
	}
}

func TestChessAgainstStockfish(t *testing.T) {
	path, err := exec.LookPath("/usr/games/stockfish")
	if err != nil {
		t.Skip("stockfish is not installed (Debian package stockfish; .ci/run installs it)")
	}
	sf := mustChess(t, "uci:"+path+":Skill Level=0:Threads=1:movetime=10")
	r := chessMatch(t, mustChess(t, "material:2"), sf, 4)
	if r.Wins+r.Draws+r.Losses != 4 {
		t.Errorf("%d games, want 4", r.Wins+r.Draws+r.Losses)
	}
}

var _ search.Player[chess.Move, *chess.Game] = (*uciPlayer[chess.Move, *chess.Game])(nil)

// TestChessTablesStrengthenANet pins what piece-square tables add to a
// chess genome: the same random net (EvolvePST draws no random number, so
// every other weight is equal) with Michniewski's tables beside it beats
// itself without them at depth 2, over 100 seeded games.
func TestChessTablesStrengthenANet(t *testing.T) {
	if testing.Short() {
		t.Skip("100 chess games (skipped with -short)")
	}
	nets := make([]ChessSpec, 2)
	for i, flags := range []nnet.Flags{nnet.EvolvePieceValues | nnet.EvolvePST, nnet.EvolvePieceValues} {
		net, err := nnet.Random(nnet.ChessSizes(32, 8), flags, rand.New(rand.NewPCG(2026, 18)))
		if err != nil {
			t.Fatal(err)
		}
		if nets[i], err = ChessNet("net", net, 2); err != nil {
			t.Fatal(err)
		}
	}
	r := chessMatch(t, nets[0], nets[1], 100)
	t.Logf("with tables vs without: +%d =%d -%d (%.1f%%)", r.Wins, r.Draws, r.Losses, 100*r.Score())
	if r.Score() < 0.6 {
		t.Errorf("the net with tables scored %.1f%% against itself without, want at least 60%%", 100*r.Score())
	}
}

// TestWithNodesBudgetsTheSearch checks WithNodes: a net searching to depth
// 20 with a budget of 5,000 nodes stops soon after that many (the search
// checks its limits every 1,024 nodes) having completed more than 2
// plies, and two matches between such players with the same seed play the
// same games, move for move, whatever the concurrency: node budgets keep
// games reproducible.
func TestWithNodesBudgetsTheSearch(t *testing.T) {
	net, err := nnet.Random(nnet.ChessSizes(32, 8), nnet.EvolvePieceValues|nnet.EvolvePST, rand.New(rand.NewPCG(2026, 19)))
	if err != nil {
		t.Fatal(err)
	}
	deep, err := ChessNet("net", net, 20)
	if err != nil {
		t.Fatal(err)
	}
	budget := WithNodes(deep, 5000)
	p, ok := budget.New().(search.Searcher[chess.Move, *chess.Game])
	if !ok {
		t.Fatalf("a net player is a %T, not a search.Searcher", budget.New())
	}
	res := p.Search(context.Background(), chess.NewGame(chess.Start(), chess.DefaultRules()))
	if res.Nodes < 5000 || res.Nodes > 5000+1024+64 || res.Depth < 3 {
		t.Errorf("with a budget of 5,000 nodes the search visited %d and completed depth %d; want 5,000 to 6,088 nodes and depth 3 or more",
			res.Nodes, res.Depth)
	}
	t.Logf("budget 5,000: %d nodes, depth %d", res.Nodes, res.Depth)
	if same := WithNodes(deep, 0); same.New == nil {
		t.Error("WithNodes(spec, 0) lost the constructor")
	}
	var games [2][]tournament.Record[chess.Move]
	for i, concurrency := range []int{1, 2} {
		r, err := tournament.Match(context.Background(), chessArena(4), budget.New, WithNodes(deep, 3000).New,
			tournament.MatchOptions{Games: 4, Seed: 5, Concurrency: concurrency})
		if err != nil {
			t.Fatal(err)
		}
		games[i] = r.Records
	}
	for g := range games[0] {
		if !slices.Equal(games[0][g].Moves, games[1][g].Moves) {
			t.Errorf("game %d differs between two matches with the same seed", g+1)
		}
	}
}

// chessArena is the arena of chess games under the default rules from the
// start position, opened by plies random plies (package games builds the
// arenas of the commands; player cannot import it).
func chessArena(plies int) tournament.Arena[chess.Move, *chess.Game] {
	return tournament.Arena[chess.Move, *chess.Game]{Name: "chess", OpeningPlies: plies,
		NewGame: func() *chess.Game { return chess.NewGame(chess.Start(), chess.DefaultRules()) }}
}

// TestPeSTOSearchesAsAgents checks that pesto:D is PeSTO's net in an
// agent's search: a Searcher (which takes the clock in timed games) whose
// search to depth 1, where no capture follows any move, scores the root
// as the best of PeSTO's values of the children, rounded centipawns.
func TestPeSTOSearchesAsAgents(t *testing.T) {
	p, ok := mustChess(t, "pesto:1").New().(search.Searcher[chess.Move, *chess.Game])
	if !ok {
		t.Fatalf("a pesto player is a %T, not a search.Searcher", mustChess(t, "pesto:1").New())
	}
	// White Nb1, Ke1 and Ph2 against Ke8 and Pa7: no move of White's
	// reaches a capture or a check, and no side lacks mating material.
	start, err := chess.ParseFEN("4k3/p7/8/8/8/8/7P/1N2K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	net, err := nnet.PeSTO()
	if err != nil {
		t.Fatal(err)
	}
	eval, err := nnet.NewChessEval(net)
	if err != nil {
		t.Fatal(err)
	}
	best := -search.MaxEval
	for _, m := range start.LegalMoves(nil) {
		child := start.Play(m)
		best = max(best, int(math.Round(eval.Evaluate(child, chess.White)*100)))
	}
	res := p.Search(context.Background(), chess.NewGame(start, chess.DefaultRules()))
	if res.Depth != 1 || res.Score != best {
		t.Errorf("pesto:1 scored %d at depth %d, want %d (the best child) at depth 1", res.Score, res.Depth, best)
	}
	t.Logf("pesto:1: %d centipawns", res.Score)
}

// TestAgentFileKeepsItsSettings checks that an agent file's search
// settings (a run's search = "#LIST") reach its players, under its node
// budget and at a depth asked for instead.
func TestAgentFileKeepsItsSettings(t *testing.T) {
	net, err := nnet.Random(nnet.ChessSizes(32, 8), nnet.EvolvePieceValues|nnet.EvolvePST, rand.New(rand.NewPCG(2026, 20)))
	if err != nil {
		t.Fatal(err)
	}
	f := agent.File{Game: "chess", Search: agent.Search{Depth: 3, Nodes: 2000, Settings: "rfp_margin=50,-lmr"}, Net: net}
	for _, c := range []struct {
		depth     int
		wantNodes int64
	}{{0, 2000}, {5, 0}} {
		spec, err := AgentFileSpec("a", f, c.depth, ChessNet, ChessNetEPT)
		if err != nil {
			t.Fatal(err)
		}
		opts := spec.New().(search.Searcher[chess.Move, *chess.Game]).Options()
		if opts.Params.RFPMargin != 50 || opts.Techniques != search.DefaultTechniques&^search.LMR|search.HistoryMalus || opts.Nodes != c.wantNodes {
			t.Errorf("depth %d: rfp_margin %d, techniques %v, nodes %d; want 50, chess's defaults less lmr, %d",
				c.depth, opts.Params.RFPMargin, opts.Techniques, opts.Nodes, c.wantNodes)
		}
	}
	f.Search.Settings = "rfp_margin=5"
	if _, err := AgentFileSpec("a", f, 0, ChessNet, ChessNetEPT); err == nil || !strings.Contains(err.Error(), "rfp_margin = 5") {
		t.Errorf("settings out of range: %v", err)
	}
}

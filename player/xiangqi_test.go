package player

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evolved/agent"
	"evolved/game/xiangqi"
	"evolved/nnet"
	"evolved/search"
	"evolved/tournament"
)

func TestXiangqiMaterial(t *testing.T) {
	g := xiangqi.NewGame(xiangqi.Start(), xiangqi.DefaultRules())
	if v := (XiangqiMaterial{}).Evaluate(g); v != 0 {
		t.Errorf("start: %d, want 0", v)
	}
	// Red's cannon takes the horse on h10 (+400 for Red); Black, to move,
	// sees -400.
	m, _ := g.ParseMove("h3h10")
	g.Make(m)
	if v := (XiangqiMaterial{}).Evaluate(g); v != -400 {
		t.Errorf("after h3h10: %d for Black, want -400", v)
	}
	// A red soldier across the river counts double: 2 soldiers of Red's
	// against none, one of them across: 100 + 200.
	p, err := xiangqi.ParseFEN("4k4/9/9/4P4/9/9/P8/9/9/4K4 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if v := (XiangqiMaterial{}).Evaluate(xiangqi.NewGame(p, xiangqi.DefaultRules())); v != 300 {
		t.Errorf("two soldiers, one across the river: %d, want 300", v)
	}
}

func TestParseXiangqi(t *testing.T) {
	for _, spec := range []string{"random", "material:2", "mcts:10", "ept:10", "classic", "classic+", "classic+:50", "uci:/usr/games/fairy-stockfish:depth=1"} {
		s, err := ParseXiangqi(spec)
		if err != nil || s.New() == nil {
			t.Errorf("ParseXiangqi(%q) = %v", spec, err)
		}
	}
	for _, tc := range []struct{ spec, want string }{
		{"classic+:0", "move time in milliseconds"},
		{"classic+50", "move time in milliseconds"},
		{"classic:3", "unknown player"},
		{"material:0", "material takes a whole number"},
		{"nofile.json", "no such agent file"},
		{"uci:", "needs the engine's path"},
	} {
		if _, err := ParseXiangqi(tc.spec); !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseXiangqi(%q) = %v, want an ErrSpec mentioning %q", tc.spec, err, tc.want)
		}
	}
}

// TestXiangqiNetEvalIncremental checks that the search evaluator, updated
// move by move (PushMove from the game's last move), gives the value of
// the net from scratch along random games, and back after Pop.
func TestXiangqiNetEvalIncremental(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	net, err := nnet.RandomXiangqi([]int{16, 4}, nnet.EvolvePieceValues, rng)
	if err != nil {
		t.Fatal(err)
	}
	eval, err := nnet.NewXiangqiEval(net)
	if err != nil {
		t.Fatal(err)
	}
	x := &xiangqiNetEval{acc: eval.NewAccumulator(), cache: nnet.NewEvalCache(evalCacheEntries)}
	var _ search.Incremental[*xiangqi.Game] = x
	for range 5 {
		g := xiangqi.NewGame(xiangqi.Start(), xiangqi.DefaultRules())
		x.Reset(g)
		for ply := 0; ply < 120 && !g.Outcome().Over(); ply++ {
			moves := g.LegalMoves(nil)
			g.Make(moves[rng.IntN(len(moves))])
			x.Push(g)
			want := int(math.Max(-search.MaxEval, math.Min(search.MaxEval, math.Round(eval.Evaluate(g.Position(), g.ToMove())*100))))
			if got := x.Evaluate(g); got != want {
				t.Fatalf("ply %d: incremental %d, from scratch %d", ply, got, want)
			}
		}
		for g.Ply() > 0 {
			g.Unmake()
			x.Pop()
		}
	}
}

// TestXiangqiAgentFile writes an agent file and plays it.
func TestXiangqiAgentFile(t *testing.T) {
	net, err := nnet.RandomXiangqi([]int{8}, nnet.EvolvePieceValues, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "xq.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := agent.Write(f, agent.File{Game: "xiangqi", Net: net, Search: agent.Search{Depth: 1}}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s, err := ParseXiangqi(path)
	if err != nil {
		t.Fatal(err)
	}
	g := xiangqi.NewGame(xiangqi.Start(), xiangqi.DefaultRules())
	p := s.New()
	p.NewGame(1)
	res, err := p.Move(context.Background(), g)
	if err != nil || res.Move == xiangqi.NoMove {
		t.Errorf("the agent's move: %v, %v", res.Move, err)
	}
	if _, err := ParseChess(path); err == nil || !strings.Contains(err.Error(), "is a xiangqi agent, not chess") {
		t.Errorf("a xiangqi agent as a chess player: %v", err)
	}
}

// TestXiangqiTablesStrengthenANet checks that the classic program's
// piece-square tables, which a xiangqi net with EvolvePST starts from,
// make a random net stronger: the same net with them beats itself without
// them over 100 games at depth 2. A net whose tables were wired wrongly
// (the wrong point of view, the mirror misapplied) plays worse than
// without them.
func TestXiangqiTablesStrengthenANet(t *testing.T) {
	if testing.Short() {
		t.Skip("100 xiangqi games (skipped with -short)")
	}
	nets := make([]XiangqiSpec, 2)
	for i, flags := range []nnet.Flags{nnet.EvolvePST, 0} {
		net, err := nnet.RandomXiangqi([]int{32, 8}, flags, rand.New(rand.NewPCG(2026, 18)))
		if err != nil {
			t.Fatal(err)
		}
		if nets[i], err = XiangqiNet("net", net, 2); err != nil {
			t.Fatal(err)
		}
	}
	r, err := tournament.Match(context.Background(), tournament.Arena[xiangqi.Move, *xiangqi.Game]{Name: "xiangqi", OpeningPlies: 4,
		NewGame: func() *xiangqi.Game { return xiangqi.NewGame(xiangqi.Start(), xiangqi.Rules{MaxMoves: 100}) }},
		nets[0].New, nets[1].New, tournament.MatchOptions{Games: 100, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("with tables vs without: +%d =%d -%d (%.1f%%)", r.Wins, r.Draws, r.Losses, 100*r.Score())
	if r.Score() < 0.6 {
		t.Errorf("the net with tables scored %.1f%% against itself without, want at least 60%%", 100*r.Score())
	}
}

package games_test

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"evolved/games"
	"evolved/nnet"
	"evolved/player"
	"evolved/search"
)

// TestSetupJSONKeepsItsBytes checks the setup's JSON, which the cluster
// sends its workers: without a search it is the bytes it always was, and
// a search round-trips.
func TestSetupJSONKeepsItsBytes(t *testing.T) {
	b, err := json.Marshal(games.Setup{Depth: 4, Nodes: 0, OpeningPlies: 4, MaxMoves: 100})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"Depth":4,"Nodes":0,"OpeningPlies":4,"MaxMoves":100}`; string(b) != want {
		t.Errorf("setup JSON %s, want %s", b, want)
	}
	in := games.Setup{Depth: 2, OpeningPlies: 4, MaxMoves: 100, Search: "ept:50"}
	if b, err = json.Marshal(in); err != nil {
		t.Fatal(err)
	}
	if want := `{"Depth":2,"Nodes":0,"OpeningPlies":4,"MaxMoves":100,"Search":"ept:50"}`; string(b) != want {
		t.Errorf("setup JSON %s, want %s", b, want)
	}
	var out games.Setup
	if err := json.Unmarshal(b, &out); err != nil || out != in {
		t.Errorf("read back %+v, %v; want %+v", out, err, in)
	}
}

// TestBindingSearchesAsTheSetupSays checks, in every game, the agents'
// players of a game bound under a setup: alpha-beta without a search, MCTS-EPT of N
// playouts cut after six plies with search ept:N, and an error naming a
// bad search.
func TestBindingSearchesAsTheSetupSays(t *testing.T) {
	speciesSearch(t, games.Draughts())
	speciesSearch(t, games.Chess())
	speciesSearch(t, games.Xiangqi())
}

func speciesSearch[M comparable, S search.Game[M]](t *testing.T, k games.Kind[M, S]) {
	t.Helper()
	net, err := nnet.Random([]int{k.Inputs, 4, 1}, 0, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	ab, err := k.Bind(games.Setup{Depth: 1}).Player(net)
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := ab().(search.Searcher[M, S]); !ok {
		t.Errorf("%s without a search: a %T, want an alpha-beta searcher", k.Name, p)
	}
	ept, err := k.Bind(games.Setup{Depth: 1, Search: "ept:30"}).Player(net)
	if err != nil {
		t.Fatal(err)
	}
	p, ok := ept().(*search.MCTSPlayer[M, S])
	if !ok {
		t.Fatalf("%s with search ept:30: a %T, want an MCTS player", k.Name, ept())
	}
	if o := p.Options(); o.Playouts != 30 || o.PlayoutPlies != player.EPTPlies {
		t.Errorf("%s with search ept:30: %+v, want 30 playouts cut after %d plies", k.Name, o, player.EPTPlies)
	}
	if _, err := k.Bind(games.Setup{Search: "ept:zero"}).Player(net); !errors.Is(err, player.ErrSearch) || !strings.Contains(err.Error(), `"ept:zero"`) {
		t.Errorf("%s with search ept:zero: %v, want an ErrSearch naming it", k.Name, err)
	}
}

package tune

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"evolved/game"
	"evolved/game/chess"
	"evolved/search"
	"evolved/tournament"
)

// bowl is a synthetic PairFunc: a player's strength is -Σ((p-opt)/step)²
// over the tuned parameters, and plus wins each game with the logistic
// probability of the strengths' difference (no draws), drawn from a
// stream seeded by k, so that a tuning over it is deterministic.
func bowl(opt map[string]int) PairFunc {
	strength := func(p search.Params) float64 {
		s := 0.0
		for name, o := range opt {
			v, _ := p.Value(name)
			d := float64(v-o) / float64(tunable(name).Step)
			s -= d * d
		}
		return s
	}
	return func(_ context.Context, k int, plus, minus search.Params) (Pair, error) {
		rng := rand.New(rand.NewPCG(uint64(k), 7))
		win := 1 / (1 + math.Exp(-(strength(plus)-strength(minus))/4))
		var p Pair
		for g := range p {
			if rng.Float64() < win {
				p[g] = 1
			}
		}
		return p, nil
	}
}

// TestTuningClimbsTheBowl tunes two parameters started four steps from
// the bowl's bottom: each must end at least halfway there, and the one
// not tuned where it started.
func TestTuningClimbsTheBowl(t *testing.T) {
	opt := map[string]int{"rfp_margin": 130, "lmr_divisor": 165}
	st, err := New(Settings{Game: "chess", Names: []string{"rfp_margin", "lmr_divisor"}, Pairs: 3000, Rate: 0.05, Seed: 1}, search.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), st, bowl(opt), 4, func(*State) error { return nil }); err != nil {
		t.Fatal(err)
	}
	got, err := st.Params()
	if err != nil {
		t.Fatal(err)
	}
	d := search.DefaultParams()
	for name, o := range opt {
		start, _ := d.Value(name)
		end, _ := got.Value(name)
		if math.Abs(float64(end-o)) > math.Abs(float64(start-o))/2 {
			t.Errorf("%s went from %d to %d, the bottom at %d: not halfway", name, start, end, o)
		}
		t.Logf("%s: %d -> %d (bottom %d)", name, start, end, o)
	}
	if got.Aspiration != d.Aspiration || st.Done != 3000 || st.Wins+st.Losses != 6000 || len(st.Path) != (3000+DefaultBatch-1)/DefaultBatch+1 {
		t.Errorf("aspiration %d, %d pairs done, %d games, %d points of the path", got.Aspiration, st.Done, st.Wins+st.Losses, len(st.Path))
	}
}

// TestTuningIsDeterministic checks that a tuning gives the same state at
// one worker and at eight, and stopped after three batches, written as
// JSON, read back and resumed.
func TestTuningIsDeterministic(t *testing.T) {
	opt := map[string]int{"futility_margin": 160}
	settings := Settings{Game: "chess", Pairs: 200, Batch: 10, Rate: 0.05, Seed: 9}
	run := func(workers, stopAfter int) *State {
		st, err := New(settings, search.DefaultParams())
		if err != nil {
			t.Fatal(err)
		}
		stop := errors.New("stop")
		batches := 0
		err = Run(context.Background(), st, bowl(opt), workers, func(*State) error {
			if batches++; batches == stopAfter {
				return stop
			}
			return nil
		})
		if stopAfter == 0 {
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
		if !errors.Is(err, stop) {
			t.Fatalf("stopped tuning: %v", err)
		}
		b, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		var back State
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if err := Run(context.Background(), &back, bowl(opt), workers, func(*State) error { return nil }); err != nil {
			t.Fatal(err)
		}
		return &back
	}
	one := run(1, 0)
	if eight := run(8, 0); !reflect.DeepEqual(one, eight) {
		t.Errorf("one worker and eight differ:\n%+v\n%+v", one.Theta, eight.Theta)
	}
	if resumed := run(3, 3); !reflect.DeepEqual(one, resumed) {
		t.Errorf("a resumed tuning differs:\n%+v\n%+v", one.Theta, resumed.Theta)
	}
	if len(one.Theta) != len(search.Tunables()) {
		t.Errorf("no names tunes %d parameters, want all %d", len(one.Theta), len(search.Tunables()))
	}
}

func TestNewRefusesBadSettings(t *testing.T) {
	for _, c := range []struct {
		s    Settings
		want string
	}{
		{Settings{Pairs: 0}, "0 pairs"},
		{Settings{Pairs: 10, Names: []string{"rfp_margin", "rfp_margin"}}, "rfp_margin named twice"},
		{Settings{Pairs: 10, Names: []string{"rfp"}}, `unknown parameter "rfp"`},
		{Settings{Pairs: 10, Rate: -1}, "want them positive"},
	} {
		if _, err := New(c.s, search.DefaultParams()); !errors.Is(err, ErrSettings) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%+v): %v, want ErrSettings saying %q", c.s, err, c.want)
		}
	}
}

// TestPairsScorePlus plays pairs of chess games between a player that
// plays its first legal move when its rfp_margin is 10 and searches
// material to depth 2 otherwise: whichever colour it has, and whether it
// is plus or minus, the careless side must score next to nothing, so the
// pair's points are plus's, not the first player's, and its colours swap.
func TestPairsScorePlus(t *testing.T) {
	rules := chess.DefaultRules()
	rules.MaxMoves = 80
	arena := tournament.Arena[chess.Move, *chess.Game]{Name: "chess", OpeningPlies: 4,
		NewGame: func() *chess.Game { return chess.NewGame(chess.Start(), rules) },
		Adjudicate: func(g *chess.Game) (game.Outcome, bool) { // seven pawns ahead wins
			switch e := (material{}).Evaluate(g); {
			case e >= 700:
				return game.Outcome{Result: game.WinFor(g.ToMove()), Reason: game.Adjudicated}, true
			case e <= -700:
				return game.Outcome{Result: game.WinFor(g.ToMove().Other()), Reason: game.Adjudicated}, true
			}
			return game.Outcome{}, false
		}}
	newPlayer := func() search.Player[chess.Move, *chess.Game] {
		return &careless{Searcher: search.Searcher[chess.Move, *chess.Game]{AlphaBeta: search.NewAlphaBeta[chess.Move, *chess.Game](material{}, search.Options{Depth: 2, Quiescence: true, TableBits: 12})}}
	}
	if _, err := Check("careless", newPlayer); err != nil {
		t.Fatal(err)
	}
	if _, err := Check("random", func() search.Player[chess.Move, *chess.Game] { return search.NewRandom[chess.Move, *chess.Game]() }); !errors.Is(err, ErrSettings) {
		t.Errorf("Check of a random mover: %v, want ErrSettings", err)
	}
	weak := search.DefaultParams()
	weak.RFPMargin = 10
	play := Pairs(arena, 3, newPlayer)
	var asPlus, asMinus float64
	for k := range 4 {
		p, err := play(context.Background(), k, weak, search.DefaultParams())
		if err != nil {
			t.Fatal(err)
		}
		q, err := play(context.Background(), k, search.DefaultParams(), weak)
		if err != nil {
			t.Fatal(err)
		}
		asPlus += p[0] + p[1]
		asMinus += 2 - q[0] - q[1]
	}
	if asPlus > 1 || asMinus > 1 {
		t.Errorf("the careless player scored %g of 8 as plus and %g as minus, want at most 1 each", asPlus, asMinus)
	}
}

// careless is a player that plays its first legal move when its
// rfp_margin is 10, and searches otherwise.
type careless struct {
	search.Searcher[chess.Move, *chess.Game]
	params search.Params
}

func (c *careless) SetParams(p search.Params) { c.params = p; c.Searcher.SetParams(p) }

func (c *careless) Move(ctx context.Context, g *chess.Game) (search.Result[chess.Move], error) {
	if c.params.RFPMargin == 10 {
		return search.Result[chess.Move]{Move: g.LegalMoves(nil)[0]}, nil
	}
	return c.Searcher.Move(ctx, g)
}

// material is a test evaluator: pawn 100, knight and bishop 300, rook
// 500, queen 900, from the side to move's view.
type material struct{}

func (material) Evaluate(g *chess.Game) int {
	p := g.Position()
	values := [...]int{chess.Pawn: 100, chess.Knight: 300, chess.Bishop: 300, chess.Rook: 500, chess.Queen: 900}
	score := 0
	for pt, v := range values {
		score += v * (p.Pieces(p.Side(), chess.PieceType(pt)).Count() - p.Pieces(p.Side().Other(), chess.PieceType(pt)).Count())
	}
	return score
}

// TestStateReadsBack writes a tuning's state and reads it back equal, and
// refuses states that are not one a tuning wrote.
func TestStateReadsBack(t *testing.T) {
	st, err := New(Settings{Game: "chess", Names: []string{"rfp_margin", "lmr_base"}, Pairs: 40, Batch: 16, Rate: 0.05, Seed: 2}, search.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), st, bowl(map[string]int{"rfp_margin": 150}), 2, func(*State) error { return nil }); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if _, err := st.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	back, err := ReadState(strings.NewReader(b.String()))
	if err != nil || !reflect.DeepEqual(back, st) {
		t.Fatalf("read back %+v, %v; want %+v", back, err, st)
	}
	pairs, names, steps := back.Trajectory()
	if !reflect.DeepEqual(pairs, []int{0, 16, 32, 40}) || !reflect.DeepEqual(names, []string{"rfp_margin", "lmr_base"}) || len(steps) != 2 || len(steps[0]) != 4 || steps[0][0] != 0 ||
		steps[0][3] != (st.Theta[0].Value-90)/20 {
		t.Errorf("trajectory %v %v %v", pairs, names, steps)
	}
	for _, c := range []struct{ from, to, want string }{
		{`"done": 40`, `"done": 41`, "41 pairs done of 40"},
		{`"wins": `, `"wins": 1`, "wins"},
		{`"value": ` + strconv.FormatFloat(st.Theta[0].Value, 'g', -1, 64), `"value": 5`, "rfp_margin = 5 is out of its range"},
		{`"batch": 16`, `"batch": 8`, "a path of 4 points for 40 pairs in batches of 8"},
		{`"seed": 2`, `"seed": 2, "extra": 1`, `unknown field "extra"`},
	} {
		bad := strings.Replace(b.String(), c.from, c.to, 1)
		if bad == b.String() {
			t.Fatalf("%q is not in the state:\n%s", c.from, b.String())
		}
		if _, err := ReadState(strings.NewReader(bad)); !errors.Is(err, ErrState) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s -> %s: %v, want ErrState saying %q", c.from, c.to, err, c.want)
		}
	}
}

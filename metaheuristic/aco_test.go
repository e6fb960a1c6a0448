package metaheuristic

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"evolved/game/chess"
	"evolved/search"
)

// randomOpponent is the cheapest opponent, seeded per game.
func randomOpponent() search.Player[chess.Move, *chess.Game] {
	return search.NewRandom[chess.Move, *chess.Game]()
}

// near reports whether a and b agree to 1e-12.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*max(1, math.Abs(a), math.Abs(b)) }

// probabilities returns the draw probabilities of values.
func probabilities(values []float64, tolerance float64) []float64 {
	w := append([]float64(nil), values...)
	weights(w, tolerance)
	total := 0.0
	for _, x := range w {
		total += x
	}
	for i := range w {
		w[i] /= total
	}
	return w
}

func TestMoveProbabilities(t *testing.T) {
	tests := []struct {
		name      string
		values    []float64
		tolerance float64
		want      []float64
	}{
		// min -2: shifted {0, 3, 5}, sum 8 = sum V (2) + n|min| (3*2).
		{"negative minimum", []float64{-2, 1, 3}, 0, []float64{0, 3.0 / 8, 5.0 / 8}},
		// min 1 > 0 is added, not subtracted: {2, 4}, sum 6 = 4 + 2*1.
		{"positive minimum", []float64{1, 3}, 0, []float64{2.0 / 6, 4.0 / 6}},
		// min 0: {0, 0, 4}: only the positive move is drawn.
		{"zero minimum", []float64{0, 0, 4}, 0, []float64{0, 0, 1}},
		// Degenerate: all equal, whatever the sign, is uniform.
		{"all zero", []float64{0, 0}, 0, []float64{0.5, 0.5}},
		{"all equal negative", []float64{-3, -3, -3}, 0, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}},
		{"all equal positive", []float64{7, 7, 7, 7}, 0.5, []float64{0.25, 0.25, 0.25, 0.25}},
		{"one move", []float64{-9}, 0.1, []float64{1}},
		// Tolerance 0.5: {0, 3, 5} -> {0, 1.5, 5}, sum 6.5.
		{"tolerance", []float64{-2, 1, 3}, 0.5, []float64{0, 1.5 / 6.5, 5 / 6.5}},
		// Tolerance 0.1 on {1, 1, 1, 5}: shifted {2, 2, 2, 6} -> {0.2, 0.2,
		// 0.2, 6}, sum 6.6: the best move goes from 6/12 = 50% to 91%.
		{"tolerance favours the best", []float64{1, 1, 1, 5}, 0.1, []float64{0.2 / 6.6, 0.2 / 6.6, 0.2 / 6.6, 6 / 6.6}},
		// Moves tied for best are all best: {3, 3, 1} -> {4, 4, 2} -> {4, 4, 1}.
		{"tolerance with tied best", []float64{3, 3, 1}, 0.5, []float64{4.0 / 9, 4.0 / 9, 1.0 / 9}},
		// Tolerance 1 is the plain method.
		{"tolerance 1", []float64{-2, 1, 3}, 1, []float64{0, 3.0 / 8, 5.0 / 8}},
	}
	for _, tt := range tests {
		got := probabilities(tt.values, tt.tolerance)
		for i := range got {
			if !near(got[i], tt.want[i]) {
				t.Errorf("%s: probabilities(%v, %v) = %v, want %v", tt.name, tt.values, tt.tolerance, got, tt.want)
				break
			}
		}
	}
}

func TestPickFollowsWeights(t *testing.T) {
	w := []float64{0, 3, 5}
	rng := rand.New(rand.NewPCG(1, 2))
	var count [3]int
	const n = 80000
	for range n {
		count[pick(rng, w)]++
	}
	if count[0] != 0 {
		t.Errorf("a move of weight 0 was drawn %d times", count[0])
	}
	if f := float64(count[2]) / n; math.Abs(f-5.0/8) > 0.01 {
		t.Errorf("weight 5 of 8 drawn %.4f of the time, want 0.625", f)
	}
	zero := []float64{0, 0, 0}
	for range 100 {
		if i := pick(rng, zero); i < 0 || i > 2 {
			t.Fatalf("pick of zero weights gave %d", i)
		}
	}
}

func TestReinforce(t *testing.T) {
	start := chess.Start()
	startBoard := BoardOf(&start)
	e4, _ := start.ParseUCI("e2e4", false)
	after := start.Play(e4)
	e5, _ := after.ParseUCI("e7e5", false)
	p2 := after.Play(e5)
	nf3, _ := p2.ParseUCI("g1f3", false)
	other := mustFEN(t, smallFEN)

	tab := NewPheromones()
	tab.ensure(&other) // not visited: must not dissipate
	games := []played{
		// m = 2, cost 6: e2e4 gets 1/2*6 = 3, g1f3 gets 2/2*6 = 6.
		{cost: 6, visits: []visit{{startBoard, e4}, {BoardOf(&p2), nf3}}},
		// m = 1, cost -4: e2e4 gets 1/1*-4.
		{cost: -4, visits: []visit{{startBoard, e4}}},
	}
	// The ants' notes: both met the start position as new, the first also
	// p2.
	keys := func(p chess.Position) []moveKey { return legalKeys(p.LegalMoves(nil)) }
	ants := []*ant{
		{missing: [][]moveKey{keys(start), keys(p2)}},
		{missing: [][]moveKey{keys(start)}},
	}
	tab.reinforce(games, ants, 0.1)
	value := func(p chess.Position, uci string) float64 {
		for _, mv := range tab.Values(&p) {
			if p.FormatUCI(mv.Move, false) == uci {
				return mv.Value
			}
		}
		t.Fatalf("no %s in the table", uci)
		return 0
	}
	checks := []struct {
		pos  chess.Position
		move string
		want float64
	}{
		{start, "e2e4", (1 + 3 - 4) * 0.9}, // 0
		{start, "d2d4", 1 * 0.9},           // untouched move, dissipated
		{p2, "g1f3", (1 + 6) * 0.9},        // 6.3
		{p2, "b1c3", 1 * 0.9},
		{other, "e1e2", 1}, // position not visited
	}
	for _, c := range checks {
		if got := value(c.pos, c.move); !near(got, c.want) {
			t.Errorf("%s in %s = %v, want %v", c.move, c.pos.FEN(), got, c.want)
		}
	}
	if tab.Len() != 3 {
		t.Errorf("%d positions, want 3", tab.Len())
	}
}

// stripTimes strips a result of its timings.
func stripTimes(r Result) Result {
	r.Iterations = append([]IterationStats(nil), r.Iterations...)
	for i := range r.Iterations {
		r.Iterations[i].Elapsed = 0
	}
	return r
}

func tableBytes(t *testing.T, tab *Pheromones) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := tab.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sameResults checks that two runs learnt exactly the same.
func sameResults(t *testing.T, what string, a, b Result) {
	t.Helper()
	if !reflect.DeepEqual(stripTimes(a).Iterations, stripTimes(b).Iterations) {
		t.Errorf("%s: iterations differ:\n%+v\n%+v", what, a.Iterations, b.Iterations)
	}
	if !reflect.DeepEqual(a.Best, b.Best) {
		t.Errorf("%s: best games differ:\n%v\n%v", what, a.Best.UCI(), b.Best.UCI())
	}
	if !bytes.Equal(tableBytes(t, a.Table), tableBytes(t, b.Table)) {
		t.Errorf("%s: tables differ", what)
	}
}

func TestPheromonesRoundTripAfterLearning(t *testing.T) {
	cfg := DefaultACOConfig()
	cfg.Opponent = randomOpponent
	cfg.Iterations, cfg.Ants, cfg.Turns, cfg.Workers = 3, 4, 10, 1
	res, err := RunACO(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var first bytes.Buffer
	if err := res.Table.Write(&first); err != nil {
		t.Fatal(err)
	}
	back, err := ReadPheromones(bytes.NewReader(first.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if back.Len() != res.Table.Len() || back.Len() < 10 {
		t.Fatalf("read %d positions, wrote %d", back.Len(), res.Table.Len())
	}
	var second bytes.Buffer
	if err := back.Write(&second); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first.Bytes(), second.Bytes()) {
		t.Errorf("write, read, write changed the file")
	}
}

func TestACOWorkersIdentical(t *testing.T) {
	for _, memo := range []bool{false, true} {
		var runs [2]Result
		for w := range runs {
			cfg := DefaultACOConfig()
			cfg.Opponent = randomOpponent
			cfg.Iterations, cfg.Ants, cfg.Turns, cfg.Workers = 4, 8, 12, w+1
			cfg.Tolerance, cfg.MemoOpponent, cfg.Seed = 0.5, memo, 7
			res, err := RunACO(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			runs[w] = res
		}
		sameResults(t, "aco", runs[0], runs[1])
		if runs[0].Table.Len() < 20 || len(runs[0].Best.Moves) == 0 {
			t.Errorf("learnt %d positions, best game %d moves", runs[0].Table.Len(), len(runs[0].Best.Moves))
		}
	}
}

func TestACOStartAndStats(t *testing.T) {
	cfg := DefaultACOConfig()
	cfg.Opponent = randomOpponent
	cfg.Start = Start{FEN: "", Moves: []string{"e2e4", "c7c5"}}
	cfg.Iterations, cfg.Ants, cfg.Turns, cfg.Workers = 2, 3, 5, 1
	var seen []IterationStats
	cfg.OnIteration = func(s IterationStats) { seen = append(seen, s) }
	res, err := RunACO(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(seen, res.Iterations) || len(seen) != 2 {
		t.Fatalf("OnIteration saw %v, Result has %v", seen, res.Iterations)
	}
	for k, s := range seen {
		if s.Iteration != k || s.Games != 3 || s.BestCost < s.MeanCost || s.BestSoFar < s.BestCost {
			t.Errorf("iteration %d: %+v", k, s)
		}
	}
	b := res.Best
	if b.Opening != 2 || b.Learner != chess.White || len(b.Moves) < 3 || len(b.Moves) > 2+2*5 {
		t.Errorf("best game: opening %d, learner %v, %d moves", b.Opening, b.Learner, len(b.Moves))
	}
	if uci := b.UCI(); uci[0] != "e2e4" || uci[1] != "c7c5" {
		t.Errorf("best game starts %v", uci[:2])
	}
	if b.Cost != res.Iterations[1].BestSoFar {
		t.Errorf("best cost %v, BestSoFar %v", b.Cost, res.Iterations[1].BestSoFar)
	}
	var pgn bytes.Buffer
	if err := chess.WritePGN(&pgn, b.PGN()); err != nil {
		t.Errorf("WritePGN: %v", err)
	}
}

// countingOpponent records the seeds it is given and whether it is closed.
type countingOpponent struct {
	*search.Random[chess.Move, *chess.Game]
	log *opponentLog
}

type opponentLog struct {
	mu     sync.Mutex
	seeds  map[uint64]int
	made   int
	closed int
	asked  map[uint64]int // by position hash
}

func (o countingOpponent) NewGame(seed uint64) {
	o.log.mu.Lock()
	o.log.seeds[seed]++
	o.log.mu.Unlock()
	o.Random.NewGame(seed)
}

func (o countingOpponent) Move(ctx context.Context, g *chess.Game) (search.Result[chess.Move], error) {
	o.log.mu.Lock()
	if o.log.asked != nil {
		o.log.asked[g.Hash()]++
	}
	o.log.mu.Unlock()
	return o.Random.Move(ctx, g)
}

func (o countingOpponent) Close() error {
	o.log.mu.Lock()
	o.log.closed++
	o.log.mu.Unlock()
	return nil
}

func (l *opponentLog) factory() Opponent {
	return func() search.Player[chess.Move, *chess.Game] {
		l.mu.Lock()
		l.made++
		l.mu.Unlock()
		return countingOpponent{search.NewRandom[chess.Move, *chess.Game](), l}
	}
}

func TestOpponentSeedsAndClose(t *testing.T) {
	log := &opponentLog{seeds: map[uint64]int{}}
	cfg := DefaultACOConfig()
	cfg.Opponent = log.factory()
	cfg.Iterations, cfg.Ants, cfg.Turns, cfg.Workers = 3, 5, 4, 2
	if _, err := RunACO(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	// One distinct seed per (iteration, ant), at most one opponent per
	// worker, all closed.
	if len(log.seeds) != 15 {
		t.Errorf("%d distinct opponent seeds for 15 games", len(log.seeds))
	}
	if log.made < 1 || log.made > 2 || log.closed != log.made {
		t.Errorf("made %d opponents, closed %d, want 1 or 2, all closed", log.made, log.closed)
	}
}

func TestMemoAsksOncePerPosition(t *testing.T) {
	// 40 games of two turns from the start position meet the same
	// positions again and again: with the memo the opponent is asked about
	// each position once in the whole run, without it many times. (Games
	// of one iteration share what they learn only from the next iteration
	// on, so one ant per iteration makes the bound exact.)
	for _, memo := range []bool{false, true} {
		log := &opponentLog{seeds: map[uint64]int{}, asked: map[uint64]int{}}
		cfg := DefaultACOConfig()
		cfg.Opponent = log.factory()
		cfg.MemoOpponent = memo
		cfg.Iterations, cfg.Ants, cfg.Turns = 40, 1, 2
		if _, err := RunACO(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		most := 0
		for _, n := range log.asked {
			most = max(most, n)
		}
		if memo && most != 1 || !memo && most < 2 {
			t.Errorf("memo %v: a position was asked about %d times", memo, most)
		}
	}
}

func TestACOCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := DefaultACOConfig()
	cfg.Opponent = randomOpponent
	cfg.Iterations, cfg.Ants, cfg.Turns = 1000, 4, 10
	cfg.OnIteration = func(s IterationStats) {
		if s.Iteration == 1 {
			cancel()
		}
	}
	res, err := RunACO(ctx, cfg)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if len(res.Iterations) != 2 || res.Table == nil || res.Table.Len() == 0 {
		t.Errorf("after cancelling: %d iterations, table %v", len(res.Iterations), res.Table)
	}
}

func TestConfigErrors(t *testing.T) {
	ok := DefaultACOConfig()
	ok.Opponent = randomOpponent
	tests := []struct {
		field  string
		change func(c *ACOConfig)
		chess  error // a chess sentinel the error wraps too
	}{
		{"Opponent", func(c *ACOConfig) { c.Opponent = nil }, nil},
		{"Turns", func(c *ACOConfig) { c.Turns = 0 }, nil},
		{"Iterations", func(c *ACOConfig) { c.Iterations = -1 }, nil},
		{"Workers", func(c *ACOConfig) { c.Workers = -2 }, nil},
		{"Weights", func(c *ACOConfig) { c.Weights[0] = math.Inf(1) }, nil},
		{"Ants", func(c *ACOConfig) { c.Ants = 0 }, nil},
		{"Dissipation", func(c *ACOConfig) { c.Dissipation = 1.5 }, nil},
		{"Dissipation", func(c *ACOConfig) { c.Dissipation = math.NaN() }, nil},
		{"Tolerance", func(c *ACOConfig) { c.Tolerance = -0.1 }, nil},
		{"Start.FEN", func(c *ACOConfig) { c.Start.FEN = "8/8 w" }, chess.ErrSyntax},
		{"Start.Moves[1]", func(c *ACOConfig) { c.Start.Moves = []string{"e2e4", "e2e4"} }, chess.ErrIllegalMove},
		{"Start", func(c *ACOConfig) { c.Start.FEN = "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1" }, nil},
	}
	for _, tt := range tests {
		c := ok
		tt.change(&c)
		for _, err := range []error{c.Validate(), func() error { _, err := RunACO(context.Background(), c); return err }()} {
			var ce *ConfigError
			if !errors.As(err, &ce) || !errors.Is(err, ErrConfig) || ce.Field != tt.field {
				t.Errorf("%s: error %v, want a *ConfigError for the field", tt.field, err)
			}
			if tt.chess != nil && !errors.Is(err, tt.chess) {
				t.Errorf("%s: error %v does not wrap %v", tt.field, err, tt.chess)
			}
		}
	}
	if err := ok.Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
	if m, err := ParseMethod("ga"); m != GA || err != nil {
		t.Errorf("ParseMethod(ga) = %v, %v", m, err)
	}
	if _, err := ParseMethod("pso"); !errors.Is(err, ErrConfig) {
		t.Errorf("ParseMethod(pso) error %v", err)
	}
}

package search

import (
	"context"
	"strings"
	"testing"
	"time"

	"evolved/game/chess"
	"evolved/game/draughts"
	"evolved/game/xiangqi"
)

func TestParseTechniques(t *testing.T) {
	for _, c := range []struct {
		in   string
		base Technique
		want Technique
	}{
		{"", DefaultTechniques, DefaultTechniques},
		{"none", DefaultTechniques, None},
		{"all", None, AllTechniques},
		{"-lmr", DefaultTechniques, DefaultTechniques &^ LMR},
		{"-lmr,-null", AllTechniques, AllTechniques &^ (LMR | NullMove)},
		{"+lmr", None, LMR},
		{"pvs, LMR", DefaultTechniques, PVS | LMR},
		{"-pvs,-aspiration,-null,-lmr,-check,-see,-delta,-rfp,-futility,-mdp,-lmp,-malus,-iir,-counter,-improving", AllTechniques, None},
		{"none,+mdp", AllTechniques, MateDistance},
		{"default,-pvs", DefaultTechniques | HistoryMalus, DefaultTechniques&^PVS | HistoryMalus},
		{"default", PVS, PVS},
	} {
		got, err := ParseTechniques(c.in, c.base)
		if err != nil || got != c.want {
			t.Errorf("ParseTechniques(%q, %v) = %v, %v; want %v", c.in, c.base, got, err, c.want)
		}
	}
	if _, err := ParseTechniques("-lmr,nul", DefaultTechniques); err == nil || !strings.Contains(err.Error(), `"nul"`) {
		t.Errorf("unknown name: error %v, want one naming it", err)
	}
	if got := (PVS | LMR | MateDistance).String(); got != "pvs,lmr,mdp" {
		t.Errorf("String = %q", got)
	}
	if got := None.String(); got != "none" {
		t.Errorf("None.String = %q", got)
	}
}

// TestGameDefaults checks the technique set each game's searches start
// from: chess (and xiangqi, the other game with a quiescence search) adds
// the history malus, which won its SPRTs there; draughts keeps
// DefaultTechniques, so that the Blondie reproduction keeps its games.
func TestGameDefaults(t *testing.T) {
	for name, list := range map[string]string{"chess": (*chess.Game)(nil).SearchSettings(), "xiangqi": (*xiangqi.Game)(nil).SearchSettings()} {
		if _, _, err := ParseSettings(list, DefaultTechniques, DefaultParams()); err != nil {
			t.Errorf("%s's search settings %q: %v", name, list, err)
		}
	}
	if _, p := GameDefaults[draughts.Move, *draughts.Game](); p != DefaultParams() {
		t.Errorf("draughts parameters %v, want the defaults", p)
	}
	chessSet := Defaults[chess.Move, *chess.Game]()
	if chessSet != DefaultTechniques|HistoryMalus || chessSet.Has(LateMovePruning) {
		t.Errorf("chess defaults %v, want %v plus malus", chessSet, DefaultTechniques)
	}
	if got := Defaults[draughts.Move, *draughts.Game](); got != DefaultTechniques || got.Has(HistoryMalus) {
		t.Errorf("draughts defaults %v, want %v", got, DefaultTechniques)
	}
	if got := NewAlphaBeta[chess.Move, *chess.Game](chessMaterial{}, Options{Depth: 2}).Options().Techniques; got != chessSet {
		t.Errorf("a chess search with no techniques named uses %v, want %v", got, chessSet)
	}
	ab := NewAlphaBeta[draughts.Move, *draughts.Game](material{}, Options{Depth: 2})
	ab.SetTechniques(PVS)
	ab.SetTechniques(0)
	if got := ab.Options().Techniques; got != DefaultTechniques {
		t.Errorf("a draughts search set back to zero uses %v, want %v", got, DefaultTechniques)
	}
}

func TestBudget(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		left, inc  time.Duration
		soft, hard time.Duration
	}{
		// 10+0.1 at the start: 10 s/30 + 75 ms - 20 ms = 388 ms; four times that.
		{10 * time.Second, 100 * ms, 10000*ms/30 + 75*ms - 20*ms, 4 * (10000*ms/30 + 55*ms)},
		// 1+0.01: 33 ms + 7.5 ms - 20 ms; the hard limit four times that.
		{time.Second, 10 * ms, 1000*ms/30 + 7500*time.Microsecond - 20*ms, 4 * (1000*ms/30 + 7500*time.Microsecond - 20*ms)},
		// 90 ms left: the soft floor of 5 ms; a third less 20 ms is 10 ms.
		{90 * ms, 10 * ms, 5 * ms, 10 * ms},
		// 30 ms left: both at the 5 ms floor, never past the clock's third.
		{30 * ms, 0, 5 * ms, 5 * ms},
	} {
		soft, hard := Budget(c.left, c.inc, 0)
		if soft != c.soft || hard != c.hard {
			t.Errorf("Budget(%v, %v) = %v, %v; want %v, %v", c.left, c.inc, soft, hard, c.soft, c.hard)
		}
		if hard < soft || hard > max(c.left/3, 5*ms) {
			t.Errorf("Budget(%v, %v) = %v, %v: hard below soft or past a third of the clock", c.left, c.inc, soft, hard)
		}
	}
}

func TestSoftStop(t *testing.T) {
	ab := NewAlphaBeta[cm, cg](chessMaterial{}, Options{SoftTime: 100 * time.Millisecond})
	ms := time.Millisecond
	for _, c := range []struct {
		elapsed time.Duration
		stable  int
		want    bool
	}{
		{59 * ms, 1, false}, {61 * ms, 1, true}, // 60% of the soft time
		{31 * ms, 3, true}, {29 * ms, 3, false}, // half of it when the move held three times
		{89 * ms, 0, false}, {91 * ms, 0, true}, // half as much again when it just changed
	} {
		if got := ab.softStop(c.elapsed, c.stable); got != c.want {
			t.Errorf("softStop(%v, stable %d) = %v, want %v", c.elapsed, c.stable, got, c.want)
		}
	}
	ab.Limits(0, 0, time.Second)
	if ab.softStop(time.Hour, 5) {
		t.Errorf("Limits dropped the soft time, yet softStop stops")
	}
}

func TestTableReplacement(t *testing.T) {
	tt := newTable[cm](4) // 8 buckets of two
	const mate = Win - 3
	k := func(i uint64) uint64 { return i<<32 | 5 } // the same bucket, distinct checks
	tt.store(k(1), 11, 40, 8, 0, boundExact)
	tt.store(k(2), 12, 50, 2, 0, boundLower)
	// A third position in the full bucket replaces the shallower entry.
	tt.store(k(3), 13, 60, 5, 0, boundUpper)
	if _, ok := tt.probe(k(2)); ok {
		t.Errorf("the depth-2 entry survived a depth-5 store into its full bucket")
	}
	if e, ok := tt.probe(k(1)); !ok || e.move != 11 || e.score != 40 || e.depth != 8 || e.bound() != boundExact {
		t.Errorf("deep entry: %+v %v", e, ok)
	}
	// A shallower bound for the same position does not overwrite this
	// search's deeper result; an exact one does.
	tt.store(k(1), 14, 10, 3, 0, boundLower)
	if e, _ := tt.probe(k(1)); e.depth != 8 || e.move != 11 {
		t.Errorf("a shallower bound overwrote the depth-8 entry: %+v", e)
	}
	// After the next search begins, the old entries go first, whatever
	// their depth.
	tt.age()
	tt.store(k(4), 15, 0, 1, 0, boundExact)
	if _, ok := tt.probe(k(4)); !ok {
		t.Errorf("a new search's entry found no place among the old generation's")
	}
	// Win scores are stored relative to the node: a mate in 3 from the
	// root found 2 plies down is a mate in 1 from that node.
	tt.store(k(5), 16, mate, 4, 2, boundExact)
	if e, ok := tt.probe(k(5)); !ok || fromTT(int(e.score), 2) != mate || int(e.score) != Win-1 {
		t.Errorf("mate entry: %+v %v, want node-relative Win-1", e, ok)
	}
	// A fail-low result keeps the move an earlier search stored.
	tt.store(k(5), 0, -5, 6, 2, boundUpper)
	if e, _ := tt.probe(k(5)); e.move != 16 {
		t.Errorf("a fail-low store lost the position's move: %+v", e)
	}
}

// TestTechniquesKeepMatesExact: pruning must not change the length of a
// forced mate. Each position is a mate in n for the side to move; the
// search with every technique must report Win-(2n-1) and play the mating
// line's first move.
func TestTechniquesKeepMatesExact(t *testing.T) {
	for _, c := range []struct {
		fen, move string
		plies     int
	}{
		// Rb7+ Kg8 Ra8#, or Rg1 (the king must go to h8) and Ra8#.
		{"8/7k/R7/8/8/8/8/KR6 w - - 0 1", "b1b7 b1g1", 3},
		// The back-rank mate.
		{"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8", 1},
		// The scholar's mate.
		{"r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "h5f7", 1},
		// Philidor's smothered mate: Qg8+ Rxg8 Nf7#.
		{"5r1k/6pp/7N/8/8/1Q6/6PP/7K w - - 0 1", "b3g8", 3},
	} {
		g := chess.NewGame(mustFEN(t, c.fen), chess.DefaultRules())
		p := g.Position()
		for _, tech := range []Technique{None, AllTechniques} {
			res := NewAlphaBeta[cm, cg](chessMaterial{}, Options{Depth: 6, Quiescence: true, Techniques: tech}).Search(context.Background(), g)
			if res.Score != Win-c.plies || !strings.Contains(c.move, p.FormatUCI(res.Move, false)) {
				t.Errorf("%s with %v: %s scoring %d, want %s scoring Win-%d", c.fen, tech, p.FormatUCI(res.Move, false), res.Score, c.move, c.plies)
			}
		}
	}
}

// TestSelDepthAndHashfull checks the figures a UCI engine prints beside
// each iteration: without quiescence or extensions the deepest ply is the
// depth; with quiescence it goes past it where captures are; the table's
// fill is this search's share of the entries, and 0 after Reset.
func TestSelDepthAndHashfull(t *testing.T) {
	kiwipete := "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	for _, c := range []struct {
		fen   string
		quiet bool
		want  func(int) bool
		what  string
	}{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false, func(d int) bool { return d == 3 }, "3"},
		{kiwipete, true, func(d int) bool { return d > 3 && d < maxPly }, "beyond 3"},
	} {
		g := chess.NewGame(mustFEN(t, c.fen), chess.DefaultRules())
		ab := NewAlphaBeta[cm, cg](chessMaterial{}, Options{Depth: 3, Quiescence: c.quiet, Techniques: None, TableBits: 12})
		var reported []Result[cm]
		ab.OnIteration(func(r Result[cm]) { reported = append(reported, r) })
		res := ab.Search(context.Background(), g)
		if !c.want(res.SelDepth) {
			t.Errorf("%s, quiescence %v: seldepth %d at depth 3, want %s", c.fen, c.quiet, res.SelDepth, c.what)
		}
		last := reported[len(reported)-1]
		if last.SelDepth != res.SelDepth || last.Hashfull <= 0 || last.Hashfull > 1000 {
			t.Errorf("%s: the last report's seldepth %d (search %d), hashfull %d; want the same seldepth and 1..1000", c.fen, last.SelDepth, res.SelDepth, last.Hashfull)
		}
		for i := 1; i < len(reported); i++ {
			if reported[i].Hashfull < reported[i-1].Hashfull {
				t.Errorf("%s: hashfull fell from %d to %d between iterations", c.fen, reported[i-1].Hashfull, reported[i].Hashfull)
			}
		}
	}
	tb := newTable[cm](4) // 16 entries, all sampled
	if got := tb.permill(); got != 0 {
		t.Errorf("an empty table is %d‰ full", got)
	}
	for k := range uint64(4) {
		tb.store(k|k<<40, 0, 0, 1, 0, boundExact)
	}
	if got := tb.permill(); got != 250 {
		t.Errorf("4 of 16 entries: %d‰, want 250", got)
	}
	tb.age()
	if got := tb.permill(); got != 0 {
		t.Errorf("after a new search began: %d‰, want 0 (the entries are an older search's)", got)
	}
}

// TestCounterMove checks the counter-move table by hand: a quiet move that
// cuts a node off is recorded against the move that led there, ordered
// after the killers and before the history's best, and not recorded after
// a null move or with the technique off.
func TestCounterMove(t *testing.T) {
	g := chess.NewGame(mustFEN(t, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"), chess.DefaultRules())
	ab := NewAlphaBeta[cm, cg](chessMaterial{}, Options{Depth: 1, Techniques: DefaultTechniques | CounterMove})
	ab.Search(context.Background(), g) // sizes the tables, prepares the techniques
	pos := mustFEN(t, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
	pick := func(uci string) cm {
		m, err := pos.ParseUCI(uci, false)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	prev, reply, killer, best := pick("f1c4"), pick("d2d3"), pick("b1c3"), pick("h2h3")
	ab.plies[0].move = prev
	ab.noteCutoff(g, 1, reply, 5, true)
	if got := ab.counterTo(g, 1); got != reply {
		t.Fatalf("counter to %v: %v, want %v", prev, got, reply)
	}
	ab.history[g.MoveKey(best)] = orderKiller/2 - 1 // the history's best possible score
	ps := &ab.plies[1]
	ps.moves = append(ps.moves[:0], best, reply, killer)
	ps.killers = [2]cm{killer}
	ab.scoreMoves(g, ps, 0, ab.counterTo(g, 1))
	for i, want := range []cm{killer, reply, best} {
		if got := ab.pickNext(ps, i); got != want {
			t.Errorf("move %d in order: %v, want %v (killer, counter, history)", i+1, got, want)
		}
	}
	ab.plies[0].move = 0 // a null move
	if got := ab.counterTo(g, 1); got != 0 {
		t.Errorf("counter after a null move: %v, want none", got)
	}
	ab.noteCutoff(g, 1, best, 5, true)
	ab.plies[0].move = prev
	if got := ab.counterTo(g, 1); got != reply {
		t.Errorf("a cutoff after a null move overwrote the counter to %v: %v", prev, got)
	}
	off := NewAlphaBeta[cm, cg](chessMaterial{}, Options{Depth: 1})
	off.Search(context.Background(), g)
	off.plies[0].move = prev
	off.noteCutoff(g, 1, reply, 5, true)
	if got := off.counterTo(g, 1); got != 0 || off.counter[g.MoveKey(prev)] != 0 {
		t.Errorf("with the technique off a counter was recorded or given: %v", got)
	}
}

// TestIIRReducesNodesWithoutTableMove checks internal iterative reduction
// against a search without it: from an empty table, a fixed-depth search
// of Kiwipete visits fewer nodes with it, a search to depth 4 with an
// iir_depth of 5 the same nodes (no node deep enough), and the result
// keeps a legal best move.
func TestIIRReducesNodesWithoutTableMove(t *testing.T) {
	const kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	search := func(depth int, set Technique, iirDepth int) Result[cm] {
		p := DefaultParams()
		p.IIRDepth = iirDepth
		g := chess.NewGame(mustFEN(t, kiwipete), chess.DefaultRules())
		return NewAlphaBeta[cm, cg](chessMaterial{}, Options{Depth: depth, Quiescence: true, Techniques: set, Params: &p}).Search(context.Background(), g)
	}
	with, without := search(7, DefaultTechniques|IIR, 4), search(7, DefaultTechniques, 4)
	if with.Nodes >= without.Nodes {
		t.Errorf("depth 7: %d nodes with IIR, %d without: want fewer", with.Nodes, without.Nodes)
	}
	if with.Move == 0 {
		t.Errorf("no best move with IIR")
	}
	if a, b := search(4, DefaultTechniques|IIR, 5), search(4, DefaultTechniques, 5); a.Nodes != b.Nodes || a.Move != b.Move {
		t.Errorf("depth 4, iir_depth 5: %d nodes and %v with IIR, %d and %v without: want the same search", a.Nodes, a.Move, b.Nodes, b.Move)
	}
}

// TestImproving checks the improving flag by hand, from the static values
// of the nodes on the path, and that the technique changes a search: the
// same fixed-depth search of Kiwipete visits another number of nodes with
// it and still finds a move.
func TestImproving(t *testing.T) {
	ab := NewAlphaBeta[cm, cg](chessMaterial{}, Options{Depth: 1})
	const none = -Infinity
	for _, c := range []struct {
		evals []int // plies 0.. of the path; the last is the node's
		want  bool
	}{
		{[]int{10, 0, 20}, true},
		{[]int{30, 0, 20}, false},
		{[]int{20, 0, 20}, false},
		{[]int{10, 0, none}, false},        // the node was not evaluated
		{[]int{none, 0, 5}, true},          // nothing above to compare with
		{[]int{50, 0, none, 0, 40}, false}, // two plies up in check: four plies up
		{[]int{30, 0, none, 0, 40}, true},
		{[]int{7}, true}, // the root
	} {
		for i, e := range c.evals {
			ab.plies[i].eval = e
		}
		if got := ab.improving(len(c.evals) - 1); got != c.want {
			t.Errorf("static values %v: improving %v, want %v", c.evals, got, c.want)
		}
	}
	const kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	search := func(set Technique) Result[cm] {
		g := chess.NewGame(mustFEN(t, kiwipete), chess.DefaultRules())
		return NewAlphaBeta[cm, cg](chessMaterial{}, Options{Depth: 7, Quiescence: true, Techniques: set}).Search(context.Background(), g)
	}
	with, without := search(DefaultTechniques|Improving), search(DefaultTechniques)
	if with.Nodes == without.Nodes || with.Move == 0 {
		t.Errorf("depth 7: %d nodes and move %v with improving, %d without: want another search", with.Nodes, with.Move, without.Nodes)
	}
}

// tunedChess is chess with settings of its own, for TestTunedGame.
type tunedChess struct{ *chess.Game }

func (tunedChess) SearchSettings() string { return "-null,+iir,futility_margin=49,lmr_base=101" }

// tunedEval evaluates tunedChess by material.
type tunedEval struct{}

func (tunedEval) Evaluate(g tunedChess) int { return chessMaterial{}.Evaluate(g.Game) }

// TestTunedGame checks that a game's SearchSettings are where its searches
// start: their techniques and parameters when the options name none, the
// base of a #-list, and options that name their own keep them.
func TestTunedGame(t *testing.T) {
	wantSet := DefaultTechniques&^NullMove | IIR
	wantParams := DefaultParams()
	wantParams.FutilityMargin, wantParams.LMRBase = 49, 101
	o := NewAlphaBeta[cm, tunedChess](tunedEval{}, Options{Depth: 2}).Options()
	if o.Techniques != wantSet || *o.Params != wantParams {
		t.Errorf("techniques %v, parameters %q; want %v, %q", o.Techniques, o.Params, wantSet, wantParams)
	}
	set, p := GameDefaults[cm, tunedChess]()
	if got, _, err := ParseSettings("-lmr", set, p); err != nil || got != wantSet&^LMR {
		t.Errorf("-lmr from the game's settings: %v, %v; want %v", got, err, wantSet&^LMR)
	}
	if got, back := wantParams.Diff(DefaultParams()), DefaultParams().Diff(wantParams); got != "futility_margin=49,lmr_base=101" || back != "futility_margin=100,lmr_base=75" {
		t.Errorf("Diff: %q and back %q", got, back)
	}
	own := DefaultParams()
	o = NewAlphaBeta[cm, tunedChess](tunedEval{}, Options{Depth: 2, Techniques: PVS, Params: &own}).Options()
	if o.Techniques != PVS || *o.Params != own {
		t.Errorf("options naming their own: techniques %v, parameters %q", o.Techniques, o.Params)
	}
}

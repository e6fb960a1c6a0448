package play

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"evolved/game"
	"evolved/game/chess"
	"evolved/game/draughts"
	"evolved/game/xiangqi"
	"evolved/games"
)

// newChess returns a browser chess match from fen ("" for the start)
// against engine, the person playing human.
func newChess(t *testing.T, fen, engine string, human game.Player) Match {
	return newMatch(t, games.Chess(), ChessUI(), fen, engine, human, chess.DefaultRules().MaxMoves)
}

func newDraughts(t *testing.T, fen, engine string, human game.Player) Match {
	return newMatch(t, games.Draughts(), DraughtsUI(), fen, engine, human, draughts.DefaultRules().MaxMoves)
}

func newXiangqi(t *testing.T, fen, engine string, human game.Player) Match {
	return newMatch(t, games.Xiangqi(), XiangqiUI(), fen, engine, human, xiangqi.DefaultRules().MaxMoves)
}

// newMatch returns a browser match of k from fen against engine, seeded
// with 1.
func newMatch[M comparable, S Playable[M]](t *testing.T, k games.Kind[M, S], ui UI[M, S], fen, engine string, human game.Player, maxMoves int) Match {
	t.Helper()
	spec, err := k.Parse(engine)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMatch(k, ui, Options[M, S]{Engine: spec, Human: human, Start: fen, MaxMoves: maxMoves, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustPlay(t *testing.T, m Match, moves ...string) {
	t.Helper()
	for _, mv := range moves {
		if err := m.Play(mv); err != nil {
			t.Fatalf("Play(%q): %v", mv, err)
		}
	}
}

// texts returns the options' texts, in order.
func texts(opts []MoveOption) []string {
	var out []string
	for _, o := range opts {
		out = append(out, o.Text)
	}
	return out
}

func TestBrowserChessStart(t *testing.T) {
	st := newChess(t, "", "random", chess.White).State()
	b := st.Board
	if b.Game != "chess" || b.Files != 8 || b.Ranks != 8 || len(b.Cells) != 64 || len(b.Labels) != 64 {
		t.Fatalf("board %s %dx%d with %d cells and %d labels", b.Game, b.Files, b.Ranks, len(b.Cells), len(b.Labels))
	}
	for _, c := range []struct {
		cell        int
		code, label string
	}{
		{0, "r", "a8"}, {1, "n", "b8"}, {3, "q", "d8"}, {4, "k", "e8"}, {12, "p", "e7"}, {28, "", "e5"},
		{52, "P", "e2"}, {56, "R", "a1"}, {59, "Q", "d1"}, {60, "K", "e1"}, {62, "N", "g1"}, {63, "R", "h1"},
	} {
		if b.Cells[c.cell] != c.code || b.Labels[c.cell] != c.label {
			t.Errorf("cell %d = %q labelled %q, want %q labelled %q", c.cell, b.Cells[c.cell], b.Labels[c.cell], c.code, c.label)
		}
	}
	if b.ToMove != "white" || b.Check != -1 || b.FEN != chess.StartFEN || b.Last == nil || len(b.Last) != 0 {
		t.Errorf("to move %q, check %d, FEN %q, last %v; want white, -1, the start, []", b.ToMove, b.Check, b.FEN, b.Last)
	}
	if st.Human != "white" || st.Engine != "random" || st.Over || st.Result != "*" || st.Outcome != "" || st.Figures != "" || st.Moves == nil {
		t.Errorf("state %+v", st)
	}
	// Every legal move is an option: 20 at the start, e4 and Nf3 among them.
	start := chess.Start()
	if n := len(start.LegalMoves(nil)); len(st.Legal) != n || n != 20 {
		t.Errorf("%d options, want %d", len(st.Legal), n)
	}
	for _, want := range []MoveOption{{From: 52, To: 36, Text: "e4"}, {From: 62, To: 45, Text: "Nf3"}, {From: 57, To: 40, Text: "Na3"}} {
		if !slices.ContainsFunc(st.Legal, func(o MoveOption) bool { return reflect.DeepEqual(o, want) }) {
			t.Errorf("no option %+v in %+v", want, st.Legal)
		}
	}
	// Natural order of the texts, as the terminal lists them.
	if got := texts(st.Legal)[:4]; !slices.Equal(got, []string{"Na3", "Nc3", "Nf3", "Nh3"}) {
		t.Errorf("first options %v", got)
	}
	data, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"last":[]`, `"moves":[]`, `"check":-1`, `"to_move":"white"`, `{"from":52,"to":36,"text":"e4"}`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("JSON lacks %s:\n%s", want, data)
		}
	}
}

func TestBrowserChessPlayAndReply(t *testing.T) {
	m := newChess(t, "", "material:1", chess.White)
	mustPlay(t, m, "e4")
	st := m.State()
	if !slices.Equal(st.Board.Last, []int{52, 36}) || !slices.Equal(st.Moves, []string{"e4"}) {
		t.Errorf("after e4: last %v, moves %v; want [52 36], [e4]", st.Board.Last, st.Moves)
	}
	if st.Board.Cells[36] != "P" || st.Board.Cells[52] != "" || st.Board.ToMove != "black" || len(st.Legal) != 0 || st.Legal == nil {
		t.Errorf("after e4: e4 %q, e2 %q, to move %q, %d options", st.Board.Cells[36], st.Board.Cells[52], st.Board.ToMove, len(st.Legal))
	}
	if err := m.Play("d4"); !errors.Is(err, ErrNotYourTurn) {
		t.Errorf("Play on the engine's turn = %v, want ErrNotYourTurn", err)
	}
	if err := m.Reply(context.Background()); err != nil {
		t.Fatal(err)
	}
	st = m.State()
	if len(st.Moves) != 2 || st.Board.ToMove != "white" || len(st.Legal) == 0 || !strings.HasPrefix(st.Figures, "depth 1, ") {
		t.Errorf("after the reply: moves %v, to move %q, %d options, figures %q", st.Moves, st.Board.ToMove, len(st.Legal), st.Figures)
	}
	// On the person's turn Reply does nothing.
	if err := m.Reply(context.Background()); err != nil || len(m.State().Moves) != 2 {
		t.Errorf("Reply on the person's turn: %v, %d moves", err, len(m.State().Moves))
	}
	// UCI is read too, and the person's move clears the engine's figures.
	mustPlay(t, m, "g1f3")
	if st := m.State(); st.Moves[2] != "Nf3" || st.Figures != "" {
		t.Errorf("g1f3 recorded as %q, figures %q", st.Moves[2], st.Figures)
	}
}

func TestBrowserChessBadMoves(t *testing.T) {
	m := newChess(t, "", "random", chess.White)
	for _, c := range []struct{ text, reason string }{
		{"e5", `play: bad move "e5": illegal move: no legal move matches; legal moves: Na3, Nc3, Nf3, Nh3, a3, a4,`},
		{"zz", `play: bad move "zz": cannot read the move: "zz" is not a destination square a1..h8; legal moves: Na3,`},
		{"e2e5", `play: bad move "e2e5": illegal move: not a legal move; legal moves: Na3,`},
	} {
		err := m.Play(c.text)
		if !errors.Is(err, ErrBadMove) || err == nil || !strings.HasPrefix(err.Error(), c.reason) {
			t.Errorf("Play(%q) = %v, want ErrBadMove starting %q", c.text, err, c.reason)
		}
	}
	if st := m.State(); len(st.Moves) != 0 {
		t.Errorf("bad moves were played: %v", st.Moves)
	}
	black := newChess(t, "", "random", chess.Black)
	if err := black.Play("e4"); !errors.Is(err, ErrNotYourTurn) {
		t.Errorf("Black playing first = %v, want ErrNotYourTurn", err)
	}
}

func TestBrowserChessCheckAndPromotion(t *testing.T) {
	// 1. e4 f5 2. Qh5+: only g6 blocks.
	st := newChess(t, "rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2", "random", chess.Black).State()
	if st.Board.Check != 4 {
		t.Errorf("check on cell %d, want 4 (e8)", st.Board.Check)
	}
	if want := []MoveOption{{From: 14, To: 22, Text: "g6"}}; !reflect.DeepEqual(st.Legal, want) {
		t.Errorf("options %+v, want %+v", st.Legal, want)
	}
	// b7 promotes on b8 or takes on a8: four options per pair of cells.
	st = newChess(t, "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "random", chess.White).State()
	byCells := map[[2]int][]string{}
	for _, o := range st.Legal {
		byCells[[2]int{o.From, o.To}] = append(byCells[[2]int{o.From, o.To}], o.Text)
	}
	if got := byCells[[2]int{9, 1}]; !slices.Equal(got, []string{"b8=B", "b8=N", "b8=Q+", "b8=R+"}) {
		t.Errorf("b7-b8: %v", got)
	}
	if got := byCells[[2]int{9, 0}]; !slices.Equal(got, []string{"bxa8=B", "bxa8=N", "bxa8=Q+", "bxa8=R+"}) {
		t.Errorf("b7xa8: %v", got)
	}
	p, _ := chess.ParseFEN("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
	if len(st.Legal) != len(p.LegalMoves(nil)) {
		t.Errorf("%d options, %d legal moves", len(st.Legal), len(p.LegalMoves(nil)))
	}
}

func TestBrowserChessCastling(t *testing.T) {
	// Classical castling goes to the king's square; in this Chess960
	// position (king g1, rook h1) the king stays, so it goes to the rook's.
	st := newChess(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "random", chess.White).State()
	for _, want := range []MoveOption{{From: 60, To: 62, Text: "O-O"}, {From: 60, To: 58, Text: "O-O-O"}} {
		if !slices.ContainsFunc(st.Legal, func(o MoveOption) bool { return reflect.DeepEqual(o, want) }) {
			t.Errorf("no option %+v", want)
		}
	}
	st = newChess(t, "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", "random", chess.White).State()
	if !slices.ContainsFunc(st.Legal, func(o MoveOption) bool { return reflect.DeepEqual(o, MoveOption{From: 62, To: 63, Text: "O-O"}) }) {
		t.Errorf("no O-O from g1 to h1 in %+v", st.Legal)
	}
}

func TestBrowserGameOver(t *testing.T) {
	// Fool's mate: White is mated.
	m := newChess(t, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "random", chess.White)
	st := m.State()
	if !st.Over || st.Result != "0-1" || st.Outcome != "Black wins: checkmate" || len(st.Legal) != 0 || st.Board.Check != 60 {
		t.Errorf("over %v, result %q, outcome %q, %d options, check %d", st.Over, st.Result, st.Outcome, len(st.Legal), st.Board.Check)
	}
	err := m.Play("e4")
	if !errors.Is(err, ErrGameOver) || err.Error() != "play: the game is over (Black wins: checkmate)" {
		t.Errorf("Play after mate = %v", err)
	}
	if err := m.Reply(context.Background()); err != nil {
		t.Errorf("Reply after mate = %v", err)
	}
}

func TestBrowserReplyCancelled(t *testing.T) {
	m := newChess(t, "", "material:3", chess.Black)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := m.Reply(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Reply(cancelled) = %v, want context.Canceled", err)
	}
	if st := m.State(); len(st.Moves) != 0 || st.Board.ToMove != "white" || len(st.Legal) != 0 {
		t.Errorf("a cancelled reply changed the game: %+v", st)
	}
	if err := m.Reply(context.Background()); err != nil || len(m.State().Moves) != 1 {
		t.Errorf("Reply after the cancelled one: %v, moves %v", err, m.State().Moves)
	}
}

func TestBrowserReplyDeadline(t *testing.T) {
	// A deep search (depth 30 from the start takes seconds) stops at the
	// deadline; its move so far is not played.
	m := newChess(t, "", "material:30", chess.Black)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := m.Reply(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Reply past its deadline = %v, want context.DeadlineExceeded", err)
	}
	if elapsed := time.Since(start); elapsed > 10*time.Second {
		t.Errorf("the search ran %v past a 50ms deadline", elapsed)
	}
	if st := m.State(); len(st.Moves) != 0 || st.Board.ToMove != "white" {
		t.Errorf("a stopped reply changed the game: moves %v", st.Moves)
	}
}

func TestBrowserDraughts(t *testing.T) {
	st := newDraughts(t, "", "random", draughts.Black).State()
	b := st.Board
	if b.Game != "draughts" || b.Files != 8 || b.Ranks != 8 || len(b.Cells) != 64 || b.ToMove != "black" || b.Check != -1 {
		t.Fatalf("board %+v", b)
	}
	// Square 1 is b8 (cell 1), 4 h8 (7), 5 a7 (8), 32 g1 (62); a8 (0) is light.
	for _, c := range []struct {
		cell        int
		code, label string
	}{{0, "", ""}, {1, "b", "1"}, {7, "b", "4"}, {8, "b", "5"}, {23, "b", "12"}, {26, "", "14"}, {40, "w", "21"}, {62, "w", "32"}, {63, "", ""}} {
		if b.Cells[c.cell] != c.code || b.Labels[c.cell] != c.label {
			t.Errorf("cell %d = %q labelled %q, want %q labelled %q", c.cell, b.Cells[c.cell], b.Labels[c.cell], c.code, c.label)
		}
	}
	if got := texts(st.Legal); !slices.Equal(got, []string{"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}) {
		t.Errorf("options %v", got)
	}
	// A double jump: 9 over 14 to 18, over 23 to 27.
	m := newDraughts(t, "B:W14,23:B9", "random", draughts.Black)
	want := []MoveOption{{From: 17, To: 53, Path: []int{35, 53}, Text: "9x18x27"}}
	if st := m.State(); !reflect.DeepEqual(st.Legal, want) {
		t.Errorf("options %+v, want %+v", st.Legal, want)
	}
	mustPlay(t, m, "9x27") // the short form, as the terminal reads it
	st = m.State()
	if !slices.Equal(st.Board.Last, []int{17, 35, 53}) || st.Board.Cells[53] != "b" || st.Board.Cells[26] != "" || st.Board.Cells[44] != "" {
		t.Errorf("after the jump: last %v, cells %q", st.Board.Last, st.Board.Cells)
	}
	if !st.Over || st.Result != "1-0" || st.Outcome != "Black wins: no legal move" || !slices.Equal(st.Moves, []string{"9x18x27"}) {
		t.Errorf("over %v, result %q, outcome %q, moves %v", st.Over, st.Result, st.Outcome, st.Moves)
	}
	err := newDraughts(t, "", "random", draughts.Black).Play("12-17")
	if !errors.Is(err, ErrBadMove) || err.Error() != `play: bad move "12-17": 12-17 is not a legal move here; legal moves: 9-13, 9-14, 10-14, 10-15, 11-15, 11-16, 12-16` {
		t.Errorf("Play(12-17) = %v", err)
	}
}

func TestBrowserXiangqi(t *testing.T) {
	m := newXiangqi(t, "", "random", xiangqi.Red)
	st := m.State()
	b := st.Board
	if b.Game != "xiangqi" || b.Files != 9 || b.Ranks != 10 || len(b.Cells) != 90 || len(b.Labels) != 90 || b.ToMove != "red" {
		t.Fatalf("board %s %dx%d, to move %q", b.Game, b.Files, b.Ranks, b.ToMove)
	}
	for _, c := range []struct {
		cell        int
		code, label string
	}{{0, "r", "a10"}, {4, "k", "e10"}, {19, "c", "b8"}, {70, "C", "h3"}, {81, "R", "a1"}, {85, "K", "e1"}, {89, "R", "i1"}, {40, "", "e6"}} {
		if b.Cells[c.cell] != c.code || b.Labels[c.cell] != c.label {
			t.Errorf("cell %d = %q labelled %q, want %q labelled %q", c.cell, b.Cells[c.cell], b.Labels[c.cell], c.code, c.label)
		}
	}
	start := xiangqi.Start()
	if len(st.Legal) != len(start.LegalMoves(nil)) || len(st.Legal) != 44 {
		t.Errorf("%d options, want 44", len(st.Legal))
	}
	if !slices.ContainsFunc(st.Legal, func(o MoveOption) bool { return reflect.DeepEqual(o, MoveOption{From: 70, To: 67, Text: "h3e3"}) }) {
		t.Errorf("no option h3e3")
	}
	mustPlay(t, m, "H8,H5") // the classic notation of h3e3
	if st := m.State(); !slices.Equal(st.Board.Last, []int{70, 67}) || !slices.Equal(st.Moves, []string{"h3e3"}) {
		t.Errorf("after H8,H5: last %v, moves %v", st.Board.Last, st.Moves)
	}
	// Black's general on d10 in check from the chariot on d1.
	st = newXiangqi(t, "3k5/9/9/9/9/9/9/9/9/3R1K3 b - - 0 1", "random", xiangqi.Black).State()
	if st.Board.Check != 3 {
		t.Errorf("check on cell %d, want 3 (d10)", st.Board.Check)
	}
	err := newXiangqi(t, "", "random", xiangqi.Red).Play("h3h9")
	if !errors.Is(err, ErrBadMove) || !strings.HasPrefix(err.Error(), `play: bad move "h3h9": illegal move: the cannon on h3 cannot go to h9`) {
		t.Errorf("Play(h3h9) = %v", err)
	}
}

// playOut plays m to its end: the person picks random options, the engine replies.
func playOut(t *testing.T, m Match, rng *rand.Rand) State {
	t.Helper()
	for range 2000 {
		st := m.State()
		if st.Over {
			return st
		}
		if len(st.Legal) == 0 {
			if err := m.Reply(context.Background()); err != nil {
				t.Fatal(err)
			}
			continue
		}
		mustPlay(t, m, st.Legal[rng.IntN(len(st.Legal))].Text)
	}
	t.Fatal("the game did not end")
	return State{}
}

func TestBrowserWholeGames(t *testing.T) {
	for _, c := range []struct {
		name  string
		match func() Match
		// read parses a record and returns its moves, result and players.
		read       func(string) (moves int, result, first, second string, err error)
		humanFirst bool
	}{
		{"chess", func() Match { return newChess(t, "", "material:1", chess.Black) },
			func(s string) (int, string, string, string, error) {
				g, err := chess.ParsePGN(s)
				return len(g.Moves), g.Result, g.Tag("White"), g.Tag("Black"), err
			}, false},
		{"draughts", func() Match { return newDraughts(t, "", "material:2", draughts.White) },
			func(s string) (int, string, string, string, error) {
				g, err := draughts.ParsePDN(s)
				return len(g.Moves), g.Result, g.Tag("Black"), g.Tag("White"), err
			}, false},
		{"xiangqi", func() Match { return newXiangqi(t, "", "random", xiangqi.Red) },
			func(s string) (int, string, string, string, error) {
				recs, err := xiangqi.ReadRecords(strings.NewReader(s))
				if err != nil {
					return 0, "", "", "", err
				}
				return len(recs[0].Moves), recs[0].Result, recs[0].Tag("White"), recs[0].Tag("Black"), nil
			}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := c.match()
			st := playOut(t, m, rand.New(rand.NewPCG(7, 7)))
			if st.Result == "*" || st.Outcome == "" || len(st.Legal) != 0 || len(st.Moves) == 0 {
				t.Errorf("over: result %q, outcome %q, %d options, %d moves", st.Result, st.Outcome, len(st.Legal), len(st.Moves))
			}
			if err := m.Play(st.Moves[0]); !errors.Is(err, ErrGameOver) {
				t.Errorf("Play after the end = %v", err)
			}
			var rec strings.Builder
			if err := m.Record(&rec); err != nil {
				t.Fatal(err)
			}
			n, result, first, second, err := c.read(rec.String())
			if err != nil || n != len(st.Moves) || result != st.Result {
				t.Errorf("record read back: %v, %d moves, result %q; want %d, %q\n%s", err, n, result, len(st.Moves), st.Result, rec.String())
			}
			you, engine := first, second
			if !c.humanFirst {
				you, engine = second, first
			}
			if you != "You" || engine != st.Engine {
				t.Errorf("record names %q and %q, want You and %q", you, engine, st.Engine)
			}
			t.Logf("%s: %d plies, %s, %s", c.name, len(st.Moves), st.Result, st.Outcome)
		})
	}
}

// randomGame plays up to plies random legal moves on a game and returns
// them; chooser may prefer some moves (castling).
func randomGame[M comparable](g game.State[M], rng *rand.Rand, plies int, prefer func(M) bool) []M {
	var moves []M
	for range plies {
		if g.Outcome().Over() {
			break
		}
		legal := g.LegalMoves(nil)
		m := legal[rng.IntN(len(legal))]
		if prefer != nil {
			if i := slices.IndexFunc(legal, prefer); i >= 0 {
				m = legal[i]
			}
		}
		moves = append(moves, m)
		g.Make(m)
	}
	return moves
}

// checkReplay checks a replay against the positions and notation computed
// by the game package: fens[i] and texts[i] are the position after i
// plies and the ply's move; cells[i] the from and to cells of move i.
func checkReplay(t *testing.T, rep Replay, fens, texts []string, cells [][2]int) {
	t.Helper()
	if len(rep.Boards) != len(fens) || len(rep.Moves) != len(texts) {
		t.Fatalf("%d boards and %d moves, want %d and %d", len(rep.Boards), len(rep.Moves), len(fens), len(texts))
	}
	if rep.Boards[0].Last == nil || len(rep.Boards[0].Last) != 0 {
		t.Errorf("start board's last move %v", rep.Boards[0].Last)
	}
	for i, b := range rep.Boards {
		if b.FEN != fens[i] {
			t.Fatalf("board %d: FEN %q, want %q", i, b.FEN, fens[i])
		}
		if i == 0 {
			continue
		}
		if rep.Moves[i-1] != texts[i-1] {
			t.Fatalf("move %d: %q, want %q", i, rep.Moves[i-1], texts[i-1])
		}
		if last := b.Last; len(last) < 2 || last[0] != cells[i-1][0] || last[len(last)-1] != cells[i-1][1] {
			t.Fatalf("board %d (%s): last %v, want from %d to %d", i, texts[i-1], last, cells[i-1][0], cells[i-1][1])
		}
	}
}

func TestReplayGameChess(t *testing.T) {
	castles := 0
	for seed := range uint64(8) {
		rng := rand.New(rand.NewPCG(seed, 1))
		start, startFEN := chess.Start(), ""
		if seed%2 == 1 {
			start, _ = chess.Chess960(rng.IntN(960))
			startFEN = start.FEN()
		}
		g := chess.NewGame(start, chess.DefaultRules())
		moves := randomGame(g, rng, 150, func(m chess.Move) bool { return m.IsCastle() })
		text, err := chess.MoveText(start, moves)
		if err != nil {
			t.Fatal(err)
		}
		fens, notes, cells := []string{start.FEN()}, []string(nil), [][2]int(nil)
		p := start
		for _, m := range moves {
			notes = append(notes, p.FormatSAN(m))
			to := m.KingTo()
			if to == m.From() {
				to = m.To()
			}
			if m.IsCastle() {
				castles++
			}
			cells = append(cells, [2]int{chessCell(m.From()), chessCell(to)})
			p = p.Play(m)
			fens = append(fens, p.FEN())
		}
		rep, err := ReplayGame("chess", startFEN, text)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, text)
		}
		checkReplay(t, rep, fens, notes, cells)
		if rep.Boards[0].Game != "chess" || len(rep.Boards[len(moves)].Cells) != 64 {
			t.Errorf("seed %d: boards of %q", seed, rep.Boards[0].Game)
		}
	}
	if castles == 0 {
		t.Error("no game castled")
	}
}

func TestReplayGameDraughts(t *testing.T) {
	jumps := 0
	for seed := range uint64(6) {
		rng := rand.New(rand.NewPCG(seed, 2))
		start := draughts.Start()
		g := draughts.NewGame(start, draughts.DefaultRules())
		moves := randomGame(g, rng, 200, func(m draughts.Move) bool { return m.Jumps() > 1 })
		text, err := draughts.MoveText(start, moves)
		if err != nil {
			t.Fatal(err)
		}
		fens, notes, cells := []string{start.FEN()}, []string(nil), [][2]int(nil)
		p := start
		var paths [][]int
		for _, m := range moves {
			notes = append(notes, p.FormatMove(m))
			cells = append(cells, [2]int{draughtsCell(m.From()), draughtsCell(m.To())})
			var path []int
			for _, n := range p.Route(m) {
				path = append(path, draughtsCell(n-1))
			}
			paths = append(paths, path)
			if m.Jumps() > 1 {
				jumps++
			}
			p = p.Play(m)
			fens = append(fens, p.FEN())
		}
		rep, err := ReplayGame("draughts", "", text)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, text)
		}
		checkReplay(t, rep, fens, notes, cells)
		for i, path := range paths {
			if !slices.Equal(rep.Boards[i+1].Last, path) {
				t.Errorf("seed %d, move %d (%s): last %v, want the route %v", seed, i+1, notes[i], rep.Boards[i+1].Last, path)
			}
		}
	}
	if jumps == 0 {
		t.Error("no multi-jump was replayed")
	}
	// From a set-up position, White to move.
	rep, err := ReplayGame("draughts", "W:W23,30:B9,K2", "1... 23-19 2. 2-7")
	if err != nil || len(rep.Boards) != 3 || rep.Boards[2].FEN != "W:W19,30:B9,K7" || rep.Boards[0].ToMove != "white" {
		t.Errorf("set-up replay: %v %+v", err, rep)
	}
}

func TestReplayGameXiangqi(t *testing.T) {
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 3))
		start := xiangqi.Start()
		g := xiangqi.NewGame(start, xiangqi.DefaultRules())
		moves := randomGame(g, rng, 200, nil)
		text, err := xiangqi.MoveText(start, moves)
		if err != nil {
			t.Fatal(err)
		}
		fens, notes, cells := []string{start.FEN()}, []string(nil), [][2]int(nil)
		p := start
		for _, m := range moves {
			notes = append(notes, m.String())
			cells = append(cells, [2]int{xiangqiCell(m.From()), xiangqiCell(m.To())})
			p = p.Play(m)
			fens = append(fens, p.FEN())
		}
		rep, err := ReplayGame("xiangqi", "", text)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, text)
		}
		checkReplay(t, rep, fens, notes, cells)
	}
}

func TestReplayGameErrors(t *testing.T) {
	for _, c := range []struct{ game, start, text, want string }{
		{"chess", "", "1. e4 e5 2. Qh5 zz", `play: replay chess: chess: pgn game 1, line 1: move 2... "zz" (position `},
		{"chess", "", "1. e4 e5 2. Ke3", `play: replay chess: chess: pgn game 1, line 1: move 2. "Ke3" (position `},
		{"chess", "8/8/8 w - - 0 1", "", "play: replay chess: start: "},
		{"draughts", "", "1. 11-15 23-19 2. 8-12", `play: replay draughts: draughts: pdn game 1, line 1: move 2. "8-12" (position `},
		{"xiangqi", "", "1. h3e3 h10g8 2. a1a8", `play: replay xiangqi: xiangqi: read record: line 1: move 3: xiangqi: parse move "a1a8"`},
		{"go", "", "", `play: replay go: unknown game "go": want draughts, chess or xiangqi`},
	} {
		_, err := ReplayGame(c.game, c.start, c.text)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ReplayGame(%q, %q, %q) = %v, want an error starting %q", c.game, c.start, c.text, err, c.want)
		}
	}
	// Comments and a result, which stored text lacks, are read too.
	if rep, err := ReplayGame("chess", "", "1. e4 {best by test} e5 1-0"); err != nil || !slices.Equal(rep.Moves, []string{"e4", "e5"}) {
		t.Errorf("ReplayGame with a comment and a result: %v, %v", err, rep.Moves)
	}
	// No moves: the start alone.
	for _, name := range []string{"chess", "draughts", "xiangqi"} {
		rep, err := ReplayGame(name, "", "")
		if err != nil || len(rep.Boards) != 1 || len(rep.Moves) != 0 || rep.Moves == nil {
			t.Errorf("ReplayGame(%q) of no moves: %v, %d boards, moves %v", name, err, len(rep.Boards), rep.Moves)
		}
	}
}

func TestRecordOf(t *testing.T) {
	tags := map[string]string{"Event": "evolved generation 3", "Round": "2", "White": "not used", "Annotator": "evolved"}

	rng := rand.New(rand.NewPCG(5, 5))
	start, _ := chess.Chess960(rng.IntN(960))
	moves := randomGame(chess.NewGame(start, chess.DefaultRules()), rng, 60, nil)
	text, _ := chess.MoveText(start, moves)
	var b strings.Builder
	if err := RecordOf(&b, "chess", start.FEN(), text, "champion", "material:2", "1/2-1/2", tags); err != nil {
		t.Fatal(err)
	}
	g, err := chess.ParsePGN(b.String())
	if err != nil || g.Start != start || !slices.Equal(g.Moves, moves) || g.Result != "1/2-1/2" ||
		g.Tag("White") != "champion" || g.Tag("Black") != "material:2" || g.Tag("Event") != "evolved generation 3" ||
		g.Tag("Annotator") != "evolved" || g.Tag("SetUp") != "1" || g.Tag("FEN") != start.FEN() {
		t.Errorf("chess record read back: %v, %+v\n%s", err, g.Tags, b.String())
	}
	if !strings.HasPrefix(b.String(), "[Event \"evolved generation 3\"]\n[Round \"2\"]\n[White \"champion\"]\n[Black \"material:2\"]\n[Annotator \"evolved\"]\n") {
		t.Errorf("tag order:\n%s", b.String())
	}

	dstart := draughts.Start()
	dmoves := randomGame(draughts.NewGame(dstart, draughts.DefaultRules()), rng, 40, nil)
	dtext, _ := draughts.MoveText(dstart, dmoves)
	b.Reset()
	if err := RecordOf(&b, "draughts", "", dtext, "champion", "material:4", "0-1", nil); err != nil {
		t.Fatal(err)
	}
	d, err := draughts.ParsePDN(b.String())
	if err != nil || !slices.Equal(d.Moves, dmoves) || d.Result != "0-1" || d.Tag("Black") != "champion" || d.Tag("White") != "material:4" || d.Tag("FEN") != "" {
		t.Errorf("draughts record read back: %v, %+v\n%s", err, d.Tags, b.String())
	}

	xstart := xiangqi.Start()
	xmoves := randomGame(xiangqi.NewGame(xstart, xiangqi.DefaultRules()), rng, 40, nil)
	xtext, _ := xiangqi.MoveText(xstart, xmoves)
	b.Reset()
	if err := RecordOf(&b, "xiangqi", "", xtext, "champion", "random", "1-0", tags); err != nil {
		t.Fatal(err)
	}
	recs, err := xiangqi.ReadRecords(strings.NewReader(b.String()))
	if err != nil || len(recs) != 1 || !slices.Equal(recs[0].Moves, xmoves) || recs[0].Result != "1-0" ||
		recs[0].Tag("White") != "champion" || recs[0].Tag("Black") != "random" || recs[0].Tag("Event") != "evolved generation 3" {
		t.Errorf("xiangqi record read back: %v\n%s", err, b.String())
	}

	if err := RecordOf(&b, "chess", "", "1. e4 e5 2. Ke3", "a", "b", "*", nil); err == nil || !strings.HasPrefix(err.Error(), "play: record chess: ") {
		t.Errorf("RecordOf of an illegal move = %v", err)
	}
}

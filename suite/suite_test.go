package suite

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"evolved/game/chess"
	"evolved/player"
)

// hand is testdata/hand.epd: a mate in one and a rook taking an unguarded
// queen (found at depth 1 by any search with quiescence), the same capture
// again (the search must start afresh: same nodes), WAC.002, whose Rxb2
// gives up a rook for a pawn to queen a pawn many moves later (no depth-2
// search plays it), the mate in one marked as the move to avoid, and the
// start position, which has neither bm nor am.
const hand = "testdata/hand.epd"

// chessSpec parses a chess player spec.
func chessSpec(t *testing.T, spec string) player.ChessSpec {
	t.Helper()
	s, err := player.ParseChess(spec)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// searched is what a fresh player of spec under limit plays in rec's
// position: its move in SAN, depth and nodes.
func searched(t *testing.T, spec player.ChessSpec, limit Limit, rec chess.EPD) (string, int, int64) {
	t.Helper()
	p := spec.New()
	if err := limit.Apply(p); err != nil {
		t.Fatal(err)
	}
	res, err := p.Move(t.Context(), chess.NewGame(rec.Position, chess.Rules{FiftyMoveRule: true}))
	if err != nil {
		t.Fatal(err)
	}
	return rec.Position.FormatSAN(res.Move), res.Depth, res.Nodes
}

// TestRun runs material:2 over hand with one player and with three: each
// verdict, move and expected list, the nodes a fresh search of each
// position takes, the results handed on in the file's order, the
// progress counts and the sums.
func TestRun(t *testing.T) {
	recs, err := ReadFile(hand)
	if err != nil {
		t.Fatal(err)
	}
	spec := chessSpec(t, "material:2")
	want := []Result{
		{ID: "mate1", Scored: true, Solved: true, Move: "Ra8#", Best: []string{"Ra8#"}},
		{ID: "queen", Scored: true, Solved: true, Move: "Rxd5", Best: []string{"Rxd5"}},
		{ID: "queen again", Scored: true, Solved: true, Move: "Rxd5", Best: []string{"Rxd5"}},
		{ID: "WAC.002", Scored: true, Best: []string{"Rxb2"}},
		{ID: "avoid", Scored: true, Move: "Ra8#", Avoid: []string{"Ra8#"}},
		{ID: "start"},
	}
	var nodes int64
	for i, rec := range recs {
		move, depth, n := searched(t, spec, Limit{}, rec)
		if want[i].Move == "" {
			want[i].Move = move
		}
		want[i].FEN, want[i].Depth, want[i].Nodes = rec.Position.FEN(), depth, n
		nodes += n
	}
	if want[3].Move == "Rxb2" || want[5].Depth != 2 || want[1].Nodes != want[2].Nodes {
		t.Fatalf("material:2 plays WAC.002 %s, start at depth %d: the positions no longer test what they say", want[3].Move, want[5].Depth)
	}
	for _, players := range []int{1, 3} {
		r, err := NewRunner(spec, Limit{})
		if err != nil {
			t.Fatal(err)
		}
		if n, err := r.Players(players); n != players || err != nil {
			t.Fatalf("Players(%d) = %d, %v", players, n, err)
		}
		var order []string
		var counts [][2]int
		rep, err := r.Run(t.Context(), hand, recs, Hooks{
			Result: func(res Result) { order = append(order, res.ID) },
			Done:   func(done, solved int) { counts = append(counts, [2]int{done, solved}) },
		})
		r.Close()
		if err != nil {
			t.Fatalf("%d players: %v", players, err)
		}
		for i := range rep.Positions {
			if rep.Positions[i].Time <= 0 {
				t.Errorf("%d players: %s searched for %v s", players, rep.Positions[i].ID, rep.Positions[i].Time)
			}
			rep.Time -= rep.Positions[i].Time
			rep.Positions[i].Time = 0
		}
		if !reflect.DeepEqual(rep.Positions, want) {
			t.Errorf("%d players: results\n%+v\nwant\n%+v", players, rep.Positions, want)
		}
		if rep.Player != "material:2" || rep.EPD != hand || rep.Limit != "the player's own limit" ||
			rep.Solved != 3 || rep.Total != 5 || rep.Nodes != nodes || rep.Time > 1e-9 || rep.Time < -1e-9 {
			t.Errorf("%d players: report %+v, want 3 of 5 solved, %d nodes", players, rep, nodes)
		}
		if got := strings.Join(order, ","); got != "mate1,queen,queen again,WAC.002,avoid,start" {
			t.Errorf("%d players: results handed on in the order %s", players, got)
		}
		if len(counts) != 6 || counts[5] != [2]int{6, 3} {
			t.Errorf("%d players: progress %v, want 6 calls ending at 6 done, 3 solved", players, counts)
		}
	}
}

// TestLimit checks a limit's text, that a depth limit makes a searcher
// search to that depth, and that a player without limits refuses one but
// runs without.
func TestLimit(t *testing.T) {
	for _, tc := range []struct {
		l    Limit
		want string
	}{
		{Limit{}, "the player's own limit"},
		{Limit{Movetime: 1500 * time.Millisecond}, "movetime 1.5s"},
		{Limit{Nodes: 20000}, "20000 nodes"},
		{Limit{Depth: 4}, "depth 4"},
	} {
		if got := tc.l.String(); got != tc.want {
			t.Errorf("%+v.String() = %q, want %q", tc.l, got, tc.want)
		}
	}
	recs, err := ReadFile(hand)
	if err != nil {
		t.Fatal(err)
	}
	pst := chessSpec(t, "pst:1")
	r, err := NewRunner(pst, Limit{Depth: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rep, err := r.Run(t.Context(), hand, recs[5:], Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	move, depth, nodes := searched(t, pst, Limit{Depth: 3}, recs[5])
	if got := rep.Positions[0]; got.Depth != 3 || depth != 3 || got.Move != move || got.Nodes != nodes || rep.Limit != "depth 3" {
		t.Errorf("pst:1 at depth 3: %+v, limit %q; want %s at depth 3 in %d nodes", got, rep.Limit, move, nodes)
	}

	mcts := chessSpec(t, "mcts:10")
	if _, err := NewRunner(mcts, Limit{Nodes: 100}); !errors.Is(err, ErrNoLimit) {
		t.Errorf("mcts:10 with a node limit: %v, want %v", err, ErrNoLimit)
	}
	r, err = NewRunner(mcts, Limit{})
	if err != nil {
		t.Fatalf("mcts:10 without a limit: %v", err)
	}
	r.Close()
}

// TestReadFile checks the refusals: no file, a malformed line (named by
// its file, line, id and move), a file without a position.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.epd")
	empty := filepath.Join(dir, "empty.epd")
	if err := os.WriteFile(bad, []byte("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"mate1\";\n6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Qz9; id \"bad\";\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(empty, []byte("\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(filepath.Join(dir, "none.epd")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile of no file: %v, want %v", err, fs.ErrNotExist)
	}
	if _, err := ReadFile(bad); err == nil || !strings.HasPrefix(err.Error(), bad+`: chess: epd line 2 (id "bad"): bm move "Qz9"`) {
		t.Errorf("ReadFile of a bad line: %v", err)
	}
	if _, err := ReadFile(empty); err == nil || err.Error() != empty+" holds no position" {
		t.Errorf("ReadFile of an empty file: %v", err)
	}
}

// TestRunStopped checks that a run stopped in the middle of a search
// fails with the stop instead of counting the cut search.
func TestRunStopped(t *testing.T) {
	recs, err := ReadFile(hand)
	if err != nil {
		t.Fatal(err)
	}
	// Depth 64 from the start position: a search that runs until stopped.
	r, err := NewRunner(chessSpec(t, "pst:1"), Limit{Depth: MaxDepth})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(100*time.Millisecond, cancel)
	done := 0
	_, err = r.Run(ctx, hand, recs[5:], Hooks{Done: func(int, int) { done++ }})
	if !errors.Is(err, context.Canceled) || done != 0 {
		t.Errorf("stopped run: %v after %d positions, want %v after none", err, done, context.Canceled)
	}
}

// TestWrite checks the table's lines and the summary on results made by
// hand.
func TestWrite(t *testing.T) {
	var b bytes.Buffer
	WriteHeader(&b, "wac.epd", 300, "material:4", Limit{Nodes: 20000}, 2)
	for _, r := range []Result{
		{ID: "WAC.001", Scored: true, Solved: true, Move: "Qg6", Best: []string{"Qg6"}, Depth: 7, Nodes: 19874, Time: 0.1234},
		{ID: "WAC.002", Scored: true, Move: "Ke6", Best: []string{"Rxb2"}, Avoid: []string{"Kg5", "Kf7"}, Depth: 6, Nodes: 20001, Time: 1.5},
		{ID: "#3", Move: "e4", Depth: 2, Nodes: 85},
	} {
		WriteLine(&b, r)
	}
	WriteSummary(&b, Report{Player: "material:4", Positions: make([]Result, 3), Solved: 1, Total: 2, Nodes: 39960, Time: 1.6234}, 2345*time.Millisecond)
	const want = `suite wac.epd: 300 positions, player material:4, 20000 nodes, concurrency 2
id         result move     depth        nodes     time  expected
WAC.001    solved Qg6          7        19874   0.123s  bm Qg6
WAC.002    failed Ke6          6        20001   1.500s  bm Rxb2; am Kg5 Kf7
#3         -      e4           2           85   0.000s
material:4: solved 1 of 2 (50.0%), 39960 nodes, 1.6 s of search, 2.3 s wall
result solved=1 total=2 positions=3 nodes=39960 time=1.623
`
	if b.String() != want {
		t.Errorf("the table:\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	WriteSummary(&b, Report{Player: "random", Positions: make([]Result, 1)}, 0)
	if want := "random: solved 0 of 0 (0.0%), 0 nodes, 0.0 s of search, 0.0 s wall\nresult solved=0 total=0 positions=1 nodes=0 time=0.000\n"; b.String() != want {
		t.Errorf("the summary of no scored position:\n%q\nwant\n%q", b.String(), want)
	}
}

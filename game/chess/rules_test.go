package chess

import (
	"testing"

	"evolved/game"
)

// playAll makes the moves, in UCI or SAN, on g.
func playAll(tb testing.TB, g *Game, moves ...string) {
	tb.Helper()
	for _, s := range moves {
		m, err := g.ParseMove(s)
		if err != nil {
			tb.Fatal(err)
		}
		g.Make(m)
	}
}

func TestGameOutcome(t *testing.T) {
	noLimit := Rules{FiftyMoveRule: true}
	tests := []struct {
		name  string
		fen   string
		rules Rules
		moves []string
		want  game.Outcome
	}{
		{"fool's mate", StartFEN, noLimit, []string{"f2f3", "e7e5", "g2g4", "Qh4#"},
			game.Outcome{Result: game.SecondWins, Reason: game.Checkmate}},
		{"back-rank mate by White", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", noLimit, []string{"Ra8"},
			game.Outcome{Result: game.FirstWins, Reason: game.Checkmate}},
		{"stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", noLimit, nil,
			game.Outcome{Result: game.Draw, Reason: game.Stalemate}},
		{"threefold repetition", StartFEN, noLimit, []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"},
			game.Outcome{Result: game.Draw, Reason: game.Repetition}},
		{"twofold is not yet a draw", StartFEN, noLimit, []string{"Nf3", "Nf6", "Ng1", "Ng8"},
			game.Outcome{}},
		{"fifty-move rule", "4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80", noLimit, []string{"Ra2"},
			game.Outcome{Result: game.Draw, Reason: game.NoProgress}},
		{"fifty-move rule off", "4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80", Rules{}, []string{"Ra2"},
			game.Outcome{}},
		{"a pawn move resets the clock", "4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80", noLimit, []string{"e4"},
			game.Outcome{}},
		{"mate on the hundredth ply is mate", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80", noLimit, []string{"Ra8"},
			game.Outcome{Result: game.FirstWins, Reason: game.Checkmate}},
		{"move limit", StartFEN, Rules{MaxMoves: 2}, []string{"e4", "e5", "Nf3", "Nc6"},
			game.Outcome{Result: game.Draw, Reason: game.MoveLimit}},
		{"K v K", "8/8/4k3/8/8/3K4/8/8 w - - 0 1", noLimit, nil,
			game.Outcome{Result: game.Draw, Reason: game.InsufficientMaterial}},
		{"capture to K v K", "8/8/4k3/8/2r5/3K4/8/8 w - - 0 1", noLimit, []string{"Kxc4"},
			game.Outcome{Result: game.Draw, Reason: game.InsufficientMaterial}},
	}
	for _, tc := range tests {
		g := NewGame(mustFEN(t, tc.fen), tc.rules)
		playAll(t, g, tc.moves...)
		if got := g.Outcome(); got != tc.want {
			t.Errorf("%s: Outcome() = %v, want %v", tc.name, got, tc.want)
		}
		if got, want := g.Drawn(), tc.want.Result == game.Draw && tc.want.Reason != game.Stalemate; got != want {
			t.Errorf("%s: Drawn() = %v, want %v", tc.name, got, want)
		}
	}
}

func TestInsufficientMaterial(t *testing.T) {
	tests := []struct {
		fen  string
		want bool
	}{
		{"8/8/4k3/8/8/3K4/8/8 w - - 0 1", true},
		{"8/8/4k3/8/8/3KN3/8/8 w - - 0 1", true},
		{"8/8/4k3/8/8/3KB3/8/8 w - - 0 1", true},
		{"8/8/4kb2/8/8/3KB3/8/8 w - - 0 1", true},   // bishops on e3 and f6, both dark
		{"8/8/4k1b1/8/8/3KB3/8/8 w - - 0 1", false}, // g6 is light
		{"8/8/4kn2/8/8/3KN3/8/8 w - - 0 1", false},
		{"8/8/4k3/8/8/3KNN2/8/8 w - - 0 1", false},
		{"8/8/4k3/8/8/3KBN2/8/8 w - - 0 1", false},
		{"8/8/4k3/8/8/3KP3/8/8 w - - 0 1", false},
		{"8/8/4k3/8/8/R2K4/8/8 w - - 0 1", false},
		{StartFEN, false},
	}
	for _, tc := range tests {
		p := mustFEN(t, tc.fen)
		if got := p.InsufficientMaterial(); got != tc.want {
			t.Errorf("InsufficientMaterial(%s) = %v, want %v", tc.fen, got, tc.want)
		}
	}
}

func TestGameMakeUnmake(t *testing.T) {
	g := NewGame(Start(), DefaultRules())
	start := g.Hash()
	playAll(t, g, "e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5")
	if g.Ply() != 6 || g.ToMove() != White {
		t.Fatalf("after six plies: Ply() = %d, ToMove() = %v", g.Ply(), g.ToMove())
	}
	moves := g.Moves(nil)
	if s := g.Start(); len(moves) != 6 || s.FormatUCI(moves[0], false) != "e2e4" {
		t.Fatalf("Moves() = %v", moves)
	}
	for range 6 {
		g.Unmake()
	}
	if g.Hash() != start || g.Position() != Start() {
		t.Errorf("after six Unmakes: %s, want the start position", g.Position().FEN())
	}
	defer func() {
		if recover() == nil {
			t.Errorf("Unmake at the start did not panic")
		}
	}()
	g.Unmake()
}

func TestGameHooks(t *testing.T) {
	g := NewGame(Start(), DefaultRules())
	if g.Tactical() {
		t.Errorf("Tactical() at the start = true, want false")
	}
	playAll(t, g, "e4", "f5", "Qh5+")
	if !g.Tactical() {
		t.Errorf("Tactical() in check = false, want true")
	}
	m := mustUCI(t, g.Position(), "g7g6", false)
	if got, want := g.MoveKey(m), int(G7)*64+int(G6); got != want {
		t.Errorf("MoveKey(g7g6) = %d, want %d", got, want)
	}
	if g.MoveKeySpace() != 4096 {
		t.Errorf("MoveKeySpace() = %d, want 4096", g.MoveKeySpace())
	}
	if got := g.FormatMove(m); got != "g7g6" {
		t.Errorf("FormatMove = %q, want g7g6", got)
	}
	// Chess960 rules write castling king-takes-rook.
	g = NewGame(mustFEN(t, "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1"), Rules{Chess960: true})
	castle, err := g.ParseMove("g1h1")
	if err != nil || !castle.IsCastle() {
		t.Fatalf("ParseMove(g1h1) = %v, %v; want castling", castle, err)
	}
	if got := g.FormatMove(castle); got != "g1h1" {
		t.Errorf("FormatMove(castling) = %q, want g1h1", got)
	}
	if san, err := g.ParseMove("O-O"); err != nil || san != castle {
		t.Errorf("ParseMove(O-O) = %v, %v; want %v", san, err, castle)
	}
}

// TestMakeAllocs checks that Make, Unmake, LegalMoves and Hash do not
// allocate once the history has grown.
func TestMakeAllocs(t *testing.T) {
	g := NewGame(Start(), DefaultRules())
	buf := make([]Move, 0, MaxMoves)
	allocs := testing.AllocsPerRun(100, func() {
		for range 20 {
			buf = g.LegalMoves(buf)
			g.Make(buf[len(buf)/2])
			_ = g.Hash()
			_ = g.Drawn()
		}
		for range 20 {
			g.Unmake()
		}
	})
	if allocs != 0 {
		t.Errorf("Make/Unmake/LegalMoves: %v allocations per run, want 0", allocs)
	}
}

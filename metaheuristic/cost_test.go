package metaheuristic

import (
	"errors"
	"strings"
	"testing"

	"evolved/game"
	"evolved/game/chess"
)

func TestParseWeights(t *testing.T) {
	def := DefaultWeights()
	queen9 := def
	queen9[chess.Queen] = 9
	mixed := def
	mixed[chess.Pawn], mixed[chess.King] = 2, 500
	tests := []struct {
		in  string
		out Weights
		err string // a piece of the error's text, "" for none
	}{
		{"", def, ""},
		{"  ", def, ""},
		{"p=1,n=5,b=5,r=7,q=10,k=1000", def, ""},
		{"q=9", queen9, ""},
		{"P=2, k = 500", mixed, ""},
		{"p=0.5,n=-3", Weights{0.5, -3, 5, 7, 10, 1000}, ""},
		{"x=1", Weights{}, `"x" is not one of p, n, b, r, q, k`},
		{"pp=1", Weights{}, `"pp" is not one of`},
		{"p", Weights{}, `"p" is not piece=value`},
		{"p=1,,q=2", Weights{}, `"" is not piece=value`},
		{"p=1,p=2", Weights{}, "p is given twice"},
		{"q=ten", Weights{}, `the value of q, "ten", is not a finite number`},
		{"k=inf", Weights{}, "is not a finite number"},
		{"k=NaN", Weights{}, "is not a finite number"},
	}
	for _, tt := range tests {
		got, err := ParseWeights(tt.in)
		if tt.err != "" {
			if err == nil || !errors.Is(err, ErrWeights) || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseWeights(%q) error = %v, want one wrapping ErrWeights with %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.out {
			t.Errorf("ParseWeights(%q) = %v, %v, want %v", tt.in, got, err, tt.out)
		}
	}
}

func TestWeightsString(t *testing.T) {
	w := Weights{0.5, 3, 3.25, 5, 9, 1e6}
	s := w.String()
	if s != "p=0.5,n=3,b=3.25,r=5,q=9,k=1e+06" {
		t.Errorf("String() = %q", s)
	}
	back, err := ParseWeights(s)
	if err != nil || back != w {
		t.Errorf("ParseWeights(%q) = %v, %v, want %v", s, back, err, w)
	}
}

func TestCost(t *testing.T) {
	def := DefaultWeights()
	pawnHeavy := def
	pawnHeavy[chess.Pawn] = 3
	tests := []struct {
		name    string
		fen     string
		learner game.Player
		w       Weights
		want    float64
		end     game.Reason // how the position ends the game, checked too
	}{
		{"start", chess.StartFEN, chess.White, def, 0, game.NoReason},
		{"white up a rook, for white", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", chess.White, def, 7, game.NoReason},
		{"white up a rook, for black", "4k3/8/8/8/8/8/8/R3K3 b - - 0 1", chess.Black, def, -7, game.NoReason},
		// Q+P (10+1) against N+B+P (5+5+1): +0 for white.
		{"queen against two minors", "4k3/4p3/3nb3/8/8/8/4P3/3QK3 w - - 0 1", chess.White, def, 0, game.NoReason},
		// Same, pawns worth 3: still equal, pawns cancel.
		{"custom weights", "4k3/4p3/3nb3/8/8/8/4P3/3QK3 w - - 0 1", chess.White, pawnHeavy, 0, game.NoReason},
		// Two white pawns against none, pawns worth 3: +6.
		{"custom pawn weight", "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1", chess.White, pawnHeavy, 6, game.NoReason},
		// Black is mated: white keeps its king (1000) and queen (10), black
		// counts as having lost its king.
		{"black mated, for white", "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", chess.White, def, 1010, game.Checkmate},
		{"black mated, for black", "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", chess.Black, def, -1010, game.Checkmate},
		// White mated by a back-rank rook: black's rook 7 minus white's
		// three pawns 3, and white's king.
		{"white mated, for white", "6k1/8/8/8/8/8/5PPP/r5K1 w - - 0 1", chess.White, def, -1000 - 7 + 3, game.Checkmate},
		// Stalemate is not a mate: material only.
		{"stalemate", "k7/8/1Q6/8/8/8/8/K7 b - - 0 1", chess.White, def, 10, game.Stalemate},
	}
	for _, tt := range tests {
		p, err := chess.ParseFEN(tt.fen)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if o := chess.NewGame(p, chess.DefaultRules()).Outcome(); o.Reason != tt.end {
			t.Errorf("%s: the position ends the game by %v, want %v", tt.name, o.Reason, tt.end)
		}
		if got := tt.w.Cost(&p, tt.learner); got != tt.want {
			t.Errorf("%s: Cost(%s, %v) = %v, want %v", tt.name, tt.fen, tt.learner, got, tt.want)
		}
	}
}

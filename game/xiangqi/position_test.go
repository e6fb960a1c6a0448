package xiangqi

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// randomWalk plays up to plies random legal moves from p, calling visit
// with each position reached (p first) and its legal moves.
func randomWalk(rng *rand.Rand, p Position, plies int, visit func(p *Position, moves []Move)) {
	var buf [MaxMoves]Move
	for range plies {
		moves := p.LegalMoves(buf[:0])
		visit(&p, moves)
		if len(moves) == 0 {
			return
		}
		p = p.Play(moves[rng.IntN(len(moves))])
	}
}

// TestPlayConsistency checks, along random games, that the incremental
// hash equals a full recompute, that FEN round-trips, that CountMoves
// agrees with LegalMoves, that LegalMoves never repeats a move, that every
// move reads back from its coordinates, that no move leaves the mover in
// check, and that Play does not change its receiver (copy-make).
func TestPlayConsistency(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	games := 200
	if testing.Short() {
		games = 40
	}
	for range games {
		randomWalk(rng, Start(), 300, func(p *Position, moves []Move) {
			fen := p.FEN()
			if got, want := p.hash, p.computeHash(); got != want {
				t.Fatalf("%s: incremental hash %x, recomputed %x", fen, got, want)
			}
			back, err := ParseFEN(fen)
			if err != nil || back != *p {
				t.Fatalf("%s does not read back: %v", fen, err)
			}
			if got := p.CountMoves(); got != len(moves) {
				t.Fatalf("%s: CountMoves = %d, len(LegalMoves) = %d", fen, got, len(moves))
			}
			sorted := slices.Clone(moves)
			slices.Sort(sorted)
			if len(slices.Compact(sorted)) != len(moves) {
				t.Fatalf("%s: LegalMoves repeats a move: %v", fen, moves)
			}
			before := *p
			for _, m := range moves {
				if got, err := p.ParseUCI(m.String()); err != nil || got != m {
					t.Fatalf("%s: ParseUCI(%q) = %v, %v, want %v", fen, m, got, err, m)
				}
				c := p.Play(m)
				if attacked(&c.board, c.kings[p.side], p.side) {
					t.Fatalf("%s: %s leaves the mover's general attacked", fen, m)
				}
			}
			if *p != before {
				t.Fatalf("%s: Play changed its receiver", fen)
			}
		})
	}
}

func TestGameMakeUnmake(t *testing.T) {
	g := NewGame(Start(), DefaultRules())
	rng := rand.New(rand.NewPCG(7, 8))
	var hashes []uint64
	buf := make([]Move, 0, MaxMoves)
	for !g.Outcome().Over() {
		hashes = append(hashes, g.Hash())
		moves := g.LegalMoves(buf)
		g.Make(moves[rng.IntN(len(moves))])
	}
	for i := len(hashes) - 1; i >= 0; i-- {
		g.Unmake()
		if got := g.Hash(); got != hashes[i] {
			t.Fatalf("after Unmake to ply %d: hash %x, want %x", i, got, hashes[i])
		}
	}
	if g.Ply() != 0 || g.Position() != Start() {
		t.Errorf("after unmaking every move: ply %d, %s; want 0, the start", g.Ply(), g.Position().FEN())
	}
}

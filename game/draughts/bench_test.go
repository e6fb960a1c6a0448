package draughts

import (
	"fmt"
	"testing"
)

// BenchmarkPerft reports perft nodes per second from the start position with
// bulk counting at the last ply. docs/performance.md's figure is depth 11.
func BenchmarkPerft(b *testing.B) {
	for _, depth := range []int{9, 11} {
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			var nodes uint64
			for b.Loop() {
				nodes += Perft(Start(), depth)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// undo is what an in-place make needs to take a move back: the moved
// piece's kind and the captured kings. It exists only to measure make/unmake
// against copy-make (BenchmarkMakeUnmake).
type undo struct {
	wasKing  bool
	kingsCap uint32
	hash     uint64
}

// makeInPlace plays m on p in place, the make/unmake alternative to Play,
// doing the same work (hash included) on p's fields.
func makeInPlace(p *Position, m Move) undo {
	fromSq, toSq, captured := m.From(), m.To(), m.Captured()
	from, to := uint32(1)<<fromSq, uint32(1)<<toSq
	u := undo{wasKing: p.Kings&from != 0, kingsCap: p.Kings & captured, hash: p.hash}
	us := p.Side
	moved := from ^ to
	if us == Black {
		p.Black ^= moved
		p.White &^= captured
	} else {
		p.White ^= moved
		p.Black &^= captured
	}
	keys := &zobrist.piece[us&1]
	switch {
	case u.wasKing:
		p.Kings ^= moved
		p.hash ^= keys[1][fromSq] ^ keys[1][toSq]
	case to&crownRow(us) != 0:
		p.Kings |= to
		p.hash ^= keys[0][fromSq] ^ keys[1][toSq]
	default:
		p.hash ^= keys[0][fromSq] ^ keys[0][toSq]
	}
	for c := captured; c != 0; c &= c - 1 {
		s := lowest(c)
		p.hash ^= zobrist.piece[(us^1)&1][p.Kings>>s&1][s]
	}
	p.Kings &^= captured
	p.Side ^= 1
	p.hash ^= zobrist.side
	return u
}

// unmakeInPlace takes m back from p.
func unmakeInPlace(p *Position, m Move, u undo) {
	from, to, captured := uint32(1)<<m.From(), uint32(1)<<m.To(), m.Captured()
	us := p.Side ^ 1
	moved := from ^ to
	if us == Black {
		p.Black ^= moved
		p.White |= captured
	} else {
		p.White ^= moved
		p.Black |= captured
	}
	p.Kings &^= to
	if u.wasKing {
		p.Kings |= from
	}
	p.Kings |= u.kingsCap
	p.Side, p.hash = us, u.hash
}

// perftMakeUnmake is Perft with make/unmake on one Position instead of
// copy-make.
func perftMakeUnmake(p *Position, depth int, bufs [][]Move) uint64 {
	if depth == 1 {
		return uint64(p.CountRoutes(bufs[0]))
	}
	moves := p.Routes(bufs[0])
	bufs[0] = moves[:0]
	var n uint64
	for _, m := range moves {
		u := makeInPlace(p, m)
		n += perftMakeUnmake(p, depth-1, bufs[1:])
		unmakeInPlace(p, m, u)
	}
	return n
}

func TestMakeUnmakeAlternativeIsExact(t *testing.T) {
	bufs := make([][]Move, 9)
	p := Start()
	if got, want := perftMakeUnmake(&p, 9, bufs), startPerft[8]; got != want {
		t.Errorf("make/unmake perft(9) = %d, want %d", got, want)
	}
	if p != Start() {
		t.Errorf("make/unmake did not restore the start position")
	}
}

// BenchmarkMakeUnmake compares perft(9) by copy-make (Play, what the engine
// uses) with an in-place make/unmake of the same position.
func BenchmarkMakeUnmake(b *testing.B) {
	b.Run("copy-make", func(b *testing.B) {
		for b.Loop() {
			Perft(Start(), 9)
		}
		b.ReportMetric(float64(startPerft[8]*uint64(b.N))/b.Elapsed().Seconds(), "nodes/s")
	})
	b.Run("make-unmake", func(b *testing.B) {
		bufs := make([][]Move, 9)
		for b.Loop() {
			p := Start()
			perftMakeUnmake(&p, 9, bufs)
		}
		b.ReportMetric(float64(startPerft[8]*uint64(b.N))/b.Elapsed().Seconds(), "nodes/s")
	})
}

// BenchmarkGameMake measures Game.Make and Unmake, the history push and pop
// that search does at every node, over the moves of a fixed position.
func BenchmarkGameMake(b *testing.B) {
	g := NewGame(Start(), DefaultRules())
	moves := g.LegalMoves(nil)
	for b.Loop() {
		for _, m := range moves {
			g.Make(m)
			g.Unmake()
		}
	}
	b.ReportMetric(float64(b.N*len(moves))/b.Elapsed().Seconds(), "makes/s")
}

package positions

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"evolved/game/chess"
	"evolved/game/xiangqi"
)

// withoutClocks returns a FEN with its clocks set to "0 1", as a position
// comes out of the store.
func withoutClocks(fen string) string {
	f := strings.Fields(fen)
	return strings.Join(append(f[:4], "0", "1"), " ")
}

// chessCases are positions that exercise every field of the layout:
// castling rights classical and Chess960, en passant, promotions, and 32
// pieces.
var chessCases = []string{
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",        // en passant on f6
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", // Kiwipete
	"8/2P5/8/8/8/8/5kp1/K7 b - - 0 1",
	"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", // Chess960
	"4k2r/8/8/8/8/8/8/R3K3 b Qk - 0 1",
}

func TestChessRoundTrip(t *testing.T) {
	for _, fen := range chessCases {
		p, err := chess.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		b := PackChess(&p)
		q, err := UnpackChess(&b)
		if err != nil {
			t.Fatalf("%s: %v", fen, err)
		}
		if got, want := q.FEN(), withoutClocks(p.FEN()); got != want {
			t.Errorf("%s: unpacked %s, want %s", fen, got, want)
		}
		if q.Hash() != p.Hash() {
			t.Errorf("%s: hash %x, want %x", fen, q.Hash(), p.Hash())
		}
	}
}

// TestChessRoundTripGames packs every position of random games, from the
// standard start and from Chess960 arrangements, and every move played.
func TestChessRoundTripGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var buf []chess.Move
	positions := 0
	for g := range 60 {
		p := chess.Start()
		if g%3 == 2 {
			var err error
			if p, err = chess.Chess960(rng.IntN(960)); err != nil {
				t.Fatal(err)
			}
		}
		for range 200 {
			buf = p.LegalMoves(buf[:0])
			if len(buf) == 0 {
				break
			}
			b := PackChess(&p)
			q, err := UnpackChess(&b)
			if err != nil {
				t.Fatalf("%s: %v", p.FEN(), err)
			}
			if q.FEN() != withoutClocks(p.FEN()) {
				t.Fatalf("%s: unpacked %s", p.FEN(), q.FEN())
			}
			m := buf[rng.IntN(len(buf))]
			if got, ok := ChessMove(&q, PackChessMove(m)); !ok || got != m {
				t.Fatalf("%s: move %v packed to %#x read back as %v, %v", p.FEN(), m, PackChessMove(m), got, ok)
			}
			p = p.Play(m)
			positions++
		}
	}
	t.Logf("%d positions", positions)
}

func TestXiangqiRoundTripGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var buf []xiangqi.Move
	for range 40 {
		p := xiangqi.Start()
		for range 200 {
			buf = p.LegalMoves(buf[:0])
			if len(buf) == 0 {
				break
			}
			b := PackXiangqi(&p)
			q, err := UnpackXiangqi(&b)
			if err != nil {
				t.Fatalf("%s: %v", p.FEN(), err)
			}
			if q.FEN() != withoutClocks(p.FEN()) || q.Hash() != p.Hash() {
				t.Fatalf("%s: unpacked %s", p.FEN(), q.FEN())
			}
			m := buf[rng.IntN(len(buf))]
			if got, ok := XiangqiMove(&q, PackXiangqiMove(m)); !ok || got != m {
				t.Fatalf("%s: move %v read back as %v, %v", p.FEN(), m, got, ok)
			}
			p = p.Play(m)
		}
	}
}

// TestChessLayout pins the layout on the start position, by hand: the
// first two ranks and the last two occupied; white's pieces a1..h2 then
// black's a7..h8; the rooks with their castling rights coded 12 and 13.
func TestChessLayout(t *testing.T) {
	p := chess.Start()
	b := PackChess(&p)
	want := Packed{
		0xff, 0xff, 0, 0, 0, 0, 0xff, 0xff,
		0x1c, 0x42, 0x25, 0xc1, 0, 0, 0, 0, // R N B Q K B N R = 12 1 2 4 5 2 1 12, then the eight pawns 0
		0x66, 0x66, 0x66, 0x66, 0x7d, 0xa8, 0x8b, 0xd7, // eight pawns 6, then r n b q k b n r = 13 7 8 10 11 8 7 13
		64, 0, 0, 0, 0, 0, 0, 0,
	}
	if b != want {
		t.Fatalf("start packed\n% x\nwant\n% x", b, want)
	}
}

func TestUnpackRefuses(t *testing.T) {
	start := chess.Start()
	good := PackChess(&start)
	bad := map[string]func(b *Packed){
		"a code of 15":             func(b *Packed) { b[8] = 0x1f },
		"a stray byte":             func(b *Packed) { b[30] = 1 },
		"a nibble beyond the last": func(b *Packed) { b[23] = 0x17 },
		"no king":                  func(b *Packed) { b[9] = 0x43 }, // the white king becomes a rook
		"an en passant of 65":      func(b *Packed) { b[24] = 65 },
		"an unusable en passant":   func(b *Packed) { b[24] = 20 }, // e3 with no pawn to take
	}
	for name, f := range bad {
		b := good
		f(&b)
		if _, err := UnpackChess(&b); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: error %v, want ErrCorrupt", name, err)
		}
	}
	xs := xiangqi.Start()
	xgood := PackXiangqi(&xs)
	for name, f := range map[string]func(b *Packed){
		"a point beyond 89": func(b *Packed) { b[11] = 0x80 },
		"a code of 14":      func(b *Packed) { b[12] = 0xee },
		"a stray side bit":  func(b *Packed) { b[28] = 1 },
	} {
		b := xgood
		f(&b)
		if _, err := UnpackXiangqi(&b); !errors.Is(err, ErrCorrupt) {
			t.Errorf("xiangqi %s: error %v, want ErrCorrupt", name, err)
		}
	}
}

// FuzzUnpack checks that no bytes make the codecs panic, and that what
// they accept packs back to the same bytes.
func FuzzUnpack(f *testing.F) {
	c, x := chess.Start(), xiangqi.Start()
	cb, xb := PackChess(&c), PackXiangqi(&x)
	f.Add(cb[:])
	f.Add(xb[:])
	f.Fuzz(func(t *testing.T, data []byte) {
		var b Packed
		copy(b[:], data)
		if p, err := UnpackChess(&b); err == nil && PackChess(&p) != b {
			t.Fatalf("chess % x unpacked to %s, which packs differently", b, p.FEN())
		}
		if p, err := UnpackXiangqi(&b); err == nil && PackXiangqi(&p) != b {
			t.Fatalf("xiangqi % x unpacked to %s, which packs differently", b, p.FEN())
		}
	})
}

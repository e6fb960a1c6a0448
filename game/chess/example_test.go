package chess_test

import (
	"fmt"
	"strings"

	"evolved/game/chess"
)

// Moves read in SAN or UCI and written in SAN, and the position after them.
func Example() {
	g := chess.NewGame(chess.Start(), chess.DefaultRules())
	var san []string
	for _, text := range []string{"e4", "e7e5", "Nf3", "Nc6", "Bb5"} {
		m, err := g.ParseMove(text)
		if err != nil {
			panic(err)
		}
		p := g.Position()
		san = append(san, p.FormatSAN(m))
		g.Make(m)
	}
	fmt.Println(strings.Join(san, " "))
	p := g.Position()
	fmt.Println(p.FEN())
	// Output:
	// e4 e5 Nf3 Nc6 Bb5
	// r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3
}

// Chess960 start positions by Scharnagl number; 518 is the classical one.
func ExampleChess960() {
	for _, n := range []int{0, 518, 959} {
		p, err := chess.Chess960(n)
		if err != nil {
			panic(err)
		}
		fmt.Println(n, p.FEN())
	}
	// Output:
	// 0 bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1
	// 518 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
	// 959 rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1
}

package draughts_test

import (
	"fmt"
	"strings"

	"evolved/game/draughts"
)

// A position from its PDN FEN, its legal moves in standard notation (no
// capture is possible, so the quiet moves are legal; the king on 29 is
// boxed in by its own piece on 25), an illegal move explained, and a legal
// one played.
func Example() {
	p, err := draughts.ParseFEN("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29")
	if err != nil {
		panic(err)
	}
	var moves []string
	for _, m := range p.Moves(nil) {
		moves = append(moves, p.FormatMove(m))
	}
	fmt.Println(strings.Join(moves, " "))
	m, err := p.ParseMove("12-19")
	fmt.Println(err)
	m, _ = p.ParseMove("16-19")
	fmt.Println(p.Play(m).FEN())
	// Output:
	// 16-19 22-26 25-30 22-17 25-21
	// draughts: parse move "12-19": illegal in this position; legal moves: 16-19, 22-17, 22-26, 25-21, 25-30
	// W:W18,24,27,28,K10,K15:B12,19,20,K22,K25,K29
}

// Perft from the start position, as published.
func ExamplePerft() {
	var counts []string
	for depth := 1; depth <= 6; depth++ {
		counts = append(counts, fmt.Sprint(draughts.Perft(draughts.Start(), depth)))
	}
	fmt.Println(strings.Join(counts, " "))
	// Output: 7 49 302 1469 7361 36768
}

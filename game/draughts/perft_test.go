package draughts

import (
	"testing"

	"evolved/longtest"
)

// startPerft holds perft from the start position of English draughts,
// depths 1..12, as published by the checkers programming community (Aart
// Bik's and Rein Halbersma's counts).
var startPerft = []uint64{
	7, 49, 302, 1469, 7361, 36768, 179740, 845931,
	3963680, 18391564, 85242128, 388623673,
}

func TestPerftStart(t *testing.T) {
	maxDepth := 11 // 85,242,128 leaves: about a second
	if testing.Short() {
		maxDepth = 10
	}
	if longtest.Enabled() {
		maxDepth = 12 // 388,623,673 leaves: about 6 s
	}
	for d := 1; d <= maxDepth; d++ {
		if got, want := Perft(Start(), d), startPerft[d-1]; got != want {
			t.Errorf("Perft(start, %d) = %d, want %d", d, got, want)
		}
	}
}

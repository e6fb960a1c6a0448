package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evolved/agent"
	"evolved/nnet"
)

// TestShowTerms checks what show prints of a chess agent whose piece
// values and terms are set by hand: every value, and each term's weight
// times its unit worked out here.
func TestShowTerms(t *testing.T) {
	n, err := nnet.New(nnet.ChessSizes(4), nnet.EvolvePieceValues|nnet.EvolveTerms|nnet.EvolveMoreTerms)
	if err != nil {
		t.Fatal(err)
	}
	if n, err = n.WithPieceValues([nnet.NumPieceValues]float64{1, 3.25, 3.5, 5, 9.5}); err != nil {
		t.Fatal(err)
	}
	var terms [nnet.NumChessTerms]float64
	terms[8], terms[13] = 1.5, -2 // rook on open file (unit 0.2), hanging pieces (0.3)
	if n, err = n.WithChessTerms(terms); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "a.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := agent.Write(f, agent.File{Format: agent.FormatName, Version: agent.Version, Game: "chess",
		Search: agent.Search{Depth: 2, CaptureExtension: true}, Provenance: agent.Provenance{RunSeed: 7, Generation: 42}, Net: n}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out, code := exitStatus(t, "show", "--agent", path)
	if code != 0 {
		t.Fatalf("show: status %d\n%s", code, out)
	}
	for _, want := range []string{
		"chess agent: generation 42 champion of the run with seed 7",
		"search: depth 2, then captures\n",
		"net: 768-4-1, ",
		"flags evolve-piece-values|evolve-terms|evolve-more-terms\n",
		"piece values (pawns): pawn 1.00 knight 3.25 bishop 3.50 rook 5.00 queen 9.50\n",
		"  rook on open file         +1.50         0.2        +0.3000\n",
		"  hanging pieces            -2.00         0.3        -0.6000\n",
		"  connected pawns           +0.00         0.1        +0.0000\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
	if got := strings.Count(out, "\n  "); got != 1+nnet.NumMoreChessTerms {
		t.Errorf("show printed %d table lines, want a header and %d terms:\n%s", got, nnet.NumMoreChessTerms, out)
	}
}

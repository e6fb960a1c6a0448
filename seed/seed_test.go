package seed

import "testing"

func TestDeriveSeparatesEveryCoordinate(t *testing.T) {
	base := Derive(1, "draughts", 7, Mutation, 3)
	if again := Derive(1, "draughts", 7, Mutation, 3); again != base {
		t.Fatalf("Derive is not a function of its inputs: %x then %x", base, again)
	}
	others := map[string]uint64{
		"run":        Derive(2, "draughts", 7, Mutation, 3),
		"game":       Derive(1, "chess", 7, Mutation, 3),
		"generation": Derive(1, "draughts", 8, Mutation, 3),
		"purpose":    Derive(1, "draughts", 7, Crossover, 3),
		"index":      Derive(1, "draughts", 7, Mutation, 4),
		// The game name and the purpose must not run into each other.
		"boundary": Derive(1, "draughtsm", 7, "utation", 3),
	}
	for what, s := range others {
		if s == base {
			t.Errorf("changing the %s gave the same seed %x", what, s)
		}
	}
}

func TestDeriveIsStable(t *testing.T) {
	// Seeds are part of what a stored run means: a resumed run must draw the
	// same numbers as the run that wrote the database, also after an
	// upgrade. This value was computed once and must never change.
	const want = 0x0f83163c2aa0db9e
	if got := Derive(42, "draughts", 0, Init, 0); got != want {
		t.Errorf("Derive(42, draughts, 0, init, 0) = %#x, want %#x", got, uint64(want))
	}
}

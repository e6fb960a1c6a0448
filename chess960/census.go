package chess960

import (
	"fmt"

	"evolved/game/chess"
)

// Census is the independent count of the valid arrangements, the check of
// the enumeration against the rules.
type Census struct {
	Permutations      int // orderings of the eight pieces of RNBQKBNR: 8! = 40320
	ValidPermutations int // of which valid: 960 x 2 x 2 x 2 (the pairs swapped)
	Distinct          int // distinct valid arrangements among them: 960
	Constructed       int // arrangements built by 4 x 4 x 6 x 10 choices: 960
	ConstructedValid  int // of which distinct, valid and among the brute-force ones: 960
}

// Count counts the valid arrangements twice without the Scharnagl decoding:
// by brute force over every ordering of the eight pieces, checking Valid,
// and by the construction (light-squared bishop 4 ways, dark-squared bishop
// 4, queen on one of the 6 free squares, knights on 2 of the 5 left: 10
// ways, then rook, king, rook).
func Count() Census {
	var c Census
	brute := map[Arrangement]bool{}
	pieces := Classical()
	var perm [8]int
	used := [8]bool{}
	var walk func(i int)
	walk = func(i int) {
		if i == 8 {
			c.Permutations++
			var a Arrangement
			for f, k := range perm {
				a[f] = pieces[k]
			}
			if a.Valid() {
				c.ValidPermutations++
				brute[a] = true
			}
			return
		}
		for k := range 8 {
			if !used[k] {
				used[k], perm[i] = true, k
				walk(i + 1)
				used[k] = false
			}
		}
	}
	walk(0)
	c.Distinct = len(brute)

	built := map[Arrangement]bool{}
	for lb := 1; lb < 8; lb += 2 {
		for db := 0; db < 8; db += 2 {
			for q := range 6 {
				for k1 := range 5 {
					for k2 := k1 + 1; k2 < 5; k2++ {
						c.Constructed++
						a := empty()
						a[lb], a[db] = Bishop, Bishop
						a.fillNth(q, Queen)
						a.fillNth(k2, Knight)
						a.fillNth(k1, Knight)
						a.fillNth(0, Rook)
						a.fillNth(0, King)
						a.fillNth(0, Rook)
						if a.Valid() && brute[a] && !built[a] {
							c.ConstructedValid++
						}
						built[a] = true
					}
				}
			}
		}
	}
	return c
}

// CheckEngine checks that FromNumber(n) is the back rank of both sides in
// game/chess's Chess960(n) start position, for every n in 0..959, and that
// Number inverts FromNumber.
func CheckEngine() error {
	toPiece := map[chess.PieceType]Piece{chess.Rook: Rook, chess.Knight: Knight, chess.Bishop: Bishop, chess.Queen: Queen, chess.King: King}
	for n := range 960 {
		p, err := chess.Chess960(n)
		if err != nil {
			return fmt.Errorf("chess960: check engine: %w", err)
		}
		want, err := FromNumber(n)
		if err != nil {
			return err
		}
		for _, rank := range []int{0, 7} {
			var got Arrangement
			for f := range 8 {
				pt, _ := p.PieceAt(chess.NewSquare(f, rank))
				q, ok := toPiece[pt]
				if !ok {
					q = noPiece
				}
				got[f] = q
			}
			if got != want {
				return fmt.Errorf("chess960: Chess960(%d) has %s on rank %d, FromNumber gives %s", n, got, rank+1, want)
			}
		}
		if got := want.Number(); got != n {
			return fmt.Errorf("chess960: FromNumber(%d) = %s, whose Number is %d", n, want, got)
		}
	}
	return nil
}

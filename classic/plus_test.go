package classic

import (
	"context"
	"testing"
	"time"

	"evolved/game/xiangqi"
	"evolved/search"
)

// TestPlus checks classic+ on the hand-built positions. The depth cap,
// not the generous move time, ends its searches, so the test does not
// depend on the machine's speed.
func TestPlus(t *testing.T) {
	testPlayer(t, func() search.Player[xiangqi.Move, *xiangqi.Game] {
		return NewPlus(PlusOptions{MoveTime: time.Minute, MaxDepth: 4, TableBits: 12})
	})
}

// TestPlusOptions checks the defaults of NewPlus.
func TestPlusOptions(t *testing.T) {
	o := NewPlus(PlusOptions{}).Options()
	if o.Time != DefaultMoveTime || o.Depth != DefaultPlusDepth || o.TableBits != DefaultTableBits || !o.Quiescence {
		t.Errorf("default options %+v", o)
	}
	o = NewPlus(PlusOptions{MoveTime: time.Millisecond, MaxDepth: 3, TableBits: 10}).Options()
	if o.Time != time.Millisecond || o.Depth != 3 || o.TableBits != 10 {
		t.Errorf("options %+v", o)
	}
}

// TestPlusScale checks that classic+ scores a quiet position as the
// classic evaluation does, over Scale: at depth 1 with no capture for
// either side, the score is the best child's evaluation.
func TestPlusScale(t *testing.T) {
	p := mustFEN(t, "3k5/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1")
	pl := NewPlus(PlusOptions{MoveTime: time.Minute, MaxDepth: 1})
	res, err := pl.Move(context.Background(), xiangqi.NewGame(p, xiangqi.DefaultRules()))
	if err != nil {
		t.Fatal(err)
	}
	best := -search.Infinity
	for _, m := range p.LegalMoves(nil) {
		c := p.Play(m)
		best = max(best, -(Evaluate(&c) / Scale))
	}
	if res.Score != best {
		t.Errorf("classic+ depth 1 score %d, want %d", res.Score, best)
	}
}

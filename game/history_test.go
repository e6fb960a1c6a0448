package game

import (
	"slices"
	"testing"
)

// hashHistory is a History whose positions are bare hashes and whose
// moves are small numbers, as the tests below write them by hand.
type hashHistory = History[uint64, int, struct{}]

// played returns a History that started at positions[0] and then went
// through the rest of positions, the i-th move being i.
func played(positions []uint64) *hashHistory {
	var h hashHistory
	h.Reset(positions[0], struct{}{})
	for i, p := range positions[1:] {
		_, next := h.Push()
		next.Pos, next.Move = p, i+1
	}
	return &h
}

func TestHistoryRepetitions(t *testing.T) {
	for _, tc := range []struct {
		name      string
		positions []uint64 // the start first, the current position last
		window    int
		wantN     int
		wantLast  int
	}{
		{"start", []uint64{1}, 10, 0, -1},
		{"first occurrence", []uint64{1, 2, 3}, 10, 0, -1},
		{"two plies back", []uint64{1, 2, 1}, 10, 1, 0},
		{"an odd number of plies back is the other side to move", []uint64{1, 2, 1, 1}, 10, 0, -1},
		{"third occurrence", []uint64{1, 2, 1, 2, 1}, 10, 2, 2},
		{"the latest occurrence is last", []uint64{1, 9, 1, 9, 1, 9, 1}, 10, 3, 4},
		{"window of 4 reaches the start", []uint64{1, 2, 1, 2, 1}, 4, 2, 2},
		{"window of 3 stops after the start", []uint64{1, 2, 1, 2, 1}, 3, 1, 2},
		{"window of 2", []uint64{1, 2, 1, 2, 1}, 2, 1, 2},
		{"window of 1 compares nothing", []uint64{1, 2, 1, 2, 1}, 1, 0, -1},
		{"window of 0 (an irreversible move)", []uint64{1, 2, 1}, 0, 0, -1},
		{"window past the start", []uint64{7, 8, 7}, 100, 1, 0},
		{"other positions in between", []uint64{5, 6, 7, 8, 5, 9, 5}, 10, 2, 4},
	} {
		h := played(tc.positions)
		cur := h.Top().Pos
		n, last := h.Repetitions(tc.window, func(q *uint64) bool { return *q == cur })
		if n != tc.wantN || last != tc.wantLast {
			t.Errorf("%s: Repetitions(%d) of %v = %d, %d; want %d, %d",
				tc.name, tc.window, tc.positions, n, last, tc.wantN, tc.wantLast)
		}
	}
}

func TestHistoryPushPop(t *testing.T) {
	h := played([]uint64{10, 11, 12, 13})
	if got := h.Ply(); got != 3 {
		t.Fatalf("Ply() = %d, want 3", got)
	}
	if got, want := h.Moves(nil), []int{1, 2, 3}; !slices.Equal(got, want) {
		t.Errorf("Moves = %v, want %v", got, want)
	}
	if got := h.Top().Pos; got != 13 {
		t.Errorf("Top().Pos = %d, want 13", got)
	}
	if got := h.At(1).Pos; got != 11 {
		t.Errorf("At(1).Pos = %d, want 11", got)
	}
	prev, next := h.Push()
	if prev.Pos != 13 || next != h.Top() || h.Ply() != 4 {
		t.Errorf("Push: prev.Pos = %d, next is top %v, Ply %d; want 13, true, 4", prev.Pos, next == h.Top(), h.Ply())
	}
	for want := 3; want >= 0; want-- {
		if !h.Pop() {
			t.Fatalf("Pop at ply %d = false", want+1)
		}
		if got := h.Ply(); got != want {
			t.Fatalf("Ply after Pop = %d, want %d", got, want)
		}
	}
	if h.Pop() {
		t.Errorf("Pop at the start = true, want false")
	}
	if got := h.Start().Pos; got != 10 || h.Top() != h.Start() {
		t.Errorf("after popping every move: Start().Pos = %d, Top is Start %v; want 10, true", got, h.Top() == h.Start())
	}
	h.Reset(20, struct{}{})
	if h.Ply() != 0 || h.Start().Pos != 20 || len(h.Moves(nil)) != 0 {
		t.Errorf("Reset(20): Ply %d, Start %d, Moves %v; want 0, 20, []", h.Ply(), h.Start().Pos, h.Moves(nil))
	}
}

func TestHistoryAtMoveLimit(t *testing.T) {
	for _, tc := range []struct {
		ply, maxMoves int
		want          bool
	}{
		{0, 0, false}, {500, 0, false},
		{0, 1, false}, {1, 1, false}, {2, 1, true}, {3, 1, true},
		{5, 3, false}, {6, 3, true},
	} {
		positions := make([]uint64, tc.ply+1)
		if got := played(positions).AtMoveLimit(tc.maxMoves); got != tc.want {
			t.Errorf("after %d plies: AtMoveLimit(%d) = %v, want %v", tc.ply, tc.maxMoves, got, tc.want)
		}
	}
}

func TestHistoryKeepsInfo(t *testing.T) {
	var h History[uint64, int, bool]
	h.Reset(1, true)
	_, next := h.Push()
	next.Pos, next.Move, next.Info = 2, 7, false
	if e := h.At(0); e.Pos != 1 || !e.Info || e.Move != 0 {
		t.Errorf("start entry = %+v, want {Pos:1 Move:0 Info:true}", *e)
	}
	if e := h.Top(); e.Pos != 2 || e.Info || e.Move != 7 {
		t.Errorf("top entry = %+v, want {Pos:2 Move:7 Info:false}", *e)
	}
}

func TestHistoryPushDoesNotAllocate(t *testing.T) {
	h := played(make([]uint64, 300)) // grown past its first capacity
	for h.Pop() {
	}
	allocs := testing.AllocsPerRun(100, func() {
		for range 299 {
			h.Push()
		}
		for h.Pop() {
		}
	})
	if allocs != 0 {
		t.Errorf("Push and Pop over a grown History: %v allocations, want 0", allocs)
	}
}

func TestHistoryRepetitionsStopAtNullMove(t *testing.T) {
	for _, tc := range []struct {
		name      string
		positions []uint64 // the start first, the current position last
		null      int      // the entry whose move is the null move (the zero move)
		wantN     int
		wantLast  int
	}{
		// Without the null move, each of these is a third occurrence (2, 2).
		{"a null move before the latest occurrence keeps it", []uint64{1, 2, 1, 2, 1}, 2, 1, 2},
		{"a null move leading to the current position", []uint64{1, 2, 1, 2, 1}, 4, 0, -1},
		{"a null move one ply after the latest occurrence", []uint64{1, 2, 1, 2, 1}, 3, 0, -1},
		{"a null move right after the start", []uint64{1, 2, 1, 2, 1}, 1, 1, 2},
	} {
		var h hashHistory
		h.Reset(tc.positions[0], struct{}{})
		for i, p := range tc.positions[1:] {
			_, next := h.Push()
			next.Pos, next.Move = p, i+1
			if i+1 == tc.null {
				next.Move = 0
			}
		}
		cur := h.Top().Pos
		n, last := h.Repetitions(100, func(q *uint64) bool { return *q == cur })
		if n != tc.wantN || last != tc.wantLast {
			t.Errorf("%s: Repetitions of %v with a null move at entry %d = %d, %d; want %d, %d",
				tc.name, tc.positions, tc.null, n, last, tc.wantN, tc.wantLast)
		}
	}
}

func TestHistoryPopPass(t *testing.T) {
	h := played([]uint64{10, 11}) // one move, 1
	if h.PopPass(0) {
		t.Errorf("PopPass after a move = true, want false")
	}
	if h.Ply() != 1 {
		t.Fatalf("PopPass after a move changed Ply to %d, want 1", h.Ply())
	}
	_, next := h.Push()
	next.Pos, next.Move = 12, 0 // a pass
	if !h.PopPass(0) || h.Ply() != 1 || h.Top().Pos != 11 {
		t.Errorf("PopPass after a pass: Ply %d, Top %d; want true, 1, 11", h.Ply(), h.Top().Pos)
	}
	h.Pop()
	if h.PopPass(0) || h.Ply() != 0 {
		t.Errorf("PopPass at the start = true or moved (Ply %d), want false, 0", h.Ply())
	}
}

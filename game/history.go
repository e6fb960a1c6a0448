package game

// Entry is one ply of a History: the position P, the move M that led to it
// (the zero move for the start, and for a null move, a pass that search
// plays), and Info, what else the game's rules keep per ply (draughts' run
// of reversible moves, xiangqi's check).
type Entry[P any, M comparable, X any] struct {
	Pos  P
	Move M
	Info X
}

// History is the sequence of positions of a game in progress, from its
// start to the current one, as the rules need it to take moves back, count
// repetitions and stop at a move limit. Each game's Game wraps one and
// keeps its own rules; History knows nothing of them, so its methods are
// compiled for each game's Entry type and inlined into its Make and Unmake.
//
// The zero History is empty: Reset starts it. Push and Pop do not allocate
// once the History has grown to the game's length. A History is not safe
// for concurrent use.
type History[P any, M comparable, X any] struct {
	entries []Entry[P, M, X] // entries[0] is the start
}

// historyCap is the room a History makes at its first Reset, in plies.
const historyCap = 256

// Reset restarts the history at start, whose Info is info, keeping its
// storage.
func (h *History[P, M, X]) Reset(start P, info X) {
	if h.entries == nil {
		h.entries = make([]Entry[P, M, X], 0, historyCap)
	}
	h.entries = append(h.entries[:0], Entry[P, M, X]{Pos: start, Info: info})
}

// Clone returns a copy of h that shares no storage with it, with as much
// room to grow: a search of several threads gives each a game of its own.
func (h *History[P, M, X]) Clone() History[P, M, X] {
	return History[P, M, X]{entries: append(make([]Entry[P, M, X], 0, cap(h.entries)), h.entries...)}
}

// Push adds an entry, for a move played in the current position, and
// returns the current entry and the new one, whose fields the caller
// fills. The pointers are valid until the next Push.
func (h *History[P, M, X]) Push() (prev, next *Entry[P, M, X]) {
	n := len(h.entries)
	if n == cap(h.entries) {
		h.entries = append(h.entries, Entry[P, M, X]{})[:n]
	}
	h.entries = h.entries[:n+1]
	return &h.entries[n-1], &h.entries[n]
}

// Pop removes the current entry, taking its move back, and reports
// whether there was one to remove: at the start it does nothing and
// returns false.
func (h *History[P, M, X]) Pop() bool {
	n := len(h.entries) - 1
	if n == 0 {
		return false
	}
	h.entries = h.entries[:n]
	return true
}

// PopPass is Pop for a pass, an entry whose move is none (as a null move
// of search records it): it removes the current entry and reports true
// only when that entry is a pass, and does nothing otherwise.
func (h *History[P, M, X]) PopPass(none M) bool {
	n := len(h.entries) - 1
	if n == 0 || h.entries[n].Move != none {
		return false
	}
	h.entries = h.entries[:n]
	return true
}

// Top returns the current entry.
func (h *History[P, M, X]) Top() *Entry[P, M, X] { return &h.entries[len(h.entries)-1] }

// Start returns the first entry, the start position.
func (h *History[P, M, X]) Start() *Entry[P, M, X] { return &h.entries[0] }

// At returns the entry after i moves from the start, 0 <= i <= Ply().
func (h *History[P, M, X]) At(i int) *Entry[P, M, X] { return &h.entries[i] }

// Ply returns the number of moves made since the start.
func (h *History[P, M, X]) Ply() int { return len(h.entries) - 1 }

// Moves appends the moves made since the start to buf[:0] and returns the
// extended slice.
func (h *History[P, M, X]) Moves(buf []M) []M {
	buf = buf[:0]
	for i := 1; i < len(h.entries); i++ {
		buf = append(buf, h.entries[i].Move)
	}
	return buf
}

// Repetitions returns how many earlier positions, among the last window
// plies, same reports to be the current one (0 the first time it occurs),
// and the ply (as At counts) of the latest of them, -1 if none. window is
// the run of plies that cannot have changed the position for good (the
// moves since the last capture, pawn move or man move); positions further
// back, or before the start, are not compared. As the side to move must be
// the same, it looks back an even number of plies only. Nor does it look
// back past a null move (an entry after the start whose Move is the zero
// move): a pass is no move of the game, and a repetition through it would
// be one the players never made. same is the game's own comparison (in
// chess, castling rights count but the clocks do not); Repetitions is
// inlined, and same with it.
func (h *History[P, M, X]) Repetitions(window int, same func(*P) bool) (n, last int) {
	var null M
	top := len(h.entries) - 1
	last = -1
	stop := max(top-window, 0)
	for i := top - 2; i >= stop; i -= 2 {
		if h.entries[i+2].Move == null || h.entries[i+1].Move == null {
			break // entry i comes before a null move
		}
		if same(&h.entries[i].Pos) {
			n++
			if last < 0 {
				last = i
			}
		}
	}
	return n, last
}

// AtMoveLimit reports whether each side has made maxMoves moves since the
// start, the draw by move limit of our tournaments; maxMoves 0 means no
// limit.
func (h *History[P, M, X]) AtMoveLimit(maxMoves int) bool {
	return maxMoves > 0 && len(h.entries)-1 >= 2*maxMoves
}

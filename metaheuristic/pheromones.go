package metaheuristic

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"evolved/game/chess"
	"evolved/search"
)

// Board is the key of a learned table: the 64 squares a1..h1, a2..h2, ...,
// a8..h8 (left to right, bottom to top), each '#' when empty or the piece's
// letter, upper case for White and lower case for Black (PNBRQK, pnbrqk).
// As in the classic project the key is the board alone: the side to move,
// the castling rights and the en passant square are not part of it. Tables
// hold only positions with the learner to move, and a stored move is used
// only where it is legal (see Pheromones), so two positions that share a
// board but not their rights share an entry without harm.
//
// Board is an array so that it is a map key without allocation; String
// gives the 64-character text of the pheromone file.
type Board [64]byte

// pieceLetters are the board letters by PieceType; White's are upper case.
const pieceLetters = "PNBRQK"

// BoardOf returns the board of p.
func BoardOf(p *chess.Position) Board {
	var b Board
	for i := range b {
		b[i] = '#'
	}
	for c := chess.White; c <= chess.Black; c++ {
		for pt := chess.Pawn; pt <= chess.King; pt++ {
			letter := pieceLetters[pt]
			if c == chess.Black {
				letter += 'a' - 'A'
			}
			for bb := uint64(p.Pieces(c, pt)); bb != 0; bb &= bb - 1 {
				b[bits.TrailingZeros64(bb)] = letter
			}
		}
	}
	return b
}

// String returns the board's 64 characters.
func (b Board) String() string { return string(b[:]) }

// parseBoard reads a board's 64 characters; the error says what is wrong.
func parseBoard(s string) (Board, error) {
	var b Board
	if len(s) != len(b) {
		return b, fmt.Errorf("a board has 64 characters, this line has %d", len(s))
	}
	for i := range len(s) {
		c := s[i]
		if c != '#' && !strings.ContainsRune(pieceLetters, rune(c&^0x20)) {
			return b, fmt.Errorf("character %d, %q, is neither # nor one of PNBRQK pnbrqk", i+1, c)
		}
		b[i] = c
	}
	return b, nil
}

// moveKey identifies a move within a position by what the pheromone file
// records: from square, to square (the rook's square for castling, as
// chess.Move holds it) and promotion. Keys sort by from, then to, then
// promotion: that is the canonical move order of a table.
type moveKey uint16

// promotionLetters are the promotions of the file by code: 0 none,
// 1 knight .. 4 queen; promotionCode gives the code of a PieceType.
const promotionLetters = "-nbrq"

func promotionCode(pt chess.PieceType) uint16 {
	switch pt {
	case chess.Knight:
		return 1
	case chess.Bishop:
		return 2
	case chess.Rook:
		return 3
	case chess.Queen:
		return 4
	}
	return 0
}

// keyOf returns the key of m.
func keyOf(m chess.Move) moveKey {
	return moveKey(uint16(m.From())<<9 | uint16(m.To())<<3 | promotionCode(m.Promotion()))
}

func (k moveKey) from() chess.Square { return chess.Square(k >> 9) }
func (k moveKey) to() chess.Square   { return chess.Square(k >> 3 & 63) }
func (k moveKey) promotion() byte    { return promotionLetters[k&7] }

// findKey returns the move of legal whose key is k.
func findKey(legal []chess.Move, k moveKey) (chess.Move, bool) {
	for _, m := range legal {
		if keyOf(m) == k {
			return m, true
		}
	}
	return chess.NoMove, false
}

// InitialPheromone is the value every move of a position gets when the
// position enters a table. It is 1 rather than 0: the classic probability
// (v + |min V|) / (sum V + n |min V|) then starts uniform, and a move whose
// game gained something (v > 1) is favoured without the untried moves
// dropping to probability zero, which a start at 0 would cause (a single
// positive value shifted by |min V| = 0 would take all the probability).
const InitialPheromone = 1.0

// slot is one move of an entry and its value.
type slot struct {
	key   moveKey
	value float64
}

// entry is one position of a table: its board and its moves in canonical
// order.
type entry struct {
	board Board
	slots []slot
}

// cmpSlot orders a slot against a key, for binary search.
func cmpSlot(s slot, k moveKey) int { return int(s.key) - int(k) }

// find returns the index of k in e.slots, or -1.
func (e *entry) find(k moveKey) int {
	i, ok := slices.BinarySearchFunc(e.slots, k, cmpSlot)
	if !ok {
		return -1
	}
	return i
}

// get returns the value of the move with key k, and InitialPheromone and
// false for a move the entry lacks (a legal move of a position that shares
// its board with the one the entry was made for) or a nil entry.
func (e *entry) get(k moveKey) (float64, bool) {
	if e == nil {
		return InitialPheromone, false
	}
	if i := e.find(k); i >= 0 {
		return e.slots[i].value, true
	}
	return InitialPheromone, false
}

// Pheromones is the ant colony's table: for each position met with the
// learner to move (keyed by its Board), a real value per move. It also
// serves as the serialised form of the other methods' learned tables, with
// value 1 for the one move learned per position.
//
// Positions keep the order they entered the table in (the order of the
// file for a table read back), and each position's moves are kept in the
// canonical order: by from square, to square, then promotion, squares
// numbered a1 = 0 .. h8 = 63.
//
// A table is not safe for concurrent use while it changes; players made by
// Player may share one that no longer does.
type Pheromones struct {
	index   map[Board]int
	entries []entry
}

// NewPheromones returns an empty table.
func NewPheromones() *Pheromones {
	return &Pheromones{index: map[Board]int{}}
}

// Len returns the number of positions in t.
func (t *Pheromones) Len() int { return len(t.entries) }

// Clone returns a deep copy of t.
func (t *Pheromones) Clone() *Pheromones {
	c := &Pheromones{index: make(map[Board]int, len(t.entries)), entries: make([]entry, len(t.entries))}
	for i, e := range t.entries {
		c.entries[i] = entry{board: e.board, slots: slices.Clone(e.slots)}
		c.index[e.board] = i
	}
	return c
}

// MoveValue is a move and its value in a table.
type MoveValue struct {
	Move  chess.Move
	Value float64
}

// Values returns the moves t holds for p's board that are legal in p, with
// their values, in canonical order; nil when t does not know the board.
func (t *Pheromones) Values(p *chess.Position) []MoveValue {
	e := t.lookup(BoardOf(p))
	if e == nil {
		return nil
	}
	legal := p.LegalMoves(make([]chess.Move, 0, chess.MaxMoves))
	var out []MoveValue
	for _, s := range e.slots {
		if m, ok := findKey(legal, s.key); ok {
			out = append(out, MoveValue{m, s.value})
		}
	}
	return out
}

// lookup returns the entry of b, or nil.
func (t *Pheromones) lookup(b Board) *entry {
	i, ok := t.index[b]
	if !ok {
		return nil
	}
	return &t.entries[i]
}

// legalKeys returns the keys of legal in canonical order. Move generation
// yields each piece's moves in runs of ascending squares, so an insertion
// sort does little work (it measured twice as fast as slices.Sort here).
func legalKeys(legal []chess.Move) []moveKey {
	keys := make([]moveKey, len(legal))
	for i, m := range legal {
		k := keyOf(m)
		j := i
		for ; j > 0 && keys[j-1] > k; j-- {
			keys[j] = keys[j-1]
		}
		keys[j] = k
	}
	return keys
}

// ensure returns the entry of p's board, adding it, and any legal move of p
// it lacks, at InitialPheromone.
func (t *Pheromones) ensure(p *chess.Position) *entry {
	return t.merge(BoardOf(p), legalKeys(p.LegalMoves(nil)))
}

// merge returns the entry of b, adding it, and any of keys (a position's
// legal moves in canonical order) it lacks, at InitialPheromone.
func (t *Pheromones) merge(b Board, keys []moveKey) *entry {
	i, ok := t.index[b]
	if !ok {
		slots := make([]slot, len(keys))
		for j, k := range keys {
			slots[j] = slot{k, InitialPheromone}
		}
		t.index[b] = len(t.entries)
		t.entries = append(t.entries, entry{board: b, slots: slots})
		return &t.entries[len(t.entries)-1]
	}
	e := &t.entries[i]
	for _, k := range keys {
		if j, found := slices.BinarySearchFunc(e.slots, k, cmpSlot); !found {
			e.slots = slices.Insert(e.slots, j, slot{k, InitialPheromone})
		}
	}
	return e
}

// set stores one move per position, value 1, for the learned tables of
// GA and SA; an existing entry of b is replaced.
func (t *Pheromones) set(b Board, k moveKey) {
	i, ok := t.index[b]
	if !ok {
		i = len(t.entries)
		t.index[b] = i
		t.entries = append(t.entries, entry{board: b})
	}
	t.entries[i].slots = []slot{{k, 1}}
}

// Write writes t in the classic two-line format, one pair of lines per
// position in the table's order:
//
//	RNBQKBNRPPPPPPPP####...pppppppprnbqkbnr    the Board, 64 characters
//	6 0 5 2 - 1 4 1 4 3 - 1.5                  the moves: g1f3 1, e2e4 1.5
//
// The second line holds six space-separated fields per move, in canonical
// order: from-x from-y to-x to-y promotion value. Coordinates are 0..7,
// x the file (a = 0) and y the rank (rank 1 = 0). Castling is written as
// the king taking its own rook (e1 to h1 is "4 0 7 0"), which is
// unambiguous in Chess960 too. The promotion is "-" for none, or n, b, r,
// q. The value is written by strconv.FormatFloat(v, 'g', -1, 64), the
// shortest text that reads back to the same float64, so that writing a
// table read from a written file gives the same bytes. Every line ends in
// "\n".
func (t *Pheromones) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	var line []byte
	for _, e := range t.entries {
		line = append(line[:0], e.board[:]...)
		line = append(line, '\n')
		for i, s := range e.slots {
			if i > 0 {
				line = append(line, ' ')
			}
			from, to := s.key.from(), s.key.to()
			line = append(line, byte('0'+from.File()), ' ', byte('0'+from.Rank()), ' ',
				byte('0'+to.File()), ' ', byte('0'+to.Rank()), ' ', s.key.promotion(), ' ')
			line = strconv.AppendFloat(line, s.value, 'g', -1, 64)
		}
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return fmt.Errorf("write pheromones: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write pheromones: %w", err)
	}
	return nil
}

// ErrPheromones means a pheromone file is corrupt. ReadPheromones returns
// it inside a *LineError.
var ErrPheromones = errors.New("metaheuristic: bad pheromone file")

// LineError reports what is wrong with a pheromone file, and on which line
// (counting from 1). It unwraps to ErrPheromones.
type LineError struct {
	Line int
	What string
}

// Error returns, for example, "metaheuristic: bad pheromone file: line 4:
// move 2: from-x "8" is not 0..7".
func (e *LineError) Error() string {
	return fmt.Sprintf("%v: line %d: %s", ErrPheromones, e.Line, e.What)
}

// Unwrap returns ErrPheromones.
func (e *LineError) Unwrap() error { return ErrPheromones }

// maxLine bounds a line of a pheromone file. A position has at most 218
// legal moves of at most 36 bytes each, so real lines are under 8 KB.
const maxLine = 1 << 16

// ReadPheromones reads a table written by Write. Fields may be separated
// by any run of spaces or tabs, a line may end in "\r\n", and moves may
// come in any order (they are sorted into canonical order). Everything
// else is checked, and the first problem is returned as a *LineError that
// names the line: a board line that is not 64 characters of # and piece
// letters, a board given twice, a board without its moves line, a field
// count that is not a multiple of six, a coordinate that is not one digit
// 0..7, a move from a square to itself, a promotion other than - n b r q,
// a value that is not a finite number, a move given twice for one board.
// The moves are not checked against the board: a move that is not legal
// where the table is used is ignored there (see Player and RunACO).
// ReadPheromones does not panic on any input; an error of r is returned
// wrapped.
func ReadPheromones(r io.Reader) (*Pheromones, error) {
	t := NewPheromones()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	line := 0
	firstLine := map[Board]int{}
	for sc.Scan() {
		line++
		text := strings.TrimSuffix(sc.Text(), "\r")
		b, err := parseBoard(text)
		if err != nil {
			return nil, &LineError{line, err.Error()}
		}
		if prev, dup := firstLine[b]; dup {
			return nil, &LineError{line, fmt.Sprintf("the board of line %d again", prev)}
		}
		firstLine[b] = line
		if !sc.Scan() {
			if err := sc.Err(); err != nil {
				return nil, scanError(err, line+1)
			}
			return nil, &LineError{line + 1, "the file ends where the moves of the board above were expected"}
		}
		line++
		slots, err := parseMoves(strings.TrimSuffix(sc.Text(), "\r"))
		if err != nil {
			return nil, &LineError{line, err.Error()}
		}
		t.index[b] = len(t.entries)
		t.entries = append(t.entries, entry{board: b, slots: slots})
	}
	if err := sc.Err(); err != nil {
		return nil, scanError(err, line+1)
	}
	return t, nil
}

// scanError turns a scanner's error on line into ReadPheromones' error.
func scanError(err error, line int) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return &LineError{line, fmt.Sprintf("the line is longer than %d bytes", maxLine)}
	}
	return fmt.Errorf("read pheromones: line %d: %w", line, err)
}

// parseMoves reads a moves line; the error says what is wrong.
func parseMoves(text string) ([]slot, error) {
	f := strings.Fields(text)
	if len(f)%6 != 0 {
		return nil, fmt.Errorf("%d fields, want six per move (from-x from-y to-x to-y promotion value)", len(f))
	}
	slots := make([]slot, 0, len(f)/6)
	names := [4]string{"from-x", "from-y", "to-x", "to-y"}
	for n := range len(f) / 6 {
		m := f[6*n : 6*n+6]
		var c [4]int
		for i := range c {
			if len(m[i]) != 1 || m[i][0] < '0' || m[i][0] > '7' {
				return nil, fmt.Errorf("move %d: %s %q is not 0..7", n+1, names[i], m[i])
			}
			c[i] = int(m[i][0] - '0')
		}
		from, to := chess.NewSquare(c[0], c[1]), chess.NewSquare(c[2], c[3])
		if from == to {
			return nil, fmt.Errorf("move %d: from %s to the same square", n+1, from)
		}
		promo := strings.Index(promotionLetters, m[4])
		if len(m[4]) != 1 || promo < 0 {
			return nil, fmt.Errorf("move %d: promotion %q is not one of - n b r q", n+1, m[4])
		}
		v, err := strconv.ParseFloat(m[5], 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, fmt.Errorf("move %d: value %q is not a finite number", n+1, m[5])
		}
		slots = append(slots, slot{moveKey(uint16(from)<<9 | uint16(to)<<3 | uint16(promo)), v})
	}
	slices.SortFunc(slots, func(a, b slot) int { return int(a.key) - int(b.key) })
	for i := 1; i < len(slots); i++ {
		if slots[i].key == slots[i-1].key {
			k := slots[i].key
			return nil, fmt.Errorf("the move %s%s%c is given twice", k.from(), k.to(), k.promotion())
		}
	}
	return slots, nil
}

// Player returns a greedy player of t for the other packages' matches:
// where t knows the board of the position to move in, it plays the stored
// move of highest value among those legal there (ties go to the first in
// canonical order); where it does not, or none of the stored moves is
// legal, it plays a uniformly random legal move drawn from the seed given
// to NewGame. Moves the table lacks are not considered in a known
// position, so a GA or SA table (one move per position) plays exactly its
// learned moves. The player plays either colour, but a table learned for
// one colour knows no position with the other to move.
//
// Players share t without copying it: t must not change while they play.
// Each player is used by one goroutine at a time, as search.Player asks.
func (t *Pheromones) Player() search.Player[chess.Move, *chess.Game] {
	src := rand.NewPCG(0, 0)
	return &tablePlayer{t: t, src: src, rng: rand.New(src)}
}

// tablePlayer is the greedy player of a table.
type tablePlayer struct {
	t     *Pheromones
	src   *rand.PCG
	rng   *rand.Rand
	legal []chess.Move
}

// NewGame reseeds the player's random choices.
func (p *tablePlayer) NewGame(seed uint64) { p.src.Seed(seed, 0x7461626c65) } // "table"

// Move plays the best known move, or a random one.
func (p *tablePlayer) Move(_ context.Context, g *chess.Game) (search.Result[chess.Move], error) {
	p.legal = g.LegalMoves(p.legal)
	if len(p.legal) == 0 {
		return search.Result[chess.Move]{}, search.ErrNoMove
	}
	pos := g.Position()
	if m, ok := p.t.greedy(BoardOf(&pos), p.legal); ok {
		return search.Result[chess.Move]{Move: m}, nil
	}
	return search.Result[chess.Move]{Move: p.legal[p.rng.IntN(len(p.legal))]}, nil
}

// greedy returns the stored move of highest value for b that is in legal,
// the first in canonical order among equals; false when there is none.
func (t *Pheromones) greedy(b Board, legal []chess.Move) (chess.Move, bool) {
	e := t.lookup(b)
	if e == nil {
		return chess.NoMove, false
	}
	best, bestValue := chess.NoMove, math.Inf(-1)
	for _, s := range e.slots {
		if s.value <= bestValue && best != chess.NoMove {
			continue
		}
		if m, ok := findKey(legal, s.key); ok {
			best, bestValue = m, s.value
		}
	}
	return best, best != chess.NoMove
}

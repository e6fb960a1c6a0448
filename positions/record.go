// Package positions keeps the positions a run's games visit, each with
// what was learned of it (the search's score and best move, the game's
// result), for the trainer that fits a net to them.
//
// A position is packed into 32 bytes by its game's codec (PackChess,
// PackXiangqi): what an evaluation reads (the pieces, the side to move,
// castling rights and the en passant square), not the clocks. A Record is
// a packed position with its labels, 40 bytes on disk (RecordSize), so a
// store of millions of positions is a few tens of megabytes per million
// and is read as a stream.
package positions

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// PackedSize is the size of a packed position.
const PackedSize = 32

// Packed is a position packed by its game's codec (see PackChess and
// PackXiangqi for the layouts).
type Packed [PackedSize]byte

// RecordSize is the size of a Record on disk.
const RecordSize = 40

// Result is a game's result for the side to move in a position.
type Result int8

// The results a Record can carry.
const (
	// Loss: the side to move lost the game.
	Loss Result = -1
	// Draw: the game was drawn.
	Draw Result = 0
	// Win: the side to move won the game.
	Win Result = 1
	// Unknown: the game did not finish (stopped, or abandoned).
	Unknown Result = 2
)

// String returns "loss", "draw", "win" or "unknown".
func (r Result) String() string {
	switch r {
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	case Win:
		return "win"
	case Unknown:
		return "unknown"
	}
	return fmt.Sprintf("Result(%d)", int8(r))
}

// Score returns the result as a score for the side to move: 0, 1/2 or 1,
// and false for Unknown.
func (r Result) Score() (float64, bool) {
	switch r {
	case Loss:
		return 0, true
	case Draw:
		return 0.5, true
	case Win:
		return 1, true
	}
	return 0, false
}

// Source says which games a Record comes from.
type Source uint8

// The sources of records.
const (
	// DataGame: a self-play game played for the store, at a fixed node
	// budget from a random opening.
	DataGame Source = 1
	// Tournament: a fitness game of the genetic algorithm.
	Tournament Source = 2
)

// Record is one position and its labels.
type Record struct {
	// Position is the packed position.
	Position Packed
	// Score is the search's value of the position for its side to move,
	// in the game's hundredths of a pawn (or soldier), clamped to ±32000.
	Score int16
	// Move is the search's best move, packed by the game's codec
	// (PackChessMove, PackXiangqiMove); 0 when there is none.
	Move uint16
	// Ply is the position's ply in its game, from the game's start
	// position (capped at 65535).
	Ply uint16
	// Result is the game's result for the side to move.
	Result Result
	// Source says which games the record comes from.
	Source Source
}

// ErrCorrupt is wrapped by the errors about bytes that are not a record,
// a segment or a store this package wrote.
var ErrCorrupt = errors.New("positions: corrupt")

// ErrLocked is wrapped by Open's error when another process has the store
// open for writing.
var ErrLocked = errors.New("positions: store in use")

// unpack returns the position of the game name (for messages) packed into
// b: its FEN as fen writes it, read back by parse, which checks it as a
// FEN is checked, and packed again by pack (named packName in messages),
// which must give b, so that b is the one packing of the position. The
// error wraps ErrCorrupt and names what is wrong. UnpackChess and
// UnpackXiangqi are unpack with their game's functions.
func unpack[P any](b *Packed, name, packName string, fen func(*Packed) (string, error), parse func(string) (P, error), pack func(*P) Packed) (P, error) {
	var none P
	text, err := fen(b)
	if err != nil {
		return none, fmt.Errorf("%w %s position: %v", ErrCorrupt, name, err)
	}
	p, err := parse(text)
	if err != nil {
		return none, fmt.Errorf("%w %s position %s: %v", ErrCorrupt, name, text, err)
	}
	if pack(&p) != *b {
		return none, fmt.Errorf("%w %s position %s: not as %s packs it", ErrCorrupt, name, text, packName)
	}
	return p, nil
}

// MarshalTo writes r into b, which must hold RecordSize bytes: the
// position, then Score, Move and Ply little-endian, then Result and
// Source.
func (r *Record) MarshalTo(b []byte) {
	_ = b[RecordSize-1]
	copy(b, r.Position[:])
	binary.LittleEndian.PutUint16(b[32:], uint16(r.Score))
	binary.LittleEndian.PutUint16(b[34:], r.Move)
	binary.LittleEndian.PutUint16(b[36:], r.Ply)
	b[38] = byte(r.Result)
	b[39] = byte(r.Source)
}

// Unmarshal reads a record that MarshalTo wrote from b's first RecordSize
// bytes. The error wraps ErrCorrupt when b is short or its result or
// source is not one this package writes; the position is checked only by
// its game's codec.
func (r *Record) Unmarshal(b []byte) error {
	if len(b) < RecordSize {
		return fmt.Errorf("%w record: %d bytes, want %d", ErrCorrupt, len(b), RecordSize)
	}
	copy(r.Position[:], b)
	r.Score = int16(binary.LittleEndian.Uint16(b[32:]))
	r.Move = binary.LittleEndian.Uint16(b[34:])
	r.Ply = binary.LittleEndian.Uint16(b[36:])
	r.Result = Result(int8(b[38]))
	r.Source = Source(b[39])
	if r.Result < Loss || r.Result > Unknown {
		return fmt.Errorf("%w record: result byte %d", ErrCorrupt, b[38])
	}
	if r.Source != DataGame && r.Source != Tournament {
		return fmt.Errorf("%w record: source byte %d", ErrCorrupt, b[39])
	}
	return nil
}

// ClampScore returns a score in hundredths of a pawn as a Record holds it:
// within ±32000.
func ClampScore(cp int) int16 { return int16(max(-32000, min(32000, cp))) }

// Key returns the hash of a packed position by which a store finds
// duplicates: a fixed mix of its bytes, the same on every machine.
func (p *Packed) Key() uint64 {
	var h uint64 = 0x9e3779b97f4a7c15
	for i := 0; i < PackedSize; i += 8 {
		h ^= binary.LittleEndian.Uint64(p[i:])
		h = mix(h)
	}
	return h
}

// mix is splitmix64's finaliser: every bit of x moves about half the bits
// of the result.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

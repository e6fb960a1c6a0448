package nnet

// Chess piece-square tables (EvolvePST).

// NumPSTValues is the number of piece-square values of EvolvePST: one per
// chess piece type (pawn .. king) and square.
const NumPSTValues = 6 * 64

// PSTIndex returns the index, within a chess net's piece-square tables, of
// piece type pt (chess.Pawn = 0 .. chess.King = 5) on square s as its own
// side sees it (a1 = 0 .. h8 = 63 for White, mirrored vertically for
// Black, as in the net's encoding): pt*64 + s.
func PSTIndex(pt, s int) int { return pt*64 + s }

// classicPST are the piece-square tables of Tomasz Michniewski's
// "Simplified Evaluation Function" (chessprogramming.org), in centipawns,
// as printed there: White's view, rank 8 first, file a first, the king's
// middle-game table.
var classicPST = [6][64]int8{
	{ // pawn
		0, 0, 0, 0, 0, 0, 0, 0,
		50, 50, 50, 50, 50, 50, 50, 50,
		10, 10, 20, 30, 30, 20, 10, 10,
		5, 5, 10, 25, 25, 10, 5, 5,
		0, 0, 0, 20, 20, 0, 0, 0,
		5, -5, -10, 0, 0, -10, -5, 5,
		5, 10, 10, -20, -20, 10, 10, 5,
		0, 0, 0, 0, 0, 0, 0, 0,
	},
	{ // knight
		-50, -40, -30, -30, -30, -30, -40, -50,
		-40, -20, 0, 0, 0, 0, -20, -40,
		-30, 0, 10, 15, 15, 10, 0, -30,
		-30, 5, 15, 20, 20, 15, 5, -30,
		-30, 0, 15, 20, 20, 15, 0, -30,
		-30, 5, 10, 15, 15, 10, 5, -30,
		-40, -20, 0, 5, 5, 0, -20, -40,
		-50, -40, -30, -30, -30, -30, -40, -50,
	},
	{ // bishop
		-20, -10, -10, -10, -10, -10, -10, -20,
		-10, 0, 0, 0, 0, 0, 0, -10,
		-10, 0, 5, 10, 10, 5, 0, -10,
		-10, 5, 5, 10, 10, 5, 5, -10,
		-10, 0, 10, 10, 10, 10, 0, -10,
		-10, 10, 10, 10, 10, 10, 10, -10,
		-10, 5, 0, 0, 0, 0, 5, -10,
		-20, -10, -10, -10, -10, -10, -10, -20,
	},
	{ // rook
		0, 0, 0, 0, 0, 0, 0, 0,
		5, 10, 10, 10, 10, 10, 10, 5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		0, 0, 0, 5, 5, 0, 0, 0,
	},
	{ // queen
		-20, -10, -10, -5, -5, -10, -10, -20,
		-10, 0, 0, 0, 0, 0, 0, -10,
		-10, 0, 5, 5, 5, 5, 0, -10,
		-5, 0, 5, 5, 5, 5, 0, -5,
		0, 0, 5, 5, 5, 5, 0, -5,
		-10, 5, 5, 5, 5, 5, 0, -10,
		-10, 0, 5, 0, 0, 0, 0, -10,
		-20, -10, -10, -5, -5, -10, -10, -20,
	},
	{ // king
		-30, -40, -40, -50, -50, -40, -40, -30,
		-30, -40, -40, -50, -50, -40, -40, -30,
		-30, -40, -40, -50, -50, -40, -40, -30,
		-30, -40, -40, -50, -50, -40, -40, -30,
		-20, -30, -30, -40, -40, -30, -30, -20,
		-10, -20, -20, -20, -20, -20, -20, -10,
		20, 20, 0, 0, 0, 0, 20, 20,
		20, 30, 10, 0, 0, 10, 30, 20,
	},
}

// classicKingEndgame is the king's endgame table of Michniewski's
// "Simplified Evaluation Function", laid out as classicPST: towards the
// centre once the queens are off.
var classicKingEndgame = [64]int8{
	-50, -40, -30, -20, -20, -30, -40, -50,
	-30, -20, -10, 0, 0, -10, -20, -30,
	-30, -10, 20, 30, 30, 20, -10, -30,
	-30, -10, 30, 40, 40, 30, -10, -30,
	-30, -10, 30, 40, 40, 30, -10, -30,
	-30, -10, 20, 30, 30, 20, -10, -30,
	-30, -30, 0, 0, 0, 0, -30, -30,
	-50, -30, -30, -30, -30, -30, -30, -50,
}

// ClassicPST returns Michniewski's piece-square tables in pawns, indexed by
// PSTIndex: where EvolvePST tables start.
func ClassicPST() [NumPSTValues]float64 {
	var t [NumPSTValues]float64
	for pt := range 6 {
		for s := range 64 {
			t[PSTIndex(pt, s)] = float64(classicPST[pt][printed(s)]) / 100
		}
	}
	return t
}

// printed returns where square s (a1 = 0 .. h8 = 63) stands in a table
// printed as White sees the board, rank 8 first, file a first.
func printed(s int) int {
	rank, file := s>>3, s&7
	return (7-rank)*8 + file
}

// ClassicEndgamePST returns the tables the endgame half of TaperedTables
// starts from: ClassicPST with Michniewski's endgame table for the king.
func ClassicEndgamePST() [NumPSTValues]float64 {
	t := ClassicPST()
	for s := range 64 {
		t[PSTIndex(5, s)] = float64(classicKingEndgame[printed(s)]) / 100
	}
	return t
}

// ClassicPSTCentipawns returns the value of ClassicPST for piece type pt on
// square s (its own side's view, see PSTIndex), in centipawns.
func ClassicPSTCentipawns(pt, s int) int {
	return int(classicPST[pt][printed(s)])
}

// PST returns a copy of the piece-square tables of a chess net with
// EvolvePST, indexed by PSTIndex, in pawns (with TaperedTables the
// middlegame's); ok is false for a net without them (see XiangqiPST for
// xiangqi's).
func (n *Net) PST() (t [NumPSTValues]float64, ok bool) {
	v := n.pst()
	if v == nil || n.sizes[0] != NumChessInputs {
		return t, false
	}
	return [NumPSTValues]float64(v[:NumPSTValues]), true
}

// EndgamePST returns a copy of the endgame tables of a chess net with
// TaperedTables, indexed by PSTIndex, in pawns; ok is false for any other
// net.
func (n *Net) EndgamePST() (t [NumPSTValues]float64, ok bool) {
	v := n.pst()
	if n.flags&TaperedTables == 0 || v == nil {
		return t, false
	}
	return [NumPSTValues]float64(v[NumPSTValues:]), true
}

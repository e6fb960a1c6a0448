package chess

import "math/bits"

// Board layout.
//
// Squares are numbered little-endian rank-file: a1 = 0, b1 = 1, ..., h1 = 7,
// a2 = 8, ..., h8 = 63. Square s is bit s of a Bitboard, so that a step
// north is a shift left by 8 and a step east a shift left by 1 (masked
// against wrapping from the h-file to the a-file):
//
//	rank 8  56 57 58 59 60 61 62 63
//	rank 7  48 49 50 51 52 53 54 55
//	...
//	rank 2   8  9 10 11 12 13 14 15
//	rank 1   0  1  2  3  4  5  6  7
//	         a  b  c  d  e  f  g  h

// Square is a square of the board, 0 (a1) to 63 (h8); NoSquare marks the
// absence of one.
type Square uint8

// The named squares, a1 = 0 to h8 = 63.
const (
	A1, B1, C1, D1, E1, F1, G1, H1 Square = 8*iota + 0, 8*iota + 1, 8*iota + 2, 8*iota + 3, 8*iota + 4, 8*iota + 5, 8*iota + 6, 8*iota + 7
	A2, B2, C2, D2, E2, F2, G2, H2
	A3, B3, C3, D3, E3, F3, G3, H3
	A4, B4, C4, D4, E4, F4, G4, H4
	A5, B5, C5, D5, E5, F5, G5, H5
	A6, B6, C6, D6, E6, F6, G6, H6
	A7, B7, C7, D7, E7, F7, G7, H7
	A8, B8, C8, D8, E8, F8, G8, H8
)

// NoSquare is the Square value meaning "none", for example no en passant square.
const NoSquare Square = 64

// NewSquare returns the square on file 0..7 (a..h) and rank 0..7 (1..8).
func NewSquare(file, rank int) Square { return Square(rank*8 + file) }

// File returns the file of s, 0 (a) to 7 (h).
func (s Square) File() int { return int(s) & 7 }

// Rank returns the rank of s, 0 (rank 1) to 7 (rank 8).
func (s Square) Rank() int { return int(s) >> 3 }

// String returns the algebraic name of s, such as "e4", or "-" for NoSquare
// and out-of-range values.
func (s Square) String() string {
	if s >= NoSquare {
		return "-"
	}
	return string([]byte{'a' + byte(s.File()), '1' + byte(s.Rank())})
}

// Bitboard is a set of squares, square s being bit s.
type Bitboard uint64

// Has reports whether b contains s.
func (b Bitboard) Has(s Square) bool { return b>>(s&63)&1 != 0 }

// Count returns the number of squares in b.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// First returns the lowest square of b, or NoSquare when b is empty.
func (b Bitboard) First() Square { return Square(bits.TrailingZeros64(uint64(b))) }

// bit returns the bitboard holding only s.
func bit(s Square) Bitboard { return 1 << (s & 63) }

// lsb returns the lowest square of a non-empty b.
func lsb(b Bitboard) Square { return Square(bits.TrailingZeros64(uint64(b))) }

// msb returns the highest square of a non-empty b.
func msb(b Bitboard) Square { return Square(63 - bits.LeadingZeros64(uint64(b))) }

// popcount returns the number of squares in b.
func popcount(b Bitboard) int { return bits.OnesCount64(uint64(b)) }

// Files, ranks and other fixed sets.
const (
	fileA Bitboard = 0x0101010101010101
	fileH Bitboard = fileA << 7
	rank1 Bitboard = 0xFF
	rank2 Bitboard = rank1 << 8
	rank3 Bitboard = rank1 << 16
	rank6 Bitboard = rank1 << 40
	rank7 Bitboard = rank1 << 48
	rank8 Bitboard = rank1 << 56

	darkSquares Bitboard = 0xAA55AA55AA55AA55 // a1 is dark
)

// Direction shifts. East and west mask off the file the bits would wrap onto.
func north(b Bitboard) Bitboard { return b << 8 }
func south(b Bitboard) Bitboard { return b >> 8 }
func east(b Bitboard) Bitboard  { return b << 1 &^ fileA }
func west(b Bitboard) Bitboard  { return b >> 1 &^ fileH }

// magic is the magic-bitboard entry of one square for one kind of slider:
// the relevant occupancy mask (the rays without the board's edge), the
// multiplier, the shift and where the square's attack sets start in the
// shared table. A lookup is mask, multiply, shift, index.
type magic struct {
	mask   Bitboard
	mult   uint64
	shift  uint8
	offset uint32
}

// index returns the table index of the attack set for occupancy occ.
func (m *magic) index(occ Bitboard) uint32 {
	return m.offset + uint32(uint64(occ&m.mask)*m.mult>>m.shift)
}

// Table sizes: the sum over squares of 2^(bits in the mask).
const (
	rookTableSize   = 102400
	bishopTableSize = 5248
)

// tables holds every precomputed attack set. It is built once, at package
// initialisation, and never written again, so it is safe for concurrent use.
type tables struct {
	knight, king [64]Bitboard
	pawn         [2][64]Bitboard // [colour][square]: the squares a pawn there attacks
	between      [64][64]Bitboard
	line         [64][64]Bitboard
	rook, bishop [64]magic
	rookAtt      [rookTableSize]Bitboard
	bishopAtt    [bishopTableSize]Bitboard
}

var tab = newTables()

// The rook and bishop directions as (file, rank) steps.
var (
	rookDirs   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [4][2]int{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}}
)

// slide returns the squares a slider on s attacks along dirs given the
// occupancy occ, walking ray by ray. It is the slow reference that the magic
// tables are built from and tested against.
func slide(s Square, occ Bitboard, dirs *[4][2]int) Bitboard {
	var a Bitboard
	for _, d := range dirs {
		f, r := s.File()+d[0], s.Rank()+d[1]
		for f >= 0 && f < 8 && r >= 0 && r < 8 {
			b := bit(NewSquare(f, r))
			a |= b
			if occ&b != 0 {
				break
			}
			f, r = f+d[0], r+d[1]
		}
	}
	return a
}

// relevantMask returns the rays of s without their last square: the squares
// whose occupancy can change the attack set.
func relevantMask(s Square, dirs *[4][2]int) Bitboard {
	var m Bitboard
	for _, d := range dirs {
		f, r := s.File()+d[0], s.Rank()+d[1]
		for f+d[0] >= 0 && f+d[0] < 8 && r+d[1] >= 0 && r+d[1] < 8 {
			m |= bit(NewSquare(f, r))
			f, r = f+d[0], r+d[1]
		}
	}
	return m
}

func newTables() *tables {
	t := new(tables)
	for s := A1; s <= H8; s++ {
		f, r := s.File(), s.Rank()
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if ff, rr := f+d[0], r+d[1]; ff >= 0 && ff < 8 && rr >= 0 && rr < 8 {
				t.knight[s] |= bit(NewSquare(ff, rr))
			}
		}
		for df := -1; df <= 1; df++ {
			for dr := -1; dr <= 1; dr++ {
				if ff, rr := f+df, r+dr; (df != 0 || dr != 0) && ff >= 0 && ff < 8 && rr >= 0 && rr < 8 {
					t.king[s] |= bit(NewSquare(ff, rr))
				}
			}
		}
		b := bit(s)
		t.pawn[White][s] = north(east(b)) | north(west(b))
		t.pawn[Black][s] = south(east(b)) | south(west(b))
	}
	t.fillMagics(&t.rook, t.rookAtt[:], &rookMagics, &rookDirs)
	t.fillMagics(&t.bishop, t.bishopAtt[:], &bishopMagics, &bishopDirs)
	for a := A1; a <= H8; a++ {
		for _, dirs := range []*[4][2]int{&rookDirs, &bishopDirs} {
			empty := slide(a, 0, dirs)
			for b := A1; b <= H8; b++ {
				if !empty.Has(b) {
					continue
				}
				t.between[a][b] = slide(a, bit(b), dirs) & slide(b, bit(a), dirs)
				t.line[a][b] = empty&slide(b, 0, dirs) | bit(a) | bit(b)
			}
		}
	}
	return t
}

// fillMagics builds the magic entries and attack sets of one kind of slider.
func (t *tables) fillMagics(ms *[64]magic, att []Bitboard, mults *[64]uint64, dirs *[4][2]int) {
	offset := uint32(0)
	for s := A1; s <= H8; s++ {
		mask := relevantMask(s, dirs)
		n := popcount(mask)
		ms[s] = magic{mask: mask, mult: mults[s], shift: uint8(64 - n), offset: offset}
		// Enumerate every subset of the mask (the carry-rippler trick).
		sub := Bitboard(0)
		for {
			att[ms[s].index(sub)] = slide(s, sub, dirs)
			sub = (sub - mask) & mask
			if sub == 0 {
				break
			}
		}
		offset += 1 << n
	}
}

// rookAttacks returns the squares a rook on s attacks given the occupancy occ.
func rookAttacks(s Square, occ Bitboard) Bitboard {
	m := &tab.rook[s&63]
	return tab.rookAtt[m.index(occ)]
}

// bishopAttacks returns the squares a bishop on s attacks given the occupancy occ.
func bishopAttacks(s Square, occ Bitboard) Bitboard {
	m := &tab.bishop[s&63]
	return tab.bishopAtt[m.index(occ)]
}

// The magic multipliers were found by a search over sparse random numbers
// from splitmix64 seeded with 0x6d61676963 ("magic"), taking for each square
// the first that maps every relevant occupancy to an index holding its
// attack set. TestMagicAttacks checks every table entry against slide.
var rookMagics = [64]uint64{
	0x5080054001203180, 0x0040400020001000, 0x4180200180300019, 0x8100210004081000,
	0xc600080420100200, 0x0200241200032830, 0x1480800081000200, 0x0100110003408822,
	0x8004800020884001, 0x0000802000400088, 0x6002001604804020, 0x0802000c10420020,
	0x0202800400080281, 0x4002800200800400, 0x2240808001000200, 0x0002002080440102,
	0x01c0808000204006, 0x2010004020004000, 0x0830010100200040, 0x0040220040100a00,
	0x2468004040040200, 0x40a2008080040002, 0x0005410100020004, 0x0011820001008044,
	0xc640400080009020, 0x0040500840002000, 0x0022008200201040, 0x0105002100100108,
	0x0000080080040081, 0x0440040080020080, 0x0402320400111088, 0x180480218002c100,
	0x0120804000800020, 0x6142010386004220, 0x0612008042001020, 0x0080200a02004010,
	0x0001001005000800, 0x0018040080800200, 0x0000d10a0c004810, 0x0000889442002104,
	0x4100408102020022, 0x0022028102260040, 0x02a1004020010010, 0x8840100008008080,
	0x4000080004008080, 0x9024000402008080, 0xa424040200010100, 0x8480074424860011,
	0x2100800020401880, 0x2900400080200080, 0x2000188200402200, 0x4d00100080080080,
	0x2004080080040080, 0x2208800400020080, 0x440100220014b100, 0x250020a400410200,
	0x204a102100800041, 0x0022023320830042, 0x5008402001001409, 0x0080100005002009,
	0x000a006004081006, 0x4411000204000801, 0x0000061088104504, 0x840c010024004092,
}
var bishopMagics = [64]uint64{
	0x1820025001010010, 0x03049000a2108000, 0x0804790212000000, 0x8008060440040002,
	0x0484042044830004, 0x0002280440000428, 0x0040880158600060, 0x0008402208600400,
	0x4104401002408120, 0x0000440c04a20204, 0x0420102102082401, 0xc028044100200004,
	0x4002041520010008, 0x0000410120100050, 0x0400008084104210, 0x0230825402091010,
	0x0808044202080230, 0x0008001130010050, 0x0001046802002204, 0x0000802802014000,
	0x208a002420210242, 0x0048228202100200, 0x0064000051241032, 0x004509020100a200,
	0x00888830a1202100, 0x0408080024a10800, 0x0021280830048024, 0x0014080024021082,
	0x0401001059004002, 0x830080200202100a, 0x800100c0021e1058, 0x4000948481040080,
	0x0608020801102100, 0x08888a1000493001, 0x4000140410020802, 0x8000440109040100,
	0x0024008200040050, 0x0110060200109048, 0x0008049c88040204, 0xc830c08600090100,
	0x0408010410202060, 0x8000411010000820, 0x0080084050080804, 0x80000442008c0801,
	0x8102081102420c00, 0x4040428802810440, 0x4004500086000110, 0x0021280891000880,
	0x0080880108213600, 0x4800410808020200, 0x0400211080900600, 0x0004a10084042800,
	0x4a011040050100a2, 0x4211051002820080, 0x0008020802140000, 0x00200a088205808a,
	0x4842002101109001, 0x00202a0084110901, 0x20004a0820841048, 0x00000042808c0c22,
	0x202080052004240a, 0x3001004008014100, 0x2088208252580100, 0x2088108088010020,
}

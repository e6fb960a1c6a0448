package draughts

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// fenPosition parses a FEN the test relies on, failing the test if it does
// not parse.
func fenPosition(t testing.TB, fen string) Position {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

// rawMove writes m as "from>to{captured squares}" from its bits alone,
// independently of the notation code under test.
func rawMove(m Move) string {
	var caps []string
	for c := m.Captured(); c != 0; c &= c - 1 {
		caps = append(caps, strconv.Itoa(lowest(c)+1))
	}
	return fmt.Sprintf("%d>%d{%s}", m.From()+1, m.To()+1, strings.Join(caps, ","))
}

// squareBits returns the bitboard of the given square numbers (1..32).
func squareBits(ns ...int) uint32 {
	var b uint32
	for _, n := range ns {
		b |= 1 << (n - 1)
	}
	return b
}

// formatAll returns FormatMove of every legal move of p, sorted.
func formatAll(p Position) []string {
	var out []string
	for _, m := range p.Moves(nil) {
		out = append(out, p.FormatMove(m))
	}
	slices.Sort(out)
	return out
}

// The positions below are drawn on the board of bitboard.go:
//
//	row 0:    1     2     3     4
//	row 1:  5     6     7     8
//	row 2:    9    10    11    12
//	row 3: 13    14    15    16
//	row 4:   17    18    19    20
//	row 5: 21    22    23    24
//	row 6:   25    26    27    28
//	row 7: 29    30    31    32
//
// and every route was checked by hand on it.
var routeTests = []struct {
	name   string
	fen    string
	routes [][]int // the routes of all legal moves, sorted
}{
	{
		name: "start position",
		fen:  "B:W21-32:B1-12",
		routes: [][]int{
			{9, 13}, {9, 14}, {10, 14}, {10, 15}, {11, 15}, {11, 16}, {12, 16},
		},
	},
	{
		// A Black man on 6 takes 9 and stops on the edge (13), or takes 10
		// and then must go on from 15, over 18 to 22 or over 19 to 24.
		name:   "multi-jump with branching",
		fen:    "B:W9,10,18,19:B6",
		routes: [][]int{{6, 13}, {6, 15, 22}, {6, 15, 24}},
	},
	{
		// 15x22x31 takes 18 and 26, 15x24x31 takes 19 and 27: same start,
		// same end, different pieces.
		name:   "same start and end, different routes",
		fen:    "B:W18,19,26,27:B15",
		routes: [][]int{{15, 22, 31}, {15, 24, 31}},
	},
	{
		// A Black king on 15 with White men on all four neighbours.
		name:   "black king captures in all four directions",
		fen:    "B:W10,11,18,19:BK15",
		routes: [][]int{{15, 6}, {15, 8}, {15, 22}, {15, 24}},
	},
	{
		name:   "white king captures in all four directions",
		fen:    "W:WK15:B10,11,18,19",
		routes: [][]int{{15, 6}, {15, 8}, {15, 22}, {15, 24}},
	},
	{
		// The man lands on 31 by its second jump and is crowned there; as a
		// king it could go on over 26 to 22, but the move ends.
		name:   "black man crowned mid-capture stops",
		fen:    "B:W19,26,27:B15",
		routes: [][]int{{15, 24, 31}},
	},
	{
		// The same with a king on 15: it goes on over 26 to 22.
		name:   "black king is not stopped on the crowning row",
		fen:    "B:W19,26,27:BK15",
		routes: [][]int{{15, 24, 31, 22}},
	},
	{
		// A White man on 11 takes 7 landing on 2 and stops, although it
		// could take 6 next as a king.
		name:   "white man crowned by a capture stops",
		fen:    "W:W11:B6,7",
		routes: [][]int{{11, 2}},
	},
	{
		// A Black king on 15 and White men on 10, 9, 17, 18 in a ring: both
		// directions take the same four men and end on 15, the start square
		// (empty during the move). One move; Route gives the smaller route.
		name:   "king ring capture",
		fen:    "B:W9,10,17,18:BK15",
		routes: [][]int{{15, 6, 13, 22, 15}},
	},
	{
		// A White king on 27: 27x18x9 (over 23 and 14) or 27x18x11 (over 23
		// and 15), and 27x20 over 24 which stops at 20.
		name:   "white king branching after the first jump",
		fen:    "W:WK27:B14,15,23,24",
		routes: [][]int{{27, 18, 9}, {27, 18, 11}, {27, 20}},
	},
	{
		name:   "quiet king moves backwards and forwards",
		fen:    "W:WK18:B1",
		routes: [][]int{{18, 14}, {18, 15}, {18, 22}, {18, 23}},
	},
}

func TestPosition_Route(t *testing.T) {
	for _, tt := range routeTests {
		t.Run(tt.name, func(t *testing.T) {
			p := fenPosition(t, tt.fen)
			var got [][]int
			for _, m := range p.Moves(nil) {
				got = append(got, p.Route(m))
			}
			slices.SortFunc(got, slices.Compare)
			if !slices.EqualFunc(got, tt.routes, slices.Equal) {
				t.Errorf("routes = %v, want %v\n%s", got, tt.routes, p.String())
			}
		})
	}
}

func TestPosition_RouteRingIsLexicographicallySmallest(t *testing.T) {
	// The ring can be run 15x6x13x22x15 or 15x22x13x6x15; either way it is
	// one move, and Route must give the first.
	p := fenPosition(t, "B:W9,10,17,18:BK15")
	moves := p.Moves(nil)
	if len(moves) != 1 {
		t.Fatalf("%d moves, want 1 (the ring)", len(moves))
	}
	if got, want := p.Route(moves[0]), []int{15, 6, 13, 22, 15}; !slices.Equal(got, want) {
		t.Errorf("Route = %v, want %v", got, want)
	}
	for _, s := range []string{"15x6x13x22x15", "15x22x13x6x15", "15x15"} {
		m, err := p.ParseMove(s)
		if err != nil || m != moves[0] {
			t.Errorf("ParseMove(%q) = %s, %v; want the ring", s, rawMove(m), err)
		}
	}
}

func TestPosition_FormatMove(t *testing.T) {
	tests := []struct {
		fen  string
		want []string // all legal moves, sorted as strings
	}{
		{"B:W21-32:B1-12", []string{"10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"}},
		{"B:W9,10,18,19:B6", []string{"6x13", "6x15x22", "6x15x24"}},
		{"B:W18,19,26,27:B15", []string{"15x22x31", "15x24x31"}},
		{"B:W9,10,17,18:BK15", []string{"15x6x13x22x15"}},
		{"B:W19,26,27:B15", []string{"15x24x31"}},
		{"W:W11:B6,7", []string{"11x2"}},
	}
	for _, tt := range tests {
		p := fenPosition(t, tt.fen)
		if got := formatAll(p); !slices.Equal(got, tt.want) {
			t.Errorf("%s: moves = %q, want %q", tt.fen, got, tt.want)
		}
	}
	p := Start()
	if got := p.FormatMove(NoMove); got != "--" {
		t.Errorf("FormatMove(NoMove) = %q, want --", got)
	}
}

func TestPosition_ParseMove(t *testing.T) {
	tests := []struct {
		fen   string
		in    string
		route []int // the route of the move parsed; nil when an error is wanted
		err   error
		msg   string // the exact error message, when given
	}{
		{fen: "B:W21-32:B1-12", in: "11-15", route: []int{11, 15}},
		{fen: "B:W21-32:B1-12", in: "  11-15\t", route: []int{11, 15}},
		{fen: "B:W21-32:B1-12", in: "09-13", route: []int{9, 13}},
		{fen: "B:W21-32:B1-12", in: "11x15", route: []int{11, 15}},
		{
			fen: "B:W21-32:B1-12", in: "22-18", err: ErrIllegalMove,
			msg: `draughts: parse move "22-18": illegal in this position; legal moves: 9-13, 9-14, 10-14, 10-15, 11-15, 11-16, 12-16`,
		},
		{
			fen: "B:W21-32:B1-12", in: "33-1", err: ErrSyntax,
			msg: `draughts: parse move "33-1": square 33 out of range 1..32`,
		},
		{
			fen: "B:W21-32:B1-12", in: "0-4", err: ErrSyntax,
			msg: `draughts: parse move "0-4": square 0 out of range 1..32`,
		},
		{
			fen: "B:W21-32:B1-12", in: "e3-f4", err: ErrSyntax,
			msg: `draughts: parse move "e3-f4": not a move: expected a square number at "e3-f4"`,
		},
		{fen: "B:W21-32:B1-12", in: "", err: ErrSyntax, msg: `draughts: parse move "": not a move: empty`},
		{fen: "B:W21-32:B1-12", in: "11", err: ErrSyntax, msg: `draughts: parse move "11": not a move: one square only`},
		{fen: "B:W21-32:B1-12", in: "11-", err: ErrSyntax},
		{fen: "B:W21-32:B1-12", in: "-11", err: ErrSyntax},
		{fen: "B:W21-32:B1-12", in: "11--15", err: ErrSyntax},
		{fen: "B:W21-32:B1-12", in: "11 - 15", err: ErrSyntax},
		{fen: "B:W21-32:B1-12", in: "11-15!", err: ErrSyntax},
		{fen: "B:W21-32:B1-12", in: "99999999999999999999-1", err: ErrSyntax},
		{fen: "B:W21-32:B1-12", in: "11-15-19", err: ErrIllegalMove},

		// Branching multi-jump: each route, and the short form where unique.
		{fen: "B:W9,10,18,19:B6", in: "6x15x22", route: []int{6, 15, 22}},
		{fen: "B:W9,10,18,19:B6", in: "6x15x24", route: []int{6, 15, 24}},
		{fen: "B:W9,10,18,19:B6", in: "6x22", route: []int{6, 15, 22}},
		{fen: "B:W9,10,18,19:B6", in: "6-15-24", route: []int{6, 15, 24}},
		{fen: "B:W9,10,18,19:B6", in: "6:15:24", route: []int{6, 15, 24}},
		{fen: "B:W9,10,18,19:B6", in: "6X13", route: []int{6, 13}},
		{
			// Stopping half way is not a move.
			fen: "B:W9,10,18,19:B6", in: "6x15", err: ErrIllegalMove,
			msg: `draughts: parse move "6x15": illegal in this position; legal moves: 6x13, 6x15x22, 6x15x24`,
		},
		{fen: "B:W9,10,18,19:B6", in: "6-10", err: ErrIllegalMove}, // capture is compulsory

		// Same start and end: the short form is ambiguous, full routes are not.
		{
			fen: "B:W18,19,26,27:B15", in: "15x31", err: ErrAmbiguousMove,
			msg: `draughts: parse move "15x31": ambiguous: 15x22x31 and 15x24x31 (give the full route)`,
		},
		{fen: "B:W18,19,26,27:B15", in: "15x22x31", route: []int{15, 22, 31}},
		{fen: "B:W18,19,26,27:B15", in: "15x24x31", route: []int{15, 24, 31}},
		{fen: "B:W18,19,26,27:B15", in: "15-24-31", route: []int{15, 24, 31}},
		{fen: "B:W18,19,26,27:B15", in: "15x22x26", err: ErrIllegalMove},

		// Kings in all four directions.
		{fen: "B:W10,11,18,19:BK15", in: "15x6", route: []int{15, 6}},
		{fen: "B:W10,11,18,19:BK15", in: "15x8", route: []int{15, 8}},
		{fen: "B:W10,11,18,19:BK15", in: "15x22", route: []int{15, 22}},
		{fen: "B:W10,11,18,19:BK15", in: "15x24", route: []int{15, 24}},
		{fen: "W:WK15:B10,11,18,19", in: "15x6", route: []int{15, 6}},

		// A man crowned mid-capture stops: going on is illegal.
		{fen: "B:W19,26,27:B15", in: "15x24x31", route: []int{15, 24, 31}},
		{fen: "B:W19,26,27:B15", in: "15x31", route: []int{15, 24, 31}},
		{fen: "B:W19,26,27:B15", in: "15x24x31x22", err: ErrIllegalMove},
		{fen: "B:W19,26,27:BK15", in: "15x24x31x22", route: []int{15, 24, 31, 22}},
		{fen: "B:W19,26,27:BK15", in: "15x22", route: []int{15, 24, 31, 22}},
		{fen: "W:W11:B6,7", in: "11x2x9", err: ErrIllegalMove},

		// A man may not jump backwards; the piece must be the mover's.
		{fen: "B:W14:B10,K1", in: "10x17", route: []int{10, 17}},
		{fen: "W:W14:B18", in: "14x23", err: ErrIllegalMove},
		{fen: "W:W14:B18", in: "18x11", err: ErrIllegalMove},

		// No legal move at all.
		{
			fen: "W:W:B1", in: "1-5", err: ErrIllegalMove,
			msg: `draughts: parse move "1-5": illegal in this position; there are no legal moves`,
		},
	}
	for _, tt := range tests {
		p := fenPosition(t, tt.fen)
		m, err := p.ParseMove(tt.in)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("%s: ParseMove(%q) = %s, %v; want an error wrapping %v", tt.fen, tt.in, rawMove(m), err, tt.err)
			} else if tt.msg != "" && err.Error() != tt.msg {
				t.Errorf("%s: ParseMove(%q) error\n got %s\nwant %s", tt.fen, tt.in, err, tt.msg)
			}
			if m != NoMove {
				t.Errorf("%s: ParseMove(%q) returned %s with its error, want NoMove", tt.fen, tt.in, rawMove(m))
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: ParseMove(%q): %v", tt.fen, tt.in, err)
			continue
		}
		if got := p.Route(m); !slices.Equal(got, tt.route) {
			t.Errorf("%s: ParseMove(%q) has route %v, want %v", tt.fen, tt.in, got, tt.route)
		}
		if !slices.Contains(p.Moves(nil), m) {
			t.Errorf("%s: ParseMove(%q) = %s, not a legal move", tt.fen, tt.in, rawMove(m))
		}
	}
}

func TestPosition_String(t *testing.T) {
	p := fenPosition(t, "W:W18,K31:B6,K14")
	want := strings.Join([]string{
		"   .   .   .   .      1   2   3   4",
		" .   b   .   .      5   6   7   8",
		"   .   .   .   .      9  10  11  12",
		" .   B   .   .     13  14  15  16",
		"   .   w   .   .     17  18  19  20",
		" .   .   .   .     21  22  23  24",
		"   .   .   .   .     25  26  27  28",
		" .   .   W   .     29  30  31  32",
		"White to move; FEN W:W18,K31:B6,K14",
	}, "\n")
	if got := p.String(); got != want {
		t.Errorf("String() =\n%s\nwant\n%s", got, want)
	}
	// An invalid position still prints, with ? where both sides claim a square.
	bad := NewPosition(squareBits(1), squareBits(1), 0, Black)
	if got := bad.String(); !strings.HasPrefix(got, "   ?") {
		t.Errorf("String() of overlapping pieces =\n%s\nwant a ? on square 1", got)
	}
}

// visitRandomPositions plays n seeded random games of at most maxPlies
// plies from the start and calls visit on every position reached.
func visitRandomPositions(n, maxPlies int, seed uint64, visit func(p Position)) {
	rng := rand.New(rand.NewPCG(seed, 0x6e6f74)) // "not"
	var buf []Move
	for range n {
		p := Start()
		for range maxPlies {
			visit(p)
			buf = p.Moves(buf)
			if len(buf) == 0 {
				break
			}
			p = p.Play(buf[rng.IntN(len(buf))])
		}
	}
}

// isStep reports whether square numbers a and b are one diagonal step apart.
func isStep(a, b int) bool {
	for d := range 4 {
		if neighbour[d][a-1] == 1<<(b-1) {
			return true
		}
	}
	return false
}

// isJump reports whether square numbers a and b are a jump apart (two
// diagonal steps in one direction).
func isJump(a, b int) bool {
	for d := range 4 {
		if beyond[d][a-1] == 1<<(b-1) {
			return true
		}
	}
	return false
}

func TestNotation_RandomGames(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 60
	}
	var positions, moves, multiJumps, kingCaptures int
	visitRandomPositions(games, 300, 1, func(p Position) {
		positions++
		if got, err := ParseFEN(p.FEN()); err != nil || got != p {
			t.Fatalf("ParseFEN(FEN()) = %v, %v; want the position back\n%s", got.FEN(), err, p.String())
		}
		for _, m := range p.Moves(nil) {
			moves++
			s := p.FormatMove(m)
			back, err := p.ParseMove(s)
			if err != nil || back != m {
				t.Fatalf("ParseMove(FormatMove(%s) = %q) = %s, %v\n%s", rawMove(m), s, rawMove(back), err, p.String())
			}
			route := p.Route(m)
			if len(route) < 2 || route[0] != m.From()+1 || route[len(route)-1] != m.To()+1 {
				t.Fatalf("Route(%s) = %v: wrong ends\n%s", rawMove(m), route, p.String())
			}
			if !m.IsCapture() {
				if len(route) != 2 || !isStep(route[0], route[1]) {
					t.Fatalf("Route(%s) = %v: not one diagonal step\n%s", rawMove(m), route, p.String())
				}
				continue
			}
			if len(route) != m.Jumps()+1 {
				t.Fatalf("Route(%s) = %v: want %d squares\n%s", rawMove(m), route, m.Jumps()+1, p.String())
			}
			var taken uint32
			for i := 1; i < len(route); i++ {
				if !isJump(route[i-1], route[i]) {
					t.Fatalf("Route(%s) = %v: %d to %d is not a jump\n%s", rawMove(m), route, route[i-1], route[i], p.String())
				}
				taken |= jumped(route[i-1]-1, route[i]-1)
			}
			if taken != m.Captured() {
				t.Fatalf("Route(%s) = %v jumps %032b, want %032b\n%s", rawMove(m), route, taken, m.Captured(), p.String())
			}
			if m.Jumps() >= 2 {
				multiJumps++
			}
			if p.Kings&(1<<m.From()) != 0 {
				kingCaptures++
			}
		}
	})
	t.Logf("%d positions, %d moves, %d multi-jumps, %d king captures", positions, moves, multiJumps, kingCaptures)
	if multiJumps < 100 || kingCaptures < 100 {
		t.Errorf("only %d multi-jumps and %d king captures: the random games do not exercise routes", multiJumps, kingCaptures)
	}
}

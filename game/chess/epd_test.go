package chess

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// uciMoves returns moves in UCI notation, for comparing with hand-written
// answers.
func uciMoves(p *Position, moves []Move) []string {
	out := []string{}
	for _, m := range moves {
		out = append(out, p.FormatUCI(m, false))
	}
	return out
}

// sans returns moves in SAN, separated by spaces, as EPD writes them.
func sans(p *Position, moves []Move) string {
	texts := make([]string, len(moves))
	for i, m := range moves {
		texts[i] = p.FormatSAN(m)
	}
	return strings.Join(texts, " ")
}

// TestParseEPD checks records against what their text says, read by hand:
// the moves of bm and am as UCI squares, the id, the clocks and the
// operations kept as text.
func TestParseEPD(t *testing.T) {
	tests := []struct {
		name, line string
		fen        string // the position's FEN, clocks included
		bm, am     []string
		id         string
		ops        []EPDOp
	}{
		{
			name: "WAC.001",
			line: `2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";`,
			fen:  "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
			bm:   []string{"g3g6"}, am: []string{}, id: "WAC.001",
			ops: []EPDOp{{"bm", []string{"Qg6"}}, {"id", []string{"WAC.001"}}},
		},
		{
			name: "two best moves, black to move, a capture",
			line: `r1bqk2r/ppp1nppp/4p3/n5N1/2BPp3/P1P5/2P2PPP/R1BQK2R w KQkq - bm Ba2 Nxf7; id "WAC.022";`,
			fen:  "r1bqk2r/ppp1nppp/4p3/n5N1/2BPp3/P1P5/2P2PPP/R1BQK2R w KQkq - 0 1",
			bm:   []string{"c4a2", "g5f7"}, am: []string{}, id: "WAC.022",
			ops: []EPDOp{{"bm", []string{"Ba2", "Nxf7"}}, {"id", []string{"WAC.022"}}},
		},
		{
			name: "an avoid move before the best moves",
			line: `8/1p6/p5R1/k7/Prpp4/K7/1NP5/8 w - - am Rd6; bm Rb6 Rg5+; id "WAC.274";`,
			fen:  "8/1p6/p5R1/k7/Prpp4/K7/1NP5/8 w - - 0 1",
			bm:   []string{"g6b6", "g6g5"}, am: []string{"g6d6"}, id: "WAC.274",
			ops: []EPDOp{{"am", []string{"Rd6"}}, {"bm", []string{"Rb6", "Rg5+"}}, {"id", []string{"WAC.274"}}},
		},
		{
			name: "a comment string with spaces",
			line: `r3r1k1/5p2/pQ1b2pB/1p6/4p3/6P1/Pq2BP1P/2R3K1 b - - bm Ba3 Be5 Bf8 e3; c0 "All win but e3 is best."; id "WAC.150";`,
			fen:  "r3r1k1/5p2/pQ1b2pB/1p6/4p3/6P1/Pq2BP1P/2R3K1 b - - 0 1",
			bm:   []string{"d6a3", "d6e5", "d6f8", "e4e3"}, am: []string{}, id: "WAC.150",
			ops: []EPDOp{{"bm", []string{"Ba3", "Be5", "Bf8", "e3"}}, {"c0", []string{"All win but e3 is best."}}, {"id", []string{"WAC.150"}}},
		},
		{
			name: "FEN clock fields",
			line: `4k3/8/8/8/8/8/8/R3K3 w Q - 7 42 bm Ra8+; id "clocks";`,
			fen:  "4k3/8/8/8/8/8/8/R3K3 w Q - 7 42",
			bm:   []string{"a1a8"}, am: []string{}, id: "clocks",
			ops: []EPDOp{{"bm", []string{"Ra8+"}}, {"id", []string{"clocks"}}},
		},
		{
			name: "hmvc and fmvn operations, other operations kept",
			line: `4k3/8/8/8/8/8/8/R3K3 w Q - hmvc 3; fmvn 17; ce 500; pv Ra8+ Kd7; id "ops";`,
			fen:  "4k3/8/8/8/8/8/8/R3K3 w Q - 3 17",
			bm:   []string{}, am: []string{}, id: "ops",
			ops: []EPDOp{{"hmvc", []string{"3"}}, {"fmvn", []string{"17"}}, {"ce", []string{"500"}}, {"pv", []string{"Ra8+", "Kd7"}}, {"id", []string{"ops"}}},
		},
		{
			name: "no operations",
			line: `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -`,
			fen:  StartFEN,
			bm:   []string{}, am: []string{}, id: "",
		},
	}
	for _, tc := range tests {
		e, err := ParseEPD(tc.line)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		p := e.Position
		if p.FEN() != tc.fen || e.ID != tc.id ||
			!reflect.DeepEqual(uciMoves(&p, e.BestMoves), tc.bm) || !reflect.DeepEqual(uciMoves(&p, e.AvoidMoves), tc.am) {
			t.Errorf("%s: got %s, bm %v, am %v, id %q; want %s, bm %v, am %v, id %q", tc.name,
				p.FEN(), uciMoves(&p, e.BestMoves), uciMoves(&p, e.AvoidMoves), e.ID, tc.fen, tc.bm, tc.am, tc.id)
		}
		if !reflect.DeepEqual(e.Ops, tc.ops) {
			t.Errorf("%s: ops %q, want %q", tc.name, e.Ops, tc.ops)
		}
	}

	// A string's semicolon stays in its operand; the last semicolon may
	// be missing; the en passant field is read.
	e, err := ParseEPD(`rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 id "a; b"; bm exf6`)
	if err != nil || e.ID != "a; b" || len(e.BestMoves) != 1 || e.Position.FormatUCI(e.BestMoves[0], false) != "e5f6" {
		t.Errorf("a string with a semicolon: %+v, %v; want id \"a; b\" and bm e5f6 (en passant)", e, err)
	}
	if op, ok := e.Op("bm"); !ok || !reflect.DeepEqual(op.Operands, []string{"exf6"}) {
		t.Errorf("Op(bm) = %v, %v", op, ok)
	}
	if _, ok := e.Op("am"); ok {
		t.Errorf("Op(am) found in a record without am")
	}
}

// TestSolved checks the scoring of a move against bm and am.
func TestSolved(t *testing.T) {
	e, err := ParseEPD(`8/1p6/p5R1/k7/Prpp4/K7/1NP5/8 w - - am Rd6; bm Rb6 Rg5+; id "WAC.274";`)
	if err != nil {
		t.Fatal(err)
	}
	onlyAm, err := ParseEPD(`8/1p6/p5R1/k7/Prpp4/K7/1NP5/8 w - - am Rd6;`)
	if err != nil {
		t.Fatal(err)
	}
	none, err := ParseEPD(`8/1p6/p5R1/k7/Prpp4/K7/1NP5/8 w - - id "none";`)
	if err != nil {
		t.Fatal(err)
	}
	p := e.Position
	for _, tc := range []struct {
		rec  *EPD
		uci  string
		want bool
	}{
		{&e, "g6b6", true}, {&e, "g6g5", true}, {&e, "g6d6", false}, {&e, "g6g7", false},
		{&onlyAm, "g6d6", false}, {&onlyAm, "g6g7", true},
		{&none, "g6b6", false},
	} {
		m, err := p.ParseUCI(tc.uci, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := tc.rec.Solved(m); got != tc.want {
			t.Errorf("%q Solved(%s) = %v, want %v", tc.rec.Ops, tc.uci, got, tc.want)
		}
	}
}

// TestParseEPDErrors checks that malformed records are refused with an
// error that names the problem and wraps the right sentinel.
func TestParseEPDErrors(t *testing.T) {
	const wac1 = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - -"
	tests := []struct {
		line, want string
		kind       error
	}{
		{wac1 + ` bm Qh5; id "x";`, `bm move "Qh5" (position 2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1): no legal move matches`, ErrIllegalMove},
		{wac1 + ` bm Qg9;`, `bm move "Qg9"`, ErrSyntax},
		{wac1 + ` am Qg6 Kf9;`, `am move "Kf9"`, ErrSyntax},
		{"4k3/8/8/8/8/8/R6R/4K3 w - - bm Rd2;", `bm move "Rd2" (position 4k3/8/8/8/8/8/R6R/4K3 w - - 0 1): both a2d2 and h2d2 match`, ErrAmbiguousMove},
		{wac1 + ` bm ;`, "bm has no move", ErrSyntax},
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 bm O-O-O", `bm move "O-O-O"`, ErrIllegalMove},
		{wac1 + ` bm Qg6; bm Qg6;`, "operation bm given twice", ErrSyntax},
		{wac1 + ` id "a" "b";`, "id has 2 operands, want 1", ErrSyntax},
		{wac1 + ` id;`, "id has 0 operands, want 1", ErrSyntax},
		{wac1 + ` id "WAC.001;`, `id: string "WAC.001; has no closing quote`, ErrSyntax},
		{wac1 + ` c0 "a"b;`, `c0: 'b' follows the string "a"`, ErrSyntax},
		{wac1 + ` ; bm Qg6;`, "a semicolon without an operation at column 2", ErrSyntax},
		{wac1 + ` b-m Qg6;`, `opcode "b-m"`, ErrSyntax},
		{wac1 + ` hmvc x;`, `halfmove clock "x" is not a number`, ErrSyntax},
		{"2rr3k/pp3pp1/1nnqbN1p w - - bm Qg6;", "board has 3 ranks, want 8", ErrSyntax},
		{"8/8/8 w -", "3 position fields, want 4", ErrSyntax},
		{"", "0 position fields, want 4", ErrSyntax},
		{"4k3/8/8/8/8/8/8/r3K3 b - - bm Kd7;", `position "4k3/8/8/8/8/8/8/r3K3 b - -": the side not to move (white) is in check`, ErrInvalidPosition},
	}
	for _, tc := range tests {
		_, err := ParseEPD(tc.line)
		if err == nil {
			t.Errorf("ParseEPD(%q) succeeded, want an error with %q", tc.line, tc.want)
			continue
		}
		if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "chess: parse EPD ") {
			t.Errorf("ParseEPD(%q) = %v; want one wrapping %v that says %q", tc.line, err, tc.kind, tc.want)
		}
	}
}

// TestReadEPD checks a file with blank and comment lines, and that the
// first bad record ends reading with an *EPDError naming its line and id.
func TestReadEPD(t *testing.T) {
	good := "# two positions\n\n" +
		`6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id "mate";` + "\n" +
		`   4k3/8/8/8/8/8/8/R3K3 w Q - bm Ra8+; id "check";   ` + "\r\n"
	recs, err := ReadEPD(strings.NewReader(good))
	if err != nil || len(recs) != 2 || recs[0].ID != "mate" || recs[1].ID != "check" {
		t.Fatalf("ReadEPD = %d records, %v; want mate and check", len(recs), err)
	}
	bad := good + `6k1/5ppp/8/8/8/8/8/R5K1 w - - id "WAC.bad"; bm Nf3;` + "\n"
	recs, err = ReadEPD(strings.NewReader(bad))
	var epdErr *EPDError
	if !errors.As(err, &epdErr) || epdErr.Line != 5 || epdErr.ID != "WAC.bad" || len(recs) != 2 || !errors.Is(err, ErrIllegalMove) {
		t.Fatalf("ReadEPD with a bad fifth line = %d records, %v; want 2 and an *EPDError for line 5, id WAC.bad", len(recs), err)
	}
	want := `chess: epd line 5 (id "WAC.bad"): bm move "Nf3" (position 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1): no legal move matches`
	if err.Error() != want {
		t.Errorf("error %q\nwant  %q", err, want)
	}
	_, err = ReadEPD(strings.NewReader("8/8 w - - bm e4;\n"))
	if err == nil || err.Error() != `chess: epd line 1: position "8/8 w - -": board has 2 ranks, want 8` {
		t.Errorf("a bad position on line 1 without an id: %v", err)
	}
}

// TestWACFile reads the Win At Chess suite of docs/suites: 300 records,
// ids WAC.001 to WAC.300 in order, 348 best moves (counted in the file's
// text by awk: 263 records with one, 28 with two, 7 with three, 2 with
// four), one record with an avoid move (WAC.274, am Rd6), and every best
// move written back in SAN as the file writes it, check marks included,
// so that each was read as the move the file means.
func TestWACFile(t *testing.T) {
	f, err := os.Open("../../docs/suites/wac.epd")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := ReadEPD(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 300 {
		t.Fatalf("%d records, want 300", len(recs))
	}
	moves, perCount, withAm := 0, map[int]int{}, []string{}
	for i, e := range recs {
		if want := fmt.Sprintf("WAC.%03d", i+1); e.ID != want {
			t.Errorf("record %d has id %q, want %q", i+1, e.ID, want)
		}
		moves += len(e.BestMoves)
		perCount[len(e.BestMoves)]++
		if len(e.AvoidMoves) > 0 {
			withAm = append(withAm, e.ID+" am "+sans(&e.Position, e.AvoidMoves))
		}
		op, _ := e.Op("bm")
		p := e.Position
		if got, want := sans(&p, e.BestMoves), strings.Join(op.Operands, " "); got != want {
			t.Errorf("%s: bm written back %q, file has %q", e.ID, got, want)
		}
	}
	if moves != 348 || !reflect.DeepEqual(perCount, map[int]int{1: 263, 2: 28, 3: 7, 4: 2}) {
		t.Errorf("%d best moves, records by count %v; want 348, map[1:263 2:28 3:7 4:2]", moves, perCount)
	}
	if !reflect.DeepEqual(withAm, []string{"WAC.274 am Rd6"}) {
		t.Errorf("records with am: %q, want WAC.274 am Rd6", withAm)
	}
}

func FuzzParseEPD(f *testing.F) {
	for _, s := range []string{
		`2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";`,
		`8/1p6/p5R1/k7/Prpp4/K7/1NP5/8 w - - am Rd6; bm Rb6 Rg5+; id "WAC.274";`,
		`r3r1k1/5p2/pQ1b2pB/1p6/4p3/6P1/Pq2BP1P/2R3K1 b - - bm Ba3 Be5 Bf8 e3; c0 "All win but e3 is best."; id "WAC.150";`,
		`4k3/8/8/8/8/8/8/R3K3 w Q - 7 42 hmvc 3; fmvn 17; pv Ra8+ Kd7`,
		`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id "a;b"`,
		`8/8 w - - bm ;`, `; ; "`, "", "r w - - \"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseEPD(s)
		if err != nil {
			if !isChessError(err) || !strings.HasPrefix(err.Error(), "chess: parse EPD ") {
				t.Fatalf("ParseEPD(%q) error %v: want one wrapping a sentinel, with the prefix", s, err)
			}
			return
		}
		p := e.Position
		legal := p.LegalMoves(nil)
		for _, m := range append(append([]Move{}, e.BestMoves...), e.AvoidMoves...) {
			found := false
			for _, l := range legal {
				found = found || l == m
			}
			if !found {
				t.Fatalf("ParseEPD(%q): move %v is not legal in %s", s, m, p.FEN())
			}
		}
		if _, err := ParseFEN(p.FEN()); err != nil {
			t.Fatalf("ParseEPD(%q): position %s does not read back: %v", s, p.FEN(), err)
		}
	})
}

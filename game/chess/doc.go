// Package chess holds the rules of chess and Chess960: bitboards with magic
// slider look-ups, legal move generation, copy-make positions with
// incremental Zobrist hashes, perft, a Game that implements game.State, and
// the notations FEN (standard, X-FEN and Shredder-FEN castling), UCI long
// algebraic, SAN, PGN and EPD (the test suites' records: ParseEPD, ReadEPD).
//
// A short tour:
//
//	p := chess.Start()                       // or chess.ParseFEN, chess.Chess960(n)
//	buf := make([]chess.Move, 0, chess.MaxMoves)
//	for _, m := range p.LegalMoves(buf) {
//		child := p.Play(m)                   // p itself is unchanged
//		_ = child.Hash()
//	}
//	n := chess.Perft(p, 5)                   // 4865609
//	m, err := p.ParseSAN("Nf3")              // or p.ParseUCI("g1f3", false)
//	g := chess.NewGame(p, chess.DefaultRules())
//	g.Make(m)
//	_ = g.Outcome()
//
// Chess960 is not a mode: a Position knows which rooks may castle, wherever
// they and the king stand, and castling follows the Chess960 rules, of
// which classical castling is the case of king e1 and rooks a1 and h1. Only
// UCI text depends on a flag, since UCI writes castling as the king's
// two-square move in classical chess and as king-takes-rook under
// UCI_Chess960.
//
// The hot path (movegen.go, Position.Play, Perft) does not allocate; the
// attack tables and Zobrist keys are computed once at initialisation from
// fixed constants, so hashes are the same in every run. Positions are
// values and safe to share; a Game is owned by one goroutine.
package chess

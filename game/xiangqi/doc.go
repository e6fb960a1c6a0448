// Package xiangqi holds the rules of xiangqi (Chinese chess): a 9x10
// mailbox board with occupancy sets, legal move generation, copy-make
// positions with incremental Zobrist hashes, perft, a Game that implements
// game.State, and the notations of Fairy-Stockfish for UCI_Variant xiangqi:
// its FEN and its coordinate moves (h2e2, h10g8). People's notations are
// read and written too: the classic terminal program's rows and columns
// (H8,H5) and WXF (C2=5, H8+7); and WhyIllegal says in the words of the
// rules why a move cannot be played (a hobbled horse, the flying general).
//
// A short tour:
//
//	p := xiangqi.Start()                      // or xiangqi.ParseFEN
//	buf := make([]xiangqi.Move, 0, xiangqi.MaxMoves)
//	for _, m := range p.LegalMoves(buf) {
//		child := p.Play(m)                    // p itself is unchanged
//		_ = child.Hash()
//	}
//	n := xiangqi.Perft(p, 4)                  // 3290240
//	m, err := p.ParseUCI("h3e3")             // or ParseClassic("H8,H5"), ParseWXF("C2=5")
//	g := xiangqi.NewGame(p, xiangqi.DefaultRules())
//	g.Make(m)
//	_ = g.Outcome()
//
// Squares are numbered rank*9+file from a1 (0) to i10 (89): files a..i
// from Red's left, ranks 1..10 with Red's back rank first, as
// Fairy-Stockfish writes them. Red is game.First and moves first.
//
// The rules are those of the Asian Xiangqi Federation without its
// repetition rules: the generals stay in their palaces and may not face
// each other on an open file, advisors stay on the palace diagonals,
// elephants move two points diagonally if the point between (the eye) is
// empty and never cross the river, horses move one point orthogonally and
// one diagonally if the first point (the leg) is empty, chariots move like
// rooks, cannons move like rooks but capture by jumping exactly one piece
// (the screen), and soldiers move one point forward, and also sideways
// once across the river. No move may leave one's own general attacked, and
// a side with no legal move loses, whether it is in check or not.
//
// What of the Asian rules is not implemented: the rules on perpetual check
// and perpetual chase ("long check", "long chase", "one check one chase"
// and the rest, with their tables of allowed and forbidden cycles). A
// threefold repetition is a draw (Rules.PerpetualCheckLoses offers the
// simple rule that the side which checked with every move of the cycle
// loses); chases of unprotected pieces are never detected, and no
// 60-move natural limit is applied beyond Rules.MaxMoves.
//
// The hot path (movegen.go, Position.Play, Perft) does not allocate; the
// move tables and Zobrist keys are computed once at initialisation from
// fixed constants, so hashes are the same in every run. Positions are
// values and safe to share; a Game is owned by one goroutine.
package xiangqi

package server

import (
	"evolved/game/chess"
	"evolved/game/xiangqi"
	"evolved/search"
)

// Game is what the server knows of one game: how UCI writes its positions
// and moves, and the options that belong to it. It is a value, not an
// interface, as Fairy-Stockfish's Variant is: the server is one generic
// body, and a game is one Game value beside it (Chess, Xiangqi).
type Game[M comparable, G search.Game[M]] struct {
	// Name is the game's name as messages give it ("chess").
	Name string
	// Variant is the game's UCI_Variant as Fairy-Stockfish spells it
	// ("xiangqi"): the server offers that option with this as its only
	// value. Empty for chess, whose GUIs expect no such option.
	Variant string
	// Chess960 says the game has a Chess960 form, which the server offers
	// as the UCI_Chess960 option; the functions below are then told
	// whether it is on.
	Chess960 bool
	// NewGame returns a game at the position of fen, "" for the standard
	// start, or the error naming what is wrong with fen.
	NewGame func(fen string, chess960 bool) (G, error)
	// ParseMove returns the legal move text, in UCI coordinates, of g's
	// current position, or the error saying why there is none.
	ParseMove func(g G, text string, chess960 bool) (M, error)
	// FormatLine returns line, moves played one after the other from g's
	// current position, in UCI coordinates; g is left as it is.
	FormatLine func(g G, line []M, chess960 bool) []string
}

// Chess returns chess as UCI writes it: FEN (Shredder-FEN castling rights
// in Chess960), long algebraic moves (e2e4, e7e8q), castling written king
// to its destination, or king takes rook under UCI_Chess960.
func Chess() Game[chess.Move, *chess.Game] {
	return Game[chess.Move, *chess.Game]{
		Name:     "chess",
		Chess960: true,
		NewGame: func(fen string, chess960 bool) (*chess.Game, error) {
			start, err := startOr(fen, chess.Start, chess.ParseFEN)
			if err != nil {
				return nil, err
			}
			return chess.NewGame(start, chess.Rules{Chess960: chess960}), nil
		},
		ParseMove: func(g *chess.Game, text string, chess960 bool) (chess.Move, error) {
			p := g.Position()
			return p.ParseUCI(text, chess960)
		},
		FormatLine: func(g *chess.Game, line []chess.Move, chess960 bool) []string {
			out := make([]string, 0, len(line))
			p := g.Position()
			for _, m := range line {
				out = append(out, p.FormatUCI(m, chess960))
				p = p.Play(m)
			}
			return out
		},
	}
}

// Xiangqi returns xiangqi as Fairy-Stockfish speaks it under UCI_Variant
// xiangqi: its FEN (xiangqi.ParseFEN) and moves from point to point, files
// a..i and ranks 1..10 from Red's side (h2e2, h10g8). Games are played by
// the rules GUIs play by: no move limit, a repetition drawn unless one
// side checked all the way, who then loses (xiangqi.Rules).
func Xiangqi() Game[xiangqi.Move, *xiangqi.Game] {
	return Game[xiangqi.Move, *xiangqi.Game]{
		Name:    "xiangqi",
		Variant: "xiangqi",
		NewGame: func(fen string, _ bool) (*xiangqi.Game, error) {
			start, err := startOr(fen, xiangqi.Start, xiangqi.ParseFEN)
			if err != nil {
				return nil, err
			}
			return xiangqi.NewGame(start, xiangqi.Rules{PerpetualCheckLoses: true}), nil
		},
		ParseMove: func(g *xiangqi.Game, text string, _ bool) (xiangqi.Move, error) {
			return g.Current().ParseUCI(text)
		},
		FormatLine: func(g *xiangqi.Game, line []xiangqi.Move, _ bool) []string {
			out := make([]string, 0, len(line))
			p := g.Position()
			for _, m := range line {
				out = append(out, p.FormatUCI(m))
			}
			return out
		},
	}
}

// startOr returns the position of fen read by parse, or start() when fen
// is "".
func startOr[P any](fen string, start func() P, parse func(string) (P, error)) (P, error) {
	if fen == "" {
		return start(), nil
	}
	return parse(fen)
}

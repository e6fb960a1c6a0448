package games

import (
	"evolved/game/chess"
	"evolved/game/draughts"
	"evolved/game/xiangqi"
)

// The Kinds of the games evolved plays, by their types: what the typed
// code for one game (a Visitor's method, a field of Funcs) receives.
type (
	// DraughtsKind is the Kind Draughts returns.
	DraughtsKind = Kind[draughts.Move, *draughts.Game]
	// ChessKind is the Kind Chess returns.
	ChessKind = Kind[chess.Move, *chess.Game]
	// XiangqiKind is the Kind Xiangqi returns.
	XiangqiKind = Kind[xiangqi.Move, *xiangqi.Game]
)

// Visitor is code that needs a game's move and state types, one method a
// game. Go has no generic methods, so code generic over a Kind[M, S]
// cannot be handed to Visit as one value: a Visitor's methods each call
// that one generic body with their game's Kind, and Visit, the only place
// where a name becomes a typed Kind, picks the method. Adding a game adds a
// method here, and the compiler then names every Visitor that lacks it.
type Visitor interface {
	VisitDraughts(DraughtsKind) error
	VisitChess(ChessKind) error
	VisitXiangqi(XiangqiKind) error
}

// Visit calls the method of v for the game called name (lower case, as
// Names spells it) with its Kind and returns what it returns, or, for a
// name evolved does not know, returns Unknown(name) without calling any.
func Visit(name string, v Visitor) error {
	switch name {
	case DraughtsName:
		return v.VisitDraughts(Draughts())
	case ChessName:
		return v.VisitChess(Chess())
	case XiangqiName:
		return v.VisitXiangqi(Xiangqi())
	}
	return Unknown(name)
}

// Funcs is a Visitor made of one func a game, as http.HandlerFunc is a
// Handler made of a func: a call site writes its body once, generic over
// Kind[M, S], and instantiates it in three one-line closures, with no
// switch of its own:
//
//	err := games.Visit(name, games.Funcs{
//		Draughts: func(k games.DraughtsKind) error { return body(ctx, k, args) },
//		Chess:    func(k games.ChessKind) error { return body(ctx, k, args) },
//		Xiangqi:  func(k games.XiangqiKind) error { return body(ctx, k, args) },
//	})
//
// A body that makes a value assigns it to a variable the closures share.
// Every field must be set: Visit calls the one of the game it is given.
type Funcs struct {
	Draughts func(DraughtsKind) error
	Chess    func(ChessKind) error
	Xiangqi  func(XiangqiKind) error
}

var _ Visitor = Funcs{}

// VisitDraughts calls f.Draughts.
func (f Funcs) VisitDraughts(k DraughtsKind) error { return f.Draughts(k) }

// VisitChess calls f.Chess.
func (f Funcs) VisitChess(k ChessKind) error { return f.Chess(k) }

// VisitXiangqi calls f.Xiangqi.
func (f Funcs) VisitXiangqi(k XiangqiKind) error { return f.Xiangqi(k) }

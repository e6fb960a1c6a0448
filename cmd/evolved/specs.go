package main

import (
	"context"

	"evolved/game/chess"
	"evolved/games"
	"evolved/player"
)

// learnedTables reads for the specs meta:RUN[@FILE] what a run of the
// chess lab learnt, with the command's ctx: from FILE, or for meta:RUN
// from the default database ($EVOLVED_DB, else evolved.db), opened
// read-only for the read, beside a daemon or a meta run writing it.
func learnedTables(ctx context.Context) player.LearnedTables {
	return func(path string, run int64) (string, error) {
		if path == "" {
			path = defaultDB()
		}
		db, err := openReader(ctx, path)
		if err != nil {
			return "", err
		}
		defer db.Close()
		r, _, err := db.LoadMetaRun(ctx, run)
		return r.Learned, err
	}
}

// chessParser is player.ParseChess with the specs meta:RUN[@FILE] read
// through learnedTables(ctx).
func chessParser(ctx context.Context) func(string) (player.ChessSpec, error) {
	return player.ChessParser(learnedTables(ctx))
}

// chessKind is chess whose player specs are read by chessParser(ctx), as
// the commands read them.
func chessKind(ctx context.Context) games.Kind[chess.Move, *chess.Game] {
	k := games.Chess()
	k.Parse = chessParser(ctx)
	return k
}

// visitGame is games.Visit for the commands: chess's Kind reads its
// player specs with chessParser(ctx), as chessKind's does.
func visitGame(ctx context.Context, name string, f games.Funcs) error {
	chess := f.Chess
	f.Chess = func(k games.ChessKind) error {
		k.Parse = chessParser(ctx)
		return chess(k)
	}
	return games.Visit(name, f)
}

package player

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"evolved/game/draughts"
	"evolved/game/xiangqi"
	"evolved/search"
	"evolved/tournament"
)

// DraughtsOpening is a start for draughts matches: a position and the
// moves that follow it before play begins.
type DraughtsOpening struct {
	Start draughts.Position
	Moves []draughts.Move
}

// ReadDraughtsOpenings reads openings from r: PDN games (their start and
// main line) when pdn is true, else one FEN a line (blank lines and lines
// starting with # are skipped).
func ReadDraughtsOpenings(r io.Reader, pdn bool) ([]DraughtsOpening, error) {
	if pdn {
		games, err := draughts.ReadPDN(r)
		if err != nil {
			return nil, fmt.Errorf("openings: %w", err)
		}
		out := make([]DraughtsOpening, len(games))
		for i, g := range games {
			out[i] = DraughtsOpening{Start: g.Start, Moves: g.Moves}
		}
		return nonEmpty(out)
	}
	starts, err := readPositionLines(r, draughts.ParseFEN)
	if err != nil {
		return nil, err
	}
	out := make([]DraughtsOpening, len(starts))
	for i, p := range starts {
		out[i] = DraughtsOpening{Start: p}
	}
	return nonEmpty(out)
}

// XiangqiOpening is a start for xiangqi matches: a position and the moves
// that follow it before play begins.
type XiangqiOpening struct {
	Start xiangqi.Position
	Moves []xiangqi.Move
}

// ReadXiangqiOpenings reads openings from r: game records (their start and
// moves) when records is true, else one FEN a line (blank lines and lines
// starting with # are skipped).
func ReadXiangqiOpenings(r io.Reader, records bool) ([]XiangqiOpening, error) {
	if records {
		recs, err := xiangqi.ReadRecords(r)
		if err != nil {
			return nil, fmt.Errorf("openings: %w", err)
		}
		out := make([]XiangqiOpening, len(recs))
		for i, rec := range recs {
			out[i] = XiangqiOpening{Start: rec.Start, Moves: rec.Moves}
		}
		return nonEmpty(out)
	}
	starts, err := readPositionLines(r, xiangqi.ParseFEN)
	if err != nil {
		return nil, err
	}
	out := make([]XiangqiOpening, len(starts))
	for i, p := range starts {
		out[i] = XiangqiOpening{Start: p}
	}
	return nonEmpty(out)
}

// readPositionLines reads one position a line with parse, naming the line
// of an error.
func readPositionLines[P any](r io.Reader, parse func(string) (P, error)) ([]P, error) {
	var out []P
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		p, err := parse(text)
		if err != nil {
			return nil, fmt.Errorf("openings: line %d: %w", line, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("openings: %w", err)
	}
	return out, nil
}

// nonEmpty refuses a file without openings.
func nonEmpty[T any](openings []T) ([]T, error) {
	if len(openings) == 0 {
		return nil, errors.New("openings: the file holds no opening")
	}
	return openings, nil
}

// WithDraughtsOpenings makes each pairing of the arena start from one of
// openings, drawn with the pairing's opening seed (both games of a pair
// share it); records name the start by its FEN.
func WithDraughtsOpenings(a tournament.Arena[draughts.Move, *draughts.Game], rules draughts.Rules, openings []DraughtsOpening) tournament.Arena[draughts.Move, *draughts.Game] {
	return withStarts(a, len(openings), func(i int) *draughts.Game {
		g := draughts.NewGame(openings[i].Start, rules)
		for _, m := range openings[i].Moves {
			g.Make(m)
		}
		return g
	}, func(g *draughts.Game) string { return g.Position().FEN() })
}

// WithXiangqiOpenings makes each pairing of the arena start from one of
// openings, as WithDraughtsOpenings does.
func WithXiangqiOpenings(a tournament.Arena[xiangqi.Move, *xiangqi.Game], rules xiangqi.Rules, openings []XiangqiOpening) tournament.Arena[xiangqi.Move, *xiangqi.Game] {
	return withStarts(a, len(openings), func(i int) *xiangqi.Game {
		g := xiangqi.NewGame(openings[i].Start, rules)
		for _, m := range openings[i].Moves {
			g.Make(m)
		}
		return g
	}, func(g *xiangqi.Game) string { return g.Position().FEN() })
}

// withStarts sets the arena's start to opening i of n, i drawn with the
// pairing's opening seed, and its description of a start.
func withStarts[M comparable, S search.Game[M]](a tournament.Arena[M, S], n int, start func(i int) S, describe func(S) string) tournament.Arena[M, S] {
	a.Start = func(rng *rand.Rand) S { return start(rng.IntN(n)) }
	a.Describe = describe
	return a
}

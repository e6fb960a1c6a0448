package games

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"evolved/game"
	"evolved/nnet"
	"evolved/search"
)

// Info is what is known of a game without its move and state types: what
// a command that reads and writes only text (perft, show, the
// configuration's checks) needs.
type Info struct {
	Name         string
	Sides        [2]string
	RecordExts   []string
	Inputs       int
	DefaultDepth int
	Perft        func(fen string, depth int) (uint64, error)
	Divide       func(fen string, depth int) ([]DivideLine, error)
	DescribeNet  func(w io.Writer, n *nnet.Net) error
	// Scorer is Kind.Scorer: the distillation's search of a FEN, which a
	// cluster's worker runs without knowing the game's types.
	Scorer func(net *nnet.Net, nodes int64) (FENScorer, error)
	// SearchParams are the parameters the game's alpha-beta searches
	// start from (search.GameDefaults).
	SearchParams search.Params
}

// Info returns what is known of k without its types.
func (k Kind[M, S]) Info() Info {
	info := Info{Name: k.Name, Sides: k.Sides, RecordExts: k.RecordExts, Inputs: k.Inputs, DefaultDepth: k.DefaultDepth,
		Perft: k.Perft, Divide: k.Divide, DescribeNet: k.DescribeNet, Scorer: k.Scorer}
	_, info.SearchParams = search.GameDefaults[M, S]()
	return info
}

// Lookup returns the game called name (lower case, as Names spells it),
// or an error wrapping ErrUnknown. It finds the game through Visit, the
// one registry of games.
func Lookup(name string) (Info, error) {
	var info Info
	err := Visit(name, Funcs{
		Draughts: func(k DraughtsKind) error { info = k.Info(); return nil },
		Chess:    func(k ChessKind) error { info = k.Info(); return nil },
		Xiangqi:  func(k XiangqiKind) error { info = k.Info(); return nil },
	})
	return info, err
}

// adjudicateMaterial ends a game, with the side to move not in check, as a
// win for the side whose lead by material (centipawns from the side to
// move's view, by lead) is at least margin*100.
func adjudicateMaterial[S interface {
	InCheck() bool
	ToMove() game.Player
}](margin int, lead func(S) int) func(S) (game.Outcome, bool) {
	return func(g S) (game.Outcome, bool) {
		if g.InCheck() {
			return game.Outcome{}, false
		}
		switch l := lead(g); {
		case l >= 100*margin:
			return game.Outcome{Result: game.WinFor(g.ToMove()), Reason: game.Adjudicated}, true
		case l <= -100*margin:
			return game.Outcome{Result: game.WinFor(g.ToMove().Other()), Reason: game.Adjudicated}, true
		}
		return game.Outcome{}, false
	}
}

// readPositionLines reads one position a line with parse, naming the line
// of an error; blank lines and lines starting with # are skipped.
func readPositionLines(r io.Reader, parse func(string) (string, error)) ([]string, error) {
	var out []string
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

// writeValues writes the piece values v, named by names, in pawns.
func writeValues[V ~[5]float64 | ~[6]float64](b *strings.Builder, names []string, v V) {
	b.WriteString("piece values (pawns):")
	for i, name := range names {
		fmt.Fprintf(b, " %s %.2f", name, v[i])
	}
	b.WriteString("\n")
}

// writeTerms writes a table of positional terms: name, weight, unit and
// weight*unit, the pawns a count of the feature is worth. Nothing is
// written for no terms.
func writeTerms(b *strings.Builder, names []string, units, weights []float64) {
	if len(names) == 0 {
		return
	}
	width := len("term")
	for _, name := range names {
		width = max(width, len(name))
	}
	fmt.Fprintf(b, "positional terms:\n  %-*s  %6s  %10s  %13s\n", width, "term", "weight", "unit", "pawns a count")
	for i, name := range names {
		fmt.Fprintf(b, "  %-*s  %+6.2f  %10.4g  %+13.4f\n", width, name, weights[i], units[i], weights[i]*units[i])
	}
}

// perftOf returns a Kind's Perft: the position read by parse from a FEN,
// its leaves counted by perft.
func perftOf[P any](parse func(string) (P, error), perft func(P, int) uint64) func(string, int) (uint64, error) {
	return func(fen string, depth int) (uint64, error) {
		p, err := parse(fen)
		if err != nil {
			return 0, err
		}
		return perft(p, depth), nil
	}
}

// divideOf returns a Kind's Divide: the position read by parse from a FEN,
// divided by divide, each root move written by format in the position
// before it.
func divideOf[P any, M any](parse func(string) (P, error), divide func(P, int) []game.DivideEntry[M], format func(P, M) string) func(string, int) ([]DivideLine, error) {
	return func(fen string, depth int) ([]DivideLine, error) {
		p, err := parse(fen)
		if err != nil {
			return nil, err
		}
		var out []DivideLine
		for _, e := range divide(p, depth) {
			out = append(out, DivideLine{Move: format(p, e.Move), Nodes: e.Nodes})
		}
		return out, nil
	}
}

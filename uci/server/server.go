// Package server speaks UCI for one of our chess engines, so that chess GUIs
// and tournament managers can load an exported agent (evolved uci). The
// client side, driving external engines, is package uci.
package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"evolved/game/chess"
	"evolved/search"
)

// Searcher is what the server needs of an engine: an alpha-beta search over
// chess games whose limits it sets before each search.
type Searcher interface {
	Reset()
	Limits(depth int, nodes int64, t time.Duration)
	Clock(soft, hard time.Duration)
	OnIteration(func(search.Result[chess.Move]))
	ResizeTable(mb int)
	Search(ctx context.Context, g *chess.Game) search.Result[chess.Move]
}

// Options describes the engine the server presents.
type Options struct {
	Name, Author string
	// NewSearcher makes the engine's search; the server calls it once.
	NewSearcher func() Searcher
	// DefaultDepth is the depth limit when a go command sets none: the
	// agent's own depth. The "Depth" option changes it.
	DefaultDepth int
}

// Server speaks UCI on a reader and a writer for one engine. The search
// runs in its own goroutine so that stop, isready and quit are answered at
// once. Input that is not UCI is answered with an info string and ignored,
// and so is a line over MaxLineBytes.
type Server struct {
	opts Options
	out  io.Writer
	mu   sync.Mutex // serialises writes to out

	searcher Searcher
	depth    int
	chess960 bool
	game     *chess.Game // nil after a refused position command (refused says why)
	refused  string

	cancel       context.CancelFunc // stops the running search; nil when idle
	done         chan struct{}      // closed when the running search has printed bestmove
	ponderBudget time.Duration      // the time a ponder search gets after ponderhit
}

// New returns a server writing to out.
func New(out io.Writer, opts Options) *Server {
	s := &Server{opts: opts, out: out, searcher: opts.NewSearcher(), depth: max(1, opts.DefaultDepth)}
	s.searcher.ResizeTable(16)
	s.game = chess.NewGame(chess.Start(), chess.Rules{})
	return s
}

// Run reads commands until quit or the end of the input, and returns nil
// then, or the error that ended the input. A line over MaxLineBytes is
// refused (see tooLong) and the next one read.
func (s *Server) Run(ctx context.Context, in io.Reader) error {
	lines := newLineReader(in, MaxLineBytes, 64<<10)
	var err error
	for {
		line, n, rerr := lines.next()
		if rerr != nil {
			if !errors.Is(rerr, io.EOF) {
				err = fmt.Errorf("uci: read input: %w", rerr)
			}
			break
		}
		if n > MaxLineBytes {
			s.tooLong(line, n)
			continue
		}
		if s.command(ctx, strings.TrimSpace(string(line))) {
			break
		}
	}
	s.stop()
	return err
}

// tooLong refuses an input line of n bytes, over MaxLineBytes, whose
// first MaxLineBytes are start, saying so in an info string. A refused
// position command leaves no position, as a refused move does: the
// previous position is not the one the GUI means now.
func (s *Server) tooLong(start []byte, n int64) {
	limit := fmt.Sprintf("over the limit of %d bytes (%d MiB)", MaxLineBytes, MaxLineBytes>>20)
	head := bytes.TrimLeftFunc(start, unicode.IsSpace)
	head = head[:min(len(head), len("position "))]
	if fields := strings.Fields(string(head)); len(fields) > 0 && fields[0] == "position" {
		s.stop()
		s.game, s.refused = nil, fmt.Sprintf("the position command of %d bytes was %s", n, limit)
		s.say("info string refused a position command of %d bytes, %s; no position until the next position command", n, limit)
		return
	}
	s.say("info string refused an input line of %d bytes, %s", n, limit)
}

// say writes one line.
func (s *Server) say(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.out, format+"\n", args...)
}

// command handles one line; it returns true on quit.
func (s *Server) command(ctx context.Context, line string) bool {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return false
	}
	switch fields[0] {
	case "uci":
		s.say("id name %s", s.opts.Name)
		s.say("id author %s", s.opts.Author)
		s.say("option name Hash type spin default 16 min 1 max 4096")
		s.say("option name Depth type spin default %d min 1 max 30", s.depth)
		s.say("option name UCI_Chess960 type check default false")
		s.say("option name Ponder type check default false")
		s.say("option name Clear Hash type button")
		s.say("uciok")
	case "isready":
		s.say("readyok")
	case "setoption":
		s.setOption(fields[1:])
	case "ucinewgame":
		s.stop()
		s.searcher.Reset()
		s.game = chess.NewGame(chess.Start(), chess.Rules{Chess960: s.chess960})
	case "position":
		s.stop()
		s.position(fields[1:])
	case "go":
		s.stop()
		s.goSearch(ctx, fields[1:])
	case "stop":
		s.stop()
	case "ponderhit":
		s.ponderHit()
	case "quit":
		return true
	case "debug", "register":
		// Accepted and ignored, as the protocol allows.
	default:
		s.say("info string unknown command %q", fields[0])
	}
	return false
}

// setOption handles "setoption name N [value V]".
func (s *Server) setOption(args []string) {
	text := strings.Join(args, " ")
	name, value, _ := strings.Cut(strings.TrimPrefix(text, "name "), " value ")
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "hash":
		mb, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil || mb < 1 || mb > 4096 {
			s.say("info string Hash takes 1..4096 (MB), got %q", value)
			return
		}
		s.stop()
		s.searcher.ResizeTable(mb)
	case "depth":
		d, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil || d < 1 || d > 30 {
			s.say("info string Depth takes 1..30, got %q", value)
			return
		}
		s.depth = d
	case "uci_chess960":
		s.chess960 = strings.EqualFold(strings.TrimSpace(value), "true")
	case "ponder":
		// GUIs set it to say they will send go ponder; the engine ponders
		// whenever told to, so there is nothing to keep.
	case "clear hash":
		s.stop()
		s.searcher.Reset()
	default:
		s.say("info string unknown option %q", name)
	}
}

// MaxPositionPlies bounds the moves of one position command. No game of
// chess is longer than 17,697 plies (the 75-move rule ends it), and each
// ply kept costs the game's history a few hundred bytes: a line of 16 MiB
// (MaxLineBytes) could otherwise hold 3 million moves and take more than a
// gigabyte.
const MaxPositionPlies = 1 << 15

// position handles "position startpos|fen F [moves ...]". A bad position
// or move leaves no position at all, and the next go answers bestmove
// 0000 saying why: searching the previous position, or the moves before
// the bad one, would answer a position the GUI did not send.
func (s *Server) position(args []string) {
	s.game, s.refused = nil, ""
	refuse := func(format string, args ...any) {
		s.refused = fmt.Sprintf(format, args...)
		s.say("info string %s", s.refused)
	}
	var start chess.Position
	rest := args
	switch {
	case len(args) > 0 && args[0] == "startpos":
		start, rest = chess.Start(), args[1:]
	case len(args) > 0 && args[0] == "fen":
		end := len(args)
		for i, a := range args {
			if a == "moves" {
				end = i
				break
			}
		}
		var err error
		if start, err = chess.ParseFEN(strings.Join(args[1:end], " ")); err != nil {
			refuse("bad position: %v", err)
			return
		}
		rest = args[end:]
	default:
		refuse("position needs startpos or fen")
		return
	}
	g := chess.NewGame(start, chess.Rules{Chess960: s.chess960})
	if len(rest) > 0 {
		if rest[0] != "moves" {
			refuse("expected moves, got %q", rest[0])
			return
		}
		if n := len(rest) - 1; n > MaxPositionPlies {
			refuse("%d moves, more than a game of chess can have (at most %d); no position until the next position command", n, MaxPositionPlies)
			return
		}
		for i, text := range rest[1:] {
			p := g.Position()
			m, err := p.ParseUCI(text, s.chess960)
			if err != nil {
				refuse("bad move %d, %s: %v; no position until the next position command", i+1, text, err)
				return
			}
			g.Make(m)
		}
	}
	s.game = g
}

// goSearch handles "go ..." and starts the search goroutine.
func (s *Server) goSearch(ctx context.Context, args []string) {
	var wtime, btime, winc, binc, movestogo, movetime, depth, nodes int64
	infinite, ponder := false, false
	for i := 0; i < len(args); i++ {
		next := func() int64 {
			if i+1 < len(args) {
				i++
				n, err := strconv.ParseInt(args[i], 10, 64)
				if err == nil {
					return n
				}
				s.say("info string %s takes a number, got %q", args[i-1], args[i])
			}
			return 0
		}
		switch args[i] {
		case "wtime":
			wtime = next()
		case "btime":
			btime = next()
		case "winc":
			winc = next()
		case "binc":
			binc = next()
		case "movestogo":
			movestogo = next()
		case "movetime":
			movetime = next()
		case "depth":
			depth = next()
		case "nodes":
			nodes = next()
		case "infinite":
			infinite = true
		case "ponder":
			ponder = true
		default:
			s.say("info string ignoring go argument %q", args[i])
		}
	}
	g := s.game
	if g == nil {
		s.say("info string no position to search: %s", s.refused)
		s.say("bestmove 0000")
		return
	}
	if len(g.LegalMoves(nil)) == 0 {
		s.say("info string the position has no legal move")
		s.say("bestmove 0000")
		return
	}
	left, inc := wtime, winc
	if g.ToMove() == chess.Black {
		left, inc = btime, binc
	}
	var budget, soft time.Duration
	switch {
	case movetime > 0:
		budget = time.Duration(movetime) * time.Millisecond
	case left > 0:
		soft, budget = search.Budget(time.Duration(left)*time.Millisecond, time.Duration(inc)*time.Millisecond, int(movestogo))
	}
	searchDepth := s.depth
	if depth > 0 {
		searchDepth = int(depth)
	}
	timed := budget > 0
	if infinite || ponder {
		searchDepth, budget = 30, 0 // until stop (or ponderhit's limit)
	} else if depth == 0 && nodes == 0 && timed {
		searchDepth = 30 // the clock decides
	}
	if soft > 0 && depth == 0 && nodes == 0 && !infinite && !ponder {
		s.searcher.Clock(soft, budget) // the clock decides, the best move's stability too
	} else {
		s.searcher.Limits(searchDepth, nodes, budget)
	}
	sctx, cancel := context.WithCancel(ctx)
	s.cancel, s.done = cancel, make(chan struct{})
	s.ponderBudget = search.Allot(time.Duration(left)*time.Millisecond, time.Duration(inc)*time.Millisecond, int(movestogo))
	done := s.done
	start := time.Now()
	s.searcher.OnIteration(func(r search.Result[chess.Move]) { s.info(g, r, time.Since(start)) })
	go func() {
		defer close(done)
		res := s.searcher.Search(sctx, g)
		if infinite || ponder {
			<-sctx.Done() // the protocol wants bestmove only after stop
		}
		p := g.Position()
		best := res.Move
		if best == chess.NoMove {
			best = g.LegalMoves(nil)[0]
		}
		s.say("bestmove %s", p.FormatUCI(best, s.chess960))
	}()
}

// info prints one iteration's figures.
func (s *Server) info(g *chess.Game, r search.Result[chess.Move], elapsed time.Duration) {
	score := fmt.Sprintf("cp %d", r.Score)
	if search.IsWin(r.Score) {
		plies := search.Win - abs(r.Score)
		moves := (plies + 1) / 2
		if r.Score < 0 {
			moves = -moves
		}
		score = fmt.Sprintf("mate %d", moves)
	}
	pv := make([]string, 0, len(r.PV))
	p := g.Position()
	for _, m := range r.PV {
		pv = append(pv, p.FormatUCI(m, s.chess960))
		p = p.Play(m)
	}
	ms := max(elapsed.Milliseconds(), 1)
	// seldepth and hashfull are an alpha-beta search's: the playouts of
	// MCTS-EPT have neither, and a hashfull of 0 says nothing.
	sel, full := "", ""
	if r.SelDepth > 0 {
		sel = fmt.Sprintf(" seldepth %d", r.SelDepth)
	}
	if r.Hashfull > 0 {
		full = fmt.Sprintf(" hashfull %d", r.Hashfull)
	}
	s.say("info depth %d%s score %s nodes %d nps %d%s time %d pv %s",
		r.Depth, sel, score, r.Nodes, r.Nodes*1000/ms, full, ms, strings.Join(pv, " "))
}

// ponderHit turns a ponder search into a timed one: the opponent played
// the expected move, so the search goes on for the move's allotted time.
func (s *Server) ponderHit() {
	if s.cancel == nil {
		return
	}
	time.AfterFunc(s.ponderBudget, s.cancel)
}

// stop ends the running search, if any, and waits for its bestmove.
func (s *Server) stop() {
	if s.cancel == nil {
		return
	}
	s.cancel()
	<-s.done
	s.cancel, s.done = nil, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Package server speaks UCI for one of our engines, so that GUIs and
// tournament managers can load an exported agent (evolved uci): chess
// agents as chess engines do, xiangqi agents as Fairy-Stockfish does under
// UCI_Variant xiangqi. The server is one generic body over a game's move
// and state types; a Game value holds what differs (Chess, Xiangqi). The
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

	"evolved/game"
	"evolved/game/chess"
	"evolved/search"
)

// Engine is what the server needs of a search over games G with moves M:
// an alpha-beta search, or one like it, whose limits it sets before each
// search. An Engine that also has a method SetMultiPV(k int), as
// search.AlphaBeta has, is offered with the MultiPV option; one with a
// method SetThreads(n int) error, as search.AlphaBeta has, with the
// Threads option.
type Engine[M comparable, G any] interface {
	Reset()
	Limits(depth int, nodes int64, t time.Duration)
	Clock(soft, hard time.Duration)
	OnIteration(func(search.Result[M]))
	ResizeTable(mb int)
	Search(ctx context.Context, g G) search.Result[M]
}

// multiPVEngine is an Engine that ranks several root moves (search.AlphaBeta).
type multiPVEngine interface{ SetMultiPV(k int) }

// threadsEngine is an Engine that searches on several threads
// (search.AlphaBeta's Lazy SMP); SetThreads fails when it cannot.
type threadsEngine interface{ SetThreads(n int) error }

// Searcher is a chess Engine, the one New serves.
type Searcher = Engine[chess.Move, *chess.Game]

// Config describes the engine the server presents.
type Config[M comparable, G any] struct {
	Name, Author string
	// NewSearcher makes the engine's search; the server calls it once.
	NewSearcher func() Engine[M, G]
	// DefaultDepth is the depth limit when a go command sets none: the
	// agent's own depth. The "Depth" option changes it.
	DefaultDepth int
}

// Options describes a chess engine, the one New serves.
type Options = Config[chess.Move, *chess.Game]

// MaxMultiPV is the most root moves the MultiPV option ranks.
const MaxMultiPV = 16

// MaxThreads is the most threads the Threads option takes.
const MaxThreads = search.MaxThreads

// Server speaks UCI on a reader and a writer for one engine of one game.
// The search runs in its own goroutine so that stop, isready and quit are
// answered at once. Input that is not UCI is answered with an info string
// and ignored, and so is a line over MaxLineBytes.
type Server[M comparable, G search.Game[M]] struct {
	opts  Config[M, G]
	rules Game[M, G]
	out   io.Writer
	mu    sync.Mutex // serialises writes to out

	searcher Engine[M, G]
	multi    multiPVEngine // searcher, when it ranks several moves; else nil
	threads  threadsEngine // searcher, when it searches on several threads; else nil
	depth    int
	multiPV  int // the MultiPV option: the root moves to rank, 1..MaxMultiPV
	chess960 bool
	game     G      // the position to search, when refused is ""
	refused  string // why there is no position, after a refused position command

	cancel       context.CancelFunc // stops the running search; nil when idle
	done         chan struct{}      // closed when the running search has printed bestmove
	ponderBudget time.Duration      // the time a ponder search gets after ponderhit
}

// New returns a chess server writing to out.
func New(out io.Writer, opts Options) *Server[chess.Move, *chess.Game] {
	return NewServer(out, Chess(), opts)
}

// NewServer returns a server of game rules writing to out.
func NewServer[M comparable, G search.Game[M]](out io.Writer, rules Game[M, G], opts Config[M, G]) *Server[M, G] {
	s := &Server[M, G]{opts: opts, rules: rules, out: out, searcher: opts.NewSearcher(), depth: max(1, opts.DefaultDepth), multiPV: 1}
	s.multi, _ = s.searcher.(multiPVEngine)
	s.threads, _ = s.searcher.(threadsEngine)
	s.searcher.ResizeTable(16)
	s.game = s.startGame()
	return s
}

// startGame returns a game at the standard start.
func (s *Server[M, G]) startGame() G {
	g, err := s.rules.NewGame("", s.chess960)
	if err != nil {
		panic(fmt.Sprintf("uci: the start position of %s: %v", s.rules.Name, err)) // a bug in Game: the start is a constant
	}
	return g
}

// Run reads commands until quit or the end of the input, and returns nil
// then, or the error that ended the input. A line over MaxLineBytes is
// refused (see tooLong) and the next one read.
func (s *Server[M, G]) Run(ctx context.Context, in io.Reader) error {
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
func (s *Server[M, G]) tooLong(start []byte, n int64) {
	limit := fmt.Sprintf("over the limit of %d bytes (%d MiB)", MaxLineBytes, MaxLineBytes>>20)
	head := bytes.TrimLeftFunc(start, unicode.IsSpace)
	head = head[:min(len(head), len("position "))]
	if fields := strings.Fields(string(head)); len(fields) > 0 && fields[0] == "position" {
		s.stop()
		s.refused = fmt.Sprintf("the position command of %d bytes was %s", n, limit)
		s.say("info string refused a position command of %d bytes, %s; no position until the next position command", n, limit)
		return
	}
	s.say("info string refused an input line of %d bytes, %s", n, limit)
}

// say writes one line.
func (s *Server[M, G]) say(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.out, format+"\n", args...)
}

// command handles one line; it returns true on quit.
func (s *Server[M, G]) command(ctx context.Context, line string) bool {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return false
	}
	switch fields[0] {
	case "uci":
		s.say("id name %s", s.opts.Name)
		s.say("id author %s", s.opts.Author)
		s.say("option name Hash type spin default 16 min 1 max 4096")
		if s.threads != nil {
			s.say("option name Threads type spin default 1 min 1 max %d", MaxThreads)
		}
		s.say("option name Depth type spin default %d min 1 max 30", s.depth)
		if s.rules.Chess960 {
			s.say("option name UCI_Chess960 type check default false")
		}
		if v := s.rules.Variant; v != "" {
			s.say("option name UCI_Variant type combo default %s var %s", v, v)
		}
		s.say("option name Ponder type check default false")
		s.say("option name Clear Hash type button")
		if s.multi != nil {
			s.say("option name MultiPV type spin default 1 min 1 max %d", MaxMultiPV)
		}
		s.say("uciok")
	case "isready":
		s.say("readyok")
	case "setoption":
		s.setOption(fields[1:])
	case "ucinewgame":
		s.stop()
		s.searcher.Reset()
		s.game, s.refused = s.startGame(), ""
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
func (s *Server[M, G]) setOption(args []string) {
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
		if !s.rules.Chess960 {
			s.say("info string unknown option %q", name)
			return
		}
		s.chess960 = strings.EqualFold(strings.TrimSpace(value), "true")
	case "uci_variant":
		v := strings.TrimSpace(value)
		switch {
		case s.rules.Variant == "":
			s.say("info string unknown option %q", name)
		case !strings.EqualFold(v, s.rules.Variant):
			s.say("info string UCI_Variant %s is not played here: this engine plays %s only", v, s.rules.Variant)
		}
	case "multipv":
		k, err := strconv.Atoi(strings.TrimSpace(value))
		if s.multi == nil {
			s.say("info string unknown option %q", name)
			return
		}
		if err != nil || k < 1 || k > MaxMultiPV {
			s.say("info string MultiPV takes 1..%d, got %q", MaxMultiPV, value)
			return
		}
		s.multiPV = k
	case "threads":
		s.setThreads(name, value)
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

// setThreads handles the Threads option, named name, set to value: the
// searches that follow run on that many threads (Lazy SMP), the running
// one first stopped.
func (s *Server[M, G]) setThreads(name, value string) {
	if s.threads == nil {
		s.say("info string unknown option %q", name)
		return
	}
	n, err := strconv.Atoi(strings.TrimSpace(value))
	if err != nil || n < 1 || n > MaxThreads {
		s.say("info string Threads takes 1..%d, got %q", MaxThreads, value)
		return
	}
	s.stop()
	if err := s.threads.SetThreads(n); err != nil {
		s.say("info string Threads %d: %v", n, err)
	}
}

// MaxPositionPlies bounds the moves of one position command. No game of
// chess is longer than 17,697 plies (the 75-move rule ends it), and each
// ply kept costs the game's history a few hundred bytes: a line of 16 MiB
// (MaxLineBytes) could otherwise hold 3 million moves and take more than a
// gigabyte. Xiangqi has no such rule; the same bound is far beyond its
// games too.
const MaxPositionPlies = 1 << 15

// position handles "position startpos|fen F [moves ...]". A bad position
// or move leaves no position at all, and the next go answers bestmove
// 0000 saying why: searching the previous position, or the moves before
// the bad one, would answer a position the GUI did not send.
func (s *Server[M, G]) position(args []string) {
	s.refused = ""
	refuse := func(format string, args ...any) {
		s.refused = fmt.Sprintf(format, args...)
		s.say("info string %s", s.refused)
	}
	fen, rest := "", args
	switch {
	case len(args) > 0 && args[0] == "startpos":
		rest = args[1:]
	case len(args) > 0 && args[0] == "fen":
		end := len(args)
		for i, a := range args {
			if a == "moves" {
				end = i
				break
			}
		}
		if fen = strings.Join(args[1:end], " "); fen == "" {
			refuse("bad position: no FEN after fen")
			return
		}
		rest = args[end:]
	default:
		refuse("position needs startpos or fen")
		return
	}
	g, err := s.rules.NewGame(fen, s.chess960)
	if err != nil {
		refuse("bad position: %v", err)
		return
	}
	if len(rest) > 0 {
		if rest[0] != "moves" {
			refuse("expected moves, got %q", rest[0])
			return
		}
		if n := len(rest) - 1; n > MaxPositionPlies {
			refuse("%d moves, more than a game of %s can have (at most %d); no position until the next position command", n, s.rules.Name, MaxPositionPlies)
			return
		}
		for i, text := range rest[1:] {
			m, err := s.rules.ParseMove(g, text, s.chess960)
			if err != nil {
				refuse("bad move %d, %s: %v; no position until the next position command", i+1, text, err)
				return
			}
			g.Make(m)
		}
	}
	s.game = g
}

// goLimits are the arguments of a go command; times are in milliseconds.
type goLimits struct {
	wtime, btime, winc, binc, movestogo, movetime, depth, nodes int64
	infinite, ponder                                            bool
}

// parseGo reads the arguments of a go command, saying which it ignores.
func (s *Server[M, G]) parseGo(args []string) goLimits {
	var l goLimits
	numbers := map[string]*int64{
		"wtime": &l.wtime, "btime": &l.btime, "winc": &l.winc, "binc": &l.binc,
		"movestogo": &l.movestogo, "movetime": &l.movetime, "depth": &l.depth, "nodes": &l.nodes,
	}
	for i := 0; i < len(args); i++ {
		if p, ok := numbers[args[i]]; ok {
			*p = 0
			if i+1 < len(args) {
				i++
				n, err := strconv.ParseInt(args[i], 10, 64)
				if err == nil {
					*p = n
				} else {
					s.say("info string %s takes a number, got %q", args[i-1], args[i])
				}
			}
			continue
		}
		switch args[i] {
		case "infinite":
			l.infinite = true
		case "ponder":
			l.ponder = true
		default:
			s.say("info string ignoring go argument %q", args[i])
		}
	}
	return l
}

// goSearch handles "go ..." and starts the search goroutine.
func (s *Server[M, G]) goSearch(ctx context.Context, args []string) {
	l := s.parseGo(args)
	if s.refused != "" {
		s.say("info string no position to search: %s", s.refused)
		s.say("bestmove 0000")
		return
	}
	g := s.game
	if len(g.LegalMoves(nil)) == 0 {
		s.say("info string the position has no legal move")
		s.say("bestmove 0000")
		return
	}
	// The first player (White, Red) has wtime and winc.
	left, inc := l.wtime, l.winc
	if g.ToMove() == game.Second {
		left, inc = l.btime, l.binc
	}
	var budget, soft time.Duration
	switch {
	case l.movetime > 0:
		budget = time.Duration(l.movetime) * time.Millisecond
	case left > 0:
		soft, budget = search.Budget(time.Duration(left)*time.Millisecond, time.Duration(inc)*time.Millisecond, int(l.movestogo))
	}
	searchDepth := s.depth
	if l.depth > 0 {
		searchDepth = int(l.depth)
	}
	timed := budget > 0
	if l.infinite || l.ponder {
		searchDepth, budget = 30, 0 // until stop (or ponderhit's limit)
	} else if l.depth == 0 && l.nodes == 0 && timed {
		searchDepth = 30 // the clock decides
	}
	if soft > 0 && l.depth == 0 && l.nodes == 0 && !l.infinite && !l.ponder {
		s.searcher.Clock(soft, budget) // the clock decides, the best move's stability too
	} else {
		s.searcher.Limits(searchDepth, l.nodes, budget)
	}
	if s.multi != nil {
		s.multi.SetMultiPV(s.multiPV)
	}
	sctx, cancel := context.WithCancel(ctx)
	s.cancel, s.done = cancel, make(chan struct{})
	s.ponderBudget = search.Allot(time.Duration(left)*time.Millisecond, time.Duration(inc)*time.Millisecond, int(l.movestogo))
	done := s.done
	start := time.Now()
	s.searcher.OnIteration(func(r search.Result[M]) { s.info(g, r, time.Since(start)) })
	go func() {
		defer close(done)
		res := s.searcher.Search(sctx, g)
		if l.infinite || l.ponder {
			<-sctx.Done() // the protocol wants bestmove only after stop
		}
		best := res.Move
		var none M
		if best == none {
			best = g.LegalMoves(nil)[0]
		}
		s.say("bestmove %s", s.rules.FormatLine(g, []M{best}, s.chess960)[0])
	}()
}

// info prints one iteration's figures.
func (s *Server[M, G]) info(g G, r search.Result[M], elapsed time.Duration) {
	score := fmt.Sprintf("cp %d", r.Score)
	if search.IsWin(r.Score) {
		plies := search.Win - abs(r.Score)
		moves := (plies + 1) / 2
		if r.Score < 0 {
			moves = -moves
		}
		score = fmt.Sprintf("mate %d", moves)
	}
	pv := s.rules.FormatLine(g, r.PV, s.chess960)
	ms := max(elapsed.Milliseconds(), 1)
	// seldepth and hashfull are an alpha-beta search's: the playouts of
	// MCTS-EPT have neither, and a hashfull of 0 says nothing.
	sel, full := "", ""
	if r.SelDepth > 0 {
		sel = fmt.Sprintf(" seldepth %d", r.SelDepth)
	}
	if r.MultiPV > 0 {
		sel += fmt.Sprintf(" multipv %d", r.MultiPV)
	}
	if r.Hashfull > 0 {
		full = fmt.Sprintf(" hashfull %d", r.Hashfull)
	}
	s.say("info depth %d%s score %s nodes %d nps %d%s time %d pv %s",
		r.Depth, sel, score, r.Nodes, r.Nodes*1000/ms, full, ms, strings.Join(pv, " "))
}

// ponderHit turns a ponder search into a timed one: the opponent played
// the expected move, so the search goes on for the move's allotted time.
func (s *Server[M, G]) ponderHit() {
	if s.cancel == nil {
		return
	}
	time.AfterFunc(s.ponderBudget, s.cancel)
}

// stop ends the running search, if any, and waits for its bestmove.
func (s *Server[M, G]) stop() {
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

// Package games binds each game evolved plays to one value, a Kind: its
// rules' start and positions, its players, its arena, the genetic
// algorithm's binding (Bind), its records and perft. The daemon's run loop, the
// cluster's jobs and the commands (match, climb, rate, perft, show) are one
// generic body each over a Kind.
//
// A game is found by its name in one place, Visit (registry.go). Code that
// needs no move or state type takes the game's Info from Lookup. Typed
// code picks a game's types once: it writes its body as one function
// generic over Kind[M, S] and hands Visit a Visitor, usually a Funcs of
// three one-line closures that instantiate that body for DraughtsKind,
// ChessKind and XiangqiKind; Visit calls the one of the game named. No
// other code switches on a game's name.
//
// Adding a game is its rules package under game/, one file here that
// returns its Kind, and its case in Visit and method in Visitor; Names
// lists it, and the compiler then names every Visitor still to extend.
//
// The package sits above player and tournament (it composes them) and
// below the genetic algorithm (population), the daemon, the cluster and
// the commands.
package games

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"

	"evolved/agent"
	"evolved/distill"
	"evolved/game"
	"evolved/nnet"
	"evolved/player"
	"evolved/positions"
	"evolved/search"
	"evolved/tournament"
)

// The names of the games, as flags, configuration, databases and jobs
// spell them.
const (
	DraughtsName = "draughts"
	ChessName    = "chess"
	XiangqiName  = "xiangqi"
)

// Names returns the names of the games evolved plays, in the order help
// texts list them.
func Names() []string { return []string{DraughtsName, ChessName, XiangqiName} }

// ErrUnknown is wrapped by the error about a game name evolved does not know.
var ErrUnknown = errors.New("games: unknown game")

// Unknown returns the error about the game name name: it wraps ErrUnknown
// and lists the known names.
func Unknown(name string) error {
	return fmt.Errorf("%w %q (known: %s)", ErrUnknown, name, strings.Join(Names(), ", "))
}

// Setup is how a game is played: the agents' search and the arena's rules.
// Each game reads the fields that apply to it; the zero value of a field
// means "none" for the arena (no move limit, no opening plies, no
// adjudication) and the game's default for Bind. Its JSON form is what
// the cluster sends its workers.
type Setup struct {
	// Depth is the agents' alpha-beta depth in plies (before quiescence
	// where the game has it); 0: the game's DefaultDepth.
	Depth int
	// Nodes, if positive, also ends each move's search after about this
	// many nodes: the search deepens one ply at a time up to Depth and
	// plays the best move of the last iteration it completed, so with a
	// high Depth the budget decides how deep it looks. Node counts, unlike
	// time, make the games reproducible.
	Nodes int64
	// OpeningPlies is the number of random plies opening each game;
	// Bind's default 4.
	OpeningPlies int
	// MaxMoves draws a game once each side has made this many moves;
	// Bind's default 100.
	MaxMoves int
	// AdjudicateMaterial, if positive, ends a game as a win for the side
	// that is this many pawns (soldiers in xiangqi) of material ahead
	// with the side to move not in check; the reason is stored as
	// "adjudicated". Chess and xiangqi.
	AdjudicateMaterial int `json:",omitempty"`
	// Chess960 starts each game from a seeded random Chess960
	// arrangement. Chess.
	Chess960 bool `json:",omitempty"`
	// Search is how the agents search (player.ParseSearch): "" for
	// alpha-beta to Depth under Nodes, "ept:N" for MCTS-EPT of N playouts
	// a move scored by the agent's net, seeded per game (Depth and Nodes
	// then unused).
	Search string `json:",omitempty"`
}

// Record is a game record to write or one read from a file: its tags in
// order, its start (a FEN; "" for the standard start), its moves and its
// result tag ("1-0", "0-1", "1/2-1/2", "*").
type Record[M comparable] struct {
	Tags   [][2]string
	Start  string
	Moves  []M
	Result string
	// Outcome is Result read, when ReadRecords reads it: game.Ongoing for
	// "*" and for a result the format has no winner for.
	Outcome game.Result
}

// DivideLine is one root move of a divided perft: the move in the notation
// the game's reference engine prints, and the leaves below it.
type DivideLine struct {
	Move  string
	Nodes uint64
}

// Kind is everything evolved knows of one game, M its move type and S its
// game state. Every function is safe for concurrent use; the values it
// returns (games, players) are not shared.
type Kind[M comparable, S search.Game[M]] struct {
	// Name is the game's name (DraughtsName, ...).
	Name string
	// Sides names the players in move order as the web site and play show
	// them ("black", "white" in draughts, where Black moves first).
	Sides [2]string
	// RecordTags are the tags of a record that name the players in move
	// order ("Black", "White" in PDN; xiangqi PGN names Red "White").
	RecordTags [2]string
	// RecordExts are the file extensions of the game's records (".pdn").
	RecordExts []string
	// Inputs is the number of inputs of the game's nets.
	Inputs int
	// DefaultDepth is the agents' search depth when a run sets none.
	DefaultDepth int

	// Parse reads a player specification (random, material:D, an agent
	// file, ...) for the game.
	Parse func(spec string) (player.Spec[M, S], error)
	// Net returns the spec of players searching with net to depth plies.
	Net func(name string, net *nnet.Net, depth int) (player.Spec[M, S], error)
	// NetEPT returns the spec of players running MCTS-EPT, playouts
	// playouts a move, with net scoring the playouts.
	NetEPT func(name string, net *nnet.Net, playouts int) (player.Spec[M, S], error)

	// NewGame returns a game under setup's rules from fen ("" for the
	// standard start), or the error naming what is wrong with fen.
	NewGame func(fen string, setup Setup) (S, error)
	// FEN writes the current position of a game.
	FEN func(g S) string
	// Position reads a position of a file of openings (one a line: a FEN,
	// or for chess an EPD line) and returns it as a FEN.
	Position func(line string) (string, error)
	// Arena returns the arena of games under setup from the standard
	// start (or, with Chess960, seeded arrangements), adjudicated when
	// setup says so.
	Arena func(setup Setup) tournament.Arena[M, S]

	// MoveText writes moves played from start (a FEN, "" for the
	// standard start) as the database stores them.
	MoveText func(start string, moves []M) (string, error)
	// Train trains a perspective genome's net on position records
	// (distill.TrainChess, TrainXiangqi); nil for a game without
	// perspective nets (draughts).
	Train func(ctx context.Context, net *nnet.Net, records []positions.Record, opts distill.TrainOptions) (*nnet.Net, distill.TrainReport, error)
	// Pack packs the current position of a game for a position store,
	// PackMove a move; nil for a game the store does not hold (draughts).
	Pack     func(g S) positions.Packed
	PackMove func(m M) uint16
	// ReadRecords reads the game records of r.
	ReadRecords func(r io.Reader) ([]Record[M], error)
	// WriteRecord writes one game record to w.
	WriteRecord func(w io.Writer, rec Record[M]) error
	// ResultTag writes a result as the game's records do.
	ResultTag func(r game.Result) string

	// Perft counts the leaves depth plies below fen ("" for the start).
	Perft func(fen string, depth int) (uint64, error)
	// Divide counts them by root move, in the reference engine's notation.
	Divide func(fen string, depth int) ([]DivideLine, error)

	// DescribeNet writes what evolved beside a net of the game: piece
	// values, a king's value, positional terms.
	DescribeNet func(w io.Writer, n *nnet.Net) error

	// Distill returns net fitted to what alpha-beta searches of nodes
	// nodes with it say of the quiet positions of games (package
	// distill): a chess or xiangqi net's linear weights, a draughts net's
	// every layer.
	Distill func(ctx context.Context, net *nnet.Net, games []tournament.Record[M], nodes int64, opts distill.Options) (*nnet.Net, distill.Report, error)
	// Scorer returns Distill's search with net under nodes nodes, of
	// positions given as FENs: made by the function Distill makes its
	// searches with, so that the cluster's workers, and the coordinator
	// checking them, give each position the value Distill would. The
	// error names a net the game's search cannot take.
	Scorer func(net *nnet.Net, nodes int64) (FENScorer, error)
}

// Binding is a game under one setup: its arena and its players, what the
// genetic algorithm (package population) plays a generation with. Its
// function fields may be wrapped (a daemon counts the games started and
// the nodes searched); each is safe for concurrent use.
type Binding[M comparable, S search.Game[M]] struct {
	// Kind is the game.
	Kind Kind[M, S]
	// Setup is the setup as given to Bind, its zero fields not yet given
	// the game's defaults: what the cluster sends its workers, who bind
	// the same game again from it.
	Setup Setup
	// Arena plays the game under Setup's rules.
	Arena tournament.Arena[M, S]
	// Player returns a constructor of players that search with net as
	// Setup says; it is called once per net, the constructor once per
	// tournament worker.
	Player func(net *nnet.Net) (func() search.Player[M, S], error)
	// Baseline returns a constructor of the baseline player spec names
	// ("random", "material:4", "mcts:1000").
	Baseline func(spec string) (func() search.Player[M, S], error)
}

// Bind returns the game under setup, its zero fields given the game's
// defaults: the arena, the agents' players (each agent's net searching as
// setup says) and the baselines' players.
func (k Kind[M, S]) Bind(setup Setup) Binding[M, S] {
	given := setup
	setup = k.Defaults(setup)
	return Binding[M, S]{
		Kind:  k,
		Setup: given,
		Arena: k.Arena(setup),
		Player: func(net *nnet.Net) (func() search.Player[M, S], error) {
			spec, err := k.AgentSpec("agent", net, setup)
			return spec.New, err
		},
		Baseline: func(s string) (func() search.Player[M, S], error) {
			spec, err := k.Parse(s)
			if err != nil {
				return nil, fmt.Errorf("baseline: %w", err)
			}
			return spec.New, nil
		},
	}
}

// AlphaBeta reports whether the agents search by alpha-beta (not
// MCTS-EPT): only then do they search under a node budget the curriculum
// can raise (AtNodes), and does the game distill.
func (b Binding[M, S]) AlphaBeta() bool { return b.Setup.Search == "" }

// AtNodes returns the game bound again with its agents searching under
// nodes nodes a move.
func (b Binding[M, S]) AtNodes(nodes int64) Binding[M, S] {
	at := b.Setup
	at.Nodes = nodes
	return b.Kind.Bind(at)
}

// AgentSpec returns the spec of players searching with net as setup's
// agents do: MCTS-EPT when setup.Search says so, else alpha-beta to
// setup.Depth (0: the game's default) under setup.Nodes, with the
// techniques and parameters setup.Search may give (#LIST). The error names
// a bad setup.Search.
func (k Kind[M, S]) AgentSpec(name string, net *nnet.Net, setup Setup) (player.Spec[M, S], error) {
	playouts, settings, err := player.ParseSearch(setup.Search)
	if err != nil {
		return player.Spec[M, S]{}, fmt.Errorf("games: %s: %w", k.Name, err)
	}
	if playouts > 0 {
		return k.NetEPT(name, net, playouts)
	}
	spec, err := k.Net(name, net, cmp.Or(setup.Depth, k.DefaultDepth))
	if err != nil {
		return spec, err
	}
	if spec, err = player.WithSettings(spec, settings); err != nil {
		return spec, fmt.Errorf("games: %s: %w", k.Name, err)
	}
	return player.WithNodes(spec, setup.Nodes), nil
}

// AgentFile returns the spec, named name, of the players of agent file f
// searching as it was evolved (MCTS-EPT, or alpha-beta to its depth under
// its node budget), or with depth positive alpha-beta to that depth.
func (k Kind[M, S]) AgentFile(name string, f agent.File, depth int) (player.Spec[M, S], error) {
	return player.AgentFileSpec(name, f, depth, k.Net, k.NetEPT)
}

// Defaults returns setup with its zero depth, opening plies and move limit
// given the game's defaults, as a population plays.
func (k Kind[M, S]) Defaults(setup Setup) Setup {
	if setup.Depth <= 0 {
		setup.Depth = k.DefaultDepth
	}
	if setup.OpeningPlies <= 0 {
		setup.OpeningPlies = 4
	}
	if setup.MaxMoves <= 0 {
		setup.MaxMoves = 100
	}
	return setup
}

// Constructors returns the game's spec parser as rating ladders and the
// daemon's ratings take it: just the constructor of players.
func (k Kind[M, S]) Constructors() func(string) (func() search.Player[M, S], error) {
	return player.Constructors(k.Parse)
}

// Opening is a start for matches: a position (a FEN; "" for the standard
// start) and the moves that follow it before play begins.
type Opening[M comparable] struct {
	Start string
	Moves []M
}

// ReadOpenings reads openings from r: game records (their start and main
// line, each move legal, as the record reader checks) when records is
// true, else one position a line (blank lines and lines starting with #
// are skipped). Every start is checked under setup, so that a bad one is
// named here and not in a game.
func (k Kind[M, S]) ReadOpenings(r io.Reader, records bool, setup Setup) ([]Opening[M], error) {
	var out []Opening[M]
	if records {
		recs, err := k.ReadRecords(r)
		if err != nil {
			return nil, fmt.Errorf("openings: %w", err)
		}
		for _, rec := range recs {
			out = append(out, Opening[M]{Start: rec.Start, Moves: rec.Moves})
		}
	} else {
		starts, err := readPositionLines(r, k.Position)
		if err != nil {
			return nil, err
		}
		for _, fen := range starts {
			out = append(out, Opening[M]{Start: fen})
		}
	}
	if len(out) == 0 {
		return nil, errors.New("openings: the file holds no opening")
	}
	for i, o := range out {
		if _, err := k.NewGame(o.Start, setup); err != nil {
			return nil, fmt.Errorf("openings: opening %d: %w", i+1, err)
		}
	}
	return out, nil
}

// IsRecordFile reports whether path names a file of the game's records
// (by its extension) rather than one of positions a line.
func (k Kind[M, S]) IsRecordFile(path string) bool {
	return slices.ContainsFunc(k.RecordExts, func(ext string) bool {
		return strings.HasSuffix(strings.ToLower(path), ext)
	})
}

// openingGame returns the game of opening o under setup: its start with
// its moves played. ReadOpenings has checked both.
func (k Kind[M, S]) openingGame(o Opening[M], setup Setup) (S, error) {
	g, err := k.NewGame(o.Start, setup)
	if err != nil {
		return g, err
	}
	for _, m := range o.Moves {
		g.Make(m)
	}
	return g, nil
}

// WithOpenings makes each pairing of arena start from one of openings
// (checked by ReadOpenings), drawn with the pairing's opening seed (both
// games of a pair share it); records name the start by its FEN.
func (k Kind[M, S]) WithOpenings(a tournament.Arena[M, S], setup Setup, openings []Opening[M]) tournament.Arena[M, S] {
	a.Start = func(rng *rand.Rand) S {
		g, err := k.openingGame(openings[rng.IntN(len(openings))], setup)
		if err != nil {
			panic("games: an opening ReadOpenings accepted fails: " + err.Error())
		}
		return g
	}
	a.Describe = k.FEN
	return a
}

// FromPosition makes every game of arena start from fen under setup's
// rules (the opening plies follow it); the error names what is wrong with
// fen. Records keep an empty start: the caller knows it.
func (k Kind[M, S]) FromPosition(a tournament.Arena[M, S], setup Setup, fen string) (tournament.Arena[M, S], error) {
	if _, err := k.NewGame(fen, setup); err != nil {
		return a, err
	}
	a.NewGame = func() S {
		g, _ := k.NewGame(fen, setup) // checked above
		return g
	}
	return a, nil
}

// MatchRecord returns the record of game i (from 0) of a match between
// nameA and nameB: tags Event, Round, the players in move order and
// Termination, from start when the game's record has none.
func (k Kind[M, S]) MatchRecord(event string, i int, rec tournament.Record[M], aFirst bool, nameA, nameB, start string) Record[M] {
	first, second := nameA, nameB
	if !aFirst {
		first, second = nameB, nameA
	}
	if rec.Start != "" {
		start = rec.Start
	}
	return Record[M]{
		Tags: [][2]string{
			{"Event", event},
			{"Round", fmt.Sprint(i + 1)},
			{k.RecordTags[0], first},
			{k.RecordTags[1], second},
			{"Termination", rec.Outcome.Reason.String()},
		},
		Start:  start,
		Moves:  rec.Moves,
		Result: k.ResultTag(rec.Outcome.Result),
	}
}

package search

import (
	"fmt"
	"strings"
)

// Technique is a set of search techniques, one bit each, so that every
// technique can be switched off and measured against the search without
// it. A technique that needs something of the game (null moves, static
// exchange evaluation, checks) is used only in games that provide it.
type Technique uint32

// The techniques of AlphaBeta.
const (
	// PVS searches every move after the first with a null window and
	// searches again with the full window only a move that beats alpha
	// (principal-variation search).
	PVS Technique = 1 << iota
	// Aspiration starts each iteration from depth 4 with a narrow window
	// around the last iteration's score, widened when the score falls
	// outside it.
	Aspiration
	// NullMove gives the opponent a free move at non-PV nodes whose static
	// value beats beta and searches that reduced (3 plies plus one per 6 of
	// depth): if the side to move still beats beta, the node is cut. Only
	// in games that implement NullMover, and never when the side to move
	// may be in zugzwang (NullMover.NullSafe).
	NullMove
	// LMR searches late quiet moves (not the table move, not a capture,
	// promotion or killer, not in or into check) with a depth reduced by a
	// logarithmic table, and again at full depth when the reduced search
	// beats alpha (late-move reductions).
	LMR
	// CheckExtension searches a position whose side to move is in check one
	// ply deeper, up to Options.MaxExtension plies on a path, in games that
	// implement Quiescent.
	CheckExtension
	// SEE orders captures that lose material by static exchange last and
	// prunes them in quiescence, in games that implement Exchanger.
	SEE
	// Delta skips captures in quiescence that could not raise alpha even if
	// they won their victim and a margin (delta pruning), in games that
	// implement Exchanger.
	Delta
	// ReverseFutility returns the static value of a non-PV node near the
	// leaves (depth <= 6) when it beats beta by a margin that grows with
	// depth.
	ReverseFutility
	// Futility skips quiet moves that do not give check at depth <= 3 when
	// the static value plus a margin cannot reach alpha.
	Futility
	// MateDistance narrows the window to what a mate from this ply could
	// still improve on (mate-distance pruning).
	MateDistance
	// LateMovePruning skips the late quiet moves of a non-PV node near the
	// leaves (depth <= Params.LMPDepth), not in check, once lmp_base +
	// lmp_scale/100·depth² quiet moves have been searched there, in games
	// that implement Quiescent.
	LateMovePruning
	// HistoryMalus lowers the history of the quiet moves searched before
	// the quiet move that cuts a node off, by as much as the cutting move's
	// rises (depth²), so that moves that keep failing sink in the
	// ordering.
	HistoryMalus
	// IIR reduces by one ply a node at depth >= Params.IIRDepth, below the
	// root, that has no move from the table to search first (internal
	// iterative reduction): without one its move ordering is poor and its
	// search costly, and the shallower search fills the table for the
	// next iteration.
	IIR
	// CounterMove orders, after the killers, the quiet move that last cut
	// a node off in reply to the move just played (the counter-move
	// heuristic: one move a key of the previous move).
	CounterMove
	// Improving evaluates every quiet node and compares its static value
	// with the same side's two plies up: a node whose value has risen
	// (improving) prunes by reverse futility a ply sooner, and the late
	// quiet moves of one whose value has not are reduced a ply more.
	Improving

	// None is the set of no technique: plain alpha-beta with the table,
	// killers and history. (Its bit only marks the set as given, so that
	// Options' zero value can mean the game's defaults, Defaults.)
	None Technique = 1 << 31

	// AllTechniques is every technique.
	AllTechniques = PVS | Aspiration | NullMove | LMR | CheckExtension | SEE | Delta |
		ReverseFutility | Futility | MateDistance | LateMovePruning | HistoryMalus | IIR | CounterMove | Improving

	// DefaultTechniques are the techniques every game's search uses when
	// its options name none: those that won their SPRT (docs/search.md).
	// Some games add more (Defaults).
	DefaultTechniques = AllTechniques &^ (LateMovePruning | HistoryMalus | IIR | CounterMove | Improving)
)

// Tuned is implemented by games whose searches start from settings of
// their own rather than from DefaultTechniques and DefaultParams: chess
// and xiangqi, whose SPRTs chose them (docs/search.md). A game's rules
// package holds them as text, so that it need not import search.
type Tuned interface {
	// SearchSettings returns the settings as a list ParseSettings reads
	// from DefaultTechniques and DefaultParams ("+malus,futility_margin=49").
	SearchSettings() string
}

// Defaults returns the techniques a search of the game S uses when its
// options name none, and the set a list of techniques starting with + or
// - changes (GameDefaults).
func Defaults[M comparable, S Game[M]]() Technique {
	t, _ := GameDefaults[M, S]()
	return t
}

// GameDefaults returns the techniques and parameters a search of the game
// S starts from: the game's own SearchSettings when it is Tuned, else
// DefaultTechniques and DefaultParams. Draughts keeps those, so that the
// Blondie reproduction keeps its games. It panics on settings that do not
// parse, a fault of the game's code that its tests catch.
func GameDefaults[M comparable, S Game[M]]() (Technique, Params) {
	var s S
	tuned, ok := any(s).(Tuned)
	if !ok {
		return DefaultTechniques, DefaultParams()
	}
	set, p, err := ParseSettings(tuned.SearchSettings(), DefaultTechniques, DefaultParams())
	if err != nil {
		panic(fmt.Sprintf("search: the search settings of %T: %v", s, err))
	}
	return set, p
}

// techniqueNames names the techniques in bit order, for flags and logs.
var techniqueNames = [...]string{"pvs", "aspiration", "null", "lmr", "check", "see", "delta", "rfp", "futility", "mdp", "lmp", "malus", "iir", "counter", "improving"}

// String lists the techniques of t by name ("pvs,null,lmr"), "none" for
// none.
func (t Technique) String() string {
	var names []string
	for i, name := range techniqueNames {
		if t&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ",")
}

// Has reports whether t holds every technique of u.
func (t Technique) Has(u Technique) bool { return t&u == u }

// ParseTechniques reads a technique set: a comma-separated list of names
// (pvs, aspiration, null, lmr, check, see, delta, rfp, futility, mdp, lmp,
// malus, iir, counter, improving) and the words all, none and default (base: callers pass the
// game's Defaults), each name optionally prefixed with + (add it) or -
// (remove it). A list that starts with + or - changes base; one that
// starts with a name or a word starts from nothing.
func ParseTechniques(s string, base Technique) (Technique, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return base, nil
	}
	set := Technique(0)
	if s[0] == '+' || s[0] == '-' {
		set = base &^ None
	}
	for _, item := range strings.Split(s, ",") {
		item = strings.ToLower(strings.TrimSpace(item))
		op := byte('+')
		if item != "" && (item[0] == '+' || item[0] == '-') {
			op, item = item[0], item[1:]
		}
		var t Technique
		switch item {
		case "all":
			t = AllTechniques
		case "none":
			t = 0
		case "default":
			t = base &^ None
		default:
			found := false
			for i, name := range techniqueNames {
				if item == name {
					t, found = 1<<i, true
				}
			}
			if !found {
				return 0, fmt.Errorf("search: unknown technique %q (want %s, all, none or default)", item, strings.Join(techniqueNames[:], ", "))
			}
		}
		if op == '-' {
			set &^= t
		} else {
			set |= t
		}
	}
	if set == 0 {
		return None, nil
	}
	return set, nil
}

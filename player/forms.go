package player

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Form is one form of player specification that the parsers read, as
// help lists it: one line each.
type Form struct {
	// Spec is the form, its arguments in capitals: "material:D".
	Spec string
	// Games are the games whose parser reads the form; nil for every game.
	Games []string
	// About says what the player is, in a phrase.
	About string
}

// Forms returns every form of player specification that ParseDraughts,
// ParseChess (through ChessParser for meta:RUN) and ParseXiangqi read, in
// the order help lists them. The commands' help and the parsers' errors
// list the players from it, so that neither leaves out a form: a parser
// that learns one adds it here, and TestForms checks that each form is
// read by the parsers of its games and refused by the others.
func Forms() []Form {
	chess, xiangqi := []string{"chess"}, []string{"xiangqi"}
	return []Form{
		{Spec: "random", About: "uniformly random legal moves"},
		{Spec: "material:D", About: "alpha-beta to depth D on material"},
		{Spec: "pst:D", Games: chess, About: "material:D plus Michniewski's piece-square tables"},
		{Spec: "pesto:D", Games: chess, About: "PeSTO's tapered tables in the agents' search: depth D untimed, the clock when timed"},
		{Spec: "mcts:N", About: "Monte Carlo tree search (UCT), N random playouts a move"},
		{Spec: "ept:N", About: fmt.Sprintf("MCTS with early playout termination: N playouts a move, cut after %d plies and scored on material", EPTPlies)},
		{Spec: "ept:N@FILE", About: "ept:N, the playouts scored by the net of the agent file FILE"},
		{Spec: "FILE.json", About: "an agent file, as evolved export writes it"},
		{Spec: "uci:PATH[:NAME=VALUE...]", Games: []string{"chess", "xiangqi"},
			About: "the UCI engine at PATH; depth=, nodes= or movetime= set its limit (100 ms a move by default), other pairs are engine options"},
		{Spec: "classic", Games: xiangqi, About: "the classic terminal program's evaluation and fixed-depth search"},
		{Spec: "classic+[:MS]", Games: xiangqi, About: "that evaluation on this project's search, MS milliseconds a move (1000)"},
		{Spec: "pheromones:FILE", Games: chess, About: "the chess lab's pheromone file FILE (evolved meta -o), played greedily"},
		{Spec: "meta:RUN[@FILE.db]", Games: chess,
			About: "the chess lab's run RUN, stored in FILE.db or the default database (evolved.db, or $EVOLVED_DB), played greedily"},
		{Spec: "SPEC#TECHNIQUES", About: "an alpha-beta SPEC (material:D, pst:D, pesto:D, an agent file) with the search TECHNIQUES and parameters, e.g. material:6#-lmr,-null or pesto:6#rfp_margin=80"},
	}
}

// ForGame reports whether the parser of game reads the form.
func (f Form) ForGame(game string) bool { return f.Games == nil || slices.Contains(f.Games, game) }

// foreignForm reports whether spec is of a form that only other games'
// parsers read (uci:PATH for draughts, classic for chess), so that the
// parser of game refuses it as an unknown player rather than reading it
// as the path of an agent file.
func foreignForm(spec, game string) bool {
	for _, f := range Forms() {
		if f.ForGame(game) {
			continue
		}
		kind, _, _ := strings.Cut(f.Spec, ":")
		kind, _, _ = strings.Cut(kind, "[")
		if spec == kind || strings.HasPrefix(spec, kind+":") {
			return true
		}
	}
	return false
}

// errUnknownPlayer is wrapped, with ErrSpec, by the error of a spec of no
// form the game's parser reads.
var errUnknownPlayer = errors.New("unknown player")

// unknownPlayer returns the error of spec, of no form the parser of game
// reads: it lists the forms that parser reads.
func unknownPlayer(spec, game string) error {
	var forms []string
	for _, f := range Forms() {
		if f.ForGame(game) {
			forms = append(forms, f.Spec)
		}
	}
	last := len(forms) - 1
	return fmt.Errorf("%w %q: %w for %s (want %s or %s)", ErrSpec, spec, errUnknownPlayer, game, strings.Join(forms[:last], ", "), forms[last])
}

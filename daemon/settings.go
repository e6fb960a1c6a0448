package daemon

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"evolved/agent"
	"evolved/games"
	"evolved/nnet"
	"evolved/player"
	"evolved/population"
	"evolved/tournament"
)

// PopulationConfig holds the settings every game's population has. With
// the seed they define a run: they cannot change for an existing database
// (runSettings).
//
// The genetic algorithm's settings are population.Config's, embedded with
// their keys (preset, quiet_net, population, elite, hidden, the ladder's,
// the baselines', the hall of fame's, the mutation steps, fitness_memory
// and fitness_caution) and checked by its Validate. The fields below are
// the game's: how its games are played, which the game's binding reads, and the
// keys the genetic algorithm takes in another form (population). The
// embedded fields without a key (Crossovers, Mutants, Flags, Tournament)
// mean nothing here: population sets them.
type PopulationConfig struct {
	population.Config
	// Depth, Nodes, OpeningPlies and MaxMoves set how the population's
	// games are played (player.DraughtsSetup and the other games'). Nodes,
	// if positive, ends each move's search in the tournaments after about
	// this many nodes, Depth being the deepest iteration
	// (player.ChessSetup.Nodes); 0 searches to Depth.
	Depth        int   `toml:"depth" json:"depth"`
	Nodes        int64 `toml:"nodes" json:"nodes"`
	OpeningPlies int   `toml:"opening_plies" json:"opening_plies"`
	MaxMoves     int   `toml:"max_moves" json:"max_moves"`
	// Search is how the agents play their games (player.ParseSearch): ""
	// (absent), alpha-beta to Depth under Nodes; "ept:N", MCTS-EPT of N
	// playouts a move, each cut after player.EPTPlies plies and scored by
	// the agent's own net, seeded per game. Runs started before the key
	// have none, and store none.
	Search string `toml:"search,omitempty" json:"search,omitempty"`
	// Format is the fitness tournament's format, and Rounds the number of
	// rounds of the roundrobin format, each from new openings (0 or 1:
	// one; a run started before the key plays one). The genetic algorithm
	// takes them in its tournament.Config, beside the scoring and the
	// workers, which are no settings of a run.
	Format tournament.Format `toml:"format" json:"format"`
	Rounds int               `toml:"rounds" json:"rounds,omitempty"`
	// PieceDiff and SelfAdaptive are Blondie24's extras of the nets
	// (nnet.PieceDiff, nnet.SelfAdaptive): flags of the genome, as each
	// game's evolve_* keys are.
	PieceDiff    bool `toml:"piece_diff" json:"piece_diff"`
	SelfAdaptive bool `toml:"self_adaptive" json:"self_adaptive"`
}

// DraughtsConfig defines the draughts population.
type DraughtsConfig struct {
	PopulationConfig
	EvolveKing bool `toml:"evolve_king" json:"evolve_king"`
	// Perspective makes the nets draughts perspective nets
	// (nnet.Perspective, issue 61) in the Blondie net's place: 128
	// features a side (men and kings of each side on 32 squares) into
	// hidden = [N] int16 sums (nnet.DefaultDraughtsPerspectiveHidden when
	// the file does not set hidden), a clipped ReLU and a linear output in
	// the Blondie net's units. A file that turns it on and does not set
	// piece_diff or distill_every gets neither: the net takes no piece
	// difference, and the distillation fits tanh nets. Off by default, and
	// in the blondie24 preset; runs started before the key have none.
	Perspective bool `toml:"perspective" json:"perspective,omitempty"`
}

// ChessConfig defines the chess population.
type ChessConfig struct {
	PopulationConfig
	// EvolvePieceValues makes the five piece values part of the genome.
	EvolvePieceValues bool `toml:"evolve_piece_values" json:"evolve_piece_values"`
	// EvolvePST adds piece-square tables to the genome, beside the net,
	// starting from Michniewski's (nnet.EvolvePST).
	EvolvePST bool `toml:"evolve_pst" json:"evolve_pst"`
	// EvolveTerms adds twelve positional terms (mobility, the bishop pair,
	// pawn structure, rooks on open files, king safety) to the genome,
	// starting at 0 (nnet.EvolveTerms). Runs started before the key have
	// none.
	EvolveTerms bool `toml:"evolve_terms" json:"evolve_terms,omitempty"`
	// EvolveMoreTerms adds nine more positional terms after those of
	// evolve_terms (threats, hanging pieces, rooks on the seventh,
	// outposts, the tempo, passed pawns in the endgame, king attackers,
	// connected pawns; nnet.EvolveMoreTerms). It needs evolve_terms, and
	// is off without it unless set. Runs started before the key have none.
	EvolveMoreTerms bool `toml:"evolve_more_terms" json:"evolve_more_terms,omitempty"`
	// EvolveTapered gives every positional term a middlegame and an
	// endgame weight, blended by the phase (nnet.TaperedTerms). It needs
	// evolve_terms, and is off without it unless set. On by default (see
	// defaultChess); runs started before the key have none.
	EvolveTapered bool `toml:"evolve_tapered" json:"evolve_tapered,omitempty"`
	// EvolveKingDanger adds a table of what each king attack count is
	// worth, 0 at first, after the more terms (nnet.EvolveKingDanger). It
	// needs evolve_more_terms, and is off without it unless set. On by
	// default; runs started before the key have none.
	EvolveKingDanger bool `toml:"evolve_king_danger" json:"evolve_king_danger,omitempty"`
	// EvolveTaperedTables gives the piece-square tables a middlegame and
	// an endgame half, blended by the phase as evolve_tapered blends the
	// terms, the endgame king's starting at Michniewski's endgame table
	// (nnet.TaperedTables). It needs evolve_pst. Off by default; runs
	// started before the key have none.
	EvolveTaperedTables bool `toml:"evolve_tapered_tables" json:"evolve_tapered_tables,omitempty"`
	// Perspective makes the nets perspective nets (nnet.Perspective): one
	// layer of hidden = [N] sums (256 when the file does not set hidden),
	// each summed from both sides' views in int16 and updated move by
	// move, then a clipped ReLU and a linear output, in the tanh nets'
	// place beside the tables and terms. Off by default; runs started
	// before the key have none.
	Perspective bool `toml:"perspective" json:"perspective,omitempty"`
	// AdjudicateMaterial, if positive, ends a game as won for the side this
	// many pawns ahead.
	AdjudicateMaterial int `toml:"adjudicate_material" json:"adjudicate_material"`
	// Chess960 starts every game from a seeded random Chess960 arrangement
	// (before its opening plies) instead of the standard position.
	Chess960 bool `toml:"chess960" json:"chess960"`
}

// XiangqiConfig defines the xiangqi population.
type XiangqiConfig struct {
	PopulationConfig
	// EvolvePieceValues makes the six piece values (advisor, elephant,
	// horse, chariot, cannon, soldier; the classic program's strengths at
	// first) part of the genome.
	EvolvePieceValues bool `toml:"evolve_piece_values" json:"evolve_piece_values"`
	// EvolvePST adds piece-square tables to the genome, beside the net,
	// starting from the classic program's (nnet.EvolvePST).
	EvolvePST bool `toml:"evolve_pst" json:"evolve_pst"`
	// EvolveTerms adds ten positional terms (the classic program's
	// mobility and control, hanging pieces, the tempo, hollow cannons) to
	// the genome, starting at 0 (nnet.EvolveTerms on a xiangqi net). Runs
	// started before the key have none.
	EvolveTerms bool `toml:"evolve_terms" json:"evolve_terms,omitempty"`
	// EvolveMoreTerms adds four more positional terms after those of
	// evolve_terms (threats by lower-valued pieces, attackers of the
	// enemy palace, those attackers times its missing defenders, connected
	// soldiers; nnet.EvolveMoreTerms). It needs evolve_terms. Runs
	// started before the key have none.
	EvolveMoreTerms bool `toml:"evolve_more_terms" json:"evolve_more_terms,omitempty"`
	// Perspective makes the nets perspective nets, as chess's key does:
	// hidden = [N] int16 sums a side (256 when the file does not set
	// hidden) over the 1260 features of the xiangqi encoding. Off by
	// default; runs started before the key have none.
	Perspective bool `toml:"perspective" json:"perspective,omitempty"`
	// AdjudicateMaterial, if positive, ends a game as won for the side this
	// many soldiers (100 of material:D's centipawns) ahead.
	AdjudicateMaterial int `toml:"adjudicate_material" json:"adjudicate_material"`
}

// defaultSection returns the settings every game starts from: the
// genetic algorithm's defaults (population.DefaultConfig) with fitness
// memory, the round robin, four opening plies and games of at most 100
// moves, searched to depth.
func defaultSection(depth int) PopulationConfig {
	ga := population.DefaultConfig()
	// Measured in draughts: the best champion of 200 generations beats
	// the Blondie24 ranking's by +21 ± 18 (seed 1) and +28 ± 21 (seed 2)
	// Elo, both SPRT H1 (docs/draughts.md, "Climbing the rating scale").
	ga.FitnessMemory = true
	return PopulationConfig{Config: ga, Depth: depth, OpeningPlies: 4, MaxMoves: 100, Format: tournament.RoundRobin, Rounds: 1}
}

// defaultDraughts returns the draughts section of DefaultConfig:
// Blondie24's experiment (population.DefaultConfig) at depth 4, with the
// piece difference as an input.
//
// Draughts plays the ladder at every generation (ladder_later_every = 0):
// without the distillation its database grew 0.79-0.81 KB a generation at
// 5,100 generations an hour, 96-99 MB a day, and thinning the ladder
// would have bought about a tenth more generations an hour, which the 100
// MB a day its disk budget allows could not pay for (docs/daemon.md,
// "Disk: retention and budget"). With the distillation, which takes most
// of a generation's time, the ladder's share is smaller (not measured).
//
// Draughts mutates at a tenth of Blondie24's step (mutation_scale = 0.1):
// the last champion of 840 generations then scores 62.2%, 54.1% and 56.0%
// against material:4 (seeds 1, 2 and 3, 1,000 games each) where the full
// step's scores 54.3%, 51.5% and 49.5%, and beats the full step's last
// champion in an SPRT with every seed (H1 after 942 games, +19 ± 15; after
// 260, +83 ± 28; after 444, +35 ± 20; docs/draughts.md, "The last
// champion, not the best"). At the
// full step the population settles where what mutation breaks balances
// what 28 games an agent can select, and its champions wander.
//
// Draughts distills its champion every other generation (distill_every =
// 2): the whole net is fitted to its own searches of the generation's
// quiet positions and the elite takes the step. Over the Blondie
// experiment's 840 generations the level of a run (the mean of the
// champions of every tenth of its last hundred generations, 1,000 games
// each against material:4) is then 71.0%, 72.2% and 73.6% (seeds 1, 2
// and 3) where the run without distillation holds at 57.3%, and every 10
// generations 66.4%, every 5 69.4% (docs/draughts.md, "Distillation").
// Its steps are kept for good, each rounded to multiples of at most 15
// and stored in a Rice code, about 1.9 KB, in parts that share their pages
// with other rows (storage's step_parts): a default run then grows
// 2.2-2.3 KB a generation at 1,281 generations an hour on two cores, 70-74
// MB a day, inside the 100 MB its disk budget allows.
func defaultDraughts() DraughtsConfig {
	p := defaultSection(games.Draughts().DefaultDepth)
	p.PieceDiff = true
	p.LadderLaterEvery = 0
	p.MutationScale = 0.1
	p.DistillEvery = 2
	return DraughtsConfig{PopulationConfig: p}
}

// defaultChess returns the chess section of DefaultConfig.
//
// Chess evolves piece-square tables at a tenth of the mutation step: the
// champion then rates 1750 ± 67 on Stockfish's scale at 10+0.1, against
// 1500 ± 73 without them; at the full step the tables drift away within a
// hundred generations. With the positional terms, every pair playing both
// colours and fitness memory, the champion of generation 599 beats
// generation 0's by +89 ± 25 Elo and the previous default's champion of
// generation 599 in an SPRT (H1, +79 ± 30), which itself is no better than
// its generation 0 (docs/chess.md, "Positional terms"). With the nine more terms,
// generation 400's champion beats generation 0's by +186 ± 29 and the
// twelve-term default's generation 599 in an SPRT (H1 after 296 games,
// +89 ± 30).
//
// The agents search depth 3 under a budget of 800 nodes a move: with the
// pruning techniques a generation then costs what depth 2 cost with plain
// alpha-beta (1.07 times its CPU time), and generation 0's champion so set
// beats itself at depth 2 by +42 ± 33 (200 games; docs/search.md, "The
// tournaments' search").
//
// Chess distills its champion every 10 generations (distill_every): the
// elite's piece values, tables and terms take the step of a fit of the
// champion's evaluation to its own searches of the generation's positions
// (docs/strength.md, "Distillation"). From generation 0, a run so set
// beat the default without it at equal hours (0.73) by +83 +- 17 (1,000
// games; SPRT H1 after 350); turned on at 4.18 hours in a run that had
// held since its first, it beat that run at equal hours (5.09) by
// +72 +- 17 (SPRT H1 after 358) and its one-hour champion by +91 +- 17.
//
// The terms are tapered and king safety has its table (evolve_tapered,
// evolve_king_danger): from generation 0, distilled, a run so set
// beat the default without them at six hours of each run's evolution by
// +22 +- 17 (1,000 games; SPRT H1 after 842 games, +30 +- 19) and by
// +29 +- 18 at 20,000 nodes a move (600 games); its six-hour champion
// beats its one-hour one by +41 +- 17 where the default's does by +19
// (docs/strength.md, "Distillation").
func defaultChess() ChessConfig {
	p := defaultSection(3)
	p.Nodes = 800
	p.DistillEvery = 10
	p.MutationScale, p.Hidden, p.Baselines = 0.1, []int{32, 8}, []string{"random", "material:2"}
	return ChessConfig{PopulationConfig: p, EvolvePieceValues: true, EvolvePST: true, EvolveTerms: true, EvolveMoreTerms: true,
		EvolveTapered: true, EvolveKingDanger: true}
}

// defaultXiangqi returns the xiangqi section of DefaultConfig.
//
// Xiangqi evolves the classic program's piece-square tables, at a tenth
// of the step as chess does: generation 0 then scores 43.8% against
// classic at depth 2 (200 games), against 26.5% without them, and its
// champion 94% at 10+0.1 (docs/xiangqi.md). With the positional terms, the round
// robin and fitness memory (chess's recipe), generation 299's champion
// beats generation 0's by +80 ± 25 and the previous default's generation
// 299 in an SPRT (H1 after 278 games, +80 ± 28), which itself is
// generation 0's equal. With piece values that step by a twentieth of
// their classic values (value_mutation_scale), generation 299's champion
// beats generation 0's by +114 ± 25 and that default's generation 299 in
// an SPRT (H1 after 240 games, +89 ± 32): the cannon falls from 5 to 3.5
// pawns within a hundred generations, where the tables' step had left
// every value within 0.06 of its start.
//
// As in chess, the agents search depth 3 under 800 nodes a move: 1.10
// times the CPU time of depth 2 before the pruning techniques, and
// generation 0's champion so set beats itself at depth 2 by +65 ± 35
// (200 games; docs/search.md).
//
// At that search xiangqi evolves four more terms (evolve_more_terms): the
// one-hour champion of a run with them beats the one-hour champion of a
// run without (seed 1, one worker each) in an SPRT, H1 after 514 games,
// and by +16 ± 15 over 1,000 games; against the run without's generation
// 0 it scores +97, +61, +100 and +108 (± 26, 400 games each) at 0.25 to
// 1 hours where the run without scores +63, +68, +77 and +95
// (docs/xiangqi.md, "More terms"). At depth 2 a similar set had lost.
//
// Xiangqi distills as chess does (distill_every = 10): a run so set from
// generation 0 beat the default run without it (seed 1, one worker each)
// at equal hours, one hour, by +135 +- 16 (1,000 games; SPRT H1 after
// 208), and its own generation 0 by +218 +- 18, where the run without
// reached +122 +- 16 (docs/xiangqi.md, "Distillation").
func defaultXiangqi() XiangqiConfig {
	p := defaultSection(3)
	p.Nodes = 800
	p.DistillEvery = 10
	p.MutationScale, p.ValueMutationScale = 0.1, 0.05
	p.Hidden, p.Baselines = []int{32, 8}, []string{"random", "classic"}
	return XiangqiConfig{PopulationConfig: p, EvolvePieceValues: true, EvolvePST: true, EvolveTerms: true, EvolveMoreTerms: true}
}

// population returns the genetic algorithm's configuration: the embedded
// settings, with the nets' flags (flags, from the game's own keys, and
// piece_diff and self_adaptive), the tournament of format and rounds on
// workers, and Blondie24's breeding for the elite (population.Recipe).
func (p PopulationConfig) population(flags nnet.Flags, workers int) population.Config {
	cfg := p.Config
	cfg.Hidden, cfg.Baselines = slices.Clone(cfg.Hidden), slices.Clone(cfg.Baselines)
	cfg.Crossovers, cfg.Mutants = population.Recipe(cfg.Elite)
	cfg.Flags = flags
	if p.PieceDiff {
		cfg.Flags |= nnet.PieceDiff
	}
	if p.SelfAdaptive {
		cfg.Flags |= nnet.SelfAdaptive
	}
	cfg.Tournament = tournament.Config{Format: p.Format, Rounds: p.Rounds, Scoring: tournament.DefaultScoring, Workers: workers}
	if p.DistillEvery > 0 && !p.distills() {
		cfg.DistillEvery, cfg.DistillNodes = 0, 0
	}
	return cfg
}

// checkDistill refuses a distill_every that the file sets for game where
// the section's other keys rule the distillation out (see distills).
func (p PopulationConfig) checkDistill(game string, defined func(key string) bool) error {
	if p.DistillEvery <= 0 || p.distills() || !defined(game+".distill_every") {
		return nil
	}
	why := fmt.Sprintf("distills alpha-beta searches: not with search = %q", p.Search)
	switch {
	case p.searchesByEPT():
	case p.Optimizer.Mirrored():
		why = fmt.Sprintf("not with preset %q: its champion is its mean, and its samples are new every generation", p.Optimizer)
	default:
		why = "not with champion_games: the distillation replaces the champion whose title the match defends"
	}
	return &ConfigError{Key: game + ".distill_every", Value: p.DistillEvery, Msg: why}
}

// distills reports whether the section's distill_every can apply: chess's
// default distills, and a run whose other keys rule it out (MCTS-EPT, the
// evolution strategies, the title match) plays without it rather than
// fail over a key its file does not set (ChessConfig.validate refuses the
// combination when the file sets distill_every itself).
//
// An alpha-beta list (search = "#LIST") does not: the distillation's
// searches are its own (the game's default techniques, distill_nodes,
// depth 30), as they are beside a run's depth and nodes. Before
// 2026-12-07 any search key turned the distillation off, so that a run
// whose file set search = "#-lmr" silently evolved without it; such a
// run distills from its next due generation when resumed.
func (p PopulationConfig) distills() bool {
	return p.DistillEvery > 0 && !p.searchesByEPT() && !p.Optimizer.Mirrored() && p.ChampionGames == 0
}

// searchesByEPT reports whether the agents play by MCTS-EPT (search =
// "ept:N"), whose searches the distillation cannot fit.
func (p PopulationConfig) searchesByEPT() bool {
	return strings.HasPrefix(p.Search, "ept:")
}

// population returns the genetic algorithm's configuration for draughts.
func (d DraughtsConfig) population(workers int) population.Config {
	return d.PopulationConfig.population(d.flags(), workers)
}

// population returns the genetic algorithm's configuration for chess.
func (c ChessConfig) population(workers int) population.Config {
	return c.PopulationConfig.population(c.flags(), workers)
}

// population returns the genetic algorithm's configuration for xiangqi.
func (x XiangqiConfig) population(workers int) population.Config {
	return x.PopulationConfig.population(x.flags(), workers)
}

// flags returns the nets' flags that the draughts keys set.
func (d DraughtsConfig) flags() nnet.Flags {
	var f nnet.Flags
	if d.EvolveKing {
		f |= nnet.EvolveKing
	}
	if d.Perspective {
		f |= nnet.Perspective
	}
	return f
}

// flags returns the nets' flags that the chess keys set; the more terms
// come only after the terms.
func (c ChessConfig) flags() nnet.Flags {
	f := evolveFlags(c.EvolvePieceValues, c.EvolvePST, c.EvolveTerms)
	if c.EvolveTerms && c.EvolveMoreTerms {
		f |= nnet.EvolveMoreTerms
	}
	if c.EvolveTerms && c.EvolveTapered {
		f |= nnet.TaperedTerms
	}
	if c.EvolveTerms && c.EvolveMoreTerms && c.EvolveKingDanger {
		f |= nnet.EvolveKingDanger
	}
	if c.EvolvePST && c.EvolveTaperedTables {
		f |= nnet.TaperedTables
	}
	if c.Perspective {
		f |= nnet.Perspective
	}
	return f
}

// flags returns the nets' flags that the xiangqi keys set.
func (x XiangqiConfig) flags() nnet.Flags {
	f := evolveFlags(x.EvolvePieceValues, x.EvolvePST, x.EvolveTerms)
	if x.EvolveTerms && x.EvolveMoreTerms {
		f |= nnet.EvolveMoreTerms
	}
	if x.Perspective {
		f |= nnet.Perspective
	}
	return f
}

// evolveFlags returns the flags of evolve_piece_values, evolve_pst and
// evolve_terms.
func evolveFlags(pieceValues, pst, terms bool) nnet.Flags {
	var f nnet.Flags
	for _, b := range []struct {
		on   bool
		flag nnet.Flags
	}{{pieceValues, nnet.EvolvePieceValues}, {pst, nnet.EvolvePST}, {terms, nnet.EvolveTerms}} {
		if b.on {
			f |= b.flag
		}
	}
	return f
}

// canonical writes the settings whose zero value means a default (that of
// a run started before the key existed) in the default's own form, so that
// a file that spells the default out matches a run that stored nothing.
func (p *PopulationConfig) canonical() {
	if p.Optimizer == "" {
		p.Optimizer = population.Blondie24
	}
	if p.MutationScale == 0 {
		p.MutationScale = 1
	}
	if p.Rounds == 0 {
		p.Rounds = 1
	}
}

// perspectiveError returns what keeps the section's nets from being
// perspective nets, or "": they need hidden = [N] and no piece_diff.
func (p PopulationConfig) perspectiveError() string {
	switch {
	case len(p.Hidden) != 1 || p.Hidden[0] > nnet.MaxPerspectiveHidden:
		return fmt.Sprintf("needs hidden = [N], one layer of 1 to %d sums (hidden is %v)", nnet.MaxPerspectiveHidden, p.Hidden)
	case p.PieceDiff:
		return "a perspective net takes no piece_diff"
	}
	return ""
}

// validate checks the draughts section.
func (d DraughtsConfig) validate(defined func(key string) bool) error {
	if err := d.validatePerspective(); err != nil {
		return err
	}
	switch {
	case d.ValueMutationScale != 0:
		return &ConfigError{Key: "draughts.value_mutation_scale", Value: d.ValueMutationScale, Msg: "draughts nets have no piece values (evolve_king evolves the king's)"}
	case d.TableScaleStep != 0:
		return &ConfigError{Key: "draughts.table_scale_step", Value: d.TableScaleStep, Msg: "draughts nets have no piece-square tables"}
	}
	return d.PopulationConfig.validate("draughts", defined, d.flags(), specParser(player.ParseDraughts))
}

// perspectiveDefaults gives a file that turns perspective on what the
// Blondie net's defaults would refuse, for the keys that no layer set
// (defined): one layer of the default width, no piece difference and no
// distillation.
func (d *DraughtsConfig) perspectiveDefaults(defined map[string]bool) {
	if !defined["draughts.hidden"] {
		d.Hidden = []int{nnet.DefaultDraughtsPerspectiveHidden}
	}
	if !defined["draughts.piece_diff"] {
		d.PieceDiff = false
	}
	if !defined["draughts.distill_every"] {
		d.DistillEvery = 0
		if !defined["draughts.distill_nodes"] {
			d.DistillNodes = 0
		}
	}
}

// validatePerspective checks what perspective = true needs of the
// draughts section: perspectiveError's shape, no evolving king (its
// features count kings apart, K weighs nothing) and no distillation or
// training, which fit tanh nets and chess and xiangqi positions.
func (d DraughtsConfig) validatePerspective() error {
	if !d.Perspective {
		return nil
	}
	bad := func(msg string) error { return &ConfigError{Key: "draughts.perspective", Value: true, Msg: msg} }
	switch {
	case d.perspectiveError() != "":
		return bad(d.perspectiveError())
	case d.EvolveKing:
		return bad("a draughts perspective net has features of its own for kings: not with evolve_king")
	case d.DistillEvery > 0:
		return bad("the draughts distillation fits the Blondie net's tanh layers: not with distill_every")
	case d.LearnEvery > 0:
		return bad("training takes chess and xiangqi position stores: not with learn_every")
	}
	return nil
}

// validate checks the chess section; defined tells the keys the
// configuration file set.
func (c ChessConfig) validate(defined func(key string) bool) error {
	bad := sectionErrors("chess")
	switch {
	case c.EvolveMoreTerms && !c.EvolveTerms && defined("chess.evolve_more_terms"):
		return bad("evolve_more_terms", true, "needs evolve_terms = true: the nine more terms come after its twelve")
	case c.EvolveTapered && !c.EvolveTerms && defined("chess.evolve_tapered"):
		return bad("evolve_tapered", true, "needs evolve_terms = true: it tapers the terms")
	case c.EvolveKingDanger && !(c.EvolveTerms && c.EvolveMoreTerms) && defined("chess.evolve_king_danger"):
		return bad("evolve_king_danger", true, "needs evolve_terms and evolve_more_terms = true: the table follows the more terms")
	case c.EvolveTaperedTables && !c.EvolvePST:
		return bad("evolve_tapered_tables", true, "needs evolve_pst = true: it tapers the piece-square tables")
	case c.ValueMutationScale != 0 && !c.EvolvePieceValues:
		return bad("value_mutation_scale", c.ValueMutationScale, "needs evolve_piece_values = true")
	case c.TableScaleStep != 0 && !c.EvolvePST:
		return bad("table_scale_step", c.TableScaleStep, "needs evolve_pst = true")
	case c.Perspective && c.perspectiveError() != "":
		return bad("perspective", true, c.perspectiveError())
	case c.AdjudicateMaterial < 0 || c.AdjudicateMaterial > 40:
		return bad("adjudicate_material", c.AdjudicateMaterial, "want 0 (off) to 40 pawns")
	}
	return c.PopulationConfig.validate("chess", defined, c.flags(), specParser(player.ParseChess))
}

// validate checks the xiangqi section; defined tells the keys the
// configuration file set.
func (x XiangqiConfig) validate(defined func(key string) bool) error {
	bad := sectionErrors("xiangqi")
	switch {
	case x.EvolveMoreTerms && !x.EvolveTerms && defined("xiangqi.evolve_more_terms"):
		return bad("evolve_more_terms", true, "needs evolve_terms = true: the four more terms come after its ten")
	case x.ValueMutationScale != 0 && !x.EvolvePieceValues:
		return bad("value_mutation_scale", x.ValueMutationScale, "needs evolve_piece_values = true")
	case x.TableScaleStep != 0 && !x.EvolvePST:
		return bad("table_scale_step", x.TableScaleStep, "needs evolve_pst = true")
	case x.Perspective && x.perspectiveError() != "":
		return bad("perspective", true, x.perspectiveError())
	case x.AdjudicateMaterial < 0 || x.AdjudicateMaterial > 80:
		return bad("adjudicate_material", x.AdjudicateMaterial, "want 0 (off) to 80 soldiers")
	}
	return x.PopulationConfig.validate("xiangqi", defined, x.flags(), specParser(player.ParseXiangqi))
}

// specParser returns a check of a player spec by parse.
func specParser[S any](parse func(string) (S, error)) func(string) error {
	return func(spec string) error {
		_, err := parse(spec)
		return err
	}
}

// validate checks the settings of game's population, naming keys as
// game.key: distill_every against the other keys (checkDistill; defined
// tells the keys the configuration file set), the game's own here, then
// the genetic algorithm's with the nets' flags of the game's keys
// (population.Config.Validate). parseBaseline checks a baseline spec.
func (p PopulationConfig) validate(game string, defined func(key string) bool, flags nnet.Flags, parseBaseline func(string) error) error {
	if err := p.checkDistill(game, defined); err != nil {
		return err
	}
	bad := sectionErrors(game)
	switch {
	case p.Depth < 1 || p.Depth > 20:
		return bad("depth", p.Depth, "want 1..20")
	case p.Nodes < 0 || p.Nodes > agent.MaxNodes:
		return bad("nodes", p.Nodes, fmt.Sprintf("want 0 (search to depth) to %d", int64(agent.MaxNodes)))
	case p.OpeningPlies < 0 || p.OpeningPlies > 20:
		return bad("opening_plies", p.OpeningPlies, "want 0..20")
	case p.MaxMoves < 1 || p.MaxMoves > 10000:
		return bad("max_moves", p.MaxMoves, "want 1..10000")
	case p.CurriculumEvery > 0 && (p.Nodes == 0 || p.searchesByEPT()):
		return bad("curriculum_every", p.CurriculumEvery, "raises the node budget of alpha-beta: it needs nodes > 0 and a search of alpha-beta")
	case p.DistillEvery > 0 && game != "draughts" && flags&(nnet.EvolvePieceValues|nnet.EvolvePST|nnet.EvolveTerms) == 0:
		return bad("distill_every", p.DistillEvery, "fits the evolved piece values, tables and terms, and this run's nets have none")
	}
	if playouts, _, err := player.ParseSearch(p.Search); err != nil {
		return &ConfigError{Key: game + ".search", Value: strconv.Quote(p.Search),
			Msg: fmt.Sprintf("want \"\" (alpha-beta), \"#LIST\" (alpha-beta with the techniques and parameters of LIST, as \"#rfp_margin=80\") or \"ept:N\" (MCTS-EPT of N playouts a move, N from 1 to %d)", player.MaxPlayouts), Err: err}
	} else if playouts > 0 && p.Nodes > 0 {
		return bad("nodes", p.Nodes, fmt.Sprintf("is alpha-beta's budget: with search = %q the playouts are the budget; want 0", p.Search))
	}
	for _, b := range p.Baselines {
		if err := parseBaseline(b); err != nil {
			return bad("baselines", strconv.Quote(b), err.Error())
		}
	}
	err := p.population(flags, 0).Validate()
	var ce *population.ConfigError
	if !errors.As(err, &ce) {
		return err
	}
	v := ce.Value
	if s, ok := v.(string); ok {
		v = strconv.Quote(s)
	}
	return &ConfigError{Key: game + "." + ce.Field, Value: v, Msg: ce.Err.Error(), Err: err}
}

// settingsOrder is the order of a game section's keys as the daemon has
// always written them, in the settings a run stores and in --print-config
// (the order of PopulationConfig's fields before it embedded
// population.Config): a new run stores the bytes an older version would
// have stored. A section's other keys, the game's own, follow in the
// order of their fields.
var settingsOrder = [...]string{
	"preset", "depth", "nodes", "search", "opening_plies", "max_moves", "format", "quiet_net", "rounds",
	"population", "elite", "hidden", "piece_diff", "self_adaptive", "ladder_champions", "ladder_games",
	"ladder_later_every", "baseline_every", "baseline_later_every", "baselines", "baseline_games", "hall_of_fame", "hall_games", "mutation_scale",
	"table_mutation_scale", "value_mutation_scale", "table_scale_step", "mutation_half_life", "mutation_floor", "fitness_memory", "fitness_caution",
	"racing_games", "racing_confidence", "champion_games", "spsa_games", "spsa_rate", "curriculum_every", "curriculum_games", "curriculum_step",
	"distill_every", "distill_nodes", "learn_every", "learn_games", "learn_nodes", "learn_positions", "learn_explore",
}

// compareKeys orders a game section's keys by settingsOrder.
func compareKeys(a, b string) int {
	rank := func(key string) int {
		if i := slices.Index(settingsOrder[:], key); i >= 0 {
			return i
		}
		return len(settingsOrder)
	}
	return cmp.Compare(rank(a), rank(b))
}

// MarshalJSON writes the draughts settings as a run stores them.
func (d DraughtsConfig) MarshalJSON() ([]byte, error) {
	type fields DraughtsConfig // without this method
	return settingsJSON(fields(d))
}

// MarshalJSON writes the chess settings as a run stores them.
func (c ChessConfig) MarshalJSON() ([]byte, error) {
	type fields ChessConfig
	return settingsJSON(fields(c))
}

// MarshalJSON writes the xiangqi settings as a run stores them.
func (x XiangqiConfig) MarshalJSON() ([]byte, error) {
	type fields XiangqiConfig
	return settingsJSON(fields(x))
}

// settingsJSON returns the JSON object of a game's section with its keys
// in settingsOrder.
func settingsJSON(section any) ([]byte, error) {
	b, err := json.Marshal(section)
	if err != nil {
		return nil, err
	}
	type member struct {
		key   string
		value json.RawMessage
	}
	var members []member
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		m := member{key: fmt.Sprint(t)}
		if err := dec.Decode(&m.value); err != nil {
			return nil, err
		}
		members = append(members, m)
	}
	slices.SortStableFunc(members, func(a, b member) int { return compareKeys(a.key, b.key) })
	out := []byte{'{'}
	for i, m := range members {
		if i > 0 {
			out = append(out, ',')
		}
		key, _ := json.Marshal(m.key)
		out = append(append(append(out, key...), ':'), m.value...)
	}
	return append(out, '}'), nil
}

// orderSections returns the TOML text of a Config with the "key = value"
// lines of every game's table in settingsOrder.
func orderSections(text string) string {
	lines := strings.SplitAfter(text, "\n")
	game := false
	for i := 0; i < len(lines); {
		if line := strings.TrimSpace(lines[i]); strings.HasPrefix(line, "[") {
			game = slices.Contains(games.Names(), strings.Trim(line, "[]"))
			i++
			continue
		}
		j := i
		for j < len(lines) && strings.HasSuffix(lines[j], "\n") && strings.Contains(lines[j], " = ") {
			j++
		}
		if game {
			slices.SortStableFunc(lines[i:j], func(a, b string) int {
				ka, _, _ := strings.Cut(strings.TrimSpace(a), " = ")
				kb, _, _ := strings.Cut(strings.TrimSpace(b), " = ")
				return compareKeys(ka, kb)
			})
		}
		i = max(j, i+1)
	}
	return strings.Join(lines, "")
}

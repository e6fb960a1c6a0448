package population

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"evolved/tournament"
)

// DefaultRacingConfidence is Config.RacingConfidence when it is 0.
const DefaultRacingConfidence = 0.9

// MaxRacingGames bounds Config.RacingGames: ten round robins of 15 agents.
const MaxRacingGames = 2100

// Selection says how sure a generation's choice of its elite was.
type Selection struct {
	// Sure is the probability, under a normal model of each agent's
	// ranking statistic (its points per game, less Config.FitnessCaution
	// standard errors), that the weakest elite is better than the best
	// agent left out: Phi(gap / sqrt(se1^2 + se2^2)). 0.5 is a coin's
	// toss; near 1 the elite was clear.
	Sure float64 `json:"sure"`
	// RaceGames and RaceRounds count the race's games and rounds (0 without
	// racing); Undecided is the agents the race could not place at the
	// stated confidence before its budget ran out, chosen by their
	// statistic alone.
	RaceGames  int `json:"race_games"`
	RaceRounds int `json:"race_rounds"`
	Undecided  int `json:"undecided"`
}

// standing is an agent's ranking statistic and its standard error.
type standing struct{ stat, se float64 }

// standings returns each agent's ranking statistic over r (the
// generation's fitness games so far) and, with fitness memory, its past
// generations: points per game, less caution standard errors, the
// standard error being sigma over the square root of its games. The
// arithmetic converts every product explicitly, so no platform fuses it
// and the result is the same bits everywhere.
func standings[M comparable](cfg Config, agents []Agent, r tournament.Results[M], sigma float64) []standing {
	out := make([]standing, len(agents))
	for i, a := range agents {
		points, games := int64(r.Points[i]), int64(r.Wins[i]+r.Draws[i]+r.Losses[i])
		if cfg.FitnessMemory {
			points, games = points+int64(a.PastPoints), games+int64(a.PastGames)
		}
		g := float64(max(games, 1))
		se := float64(sigma / math.Sqrt(g))
		out[i] = standing{stat: float64(points)/g - float64(cfg.FitnessCaution*se), se: se}
	}
	return out
}

// byStanding sorts slots by statistic, best first, ties by slot.
func byStanding(slots []int, s []standing) {
	slices.SortStableFunc(slots, func(a, b int) int {
		if c := cmp.Compare(s[b].stat, s[a].stat); c != 0 {
			return c
		}
		return a - b
	})
}

// sureOf returns Selection.Sure for a ranking: the probability that the
// agent at rank boundary is better than the one at rank boundary+1.
func sureOf(ranking []int, s []standing, boundary int) float64 {
	if boundary < 1 || boundary >= len(ranking) {
		return 1
	}
	a, b := s[ranking[boundary-1]], s[ranking[boundary]]
	spread := math.Sqrt(float64(a.se*a.se) + float64(b.se*b.se))
	if spread == 0 {
		return 1
	}
	return 0.5 * math.Erfc(-(a.stat-b.stat)/spread/math.Sqrt2)
}

// racer plays a race's rounds: the games given continue the generation's
// numbering from first, their openings from opening.
type racer[M comparable] func(ctx context.Context, schedule []tournament.Pairing, first int) ([]tournament.GameResult[M], error)

// race spends up to cfg.RacingGames more games on the agents whose side of
// the elite boundary is uncertain, and returns the generation's fitness
// games with the race's appended, the ranking and how sure it is.
//
// It is successive elimination: the agents not yet placed are sorted by
// their statistic (standings), the boundary is drawn halfway between the
// last one the elite still has room for and the next, and an agent whose
// interval (its statistic plus or minus z standard errors, z from
// Config.RacingConfidence) lies wholly above the boundary joins the elite,
// wholly below it leaves. The rest play a round: every pair of them one
// game with each colour from one opening, every pair from its own. Then
// again, until every agent is placed or the next round would pass the
// budget; a round that would pass it is played by the agents nearest the
// boundary (in standard errors) that it affords, and what the budget
// leaves undecided is decided by the statistic. The ranking is the elite
// by statistic, then the others by statistic: an agent once placed keeps
// its side, whatever the later games of the others do to their
// statistics (racing against the strongest of the rest lowers them).
//
// r's points and counts are the agents'; its games may also involve the
// hall of fame's champions, slots from len(agents) to slots-1.
func race[M comparable](ctx context.Context, cfg Config, agents []Agent, r tournament.Results[M], slots int, sigma float64,
	openings int, play racer[M]) (tournament.Results[M], []int, Selection, error) {
	n := len(agents)
	z := math.Sqrt2 * math.Erfinv(cmp.Or(cfg.RacingConfidence, DefaultRacingConfidence))
	var in, out []int
	open := make([]int, n)
	for i := range open {
		open[i] = i
	}
	var sel Selection
	for {
		s := standings(cfg, agents, r, sigma)
		byStanding(open, s)
		room := cfg.Elite - len(in)
		if room <= 0 || room >= len(open) {
			break
		}
		boundary := (s[open[room-1]].stat + s[open[room]].stat) / 2
		var newIn, newOut []int
		newIn, newOut, open = place(open, s, boundary, z)
		in, out = append(in, newIn...), append(out, newOut...)
		if room = cfg.Elite - len(in); room <= 0 || room >= len(open) {
			continue // every agent is placed now: the top of the loop ends it
		}
		left := cfg.RacingGames - sel.RaceGames
		racing := len(open)
		for racing >= 2 && racing*(racing-1) > left {
			racing--
		}
		if racing < 2 {
			break
		}
		var schedule []tournament.Pairing
		schedule, openings = roundRobin(closest(open, s, boundary, racing), openings)
		games, err := play(ctx, schedule, len(r.Games))
		if err != nil {
			return r, nil, sel, fmt.Errorf("race round %d: %w", sel.RaceRounds+1, err)
		}
		if len(games) != len(schedule) { // the budget must shrink every round, or the race would not end
			return r, nil, sel, fmt.Errorf("race round %d: %d games played of %d", sel.RaceRounds+1, len(games), len(schedule))
		}
		r = tournament.Tally(slots, append(slices.Clip(r.Games), games...), cfg.Tournament.Scoring)
		r.Points, r.Wins, r.Draws, r.Losses = r.Points[:n], r.Wins[:n], r.Draws[:n], r.Losses[:n]
		sel.RaceGames += len(games)
		sel.RaceRounds++
	}
	s := standings(cfg, agents, r, sigma)
	byStanding(open, s)
	if room := cfg.Elite - len(in); room > 0 && room < len(open) {
		sel.Undecided = len(open)
	}
	room := min(max(cfg.Elite-len(in), 0), len(open))
	in, out = append(in, open[:room]...), append(out, open[room:]...)
	byStanding(in, s)
	byStanding(out, s)
	ranking := append(in, out...)
	sel.Sure = sureOf(ranking, s, cfg.Elite)
	return r, ranking, sel, nil
}

// place splits the open agents by their standings s against boundary:
// in (surely above it at z standard errors), out (surely below) and the
// undecided, each in open's order.
func place(open []int, s []standing, boundary, z float64) (in, out, undecided []int) {
	for _, i := range open {
		margin := float64(z * s[i].se)
		switch {
		case s[i].stat-margin > boundary:
			in = append(in, i)
		case s[i].stat+margin < boundary:
			out = append(out, i)
		default:
			undecided = append(undecided, i)
		}
	}
	return in, out, undecided
}

// closest returns the racing agents of open nearest boundary in standard
// errors (ties by slot), in slot order: those whose place a round's games
// decide best.
func closest(open []int, s []standing, boundary float64, racing int) []int {
	runners := slices.Clone(open)
	slices.SortStableFunc(runners, func(a, b int) int {
		da := math.Abs(s[a].stat-boundary) / max(s[a].se, math.SmallestNonzeroFloat64)
		db := math.Abs(s[b].stat-boundary) / max(s[b].se, math.SmallestNonzeroFloat64)
		if c := cmp.Compare(da, db); c != 0 {
			return c
		}
		return a - b
	})
	runners = runners[:racing]
	slices.Sort(runners)
	return runners
}

// roundRobin returns a round of runners, each pair a pair of games from
// one opening, the openings numbered from openings on, and the next
// opening free.
func roundRobin(runners []int, openings int) ([]tournament.Pairing, int) {
	var schedule []tournament.Pairing
	for x, a := range runners {
		for _, b := range runners[x+1:] {
			schedule = append(schedule, tournament.Pairing{First: a, Second: b, OpeningIndex: openings},
				tournament.Pairing{First: b, Second: a, OpeningIndex: openings})
			openings++
		}
	}
	return schedule, openings
}

// racer returns the racer of the generation: its games through the Env,
// as its tournament's.
//
// It plays the title match's games too (Config.ChampionGames). The
// observer hears, after each game, the games of the generation done so
// far (the tournament's, the race's and the title match's) and, as the
// total, the tournament's games, the whole racing budget and the title
// match's: the race usually ends before its budget does, and the match is
// not played when the incumbent ranks first.
func (g *generation[M, S]) racer() racer[M] {
	return func(ctx context.Context, schedule []tournament.Pairing, first int) ([]tournament.GameResult[M], error) {
		var each func(done, total int)
		if g.obs != nil {
			cfg, st := g.cfg, g.st
			total := cfg.FitnessGames(st.Generation, len(st.Agents)) + cfg.RacingGames + cfg.ChallengeGames(st.Generation)
			each = func(done, _ int) { g.obs.Played(first+done, total) }
		}
		return g.env.Play(ctx, g.game, g.nets, schedule, first, g.cfg.Tournament, g.st.Seed, g.gen, each)
	}
}

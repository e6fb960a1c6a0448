// Package seed derives the seeds of every random choice of a run from the
// run's seed and the choice's coordinates: the game, the generation, the
// purpose and an index. A generation therefore draws the same numbers
// whether it runs in one process or in a resumed one, with one worker or
// many, and in whatever order its games are scheduled.
package seed

import (
	"hash/fnv"
	"math/rand/v2"
)

// Purpose names what a random stream is for; streams of different purposes
// never share numbers.
type Purpose string

// The purposes used across evolved. A new use of randomness gets its own.
const (
	Init      Purpose = "init"      // random initial genomes
	Mutation  Purpose = "mutation"  // mutation of one offspring
	Crossover Purpose = "crossover" // choice of the swapped node
	Opening   Purpose = "opening"   // random opening plies of a game
	Schedule  Purpose = "schedule"  // opponents drawn by a tournament format
	Player    Purpose = "player"    // a player's own choices in one game
	Match     Purpose = "match"     // games of a match outside evolution
	Baseline  Purpose = "baseline"  // baseline evaluation games
	Ladder    Purpose = "ladder"    // champion ladder games
	// Curriculum seeds the games that decide whether a run's node budget
	// rises (population.Config.CurriculumEvery).
	Curriculum Purpose = "curriculum"
	Rating     Purpose = "rating" // rating games against a calibrated ladder
	// Tune draws the directions of an SPSA tuning's pairs (package tune).
	Tune Purpose = "tune"
	// Learner draws the perturbation of a mutant's learning settings
	// (population.Config.LearnExplore), index the mutation's.
	Learner Purpose = "learner"
)

// Derive returns the seed for (run, game, generation, purpose, index).
// Equal inputs give equal seeds; any difference gives an unrelated one.
func Derive(run uint64, game string, generation int, purpose Purpose, index int) uint64 {
	h := fnv.New64a()
	var buf [8]byte
	put := func(v uint64) {
		for i := range buf {
			buf[i] = byte(v >> (8 * i))
		}
		h.Write(buf[:])
	}
	put(run)
	h.Write([]byte(game))
	h.Write([]byte{0})
	put(uint64(generation))
	h.Write([]byte(purpose))
	h.Write([]byte{0})
	put(uint64(index))
	return mix(h.Sum64())
}

// Rand returns a generator seeded with Derive(run, game, generation, purpose, index).
func Rand(run uint64, game string, generation int, purpose Purpose, index int) *rand.Rand {
	s := Derive(run, game, generation, purpose, index)
	return rand.New(rand.NewPCG(s, mix(s)))
}

// Split returns a further seed derived from s and i, for streams inside a
// derived one (the two players of a game, say).
func Split(s uint64, i int) uint64 { return mix(s ^ mix(uint64(i)+0x9E3779B97F4A7C15)) }

// mix is the splitmix64 finaliser: it spreads every input bit over the output.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 27
	x *= 0x94D049BB133111EB
	return x ^ x>>31
}

// Package metaheuristic is the chess lab: three metaheuristics that learn
// to play chess against an opponent engine from a given start (the
// standard position, a FEN, and moves played from it), after a classic
// student project, made reproducible and parallel.
//
// The learner plays the side to move at the start. A game ends when the
// rules end it or once the learner has made Config.Turns moves and the
// opponent has answered the last. Its cost (Weights.Cost) is the material
// balance of the final position from the learner's side, a checkmated side
// counting as having lost its king; higher is better, and with the default
// weights a mate outweighs any material.
//
// What the methods learn is, in each case, a table from boards (the learner
// to move; see Board) to moves:
//
//   - Ant colony (RunACO, aco.go): a value per move of every position met.
//     Each iteration lets ACOConfig.Ants ants play a game each, drawing
//     their moves with probability (v + |min V|) / (sum V + n |min V|)
//     (adventurous mode), optionally with the tolerance variant, which
//     multiplies the weight of every move but the best by a factor in
//     (0, 1]. Then, ant by ant, every move an ant played gets (i/m) * cost
//     added (i the move's number from 1, m the ant's number of moves), and
//     every position visited in the iteration keeps 1 - dissipation of its
//     values. Greedy mode (testing, Pheromones.Player) plays the move of
//     highest value.
//   - Genetic search over games (RunGA, ga.go): an individual maps boards
//     to moves, learnt by playing (random moves where it knows none). Each
//     iteration keeps the best share by cost, keeps a global best, and
//     breeds the rest by a crossover that, where both parents know a
//     board, takes a parent's move with probability proportional to its
//     cost shifted to be at least 1 (cost - lowest kept cost + 1); each
//     child's cost is that of the game it then plays.
//   - Simulated annealing (RunSA, sa.go): a saved line (the learner's moves
//     and the opponent's replies) is replayed each iteration, each learner
//     move replaced by a random one with probability equal to the
//     temperature, which falls linearly from T0; a better game replaces the
//     line.
//
// Every method returns a Result whose Table is written in the classic
// two-line pheromone format (Pheromones.Write, ReadPheromones) and played
// greedily by Pheromones.Player, so that a stored run can be matched
// against any other player.
//
// # Where this differs from the classic project
//
//   - A run is reproducible: every random choice, the opponent's NewGame
//     seeds included, is drawn from seed.Derive(run seed, "meta-"+method,
//     iteration, purpose, game index), and the games of an iteration,
//     played in parallel (Config.Workers), are merged in index order, so
//     the results do not depend on the number of workers or on timing.
//   - The ants of one iteration all see the table as it was when the
//     iteration began; positions they discover enter it at the update,
//     every move at InitialPheromone (1).
//   - Degenerate draws are defined: when all of a position's values are
//     equal the draw is uniform (the classic formula divides by zero when
//     they are all 0 or equal and negative). As in the classic formula, a
//     move whose value is its position's minimum gets probability 0 when
//     that minimum is 0 or negative and not every value equals it.
//   - The board key lacks the side to move, castling rights and the en
//     passant square, as the classic key does; a stored move is only ever
//     played where it is legal, so positions that share a board cannot
//     make the learner play an illegal move.
//   - The opponent may be memoised (Config.MemoOpponent), which the
//     classic project did not do; it is off by default.
//
// # Choosing weights
//
// The cost is absolute, not relative to the start: from a position where
// the learner is a rook up, every game that keeps the rook scores +7, so
// every move played gains value whatever it did, and the ant colony, the
// tolerance variant most, settles on the first lines it reinforced. When
// only mate matters, weights that count the king alone
// ("p=0,n=0,b=0,r=0,q=0") leave every other game at 0 and the search
// uniform until a mate is found.
//
// Nothing here keeps package-level state; a run's Result belongs to its
// caller.
package metaheuristic

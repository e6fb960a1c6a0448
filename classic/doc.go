// Package classic reproduces a classic command-line xiangqi program, our
// baseline, as two built-in players: `classic`, the program itself, and
// `classic+`, its evaluation on our own search.
//
// The classic program searched with plain minimax and alpha-beta to a
// depth of 3 to 5 plies at about 60,000 nodes per second, with no opening
// book. What this package reproduces of it:
//
//   - The piece strengths (Strength): general 1,000,000, advisor and
//     elephant 110, horse 300, chariot 600, cannon 500, soldier 70.
//   - The position tables: ElephantEye's opening and middlegame
//     piece-square tables (game/xiangqi/tables.go says which and where the
//     numbers come from), Red's view, read upside down for Black.
//   - The evaluation (Evaluate, Terms): per side 6*Strength + 4*Material +
//     4*Threat + Mobility + Control, and the difference between the side
//     to move and the other. Mobility weighs pseudo-legal moves: 13 per
//     horse move, 7 per chariot or cannon move, 15 per soldier move.
//   - The move ordering (OrderMoves): captures of strong pieces by weak
//     pieces first, by the pieces' strengths, then quiet moves in
//     generation order.
//   - The depth (Depth): trunc(7.3 - 0.11*pieces), clamped to 3..9.
//   - The search (Player): fixed-depth fail-hard negamax with alpha-beta,
//     without transposition table, quiescence search or iterative
//     deepening, blind to repetitions.
//
// Where the description we have of the program leaves a term open, the
// package chooses and says so in the doc comments of Terms: Strength
// leaves the general out (each side always has it), Material is the sum
// of the position-table values, Threat gives 20 per chariot or horse and
// 10 per cannon or soldier across the river (ElephantEye's 2:1 attack
// weights), and Control counts every attacked square once, twice across
// the river and three times in the enemy palace.
//
// What differs from the classic program:
//
//   - A game ends when the side to move has no legal move, as in our
//     rules engine, not when a general is captured: no position without a
//     general ever arises, and the search scores a side without a legal
//     move at a node with depth left as mated, taking the general's
//     strength as the mate value so that nearer mates score higher.
//   - It is about 45 to 100 times faster than the original's 60,000 nodes per
//     second (BenchmarkSearch reports nodes per second), so it plays the
//     same moves in far less time: besides a faster machine and move
//     generator, it keeps the piece-square part of the evaluation up to
//     date move by move, and skips the activity terms of leaves that the
//     piece-square part alone puts outside the window, which changes
//     neither the tree nor the result.
//   - Player reports its scores in search's units (Evaluate/Scale, and
//     search.Win for mates), so that they compare with other players'.
//
// classic+ (NewPlus) keeps the evaluation, divided by Scale to fit
// search.MaxEval, and searches it with search.AlphaBeta: iterative
// deepening under a time limit per move (1 s by default) and a depth cap,
// a transposition table, killer and history ordering, quiescence search
// on captures and check evasions, and repetition draws.
//
// The package holds no mutable state: its tables are built once at
// initialisation and only read. Evaluate, Breakdown, OrderMoves and a
// Player's search do not allocate.
package classic

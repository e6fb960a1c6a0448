// Package rating measures how strong a player is on a fixed, calibrated
// Elo scale rather than against whatever happened to be in its population.
//
// A scale is a Ladder: anchor players with fixed ratings. For chess and
// xiangqi the anchors are Stockfish and Fairy-Stockfish at UCI_Elo levels
// (the engines' own calibrated scale) continued below their lowest level by
// the project's own players, fitted once against them; for draughts, which
// has no calibrated engine on our registries, the anchors are the project's
// own players, fitted once from a round robin among them (Calibrate) with
// one of them at 0. The ladders ship as TOML files in ladders/ with the
// command that made them.
//
// Rate plays a player against anchors chosen near its strength (Plan) in
// rounds of colour-swapped game pairs and estimates its rating by maximum
// likelihood over all games (elo.Fit) in Ordo's logistic model, the first
// move's advantage fitted and draws counted as half a win and in the
// variance, so that a rating difference is the one a match's score
// implies. The anchors are held at their ratings, so an interval says how
// well the games place the player on the scale, not how well the scale
// itself was fitted.
package rating

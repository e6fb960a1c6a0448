// Package elo holds the Elo and likelihood maths every rating in evolved
// uses, and nothing else: it imports only the standard library, so that
// the genetic algorithm (population), the calibrated scales (rating), the
// sequential tests (sprt) and the commands share one copy of each formula
// without depending on each other.
//
// The model is the logistic one: a player rated d Elo above its opponent
// expects a score of 1/(1+10^(-d/400)) (Expected; Diff is its inverse), a
// draw counting half a win. Estimate turns a match's tally into the Elo
// difference it implies with an interval. Fit estimates ratings by maximum
// likelihood from games among several players, some held at fixed
// ratings, with a fitted first-move advantage (Ordo's model); Pool does
// the same for players none of whom is fixed, on a scale of mean 0.
//
// All functions are pure and safe for concurrent use.
package elo

// Package cputime reads the CPU time the process has used. Benchmarks
// report their rates per CPU second next to those per wall-clock second:
// on a shared machine the wall clock also counts the time other processes
// held the CPU, and the CPU time is the steadier figure to compare two
// builds by.
package cputime

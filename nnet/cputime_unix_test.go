//go:build unix

package nnet

import "syscall"

// cpuSeconds returns the user and system CPU time of the process so far,
// or 0 if it cannot tell. Benchmarks report evaluations per CPU second next
// to those per wall-clock second, because on a shared machine the wall clock
// also counts the time other processes held the CPU.
func cpuSeconds() float64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return float64(u.Utime.Nano()+u.Stime.Nano()) / 1e9
}

//go:build !unix

package nnet

// cpuSeconds returns 0: the process's CPU time is not measured here (see
// cputime_unix_test.go).
func cpuSeconds() float64 { return 0 }

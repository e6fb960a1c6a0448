//go:build !unix

package cputime

// Seconds returns 0: the process's CPU time is not measured here (see
// cputime_unix.go).
func Seconds() float64 { return 0 }

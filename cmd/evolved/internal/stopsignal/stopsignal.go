// Package stopsignal catches SIGINT and SIGTERM from the first moments of
// the process, so that a stop signal sent while it starts is a request to
// stop, not a kill.
//
// Until a program calls signal.Notify, the Go runtime lets SIGINT and
// SIGTERM take their default action: the process dies at once (exit status
// 130 or 143), without a word in its log. Package main is initialised
// last, after every package it imports, which for evolved takes tens of
// milliseconds; this package imports only os/signal and its dependencies,
// so its init runs among the first (package initialisation goes in
// dependency order, the lexically smallest import path first), and from
// then on a stop signal waits in a buffered channel for NotifyContext. The
// residual window is the process's own start: exec, the runtime's set-up
// and the initialisation of os/signal and of the packages the import order
// puts before it, before any Go code can ask for a signal (the runtime's
// init trace, GODEBUG=inittrace=1, shows this init 7 to 19 ms after the
// runtime's start on a loaded two-core machine, main's 30 or more;
// cmd/evolved's signal_test.go has the measurements from outside).
package stopsignal

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// caught receives SIGINT and SIGTERM from init on. One signal is enough to
// stop; the buffer keeps it until NotifyContext reads it, and the signals
// that find it full are dropped (the program is already stopping).
var caught = make(chan os.Signal, 1)

func init() {
	signal.Notify(caught, os.Interrupt, syscall.SIGTERM)
}

// NotifyContext returns a copy of parent that is cancelled when SIGINT or
// SIGTERM arrives, or at once if one arrived since the process started.
// Call it once. stop releases the context's resources; the signals stay
// caught after it, so that a late one cannot kill the process as it exits
// with its own status.
func NotifyContext(parent context.Context) (ctx context.Context, stop context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	go func() {
		select {
		case <-caught:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// Reset gives SIGINT and SIGTERM back their default action, for a program
// that imports the package but never calls NotifyContext: a test binary,
// which does not run main and should die when interrupted.
func Reset() {
	signal.Stop(caught)
}

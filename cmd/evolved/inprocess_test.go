package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
)

// inProcess is a command line run in-process through run, with dir as the
// working directory and $EVOLVED_DB unset, as the tests run the binary:
// the stand-in for the binary wherever a separate process is not what is
// tested, at the cost of a function call. Its fields and methods mirror
// exec.Cmd's; a failure is an *exitError carrying the status main would
// exit with. The tests that use it change the working directory and the
// environment, so they must not run in parallel (t.Chdir and t.Setenv
// enforce it).
type inProcess struct {
	t              *testing.T
	dir            string
	args           []string
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// evolvedIn returns the command line args, to run in-process in dir.
func evolvedIn(t *testing.T, dir string, args ...string) *inProcess {
	return &inProcess{t: t, dir: dir, args: args}
}

// exitError is an in-process run that failed: the status main would exit
// with, and the standard error Output captured.
type exitError struct {
	code   int
	Stderr []byte
}

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// ExitCode returns the exit status, as exec.ExitError's does.
func (e *exitError) ExitCode() int { return e.code }

// Run runs the command line to its end and returns its failure, if any.
func (c *inProcess) Run() error {
	c.t.Helper()
	c.enter()
	return c.run(c.t.Context())
}

// enter makes the process state the binary would run in: dir as the
// working directory and $EVOLVED_DB unset, both restored when the test
// ends.
func (c *inProcess) enter() {
	c.t.Helper()
	c.t.Chdir(c.dir)
	c.t.Setenv("EVOLVED_DB", "")
}

// run runs the command line with ctx, as main does with its signals'
// context: run, then exitCode on standard error.
func (c *inProcess) run(ctx context.Context) error {
	stdin, stdout, stderr := c.Stdin, c.Stdout, c.Stderr
	if stdin == nil {
		stdin = strings.NewReader("") // as /dev/null
	}
	if stdout == nil {
		stdout = io.Discard
	}
	if stderr == nil {
		stderr = io.Discard
	}
	if code := exitCode(run(ctx, c.args, stdin, stdout, stderr), stderr); code != 0 {
		return &exitError{code: code}
	}
	return nil
}

// Output runs the command line and returns its standard output; a failure
// carries its standard error.
func (c *inProcess) Output() ([]byte, error) {
	c.t.Helper()
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	err := c.Run()
	if e, ok := err.(*exitError); ok {
		e.Stderr = stderr.Bytes()
	}
	return stdout.Bytes(), err
}

// CombinedOutput runs the command line and returns its standard output
// and standard error as they interleaved.
func (c *inProcess) CombinedOutput() ([]byte, error) {
	c.t.Helper()
	var out lockedBuffer
	c.Stdout, c.Stderr = &out, &out
	err := c.Run()
	return []byte(out.String()), err
}

// Start runs the command line in the background, its output interleaved
// in out; stop cancels its context, as SIGINT and SIGTERM cancel main's,
// waits for it to return, and returns its failure, if any. The test stops
// it when it ends, if it has not.
func (c *inProcess) Start() (out *lockedBuffer, stop func() error) {
	c.t.Helper()
	out = new(lockedBuffer)
	c.Stdout, c.Stderr = out, out
	ctx, cancel := context.WithCancel(c.t.Context())
	c.enter()
	done := make(chan error, 1)
	go func() { done <- c.run(ctx) }()
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() {
			cancel()
			err = <-done
		})
		return err
	}
	c.t.Cleanup(func() { stop() })
	return out, stop
}

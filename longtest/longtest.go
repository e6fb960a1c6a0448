// Package longtest gates the tests whose value is their length: strength
// matches, soak runs, and the full-size versions of checks that a
// developer's `go test ./...` runs small. Setting $EVOLVED_LONG, as .ci/run
// does, runs them; there is one switch so that every long test answers to
// the same name.
package longtest

import (
	"os"
	"testing"
)

// Env is the environment variable that runs the long tests when it is set
// to anything but the empty string.
const Env = "EVOLVED_LONG"

// Enabled reports whether $EVOLVED_LONG asks for the long tests. A test
// that checks the same thing at two sizes runs the full one when it is
// true.
func Enabled() bool { return os.Getenv(Env) != "" }

// Skip skips t, naming what makes it long, unless the long tests are
// enabled.
func Skip(t testing.TB, what string) {
	t.Helper()
	if !Enabled() {
		t.Skipf("long: %s (set %s=1, as .ci/run does, to run it)", what, Env)
	}
}

package main

import (
	"errors"
	"flag"
	"strconv"
)

// optionalInt is an int flag whose absence means something a number cannot
// say ("the latest generation", "the target from the configuration"). Its
// unset value prints as "", so -h shows the default the usage text words
// instead of a sentinel such as "(default -1)".
type optionalInt struct {
	n   int
	set bool // a value was given
}

// String returns the value given, or "" when none was.
func (o *optionalInt) String() string {
	if o == nil || !o.set {
		return ""
	}
	return strconv.Itoa(o.n)
}

// Set parses a whole number, as flag.Int does.
func (o *optionalInt) Set(s string) error {
	n, err := strconv.ParseInt(s, 0, strconv.IntSize)
	if err != nil {
		return errors.New("not a whole number")
	}
	o.n, o.set = int(n), true
	return nil
}

// get returns the value given, or def when none was.
func (o *optionalInt) get(def int) int {
	if !o.set {
		return def
	}
	return o.n
}

// flagSet reports whether the command line gave the flag name; it is
// meaningful once fs is parsed.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// countVar defines an int flag that refuses a negative number when it is
// parsed (`--concurrency -3`, `--max-moves -1`), with the flag package's
// own "invalid value" message naming the flag.
func countVar(fs *flag.FlagSet, p *int, name string, value int, usage string) {
	*p = value
	fs.Func(name, usage, func(s string) error {
		n, err := strconv.ParseInt(s, 0, strconv.IntSize)
		switch {
		case err != nil:
			return errors.New("not a whole number")
		case n < 0:
			return errors.New("must not be negative")
		}
		*p = int(n)
		return nil
	})
}

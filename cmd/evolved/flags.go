package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"evolved/climb"
	"evolved/storage"
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

// generationMark is a flag that names a generation of a run by its
// number, N, or by the hours of evolution behind it, Hh (6h, 0.5h, 72h):
// the first generation whose time of evolution, its own seconds included,
// reaches H hours (climb.GenerationAtHours), the generation climb
// --every-hours plays at that mark. Runs are compared at equal hours of
// their own evolution; the mark saves looking the generation up.
type generationMark struct {
	n       int
	hours   float64
	inHours bool // the mark is hours, not a number
	set     bool // a value was given
}

// String returns the mark given, or "" when none was.
func (m *generationMark) String() string {
	switch {
	case m == nil || !m.set:
		return ""
	case m.inHours:
		return strconv.FormatFloat(m.hours, 'g', -1, 64) + "h"
	}
	return strconv.Itoa(m.n)
}

// Set parses a whole number or a number of hours followed by h.
func (m *generationMark) Set(s string) error {
	if h, ok := strings.CutSuffix(s, "h"); ok {
		hours, err := strconv.ParseFloat(h, 64)
		if err != nil || hours < 0 || math.IsInf(hours, 0) || math.IsNaN(hours) {
			return errors.New("not a number of hours of evolution, 0 or more (6h, 0.5h)")
		}
		*m = generationMark{hours: hours, inHours: true, set: true}
		return nil
	}
	n, err := strconv.ParseInt(s, 0, strconv.IntSize)
	if err != nil {
		return errors.New("not a whole number, nor hours of evolution (6h)")
	}
	*m = generationMark{n: int(n), set: true}
	return nil
}

// generationNumber returns the mark of generation n.
func generationNumber(n int) generationMark { return generationMark{n: n, set: true} }

// negative reports whether the mark is a negative generation number, which
// the commands refuse in their own words.
func (m *generationMark) negative() bool { return m.set && !m.inHours && m.n < 0 }

// generation returns the generation the mark names in the run whose
// champions, in order of generation, champions returns (called only for
// a mark in hours), or def when no mark was given. A mark in hours past
// the run's time of evolution is a usage error naming the command cmd, the
// flag and how long the run has evolved.
func (m *generationMark) generation(cmd, flag string, def int, champions func() ([]storage.ChampionRow, error)) (int, error) {
	switch {
	case !m.set:
		return def, nil
	case !m.inHours:
		return m.n, nil
	}
	rows, err := champions()
	if err != nil {
		return 0, err
	}
	g, ok := climb.GenerationAtHours(rows, m.hours)
	if ok {
		return g, nil
	}
	if len(rows) == 0 {
		return 0, usagef("%s: --%s %s: the run has played no generation yet", cmd, flag, m)
	}
	seconds := 0.0
	for _, r := range rows {
		seconds += r.Seconds
	}
	return 0, usagef("%s: --%s %s: the run has evolved %.4g hours, to generation %d", cmd, flag, m, seconds/3600, rows[len(rows)-1].Generation)
}

// flagSet reports whether the command line gave the flag name; it is
// meaningful once fs is parsed.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// dbDefault is how every --db that falls back on the default database
// says so in -h, in storage.DefaultPath's terms.
var dbDefault = fmt.Sprintf("(default: %s, or $%s)", storage.DefaultName, storage.EnvDB)

// dbNoDefault is how a --db that is one of a command's sources, beside an
// agent file or a player (play, rate, show), says in -h that it has none:
// the default database is read only by name there.
var dbNoDefault = fmt.Sprintf("(no default here: not %s, nor $%s)", storage.DefaultName, storage.EnvDB)

// dbVar defines --db, the database FILE of a command, which is
// storage.DefaultPath unless the flag is given. Its -h words the default
// as dbDefault, the same for every command and whatever $EVOLVED_DB holds
// when -h runs.
func dbVar(fs *flag.FlagSet, p *string, usage string) {
	*p = defaultDB()
	fs.Var(&givenString{p: p}, "db", usage+" "+dbDefault)
}

// dbFlag is dbVar for a command that keeps the path in a variable of its
// own: it returns the address of the path, as fs.String does.
func dbFlag(fs *flag.FlagSet, usage string) *string {
	p := new(string)
	dbVar(fs, p, usage)
	return p
}

// givenString is a string flag whose default, in place before parsing,
// -h does not print as a value: its usage words it instead (dbVar).
type givenString struct {
	p   *string
	set bool // a value was given
}

// String returns the value given, or "" when none was.
func (s *givenString) String() string {
	if s == nil || !s.set {
		return ""
	}
	return *s.p
}

// Set stores the value given.
func (s *givenString) Set(v string) error {
	*s.p, s.set = v, true
	return nil
}

// playVars defines --concurrency and --seed as every command that plays
// seeded games between players (match, rate, ladder) words them: how many
// games at once, at most, and the seed of the openings and of the
// players' random choices, which decides the games whatever the
// concurrency.
func playVars(fs *flag.FlagSet, concurrency *int, seed *uint64) {
	countVar(fs, concurrency, "concurrency", 0, "play `C` games at once (default: the number of CPUs)")
	fs.Uint64Var(seed, "seed", 1, "seed `S` of the openings and of the players' random choices")
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

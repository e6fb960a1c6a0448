// Command evolved evolves populations of neural-network game agents by
// self-play and offers the tools around them: perft, matches, export, play.
//
// Run `evolved help` for the list of commands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"

	"evolved/chess960"
	"evolved/cluster"
	"evolved/cmd/evolved/internal/stopsignal"
	"evolved/daemon"
	"evolved/lab"
	"evolved/metaheuristic"
	"evolved/population"
	"evolved/web"
)

func main() {
	// SIGINT and SIGTERM are caught from stopsignal's init on, long before
	// main, so that a stop signal in the first milliseconds stops the
	// command as one later does (the daemon logs it and exits 0).
	ctx, stop := stopsignal.NotifyContext(context.Background())
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// usageError is a command line that could not be understood: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// usagef returns a usageError with a formatted message.
func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// configErrors are the sentinels that the packages wrap around an error
// about a setting (a key of the configuration file, an $EVOLVED_*
// variable, a flag's value checked by the package that reads it): such an
// error is a configuration error however deep it comes from and however
// the command wraps it.
var configErrors = []error{
	daemon.ErrConfig, daemon.ErrRunMismatch, population.ErrConfig, web.ErrConfig, cluster.ErrConfig,
	metaheuristic.ErrConfig, lab.ErrSetting, chess960.ErrConfig,
}

// exitCode reports err on stderr and returns the process exit status: 0 for
// success and for an explicit request for help, 2 for a bad command line or
// configuration (a usageError, or an error wrapping one of configErrors),
// 1 for any other failure.
func exitCode(err error, stderr io.Writer) int {
	var ue *usageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue), slices.ContainsFunc(configErrors, func(c error) bool { return errors.Is(err, c) }):
		fmt.Fprintf(stderr, "evolved: %v\n", err)
		return 2
	default:
		fmt.Fprintf(stderr, "evolved: %v\n", err)
		return 1
	}
}

// command is one subcommand: its flags are registered on a fresh FlagSet,
// then run is called with the remaining arguments parsed.
type command struct {
	name    string
	summary string
	// modes are the modes of a command whose first argument names one,
	// each parsing its own flags (evolved chess960 ga|enumerate|bench ...);
	// nil for a command without modes.
	modes []mode
	// setup registers the command's flags and returns the function that
	// runs it once they are parsed.
	setup func(fs *flag.FlagSet) action
}

// mode is one mode of a command with modes: its flags are registered on a
// FlagSet of their own, named after the command and the mode.
type mode struct {
	name    string
	summary string
	setup   func(fs *flag.FlagSet) action
}

// action runs a command once its flags are parsed. It reads and writes
// only the streams it is given (the process's own in main, buffers in the
// tests), so that run can be called in-process.
type action func(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer) error

// commands lists the subcommands in the order help shows them.
func commands() []command {
	return []command{
		{name: "run", summary: "evolve the populations, checkpointing every generation (the daemon)", setup: runCommand},
		{name: "worker", summary: "play the games of a daemon started with --nats on this machine", setup: workerCommand},
		{name: "serve", summary: "serve a database's web site: curves, games, play, /metrics", setup: serveCommand},
		{name: "status", summary: "show each population's progress", setup: statusCommand},
		{name: "champions", summary: "list a population's champions by generation", setup: championsCommand},
		{name: "export", summary: "write a champion to an agent file", setup: exportCommand},
		{name: "check", summary: "check a database: SQLite's integrity, and the genomes kept whole", setup: checkCommand},
		{name: "show", summary: "describe an agent: search, net, piece values, positional terms", setup: showCommand},
		{name: "plot", summary: "draw a population's learning curves as SVG or PNG", setup: plotCommand},
		{name: "climb", summary: "does the run still climb? every N-th champion against generation 0", setup: climbCommand},
		{name: "play", summary: "play a game against a champion or a built-in player in the terminal", setup: playCommand},
		{name: "uci", summary: "run an exported chess agent as a UCI engine (for chess GUIs)", setup: uciCommand},
		{name: "match", summary: "play games between two players: the score and the Elo difference", setup: matchCommand},
		{name: "distill", summary: "fit an agent's evaluation to its own searches of games' positions", setup: distillCommand},
		{name: "selfplay", summary: "play an agent against itself into a position store, for train", setup: selfplayCommand},
		{name: "train", summary: "train an agent's perspective net on a position store", setup: trainCommand},
		{name: "tune", summary: "tune the search's parameters for a player by SPSA on game pairs", setup: tuneCommand},
		{name: "rate", summary: "rate a player on its game's calibrated Elo scale", setup: rateCommand},
		{name: "ladder", summary: "fit the ratings of a rating ladder's own players", setup: ladderCommand},
		{name: "perft", summary: "count the leaf nodes of a game's move tree (rules check and speed)", setup: perftCommand},
		{name: "suite", summary: "count the positions of a chess test suite a player solves", setup: suiteCommand},
		{name: "meta", summary: "the chess lab: ant colony, genetic search, simulated annealing", setup: metaCommand},
		{name: "chess960", summary: "search the Chess960 back ranks: classic GA, enumeration, benchmark", setup: chess960Command, modes: chess960Modes()},
		{name: "version", summary: "print the build: module version, commit, commit time, modified tree", setup: versionCommand},
	}
}

// run executes the command line args (without the program name), reading
// stdin and writing stdout and stderr only. Its error is what main reports
// with exitCode.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		printUsage(stderr)
		return usagef("no command given")
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "-help" || name == "--help" {
		if len(args) > 1 {
			return dispatch(ctx, args[1], []string{"-h"}, stdin, stdout, stdout)
		}
		printUsage(stdout)
		return nil
	}
	if name == "-version" || name == "--version" {
		name = "version"
	}
	return dispatch(ctx, name, args[1:], stdin, stdout, stderr)
}

// dispatch parses the flags of the named command and runs it.
func dispatch(ctx context.Context, name string, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	for _, c := range commands() {
		if c.name != name {
			continue
		}
		fs := flag.NewFlagSet("evolved "+name, flag.ContinueOnError)
		fs.SetOutput(stderr)
		exec := c.setup(fs)
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			return &usageError{msg: err.Error()}
		}
		if fs.NArg() > 0 && c.modes == nil {
			return usagef("%s: unexpected argument %q", name, fs.Arg(0))
		}
		return exec(ctx, stdin, stdout, stderr)
	}
	return usagef("unknown command %q (run 'evolved help' for the list)", name)
}

// printUsage writes the list of commands.
func printUsage(w io.Writer) {
	fmt.Fprintln(w, "evolved evolves game-playing neural networks by self-play.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: evolved <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands() {
		lead := fmt.Sprintf("  %-10s ", c.name)
		io.WriteString(w, hang(lead, wrap(words(c.summary), helpWidth-len(lead))))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'evolved help <command>' or 'evolved <command> -h' for a command's flags.")
}

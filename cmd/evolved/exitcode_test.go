package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evolved/storage"
)

// TestConfigurationErrorsExit2 runs broken configurations through the
// commands: a setting that cannot work exits 2, as the help promises for
// a bad command line or configuration, whichever layer gave it (the file,
// an $EVOLVED_* variable, a flag) and however deep the package that refuses
// it; the message names the key or flag and its value. Failures of the
// run itself (no database, a server out of reach, a file missing) exit 1.
// The cases marked "was 1" exited 1 before issue 60.
func TestConfigurationErrorsExit2(t *testing.T) {
	write := func(t *testing.T, dir, name, content string) string {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return name
	}
	// emptyDB creates an evolved database without a run.
	emptyDB := func(t *testing.T, dir string) {
		t.Helper()
		db, err := storage.Open(context.Background(), filepath.Join(dir, "evolved.db"), storage.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
	args := func(a ...string) func(*testing.T, string) []string {
		return func(*testing.T, string) []string { return a }
	}
	cases := []struct {
		name    string
		env     map[string]string
		prepare func(t *testing.T, dir string) []string
		code    int
		want    string
	}{
		// The daemon's own checks of its configuration (these exited 2 already).
		{"run: unknown key in the file", nil, func(t *testing.T, dir string) []string {
			return []string{"run", "--config", write(t, dir, "c.toml", "[draughts]\ndepht = 3\n")}
		}, 2, "unknown key draughts.depht"},
		{"run: bad $EVOLVED_WORKERS", map[string]string{"EVOLVED_WORKERS": "many"}, args("run", "--generations", "1"),
			2, `workers = "many": not a whole number (from $EVOLVED_WORKERS)`},
		{"run: negative --workers", nil, args("run", "--workers", "-2", "--generations", "1"), 2, "workers = -2"},

		// Settings that the packages under the daemon refuse (was 1).
		{"run: [http] listen beyond loopback without a token", nil, func(t *testing.T, dir string) []string {
			return []string{"run", "--generations", "1", "--config", write(t, dir, "c.toml", "[http]\nlisten = \"0.0.0.0:0\"\n")}
		}, 2, `http.listen: web: bad settings: listen address "0.0.0.0:0" is not loopback`},
		{"run: short $EVOLVED_HTTP_TOKEN", map[string]string{"EVOLVED_HTTP_TOKEN": "abc"}, args("run", "--http", "127.0.0.1:0", "--generations", "1"),
			2, "the access token has 3 characters, fewer than the 16 required"},
		{"run: [http] lab_db is the database", nil, func(t *testing.T, dir string) []string {
			return []string{"run", "--generations", "1", "--config", write(t, dir, "c.toml", "[http]\nlisten = \"127.0.0.1:0\"\nlab_db = \"evolved.db\"\n")}
		}, 2, "the lab database evolved.db is not a file of its own"},
		{"run: embedded NATS beyond loopback without credentials", nil, func(t *testing.T, dir string) []string {
			return []string{"run", "--generations", "1", "--config", write(t, dir, "c.toml", "[cluster]\nnats = \"embedded\"\nlisten = \"0.0.0.0:0\"\n")}
		}, 2, "listening beyond loopback needs credentials (listen 0.0.0.0:0)"},
		{"run: [cluster] listen without a port", nil, func(t *testing.T, dir string) []string {
			return []string{"run", "--generations", "1", "--config", write(t, dir, "c.toml", "[cluster]\nnats = \"embedded\"\nlisten = \"nohost\"\n")}
		}, 2, `listen "nohost"`},
		{"run: $EVOLVED_NATS_USER without a password", map[string]string{"EVOLVED_NATS_USER": "u"}, args("run", "--nats", "embedded", "--generations", "1"),
			2, "takes a user with a password"},
		{"run: configuration differs from the stored run", nil, func(t *testing.T, dir string) []string {
			config := write(t, dir, "c.toml", fastConfig)
			if out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", "1").CombinedOutput(); err != nil {
				t.Fatalf("first run: %v\n%s", err, out)
			}
			return []string{"run", "--generations", "2", "--config",
				write(t, dir, "d.toml", strings.Replace(fastConfig, "[draughts]\n", "[draughts]\nmutation_scale = 0.3\n", 1))}
		}, 2, "the configuration sets draughts.mutation_scale to other values"},
		{"serve: --lab-db is --db", nil, args("serve", "--db", "evolved.db", "--lab-db", "./evolved.db"), 2, "the lab database ./evolved.db is not a file of its own"},
		{"serve: empty --token-file", nil, func(t *testing.T, dir string) []string {
			return []string{"serve", "--token-file", write(t, dir, "token", "\n")}
		}, 2, "token file token is empty"},
		{"worker: --nats that does not parse", nil, args("worker", "--nats", "nats://h:port"), 2, `NATS URL nats://h:port: invalid port ":port"`},
		{"worker: $EVOLVED_NATS_USER without a password", map[string]string{"EVOLVED_NATS_USER": "u"}, args("worker", "--nats", "nats://127.0.0.1:1"),
			2, "$EVOLVED_NATS_USER and $EVOLVED_NATS_PASSWORD go together"},
		{"worker: --tls-cert without --tls-key", nil, args("worker", "--nats", "nats://127.0.0.1:1", "--tls-cert", "c.pem"), 2, "(tls-cert) goes with its key (tls-key)"},

		// Flag values the commands read after parsing (was 1).
		{"climb: unknown --game", nil, func(t *testing.T, dir string) []string {
			emptyDB(t, dir)
			return []string{"climb", "--game", "go"}
		}, 2, `climb: unknown game "go"`},
		{"plot: unknown --game", nil, func(t *testing.T, dir string) []string {
			emptyDB(t, dir)
			return []string{"plot", "--game", "go", "-o", "c.svg"}
		}, 2, `plot: unknown game "go"`},
		{"export: unknown --game", nil, func(t *testing.T, dir string) []string {
			emptyDB(t, dir)
			return []string{"export", "--game", "go", "-o", "a.json"}
		}, 2, `export: unknown game "go"`},
		{"ladder: unknown --game", nil, args("ladder", "--game", "go"), 2, `ladder: unknown game "go"`},
		{"perft: --fen that does not parse", nil, args("perft", "--depth", "1", "--fen", "B:W33"), 2, "perft: --fen: "},
		{"play: --fen that does not parse", nil, args("play", "--game", "chess", "--player", "random", "--fen", "xx"), 2, `play: --fen: chess: parse FEN "xx"`},

		// Other commands' settings (these exited 2 already).
		{"match: bad --sprt", nil, args("match", "--a", "random", "--b", "random", "--sprt", "elo0=x"), 2, `--sprt: sprt: bad test "elo0=x"`},
		{"rate: unknown --game", nil, args("rate", "--game", "go", "--player", "random"), 2, `unknown game "go"`},
		{"meta: bad --weights", nil, args("meta", "--method", "aco", "--opponent", "random", "--weights", "p=x"), 2, `--weights "p=x"`},
		{"chess960: --population 1", nil, args("chess960", "ga", "--population", "1"), 2, "population 1, want at least 2"},
		{"distill: --nodes 0", nil, args("distill", "--agent", "a.json", "--games", "g.pgn", "-o", "b.json", "--nodes", "0"), 2, "--nodes must be 1 to"},

		// Failures of the run, not of its settings.
		{"run: not a database", nil, func(t *testing.T, dir string) []string {
			return []string{"run", "--db", write(t, dir, "notes.txt", "my notes")}
		}, 1, "not an evolved database"},
		{"run: NATS server out of reach", nil, args("run", "--nats", "nats://127.0.0.1:1", "--generations", "1"), 1, "connect to nats://127.0.0.1:1"},
		{"run: --cpuprofile in a missing directory", nil, args("run", "--cpuprofile", "none/cpu.out", "--generations", "1"), 1, "none/cpu.out"},
		{"serve: no database", nil, args("serve", "--listen", "127.0.0.1:0", "--db", "none.db"), 1, "no database"},
		{"serve: missing --token-file", nil, args("serve", "--token-file", "missing"), 1, "token file"},
		{"climb: no run of the game", nil, func(t *testing.T, dir string) []string {
			emptyDB(t, dir)
			return []string{"climb", "--game", "chess"}
		}, 1, "no run of this game"},
		{"plot: no database", nil, args("plot", "--db", "none.db", "-o", "c.svg"), 1, "no database"},
		{"match: missing --openings file", nil, args("match", "--a", "random", "--b", "random", "--openings", "none.pgn"), 1, "none.pgn"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			dir := t.TempDir()
			args := c.prepare(t, dir)
			out, err := evolvedIn(t, dir, args...).CombinedOutput()
			if code := exitCodeOf(err); code != c.code || !strings.Contains(string(out), c.want) {
				t.Errorf("evolved %s: status %d, want %d with %q; output:\n%s", strings.Join(args, " "), code, c.code, c.want, out)
			}
		})
	}
}

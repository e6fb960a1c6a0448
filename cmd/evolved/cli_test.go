package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"evolved/game/xiangqi"
)

// exitStatus runs the command line in-process in a fresh directory and
// returns its output and exit status.
func exitStatus(t *testing.T, args ...string) (string, int) {
	t.Helper()
	out, err := evolvedIn(t, t.TempDir(), args...).CombinedOutput()
	return string(out), exitCodeOf(err)
}

func TestCommandLineContract(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"help"}, 0, "Commands:"},
		{[]string{"help", "perft"}, 0, "Usage: evolved perft"},
		{[]string{"perft", "-h"}, 0, "--divide"},
		{[]string{"run", "-h"}, 0, "--print-config"},
		{nil, 2, "no command given"},
		{[]string{"fly"}, 2, `unknown command "fly"`},
		{[]string{"perft", "--depth", "2", "--bogus"}, 2, "flag provided but not defined: -bogus"},
		{[]string{"perft", "--depth", "0"}, 2, "--depth must be between 1 and 30"},
		{[]string{"perft", "--game", "go", "--depth", "1"}, 2, `unknown game "go"`},
		{[]string{"perft", "--depth", "1", "--fen", "B:W33"}, 2, "square 33 out of range"},
		{[]string{"match", "--a", "random"}, 2, "--a and --b are required"},
		{[]string{"match", "--a", "random", "--b", "material:99"}, 2, "material takes a whole number from 1 to 30"},
		{[]string{"match", "--a", "nofile.json", "--b", "random"}, 2, "no such agent file"},
		{[]string{"match", "--a", "random", "--b", "random", "--colors", "sometimes"}, 2, "--colors must be alternate or fixed"},
		{[]string{"match", "--game", "xiangqi", "--a", "random", "--b", "random", "--fen", "9/9 w"}, 2, "--fen: xiangqi: parse FEN"},
		{[]string{"match", "--game", "chess", "--a", "random", "--b", "random", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1", "--chess960"}, 2, "--fen does not go with"},
		{[]string{"play", "--game", "xiangqi", "--player", "random", "--as", "white"}, 2, "--as must be red or black for xiangqi"},
		{[]string{"champions"}, 1, "no database"},
		{[]string{"status", "--generations", "-2"}, 2, "--generations must be 0 or more"},
		{[]string{"export", "--game", "draughts", "--generation", "x"}, 2, `invalid value "x" for flag -generation: not a whole number`},
		{[]string{"export", "--agent", "3", "--best"}, 2, "--agent names the agent itself"},
		{[]string{"export", "--agent", "-1"}, 2, "--agent must be 0 or more"},
		{[]string{"run", "--print-config", "--workers", "3"}, 0, "workers = 3"},
		{[]string{"serve", "--listen", "0.0.0.0:8080"}, 2, "is not loopback: set an access token"},
		{[]string{"serve", "--listen", "8080"}, 2, `listen address "8080"`},
		{[]string{"serve", "--listen", "127.0.0.1:0", "--db", "none.db"}, 1, "no database"},
		{[]string{"serve", "--token-file", "missing-token"}, 1, "token file"},
		{[]string{"run", "--http", "0.0.0.0:8080", "--generations", "1"}, 2, "http.listen"},
		{[]string{"show"}, 2, "give --agent FILE or --db FILE"},
		{[]string{"show", "--agent", "a.json", "--generation", "3"}, 2, "choose a champion of --db"},
		{[]string{"show", "--agent", "missing.json"}, 1, "missing.json: no such file"},
	}
	for _, c := range cases {
		out, code := exitStatus(t, c.args...)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("evolved %v: status %d, output %q; want status %d and %q", c.args, code, out, c.code, c.want)
		}
	}
}

func TestPerftOutput(t *testing.T) {
	out, code := exitStatus(t, "perft", "--game", "draughts", "--depth", "4")
	if code != 0 {
		t.Fatalf("perft: status %d\n%s", code, out)
	}
	line := regexp.MustCompile(`^depth=(\d+) nodes=(\d+) seconds=\d+\.\d{3} nps=\d+$`)
	want := []string{"7", "49", "302", "1469"}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("perft --depth 4 printed %d lines, want 4:\n%s", len(lines), out)
	}
	for i, l := range lines {
		m := line.FindStringSubmatch(l)
		if m == nil || m[1] != string(rune('1'+i)) || m[2] != want[i] {
			t.Errorf("line %d = %q, want depth=%d nodes=%s in the documented format", i+1, l, i+1, want[i])
		}
	}
	out, _ = exitStatus(t, "perft", "--game", "chess", "--depth", "3")
	if !strings.Contains(out, "depth=3 nodes=8902 ") {
		t.Errorf("chess perft 3: %s", out)
	}
	out, _ = exitStatus(t, "perft", "--game", "xiangqi", "--depth", "3")
	if !strings.Contains(out, "depth=3 nodes=79666 ") {
		t.Errorf("xiangqi perft 3: %s", out)
	}
	out, _ = exitStatus(t, "perft", "--depth", "2", "--divide")
	for _, want := range []string{"9-13: 7\n", "12-16: 7\n", "depth=2 nodes=49 "} {
		if !strings.Contains(out, want) {
			t.Errorf("perft --divide output lacks %q:\n%s", want, out)
		}
	}
}

// TestMatchFENFixedColors checks that --fen starts every game from the
// position and that --colors fixed gives A the first move in each: from a
// mate in one for White, material:1 mates at once every time.
func TestMatchFENFixedColors(t *testing.T) {
	out, code := exitStatus(t, "match", "--game", "chess", "--a", "material:1", "--b", "random", "--games", "6",
		"--fen", "k7/8/1K6/8/8/8/8/7R w - - 0 1", "--colors", "fixed")
	if code != 0 || !strings.Contains(out, "result games=6 wins=6 draws=0 losses=0 ") {
		t.Errorf("match from a mate in one, A always White: status %d\n%s", code, out)
	}
	out, code = exitStatus(t, "match", "--game", "chess", "--a", "material:1", "--b", "random", "--games", "6",
		"--fen", "k7/8/1K6/8/8/8/8/7R w - - 0 1")
	if code != 0 || !strings.Contains(out, "result games=6 wins=3 ") {
		t.Errorf("match from a mate in one, colours alternating: status %d\n%s", code, out)
	}
}

// TestMatchXiangqi plays a short xiangqi match and reads its PGN back.
func TestMatchXiangqi(t *testing.T) {
	dir := t.TempDir()
	out, err := evolvedIn(t, dir, "match", "--game", "xiangqi", "--a", "material:1", "--b", "random", "--games", "4", "--pgn", "games.pgn").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "result games=4 ") {
		t.Fatalf("xiangqi match: %v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "games.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	games, err := xiangqi.ReadRecords(bytes.NewReader(data))
	if err != nil || len(games) != 4 || games[0].Tag("White") != "material:1" || games[1].Tag("White") != "random" {
		t.Errorf("read %d games back (%v):\n%s", len(games), err, data)
	}
}

// TestMatchSearchLimits checks --nodes and --movetime: two rooks against a
// lone king in the centre need seven moves to mate; material:1 cannot see
// a mate and draws by the move limit of eight, while the same player given
// 200,000 nodes a move searches deep enough to mate. (--movetime is only
// checked for its errors here: a test does not time searches.)
func TestMatchSearchLimits(t *testing.T) {
	args := []string{"match", "--game", "chess", "--a", "material:1", "--b", "material:1", "--games", "2",
		"--colors", "fixed", "--fen", "8/8/8/4k3/8/8/8/RR5K w - - 0 1", "--max-moves", "8"}
	for _, c := range []struct {
		extra []string
		want  string
	}{
		{nil, "result games=2 wins=0 draws=2 losses=0 "},
		{[]string{"--nodes", "200000"}, "result games=2 wins=2 draws=0 losses=0 "},
	} {
		out, code := exitStatus(t, append(args, c.extra...)...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("%v: status %d, want %q\n%s", c.extra, code, c.want, out)
		}
	}
	for _, bad := range [][]string{{"--nodes", "-1"}, {"--nodes", "10", "--tc", "1+0"}, {"--movetime", "1s", "--tc", "1+0"}, {"--nodes", "10", "--movetime", "1s"}} {
		if out, code := exitStatus(t, append(args, bad...)...); code != 2 {
			t.Errorf("%v: status %d, want 2 (usage)\n%s", bad, code, out)
		}
	}
}

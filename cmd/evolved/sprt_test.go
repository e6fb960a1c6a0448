package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestMatchSPRT runs a sequential test that material:5 is stronger than
// material:4 at draughts: it accepts H1 long before --games, with the same
// games and the same decision at one and at three workers (the test is
// decided in schedule order), and the result line carries the pentanomial
// counts and the test's state.
func TestMatchSPRT(t *testing.T) {
	var lines []string
	for _, workers := range []string{"1", "3"} {
		out, code := exitStatus(t, "match", "--game", "draughts", "--a", "material:5", "--b", "material:4", "--games", "2000",
			"--sprt", "elo0=0,elo1=20", "--concurrency", workers)
		if code != 0 {
			t.Fatalf("match --sprt: exit %d\n%s", code, out)
		}
		m := regexp.MustCompile(`(?m)^result games=(\d+) .* ptnml=(\d+),(\d+),(\d+),(\d+),(\d+) .* llr=(-?[0-9.]+) lbound=-2.94 ubound=2.94 sprt=H1$`).FindStringSubmatch(out)
		if m == nil || !strings.Contains(out, "H1 accepted after ") {
			t.Fatalf("match --sprt with %s workers: no H1 decision\n%s", workers, out)
		}
		if m[1] == "2000" {
			t.Errorf("the test ran to --games")
		}
		lines = append(lines, m[0])
	}
	if lines[0] != lines[1] {
		t.Errorf("1 worker: %s\n3 workers: %s", lines[0], lines[1])
	}
}

func TestMatchReportsPairs(t *testing.T) {
	out, code := exitStatus(t, "match", "--game", "draughts", "--a", "material:3", "--b", "material:2", "--games", "20")
	if code != 0 || !regexp.MustCompile(`(?m)^Ptnml\(0-2\): \d+, \d+, \d+, \d+, \d+  LOS `).MatchString(out) ||
		!regexp.MustCompile(`(?m)^result games=20 .* ptnml=\d+,\d+,\d+,\d+,\d+ los=[0-9.]+ drawratio=[0-9.]+ nelo=-?[0-9.]+ nci=[0-9.]+$`).MatchString(out) {
		t.Errorf("match: exit %d, no pentanomial report\n%s", code, out)
	}
	// Fixed colours play no pairs: no pentanomial.
	out, code = exitStatus(t, "match", "--game", "draughts", "--a", "material:3", "--b", "material:2", "--games", "5", "--colors", "fixed")
	if code != 0 || strings.Contains(out, "ptnml") {
		t.Errorf("fixed colours: exit %d\n%s", code, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--sprt", "elo0=0"}, "--sprt: sprt: bad test"},
		{[]string{"--sprt", "elo0=0,elo1=5", "--colors", "fixed"}, "needs --colors alternate"},
		{[]string{"--sprt", "elo0=0,elo1=5", "--games", "7"}, "--games must be even"},
	} {
		args := append([]string{"match", "--game", "draughts", "--a", "random", "--b", "random"}, c.args...)
		if out, code := exitStatus(t, args...); code != 2 || !strings.Contains(out, c.want) {
			t.Errorf("evolved %s: exit %d, want 2 with %q\n%s", strings.Join(args, " "), code, c.want, out)
		}
	}
}

// TestMatchOpeningsDraughtsXiangqi starts draughts and xiangqi matches from
// opening files: the records name each game's start, and a malformed line
// is refused with its number.
func TestMatchOpeningsDraughtsXiangqi(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	book := write("d.fen", "W:W18,21,22,23,24,25,26,27,28,29,30,31:B1,2,3,4,5,6,7,8,9,10,11,15\n")
	pdn := filepath.Join(dir, "d.pdn")
	if out, code := exitStatus(t, "match", "--game", "draughts", "--a", "material:2", "--b", "material:1", "--games", "2",
		"--openings", book, "--pgn", pdn); code != 0 {
		t.Fatalf("draughts match with openings: exit %d\n%s", code, out)
	}
	text, _ := os.ReadFile(pdn)
	if n := strings.Count(string(text), `[FEN "W:W18,21,22,23,24,25,26,27,28,29,30,31:B1,2,3,4,5,6,7,8,9,10,11,15"]`); n != 2 {
		t.Errorf("the PDN names the opening %d times, want 2:\n%s", n, text)
	}
	xbook := write("x.fen", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n")
	if out, code := exitStatus(t, "match", "--game", "xiangqi", "--a", "material:1", "--b", "random", "--games", "2", "--openings", xbook); code != 0 {
		t.Errorf("xiangqi match with openings: exit %d\n%s", code, out)
	}
	bad := write("bad.fen", "W:W18:B1\nW:nonsense\n")
	if out, code := exitStatus(t, "match", "--game", "draughts", "--a", "random", "--b", "random", "--games", "2", "--openings", bad); code != 1 || !strings.Contains(out, "line 2") {
		t.Errorf("bad opening file: exit %d\n%s", code, out)
	}
}

// TestMatchJournalResumes stops a sequential match part way, as a crash
// would (the journal cut after two chunks and inside the third's line),
// and starts it again with the same flags: it says what it resumes, plays
// the rest and ends with the result line of the match played in one go,
// and the journal holds whole lines again. Another match, or a journal
// with a bad line, is refused by name; --journal needs --sprt.
func TestMatchJournalResumes(t *testing.T) {
	dir := t.TempDir()
	journal := filepath.Join(dir, "j.txt")
	args := []string{"match", "--game", "draughts", "--a", "material:2", "--b", "material:1", "--games", "2000",
		"--sprt", "elo0=0,elo1=20", "--seed", "3", "--journal", journal}
	resultLine := regexp.MustCompile(`(?m)^result games=.*$`)
	out, code := exitStatus(t, args...)
	whole := resultLine.FindString(out)
	if code != 0 || whole == "" || strings.Contains(out, "resuming") {
		t.Fatalf("first run: exit %d\n%s", code, out)
	}
	data, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) < 5 || !strings.HasPrefix(lines[0], journalVersion) || !strings.HasPrefix(lines[3], "chunk 2: ") {
		t.Fatalf("journal of %d lines, want a header and at least 3 chunks:\n%s", len(lines), data)
	}
	cut := strings.Join(lines[:3], "") + lines[3][:12] // two chunks, and the third's cut short
	if err := os.WriteFile(journal, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = exitStatus(t, args...)
	if code != 0 || !strings.Contains(out, "resuming from "+journal+": 64 games played before") || resultLine.FindString(out) != whole {
		t.Errorf("resumed run: exit %d, want the resumption said and %q\n%s", code, whole, out)
	}
	if again, _ := os.ReadFile(journal); string(again) != string(data) {
		t.Errorf("the journal after resuming:\n%s\nwant the one of the match in one go:\n%s", again, data)
	}

	// A crash before the header was written whole leaves a part of it: a new journal.
	if err := os.WriteFile(journal, []byte(lines[0][:10]), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := exitStatus(t, args...); code != 0 || strings.Contains(out, "resuming") || resultLine.FindString(out) != whole {
		t.Errorf("a journal with half a header: exit %d\n%s", code, out)
	}
	other := append(slices.Clone(args[:len(args)-2]), "--seed", "4", "--journal", journal)
	if out, code := exitStatus(t, other...); code != 1 || !strings.Contains(out, "is the journal of another match") {
		t.Errorf("another seed on the journal: exit %d\n%s", code, out)
	}
	bad := strings.Join(lines[:2], "") + "chunk 1: 1,0.7\n"
	if err := os.WriteFile(journal, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := exitStatus(t, args...); code != 1 || !strings.Contains(out, journal+" line 3") || !strings.Contains(out, `"1,0.7"`) {
		t.Errorf("a journal with a bad line: exit %d\n%s", code, out)
	}
	if out, code := exitStatus(t, "match", "--game", "draughts", "--a", "random", "--b", "random", "--journal", journal); code != 2 || !strings.Contains(out, "needs --sprt") {
		t.Errorf("--journal without --sprt: exit %d\n%s", code, out)
	}
}

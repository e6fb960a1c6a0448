package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"evolved/tournament"
)

// journalVersion opens the first line of a match journal.
const journalVersion = "evolved match journal 1 "

// matchJournal is `match --journal FILE`: the first line names the match
// (journalHeader), and each line after it holds A's scores in the game
// pairs of one chunk a sequential match played (tournament.ChunkDone),
// "chunk N: a,b a,b ...", written and synced as the chunk ends. Started
// again with the same flags and file, the match resumes after the last
// chunk written (tournament.MatchOptions.Resume). A last line without its
// newline, a write that a crash cut short, is dropped.
type matchJournal struct {
	path  string
	f     *os.File
	pairs []tournament.PairScores // the chunks of earlier runs, in order
}

// journalHeader returns the first line of s's journal: every flag that
// decides the match's games and its test, and the sha256 of the files
// its players and openings come from, so that a journal is resumed only
// by the match that wrote it. --concurrency is not in it: the result does
// not depend on it.
func journalHeader(s matchSettings) (string, error) {
	hash := func(spec string) (string, error) {
		if i := strings.LastIndexByte(spec, '#'); i >= 0 {
			spec = spec[:i] // the search settings: in the header's a and b
		}
		data, err := os.ReadFile(specFile(spec))
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil // a built-in player
		}
		if err != nil {
			return "", fmt.Errorf("match: --journal: %w", err)
		}
		sum := sha256.Sum256(data)
		return hex.EncodeToString(sum[:]), nil
	}
	h := map[string]any{"game": s.game, "a": s.a, "b": s.b, "games": s.games, "seed": s.seed,
		"opening_plies": s.openingPlies, "max_moves": s.maxMoves, "chess960": s.chess960, "tc": s.tc,
		"nodes": s.nodes, "movetime": s.movetime.String(), "fen": s.fen, "openings": s.openings, "sprt": s.sprt}
	for key, spec := range map[string]string{"a_sha256": s.a, "b_sha256": s.b, "openings_sha256": s.openings} {
		if spec == "" {
			continue
		}
		sum, err := hash(spec)
		if err != nil {
			return "", err
		}
		if sum != "" {
			h[key] = sum
		}
	}
	b, err := json.Marshal(h) // map keys sorted: one line for one match
	if err != nil {
		return "", fmt.Errorf("match: --journal: %w", err)
	}
	return journalVersion + string(b), nil
}

// openMatchJournal opens the journal at path for the match whose first
// line is header: a new file gets the header; an existing one must start
// with it, and its chunks are read for resuming. The error names the file
// and what is wrong with it.
func openMatchJournal(path, header string) (*matchJournal, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return nil, fmt.Errorf("match: --journal: %w", err)
		}
		j := &matchJournal{path: path, f: f}
		if err := j.write(header + "\n"); err != nil {
			f.Close()
			return nil, err
		}
		return j, nil
	}
	if err != nil {
		return nil, fmt.Errorf("match: --journal: %w", err)
	}
	text := string(data)
	if i := strings.LastIndexByte(text, '\n'); i < len(text)-1 {
		text = text[:i+1] // a line cut short by a crash
	}
	if text == "" { // not even the header was written whole: a new journal
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("match: --journal: %w", err)
		}
		return openMatchJournal(path, header)
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if lines[0] != header {
		return nil, fmt.Errorf("match: --journal: %s is the journal of another match, or of these players before their files changed (its first line: %.200s): give a new file, or the flags it was started with", path, lines[0])
	}
	j := &matchJournal{path: path}
	for n, line := range lines[1:] {
		pairs, err := parseJournalChunk(line, n)
		if err == nil && len(pairs) != tournament.SequentialChunkPairs && n != len(lines)-2 {
			err = fmt.Errorf("%d pairs where every chunk but the last has %d", len(pairs), tournament.SequentialChunkPairs)
		}
		if err != nil {
			return nil, fmt.Errorf("match: --journal: %s line %d: %w", path, n+2, err)
		}
		j.pairs = append(j.pairs, pairs...)
	}
	if err := os.Truncate(path, int64(len(text))); err != nil {
		return nil, fmt.Errorf("match: --journal: %w", err)
	}
	if j.f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0); err != nil {
		return nil, fmt.Errorf("match: --journal: %w", err)
	}
	return j, nil
}

// parseJournalChunk reads line, which must be chunk n's.
func parseJournalChunk(line string, n int) ([]tournament.PairScores, error) {
	head, rest, ok := strings.Cut(line, ": ")
	if !ok || head != "chunk "+strconv.Itoa(n) {
		return nil, fmt.Errorf("%.60q is not chunk %d's line (\"chunk %d: a,b a,b ...\")", line, n, n)
	}
	var pairs []tournament.PairScores
	for _, field := range strings.Fields(rest) {
		a, b, ok := strings.Cut(field, ",")
		var p tournament.PairScores
		for i, text := range []string{a, b} {
			v, err := strconv.ParseFloat(text, 64)
			if !ok || err != nil || v != 0 && v != 0.5 && v != 1 {
				return nil, fmt.Errorf("%q is not a pair of scores 0, 0.5 or 1", field)
			}
			p[i] = v
		}
		pairs = append(pairs, p)
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("chunk %d has no pairs", n)
	}
	return pairs, nil
}

// add writes chunk's pairs (tournament.MatchOptions.ChunkDone).
func (j *matchJournal) add(chunk int, pairs []tournament.PairScores) error {
	var b strings.Builder
	fmt.Fprintf(&b, "chunk %d:", chunk)
	for _, p := range pairs {
		fmt.Fprintf(&b, " %g,%g", p[0], p[1])
	}
	return j.write(b.String() + "\n")
}

// write appends text and syncs it to the disk.
func (j *matchJournal) write(text string) error {
	if _, err := j.f.WriteString(text); err != nil {
		return fmt.Errorf("match: --journal: %w", err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("match: --journal: %w", err)
	}
	return nil
}

// Close closes the journal's file.
func (j *matchJournal) Close() error { return j.f.Close() }

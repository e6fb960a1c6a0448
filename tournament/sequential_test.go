package tournament

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"evolved/sprt"
)

// sequentialTest returns the parsed test spec.
func sequentialTest(t *testing.T, spec string) sprt.Test {
	t.Helper()
	test, err := sprt.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return test
}

// TestSequentialMatchStopsAtTheFirstCrossing checks that a sequential test
// of material:4 against random accepts H1 long before its bound, at the
// first pair whose LLR crosses the upper bound: every shorter prefix of
// the pairs kept is still undecided, and the pairs after it are dropped
// (it stops inside a chunk after the first). Each chunk plays openings of
// its own. The tally and the
// pentanomial counts agree with the records, and the first chunk's games
// are Match's, chunk 0 sharing Match's seeds.
func TestSequentialMatchStopsAtTheFirstCrossing(t *testing.T) {
	test := sequentialTest(t, "elo0=0,elo1=20")
	var calls []int
	var lastLLR float64
	res, seq, err := SequentialMatch(context.Background(), draughtsArena(), alphaBeta(4), random,
		MatchOptions{Games: 2000, Seed: 5}, test, func(done int, llr float64) { calls = append(calls, done); lastLLR = llr })
	if err != nil {
		t.Fatal(err)
	}
	n := len(res.Records)
	if seq.Decision != sprt.AcceptH1 || n <= 2*SequentialChunkPairs || n >= 2000 || n%2 != 0 || n%(2*SequentialChunkPairs) == 0 || len(res.AFirst) != n {
		t.Fatalf("decision %v after %d games (%d colours), want H1 inside a chunk of %d pairs after the first", seq.Decision, n, len(res.AFirst), SequentialChunkPairs)
	}
	if seq.Pentanomial != res.Pentanomial() || seq.Pentanomial.Pairs() != n/2 || res.Wins+res.Draws+res.Losses != n {
		t.Errorf("pentanomial %v, of the records %v, tally +%d =%d -%d: want %d pairs", seq.Pentanomial, res.Pentanomial(), res.Wins, res.Draws, res.Losses, n/2)
	}
	if d, llr := test.Decide(seq.Pentanomial); d != seq.Decision || llr != seq.LLR {
		t.Errorf("the kept pairs decide %v at LLR %g, the match says %v at %g", d, llr, seq.Decision, seq.LLR)
	}
	for k := 2; k < n; k += 2 {
		prefix := MatchResult[dm]{Records: res.Records[:k], AFirst: res.AFirst[:k]}
		if d, llr := test.Decide(prefix.Pentanomial()); d != sprt.Continue {
			t.Errorf("the first %d games already decide %v at LLR %g", k, d, llr)
		}
	}
	if len(calls) == 0 || calls[len(calls)-1] != n || lastLLR != seq.LLR {
		t.Errorf("last progress call (%v games, LLR %g), want (%d, %g)", calls, lastLLR, n, seq.LLR)
	}
	m, err := Match(context.Background(), draughtsArena(), alphaBeta(4), random, MatchOptions{Games: 2 * SequentialChunkPairs, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	// Each chunk draws openings of its own (its chunk number is the
	// round of its seeds): the second does not replay the first.
	opening := func(k int) string { return fmt.Sprint(res.Records[k].Moves[:res.Records[k].Opening]) }
	same := 0
	for k := 0; k < 2*SequentialChunkPairs; k += 2 {
		if opening(k) == opening(k+2*SequentialChunkPairs) {
			same++
		}
	}
	if same == SequentialChunkPairs {
		t.Errorf("the second chunk replays the first chunk's openings")
	}
	if first := 2 * SequentialChunkPairs; !reflect.DeepEqual(res.Records[:first], m.Records) || !reflect.DeepEqual(res.AFirst[:first], m.AFirst) {
		t.Errorf("the first chunk's games differ from Match's %d", first)
	}
}

// TestSequentialMatchIsIndependentOfConcurrency plays a match that runs
// past one chunk, at 1 and at 3 workers: the same games, tally and test.
func TestSequentialMatchIsIndependentOfConcurrency(t *testing.T) {
	test := sequentialTest(t, "elo0=0,elo1=10,alpha=0.01,beta=0.01")
	play := func(workers int) (MatchResult[dm], Sequential) {
		res, seq, err := SequentialMatch(context.Background(), draughtsArena(), alphaBeta(2), alphaBeta(1),
			MatchOptions{Games: 80, Seed: 2, Concurrency: workers}, test, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res, seq
	}
	r1, s1 := play(1)
	r3, s3 := play(3)
	if len(r1.Records) <= 2*SequentialChunkPairs {
		t.Errorf("the match stopped after %d games, inside the first chunk: pick a closer one", len(r1.Records))
	}
	if !reflect.DeepEqual(r1, r3) || s1 != s3 {
		t.Errorf("1 worker: +%d =%d -%d %+v; 3 workers: +%d =%d -%d %+v", r1.Wins, r1.Draws, r1.Losses, s1, r3.Wins, r3.Draws, r3.Losses, s3)
	}
}

// TestSequentialMatchToItsBound checks that an undecided test plays
// opts.Games games and, within one chunk, plays Match's games.
func TestSequentialMatchToItsBound(t *testing.T) {
	test := sequentialTest(t, "elo0=0,elo1=5,alpha=0.001,beta=0.001")
	res, seq, err := SequentialMatch(context.Background(), draughtsArena(), random, random, MatchOptions{Games: 8, Seed: 9}, test, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Match(context.Background(), draughtsArena(), random, random, MatchOptions{Games: 8, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	if seq.Decision != sprt.Continue || !reflect.DeepEqual(res, m) || seq.Pentanomial != m.Pentanomial() {
		t.Errorf("decision %v, +%d =%d -%d %v; Match +%d =%d -%d %v", seq.Decision, res.Wins, res.Draws, res.Losses,
			seq.Pentanomial, m.Wins, m.Draws, m.Losses, m.Pentanomial())
	}
}

// TestSequentialMatchRefusesUnpairedGames checks the refusals: fixed
// colours and an odd or too small number of games have no pairs to test.
func TestSequentialMatchRefusesUnpairedGames(t *testing.T) {
	test := sequentialTest(t, "elo0=0,elo1=5")
	for _, opts := range []MatchOptions{{Games: 4, FixedColors: true}, {Games: 7}, {Games: 0}} {
		if _, _, err := SequentialMatch(context.Background(), draughtsArena(), random, random, opts, test, nil); err == nil {
			t.Errorf("SequentialMatch(%+v) played", opts)
		}
	}
}

// TestSequentialMatchResumes checks a match stopped after some chunks and
// resumed from what ChunkDone gave: it decides at the same pair with the
// same counts and LLR as the match played in one go, plays only the chunks
// after those resumed (their games are the uninterrupted match's), and
// refuses scores that end inside a chunk.
func TestSequentialMatchResumes(t *testing.T) {
	test := sequentialTest(t, "elo0=0,elo1=20")
	var journal []PairScores
	chunks := 0
	whole, wholeSeq, err := SequentialMatch(context.Background(), draughtsArena(), alphaBeta(2), alphaBeta(1),
		MatchOptions{Games: 2000, Seed: 7, ChunkDone: func(chunk int, pairs []PairScores) error {
			if chunk != chunks {
				t.Fatalf("chunk %d done after %d chunks", chunk, chunks)
			}
			chunks++
			journal = append(journal, pairs...)
			return nil
		}}, test, nil)
	if err != nil {
		t.Fatal(err)
	}
	if wholeSeq.Decision == sprt.Continue || chunks < 3 || len(journal) != chunks*SequentialChunkPairs {
		t.Fatalf("decision %v after %d chunks, %d pairs journaled: want a decision after at least 3 whole chunks", wholeSeq.Decision, chunks, len(journal))
	}
	for i, p := range journal[:len(whole.Records)/2] {
		if want := (PairScores{whole.scoreOfA(2 * i), whole.scoreOfA(2*i + 1)}); p != want {
			t.Fatalf("pair %d journaled %v, its games score %v", i, p, want)
		}
	}
	done := 2 * SequentialChunkPairs // two chunks played before the stop
	played := 0
	res, seq, err := SequentialMatch(context.Background(), draughtsArena(), alphaBeta(2), alphaBeta(1),
		MatchOptions{Games: 2000, Seed: 7, Resume: journal[:done], ChunkDone: func(int, []PairScores) error { played++; return nil }}, test, nil)
	if err != nil {
		t.Fatal(err)
	}
	if seq != wholeSeq || res.Wins != whole.Wins || res.Draws != whole.Draws || res.Losses != whole.Losses {
		t.Errorf("resumed: %+v, +%d =%d -%d; in one go: %+v, +%d =%d -%d", seq, res.Wins, res.Draws, res.Losses, wholeSeq, whole.Wins, whole.Draws, whole.Losses)
	}
	if played != chunks-2 || !reflect.DeepEqual(res.Records, whole.Records[2*done:]) {
		t.Errorf("resumed: played %d chunks and %d games, want %d chunks, the last %d games of the match in one go", played, len(res.Records), chunks-2, len(whole.Records)-2*done)
	}
	_, _, err = SequentialMatch(context.Background(), draughtsArena(), alphaBeta(2), alphaBeta(1),
		MatchOptions{Games: 2000, Seed: 7, Resume: journal[:done-1]}, test, nil)
	if err == nil || !strings.Contains(err.Error(), "inside chunk 1") {
		t.Errorf("resumed with a chunk cut short: error %v, want one naming chunk 1", err)
	}
}

package player

import (
	"bufio"
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"evolved/game/chess"
	"evolved/nnet"
	"evolved/search"
)

// BenchmarkLazySMP measures what a second thread buys `evolved uci`
// (the UCI Threads option): the wall time to reach a depth on 1 thread
// and on 2, position by position over the start, Kiwipete and the first
// positions of docs/suites/wac.epd, each search from an empty table, the
// two thread counts taking turns at going first. It reports both times
// and their ratio, the time-to-depth speedup, from the same run, so that
// a loaded machine slows both alike; beside them the cores the process
// got then (parallelism: a shared machine may give two threads no more
// than one), and its log gives the load average.
// The chess agent of $EVOLVED_SMP_AGENT (with the techniques it was
// evolved with) searches, else a random perspective net; $EVOLVED_SMP_DEPTH
// sets the depth (default 10) and $EVOLVED_SMP_POSITIONS how many WAC
// positions (default 10). Run it once:
//
//	EVOLVED_SMP_AGENT=champion.json go test ./player -run XXX -bench LazySMP -benchtime 1x
func BenchmarkLazySMP(b *testing.B) {
	ab := smpSearch(b)
	depth, wac := envInt(b, "EVOLVED_SMP_DEPTH", 10), envInt(b, "EVOLVED_SMP_POSITIONS", 10)
	fens := append([]string{chess.StartFEN, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"}, wacFENs(b, wac)...)
	for b.Loop() {
		var wall [2]time.Duration
		var nodes [2]int64
		for i, fen := range fens {
			p, err := chess.ParseFEN(fen)
			if err != nil {
				b.Fatal(err)
			}
			var took [2]time.Duration
			var depths [2]int
			for k := range 2 {
				t := (i + k) % 2 // which of 1 and 2 threads searches: each goes first half the time
				if err := ab.SetThreads(t + 1); err != nil {
					b.Fatal(err)
				}
				ab.Reset()
				start := time.Now()
				res := ab.Search(context.Background(), chess.NewGame(p, chess.Rules{FiftyMoveRule: true}))
				took[t], depths[t] = time.Since(start), res.Depth
				wall[t] += took[t]
				nodes[t] += res.Nodes
			}
			b.Logf("position %d: %.3f s on 1 thread, %.3f s on 2 (depth %d, %d)", i+1, took[0].Seconds(), took[1].Seconds(), depths[0], depths[1])
		}
		b.ReportMetric(wall[0].Seconds(), "s/1-thread")
		b.ReportMetric(wall[1].Seconds(), "s/2-threads")
		b.ReportMetric(wall[0].Seconds()/wall[1].Seconds(), "speedup")
		b.ReportMetric(float64(nodes[1])/float64(nodes[0]), "nodes-2/1")
		b.ReportMetric(parallelism(), "cores")
	}
	load, _ := os.ReadFile("/proc/loadavg")
	b.Logf("%d positions to depth %d; load average %s", len(fens), depth, strings.TrimSpace(string(load)))
}

// parallelism returns how many cores the process gets at this moment:
// the work two goroutines do in half a second, each spinning on
// arithmetic, over the work one does. A machine whose other jobs leave it
// one core gives 1, whatever its count of cores; two free cores give 2.
func parallelism() float64 {
	spin := func(n int) int64 {
		var wg sync.WaitGroup
		var total atomic.Int64
		last := make([]uint64, n) // the arithmetic's results, kept so that it is done
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				x, rounds := uint64(1), int64(0)
				for end := time.Now().Add(500 * time.Millisecond); time.Now().Before(end); rounds++ {
					for range 10_000 {
						x = x*6364136223846793005 + 1442695040888963407
					}
				}
				last[i] = x
				total.Add(rounds)
			}()
		}
		wg.Wait()
		return total.Load()
	}
	one := spin(1)
	return float64(spin(2)) / float64(one)
}

// smpSearch returns BenchmarkLazySMP's search: the agent of
// $EVOLVED_SMP_AGENT as `evolved uci` serves it (its techniques, a table of
// 2^20 entries, 16 MB as the Hash option's default), or a random
// perspective net's.
func smpSearch(b *testing.B) *search.AlphaBeta[chess.Move, *chess.Game] {
	path := os.Getenv("EVOLVED_SMP_AGENT")
	if path == "" {
		flags := nnet.Perspective | nnet.SelfAdaptive | nnet.EvolvePST | nnet.EvolveTerms | nnet.EvolveMoreTerms
		net, err := nnet.RandomChess([]int{nnet.DefaultPerspectiveHidden}, flags, rand.New(rand.NewPCG(1, 3)))
		if err != nil {
			b.Fatal(err)
		}
		ab, err := ChessNetSearch(net, 1, 20)
		if err != nil {
			b.Fatal(err)
		}
		ab.Limits(envInt(b, "EVOLVED_SMP_DEPTH", 10), 0, 0)
		return ab
	}
	a, err := ReadAgent(path, "chess")
	if err != nil {
		b.Fatal(err)
	}
	set, params, err := search.ParseSettings(a.Search.Settings, search.Defaults[chess.Move, *chess.Game](), search.DefaultParams())
	if err != nil {
		b.Fatal(err)
	}
	ab, err := ChessNetSearch(a.Net, 1, 20)
	if err != nil {
		b.Fatal(err)
	}
	ab.SetTechniques(set)
	ab.SetParams(params)
	ab.Limits(envInt(b, "EVOLVED_SMP_DEPTH", 10), 0, 0)
	return ab
}

// envInt returns the positive integer of environment variable name, or def
// when it is not set.
func envInt(b *testing.B, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		b.Fatalf("$%s = %q: want a positive integer", name, s)
	}
	return n
}

// wacFENs returns the FENs of the first n positions of docs/suites/wac.epd.
func wacFENs(b *testing.B, n int) []string {
	f, err := os.Open("../docs/suites/wac.epd")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var fens []string
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(fens) < n {
		if fields := strings.Fields(sc.Text()); len(fields) >= 4 {
			fens = append(fens, strings.Join(fields[:4], " ")+" 0 1")
		}
	}
	return fens
}

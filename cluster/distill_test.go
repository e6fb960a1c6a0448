package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"evolved/distill"
	"evolved/games"
	"evolved/lineage"
	"evolved/nnet"
	"evolved/search"
	"evolved/tournament"
)

// playedRecords plays a round robin of nets under setup with k's agents,
// as generation generation of the run with seed seed plays its tournament,
// and returns its games.
func playedRecords[M comparable, S search.Game[M]](t testing.TB, k games.Kind[M, S], setup games.Setup, nets []*nnet.Net, seed uint64, generation int) []tournament.Record[M] {
	t.Helper()
	sp := k.Bind(setup)
	players := make([]func() search.Player[M, S], len(nets))
	for i, n := range nets {
		var err error
		if players[i], err = sp.Player(n); err != nil {
			t.Fatal(err)
		}
	}
	schedule, err := tournament.Schedule(tournament.Config{Format: tournament.RoundRobin}, len(nets), nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tournament.Run(context.Background(), sp.Arena, players, schedule, tournament.Config{Workers: 2}, seed, generation, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]tournament.Record[M], len(res.Games))
	for i, g := range res.Games {
		out[i] = g.Record
	}
	return out
}

// playedFENs returns the FEN of every position of the records that a
// move was played in, in order.
func playedFENs[M comparable, S search.Game[M]](t testing.TB, k games.Kind[M, S], records []tournament.Record[M]) []string {
	t.Helper()
	var fens []string
	for _, rec := range records {
		g, err := k.NewGame(rec.Start, games.Setup{})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range rec.Moves {
			fens = append(fens, k.FEN(g))
			g.Make(m)
		}
	}
	return fens
}

// distilled is a distillation's fitted genome, for comparisons.
type distilled struct {
	binary, sum []byte
	report      distill.Report
}

// distillVia distills net on records with k's searches of nodes nodes,
// here when c is nil, else on c's workers; progress, if set, hears of
// the searches.
func distillVia[M comparable, S search.Game[M]](t *testing.T, ctx context.Context, c *Coordinator, k games.Kind[M, S], net *nnet.Net, records []tournament.Record[M],
	nodes int64, progress func(done, total int)) (distilled, error) {
	t.Helper()
	opts := distill.Options{Steps: 20, Workers: 2, Progress: progress}
	if c != nil {
		opts.Search = func(ctx context.Context, fens []string, progress func(done, total int)) ([]float64, error) {
			return Search(ctx, c, Searches{Game: k.Name, Positions: fens, Net: net, Nodes: nodes, Scorer: k.Scorer, RunSeed: 7, Generation: 2, Progress: progress})
		}
	}
	fitted, rep, err := k.Distill(ctx, net, records, nodes, opts)
	if err != nil {
		return distilled{}, err
	}
	data, err := fitted.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	sum, err := lineage.Sum(fitted)
	if err != nil {
		t.Fatal(err)
	}
	return distilled{binary: data, sum: sum, report: rep}, nil
}

// sameDistilled fails the test unless got is want, bit for bit.
func sameDistilled(t *testing.T, how string, got, want distilled) {
	t.Helper()
	if !bytes.Equal(got.binary, want.binary) || !bytes.Equal(got.sum, want.sum) || got.report != want.report {
		t.Errorf("%s: the fitted genome (sum %x, %+v) is not the local one (sum %x, %+v)", how, got.sum, got.report, want.sum, want.report)
	}
}

// TestDistillationThroughWorkersIsLocal distills a draughts net (its
// whole net) and a chess net (its linear weights) on the positions of real
// games with the searches on two workers, several jobs each: the fitted
// genomes are the local ones bit for bit. For chess the coordinator is
// first stopped after the first job counted, as a killed daemon would
// be; a new one then counts that job's result from the stream, and once
// the workers are gone a third one gets every value from the stream alone.
func TestDistillationThroughWorkersIsLocal(t *testing.T) {
	s, nc := testServer(t)
	log := slog.New(slog.NewTextHandler(testWriter{t}, nil))
	c, err := NewCoordinator(context.Background(), nc, Limits{}, log)
	if err != nil {
		t.Fatal(err)
	}
	stopWorkers := startWorkers(t, nc, 2, log)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	rng := rand.New(rand.NewPCG(31, 5))
	const nodes = 150
	t.Run("draughts", func(t *testing.T) {
		k := games.Draughts()
		nets := make([]*nnet.Net, 5)
		for i := range nets {
			var err error
			if nets[i], err = nnet.Random([]int{nnet.NumDraughtsInputs, 20, 1}, nnet.PieceDiff, rng); err != nil {
				t.Fatal(err)
			}
		}
		records := playedRecords(t, k, games.Setup{Depth: 2, MaxMoves: 60}, nets, 7, 2)
		local, err := distillVia(t, ctx, nil, k, nets[0], records, nodes, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d positions of %d games", local.report.Positions, len(records))
		if local.report.Searched <= 2*SearchBatch {
			t.Fatalf("%d positions searched: fewer than three jobs", local.report.Searched)
		}
		last := 0
		remote, err := distillVia(t, ctx, c, k, nets[0], records, nodes, func(done, total int) { last = done })
		if err != nil {
			t.Fatal(err)
		}
		sameDistilled(t, "through the workers", remote, local)
		if last != local.report.Searched {
			t.Errorf("progress last heard of %d positions searched, want %d", last, local.report.Searched)
		}
	})
	t.Run("chess", func(t *testing.T) {
		k := games.Chess()
		nets := make([]*nnet.Net, 3)
		for i := range nets {
			var err error
			if nets[i], err = nnet.RandomChess([]int{8}, nnet.EvolvePieceValues|nnet.EvolvePST|nnet.EvolveTerms, rng); err != nil {
				t.Fatal(err)
			}
		}
		records := playedRecords(t, k, games.Setup{Depth: 1, MaxMoves: 60, Chess960: true}, nets, 7, 2)
		local, err := distillVia(t, ctx, nil, k, nets[0], records, nodes, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d positions of %d games", local.report.Positions, len(records))
		if local.report.Searched <= 2*SearchBatch {
			t.Fatalf("%d positions searched: fewer than three jobs", local.report.Searched)
		}
		stopped, stop := context.WithCancel(ctx)
		_, err = distillVia(t, stopped, c, k, nets[0], records, nodes, func(done, total int) { stop() })
		stop()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("the stopped coordinator: %v, want context.Canceled", err)
		}
		for i, how := range []string{"resumed", "from the stream alone"} {
			if i == 1 {
				stopWorkers()
			}
			nc2, err := nats.Connect(s.URL())
			if err != nil {
				t.Fatal(err)
			}
			defer nc2.Close()
			c2, err := NewCoordinator(context.Background(), nc2, Limits{}, log)
			if err != nil {
				t.Fatal(err)
			}
			remote, err := distillVia(t, ctx, c2, k, nets[0], records, nodes, nil)
			if err != nil {
				t.Fatalf("%s: %v", how, err)
			}
			sameDistilled(t, how, remote, local)
		}
	})
}

// TestLyingSearchWorkerIsRefused has a worker answer search jobs with
// values that are not its searches': every value changed a little, only
// the value the coordinator checks changed, a value short, and an older
// protocol version's result. Each is refused and logged with the worker's
// name, its job is published again, and honest workers then give the
// values the searches give here. The workers' records count the liar's
// refusals and no game for anyone.
func TestLyingSearchWorkerIsRefused(t *testing.T) {
	_, nc := testServer(t)
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	c, err := NewCoordinator(context.Background(), nc, Limits{}, log)
	if err != nil {
		t.Fatal(err)
	}
	k := games.Draughts()
	rng := rand.New(rand.NewPCG(41, 6))
	nets := make([]*nnet.Net, 3)
	for i := range nets {
		if nets[i], err = nnet.Random([]int{nnet.NumDraughtsInputs, 20, 1}, nnet.PieceDiff, rng); err != nil {
			t.Fatal(err)
		}
	}
	fens := playedFENs(t, k, playedRecords(t, k, games.Setup{Depth: 2, MaxMoves: 40}, nets, 7, 2))
	const nodes = 100
	score, err := k.Scorer(nets[0], nodes)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]float64, len(fens))
	for i, fen := range fens {
		if want[i], err = score(context.Background(), fen); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	type outcome struct {
		values []float64
		err    error
	}
	done := make(chan outcome, 1)
	go func() {
		v, err := Search(ctx, c, Searches{Game: k.Name, Positions: fens, Net: nets[0], Nodes: nodes, Scorer: k.Scorer, RunSeed: 3, Generation: 5})
		done <- outcome{v, err}
	}()
	js, cons := workersConsumer(t, ctx, nc)
	forgeries := []struct {
		name  string
		forge func(job *Job, r *Result)
	}{
		{"every value changed", func(_ *Job, r *Result) {
			for i := range r.Values {
				r.Values[i] += 0.001
			}
		}},
		{"the checked value changed", func(job *Job, r *Result) { r.Values[c.pick(job.ID, len(job.Positions))] += 0.001 }},
		{"a value short", func(_ *Job, r *Result) { r.Values = r.Values[1:] }},
		{"an older version", func(_ *Job, r *Result) { r.Version = ProtocolVersion - 1 }},
	}
	for _, f := range forgeries {
		m, job, net := liarJob(t, ctx, js, cons)
		if job.Kind != SearchJob || len(job.Positions) == 0 || len(job.Positions) > SearchBatch {
			t.Fatalf("job %s: kind %q, %d positions; want a search job of at most %d", job.ID, job.Kind, len(job.Positions), SearchBatch)
		}
		res, err := searchJob(ctx, job, net[0], nil)
		if err != nil {
			t.Fatal(err)
		}
		f.forge(job, res)
		res.Worker = "liar"
		publishResult(t, ctx, js, job.Reply, res)
		m.Ack()
		t.Logf("%s: job %s", f.name, job.ID)
	}
	startWorkers(t, nc, 2, log)
	out := <-done
	if out.err != nil {
		t.Fatal(out.err)
	}
	if len(out.values) != len(want) {
		t.Fatalf("%d values, want %d", len(out.values), len(want))
	}
	for i := range want {
		if math.Float64bits(out.values[i]) != math.Float64bits(want[i]) {
			t.Fatalf("position %d (%s): %v through the workers, %v here", i, fens[i], out.values[i], want[i])
		}
	}
	text := logs.String()
	if n := strings.Count(text, "refused a result"); n != len(forgeries) || !strings.Contains(text, "worker=liar") {
		t.Errorf("the coordinator logged %d refused results, want %d naming the liar:\n%s", n, len(forgeries), text)
	}
	for _, say := range []string{"searched here is worth", "values for", fmt.Sprintf("speaks version %d", ProtocolVersion-1)} {
		if !strings.Contains(text, say) {
			t.Errorf("no refusal says %q:\n%s", say, text)
		}
	}
	seen := c.TakeWorkers()
	if len(seen) == 0 || seen[0].Name != "liar" || seen[0].Refused != len(forgeries) {
		t.Errorf("TakeWorkers = %+v; want the liar first with %d refused", seen, len(forgeries))
	}
	for _, w := range seen {
		if w.Games != 0 || w.Latest.IsZero() || (w.Name != "liar" && w.Refused != 0) {
			t.Errorf("worker %+v: want no game, a latest result, and no refusal but the liar's", w)
		}
	}
}

// TestJobCheck checks what a worker refuses before it plays or searches:
// another version, and the fields each kind of job needs; and that the
// IDs and result subjects of games, data games and searches are apart.
func TestJobCheck(t *testing.T) {
	hash := strings.Repeat("0f", 32)
	game := Job{Version: ProtocolVersion, ID: "chess/1/0/0/x", Game: "chess", Genomes: [2]string{hash, hash}, Reply: "r"}
	searches := Job{Version: ProtocolVersion, Kind: SearchJob, ID: "chess/1/0/distill/0/x", Game: "chess", Positions: []string{"fen"},
		Nodes: 10, Genome: hash, Reply: "r"}
	data := Job{Version: ProtocolVersion, Kind: DataJob, ID: "chess/1/0/data/0/x", Game: "chess", Genomes: [2]string{hash, hash}, Reply: "r"}
	for _, c := range []struct {
		name   string
		job    Job
		change func(j *Job)
		want   string // "" for no error
	}{
		{"a game", game, func(*Job) {}, ""},
		{"searches", searches, func(*Job) {}, ""},
		{"a game of the last version", game, func(j *Job) { j.Version = ProtocolVersion - 1 }, "speaks version"},
		{"searches of the next version", searches, func(j *Job) { j.Version = ProtocolVersion + 1 }, "speaks version"},
		{"a game without a pairing", game, func(j *Job) { j.First = -1 }, "pairing"},
		{"a game without its nets", game, func(j *Job) { j.Genomes[1] = "" }, "genome hashes"},
		{"searches without positions", searches, func(j *Job) { j.Positions = nil }, "0 positions"},
		{"searches without a budget", searches, func(j *Job) { j.Nodes = 0 }, "budget of 0"},
		{"searches without a net", searches, func(j *Job) { j.Genome = "x" }, "genome hash"},
		{"searches without a reply", searches, func(j *Job) { j.Reply = "" }, "reply subject"},
		{"a data game", data, func(*Job) {}, ""},
		{"a data game of two nets", data, func(j *Job) { j.Genomes[1] = strings.Repeat("1e", 32) }, "a data game is one net's"},
		{"a data game without a pairing", data, func(j *Job) { j.OpeningIndex = -1 }, "pairing"},
		{"a data game of the last version", data, func(j *Job) { j.Version = ProtocolVersion - 1 }, "speaks version"},
		{"another kind", searches, func(j *Job) { j.Kind = "train" }, `kind "train"`},
	} {
		j := c.job
		c.change(&j)
		err := j.check()
		if c.want == "" && err != nil || c.want != "" && (!errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: check() = %v, want %q", c.name, err, c.want)
		}
	}
	if a, b := searchJobID("chess", 1, 4, 0), jobID("chess", 1, 4, 0); a == b || strings.HasPrefix(a, b+"/") {
		t.Errorf("the first search job's ID %q is not apart from the first game's %q", a, b)
	}
	for _, id := range []string{jobID("chess", 1, 4, 0), searchJobID("chess", 1, 4, 0)} {
		if d := dataJobID("chess", 1, 4, 0); d == id || strings.HasPrefix(d, id+"/") || strings.HasPrefix(id, d+"/") {
			t.Errorf("the first data game's ID %q is not apart from %q", d, id)
		}
	}
	if d, g := dataSubject("chess", 1, 4), resultSubject("chess", 1, 4); d == g || d == searchSubject("chess", 1, 4) {
		t.Errorf("the data games' results subject %q is not apart from the games' and the searches'", d)
	}
}

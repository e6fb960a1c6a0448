package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"evolved/game/chess"
	"evolved/games"
	"evolved/nnet"
	"evolved/positions"
)

// dataCase is a chess net's data games, played here and on workers.
type dataCase struct {
	binding games.Binding[chess.Move, *chess.Game]
	net     *nnet.Net
	games   games.DataGames
}

// newDataCase returns six chess data games of a random net, short (300
// nodes a move, 30 moves a side) so that the test is quick.
func newDataCase(t *testing.T) dataCase {
	t.Helper()
	net, err := nnet.RandomChess([]int{8}, nnet.Perspective|nnet.EvolvePST, rand.New(rand.NewPCG(5, 8)))
	if err != nil {
		t.Fatal(err)
	}
	return dataCase{binding: games.Chess().Bind(games.Setup{Depth: 20, Nodes: 300, OpeningPlies: 4, MaxMoves: 30}), net: net,
		games: games.DataGames{Games: 6, First: 4, RunSeed: 13, Generation: 9, Workers: 2}}
}

// local returns the records the data games give here.
func (d dataCase) local(t *testing.T) []positions.Record {
	t.Helper()
	var out []positions.Record
	err := d.binding.PlayData(context.Background(), d.net, d.games, func(_ int, recs []positions.Record) error {
		out = append(out, recs...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 6*20 {
		t.Fatalf("%d records of 6 games, want games of at least 20 moves after the opening", len(out))
	}
	return out
}

// remote returns PlayData's data games of d on c.
func (d dataCase) remote(ctx context.Context, c *Coordinator, replay int, progress func(done, total int)) ([]positions.Record, error) {
	g := d.games
	g.Progress = progress
	return PlayData(ctx, c, Data[chess.Move, *chess.Game]{Binding: d.binding, Net: d.net, Games: g, Replay: replay})
}

// sameRecords fails the test unless got is want, record for record and
// byte for byte as the store writes them.
func sameRecords(t *testing.T, how string, got, want []positions.Record) {
	t.Helper()
	if !reflect.DeepEqual(got, want) || !bytes.Equal(recordBytes(got), recordBytes(want)) {
		t.Fatalf("%s: %d records, not the %d played here", how, len(got), len(want))
	}
}

// recordBytes returns records as the store writes them.
func recordBytes(recs []positions.Record) []byte {
	out := make([]byte, len(recs)*positions.RecordSize)
	for i := range recs {
		recs[i].MarshalTo(out[i*positions.RecordSize:])
	}
	return out
}

// TestDataThroughWorkersIsLocal plays a generation's data games on one
// and on two workers, every game replayed here: the records are those
// played here, byte for byte, and progress hears of every game.
func TestDataThroughWorkersIsLocal(t *testing.T) {
	d := newDataCase(t)
	want := d.local(t)
	for _, workers := range []int{1, 2} {
		log := slog.New(slog.NewTextHandler(testWriter{t}, nil))
		c, nc := testCoordinator(t, log)
		startWorkers(t, nc, workers, log)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		last := 0
		got, err := d.remote(ctx, c, 1, func(done, total int) {
			if total != d.games.Games || done != last+1 {
				t.Errorf("progress %d of %d after %d", done, total, last)
			}
			last = done
		})
		cancel()
		if err != nil {
			t.Fatalf("%d workers: %v", workers, err)
		}
		sameRecords(t, fmt.Sprintf("%d workers", workers), got, want)
		if last != d.games.Games {
			t.Errorf("%d workers: progress last heard of %d games, want %d", workers, last, d.games.Games)
		}
		games := 0
		for _, w := range c.TakeWorkers() {
			games += w.Games
		}
		if games != d.games.Games {
			t.Errorf("%d workers: the workers' records count %d games, want %d", workers, games, d.games.Games)
		}
	}
}

// TestLyingDataWorkerIsRefused has a worker answer data jobs with one
// score changed, a score short, an illegal last move, the game of another
// net (legal, but not the job's), and a result of version 4, which knew
// no scores. With every game replayed here each is refused and logged
// with the worker's name, its job is published again, and honest workers
// then give the records played here.
func TestLyingDataWorkerIsRefused(t *testing.T) {
	d := newDataCase(t)
	want := d.local(t)
	other, err := nnet.RandomChess([]int{8}, nnet.Perspective|nnet.EvolvePST, rand.New(rand.NewPCG(6, 9)))
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	c, nc := testCoordinator(t, log)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	type outcome struct {
		recs []positions.Record
		err  error
	}
	done := make(chan outcome, 1)
	go func() {
		recs, err := d.remote(ctx, c, 1, nil)
		done <- outcome{recs, err}
	}()
	js, cons := workersConsumer(t, ctx, nc)
	forgeries := []struct {
		name, say string
		forge     func(r *Result)
	}{
		{"a score changed", "the search at ply", func(r *Result) { r.Scores[len(r.Scores)/2]++ }},
		{"a score short", "scores for", func(r *Result) { r.Scores = r.Scores[1:] }},
		{"an illegal last move", "is illegal", func(r *Result) { r.Moves[len(r.Moves)-1] = r.Moves[r.Opening] }},
		{"another net's game", "replayed here, the game has", nil},
		{"version 4", fmt.Sprintf("the result speaks version %d", ProtocolVersion-1), func(r *Result) { r.Version, r.Scores = ProtocolVersion-1, nil }},
	}
	for _, f := range forgeries {
		m, job, nets := liarJob(t, ctx, js, cons)
		if job.Kind != DataJob || job.Genomes[0] != job.Genomes[1] || job.Reply != dataSubject("chess", 13, 9) {
			t.Fatalf("job %s: kind %q, genomes %q, reply %s; want a data job of one net", job.ID, job.Kind, job.Genomes, job.Reply)
		}
		if f.forge == nil {
			nets = [2]*nnet.Net{other, other}
		}
		res, err := playJob(ctx, job, nets, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Scores) != len(res.Moves)-res.Opening || len(res.Scores) < 2 {
			t.Fatalf("job %s: %d scores for %d moves after an opening of %d", job.ID, len(res.Scores), len(res.Moves), res.Opening)
		}
		if f.forge != nil {
			f.forge(res)
		}
		res.Worker = "liar"
		publishResult(t, ctx, js, job.Reply, res)
		m.Ack()
	}
	startWorkers(t, nc, 2, log)
	out := <-done
	if out.err != nil {
		t.Fatal(out.err)
	}
	sameRecords(t, "after the liar", out.recs, want)
	text := logs.String()
	if n := strings.Count(text, "refused a result"); n != len(forgeries) || !strings.Contains(text, "worker=liar") {
		t.Errorf("the coordinator logged %d refused results, want %d naming the liar:\n%s", n, len(forgeries), text)
	}
	for _, f := range forgeries {
		if !strings.Contains(text, f.say) {
			t.Errorf("%s: no refusal says %q:\n%s", f.name, f.say, text)
		}
	}
	seen := c.TakeWorkers()
	if len(seen) == 0 || seen[0].Name != "liar" || seen[0].Refused != len(forgeries) || seen[0].Games != 0 {
		t.Errorf("TakeWorkers = %+v; want the liar first with %d refused and no game", seen, len(forgeries))
	}
}

// TestCheckDataRefusesScores checks a data result's scores without a
// server: one a move after the opening, and the version that has them.
func TestCheckDataRefusesScores(t *testing.T) {
	d := newDataCase(t)
	hash, _, err := GenomeHash(d.net)
	if err != nil {
		t.Fatal(err)
	}
	job := Job{Version: ProtocolVersion, Kind: DataJob, ID: "chess/13/9/data/4/x", Game: "chess", Setup: []byte(`{"Depth":20,"Nodes":300,"OpeningPlies":4,"MaxMoves":30}`),
		RunSeed: 13, Generation: 9, Index: 4, OpeningIndex: 4, Genomes: [2]string{hash, hash}, Reply: "r"}
	res, err := playJob(context.Background(), &job, [2]*nnet.Net{d.net, d.net}, nil)
	if err != nil {
		t.Fatal(err)
	}
	arena := d.binding.DataArena()
	g, err := checkData(d.binding, arena, &job, res)
	if err != nil {
		t.Fatal(err)
	}
	want := d.local(t)
	if n := len(g.records); n == 0 || !reflect.DeepEqual(g.records, want[:n]) {
		t.Fatalf("the first game's %d records are not the first played here", n)
	}
	long := *res
	long.Scores = append(append([]int32(nil), res.Scores...), 0)
	if _, err := checkData(d.binding, arena, &job, &long); !errors.Is(err, ErrForgedScores) {
		t.Errorf("a score too many: %v, want ErrForgedScores", err)
	}
	old := *res
	old.Version = ProtocolVersion - 1
	if _, err := checkData(d.binding, arena, &job, &old); !errors.Is(err, ErrProtocol) {
		t.Errorf("version %d: %v, want ErrProtocol", old.Version, err)
	}
}

package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"evolved/game"
	"evolved/game/draughts"
	"evolved/games"
	"evolved/nnet"
	"evolved/population"
	"evolved/search"
	"evolved/tournament"
)

// testServer starts an embedded server on a free loopback port and
// returns a connection to it.
func testServer(t testing.TB) (*Server, *nats.Conn) {
	t.Helper()
	s, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	nc, err := nats.Connect(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return s, nc
}

// testCoordinator starts an embedded server (testServer) and a
// coordinator on it that logs to log, and returns both.
func testCoordinator(t *testing.T, log *slog.Logger) (*Coordinator, *nats.Conn) {
	t.Helper()
	_, nc := testServer(t)
	c, err := NewCoordinator(context.Background(), nc, Limits{}, log)
	if err != nil {
		t.Fatal(err)
	}
	return c, nc
}

// liarJob takes the next job from the workers' consumer as a worker
// would, and fetches its nets (of a search job, the first), for a test
// that answers it by hand.
func liarJob(t *testing.T, ctx context.Context, js jetstream.JetStream, cons jetstream.Consumer) (jetstream.Msg, *Job, [2]*nnet.Net) {
	t.Helper()
	m, err := cons.Next(jetstream.FetchMaxWait(30 * time.Second))
	if err != nil {
		t.Fatal(err)
	}
	var job Job
	if err := job.UnmarshalBinary(m.Data()); err != nil {
		t.Fatal(err)
	}
	liar := &Worker{Name: "liar"}
	nets, err := liar.nets(ctx, &job, newNetCache(mustStore(t, js), 8))
	if err != nil {
		t.Fatal(err)
	}
	return m, &job, nets
}

// testGeneration returns a draughts generation of four random nets in a
// round robin (12 games), and the same games played locally.
func testGeneration(t *testing.T) (Generation[draughts.Move, *draughts.Game], []tournament.GameResult[draughts.Move]) {
	t.Helper()
	return testGenerationAt(t, 3)
}

// testGenerationAt is testGeneration's generation as generation number
// generation of the run (other openings and players' seeds).
func testGenerationAt(t *testing.T, generation int) (Generation[draughts.Move, *draughts.Game], []tournament.GameResult[draughts.Move]) {
	t.Helper()
	setup := games.Setup{Depth: 2, MaxMoves: 60}
	sp := games.Draughts().Bind(setup)
	rng := rand.New(rand.NewPCG(19, 1))
	nets := make([]*nnet.Net, 4)
	for i := range nets {
		n, err := nnet.Random([]int{nnet.NumDraughtsInputs, 10, 1}, nnet.PieceDiff, rng)
		if err != nil {
			t.Fatal(err)
		}
		nets[i] = n
	}
	schedule, err := tournament.Schedule(tournament.Config{Format: tournament.RoundRobin}, len(nets), nil)
	if err != nil {
		t.Fatal(err)
	}
	players := make([]func() search.Player[draughts.Move, *draughts.Game], len(nets))
	for i, n := range nets {
		if players[i], err = sp.Player(n); err != nil {
			t.Fatal(err)
		}
	}
	local, err := tournament.Run(context.Background(), sp.Arena, players, schedule, tournament.Config{Workers: 2}, 7, generation, nil)
	if err != nil {
		t.Fatal(err)
	}
	return Generation[draughts.Move, *draughts.Game]{Game: "draughts", Setup: setup, Arena: sp.Arena, Player: sp.Player,
		Nets: nets, Schedule: schedule, RunSeed: 7, Generation: generation}, local.Games
}

// sameGames fails the test unless the games are the same, move for move.
func sameGames(t *testing.T, got, want []tournament.GameResult[draughts.Move]) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d games, want %d", len(got), len(want))
	}
	for k := range want {
		g, w := got[k], want[k]
		if g.Pairing != w.Pairing || g.Outcome != w.Outcome || g.Opening != w.Opening || !slices.Equal(g.Moves, w.Moves) {
			t.Errorf("game %d: %d plies, %v; the local game %d plies, %v", k+1, len(g.Moves), g.Outcome, len(w.Moves), w.Outcome)
		}
	}
}

// startWorkers runs n workers on nc until the test ends, and returns the
// function that stops them sooner and waits for them to return.
func startWorkers(t *testing.T, nc *nats.Conn, n int, log *slog.Logger) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := range n {
		w := &Worker{Name: "w" + string(rune('1'+i)), Log: log, Wait: 50 * time.Millisecond}
		wg.Go(func() {
			if err := w.Run(ctx, nc); err != nil {
				t.Errorf("worker %s: %v", w.Name, err)
			}
		})
	}
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); wg.Wait() }) }
	t.Cleanup(stop)
	return stop
}

// TestWorkersPlayTheLocalGames checks that a generation played by one and
// by three workers is the generation played locally, move for move.
func TestWorkersPlayTheLocalGames(t *testing.T) {
	for _, workers := range []int{1, 3} {
		log := slog.New(slog.NewTextHandler(testWriter{t}, nil))
		c, nc := testCoordinator(t, log)
		startWorkers(t, nc, workers, log)
		g, want := testGeneration(t)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		got, err := Play(ctx, c, g)
		cancel()
		if err != nil {
			t.Fatalf("%d workers: %v", workers, err)
		}
		sameGames(t, got, want)
	}
}

// TestLyingWorkerIsRefused checks that forged results never count: a
// worker that returns games with an illegal move, a changed outcome,
// another protocol version, or a legal game its agents would not play
// (caught by replaying every game here) is logged by name, its jobs are
// published again, and honest workers then play the generation as it is
// played locally.
func TestLyingWorkerIsRefused(t *testing.T) {
	_, nc := testServer(t)
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	c, err := NewCoordinator(context.Background(), nc, Limits{}, log)
	if err != nil {
		t.Fatal(err)
	}
	g, want := testGeneration(t)
	g.Replay = 1
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	done := playInBackground(ctx, c, g)
	// The liar answers the first jobs it is given, each forged another
	// way, and acknowledges them.
	js, cons := workersConsumer(t, ctx, nc)
	forgeries := []func(r *Result){
		func(r *Result) { r.Moves[len(r.Moves)-1] = r.Moves[r.Opening] }, // an illegal last move
		func(r *Result) { // another outcome
			if r.Result = game.Draw; r.Reason == game.MoveLimit {
				r.Result = game.FirstWins
			}
		},
		func(r *Result) { r.Version = ProtocolVersion + 1 },
		func(r *Result) { r.Version = 3 }, // in JSON, as a worker of version 3 sends it
		nil,                               // the game of other players: legal, but not the job's
	}
	for i, forge := range forgeries {
		m, job, nets := liarJob(t, ctx, js, cons)
		if forge == nil {
			nets[0], nets[1] = nets[1], nets[0]
		}
		res, err := playJob(ctx, job, nets, nil)
		if err != nil {
			t.Fatal(err)
		}
		if forge != nil {
			forge(res)
		}
		res.Worker = "liar"
		publishResult(t, ctx, js, job.Reply, res)
		m.Ack()
		t.Logf("forgery %d: job %s", i+1, job.ID)
	}
	startWorkers(t, nc, 2, log)
	out := <-done
	if out.err != nil {
		t.Fatal(out.err)
	}
	sameGames(t, out.games, want)
	if n := strings.Count(logs.String(), "refused a result"); n != len(forgeries) || !strings.Contains(logs.String(), "worker=liar") {
		t.Errorf("the coordinator logged %d refused results, want %d naming the liar:\n%s", n, len(forgeries), logs.String())
	}
	for _, v := range []int{3, ProtocolVersion + 1} {
		if say := fmt.Sprintf("the result speaks version %d, this coordinator %d", v, ProtocolVersion); !strings.Contains(logs.String(), say) {
			t.Errorf("no refusal says %q:\n%s", say, logs.String())
		}
	}
	// What the daemon stores of the workers: the liar's refused results,
	// and every game counted once, by the honest workers, by name.
	seen := c.TakeWorkers()
	counted := 0
	for i, w := range seen {
		counted += w.Games
		if i > 0 && seen[i-1].Name >= w.Name {
			t.Errorf("workers out of name order: %q before %q", seen[i-1].Name, w.Name)
		}
		if w.First.IsZero() || w.Latest.Before(w.First) {
			t.Errorf("worker %s: first result %v, latest %v", w.Name, w.First, w.Latest)
		}
	}
	if len(seen) == 0 || seen[0].Name != "liar" || seen[0].Games != 0 || seen[0].Refused != len(forgeries) || counted != len(want) {
		t.Errorf("TakeWorkers = %+v; want the liar first with %d refused and no game, and %d games counted in all", seen, len(forgeries), len(want))
	}
	if again := c.TakeWorkers(); len(again) != 0 {
		t.Errorf("a second TakeWorkers = %+v, want nothing new", again)
	}
}

// publishResult publishes res to subject as a worker of its version
// sends it: JSON up to version 3, binary since.
func publishResult(t *testing.T, ctx context.Context, js jetstream.JetStream, subject string, res *Result) {
	t.Helper()
	data, err := res.MarshalBinary()
	if res.Version <= 3 {
		data, err = json.Marshal(res)
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctx, subject, data); err != nil {
		t.Fatal(err)
	}
}

func mustStore(t *testing.T, js jetstream.JetStream) jetstream.ObjectStore {
	t.Helper()
	s, err := js.ObjectStore(context.Background(), GenomeBucket)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// testWriter sends log lines to the test's log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// syncBuffer is a bytes.Buffer safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestGenerationsThroughWorkersAreLocalOnes steps a small draughts
// population through four generations with a hall of fame, a race and a
// curriculum, once locally and once with the tournaments played by two
// workers: every generation's state (agents, nets, fitness, node budget)
// and report come out the same, and a budget the curriculum raised
// reaches the workers' jobs.
func TestGenerationsThroughWorkersAreLocalOnes(t *testing.T) {
	_, nc := testServer(t)
	log := slog.New(slog.NewTextHandler(testWriter{t}, nil))
	c, err := NewCoordinator(context.Background(), nc, Limits{}, log)
	if err != nil {
		t.Fatal(err)
	}
	startWorkers(t, nc, 2, log)
	setup := games.Setup{Depth: 3, Nodes: 40, MaxMoves: 40}
	local := population.LocalEnv(games.Draughts(), setup)
	var raisedJobs atomic.Int64 // jobs sent at a budget the curriculum raised
	remote := remoteEnv{local, c, &raisedJobs}
	cfg := population.DefaultConfig()
	cfg.Hidden = []int{8}
	cfg.Tournament.Format = tournament.Blondie
	cfg.Tournament.Workers = 2
	cfg.HallOfFame, cfg.HallGames = 2, 2
	cfg.LadderGames, cfg.BaselineEvery = 2, 0
	cfg.RacingGames = 40
	cfg.CurriculumEvery, cfg.CurriculumGames = 1, 2
	cfg.ChampionGames = 4
	stLocal, err := population.New("draughts", nnet.NumDraughtsInputs, cfg, 5)
	if err != nil {
		t.Fatal(err)
	}
	stRemote := stLocal
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	raced, challenged := 0, 0
	for range 4 {
		nextLocal, repLocal, err := population.Step(ctx, local, cfg, stLocal, nil)
		if err != nil {
			t.Fatal(err)
		}
		nextRemote, repRemote, err := population.Step(ctx, remote, cfg, stRemote, nil)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(nextLocal)
		b, _ := json.Marshal(nextRemote)
		if !bytes.Equal(a, b) || !slices.Equal(repLocal.Results.Points, repRemote.Results.Points) || repLocal.Selection != repRemote.Selection {
			t.Fatalf("generation %d: the state after the workers' tournament differs from the local one", stLocal.Generation)
		}
		cl, cr := repLocal.Challenge, repRemote.Challenge
		if cl.Played != cr.Played || cl.ChallengerID != cr.ChallengerID || [3]int{cl.Wins, cl.Draws, cl.Losses} != [3]int{cr.Wins, cr.Draws, cr.Losses} {
			t.Fatalf("generation %d: title match through the workers %+v, here %+v", stLocal.Generation, cr, cl)
		}
		if cl.Played {
			challenged++
		}
		raced += repLocal.Selection.RaceGames
		stLocal, stRemote = nextLocal, nextRemote
	}
	if raced == 0 {
		t.Error("no generation raced: the race's games through the workers were not tested")
	}
	if challenged == 0 {
		t.Error("no generation played a title match: its games through the workers were not tested")
	}
	if raisedJobs.Load() == 0 {
		t.Errorf("no job was sent at a raised budget (the last state's budget %d): the curriculum through the workers was not tested", stRemote.Nodes)
	}
}

// TestServerRestartMidGeneration stops the NATS server while workers play
// a generation and starts it again on the same port and store a few
// hundred milliseconds later: the coordinator and the workers reconnect by
// themselves and the generation comes out as it is played locally.
func TestServerRestartMidGeneration(t *testing.T) {
	dir := t.TempDir()
	r := newRestartable(t, dir, slog.New(slog.NewTextHandler(testWriter{t}, nil)))
	g, want := testGeneration(t)
	var restarted sync.Once
	g.Progress = func(done, total int) {
		if done == 3 {
			restarted.Do(func() { r.restart(dir) })
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	got, err := Play(ctx, r.coord, g)
	if err != nil {
		t.Fatal(err)
	}
	sameGames(t, got, want)
}

// TestCoordinatorResumesMidGeneration stops a coordinator halfway through
// a generation, as a killed daemon would, and plays the generation again
// with a new one on a new connection: the games already played count
// from the results stream, no game counts twice, and the generation is
// the local one.
func TestCoordinatorResumesMidGeneration(t *testing.T) {
	s, nc := testServer(t)
	log := slog.New(slog.NewTextHandler(testWriter{t}, nil))
	c, err := NewCoordinator(context.Background(), nc, Limits{}, log)
	if err != nil {
		t.Fatal(err)
	}
	startWorkers(t, nc, 2, log)
	g, want := testGeneration(t)
	ctx, stop := context.WithCancel(context.Background())
	g.Progress = func(done, total int) {
		if done == total/2 {
			stop()
		}
	}
	if _, err := Play(ctx, c, g); !errors.Is(err, context.Canceled) {
		t.Fatalf("the stopped coordinator: %v, want context.Canceled", err)
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
	counted := 0
	g.Progress = func(done, total int) { counted = done }
	got, err := Play(context.Background(), c2, g)
	if err != nil {
		t.Fatal(err)
	}
	sameGames(t, got, want)
	if counted != len(want) {
		t.Errorf("the resumed coordinator counted %d games, want %d", counted, len(want))
	}
}

// TestWorkerRefusesAnotherVersion publishes a job of the next protocol
// version, a game and a search job, and a game of version 3 in its JSON:
// the worker logs that it refuses it, saying which versions, and leaves
// it in the queue for a worker that speaks it.
func TestWorkerRefusesAnotherVersion(t *testing.T) {
	game := Job{Version: ProtocolVersion + 1, ID: "draughts/1/0/0/x", Game: "draughts", Setup: []byte("{}"),
		Genomes: [2]string{strings.Repeat("a", 64), strings.Repeat("b", 64)}, Reply: resultSubject("draughts", 1, 0)}
	old := game
	old.Version = 3
	for name, job := range map[string]Job{
		"game": game,
		"search": {Version: ProtocolVersion + 1, Kind: SearchJob, ID: searchJobID("chess", 1, 0, 0) + "/x", Game: "chess",
			Positions: []string{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}, Nodes: 100,
			Genome: strings.Repeat("a", 64), Reply: searchSubject("chess", 1, 0)},
		"version 3": old,
	} {
		t.Run(name, func(t *testing.T) {
			_, nc := testServer(t)
			var logs syncBuffer
			log := slog.New(slog.NewTextHandler(&logs, nil))
			if _, err := NewCoordinator(context.Background(), nc, Limits{}, log); err != nil {
				t.Fatal(err)
			}
			js, err := jetstream.New(nc)
			if err != nil {
				t.Fatal(err)
			}
			data, err := job.MarshalBinary()
			if job.Version <= 3 { // as a coordinator of version 3 sends it
				data, err = json.Marshal(job)
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := js.Publish(context.Background(), jobSubject(job.Game), data); err != nil {
				t.Fatal(err)
			}
			startWorkers(t, nc, 1, log)
			deadline := time.Now().Add(30 * time.Second)
			for !strings.Contains(logs.String(), "refused a job") {
				if time.Now().After(deadline) {
					t.Fatalf("the worker did not refuse the job:\n%s", logs.String())
				}
				time.Sleep(10 * time.Millisecond)
			}
			if want := fmt.Sprintf("job %s speaks version %d, this build %d", job.ID, job.Version, ProtocolVersion); !strings.Contains(logs.String(), want) || !strings.Contains(logs.String(), "upgrade") {
				t.Errorf("the refusal does not say which versions, nor to upgrade:\n%s", logs.String())
			}
			info, err := js.Stream(context.Background(), JobsStream)
			if err != nil {
				t.Fatal(err)
			}
			if n := info.CachedInfo().State.Msgs; n != 1 {
				t.Errorf("the jobs stream holds %d jobs after the refusal, want the refused one", n)
			}
		})
	}
}

// TestUnstoredResultGoesBack gives a worker a job whose result cannot be
// stored (its reply subject is in no stream): the worker publishes without
// waiting, hears of the failure afterwards, says so and hands the job back
// instead of acknowledging it, and never counts it as played.
func TestUnstoredResultGoesBack(t *testing.T) {
	_, nc := testServer(t)
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	ctx := context.Background()
	c, err := NewCoordinator(ctx, nc, Limits{}, log)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := testGeneration(t)
	var hashes [2]string
	for i := range hashes {
		if hashes[i], err = c.put(ctx, g.Nets[i], nil); err != nil {
			t.Fatal(err)
		}
	}
	setup, _ := json.Marshal(g.Setup)
	job := Job{Version: ProtocolVersion, Game: "draughts", Setup: setup, RunSeed: g.RunSeed, Generation: g.Generation,
		First: 0, Second: 1, Genomes: hashes, Reply: "evolved.nowhere"}
	job.ID = jobID(job.Game, job.RunSeed, job.Generation, 0) + "/" + job.digest()
	data, err := job.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctx, jobSubject("draughts"), data); err != nil {
		t.Fatal(err)
	}
	var played atomic.Int64
	wctx, cancel := context.WithCancel(ctx)
	w := &Worker{Name: "w1", Log: log, Wait: 50 * time.Millisecond, Played: func(*Job) { played.Add(1) }}
	done := make(chan error, 1)
	go func() { done <- w.Run(wctx, nc) }()
	deadline := time.Now().Add(30 * time.Second)
	for strings.Count(logs.String(), "could not publish a result") < 2 { // played, refused, handed back, played again
		if time.Now().After(deadline) {
			t.Fatalf("the worker did not report the lost result twice:\n%s", logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("worker: %v", err)
	}
	if n := played.Load(); n != 0 {
		t.Errorf("the worker counted %d jobs played, want 0: none of its results was stored", n)
	}
	info, err := js.Stream(ctx, JobsStream)
	if err != nil {
		t.Fatal(err)
	}
	if n := info.CachedInfo().State.Msgs; n != 1 {
		t.Errorf("the jobs stream holds %d jobs, want the one whose result was lost", n)
	}
}

// TestSlowWorkerDoesNotStallTheGeneration has a worker take a job and
// then only say it is at work, for ever: once no game has come back for
// an ack wait, the coordinator publishes the straggling job again, an
// idle worker plays it, and the generation ends as it is played locally.
func TestSlowWorkerDoesNotStallTheGeneration(t *testing.T) {
	_, nc := testServer(t)
	log := slog.New(slog.NewTextHandler(testWriter{t}, nil))
	c, err := NewCoordinator(context.Background(), nc, Limits{AckWait: time.Second}, log)
	if err != nil {
		t.Fatal(err)
	}
	g, want := testGeneration(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := playInBackground(ctx, c, g)
	_, cons := workersConsumer(t, ctx, nc)
	held, err := cons.Next(jetstream.FetchMaxWait(30 * time.Second))
	if err != nil {
		t.Fatal(err)
	}
	hold, release := context.WithCancel(ctx)
	defer release()
	go func() {
		for {
			select {
			case <-hold.Done():
				return
			case <-time.After(200 * time.Millisecond):
				held.InProgress()
			}
		}
	}()
	startWorkers(t, nc, 1, log)
	out := <-done
	if out.err != nil {
		t.Fatal(out.err)
	}
	sameGames(t, out.games, want)
}

// outcome is what Play returned.
type outcome struct {
	games []tournament.GameResult[draughts.Move]
	err   error
}

// playInBackground runs Play in a goroutine and returns where its
// outcome arrives.
func playInBackground(ctx context.Context, c *Coordinator, g Generation[draughts.Move, *draughts.Game]) chan outcome {
	done := make(chan outcome, 1)
	go func() {
		games, err := Play(ctx, c, g)
		done <- outcome{games, err}
	}()
	return done
}

// workersConsumer returns a JetStream context on nc and the workers'
// consumer, for a test that takes jobs by hand.
func workersConsumer(t *testing.T, ctx context.Context, nc *nats.Conn) (jetstream.JetStream, jetstream.Consumer) {
	t.Helper()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	cons, err := js.Consumer(ctx, JobsStream, WorkersConsumer)
	if err != nil {
		t.Fatal(err)
	}
	return js, cons
}

// TestServerComesBackWithoutItsStore replaces the NATS server between
// generations with one on the same port and an empty store (a new server,
// a lost volume): the coordinator finds no stream when it publishes,
// creates the streams and the genome bucket again and puts its genomes;
// the workers find their consumer gone and attach to the new one; the
// generation comes out as it is played locally. (Mid-generation the same
// code runs, but whether a game is still out when the server goes depends
// on timing; between generations it is certain.)
func TestServerComesBackWithoutItsStore(t *testing.T) {
	logs := new(syncBuffer)
	r := newRestartable(t, t.TempDir(), slog.New(slog.NewTextHandler(logs, nil)))
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	g, want := testGeneration(t)
	first, err := Play(ctx, r.coord, g) // a generation with the first server, so that genomes are known stored
	if err != nil {
		t.Fatal(err)
	}
	sameGames(t, first, want)
	r.restart(t.TempDir())
	g.Generation++ // the next generation: the same nets and schedule, other seeds
	_, want = testGenerationAt(t, g.Generation)
	got, err := Play(ctx, r.coord, g)
	if err != nil {
		t.Fatalf("%v\n%s", err, logs.String())
	}
	sameGames(t, got, want)
	if !strings.Contains(logs.String(), "recreated the streams") {
		t.Errorf("the log does not say the streams were recreated:\n%s", logs.String())
	}
}

// restartable is a NATS server on a fixed local port that a test can stop
// and start again, with a coordinator and two workers connected to it.
type restartable struct {
	t      *testing.T
	listen string
	server *Server
	coord  *Coordinator
}

// newRestartable starts the server with its store in dir, the coordinator
// and two workers, all logging to log; the server is closed at the test's
// end.
func newRestartable(t *testing.T, dir string, log *slog.Logger) *restartable {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &restartable{t: t, listen: l.Addr().String()}
	l.Close()
	r.start(dir)
	t.Cleanup(func() { r.server.Close() })
	connect := func(name string) *nats.Conn {
		nc, err := Connect(context.Background(), ConnectOptions{URL: "nats://" + r.listen, Name: name, Log: log})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		return nc
	}
	if r.coord, err = NewCoordinator(context.Background(), connect("coordinator"), Limits{AckWait: 5 * time.Second}, log); err != nil {
		t.Fatal(err)
	}
	startWorkers(t, connect("workers"), 2, log)
	return r
}

// start starts the server on the port with its store in dir.
func (r *restartable) start(dir string) {
	s, err := StartServer(ServerOptions{Listen: r.listen, StoreDir: dir})
	if err != nil {
		r.t.Error(err)
		return
	}
	r.server = s
}

// restart stops the server, waits 300 ms and starts it again with its
// store in dir.
func (r *restartable) restart(dir string) {
	r.server.Close()
	time.Sleep(300 * time.Millisecond)
	r.start(dir)
}

// remoteEnv is a Local Env whose games are played on c's workers, as the
// daemon's are; raised counts the jobs sent at a budget above 40 nodes
// (the curriculum's).
type remoteEnv struct {
	population.Local[draughts.Move, *draughts.Game]
	c      *Coordinator
	raised *atomic.Int64
}

// Play plays the games on the workers.
func (e remoteEnv) Play(ctx context.Context, g games.Binding[draughts.Move, *draughts.Game], nets []*nnet.Net, schedule []tournament.Pairing, first int,
	_ tournament.Config, seed uint64, generation int, progress func(done, total int)) ([]tournament.GameResult[draughts.Move], error) {
	if g.Setup.Nodes > 40 {
		e.raised.Add(int64(len(schedule)))
	}
	return Play(ctx, e.c, Generation[draughts.Move, *draughts.Game]{Game: "draughts", Setup: g.Setup, Arena: g.Arena,
		Nets: nets, Schedule: schedule, First: first, RunSeed: seed, Generation: generation, Progress: progress})
}
